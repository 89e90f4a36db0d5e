"""Passed wins under the shared ``guohu`` option (shared/design/new-families.md §1): one
``pass_violation`` over the three pass codes, for the families that read the option.

A seat that let a legal win go (a discard open to it, or an added kong it could rob) is
barred, until its own next draw or claim (the :class:`~audits.rules.family.PassBook`), from:

* ``off``: nothing;
* ``same_tile`` (漏和): a win on the kind it passed — WIN_DURING_LOUHE;
* ``any_discard`` (过胡): any win on a discard or a robbed kong — WIN_DURING_GUOHU;
* ``higher_value`` (过水): any win not worth more than the best win it passed —
  WIN_DURING_GUOSHUI.  The family sets ``ClaimRules.pass_values`` so the walker hands it
  ``value=`` (a robbing let go has no value on record: it bars under ``any_discard`` only).

No pong or kong is barred here (a family with 过手碰 keeps its own tile passes); a room whose
``guohu`` is None plays its family's own pass options (Guangdong ``louhe_scope``, Sichuan
``guoshui``, Qujing 过胡), which keep their own functions.
"""

from __future__ import annotations

from typing import Optional

from .family import PassBook, WinJudge

#: The code each ``guohu`` value reports.
PASS_CODES = {"same_tile": "WIN_DURING_LOUHE", "any_discard": "WIN_DURING_GUOHU",
              "higher_value": "WIN_DURING_GUOSHUI"}


def pass_violation(book: PassBook, seat: int, claim: str, tile: int, judge: WinJudge, value=None,
                   rules=None, how: str = "discard") -> Optional[str]:
    """``ClaimRules.pass_violation`` driven by ``rules.guohu``: the code of the pass rule that
    bars ``seat``'s win on ``tile`` (see the module docstring), or None."""
    mode = getattr(rules, "guohu", None)
    if claim != "win" or mode in (None, "off"):
        return None
    code = PASS_CODES[mode]
    if mode == "same_tile":
        if tile in book.rob_tiles[seat]:
            return code
        return code if any(t == tile and judge(seat, t, kd) for t, kd in book.win_chances(seat)) else None
    passed = [(t, kd) for t, kd in book.win_chances(seat) if judge(seat, t, kd)]
    if mode == "any_discard":
        return code if passed or book.robs[seat] else None
    if not passed:
        return None
    if value is None:  # no values on record: every later win is barred, as under any_discard
        return code
    best = max(value(seat, t, kd) or 0 for t, kd in passed)
    now = value(seat, tile, None)
    return None if now is not None and now > best else code


__all__ = ["PASS_CODES", "pass_violation"]
