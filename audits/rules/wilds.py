"""A per-hand wild kind with a stand-in tile, family-neutral (new-families.md §1).

Families whose wild kind W is chosen per hand by a turned indicator (Xuzhou 配子,
Wenzhou 财神) share these facts:

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

NUM_KINDS = 34


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


__all__ = ["fold_stand_in", "fold_tile", "fold_tiles", "folded_meld_use", "stand_in_active", "wild_use"]
