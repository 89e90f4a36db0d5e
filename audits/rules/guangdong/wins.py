"""Guangdong 鸡平和 win checks (guangdong.md §6): 4 sets + a pair with no wild tiles,
十三幺 (thirteen orphans), and 七对 (seven pairs) only with option ``seven_pairs_fan``.

The audit asks these for every discard, so :func:`seat_waits` is a fast superset
test on the reducer's base-5 suit keys and :func:`completes` is exact, cached in
the seat's entry until its hand changes.  The entry is ``[keys, {tile: completes}]``
(a non-empty list: an entry is truthy): with no wild tiles the suit tables answer
4 sets + a pair exactly, melds or not (the max-four headroom only limits wilds).
"""

from __future__ import annotations

from functools import partial
from typing import Optional, Sequence

from replay.melds import Meld
from schema.ruleset import Ruleset

from .. import hands, plain_wins
# 十三幺 is the shared special hand (audits/rules/special_hands.py), here with no wilds
from ..special_hands import is_shisanyao, shisanyao_one_short


def is_thirteen_orphans(counts: Sequence[int], melds: Sequence[Meld] = ()) -> bool:
    """十三幺: fully concealed, one of each of the 13 kinds plus one more of any of them."""
    return not melds and is_shisanyao(counts)


def seven_pairs_allowed(ruleset: Ruleset) -> bool:
    """七对 wins only when the room gives it a value (``seven_pairs_fan``)."""
    return ruleset.seven_pairs_fan is not None


def is_winning(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = (),
               plain: Optional[int] = None) -> bool:
    """Concealed counts (the winning tile included) + melds form a winning hand: 4 sets
    and a pair (melds count as sets), 十三幺, or 七对 where the room allows it."""
    use = hands.meld_use_of(melds) if melds else None
    if hands.is_complete(counts, 0, use):
        return True
    if not melds:
        if is_thirteen_orphans(counts):
            return True
        if seven_pairs_allowed(ruleset) and hands.is_seven_pairs(counts, 0, False):
            return True
    return False


def seat_waits(ruleset: Ruleset, counts: Sequence[int], keys: Sequence[int], held: int,
               melds: Sequence[Meld]) -> "list | bool":
    """The seat's wait entry when one tile could complete its hand (听牌), else False.

    A superset test: the standard shape with one free tile (the suit tables), or,
    with no melds, 十三幺 one short, or seven pairs one short where allowed.
    """
    if held % 3 != 1:
        return False
    if hands.is_complete_keys(keys[0], keys[1], keys[2], keys[3], 1):
        return [tuple(keys), {}]
    if not melds and held == 13:
        if shisanyao_one_short(counts, keys):
            return [tuple(keys), {}]
        if seven_pairs_allowed(ruleset) and counts.count(1) + counts.count(3) <= 1:  # counts are 0..4
            return [tuple(keys), {}]
    return False


#: ``WinRules.completes``, ``WinRules.waits`` and ``WinRules.drawn_within_waits``: the no-wild
#: ones (audits/rules/plain_wins.py) on this family's shapes.
completes = partial(plain_wins.completes, is_winning)
waits = partial(plain_wins.waits, is_winning)
drawn_within_waits = plain_wins.drawn_within_waits


__all__ = ["completes", "drawn_within_waits", "is_thirteen_orphans", "is_winning", "seat_waits",
           "seven_pairs_allowed", "waits"]
