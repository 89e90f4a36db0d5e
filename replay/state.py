"""The reducer that applies events to the table.

The reducer applies events and never judges: whatever the log says happened,
happened, unless it cannot happen at all (a structural break, raised as
:class:`~replay.errors.ReplayError`).  Whether it *should* have happened is the
audit's business.

:class:`Replayer` keeps a private, mutable working state for speed (:class:`Table`);
:meth:`Replayer.state` hands out an immutable :class:`TableState` snapshot.
The same events always give the same states.  The handlers of the room
(:mod:`replay.room`) and of claims, kongs and wins (:mod:`replay.claims`) live
beside it; the hand's play (deal, draws, discards) is here.
"""

from __future__ import annotations

from typing import Iterable, Iterator, Optional

from schema import events as ev
from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX, TILE_NAMES, format_hand, NUM_KINDS, tiles_of

from .claims import (chowed, claim_declared, claim_passed, kong_added, kong_concealed, kong_exposed, ponged,
                     won)
from .errors import ReplayError
from .melds import Meld
from .room import closed, fee, opened, refund, reset_seats, resized, settled
from .special import (birds_drawn, indicator_turned, kong_revealed, last_tile_offered, opening_win_declared,
                      tile_set_aside)
from .table import KEY_STEP, OUT_OF_HAND, PHASES, SUIT_OF, TOTAL_TILES, Table, TableState

#: Copies of one kind in the tile set: no hand can hold more.
COPIES = 4


class Replayer:
    """Applies one game's events in order.

    >>> r = Replayer()
    >>> for e in events: r.apply(e)
    >>> r.state()  # an immutable TableState
    """

    def __init__(self) -> None:
        self._w = Table()
        self.line: Optional[int] = None

    # -- public -----------------------------------------------------------

    @property
    def ruleset(self) -> Optional[Ruleset]:
        return self._w.ruleset

    @property
    def opened(self) -> Optional[ev.GameOpened]:
        return self._w.opened

    def is_next(self, event: ev.Event) -> bool:
        """Whether ``event`` is this game's next event (same game, the next seq)."""
        w = self._w
        return event.seq == w.seq + 1 and event.game == w.game and w.game is not None

    def apply(self, event: ev.Event, line: Optional[int] = None) -> None:
        """Apply one event (the only way the table changes); raise :class:`ReplayError`
        on a structural break, the game id and sequence included.  ``line``: the log
        line it came from, for error messages (default: the last one set)."""
        w = self._w
        if line is not None:
            self.line = line
        if not (event.seq == w.seq + 1 and event.game == w.game and w.game is not None):
            if w.game is None:
                if type(event) is not ev.GameOpened:
                    self.fail("not_opened", f"the first event is {type(event).__name__}, not GameOpened", event)
            elif event.game != w.game:
                self.fail("wrong_game", f"event of game {event.game!r} in game {w.game!r}", event)
            if event.seq != w.seq + 1:
                if event.seq <= w.seq:
                    self.fail("seq_repeat", f"sequence {event.seq} repeats or goes back (last was {w.seq})",
                              event)
                self.fail("seq_gap", f"sequence jumps from {w.seq} to {event.seq}", event)
        _APPLY[type(event)](self, event)
        w.seq = event.seq

    def advance(self, event: ev.Event) -> None:
        """Apply the game's next event: :meth:`apply` for a caller that has already
        asked :meth:`is_next` (the audit's walker).  Every structural check of the
        event's content still runs; only the sequence test is not repeated."""
        _APPLY[type(event)](self, event)
        self._w.seq = event.seq

    def pass_over(self, event: ev.Event) -> None:
        """Take the game's next event's place in the sequence without applying it: the
        audit judged it play after the hand ended (the hand ends where its rules end it),
        reported it, and keeps the table as the rules left it."""
        self._w.seq = event.seq

    def state(self) -> TableState:
        """An immutable snapshot of the table now."""
        w = self._w
        wall_next = None
        if w.wall is not None and w.wall_head <= w.wall_tail:
            wall_next = w.wall[w.wall_head]
        return TableState(
            game=w.game or "", seq=w.seq, hand=w.hand, phase=w.phase,
            players=tuple(w.players), scores=tuple(w.scores), dealer=w.dealer, turn=w.turn,
            concealed=tuple(tuple(t for t in range(NUM_KINDS) for _ in range(h[t])) for h in w.hands),
            melds=tuple(tuple(m) for m in w.melds),
            discards=tuple(tuple(tuple(d) for d in ds) for ds in w.discards),
            tail=tuple(w.tail), undrawn=w.undrawn, wall_next=wall_next,
            received=tuple(tuple(x) for x in w.received), bets=tuple(w.bets), last_discard=w.last_discard,
            kongs=tuple(w.kongs), fees_charged=tuple(w.fees),
            indicator=w.indicator, wild=w.wild,
            set_aside=tuple(tuple(x) for x in w.set_aside),
            flowers_held=tuple(tuple(x) for x in w.flowers_held),
            opening_wins=tuple(w.opening_wins), birds=tuple(w.birds), bird_origin=w.bird_origin,
            revealed=tuple(w.revealed), sea_offers=tuple(w.sea_offers), dealer_streak=w.dealer_streak,
            last_bets=tuple(w.last_bets),
        )

    # Fast read-only access for the audit's hot path (no copies; do not mutate).
    def counts(self, seat: int) -> list[int]:
        """Seat's concealed tiles as 34 counts (a live view: do not mutate)."""
        return self._w.hands[seat]

    def melds_of(self, seat: int) -> list[Meld]:
        return self._w.melds[seat]

    @property
    def table(self) -> Table:
        """The live table (read-only to the caller: only :meth:`apply` changes it)."""
        return self._w

    # -- helpers ----------------------------------------------------------

    def fail(self, kind: str, message: str, event: ev.Event, seat: Optional[int] = None) -> None:
        w = self._w
        summary = self.state().summary() if w.game is not None else ""
        raise ReplayError(kind, message, game=event.game, hand=w.hand, seq=event.seq,
                          line=self.line, seat=seat, summary=summary)

    def seat_of(self, seat: int, event: ev.Event) -> int:
        if not 0 <= seat < len(self._w.players):
            self.fail("bad_seat", f"seat {seat} is not at this table of {len(self._w.players)}", event, seat)
        return seat

    def in_hand(self, event: ev.Event) -> None:
        if self._w.phase in OUT_OF_HAND:
            self.fail("out_of_hand", f"{type(event).__name__} outside a hand in play", event)

    def take(self, seat: int, tiles: Iterable[int], event: ev.Event) -> None:
        """Remove tiles from a concealed hand (a structural break if absent)."""
        w = self._w
        hand = w.hands[seat]
        keys = w.keys[seat]
        taken: list[int] = []
        for t in tiles:
            if t >= NUM_KINDS:
                self.flower_played(seat, t, taken, event)
            if hand[t] <= 0:
                for u in taken:
                    hand[u] += 1
                    keys[SUIT_OF[u]] += KEY_STEP[u]
                w.held[seat] += len(taken)
                self.fail("tile_not_in_hand",
                          f"seat {seat} does not hold {TILE_NAMES[t]} (hand {format_hand(tiles_of(hand))})",
                          event, seat)
            hand[t] -= 1
            keys[SUIT_OF[t]] -= KEY_STEP[t]
            taken.append(t)
        w.held[seat] -= len(taken)

    def flower_played(self, seat: int, t: int, taken: list[int], event: ev.Event) -> None:
        """A flower used as a playing tile (discarded, melded, taken): flowers are held outside
        the 34 counts and only set aside, so the event cannot be applied."""
        w = self._w
        for u in taken:
            w.hands[seat][u] += 1
            w.keys[seat][SUIT_OF[u]] += KEY_STEP[u]
        w.held[seat] += len(taken)
        self.fail("flower_played", f"seat {seat} plays the flower {TILE_NAMES[t]}: a flower is only set aside",
                  event, seat)

    # -- the room -----------------------------------------------------------

    def next_in(self, seat: int) -> int:
        """The next seat after ``seat`` (下家 order) that has not left the hand."""
        w = self._w
        n = len(w.players)
        for k in range(1, n + 1):
            s = (seat + k) % n
            if s not in w.out:
                return s
        return (seat + 1) % n

    # -- one hand -----------------------------------------------------------

    def _hand_started(self, e: ev.HandStarted) -> None:
        w = self._w
        if w.phase not in ("between_hands", "won", "drawn"):
            self.fail("hand_in_play", f"hand {e.hand} starts while hand {w.hand} is still in play", e)
        self.seat_of(e.dealer, e)
        reset_seats(self, len(w.players))
        if w.hand and e.dealer != w.dealer:
            w.dealer_changes += 1
        w.dealer_streak = w.dealer_streak + 1 if w.hand and e.dealer == w.dealer else 0
        w.hand = e.hand
        w.dealer = e.dealer
        w.turn = e.dealer
        total = w.total = w.ruleset.tile_count
        w.undrawn = total
        w.wall = [TILE_INDEX[t] for t in e.wall] if e.wall is not None else None
        if w.wall is not None and len(w.wall) != total:
            self.fail("bad_wall", f"the logged wall has {len(w.wall)} tiles, not {total}", e)
        w.wall_head = 0
        w.wall_tail = total - 1
        w.phase = "dealing"

    def _bet(self, e: ev.PigBetPlaced) -> None:
        w = self._w
        seat = self.seat_of(e.seat, e)
        w.bets[seat] = e.bet
        w.last_bets[seat] = (w.hand, e.bet)

    def _dealt(self, e: ev.TilesDealt) -> None:
        w = self._w
        if w.phase != "dealing":
            self.fail("deal_out_of_turn", "tiles dealt outside the start of a hand", e)
        if len(e.hands) != len(w.players):
            self.fail("bad_deal", f"deal for {len(e.hands)} seats at a table of {len(w.players)}", e)
        total = 0
        for s, tiles in enumerate(e.hands):
            hand = w.hands[s]
            keys = w.keys[s]
            got = w.received[s]
            for name in tiles:
                t = TILE_INDEX[name]
                if t >= NUM_KINDS:  # a flower: held outside the counts until set aside
                    w.flowers_held[s].append(t)
                    w.held[s] -= 1
                    continue
                hand[t] += 1
                got[t] += 1
                keys[SUIT_OF[t]] += KEY_STEP[t]
                if hand[t] > COPIES:
                    self._too_many(s, t, e)
            w.held[s] += len(tiles)
            total += len(tiles)
        w.undrawn -= total
        w.wall_head += total
        w.phase = "discard"
        w.turn = w.dealer

    def _too_many(self, seat: int, t: int, e: ev.Event) -> None:
        """A seat holding more copies of a kind than the set has: it cannot happen (and the
        hand's count keys, base 5, cannot hold it)."""
        self.fail("too_many_copies", f"seat {seat} would hold {self._w.hands[seat][t]} copies of {TILE_NAMES[t]}; "
                  f"the set has {COPIES}", e, seat)

    def _tail_turned(self, e: ev.TailTurned) -> None:
        w = self._w
        self.in_hand(e)
        w.tail_turned = True
        for name in e.tiles:
            w.tail.append(TILE_INDEX[name])
            w.wall_tail -= 1

    def _drawn(self, e: ev.TileDrawn) -> None:
        w = self._w
        t = TILE_INDEX[e.tile]
        if w.phase in OUT_OF_HAND:
            self.in_hand(e)
        seat = e.seat
        if not 0 <= seat < len(w.players):
            self.seat_of(seat, e)
        if e.source == "tail" and not w.tail_turned:
            # no face-up pool this hand: the replacement is the wall's last undrawn tile
            # (or its next one, where the room takes replacements from the head)
            if w.undrawn <= 0:
                self.fail("empty_wall", "draw from an empty wall", e)
            if w.ruleset.kong_replacement == "head":
                w.wall_head += 1
            else:
                w.wall_tail -= 1
            w.undrawn -= 1
        elif e.source == "tail":
            if t not in w.tail:
                self.fail("not_in_tail", f"{e.tile} is not among the face-up tail tiles "
                          f"({' '.join(TILE_NAMES[x] for x in w.tail) or 'none'})", e, seat)
            w.tail.remove(t)
            w.undrawn -= 1
        else:
            if w.undrawn - len(w.tail) <= 0:
                self.fail("empty_wall", "draw from an empty wall", e)
            w.wall_head += 1
            w.undrawn -= 1
        if w.revealed:
            self.revealed_discarded()
        if t >= NUM_KINDS:  # a flower: held outside the counts until set aside
            w.flowers_held[seat].append(t)
        else:
            w.hands[seat][t] += 1
            w.keys[seat][SUIT_OF[t]] += KEY_STEP[t]
            w.held[seat] += 1
            w.received[seat][t] += 1
            if w.hands[seat][t] > COPIES:
                self._too_many(seat, t, e)
        w.turn = seat
        w.phase = "discard"
        w.last_discard = None
        w.turn_draw = e.source
        w.seq = e.seq

    def _discarded(self, e: ev.TileDiscarded) -> None:
        w = self._w
        t = TILE_INDEX[e.tile]
        if w.phase in OUT_OF_HAND:
            self.in_hand(e)
        seat = e.seat
        if not 0 <= seat < len(w.players):
            self.seat_of(seat, e)
        hand = w.hands[seat]
        if t >= NUM_KINDS or hand[t] <= 0:
            self.take(seat, (t,), e)  # the structural break, with its message
        hand[t] -= 1
        w.keys[seat][SUIT_OF[t]] -= KEY_STEP[t]
        w.held[seat] -= 1
        w.discards[seat].append([t, -1])
        w.last_discard = (seat, t)
        w.turn = (seat + 1) % len(w.players) if not w.out else self.next_in(seat)
        w.phase = "draw"
        w.pending_kong = None
        if w.turn_kongs:
            w.turn_kongs = []
        w.seq = e.seq

    def revealed_discarded(self) -> None:
        """Tiles revealed after a kong that nobody won become the konger's discards."""
        w = self._w
        by = w.revealed_by
        if by is not None:
            w.discards[by].extend([t, -1] for t in w.revealed)
        w.revealed = []
        w.revealed_by = None

    #: :meth:`advance` for the game's next ``TileDrawn`` / ``TileDiscarded``, without the
    #: dispatch: the audit's hot path calls them directly (most events are these two).
    drawn = _drawn
    discarded = _discarded

    def _exchanged(self, e: ev.TilesExchanged) -> None:
        """换三张: each seat's given tiles leave its hand and reach the seat the direction names."""
        w = self._w
        if w.phase in OUT_OF_HAND:
            self.in_hand(e)
        n = len(w.players)
        if len(e.given) != n:
            self.fail("bad_exchange", f"an exchange for {len(e.given)} seats at a table of {n}", e)
        step = {"next": 1, "prev": n - 1, "across": 2}[e.direction]
        for s, tiles in enumerate(e.given):
            self.take(s, [TILE_INDEX[x] for x in tiles], e)
        for s, tiles in enumerate(e.given):
            to = (s + step) % n
            for name in tiles:
                t = TILE_INDEX[name]
                w.hands[to][t] += 1
                if w.hands[to][t] > COPIES:
                    self._too_many(to, t, e)
                w.keys[to][SUIT_OF[t]] += KEY_STEP[t]
                w.held[to] += 1

    def _void_declared(self, e: ev.VoidDeclared) -> None:
        """定缺: the seat's void suit is recorded (the family judges the declaration)."""
        w = self._w
        if w.phase in OUT_OF_HAND:
            self.in_hand(e)
        seat = self.seat_of(e.seat, e)
        if e.suit in ("m", "p", "s") and w.voids[seat] < 0:
            w.voids[seat] = "mps".index(e.suit)

    def _drawn_hand(self, e: ev.HandDrawn) -> None:
        self.in_hand(e)
        self._w.phase = "drawn"

_APPLY = {
    ev.GameOpened: opened,
    ev.RoomResized: resized,
    ev.FeeCharged: fee,
    ev.FeeRefunded: refund,
    ev.GameClosed: closed,
    ev.HandStarted: Replayer._hand_started,
    ev.PigBetPlaced: Replayer._bet,
    ev.TilesDealt: Replayer._dealt,
    ev.TailTurned: Replayer._tail_turned,
    ev.TileDrawn: Replayer._drawn,
    ev.TileDiscarded: Replayer._discarded,
    ev.ClaimDeclared: claim_declared,
    ev.ClaimPassed: claim_passed,
    ev.Chowed: chowed,
    ev.Ponged: ponged,
    ev.KongExposed: kong_exposed,
    ev.KongAdded: kong_added,
    ev.KongConcealed: kong_concealed,
    ev.HandWon: won,
    ev.TilesExchanged: Replayer._exchanged,
    ev.VoidDeclared: Replayer._void_declared,
    ev.HandDrawn: Replayer._drawn_hand,
    ev.HandSettled: settled,
    ev.IndicatorTurned: indicator_turned,
    ev.TileSetAside: tile_set_aside,
    ev.OpeningWinDeclared: opening_win_declared,
    ev.KongRevealed: kong_revealed,
    ev.LastTileOffered: last_tile_offered,
    ev.BirdsDrawn: birds_drawn,
}
assert set(_APPLY) == set(ev.EVENT_TYPES), "every event type needs a reducer"


def states(events: Iterable[ev.Event]) -> Iterator[TableState]:
    """The state after each event, in order."""
    r = Replayer()
    for e in events:
        r.apply(e)
        yield r.state()


def state_at(events: Iterable[ev.Event], seq: Optional[int] = None) -> TableState:
    """The state after the event numbered ``seq`` (the last event if ``None``)."""
    r = Replayer()
    for e in events:
        r.apply(e)
        if seq is not None and e.seq >= seq:
            break
    return r.state()


__all__ = ["KEY_STEP", "PHASES", "SUIT_OF", "TOTAL_TILES", "Meld", "Replayer", "Table", "TableState", "state_at",
           "states"]
