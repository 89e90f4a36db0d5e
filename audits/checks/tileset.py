"""The set's tiles (catalogue group ``table``): TILE_NOT_IN_SET, shared by every handler that
sees tiles, judged from ``Ruleset.tile_count`` (108 suited tiles, 136 with the honours, 144
with the flowers), and the structural break of a flower played as a tile."""

from __future__ import annotations

from schema import events as ev
from schema.tiles import NUM_KINDS, TILE_INDEX

from ..context import AuditContext

#: How TILE_NOT_IN_SET names each set (by ``AuditContext.set_limit``): its tiles, their spellings.
SET_LABELS = {27: ("the 108 suited tiles", "1m..9s"), 34: ("the 136 tiles of suits and honours", "1m..7z"),
              42: ("the 144 tiles", "1m..8f")}


def check_in_set(ctx: AuditContext, e: ev.Event, tiles, seat) -> None:
    """Only the tiles of the ruleset's set are played; one finding per event."""
    limit = ctx.set_limit
    for name in tiles:
        if TILE_INDEX[name] >= limit:
            label, spelled = SET_LABELS[limit]
            ctx.find("TILE_NOT_IN_SET", e, seat=seat, expected=spelled, actual=name,
                     message=f"{name} is not one of {label}")
            return


def check_played(ctx: AuditContext, e: ev.Event, tiles, seat) -> None:
    """Tiles played in a set or a win: each is of the set (TILE_NOT_IN_SET), and a flower,
    which is only ever set aside, breaks the log before any rule reads it as a kind."""
    if not ctx.playable_names.issuperset(tiles):
        check_in_set(ctx, e, tiles, seat)
        if any(TILE_INDEX[name] >= NUM_KINDS for name in tiles):
            ctx.apply(e)  # the reducer's structural break (``flower_played``)
