"""The 癞子 and the 痞子, Wuhan 红中赖子杠's special tiles (wuhan.md §3).

* **W, the 癞子 kind** (§3.1): the kind after the turned indicator — the next number in a
  suit (9 → 1), and around the honour cycle 东 → 南 → 西 → 北 → 中 → 发 → 白 → 东 with the 痞
  kinds skipped (the shared :func:`audits.rules.wilds.next_kind` over one honour ring).
* **The 痞 kinds** (``pi_tiles``): 红中 (and 发财 under 红中发财赖子杠). A 痞 tile is never
  melded, never discarded (only set aside as a 红中杠), and no 癞子 stands for it; a seat
  holding one cannot win.
* **What a 癞子 may stand for** (§3.2): any kind but a 痞 kind, within the max-four room
  (``wild_max_four``: the seat's natural tiles of the kind, concealed and melded, the
  turned indicator and the 癞子 standing for it stay at most four).

The hand's W is the ruleset's one wild kind (the walker swaps the logged W into ``wilds``).
"""

from __future__ import annotations

from typing import Optional, Sequence

from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX, TILE_NAMES

from ..wilds import HONOUR_RING, next_kind

NUM_KINDS = 34
#: suited 2, 5 and 8 (将: the pair a 屁胡 needs; the tiles of 将一色)
JIANG_KINDS = frozenset(k for k in range(27) if k % 9 in (1, 4, 7))

_PI: dict[tuple[str, ...], frozenset[int]] = {}


def pi_kinds(ruleset: Ruleset) -> frozenset[int]:
    """The 痞 kinds of the room (``pi_tiles``)."""
    if ruleset is _LAST_PI[0]:
        return _LAST_PI[1]
    key = tuple(ruleset.pi_tiles)
    got = _PI.get(key)
    if got is None:
        got = _PI[key] = frozenset(TILE_INDEX[t] for t in key)
    _LAST_PI[:] = (ruleset, got)
    return got


#: the last ruleset asked and its 痞 kinds (a hand asks with one ruleset throughout)
_LAST_PI: list = [None, frozenset()]
#: (痞 tiles, W) -> the first non-痞 indicator giving W
_DEFAULT_INDICATOR: dict = {}


def wild_of(ruleset: Ruleset, indicator: int) -> int:
    """``TableRules.wild_of`` (§3.1): the kind after ``indicator``, 9 → 1 in a suit, around
    东南西北中发白 with the 痞 kinds skipped (北 → 发 and 中 → 发 with 红中 the 痞子).  Kept per
    (痞 kinds, indicator)."""
    pis = pi_kinds(ruleset)
    key = (pis, indicator)
    got = _WILD_OF.get(key)
    if got is None:
        got = _WILD_OF[key] = next_kind(indicator, (HONOUR_RING,), pis)
    return got


#: (痞 kinds, indicator) -> W
_WILD_OF: dict = {}


def wild(ruleset: Ruleset) -> Optional[int]:
    """The hand's W (None before the indicator)."""
    return TILE_INDEX[ruleset.wilds[0]] if ruleset.wilds else None


def default_indicator(ruleset: Ruleset, w: Optional[int]) -> Optional[int]:
    """An indicator that gives ``w`` and is not a 痞 kind (for callers without the table:
    the cycle is not one-to-one — 北 and 中 both give 发 — and only a non-痞 indicator can
    bind the max-four room)."""
    if w is None:
        return None
    key = (tuple(ruleset.pi_tiles), w)
    if key not in _DEFAULT_INDICATOR:
        _DEFAULT_INDICATOR[key] = next((k for k in range(NUM_KINDS)
                                        if k not in pi_kinds(ruleset) and wild_of(ruleset, k) == w), None)
    return _DEFAULT_INDICATOR[key]


def split(ruleset: Ruleset, counts: Sequence[int]) -> tuple[list[int], int]:
    """(natural counts, 癞子 held): every W tile in the hand is a 癞子 (none is ever won from
    another seat: a 癞子 is never discarded or melded)."""
    w = wild(ruleset)
    naturals = list(counts)
    if w is None:
        return naturals, 0
    n = naturals[w]
    naturals[w] = 0
    return naturals, n


def meld_use(melds: Sequence) -> list[int]:
    """34 counts of the tiles the seat's melds hold (a kong 4, a pong 3, a chow its run)."""
    use = [0] * NUM_KINDS
    for m in melds:
        if m.kind == "chow":
            for t in m.tiles:
                use[t] += 1
        else:
            use[m.of] += 4 if m.kind.startswith("kong") else 3
    return use


def room(ruleset: Ruleset, naturals: Sequence[int], melds: Sequence, indicator: Optional[int]) -> list[int]:
    """How many 癞子 may stand for each kind (§3.2): 0 for a 痞 kind; with ``wild_max_four``,
    four less the kind's natural tiles held, melded and turned; else as many as needed."""
    if ruleset.wild_max_four:
        out = [4 - a - b for a, b in zip(naturals, meld_use(melds))]
        if min(out) < 0:
            out = [max(0, x) for x in out]
        if indicator is not None:
            out[indicator] = max(0, out[indicator] - 1)
    else:
        out = [14] * NUM_KINDS
    for k in pi_kinds(ruleset):
        out[k] = 0
    return out


def name(tile: Optional[int]) -> str:
    return "-" if tile is None else TILE_NAMES[tile]


__all__ = ["JIANG_KINDS", "default_indicator", "meld_use", "name", "pi_kinds", "room", "split", "wild", "wild_of"]
