"""Checks of the stream itself: structural breaks, unreadable lines, truncated games
(catalogue group ``stream``)."""

from __future__ import annotations

from replay.errors import ReplayError
from schema import events as ev
from schema.tiles import TILE_NAMES

from ..context import AuditContext
from .wins import robbed_other_kong

_MELD_EVENTS = (ev.Chowed, ev.Ponged, ev.KongExposed, ev.KongAdded, ev.KongConcealed)


def broken(ctx: AuditContext, x: ReplayError, e: ev.Event) -> None:
    """The reducer could not apply ``e``: one finding, at the event."""
    kind = x.kind
    msg = f"{x.message} ({kind})"
    if kind == "reported":
        return  # the check that stopped the replay already made its finding
    f = ctx.findings[-1] if ctx.findings else None
    if f is not None and f.seq == e.seq and f.code == "HAND_END_WRONG":
        return  # the family explained the break: play after the hand had ended
    if kind == "seq_gap":
        ctx.find("STREAM_SEQ_GAP", e, expected=ctx.table.seq + 1, actual=e.seq, message=msg)
    elif kind == "seq_repeat":
        ctx.find("STREAM_SEQ_REPEAT", e, expected=ctx.table.seq + 1, actual=e.seq, message=msg)
    elif kind == "tile_not_in_hand" and isinstance(e, _MELD_EVENTS):
        ctx.find("CLAIM_TILES_NOT_IN_HAND", e, seat=x.seat, message=msg)
    elif kind == "not_in_tail":
        ctx.find("KONG_REPLACEMENT_NOT_FROM_TAIL", e, seat=x.seat, expected=[TILE_NAMES[t] for t in ctx.table.tail],
                 actual=getattr(e, "tile", None), message=msg)
    elif kind == "bad_win" and type(e) is ev.HandWon and e.how == "robbed_kong" and robbed_other_kong(ctx, e):
        ctx.find("ROB_CONCEALED_KONG", e, seat=e.from_seat, expected="kong_added",
                 actual=type(ctx.last_kong).__name__, message=f"抢杠 on a kong that was not an added kong (补杠): {x.message}")
    else:
        ctx.find("STRUCTURAL_BREAK", e, seat=x.seat, actual=kind, message=msg)


def end_of_log(ctx: AuditContext) -> None:
    """The game's lines ended: an unreadable line, or no GameClosed, leaves it incomplete."""
    log = ctx.log
    if log.problem is not None:
        p = log.problem
        ctx.audit.complete = False
        ctx.find("STREAM_UNREADABLE_LINE", None, seq=ctx.seq + 1, line=p.line,
                 message=f"{p}: the game cannot be replayed past this line")
    elif not log.events or type(log.events[-1]) is not ev.GameClosed:
        ctx.audit.complete = False
        ctx.find("GAME_TRUNCATED", None, seq=ctx.seq + 1, line=log.lines[-1] if log.lines else None,
                 message="the log ends before GameClosed")
