"""Checks of the hand's wild and of special discards (shared/design/new-families.md §1, §2):
the turned indicator's time, place and kind (WILD_INDICATOR_MISSING, WILD_KIND_MISMATCH),
the hand played with the logged wild, the family's word on a discard (``discard_rule``:
SPECIAL_TILE_DISCARDED, a dead discard) and claims on a dead discard (CLAIM_ON_DEAD_DISCARD).

A room whose ``wild_from`` is ``preset`` never meets these checks: its wilds are the
ruleset's, and every discard is plain unless its family says otherwise.
"""

from __future__ import annotations

from schema import events as ev
from schema.tiles import NUM_KINDS, TILE_INDEX, TILE_NAMES

from ..context import AuditContext
from ..rules.family import DiscardVerdict
from ..rules.wilds import default_wild_of, hand_rules

#: Where ``indicator_from`` turns the indicator, as the event's ``source`` logs it.
_SOURCE = {"head": "wall", "tail": "tail"}


def indicator_turned(ctx: AuditContext, e: ev.IndicatorTurned) -> None:
    """Before the event applies: one indicator, after the deal and before the dealer's first
    action (a late one was reported when the action came), from ``indicator_from``, the
    logged wall's tile there, and the logged wild the family's wild of it."""
    t = ctx.table
    room = t.ruleset
    if room.wild_from == "preset":
        return
    if t.phase == "dealing":
        ctx.find("WILD_INDICATOR_MISSING", e, expected="after TilesDealt", actual="before the deal",
                 message=f"the indicator {e.tile} was turned before the deal")
    want = _SOURCE[room.indicator_from]
    if e.source != want:
        ctx.find("WILD_INDICATOR_MISSING", e, expected=want, actual=e.source,
                 message=f"the indicator came from the {e.source}, not the {want} (indicator_from = {room.indicator_from})")
    wall = t.wall
    if wall is not None and len(wall) == t.total and t.wall_head <= t.wall_tail:
        at = t.wall_head if e.source == "wall" else t.wall_tail
        if TILE_INDEX[e.tile] != wall[at]:
            ctx.find("DRAW_NOT_WALL_ORDER", e, expected=TILE_NAMES[wall[at]], actual=e.tile,
                     message=f"the indicator is not the wall's tile #{at}")
    indicator = TILE_INDEX[e.tile]
    if indicator < NUM_KINDS:
        wild_of = ctx.family.table.wild_of or default_wild_of
        kind = wild_of(room, indicator)
        if kind != TILE_INDEX[e.wild]:
            ctx.find("WILD_KIND_MISMATCH", e, expected=TILE_NAMES[kind], actual=e.wild,
                     message=f"the indicator {e.tile} makes {TILE_NAMES[kind]} wild (wild_from = {room.wild_from}), "
                             f"not {e.wild}")


def play_hand_wild(ctx: AuditContext, e: ev.IndicatorTurned) -> None:
    """After the event applied: the rest of the hand is played with the logged wild (the
    room's ruleset with ``wilds`` = (W,)), every rule cache bound to the ruleset rebuilt."""
    room = ctx.table.ruleset
    ctx.indicator_due = False
    if room.wild_from == "preset" or TILE_INDEX[e.wild] >= NUM_KINDS:
        return
    ctx.bind_rules(hand_rules(room, e.wild))
    for s in range(ctx.n):
        ctx.seat_changed(s)


def indicator_missed(ctx: AuditContext, e: ev.Event, seat=None) -> None:
    """The dealer's first action (a discard, a kong, a tile set aside, a win) or the hand's
    end came with no indicator turned in a room that turns one: reported once, here."""
    ctx.indicator_due = False
    ctx.find("WILD_INDICATOR_MISSING", e, seat=seat, expected="IndicatorTurned after the deal",
             actual=type(e).__name__,
             message=f"no indicator turned before the dealer's first action ({type(e).__name__})")


def judge_discard(ctx: AuditContext, e: ev.TileDiscarded, seat: int, verdict: DiscardVerdict) -> None:
    """The family's word on a discard (``verdict``, asked on the table before it applies): a
    rule it breaks (SPECIAL_TILE_DISCARDED), and whether it is dead (remembered by its seq)."""
    if verdict.violation is not None:
        v = verdict.violation
        ctx.find(v.code, e, seat=seat, expected=v.expected, actual=v.actual, message=v.message)
    if verdict.dead:
        ctx.dead_seq = e.seq
        ctx.dead_code = verdict.claim_code


def dead_claim(ctx: AuditContext, e: ev.Event, seat: int, claim: str) -> bool:
    """Nobody claims or wins on a dead discard (CLAIM_ON_DEAD_DISCARD, or the code the family's
    verdict on the discard names).  Whether it was one."""
    d = ctx.open_discard
    if d is None or d.seq != ctx.dead_seq:
        return False
    ctx.find(ctx.dead_code, e, seat=seat, expected="no claim", actual=claim,
             message=f"seat {seat} made a {claim} on seat {d.seat}'s dead discard {TILE_NAMES[d.tile]}")
    return True


__all__ = ["dead_claim", "indicator_missed", "indicator_turned", "judge_discard", "play_hand_wild"]
