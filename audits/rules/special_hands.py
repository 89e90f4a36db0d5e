"""The 14-tile special hands several families share, wild-aware (new-families.md §1, ``luanpai``).

* **十三烂 / 乱牌 ``shisanlan``** (xuzhou.md §7.3, hainan.md §5): fully concealed, 14
  tiles of 14 different kinds; within each suit any two tiles differ in rank by at
  least 3 (1-4-7, 2-5-8, 3-6-9); honours free.
* **十三幺 ``shisanyao``**: one of each of the 13 terminals and honours plus one more of
  them.

Both take the natural counts (the winning tile included), how many wilds are held and
the ``use`` counts that limit what a wild may stand for (max four per kind:
:func:`audits.rules.wilds.wild_use`).  Without wilds they are plain predicates.  The
caller checks that the hand has no melds.
"""

from __future__ import annotations

from typing import Optional, Sequence

#: The 13 terminal and honour kinds of 十三幺: 1m 9m 1p 9p 1s 9s and 东 南 西 北 白 发 中.
ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_ORPHAN_SET = frozenset(ORPHANS)


def spaced(mask: int) -> bool:
    """十三烂's spacing: every two ranks in the 9-bit mask of one suit differ by at least 3."""
    return not (mask & (mask >> 1)) and not (mask & (mask >> 2))


def _rank_mask(counts: Sequence[int], suit: int) -> int:
    """The ranks of ``suit`` held, as a 9-bit mask (bit r: rank r + 1)."""
    base = 9 * suit
    mask = 0
    for r in range(9):
        if counts[base + r]:
            mask |= 1 << r
    return mask


#: every set of ranks of one suit that 十三烂 allows (as 9-bit masks), largest first
SPACED_RANKS: tuple[int, ...] = tuple(sorted((m for m in range(512) if spaced(m)),
                                             key=lambda m: -bin(m).count("1")))


def _room(count: int, use: Optional[Sequence[int]], k: int) -> int:
    """How many more tiles of kind ``k`` a wild may add (max four, melds and the indicator
    counted)."""
    return 4 - count - (use[k] if use is not None else 0)


def is_shisanlan(counts: Sequence[int], wilds: int = 0, use: Optional[Sequence[int]] = None) -> bool:
    """十三烂: 14 tiles of 14 kinds, each suit's ranks spaced by 3 or more; each wild takes
    a kind of its own that keeps the spacing and has room."""
    if sum(counts) + wilds != 14 or max(counts) > 1:
        return False
    spare = 0  # kinds a wild could still take
    for s in range(3):
        base = 9 * s
        natural = _rank_mask(counts, s)
        if not spaced(natural):
            return False
        if wilds:
            free = 0
            for r in range(9):
                if not natural >> r & 1 and _room(0, use, base + r) > 0:
                    free |= 1 << r
            for m in SPACED_RANKS:
                if m & natural == natural and not m & ~(natural | free):
                    spare += bin(m & ~natural).count("1")
                    break
    if not wilds:
        return True
    for k in range(27, 34):
        if not counts[k] and _room(0, use, k) > 0:
            spare += 1
    return wilds <= spare


def is_shisanyao(counts: Sequence[int], wilds: int = 0, use: Optional[Sequence[int]] = None) -> bool:
    """十三幺: every terminal and honour kind once, one of them twice, nothing else; a wild
    fills a missing kind (or the pair) where that kind has room."""
    if sum(counts) + wilds != 14:
        return False
    pairs = 0
    for k in range(34):
        c = counts[k]
        if k in _ORPHAN_SET:
            if c > 2:
                return False
            if c == 0 and _room(0, use, k) < 1:
                return False
            pairs += c == 2
        elif c:
            return False
    if pairs > 1:
        return False
    if pairs == 1:
        return True
    # the pair is a wild doubling a kind (one tile there already, natural or wild)
    return wilds > 0 and any(_room(1, use, k) >= 1 for k in ORPHANS)


#: A suit key (base 5, rank 1 most significant) holds no rank but 1 and 9 when ``key % 5**8 < 5``.
_NOT_ONE = 5 ** 8


def shisanyao_one_short(counts: Sequence[int], keys: Sequence[int]) -> bool:
    """A 13-tile concealed hand one tile short of 十三幺 (no wilds): no suited tile but
    terminals (read off the reducer's base-5 suit keys) and 12 or more of the 13 orphan
    kinds held.  A superset test for a wait entry: the tile that completes it is exact
    in the family's ``completes``."""
    return (keys[0] % _NOT_ONE < 5 and keys[1] % _NOT_ONE < 5 and keys[2] % _NOT_ONE < 5
            and sum(1 for k in ORPHANS if counts[k]) >= 12)


def shisanlan_one_short(counts: Sequence[int]) -> bool:
    """A 13-tile concealed hand one tile short of 十三烂 (no wilds): 13 kinds, each suit's
    ranks :func:`spaced`.  A superset test, as :func:`shisanyao_one_short`."""
    return max(counts) <= 1 and all(spaced(_rank_mask(counts, s)) for s in range(3))


__all__ = ["ORPHANS", "SPACED_RANKS", "is_shisanlan", "is_shisanyao", "shisanlan_one_short", "shisanyao_one_short",
           "spaced"]
