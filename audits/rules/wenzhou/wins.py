"""Wenzhou winning hands (wenzhou.md §6, §7): 17 tiles counting each meld as 3.

* **standard** (§7.1): five sets and a pair (牛), melds as sets, 财神 as wilds (the shared
  engine :mod:`audits.rules.hands` decides any 3k+2 count, so 16+1 needs no engine of
  its own; the hand size is the ruleset's ``hand_size``);
* **硬八对** ``badui`` (§7.2): eight pairs and one more tile, fully concealed, with no 财神
  standing for another kind (财神归位 allowed); a soft eight pairs wins only under
  ``soft_badui``;
* **bare 三财神** (§7.3): all three 财神 held at one's own turn wins with any tiles
  (``sancaishen_on_discard``: on a discard too) — the scoring judges the moment;
* **财神单钓** (§6): a seat whose tiles before the winning tile are five complete sets once
  one 财神 is set apart waits on every kind (:func:`in_caishen_dandiao`).

Every check works on the natural counts (白板 folded into W, the 财神 taken out) and the
max-four room of :func:`.caishen.use_of`.
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Sequence

from replay.melds import Meld
from schema.ruleset import Ruleset

from .. import hands
from . import caishen

#: pairs in an eight-pairs hand (AA×8 + B)
BADUI_PAIRS = 8


def sets_only(naturals: Sequence[int], wilds: int) -> bool:
    """The tiles form complete sets with no pair (3k tiles), ``wilds`` standing in where
    needed: the sum over the suits of the least wilds that make each suit sets only (the
    shared engine's suit tables) is at most ``wilds``.  (The max-four room is not applied:
    a set of 财神 alone can take any kind.)"""
    if (sum(naturals) + wilds) % 3:
        return False
    return hands.sets_need(naturals) <= wilds


def guiwei(ruleset: Ruleset, naturals: Sequence[int], wilds: int, use: Sequence[int]) -> Optional[list[int]]:
    """The naturals with every 财神 read as W itself (财神归位), or None when that reading
    breaks the max-four rule (白板 read as W, W's melds and the indicator counted)."""
    if not wilds:
        return list(naturals)
    w = caishen.wild(ruleset)
    out = list(naturals)
    out[w] += wilds
    if out[w] + use[w] > 4:
        return None
    return out


#: (id of the ruleset, the melds) -> (ruleset, the max-four room as a tuple, its binding
#: candidates): a hand's room is asked again and again while its melds stand
_ROOMS: dict[tuple, tuple] = {}
#: a room's binding candidates: (kind, room used) of each kind with room used, the stand-in left out
_CANDIDATES: dict[tuple, tuple[tuple[int, int], ...]] = {}


def room_of(ruleset: Ruleset, melds: Sequence[Meld]) -> tuple[int, ...]:
    """:func:`.caishen.use_of` as a tuple, kept per ruleset object and melds."""
    key = (id(ruleset), tuple(melds))
    got = _ROOMS.get(key)
    if got is None or got[0] is not ruleset:
        if len(_ROOMS) > 4096:  # bounded: a long audit keeps a small memory
            _ROOMS.clear()
        got = _ROOMS[key] = (ruleset, tuple(caishen.use_of(ruleset, melds)))
    return got[1]


def _candidates(ruleset: Ruleset, use: Sequence[int]) -> tuple[tuple[int, int], ...]:
    white = caishen.facts.pei(ruleset).stand_in
    key = (white, tuple(use))
    got = _CANDIDATES.get(key)
    if got is None:
        if len(_CANDIDATES) > 4096:  # bounded: a long audit keeps a small memory
            _CANDIDATES.clear()
        got = _CANDIDATES[key] = tuple((k, x) for k, x in enumerate(use) if x and k != white)
    return got


def _binding_use(ruleset: Ruleset, naturals: Sequence[int], wilds: int, use: Sequence[int]):
    """The part of ``use`` that can change whether the hand is complete, or None when none can
    (the engine's fast path): a kind's room binds only where its naturals, melds and indicator
    with every 财神 held would pass four (elsewhere no reading within the 财神 held can break
    it, so its room is left out and its suit takes the engine's fast path); the stand-in's
    room 0 never binds (no natural 白板 is left to join, and a group of 财神 alone may take
    any other kind)."""
    if not wilds:
        return None
    out = None
    for k, x in _candidates(ruleset, use):
        if naturals[k] + x + wilds > 4:
            if out is None:
                out = [0] * len(use)
            out[k] = x
    return out


def standard(ruleset: Ruleset, naturals: Sequence[int], wilds: int, use: Sequence[int]) -> bool:
    """Five sets and a pair (melds already counted as sets), 财神 as wilds with room."""
    return hands.is_complete(naturals, wilds, _binding_use(ruleset, naturals, wilds, use))


def hard_standard(ruleset: Ruleset, naturals: Sequence[int], wilds: int, use: Sequence[int]) -> bool:
    """A standard reading in which no 财神 stands for another kind (all 归位)."""
    n = guiwei(ruleset, naturals, wilds, use)
    return n is not None and hands.is_complete(n, 0, None)


#: the pairs a count of tiles of one kind makes (a kind folded from two, W and 白板, may pass four)
_PAIRS_OF = tuple(c // 2 for c in range(18))


def _pairs(naturals: Sequence[int], wilds: int, use: Optional[Sequence[int]]) -> int:
    """The most pairs the tiles make, each 财神 pairing a single with room or another 财神."""
    pairs = sum(map(_PAIRS_OF.__getitem__, naturals))
    if use is None:
        singles = sum(naturals) - 2 * pairs
    else:
        singles = sum(1 for k, c in enumerate(naturals) if c & 1 and c + 1 + use[k] <= 4)
    matched = min(wilds, singles)
    return pairs + matched + (wilds - matched) // 2


def badui(ruleset: Ruleset, naturals: Sequence[int], wilds: int, use: Sequence[int], has_melds: bool) -> str:
    """八对 (§7.2): ``hard`` (no 财神 standing for another kind), ``soft`` (only with a 财神
    standing in), or "" (not eight pairs and one, or not fully concealed)."""
    if has_melds or sum(naturals) + wilds != 2 * BADUI_PAIRS + 1:
        return ""
    n = guiwei(ruleset, naturals, wilds, use)
    if n is not None and sum(map(_PAIRS_OF.__getitem__, n)) >= BADUI_PAIRS:
        return "hard"
    if wilds and _pairs(naturals, wilds, use) >= BADUI_PAIRS:
        return "soft"
    return ""


class Shape(NamedTuple):
    """What a 17-tile hand holds: ``standard`` (any reading), ``hard`` (a standard reading
    with every 财神 归位), ``badui`` (``hard`` / ``soft`` / ""), the 财神 held."""

    standard: bool
    hard: bool
    badui: str
    wilds: int

    def legal(self, ruleset: Ruleset) -> bool:
        """A shape that wins (the bare 三财神 aside): standard, or a hard (or, under
        ``soft_badui``, a soft) eight pairs."""
        return self.standard or self.badui == "hard" or (self.badui == "soft" and ruleset.soft_badui)


def shape(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = (),
          plain: Optional[int] = None) -> Shape:
    """The :class:`Shape` of concealed counts (the winning tile included) + melds."""
    naturals, wilds = caishen.split(ruleset, counts, plain)
    return shape_of(ruleset, naturals, wilds, melds)


def shape_of(ruleset: Ruleset, naturals: Sequence[int], wilds: int, melds: Sequence[Meld] = ()) -> Shape:
    """:func:`shape` of the concealed tiles already split (:func:`.caishen.split`) into natural
    counts and the 财神 held (read only); kept for the hands last asked (a win on a discard
    is judged complete, then scored, on the same tiles)."""
    key = (id(ruleset), tuple(naturals), wilds, tuple(melds))
    got = _SHAPES.get(key)
    if got is not None and got[0] is ruleset:
        return got[1]
    use = room_of(ruleset, melds)
    std = standard(ruleset, naturals, wilds, use)
    hard = std and (not wilds or hard_standard(ruleset, naturals, wilds, use))
    sh = Shape(std, hard, badui(ruleset, naturals, wilds, use, bool(melds)), wilds)
    if len(_SHAPES) > 64:  # bounded: only the moment's few hands are asked again
        _SHAPES.clear()
    _SHAPES[key] = (ruleset, sh)
    return sh


#: (id of the ruleset, naturals, 财神 held, melds) -> (ruleset, Shape) of the hands last asked
_SHAPES: dict[tuple, tuple] = {}


def bare_sancaishen(ruleset: Ruleset, counts: Sequence[int], plain: Optional[int] = None) -> bool:
    """All three 财神 held (§7.3): the bare win's tiles."""
    return caishen.held(ruleset, counts, plain) >= 3


def _wins(ruleset: Ruleset, naturals: Sequence[int], wilds: int, use: Sequence[int], melds: Sequence[Meld]) -> bool:
    if standard(ruleset, naturals, wilds, use):
        return True
    b = badui(ruleset, naturals, wilds, use, bool(melds))
    return b == "hard" or (b == "soft" and ruleset.soft_badui)


def is_winning(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = (),
               plain: Optional[int] = None) -> bool:
    """Concealed counts (the winning tile included) + melds hold a Wenzhou win (§7.1–§7.3;
    the moment of a bare 三财神 is the scoring's)."""
    naturals, wilds = caishen.split(ruleset, counts, plain)
    return wilds >= 3 or _wins(ruleset, naturals, wilds, room_of(ruleset, melds), melds)


def in_caishen_dandiao(ruleset: Ruleset, before: Sequence[int], melds: Sequence[Meld] = ()) -> bool:
    """财神单钓 (§6): the concealed tiles before the winning tile hold a 财神 such that the
    rest (the other 财神 as wilds) are complete sets: the seat waits on every kind."""
    naturals, wilds = caishen.split(ruleset, before)
    return caishen_dandiao(naturals, wilds)


def caishen_dandiao(naturals: Sequence[int], wilds: int) -> bool:
    """:func:`in_caishen_dandiao` of the tiles before the winning tile already split
    (:func:`.caishen.split`) into natural counts and the 财神 held."""
    return wilds >= 1 and sets_only(naturals, wilds - 1)


def seat_waits(ruleset: Ruleset, counts: Sequence[int], keys: Sequence[int], held: int,
               melds: Sequence[Meld]) -> "list | bool":
    """The seat's wait entry when one tile could complete its hand (听牌), else False: a
    superset test (complete with one more 财神, without the max-four room; eight pairs by
    pair count; three 财神 held); :func:`completes` is exact.  The entry is
    ``[naturals, 财神 held, {tile: completes}]`` (the room is :func:`room_of`'s)."""
    if held % 3 != 1:
        return False
    naturals, wilds = caishen.split(ruleset, counts)
    if wilds >= 3 or hands.is_complete(naturals, wilds + 1, None) \
            or (not melds and _pairs(naturals, wilds + 1, None) >= BADUI_PAIRS):
        return [naturals, wilds, {}]
    return False


def completes(ruleset: Ruleset, entry: list, counts: Sequence[int], melds: Sequence[Meld], tile: int) -> bool:
    """Is the hand complete with ``tile`` taken from another seat (a plain tile; 白板 is W
    while it stands in)?  Exact (the bare 三财神 only under ``sancaishen_on_discard``),
    cached in the entry."""
    cache = entry[2]
    got = cache.get(tile)
    if got is None:
        naturals = entry[0]
        k = caishen.fold(ruleset, tile)
        naturals[k] += 1
        try:
            # the whole shape (kept: the win's score reads it next)
            got = shape_of(ruleset, naturals, entry[1], melds).legal(ruleset) or \
                (entry[1] >= 3 and ruleset.sancaishen_on_discard)
        finally:
            naturals[k] -= 1
        cache[tile] = got
    return got


def waits(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = ()) -> list[int]:
    """The plain tiles that complete a 16-tile (3k+1) hand on a discard, 白板 included while
    it stands in for W; a kind whose four physical tiles are seen (held, melded, or the
    indicator) cannot come, and a 财神 is never discarded."""
    seen = list(counts)
    for m in melds:
        for t in m.tiles:
            seen[t] += 1
    naturals, wilds = caishen.split(ruleset, counts)
    use = caishen.use_of(ruleset, melds)
    ind = caishen.indicator(ruleset)
    if ind is not None:
        seen[ind] += 1
    w = caishen.wild(ruleset)
    out = []
    for t in range(34):
        if seen[t] >= 4 or t == w:
            continue
        k = caishen.fold(ruleset, t)
        naturals[k] += 1
        if _wins(ruleset, naturals, wilds, use, melds) or (wilds >= 3 and ruleset.sancaishen_on_discard):
            out.append(t)
        naturals[k] -= 1
    return out


def describe_wait(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld], tile: int) -> str:
    """财神单钓 is the one wait named (§6)."""
    before = list(counts)
    return "财神单钓 (caishen single wait)" if in_caishen_dandiao(ruleset, before, melds) else ""


__all__ = ["BADUI_PAIRS", "Shape", "badui", "bare_sancaishen", "completes", "describe_wait", "guiwei",
           "caishen_dandiao", "hard_standard", "in_caishen_dandiao", "is_winning", "room_of", "seat_waits", "sets_only", "shape", "shape_of",
           "standard", "waits"]
