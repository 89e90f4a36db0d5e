"""Hainan 海南麻将 win shapes (hainan.md §5): 4 sets + a pair (melds count as sets), 七对
(four equal tiles as two pairs by ``qidui_four_as_two``) and 十三幺 — the seed's unconnected
hand (``luanpai = shisanlan``), thirteen orphans (``shisanyao``) or either (``both``).

There are no wild tiles and a flower is never in a hand (the reducer keeps flowers outside
the counts).  As in every family the audit asks :func:`seat_waits` for each discard, a
superset test on the reducer's base-5 suit keys, and :func:`completes`, exact and cached in
the seat's entry ``[keys, {tile: completes}]`` until the hand changes.
"""

from __future__ import annotations

from functools import partial
from typing import Optional, Sequence

from replay.melds import Meld
from schema.ruleset import Ruleset

from .. import hands, plain_wins
# 十三烂 and 十三幺 are the shared special hands (audits/rules/special_hands.py), without wilds
from ..special_hands import is_shisanlan, is_shisanyao, shisanlan_one_short, shisanyao_one_short


def seven_pairs(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = ()) -> bool:
    """七对 (§5): 14 concealed tiles, no melds, seven pairs; four equal tiles are two pairs
    only with ``qidui_four_as_two``."""
    if melds or not hands.is_seven_pairs(counts, 0, False):
        return False
    return ruleset.qidui_four_as_two or max(counts) <= 2


def luanpai_names(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = ()) -> list[str]:
    """The 十三幺 shapes (§5, ``luanpai``) a concealed 14-tile hand holds: ``shisanlan``
    (no two equal; within a suit any two ranks differ by 3 or more) and/or ``shisanyao``
    (the 13 terminals and honours plus one of them)."""
    if melds:
        return []
    mode = ruleset.luanpai
    out = []
    if mode in ("shisanlan", "both") and is_shisanlan(counts):
        out.append("shisanlan")
    if mode in ("shisanyao", "both") and is_shisanyao(counts):
        out.append("shisanyao")
    return out


def is_winning(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = (),
               plain: Optional[int] = None) -> bool:
    """Concealed counts (the winning tile included) + melds form a §5 shape."""
    use = hands.meld_use_of(melds) if melds else None
    if hands.is_complete(counts, 0, use):
        return True
    if melds:
        return False
    return seven_pairs(ruleset, counts) or bool(luanpai_names(ruleset, counts))


def seat_waits(ruleset: Ruleset, counts: Sequence[int], keys: Sequence[int], held: int,
               melds: Sequence[Meld]) -> "list | bool":
    """The seat's wait entry when one tile could complete its hand (听牌), else False: a
    superset test (the standard shape with one free tile; with no melds 七对, 十三烂 or
    十三幺 one short)."""
    if held % 3 != 1:
        return False
    if hands.is_complete_keys(keys[0], keys[1], keys[2], keys[3], 1):
        return [tuple(keys), {}]
    if not melds and held == 13:
        if counts.count(1) + counts.count(3) <= 1:  # counts are 0..4: seven pairs one short
            return [tuple(keys), {}]
        mode = ruleset.luanpai
        if mode != "shisanlan" and shisanyao_one_short(counts, keys):
            return [tuple(keys), {}]
        if mode != "shisanyao" and shisanlan_one_short(counts):
            return [tuple(keys), {}]
    return False


#: ``WinRules.completes``, ``WinRules.waits`` and ``WinRules.drawn_within_waits``: the no-wild
#: ones (audits/rules/plain_wins.py) on this family's shapes.
completes = partial(plain_wins.completes, is_winning)
waits = partial(plain_wins.waits, is_winning)
drawn_within_waits = plain_wins.drawn_within_waits


__all__ = ["completes", "drawn_within_waits", "is_winning", "luanpai_names", "seat_waits",
           "seven_pairs", "waits"]
