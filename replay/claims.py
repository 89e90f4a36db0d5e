"""The reducer's handlers for claims and kongs (吃 碰 杠) and for wins, which take a
discard or rob an added kong too.  Each takes the replayer ``r`` (:class:`~replay.state.Replayer`)
and the event, and changes only its table."""

from __future__ import annotations

from schema import events as ev
from schema.tiles import NUM_KINDS, TILE_INDEX, TILE_NAMES

from .melds import Meld
from .special import take_revealed


def claim_declared(r, e: ev.ClaimDeclared) -> None:
    r.in_hand(e)
    r.seat_of(e.seat, e)


def claim_passed(r, e: ev.ClaimPassed) -> None:
    r.in_hand(e)
    r.seat_of(e.seat, e)


def claim_discard(r, seat: int, from_seat: int, tile: int, e: ev.Event) -> None:
    w = r.table
    if w.revealed and from_seat == w.revealed_by and tile in w.revealed and w.last_discard is None:
        # a tile lying revealed after ``from_seat``'s kong, claimed as its discard (whether the
        # ruleset allows it is the family's); the other revealed tiles become its discards
        w.revealed.remove(tile)
        r.revealed_discarded()
        w.discards[from_seat].append([tile, seat])
        return
    if w.last_discard is None or w.last_discard != (from_seat, tile):
        r.fail("no_such_discard", f"seat {seat} claims {TILE_NAMES[tile]} from seat {from_seat}, "
               "which is not the last discard", e, seat)
    w.discards[from_seat][-1][1] = seat
    w.last_discard = None


def take_claim(r, e: ev.Event, what: str, need: int) -> tuple[int, int, list[int]]:
    """Move a claimed discard and ``need`` tiles from hand out of play: (seat, tile, own)."""
    r.in_hand(e)
    seat = r.seat_of(e.seat, e)
    r.seat_of(e.from_seat, e)
    t = TILE_INDEX[e.tile]
    own = [TILE_INDEX[x] for x in e.tiles]
    if len(own) != need:
        r.fail("bad_meld", f"{what} takes {need} tiles from hand, not {len(own)}", e, seat)
    r.take(seat, own, e)
    claim_discard(r, seat, e.from_seat, t, e)
    r.table.turn_draw = None
    return seat, t, own


def called(w, seat: int) -> None:
    """The claimer (of table ``w``) holds the turn and discards next."""
    w.turn = seat
    w.phase = "discard"


def chowed(r, e: ev.Chowed) -> None:
    seat, t, own = take_claim(r, e, "a chow", 2)
    w = r.table
    tiles = tuple(sorted(own + [t]))
    w.melds[seat].append(Meld("chow", tiles[0], tiles, 0, e.from_seat))
    w.fed.append((seat, e.from_seat, "chow", tiles[0]))
    called(w, seat)


def ponged(r, e: ev.Ponged) -> None:
    seat, t, own = take_claim(r, e, "a pong", 2)
    w = r.table
    wilds = sum(1 for x in own if x != t)
    w.melds[seat].append(Meld("pong", t, (t, *own), wilds, e.from_seat))
    w.fed.append((seat, e.from_seat, "pong", t))
    called(w, seat)


def kong_done(r, seat: int) -> None:
    w = r.table
    w.kongs[seat] += 1
    w.turn = seat
    w.phase = "replacement"
    w.pending_kong = seat


def kind_of(r, e, seat: int) -> int:
    """A kong's kind: one of the 34 kinds (a flower makes no set)."""
    kind = TILE_INDEX[e.kind]
    if kind >= NUM_KINDS:
        r.fail("flower_played", f"seat {seat} declares a kong of the flower {e.kind}", e, seat)
    return kind


def kong_exposed(r, e: ev.KongExposed) -> None:
    seat, t, own = take_claim(r, e, "an exposed kong", 3)
    kind = kind_of(r, e, seat)
    tiles = (t, *own)
    wilds = sum(1 for x in tiles if x != kind)
    r.table.melds[seat].append(Meld("kong_exposed", kind, tiles, wilds, e.from_seat))
    r.table.fed.append((seat, e.from_seat, "kong_exposed", kind))
    r.table.turn_kongs.append(("kong_exposed", e.from_seat))
    kong_done(r, seat)


def kong_added(r, e: ev.KongAdded) -> None:
    w = r.table
    r.in_hand(e)
    seat = r.seat_of(e.seat, e)
    kind = kind_of(r, e, seat)
    t = TILE_INDEX[e.tile]
    melds = w.melds[seat]
    for i, m in enumerate(melds):
        if m.kind == "pong" and m.of == kind:
            break
    else:
        r.fail("no_pong", f"seat {seat} has no pong of {e.kind} to add a kong to", e, seat)
    r.take(seat, (t,), e)
    melds[i] = Meld("kong_added", kind, (*m.tiles, t), m.wilds + (t != kind), m.from_seat)
    w.turn_kongs.append(("kong_added", None))
    kong_done(r, seat)


def kong_concealed(r, e: ev.KongConcealed) -> None:
    w = r.table
    r.in_hand(e)
    seat = r.seat_of(e.seat, e)
    kind = kind_of(r, e, seat)
    own = [TILE_INDEX[x] for x in e.tiles]
    if len(own) != 4:
        r.fail("bad_meld", f"a concealed kong takes 4 tiles from hand, not {len(own)}", e, seat)
    r.take(seat, own, e)
    wilds = sum(1 for x in own if x != kind)
    w.melds[seat].append(Meld("kong_concealed", kind, tuple(own), wilds, None))
    w.turn_kongs.append(("kong_concealed", None))
    kong_done(r, seat)


def same_moment(w, e: ev.HandWon) -> bool:
    """A HandWon right after a HandWon is the same moment (wins on tiles revealed after a kong)."""
    return w.phase == "won" and w.last_won is not None and w.seq == w.last_won[3]


def discard_win_has_tile(w, e: ev.HandWon) -> bool:
    """Whether a ``discard`` win's tile is there to take as the table stands: the last discard
    from ``from_seat``, a tile revealed after that seat's kong, or the tile another winner of the
    same moment took.  (Read only; :func:`won` raises the break when it is not.)"""
    t = TILE_INDEX.get(e.tile)
    if t is None:
        return False
    if w.revealed and t in w.revealed and e.from_seat == w.revealed_by:
        return True
    if same_moment(w, e) and w.last_won[:3] == (e.how, e.from_seat, t):
        return True
    return w.last_discard is not None and w.last_discard == (e.from_seat, t)


def won(r, e: ev.HandWon) -> None:
    w = r.table
    t = TILE_INDEX[e.tile]
    again = same_moment(w, e)
    if not again:
        r.in_hand(e)
    if t >= NUM_KINDS:
        r.fail("flower_played", f"a win on the flower {e.tile}: a flower is only set aside", e)
    for win in e.winners:
        r.seat_of(win.seat, e)
    if e.how == "self_draw" and len(e.winners) != 1:
        r.fail("bad_win", f"a self-draw names {len(e.winners)} winners, not one", e)
    if take_revealed(r, e.winners[0].seat, t, e):
        pass
    elif again and w.last_won[:3] == (e.how, e.from_seat, t) and e.how != "self_draw":
        pass  # another winner on the tile the moment's first HandWon took
    elif e.how == "discard":
        if e.from_seat is None:
            r.fail("bad_win", "a discard win names no discarder", e)
        claim_discard(r, e.winners[0].seat, e.from_seat, t, e)
    elif e.how == "robbed_kong":
        if e.from_seat is None:
            r.fail("bad_win", "a robbed kong names no kong adder", e)
        r.seat_of(e.from_seat, e)
        melds = w.melds[e.from_seat]
        for i, m in enumerate(melds):
            if m.kind == "kong_added" and m.tiles[-1] == t:
                # The robbed tile leaves the kong, which stands again as a pong.
                melds[i] = Meld("pong", m.of, m.tiles[:-1], m.wilds - (t != m.of), m.from_seat)
                w.kongs[e.from_seat] -= 1
                break
        else:
            r.fail("bad_win", f"seat {e.from_seat} has no added kong of {e.tile} to rob", e)
    w.last_discard = None
    for win in e.winners:
        if win.seat not in w.out:
            w.out.append(win.seat)
    if len(w.out) >= w.ruleset.wins_to_end:
        w.phase = "won"
        w.last_won = (e.how, e.from_seat, t, e.seq)
        return
    # 血战到底: the winners leave; the next still-in seat after the last winner counted
    # from the discarder (the kong adder; the winner on a self-draw) draws next.
    w.pending_kong = None
    n = len(w.players)
    start = e.from_seat if e.from_seat is not None and e.how != "self_draw" else e.winners[0].seat
    last = max((x.seat for x in e.winners), key=lambda s: (s - start - 1) % n)
    w.turn = r.next_in(last)
    w.phase = "draw"
