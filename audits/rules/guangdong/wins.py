"""Guangdong 鸡平和 win checks (guangdong.md §6): 4 sets + a pair with no wild tiles,
十三幺 (thirteen orphans), and 七对 (seven pairs) only with option ``seven_pairs_fan``.

The audit asks these for every discard, so :func:`seat_waits` is a fast superset
test on the reducer's base-5 suit keys and :func:`completes` is exact, cached in
the seat's entry until its hand changes.  The entry is ``[keys, {tile: completes}]``
(a non-empty list: an entry is truthy): with no wild tiles the suit tables answer
4 sets + a pair exactly, melds or not (the max-four headroom only limits wilds).
"""

from __future__ import annotations

from typing import Optional, Sequence

from replay.melds import Meld
from replay.state import KEY_STEP, SUIT_OF
from schema.ruleset import Ruleset

from .. import hands
from ..qujing.wins import physical_held  # the same fact: copies held, concealed and melded
# 十三幺 is the shared special hand (audits/rules/special_hands.py), here with no wilds
from ..special_hands import ORPHANS, is_shisanyao


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


#: A suit key (base 5, 1 most significant) holds only its 1 and 9 when the middle seven
#: digits are 0: ``key % 5**8 < 5``.
_NOT_ONE = 5 ** 8


def _orphans_only(keys: Sequence[int]) -> bool:
    """No suited tile but terminals (honours are all orphan kinds)."""
    return keys[0] % _NOT_ONE < 5 and keys[1] % _NOT_ONE < 5 and keys[2] % _NOT_ONE < 5


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
        if _orphans_only(keys) and sum(1 for k in ORPHANS if counts[k]) >= 12:
            return [tuple(keys), {}]
        if seven_pairs_allowed(ruleset) and counts.count(1) + counts.count(3) <= 1:  # counts are 0..4
            return [tuple(keys), {}]
    return False


def completes(ruleset: Ruleset, entry: list, counts: Sequence[int], melds: Sequence[Meld], tile: int) -> bool:
    """Is the hand complete with ``tile`` taken from another seat?  Exact, cached in the entry.

    4 sets + a pair is the suit tables' answer on the keys with the tile added (no wild
    tiles: exact, melds or not); 十三幺 and 七对 are tried only with no melds."""
    keys, cache = entry
    got = cache.get(tile)
    if got is None:
        k = list(keys)
        k[SUIT_OF[tile]] += KEY_STEP[tile]
        got = hands.is_complete_keys(k[0], k[1], k[2], k[3], 0)
        if not got and not melds:
            c = list(counts)
            c[tile] += 1
            got = is_winning(ruleset, c, melds)
        cache[tile] = got
    return got


def drawn_within_waits(ruleset: Ruleset, counts: Sequence[int]) -> bool:
    """``RuleFamily.wins.drawn_within_waits``: no tile counts differently drawn than taken from
    another seat here (no wild tiles, no shape won by self-draw only), so the wait entry
    of the hand before a draw and :func:`completes` on it answer the draw."""
    return True


def waits(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = ()) -> list[int]:
    """The tiles that complete a 13-tile (3k+1) hand; a kind held four times cannot come."""
    held = physical_held(counts, melds)
    out = []
    c = list(counts)
    for t in range(34):
        if held[t] >= 4:
            continue
        c[t] += 1
        if is_winning(ruleset, c, melds):
            out.append(t)
        c[t] -= 1
    return out


def describe_wait(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld], tile: int) -> str:
    """No special waits are named in this ruleset."""
    return ""
