"""The 配子 (配儿), Xuzhou's per-hand wild (xuzhou.md §2, §3).

* **Which kind** (§3.1, option ``wild_from``): ``next`` (default) — the kind after the
  turned indicator, suits 1→2→…→9→1 within the suit, winds 东→南→西→北→东, dragons
  中→发→白→中 (the shared cycle, :func:`audits.rules.wilds.next_kind`); ``same`` — the
  indicator's own kind.
* **白板 stands in** (§3.2, option ``wild_stand_in`` = ``5z``): while W ≠ 白板 each 白板 is
  a natural W in every use, and no 配子 stands for 白板.
* **What a 配子 may do** (§3.3): in a win it stands for any kind with room (max four per
  kind, the indicator, the stand-ins and the melds counted) or is read as W; it is
  never in a meld; discarded, it is dead (nobody may claim or win on it) or forbidden
  (option ``wild_discard``).

The hand's W is the ruleset's one wild kind (``ruleset.wilds``: the walker plays each
hand with the logged W swapped in); before the indicator there is none.  The
indicator is not a field of the ruleset: the cycle is one-to-one, so it is the kind
before W under ``next`` and W itself under ``same`` (:func:`indicator_of`).
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Sequence

from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX, TILE_NAMES

from .. import wilds as shared
from ..wilds import default_wild_of, next_kind

#: the kind before each kind in the cycle (the cycle is one-to-one), for :func:`indicator_of`
_PREVIOUS = {next_kind(k): k for k in range(34)}


def previous_kind(kind: int) -> int:
    """The inverse of :func:`next_kind`: the indicator under ``next`` that names ``kind``."""
    return _PREVIOUS[kind]


#: ``TableRules.wild_of`` (§3.1): the shared cycle's default rings are Xuzhou's —
#: 9 → 1 within a suit, 东 → 南 → 西 → 北 → 东, 中 → 发 → 白 → 中 — and ``same`` is the indicator
wild_of = default_wild_of


def indicator_of(ruleset: Ruleset, wild: int) -> int:
    """The indicator that makes ``wild`` the hand's W (the inverse of :func:`wild_of`)."""
    return wild if ruleset.wild_from == "same" else previous_kind(wild)


class Pei(NamedTuple):
    """One hand's wild facts: W, the stand-in while it reads as W (else None), the
    indicator, and the ``use`` counts that limit what a 配子 stands for besides melds."""

    wild: Optional[int]
    stand_in: Optional[int]
    indicator: Optional[int]
    base_use: tuple[int, ...]


_PEI: dict[tuple, Pei] = {}
#: id(ruleset) -> (ruleset, its Pei): the hot path asks once per discard and draw
_BY_RULES: dict[int, tuple[Ruleset, Pei]] = {}
#: the last ruleset asked and its Pei (a hand's questions all come with one ruleset object)
_LAST: list = [None, None]


def pei(ruleset: Ruleset) -> Pei:
    """The hand's :class:`Pei` (cached per ruleset object, and per W, ``wild_from`` and stand-in)."""
    if _LAST[0] is ruleset:
        return _LAST[1]
    got = _BY_RULES.get(id(ruleset))
    if got is not None and got[0] is ruleset:
        _LAST[0], _LAST[1] = ruleset, got[1]
        return got[1]
    key = (ruleset.wilds, ruleset.wild_from, ruleset.wild_stand_in)
    p = _PEI.get(key)
    if p is None:
        wild = TILE_INDEX[ruleset.wilds[0]] if ruleset.wilds else None
        stand = TILE_INDEX[ruleset.wild_stand_in] if ruleset.wild_stand_in else None
        indicator = indicator_of(ruleset, wild) if wild is not None else None
        active = stand if shared.stand_in_active(wild, stand) else None
        p = _PEI[key] = Pei(wild, active, indicator, tuple(shared.wild_use(None, indicator, wild, stand)))
    if len(_BY_RULES) > 4096:  # bounded: a long audit keeps a small memory
        _BY_RULES.clear()
    _BY_RULES[id(ruleset)] = (ruleset, p)
    _LAST[0], _LAST[1] = ruleset, p
    return p


def split(ruleset: Ruleset, counts: Sequence[int], plain: Optional[int] = None) -> tuple[list[int], int]:
    """(natural counts, 配子 held) of concealed counts: the 配子 taken out (``plain``: a W
    tile won from another seat stays a natural tile) and the 白板 folded into W."""
    p = pei(ruleset)
    naturals = list(counts)
    wilds = 0
    w = p.wild
    if w is not None:
        wilds = naturals[w] - (1 if plain == w else 0)
        naturals[w] -= wilds
        naturals = shared.fold_stand_in(naturals, w, p.stand_in)
    return naturals, wilds


def use_of(ruleset: Ruleset, melds: Sequence) -> list[int]:
    """What limits a 配子 (max four per kind): the melds (白板 read as W), the indicator,
    and no room for 白板 while it stands in."""
    p = pei(ruleset)
    if not melds:
        return list(p.base_use)
    use = shared.folded_meld_use(melds, p.wild, p.stand_in)
    for k, x in enumerate(p.base_use):
        if x:
            use[k] = 4 if k == p.stand_in else use[k] + x
    return use


def fold(ruleset: Ruleset, tile: int) -> int:
    """The kind a natural tile plays as (白板 is W while it stands in)."""
    p = pei(ruleset)
    return p.wild if tile == p.stand_in else tile  # stand_in is None unless it reads as W


def fold_all(ruleset: Ruleset, tiles: Sequence[int]) -> list[int]:
    """:func:`fold` of each tile (the hand's 配子 facts looked up once)."""
    p = pei(ruleset)
    w, white = p.wild, p.stand_in
    return [w if t == white else t for t in tiles]


def is_pei(ruleset: Ruleset, tile: int) -> bool:
    """The tile is a 配子 (a W tile) this hand."""
    return pei(ruleset).wild == tile


def name(tile: Optional[int]) -> str:
    return "-" if tile is None else TILE_NAMES[tile]


__all__ = ["Pei", "fold", "fold_all", "indicator_of", "is_pei", "next_kind", "pei", "previous_kind", "split", "use_of",
           "wild_of"]
