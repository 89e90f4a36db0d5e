"""The walker's handlers for the new families' events (shared/design/new-families.md §1):
the turned indicator, tiles set aside, opening wins, tiles revealed after a kong, the 海底
offers and the birds (catalogue groups ``table`` and ``wins``).

Each runs the family's ``event_checks`` (where the new families judge these events), applies
the event through the context (the reducer's one checked path) and keeps the shared
memories the event changes: tiles turned from the wall count toward TILE_OVERCOUNT, and a
hand that changed has stale waits.  Which of these events a ruleset allows, and when, is
the family's to judge.
"""

from __future__ import annotations

from schema import events as ev
from schema.tiles import NUM_KINDS, TILE_INDEX, copies_in_set

from ..context import AuditContext
from . import claims, wild
from .table import check_overcount, not_in_ruleset
from .tileset import check_in_set


def _turned(ctx: AuditContext, e: ev.Event, tiles) -> None:
    """Tiles turned face up from the wall are seen: each counts toward its kind's copies."""
    seen = ctx.seen
    over = False
    for name in tiles:
        k = TILE_INDEX[name]
        seen[k] += 1
        over = over or seen[k] > copies_in_set(k)
    # every other counting site judges its own tiles, so only a turned tile can be newly over
    if over:
        check_overcount(ctx, e)


def indicator_turned(ctx: AuditContext, e: ev.IndicatorTurned) -> None:
    """翻牌: the indicator leaves the wall and is set aside (it counts as a tile of its kind)."""
    not_in_ruleset(ctx, e)
    check_in_set(ctx, e, (e.tile, e.wild), None)
    ctx.family_checks(e, None)
    wild.indicator_turned(ctx, e)
    ctx.apply(e)
    _turned(ctx, e, (e.tile,))
    wild.play_hand_wild(ctx, e)


def tile_set_aside(ctx: AuditContext, e: ev.TileSetAside) -> None:
    """补花 / 红中杠 / 癞子杠: the tile leaves the seat's hand; its replacement follows."""
    not_in_ruleset(ctx, e)
    claims.moment_passed(ctx, e)
    check_in_set(ctx, e, (e.tile,), e.seat)
    if ctx.indicator_due and e.seat == ctx.table.dealer:
        wild.indicator_missed(ctx, e, e.seat)
    ctx.family_checks(e, e.seat)
    t = ctx.table
    if t.phase == "replacement":
        # the tile set aside before (or the kong) is replaced first: the seat's next event is its draw
        ctx.find("KONG_REPLACEMENT_NOT_FROM_TAIL", e, seat=e.seat, expected="a replacement draw",
                 actual="TileSetAside", message=f"seat {e.seat} set a tile aside before taking the replacement due")
    ctx.apply(e)
    if 0 <= e.seat < ctx.n:
        ctx.seat_changed(e.seat)
        ctx.passes.clear(e.seat)
    ctx.last_draw = None
    ctx.set_aside_pending = (e.seat, TILE_INDEX[e.tile] >= NUM_KINDS)
    # a tile set aside is the seat's last kong: a 抢杠 on it is judged by ``can_rob("tile_set_aside")``
    ctx.last_kong = e
    ctx.robbable = False


def opening_win_declared(ctx: AuditContext, e: ev.OpeningWinDeclared) -> None:
    """起手胡: recorded; the family judges time, tiles and names (QISHOU_INVALID)."""
    not_in_ruleset(ctx, e)
    check_in_set(ctx, e, e.tiles, e.seat)
    ctx.family_checks(e, e.seat)
    ctx.apply(e)


def kong_revealed(ctx: AuditContext, e: ev.KongRevealed) -> None:
    """开杠: the revealed tiles leave the wall and lie open to wins until the next draw."""
    not_in_ruleset(ctx, e)
    check_in_set(ctx, e, e.tiles, e.seat)
    ctx.family_checks(e, e.seat)
    ctx.apply(e)
    ctx.robbable = False
    ctx.last_draw = None
    _turned(ctx, e, e.tiles)


def last_tile_offered(ctx: AuditContext, e: ev.LastTileOffered) -> None:
    """海底: an offer of the last tile; the family judges the order (SEA_BOTTOM_ORDER)."""
    not_in_ruleset(ctx, e)
    claims.moment_passed(ctx, e)
    ctx.family_checks(e, e.seat)
    ctx.apply(e)


def birds_drawn(ctx: AuditContext, e: ev.BirdsDrawn) -> None:
    """抓鸟: birds after the win; a bird from the wall is a tile seen (``last`` repeats one)."""
    not_in_ruleset(ctx, e)
    check_in_set(ctx, e, e.tiles, None)
    ctx.family_checks(e, None)
    ctx.apply(e)
    if e.source != "last":
        _turned(ctx, e, e.tiles)
