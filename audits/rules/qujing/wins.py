"""Qujing win checks on the live table: who is one tile from complete, which tiles
complete a hand, its waits, and the names of special waits (qujing.md §4–§5).

The audit asks these for every discard, so they work on the reducer's per-seat
base-5 suit keys (:data:`replay.state.KEY_STEP`) and keep a per-seat entry that
lives until that seat's hand changes:

``[naturals or None, wilds held, natural suit keys, {tile: completes}]``
"""

from __future__ import annotations

from typing import Optional, Sequence

from replay.melds import Meld
from replay.state import KEY_STEP, SUIT_OF
from schema.ruleset import Ruleset

from .. import hands
from .claims import _WILD_KINDS, wild_kinds
from .fans import sixiaoji


def seat_waits(ruleset: Ruleset, counts: Sequence[int], keys: Sequence[int], held: int,
               melds: Sequence[Meld]) -> "list | bool":
    """The seat's wait entry when one tile could complete its hand (听牌), else False.

    A superset test (the fast table look-up without the melds' max-four
    headroom, and 小七对 by its odd counts): no chance is missed, and
    :func:`completes` confirms each tile exactly.
    """
    if held % 3 != 1:
        return False
    natural_keys = list(keys)
    wilds = 0
    wild = _WILD_KINDS.get(ruleset.wilds) or wild_kinds(ruleset)
    for k in wild:
        n = counts[k]
        if n:
            wilds += n
            natural_keys[SUIT_OF[k]] -= n * KEY_STEP[k]  # chickens are not naturals
    if wilds >= 4 and ruleset.sixiaoji_on_discard:
        return [None, wilds, natural_keys, {}]  # 四小鸡 on a discard wins on any tile
    if hands.is_complete_keys(natural_keys[0], natural_keys[1], natural_keys[2], natural_keys[3], wilds + 1):
        return [None, wilds, natural_keys, {}]
    if not melds:
        # 小七对: every natural kind with an odd count needs one wild
        odd = counts.count(1) + counts.count(3)  # counts are 0..4 (a fifth copy is TILE_OVERCOUNT)
        for k in wild:
            odd -= counts[k] & 1
        if odd <= wilds + 1:
            return [None, wilds, natural_keys, {}]
    return False


def drawn_within_waits(ruleset: Ruleset, counts: Sequence[int]) -> bool:
    """``RuleFamily.wins.drawn_within_waits``: a tile drawn completes the hand only where
    :func:`seat_waits` of the hand before the draw gave an entry (its superset test lets
    one more chicken stand for a plain tile, and a drawn chicken is one more), and a
    plain tile drawn exactly where :func:`completes` says the same tile from another
    seat does, unless the chickens held are 四小鸡, which wins a self-draw whatever the
    wait."""
    wilds = 0
    for k in _WILD_KINDS.get(ruleset.wilds) or wild_kinds(ruleset):
        wilds += counts[k]
    return not sixiaoji(wilds)


def completes(ruleset: Ruleset, entry: list, counts: Sequence[int], melds: Sequence[Meld], tile: int) -> bool:
    """Is the hand complete with ``tile`` taken from another seat (a discard or a
    robbed kong's tile, so a plain tile even when it is a wild kind)?  Exact, cached
    in the entry."""
    naturals, wilds, keys, cache = entry
    got = cache.get(tile)
    if got is not None:
        return got
    if wilds >= 4 and ruleset.sixiaoji_on_discard:
        cache[tile] = True
        return True
    if naturals is None:
        naturals = entry[0] = list(counts)
        for k in wild_kinds(ruleset):
            naturals[k] = 0
    k = list(keys)
    k[SUIT_OF[tile]] += KEY_STEP[tile]
    naturals[tile] += 1
    try:
        ok = hands.is_complete_keys(k[0], k[1], k[2], k[3], wilds) or \
            hands.is_seven_pairs(naturals, wilds, bool(melds))
        if ok and melds:
            ok = hands.is_winning(naturals, wilds, hands.meld_use_of(melds), True)
    finally:
        naturals[tile] -= 1
    cache[tile] = ok
    return ok


def physical_held(counts: Sequence[int], melds: Sequence[Meld]) -> list[int]:
    """Physical copies of each kind the seat holds: concealed (wild kinds included) and
    in its own melds."""
    held = list(counts)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    return held


def waits(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = ()) -> list[int]:
    """Plain tiles that would complete a 13-tile (3k+1) hand.  A kind whose four physical
    tiles the player already holds (in hand or in its kongs) cannot come, wild or not."""
    naturals = list(counts)
    wilds = 0
    for k in wild_kinds(ruleset):
        wilds += naturals[k]
        naturals[k] = 0
    use = hands.meld_use_of(melds) if melds else None
    return hands.waits(naturals, wilds, use, bool(melds), physical=physical_held(counts, melds))


def is_winning(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = (),
               plain: Optional[int] = None) -> bool:
    """Structural check (no fan) of concealed counts (the winning tile included) + melds;
    ``plain``: a wild-kind tile won from another seat, which stays plain.  Four
    chickens held (四小鸡) win where the ruleset lets them."""
    naturals = list(counts)
    wilds = 0
    for k in wild_kinds(ruleset):
        n = naturals[k] - (1 if k == plain else 0)
        wilds += n
        naturals[k] -= n
    if sixiaoji(wilds):
        return True
    use = hands.meld_use_of(melds) if melds else None
    return hands.is_winning(naturals, wilds, use, bool(melds))


def describe_wait(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld], tile: int) -> str:
    """单吊小鸡 when the hand before ``tile`` was complete but for one chicken left
    waiting alone (melded or concealed); otherwise ""."""
    naturals = list(counts)
    wilds = 0
    for k in wild_kinds(ruleset):
        wilds += naturals[k]
        naturals[k] = 0
    if wilds == 1 and sum(naturals) % 3 == 0 and _sets_only(naturals):
        return "单吊小鸡"
    return ""


def _sets_only(naturals: list[int]) -> bool:
    """Every natural tile in sets (no pair): the suit tables' sets-only cost is 0."""
    keys = hands.hand_keys(naturals)
    return all(hands.suit_entry(k, honours=i == 3)[0] == 0 for i, k in enumerate(keys))
