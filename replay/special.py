"""The reducer's handlers for the new families' events (shared/design/new-families.md §1):
the turned indicator, tiles set aside, opening wins, tiles revealed after a kong, the 海底
offers and the birds.  Each records what the log says (the family judges it) and fails only
on a structural break.  Each takes the replayer ``r`` (:class:`~replay.state.Replayer`) and
the event, and changes only its table."""

from __future__ import annotations

from typing import Sequence

from schema import events as ev
from schema.tiles import NUM_KINDS, TILE_INDEX, TILE_NAMES

from .table import KEY_STEP, SUIT_OF


def _leave_wall(r, e: ev.Event, count: int, source: str, tiles: Sequence[str] = ()) -> None:
    """``count`` tiles leave the undrawn wall from its head (``wall``) or its last undrawn
    positions (``tail``, ``free``); a structural break when fewer remain.  ``free`` ``tiles``
    may lie anywhere in a logged wall: they are moved to its last undrawn positions first."""
    w = r.table
    if w.undrawn - len(w.tail) < count:
        r.fail("empty_wall", f"{type(e).__name__} takes {count} tile(s) from a wall with "
               f"{w.undrawn - len(w.tail)} left", e)
    if source == "wall":
        w.wall_head += count
    else:
        if source == "free" and tiles:
            _free_tiles_last(w, [TILE_INDEX[x] for x in tiles])
        w.wall_tail -= count
    w.undrawn -= count


def _free_tiles_last(w, kinds: list[int]) -> None:
    """Tiles taken from any undrawn positions of a logged wall (``free``: a stack picked by dice
    inside it) are moved to its last undrawn positions, the other undrawn tiles keeping their
    order, so later draws from the head and from the tail, and the birds, read the wall as it
    stands.  Their positions: the run of consecutive undrawn tiles nearest the tail that reads
    them in the logged order (or last first); else, tile by tile, the occurrence nearest the
    tail.  A tile that is not undrawn leaves the wall as it is (the family reports it)."""
    wall = w.wall
    if wall is None or len(wall) != w.total or w.wall_head > w.wall_tail:
        return
    lo, hi = w.wall_head, w.wall_tail
    span = wall[lo:hi + 1]
    n = len(kinds)
    picked: list[int] = []
    for want in (kinds, kinds[::-1]):
        start = next((i for i in range(len(span) - n, -1, -1) if span[i:i + n] == want), None)
        if start is not None:
            picked = list(range(start, start + n))
            break
    else:
        for k in kinds:
            at = next((i for i in range(len(span) - 1, -1, -1) if span[i] == k and i not in picked), None)
            if at is None:
                return
            picked.append(at)
    chosen = set(picked)
    wall[lo:hi + 1] = [x for i, x in enumerate(span) if i not in chosen] + [span[i] for i in sorted(chosen)]


def indicator_turned(r, e: ev.IndicatorTurned) -> None:
    """翻牌: the indicator leaves the wall and is set aside for the hand; the logged wild is
    recorded as logged (the family derives its own and compares)."""
    w = r.table
    r.in_hand(e)
    if w.indicator is not None:
        r.fail("indicator_repeated", f"a second indicator ({e.tile}) in the hand "
               f"(the first was {TILE_NAMES[w.indicator]})", e)
    _leave_wall(r, e, 1, e.source)
    w.indicator = TILE_INDEX[e.tile]
    w.wild = TILE_INDEX[e.wild]


def tile_set_aside(r, e: ev.TileSetAside) -> None:
    """A held tile (a flower, or a kind from the concealed counts) is set aside; its owner
    takes a replacement next (the table waits for it as after a kong)."""
    w = r.table
    r.in_hand(e)
    seat = r.seat_of(e.seat, e)
    t = TILE_INDEX[e.tile]
    if t >= NUM_KINDS:
        held = w.flowers_held[seat]
        if t not in held:
            r.fail("tile_not_in_hand", f"seat {seat} sets aside {e.tile}, a flower it does not hold", e, seat)
        held.remove(t)
    else:
        r.take(seat, (t,), e)
    w.set_aside[seat].append(t)
    if seat != w.turn and w.phase == "discard":
        # out of turn (the opening 补花 of a seat other than the dealer): once its replacement
        # is drawn the turn returns to the seat that was to act
        w.resume_turn = w.turn
    w.turn = seat
    w.phase = "replacement"
    w.pending_kong = seat


def opening_win_declared(r, e: ev.OpeningWinDeclared) -> None:
    """起手胡: recorded with the tiles shown (whether they are held is the family's QISHOU_INVALID)."""
    w = r.table
    r.in_hand(e)
    seat = r.seat_of(e.seat, e)
    w.opening_wins.append((seat, tuple(e.names), tuple(TILE_INDEX[x] for x in e.tiles)))


def kong_revealed(r, e: ev.KongRevealed) -> None:
    """开杠: the revealed tiles leave the wall (head; tail or the last undrawn positions) and
    lie open to wins; the next seat draws, and at that draw they become the konger's discards."""
    w = r.table
    r.in_hand(e)
    seat = r.seat_of(e.seat, e)
    if w.revealed:
        r.revealed_discarded()
    _leave_wall(r, e, len(e.tiles), e.source, e.tiles)
    w.revealed = [TILE_INDEX[x] for x in e.tiles]
    w.revealed_by = seat
    w.pending_kong = None
    w.last_discard = None
    w.turn = r.next_in(seat)
    w.phase = "draw"


def last_tile_offered(r, e: ev.LastTileOffered) -> None:
    """海底: an offer of the last tile, taken or declined (the draw, if any, is its own event)."""
    r.in_hand(e)
    r.table.sea_offers.append((r.seat_of(e.seat, e), e.accepted))


def birds_drawn(r, e: ev.BirdsDrawn) -> None:
    """抓鸟: birds once the hand has ended (after its win; on a drawn hand the audit judges
    them), from the wall's head or tail (``last``: the last tile repeated, no tile leaves the
    wall); recorded with the seat they count from.  Birds while the hand is in play are a break."""
    w = r.table
    if w.phase not in ("won", "drawn"):
        r.fail("birds_without_win", "birds drawn while the hand is still in play", e)
    origin = r.seat_of(e.origin, e)
    if e.source != "last":
        _leave_wall(r, e, len(e.tiles), e.source)
    w.birds.extend(TILE_INDEX[x] for x in e.tiles)
    w.bird_origin = origin


def take_revealed(r, seat: int, t: int, e: ev.HandWon) -> bool:
    """A win on a tile revealed after a kong: the konger's own (``self_draw``, the tile joins
    its hand) or another seat's (``discard`` from the konger).  Whether the win took one."""
    w = r.table
    if not w.revealed or t not in w.revealed:
        return False
    if e.how == "self_draw" and seat == w.revealed_by:
        w.revealed.remove(t)
        w.hands[seat][t] += 1
        w.keys[seat][SUIT_OF[t]] += KEY_STEP[t]
        w.held[seat] += 1
        return True
    if e.how == "discard" and e.from_seat == w.revealed_by:
        w.revealed.remove(t)
        return True
    return False
