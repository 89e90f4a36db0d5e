"""A per-hand wild kind with a stand-in tile, family-neutral (new-families.md §1).

Families whose wild kind W is chosen per hand by a turned indicator (Xuzhou pei,
Wenzhou 财神, Wuhan 癞子) share these facts:

* **the cycle** (``wild_from``): W is the indicator's own kind (``same``) or the kind
  after it (``next``): 9 → 1 within a suit, and around the family's honour rings
  (:func:`next_kind`; by default 东 → 南 → 西 → 北 → 东 and 中 → 发 → 白 → 中, a family
  passes its own rings and the kinds its cycle skips); :func:`default_wild_of` is the
  walker's ``wild_of`` for a family that names none;
* **the hand's ruleset** (:func:`hand_rules`): from the indicator on, the hand is played
  with the room's ruleset and ``wilds`` = the logged W;
* **discarding a wild** (``wild_discard``): a plain tile, a dead discard (nobody claims
  or wins on it) or a tile not to discard (SPECIAL_TILE_DISCARDED);
  :func:`default_discard_rule` is the walker's ``discard_rule`` for a family that names none;

* **stand-in** (``wild_stand_in``, e.g. 白板 ``5z``): while W is not the stand-in's
  kind, every stand-in tile is a natural tile of kind W in every use (melds, pairs,
  discards, claims), and no wild stands for the stand-in's own kind;
* **max four with the indicator**: a wild may stand for kind ``t`` only while the
  natural tiles of ``t`` in the reading, the player's melds of ``t`` and the turned
  indicator (when it is a ``t``) leave room; :func:`wild_use` is the ``meld_use`` the
  shared win engine (:mod:`audits.rules.hands`) limits wilds with.

Tiles are integers (``schema.tiles``); counts are 34-lists.
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence

import msgspec

from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX, TILE_NAMES

from .family import PLAIN_DISCARD, DiscardVerdict, Violation, ruleset_with

NUM_KINDS = 34

#: The honour rings of the default ``next`` cycle: 东 南 西 北 (1z..4z), then 中 发 白 (7z 6z 5z).
WIND_RING: tuple[int, ...] = (27, 28, 29, 30)
DRAGON_RING: tuple[int, ...] = (33, 32, 31)
#: One ring over every honour, 东 南 西 北 中 发 白 (Wuhan's cycle, before its 痞 kinds are skipped).
HONOUR_RING: tuple[int, ...] = WIND_RING + DRAGON_RING


def next_kind(kind: int, rings: Sequence[Sequence[int]] = (WIND_RING, DRAGON_RING),
              skip: Iterable[int] = ()) -> int:
    """The kind after ``kind`` in a ``next`` cycle: 1 → 2 → … → 9 → 1 within a suit, and
    the following kind in the honour ring holding ``kind``; kinds in ``skip`` (a family's 痞
    kinds) are passed over.  A kind in no ring (or a ring of itself alone) is its own next."""
    skipped = frozenset(skip)
    if kind < 27:
        base = kind - kind % 9
        ring: Sequence[int] = tuple(range(base, base + 9))
    else:
        ring = next((r for r in rings if kind in r), (kind,))
    at = ring.index(kind)
    for step in range(1, len(ring) + 1):
        got = ring[(at + step) % len(ring)]
        if got not in skipped:
            return got
    return kind


def default_wild_of(ruleset: Ruleset, indicator: int) -> int:
    """``TableRules.wild_of`` for a family that names none: the indicator's own kind under
    ``wild_from = same``, else the next kind in the default rings (:func:`next_kind`)."""
    return indicator if ruleset.wild_from == "same" else next_kind(indicator)


_HAND_RULES: dict[tuple[Ruleset, str], Ruleset] = {}
#: (id of a room's ruleset object, wild) -> (that object, its hand ruleset): asked once a hand,
#: so the room's ruleset (of many fields) is hashed only the first time its object is seen
_BY_ROOM_OBJECT: dict[tuple[int, str], tuple[Ruleset, Ruleset]] = {}


def hand_rules(room: Ruleset, wild: str) -> Ruleset:
    """The ruleset a hand with a turned indicator is played with: the room's, with the logged
    wild ``wild`` (a tile name) as its one wild kind (kept once per room and wild, so the
    families' per-ruleset caches see one object per hand kind)."""
    seen = _BY_ROOM_OBJECT.get((id(room), wild))
    if seen is not None and seen[0] is room:
        return seen[1]
    key = (room, wild)
    got = _HAND_RULES.get(key)
    if got is None:
        if len(_HAND_RULES) > 1024:  # bounded: a long audit keeps a small memory
            _HAND_RULES.clear()
        got = _HAND_RULES[key] = msgspec.structs.replace(room, wilds=(wild,))
    if len(_BY_ROOM_OBJECT) > 1024:
        _BY_ROOM_OBJECT.clear()
    _BY_ROOM_OBJECT[(id(room), wild)] = (room, got)
    return got



def plain_rules(ruleset: Ruleset) -> Ruleset:
    """The hand's rules with no wild kinds, for a family whose melds take natural tiles only
    (no wild in a chow, pong or kong): Qujing's meld rules judge the natural tiles with it."""
    if _LAST_PLAIN[0] is ruleset:
        return _LAST_PLAIN[1]
    plain = ruleset_with(ruleset, wilds=())
    _LAST_PLAIN[0], _LAST_PLAIN[1] = ruleset, plain
    return plain


#: the last ruleset asked and its rules with no wild kinds (every claim of a hand asks with one object)
_LAST_PLAIN: list = [None, None]

_DEAD = DiscardVerdict(True, None)


def default_discard_rule(ruleset: Ruleset, table, seat: int, tile: int) -> DiscardVerdict:
    """``TableRules.discard_rule`` for a family that names none, from ``wild_discard``: a wild
    kind discarded is plain (``plain``), dead (``dead``: nobody claims or wins on it), or a
    tile not to discard (``forbidden``: SPECIAL_TILE_DISCARDED; the discard is dead too, so
    no claim follows one rule broken with another)."""
    mode = ruleset.wild_discard
    if mode == "plain" or not ruleset.wilds or tile not in _wild_set(ruleset.wilds):
        return PLAIN_DISCARD
    if mode == "dead":
        return _DEAD
    return DiscardVerdict(True, Violation("SPECIAL_TILE_DISCARDED", f"seat {seat} discarded the wild "
                                          f"{TILE_NAMES[tile]} (wild_discard = forbidden)", "no wild discarded",
                                          TILE_NAMES[tile]))


def default_discard_kinds(ruleset: Ruleset) -> frozenset[int]:
    """The kinds :func:`default_discard_rule` may find other than plain under ``ruleset``: the
    wild kinds, none when ``wild_discard`` is ``plain`` (the walker asks the rule about these
    discards only, every other one being plain)."""
    if ruleset.wild_discard == "plain" or not ruleset.wilds:
        return frozenset()
    return _wild_set(ruleset.wilds)


_WILD_SETS: dict[tuple[str, ...], frozenset[int]] = {}


def _wild_set(wilds: tuple[str, ...]) -> frozenset[int]:
    got = _WILD_SETS.get(wilds)
    if got is None:
        got = _WILD_SETS[wilds] = frozenset(TILE_INDEX[t] for t in wilds)
    return got


def stand_in_active(wild: Optional[int], stand_in: Optional[int]) -> bool:
    """The stand-in reads as W: there is one, and W is not the stand-in's own kind."""
    return stand_in is not None and wild is not None and wild != stand_in


def fold_tile(tile: int, wild: Optional[int], stand_in: Optional[int]) -> int:
    """The kind a physical tile plays as: a stand-in is W while W is another kind."""
    return wild if tile == stand_in and stand_in_active(wild, stand_in) else tile


def fold_tiles(tiles: Iterable[int], wild: Optional[int], stand_in: Optional[int]) -> list[int]:
    """:func:`fold_tile` of each tile."""
    if not stand_in_active(wild, stand_in):
        return list(tiles)
    return [wild if t == stand_in else t for t in tiles]


def fold_stand_in(counts: Sequence[int], wild: Optional[int], stand_in: Optional[int]) -> list[int]:
    """34 counts with the stand-in tiles counted as natural W tiles (a copy)."""
    out = list(counts)
    if stand_in_active(wild, stand_in) and out[stand_in]:
        out[wild] += out[stand_in]
        out[stand_in] = 0
    return out


def folded_meld_use(melds: Iterable, wild: Optional[int], stand_in: Optional[int]) -> list[int]:
    """34 counts of the tiles the melds represent, a stand-in read as W (a chow's run
    is its physical tiles folded and sorted; a pong or kong stands for its folded kind)."""
    use = [0] * NUM_KINDS
    for m in melds:
        if m.kind == "chow":
            for t in fold_tiles(m.tiles, wild, stand_in):
                use[t] += 1
        else:
            use[fold_tile(m.of, wild, stand_in)] += 3 if m.kind == "pong" else 4
    return use


def wild_use(meld_use: Optional[Sequence[int]], indicator: Optional[int], wild: Optional[int],
             stand_in: Optional[int]) -> list[int]:
    """The ``meld_use`` that limits what a wild may stand for (max four per kind):
    the melds' tiles, the turned indicator (a tile in play, counted for its own kind),
    and no room at all for the stand-in's kind while it reads as W."""
    use = list(meld_use) if meld_use is not None else [0] * NUM_KINDS
    if indicator is not None:
        use[indicator] += 1
    if stand_in_active(wild, stand_in):
        use[stand_in] = 4
    return use


__all__ = ["DRAGON_RING", "HONOUR_RING", "WIND_RING", "default_discard_rule", "default_wild_of", "fold_stand_in",
           "fold_tile", "fold_tiles", "folded_meld_use", "hand_rules", "next_kind", "stand_in_active", "wild_use"]
