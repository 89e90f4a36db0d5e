"""Changsha winning hands (changsha.md §9.1–§9.3): the small-win shape with a 将 pair, the
shape units that need no 将 pair, the event units, and the highest reading.

Tiles are the 27 suited kinds (0..26, ``schema.tiles``); there are no wilds and no honours.
A **将 tile** is a tile of rank 2, 5 or 8.  The standard shape is four sets and a pair
(melds count as sets); its concealed part is searched here directly (a small recursion
over 27 kinds), so the rules do not depend on the shared wild engine.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, NamedTuple, Sequence

from replay.melds import Meld
from schema.ruleset import Ruleset

#: 将 tiles: rank 2, 5 or 8 of each suit (§0 notation).
JIANG = frozenset(t for t in range(27) if t % 9 in (1, 4, 7))
#: The shape units (§9.3): they make a win legal without a 将 pair.
SHAPE_UNITS = ("duidui", "jiangyise", "qingyise", "qidui", "quanqiuren")
#: The event units (§9.3): they never replace the pair.
EVENT_UNITS = ("haidi", "haidi_pao", "gangshang_kaihua", "gangshang_pao", "qianggang", "tianhe", "dihe")


def is_jiang(t: int) -> bool:
    """A tile of rank 2, 5 or 8 (将 tile)."""
    return t % 9 in (1, 4, 7)


class ShapeReading(NamedTuple):
    """One way the concealed part makes sets and a pair: the pair's kind and whether every
    concealed set is a pong."""

    pair: int
    all_pongs: bool


@lru_cache(maxsize=1 << 16)
def _readings(counts: tuple[int, ...]) -> tuple[ShapeReading, ...]:
    """Every (pair, all concealed sets pongs) of a 3k+2 concealed part as sets and one pair."""
    out: set[ShapeReading] = set()
    c = list(counts)
    for p in range(27):
        if c[p] >= 2:
            c[p] -= 2
            for pongs_only in _sets(c, 0, True):
                out.add(ShapeReading(p, pongs_only))
            c[p] += 2
    return tuple(sorted(out))


def _sets(c: list[int], i: int, pongs_only: bool) -> Iterable[bool]:
    """Ways ``c`` (from kind ``i`` on) splits into pongs and chows; yields whether only pongs."""
    while i < 27 and not c[i]:
        i += 1
    if i == 27:
        yield pongs_only
        return
    if c[i] >= 3:
        c[i] -= 3
        yield from _sets(c, i, pongs_only)
        c[i] += 3
    if i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        yield from _sets(c, i, False)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


def shape_readings(counts: Sequence[int]) -> tuple[ShapeReading, ...]:
    """The standard-shape readings of the concealed part (empty: not a standard shape)."""
    c = tuple(counts[:27])
    if any(counts[27:]) or sum(c) % 3 != 2:
        return ()
    return _readings(c)


def seven_pairs(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """七小对 (§9.3): fourteen concealed tiles as seven pairs, no meld; four equal tiles are two."""
    return not melds and sum(counts[:27]) == 14 and not any(counts[27:]) and all(x % 2 == 0 for x in counts[:27])


def all_tiles(counts: Sequence[int], melds: Sequence[Meld]) -> list[int]:
    """Every kind in the hand: concealed tiles and meld tiles."""
    out = [t for t in range(min(len(counts), 34)) if counts[t]]
    for m in melds:
        out.extend(m.tiles)
    return out


#: The kinds of each suit as a slice of the counts: the three suits, then the honours (27..33)
#: as a fourth.
_SUIT_SPANS = ((0, 9), (9, 18), (18, 27), (27, 34))


def one_suit(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """Every tile of one suit."""
    suits = {t // 9 for m in melds for t in m.tiles}
    for s, (lo, hi) in enumerate(_SUIT_SPANS):
        if any(counts[lo:hi]):
            suits.add(s)
    return len(suits) == 1


#: The kinds that are no 将 tile (ranks other than 2, 5, 8, and any kind past the suits).
_NOT_JIANG = tuple(t for t in range(34) if t >= 27 or not is_jiang(t))
_NOT_JIANG_SUITED = tuple(t for t in _NOT_JIANG if t < 27)


def all_jiang(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """将将胡's condition (§9.3): every tile, concealed and melded, is a 将 tile."""
    n = len(counts)
    kinds = _NOT_JIANG if n >= 34 else _NOT_JIANG_SUITED if n == 27 else tuple(t for t in _NOT_JIANG if t < n)
    if any(map(counts.__getitem__, kinds)):
        return False
    return all(t < 27 and is_jiang(t) for m in melds for t in m.tiles)


class Shapes(NamedTuple):
    """What the tiles hold, independent of the moment: the standard readings, seven pairs,
    将将胡 and the meld facts the units read."""

    readings: tuple[ShapeReading, ...]
    seven_pairs: bool
    jiangyise: bool
    one_suit: bool
    melds_pong_type: bool
    melds: int
    quads: int


def shapes_of(counts: Sequence[int], melds: Sequence[Meld]) -> Shapes:
    """The shape facts of a complete-size hand (concealed counts with the winning tile)."""
    seven = seven_pairs(counts, melds)
    return Shapes(
        readings=shape_readings(counts),
        seven_pairs=seven,
        jiangyise=sum(counts[:34]) % 3 == 2 and all_jiang(counts, melds),
        one_suit=one_suit(counts, melds),
        melds_pong_type=all(m.kind != "chow" for m in melds),
        melds=len(melds),
        quads=sum(1 for x in counts[:27] if x == 4) if seven else 0,
    )


def small_shape(ruleset: Ruleset, sh: Shapes) -> bool:
    """The small-win shape (§9.1 2a): a standard reading whose pair is a 将 pair (any pair
    under ``jiajiang_hu``)."""
    if ruleset.jiajiang_hu:
        return bool(sh.readings)
    return any(is_jiang(r.pair) for r in sh.readings)


def quanqiuren_holds(ruleset: Ruleset, sh: Shapes, how: str) -> bool:
    """全求人 (§9.3): four melds and the pair completed by the last tile; by self-draw only
    with ``quanqiuren_self_draw``; a 将 pair with ``quanqiuren_258``."""
    if sh.melds != 4 or not sh.readings:
        return False
    if how == "self_draw" and not ruleset.quanqiuren_self_draw:
        return False
    if ruleset.quanqiuren_258 and not any(is_jiang(r.pair) for r in sh.readings):
        return False
    return True


def shape_unit_sets(ruleset: Ruleset, sh: Shapes, how: str) -> list[list[str]]:
    """The shape units of each reading family (standard, seven pairs), highest last
    considered by the caller; an empty list of lists: neither shape, and no 将将胡."""
    out: list[list[str]] = []
    if sh.readings:
        names: list[str] = []
        if sh.melds_pong_type and any(r.all_pongs for r in sh.readings):
            names.append("duidui")
        if sh.jiangyise:
            names.append("jiangyise")
        if sh.one_suit:
            names.append("qingyise")
        if quanqiuren_holds(ruleset, sh, how):
            names.append("quanqiuren")
        out.append(names)
    if sh.seven_pairs:
        names = ["qidui"] + ["haohua"] * sh.quads
        if sh.jiangyise:
            names.append("jiangyise")
        if sh.one_suit:
            names.append("qingyise")
        out.append(names)
    if not out and sh.jiangyise:
        out.append(["jiangyise"])  # 将将胡 needs no shape
    return out


def best_shape_units(ruleset: Ruleset, sh: Shapes, how: str) -> list[str]:
    """The shape units of the highest reading (most units; the standard reading first on a tie)."""
    best: list[str] = []
    for names in shape_unit_sets(ruleset, sh, how):
        if len(names) > len(best):
            best = names
    return best


def is_legal_shape(ruleset: Ruleset, sh: Shapes, how: str = "discard") -> bool:
    """§9.1 item 2: the small-win shape, or at least one shape unit with its own shape."""
    return small_shape(ruleset, sh) or bool(best_shape_units(ruleset, sh, how))


def complete_with_any_pair(sh: Shapes) -> bool:
    """The tiles are a standard shape with some pair (WIN_PAIR_NOT_258 when no 将 pair and no
    shape unit)."""
    return bool(sh.readings)


def is_winning(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld], how: str = "discard") -> bool:
    """A complete hand that is a legal win by its tiles (§9.1 item 2)."""
    return is_legal_shape(ruleset, shapes_of(counts, melds), how)


def _could_complete(counts: Sequence[int], melds: Sequence[Meld]) -> list[int]:
    """The kinds that may complete the hand, a superset of its waits: a kind held, or one
    with a held kind of its suit at most two ranks away (else the new tile stands alone: no
    set, no pair), and every 将 tile when all the tiles are 将 tiles (将将胡 needs no shape)."""
    if any(counts[27:34]):
        return []  # an honour is never part of a Changsha hand (§9.1)
    jiang = all_jiang(counts, melds)
    out = []
    for t in range(27):
        if counts[t] or (jiang and is_jiang(t)):
            out.append(t)
            continue
        r = t % 9
        lo, hi = t - min(r, 2), t + min(8 - r, 2)
        if any(counts[lo:hi + 1]):
            out.append(t)
    return out


def waits(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = ()) -> list[int]:
    """The kinds that complete a 3k+1 hand into a legal win as a plain self-draw (§6.1's ready
    test; dead waits count)."""
    c = list(counts)
    out = []
    for t in _could_complete(c, melds):
        c[t] += 1
        if is_winning(ruleset, c, melds, "self_draw"):
            out.append(t)
        c[t] -= 1
    return out


def is_ready(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = ()) -> bool:
    """§6.1: the hand waits on some kind (``waits`` is not empty), found at its first wait."""
    c = list(counts)
    if sum(c[:27]) % 3 == 1 and not any(c[27:34]) and all_jiang(c, melds):
        return True  # any 将 tile completes 将将胡, which needs no shape
    for t in _could_complete(c, melds):
        c[t] += 1
        won = is_winning(ruleset, c, melds, "self_draw")
        c[t] -= 1
        if won:
            return True
    return False


__all__ = ["EVENT_UNITS", "JIANG", "SHAPE_UNITS", "ShapeReading", "Shapes", "all_jiang", "best_shape_units",
           "complete_with_any_pair", "is_jiang", "is_legal_shape", "is_ready", "is_winning", "one_suit",
           "quanqiuren_holds",
           "seven_pairs", "shape_readings", "shape_unit_sets", "shapes_of", "small_shape", "waits"]
