"""Fault classes of the new families' shared ground (shared/design/new-families.md §1, §2):
a turned indicator dropped, its wild misnamed or turned from the wrong end, and a tile set
aside whose replacement is skipped or drawn from the wall.  Each is planted in a simulated
room of any family that plays the piece (a turned wild, flowers or single-tile kongs); a
family lists them among its own classes (``paipu/sim/<family>/faults.py`` ``FAULTS``) with
:func:`ground_faults` (its name), as the toy families of the tests do.

Each class cuts the room right after the planted event (closed as dissolved), so the finding
it must raise is the first one the change causes.
"""

from __future__ import annotations

from typing import Callable

import msgspec

from schema import events as ev
from schema.tiles import NUM_KINDS, TILE_INDEX, TILE_NAMES

from .fault_kit import Events, Fault, NotApplicable, _Ctx, _cut

#: The events that are a seat's first action after the deal (the indicator comes before the dealer's).
_ACTIONS = (ev.TileDiscarded, ev.KongConcealed, ev.KongAdded, ev.HandWon, ev.TileSetAside, ev.HandDrawn)


def _indicators(ctx: _Ctx) -> list[int]:
    return [i for i, e in enumerate(ctx.events) if type(e) is ev.IndicatorTurned]


def f_indicator_dropped(ctx: _Ctx) -> tuple[Events, int]:
    """翻牌: a hand's indicator is not logged (the dealer acts with no wild turned)."""
    i = ctx.pick(_indicators(ctx))
    j = next((k for k in range(i + 1, len(ctx.events)) if isinstance(ctx.events[k], _ACTIONS)), None)
    if j is None:
        raise NotApplicable("no action after the indicator")
    ctx.events = ctx.events[:i] + ctx.events[i + 1:]
    return _cut(ctx, j, [], j - 1)


def f_wild_misnamed(ctx: _Ctx) -> tuple[Events, int]:
    """翻牌: the logged wild is not the family's wild of the indicator."""
    i = ctx.pick(_indicators(ctx))
    e = ctx.events[i]
    wrong = ctx.pick([k for k in range(NUM_KINDS) if k != TILE_INDEX[e.wild]])
    return _cut(ctx, i, [msgspec.structs.replace(e, wild=TILE_NAMES[wrong])], i)


def f_indicator_wrong_end(ctx: _Ctx) -> tuple[Events, int]:
    """翻牌: the indicator is turned from the other end of the wall than ``indicator_from``."""
    i = ctx.pick(_indicators(ctx))
    e = ctx.events[i]
    return _cut(ctx, i, [msgspec.structs.replace(e, source="tail" if e.source == "wall" else "wall")], i)


def _set_asides(ctx: _Ctx) -> list[int]:
    """Tiles set aside whose next event is their replacement draw."""
    ev_ = ctx.events
    return [i for i, e in enumerate(ev_[:-2]) if type(e) is ev.TileSetAside
            and type(ev_[i + 1]) is ev.TileDrawn and ev_[i + 1].seat == e.seat]


def f_set_aside_not_replaced(ctx: _Ctx) -> tuple[Events, int]:
    """补花 / single-tile kong: the seat plays on without its replacement draw."""
    i = ctx.pick(_set_asides(ctx))
    nxt = ctx.events[i + 2]
    if nxt.__class__ not in (ev.TileDiscarded, ev.TileSetAside):
        raise NotApplicable("the replacement is not followed by the seat's own play")
    return _cut(ctx, i + 1, [nxt], i + 1)


def f_set_aside_replaced_from_wall(ctx: _Ctx) -> tuple[Events, int]:
    """补花 / single-tile kong: the replacement is logged as a draw from the wall's head."""
    i = ctx.pick([i for i in _set_asides(ctx) if ctx.events[i + 1].source == "tail"])
    return _cut(ctx, i + 1, [msgspec.structs.replace(ctx.events[i + 1], source="wall")], i + 1)


#: name -> (code, group, function)
_ROWS: dict[str, tuple[str, str, Callable[[_Ctx], tuple[Events, int]]]] = {
    "indicator_dropped": ("WILD_INDICATOR_MISSING", "table", f_indicator_dropped),
    "wild_misnamed": ("WILD_KIND_MISMATCH", "table", f_wild_misnamed),
    "indicator_wrong_end": ("WILD_INDICATOR_MISSING", "table", f_indicator_wrong_end),
    "set_aside_not_replaced": ("KONG_REPLACEMENT_NOT_FROM_TAIL", "table", f_set_aside_not_replaced),
    "set_aside_replaced_from_wall": ("KONG_REPLACEMENT_NOT_FROM_TAIL", "table", f_set_aside_replaced_from_wall),
}

#: The classes of a turned wild, and of tiles set aside.
INDICATOR_FAULTS = ("indicator_dropped", "wild_misnamed", "indicator_wrong_end")
SET_ASIDE_FAULTS = ("set_aside_not_replaced", "set_aside_replaced_from_wall")


def ground_faults(*families: str, names: tuple[str, ...] = tuple(_ROWS)) -> dict[str, Fault]:
    """The shared ground's fault classes ``names``, planted in the rooms of ``families``."""
    return {name: Fault(name, _ROWS[name][0], _ROWS[name][1], (_ROWS[name][2].__doc__ or name).strip().splitlines()[0],
                        _ROWS[name][2], families=tuple(families)) for name in names}


__all__ = ["INDICATOR_FAULTS", "SET_ASIDE_FAULTS", "ground_faults"]
