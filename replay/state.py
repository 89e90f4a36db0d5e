"""The table state and the reducer that applies events to it.

The reducer applies events and never judges: whatever the log says happened,
happened, unless it cannot happen at all (a structural break, raised as
:class:`~replay.errors.ReplayError`).  Whether it *should* have happened is the
audit's business.

:class:`Replayer` keeps a private, mutable working state for speed;
:meth:`Replayer.state` hands out an immutable :class:`TableState` snapshot.
The same events always give the same states.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Optional

import msgspec

from schema import events as ev
from schema.ruleset import Ruleset, RulesetError, resolve
from schema.tiles import TILE_INDEX, TILE_NAMES, format_hand, NUM_KINDS

from .errors import ReplayError
from .melds import Meld

TOTAL_TILES = 136

#: Per tile kind: which suit key it belongs to (m, p, s, honours) and what one more
#: copy adds to that key (base 5, first kind most significant: ``audits.rules.hands.hand_keys``).
SUIT_OF = tuple(t // 9 if t < 27 else 3 for t in range(NUM_KINDS))
KEY_STEP = tuple(5 ** (8 - t % 9) if t < 27 else 5 ** (6 - (t - 27)) for t in range(NUM_KINDS))
#: Phases in which no tile moves (the hand is not in play).
_OUT_OF_HAND = frozenset({"opening", "between_hands", "closed", "won", "drawn"})

#: What the table waits for next.
PHASES = ("opening", "between_hands", "dealing", "draw", "discard", "replacement", "claims",
          "won", "drawn", "closed")


class TableState(msgspec.Struct, frozen=True, gc=False):
    """An immutable picture of the table after one event.  Tiles are integers."""

    game: str
    seq: int
    hand: int
    phase: str
    players: tuple[str, ...]
    scores: tuple[int, ...]
    dealer: int
    #: The seat expected to act next (draw, discard or replacement draw).
    turn: int
    concealed: tuple[tuple[int, ...], ...]
    melds: tuple[tuple[Meld, ...], ...]
    #: Each seat's discards in order, as (tile, seat that claimed it or -1).
    discards: tuple[tuple[tuple[int, int], ...], ...]
    tail: tuple[int, ...]
    #: Tiles not yet drawn, face-up tail tiles included.
    undrawn: int
    #: The logged wall's next tile, when the log gave the wall order.
    wall_next: Optional[int]
    #: Per seat, how many of each kind reached its hand from the wall (deal and draws);
    #: families read rule facts from it (Qujing's 点鸡 tally).
    received: tuple[tuple[int, ...], ...]
    bets: tuple[int, ...]
    last_discard: Optional[tuple[int, int]]
    kongs: tuple[int, ...]
    fees_charged: tuple[int, ...]

    def summary(self) -> str:
        """One line per seat: compact hands, melds and discards count."""
        out = [f"hand {self.hand} phase {self.phase} turn {self.turn} undrawn {self.undrawn} "
               f"tail {' '.join(TILE_NAMES[t] for t in self.tail) or '-'}"]
        for s, hand in enumerate(self.concealed):
            melds = " ".join(f"{m.kind}:{format_hand(m.tiles)}" for m in self.melds[s])
            out.append(f"  seat {s}: {format_hand(hand)} {melds} | {len(self.discards[s])} discards")
        return "\n".join(out)


class Table:
    """The live table the reducer keeps (mutable for speed; read-only to everyone else).

    The audit's checks and the simulator's bots read it directly; only
    :class:`Replayer` writes it.  Tiles are integers (``schema.tiles``).
    """

    __slots__ = (
        "game", "seq", "ruleset", "players", "scores", "creator", "hand", "phase",
        "dealer", "turn", "hands", "melds", "discards", "tail", "undrawn", "wall",
        "wall_head", "wall_tail", "received", "bets", "last_discard", "kongs", "fees",
        "opened", "pending_kong", "keys", "held",
        # neutral facts of families that declare voids, exchange tiles or play on after a win
        "tail_turned", "voids", "out", "total",
        # neutral facts Guangdong reads: passes of the deal, claims in order, this turn's kongs
        "dealer_changes", "fed", "turn_kongs",
    )

    def __init__(self) -> None:
        #: The game id (None before GameOpened) and the last applied seq.
        self.game: Optional[str] = None
        self.seq = -1
        #: The room's ruleset (preset + options, ``players`` = seats at the table).
        self.ruleset: Optional[Ruleset] = None
        #: The opening event as logged.
        self.opened: Optional[ev.GameOpened] = None
        self.players: list[str] = []
        self.scores: list[int] = []
        self.creator = 0
        #: The hand number (0 before the first), and what the table waits for (PHASES).
        self.hand = 0
        self.phase = "opening"
        self.dealer = 0
        #: The seat expected to act next.
        self.turn = 0
        #: Per seat: concealed tiles as 34 counts; declared melds; discards as [tile, claimer or -1].
        self.hands: list[list[int]] = []
        self.melds: list[list[Meld]] = []
        self.discards: list[list[list[int]]] = []
        #: The face-up tail tiles (the kong-replacement pool where a family keeps one).
        self.tail: list[int] = []
        #: Tiles not yet drawn, face-up tail tiles included.
        self.undrawn = 0
        #: The logged wall (None when the log gives none), its next head and tail positions.
        self.wall: Optional[list[int]] = None
        self.wall_head = 0
        self.wall_tail = 0
        #: Per seat: 34 counts of the tiles that reached its hand from the wall this hand.
        self.received: list[list[int]] = []
        #: Per seat: the pig bet placed this hand (0 when none).
        self.bets: list[int] = []
        #: (seat, tile) of the discard that can still be claimed, else None.
        self.last_discard: Optional[tuple[int, int]] = None
        #: Per seat: kongs declared this hand; fees charged minus refunds this game.
        self.kongs: list[int] = []
        self.fees: list[int] = []
        #: The seat that declared a kong and has not yet taken its replacement.
        self.pending_kong: Optional[int] = None
        #: Per seat: the four base-5 suit keys of the concealed tiles (kept up to date
        #: as tiles move, so a win check needs no recount) and how many tiles it holds.
        self.keys: list[list[int]] = []
        self.held: list[int] = []
        #: Whether any tail tile was turned face up this hand; with none, a tail draw
        #: takes the wall's last undrawn tile (families with no face-up pool).
        self.tail_turned = False
        #: Per seat: the suit it declared void this hand (0 m, 1 p, 2 s; -1 none yet).
        self.voids: list[int] = []
        #: The seats that have won this hand, in order (under 血战 they have left play).
        self.out: list[int] = []
        #: Tiles in the set (``Ruleset.tile_count``).
        self.total = TOTAL_TILES
        #: How many hands so far started with a dealer other than the previous hand's.
        self.dealer_changes = 0
        #: This hand's claims in order: (claimer, feeder, meld kind, tile kind).
        self.fed: list[tuple[int, int, str, int]] = []
        #: The kongs declared in the current turn, in order: (meld kind, feeder or None);
        #: cleared by the next discard.
        self.turn_kongs: list[tuple[str, Optional[int]]] = []


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
                    self._break("not_opened", f"the first event is {type(event).__name__}, not GameOpened", event)
            elif event.game != w.game:
                self._break("wrong_game", f"event of game {event.game!r} in game {w.game!r}", event)
            if event.seq != w.seq + 1:
                if event.seq <= w.seq:
                    self._break("seq_repeat", f"sequence {event.seq} repeats or goes back (last was {w.seq})",
                                event)
                self._break("seq_gap", f"sequence jumps from {w.seq} to {event.seq}", event)
        _APPLY[type(event)](self, event)
        w.seq = event.seq

    def advance(self, event: ev.Event) -> None:
        """Apply the game's next event: :meth:`apply` for a caller that has already
        asked :meth:`is_next` (the audit's walker).  Every structural check of the
        event's content still runs; only the sequence test is not repeated."""
        _APPLY[type(event)](self, event)
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

    def _break(self, kind: str, message: str, event: ev.Event, seat: Optional[int] = None) -> None:
        w = self._w
        summary = self.state().summary() if w.game is not None else ""
        raise ReplayError(kind, message, game=event.game, hand=w.hand, seq=event.seq,
                          line=self.line, seat=seat, summary=summary)

    def _seat(self, seat: int, event: ev.Event) -> int:
        if not 0 <= seat < len(self._w.players):
            self._break("bad_seat", f"seat {seat} is not at this table of {len(self._w.players)}", event, seat)
        return seat

    def _in_hand(self, event: ev.Event) -> None:
        if self._w.phase in _OUT_OF_HAND:
            self._break("out_of_hand", f"{type(event).__name__} outside a hand in play", event)

    def _take(self, seat: int, tiles: Iterable[int], event: ev.Event) -> None:
        """Remove tiles from a concealed hand (a structural break if absent)."""
        w = self._w
        hand = w.hands[seat]
        keys = w.keys[seat]
        taken: list[int] = []
        for t in tiles:
            if hand[t] <= 0:
                for u in taken:
                    hand[u] += 1
                    keys[SUIT_OF[u]] += KEY_STEP[u]
                w.held[seat] += len(taken)
                self._break("tile_not_in_hand",
                            f"seat {seat} does not hold {TILE_NAMES[t]} (hand {format_hand(_tiles(hand))})",
                            event, seat)
            hand[t] -= 1
            keys[SUIT_OF[t]] -= KEY_STEP[t]
            taken.append(t)
        w.held[seat] -= len(taken)

    # -- the room -----------------------------------------------------------

    def _opened(self, e: ev.GameOpened) -> None:
        w = self._w
        if e.schema_version > ev.SCHEMA_VERSION:
            self._break("schema_version", f"schema version {e.schema_version} is newer than "
                        f"this paipu reads ({ev.SCHEMA_VERSION})", e)
        try:
            rules = resolve(e.preset, msgspec.structs.asdict(e.options) and
                            {k: v for k, v in msgspec.structs.asdict(e.options).items() if v is not None})
        except RulesetError as x:
            raise ReplayError("bad_ruleset", str(x), game=e.game, hand=0, seq=e.seq, line=self.line) from None
        n = len(e.seats)
        if n != rules.players:
            rules = self._seated(rules, n, e)
        w.game = e.game
        w.opened = e
        w.ruleset = rules
        w.players = list(e.seats)
        w.scores = [e.start_points] * n
        w.creator = e.creator
        w.dealer = e.creator
        w.phase = "between_hands"
        self._reset_seats(n)
        w.fees = [0] * n

    def _reset_seats(self, n: int) -> None:
        w = self._w
        w.hands = [[0] * NUM_KINDS for _ in range(n)]
        w.keys = [[0, 0, 0, 0] for _ in range(n)]
        w.held = [0] * n
        w.melds = [[] for _ in range(n)]
        w.discards = [[] for _ in range(n)]
        w.received = [[0] * NUM_KINDS for _ in range(n)]
        w.bets = [0] * n
        w.kongs = [0] * n
        w.tail = []
        w.last_discard = None
        w.pending_kong = None
        w.tail_turned = False
        w.fed = []
        w.turn_kongs = []
        w.voids = [-1] * n
        w.out = []

    def next_in(self, seat: int) -> int:
        """The next seat after ``seat`` (下家 order) that has not left the hand."""
        w = self._w
        n = len(w.players)
        for k in range(1, n + 1):
            s = (seat + k) % n
            if s not in w.out:
                return s
        return (seat + 1) % n

    def _seated(self, rules: Any, n: int, e: ev.Event) -> Any:
        """``rules`` for a table of ``n`` seats; a ruleset that cannot be played by ``n`` (a
        four-seat-only family) is a structural break of the log, not a failure of paipu."""
        try:
            return msgspec.structs.replace(rules, players=n)
        except ValueError as x:
            raise ReplayError("bad_ruleset", f"{n} seats: {x}", game=e.game, hand=self._w.hand, seq=e.seq,
                              line=self.line) from None

    def _resized(self, e: ev.RoomResized) -> None:
        w = self._w
        if w.hand:
            self._break("resize_in_play", "a room can change its seats only before the first hand", e)
        w.players = list(e.seats)
        n = len(e.seats)
        w.scores = w.scores[:n] + [w.opened.start_points] * (n - len(w.scores))
        w.ruleset = self._seated(w.ruleset, n, e)
        w.creator = min(w.creator, n - 1)
        w.dealer = w.creator
        self._reset_seats(n)
        w.fees = w.fees[:n]

    def _fee(self, e: ev.FeeCharged) -> None:
        self._w.fees[self._seat(e.seat, e)] += e.amount

    def _refund(self, e: ev.FeeRefunded) -> None:
        self._w.fees[self._seat(e.seat, e)] -= e.amount

    def _closed(self, e: ev.GameClosed) -> None:
        w = self._w
        w.phase = "closed"
        if len(e.scores) == len(w.scores):
            w.scores = list(e.scores)

    # -- one hand -----------------------------------------------------------

    def _hand_started(self, e: ev.HandStarted) -> None:
        w = self._w
        if w.phase not in ("between_hands", "won", "drawn"):
            self._break("hand_in_play", f"hand {e.hand} starts while hand {w.hand} is still in play", e)
        self._seat(e.dealer, e)
        self._reset_seats(len(w.players))
        if w.hand and e.dealer != w.dealer:
            w.dealer_changes += 1
        w.hand = e.hand
        w.dealer = e.dealer
        w.turn = e.dealer
        total = w.total = w.ruleset.tile_count
        w.undrawn = total
        w.wall = [TILE_INDEX[t] for t in e.wall] if e.wall is not None else None
        if w.wall is not None and len(w.wall) != total:
            self._break("bad_wall", f"the logged wall has {len(w.wall)} tiles, not {total}", e)
        w.wall_head = 0
        w.wall_tail = total - 1
        w.phase = "dealing"

    def _bet(self, e: ev.PigBetPlaced) -> None:
        self._w.bets[self._seat(e.seat, e)] = e.bet

    def _dealt(self, e: ev.TilesDealt) -> None:
        w = self._w
        if w.phase != "dealing":
            self._break("deal_out_of_turn", "tiles dealt outside the start of a hand", e)
        if len(e.hands) != len(w.players):
            self._break("bad_deal", f"deal for {len(e.hands)} seats at a table of {len(w.players)}", e)
        total = 0
        for s, tiles in enumerate(e.hands):
            hand = w.hands[s]
            keys = w.keys[s]
            for name in tiles:
                t = TILE_INDEX[name]
                hand[t] += 1
                keys[SUIT_OF[t]] += KEY_STEP[t]
            got = w.received[s]
            for name in tiles:
                got[TILE_INDEX[name]] += 1
            w.held[s] += len(tiles)
            total += len(tiles)
        w.undrawn -= total
        w.wall_head += total
        w.phase = "discard"
        w.turn = w.dealer

    def _tail_turned(self, e: ev.TailTurned) -> None:
        w = self._w
        self._in_hand(e)
        w.tail_turned = True
        for name in e.tiles:
            w.tail.append(TILE_INDEX[name])
            w.wall_tail -= 1

    def _drawn(self, e: ev.TileDrawn) -> None:
        w = self._w
        t = TILE_INDEX[e.tile]
        if w.phase in _OUT_OF_HAND:
            self._in_hand(e)
        seat = e.seat
        if not 0 <= seat < len(w.players):
            self._seat(seat, e)
        if e.source == "tail" and not w.tail_turned:
            # no face-up pool this hand: the replacement is the wall's last undrawn tile
            # (or its next one, where the room takes replacements from the head)
            if w.undrawn <= 0:
                self._break("empty_wall", "draw from an empty wall", e)
            if w.ruleset.kong_replacement == "head":
                w.wall_head += 1
            else:
                w.wall_tail -= 1
            w.undrawn -= 1
        elif e.source == "tail":
            if t not in w.tail:
                self._break("not_in_tail", f"{e.tile} is not among the face-up tail tiles "
                            f"({' '.join(TILE_NAMES[x] for x in w.tail) or 'none'})", e, seat)
            w.tail.remove(t)
            w.undrawn -= 1
        else:
            if w.undrawn - len(w.tail) <= 0:
                self._break("empty_wall", "draw from an empty wall", e)
            w.wall_head += 1
            w.undrawn -= 1
        w.hands[seat][t] += 1
        w.keys[seat][SUIT_OF[t]] += KEY_STEP[t]
        w.held[seat] += 1
        w.received[seat][t] += 1
        w.turn = seat
        w.phase = "discard"
        w.last_discard = None
        w.seq = e.seq

    def _discarded(self, e: ev.TileDiscarded) -> None:
        w = self._w
        t = TILE_INDEX[e.tile]
        if w.phase in _OUT_OF_HAND:
            self._in_hand(e)
        seat = e.seat
        if not 0 <= seat < len(w.players):
            self._seat(seat, e)
        hand = w.hands[seat]
        if hand[t] <= 0:
            self._take(seat, (t,), e)  # the structural break, with its message
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

    #: :meth:`advance` for the game's next ``TileDrawn`` / ``TileDiscarded``, without the
    #: dispatch: the audit's hot path calls them directly (most events are these two).
    drawn = _drawn
    discarded = _discarded

    def _claim_declared(self, e: ev.ClaimDeclared) -> None:
        self._in_hand(e)
        self._seat(e.seat, e)

    def _claim_passed(self, e: ev.ClaimPassed) -> None:
        self._in_hand(e)
        self._seat(e.seat, e)

    def _claim_discard(self, seat: int, from_seat: int, tile: int, e: ev.Event) -> None:
        w = self._w
        if w.last_discard is None or w.last_discard != (from_seat, tile):
            self._break("no_such_discard", f"seat {seat} claims {TILE_NAMES[tile]} from seat {from_seat}, "
                        "which is not the last discard", e, seat)
        w.discards[from_seat][-1][1] = seat
        w.last_discard = None

    def _take_claim(self, e: ev.Event, what: str, need: int) -> tuple[int, int, list[int]]:
        """Move a claimed discard and ``need`` tiles from hand out of play: (seat, tile, own)."""
        self._in_hand(e)
        seat = self._seat(e.seat, e)
        self._seat(e.from_seat, e)
        t = TILE_INDEX[e.tile]
        own = [TILE_INDEX[x] for x in e.tiles]
        if len(own) != need:
            self._break("bad_meld", f"{what} takes {need} tiles from hand, not {len(own)}", e, seat)
        self._take(seat, own, e)
        self._claim_discard(seat, e.from_seat, t, e)
        return seat, t, own

    def _called(self, seat: int) -> None:
        w = self._w
        w.turn = seat
        w.phase = "discard"

    def _chowed(self, e: ev.Chowed) -> None:
        seat, t, own = self._take_claim(e, "a chow", 2)
        tiles = tuple(sorted(own + [t]))
        self._w.melds[seat].append(Meld("chow", tiles[0], tiles, 0, e.from_seat))
        self._w.fed.append((seat, e.from_seat, "chow", tiles[0]))
        self._called(seat)

    def _ponged(self, e: ev.Ponged) -> None:
        seat, t, own = self._take_claim(e, "a pong", 2)
        wilds = sum(1 for x in own if x != t)
        self._w.melds[seat].append(Meld("pong", t, (t, *own), wilds, e.from_seat))
        self._w.fed.append((seat, e.from_seat, "pong", t))
        self._called(seat)

    def _kong_done(self, seat: int) -> None:
        w = self._w
        w.kongs[seat] += 1
        w.turn = seat
        w.phase = "replacement"
        w.pending_kong = seat

    def _kong_exposed(self, e: ev.KongExposed) -> None:
        seat, t, own = self._take_claim(e, "an exposed kong", 3)
        kind = TILE_INDEX[e.kind]
        tiles = (t, *own)
        wilds = sum(1 for x in tiles if x != kind)
        self._w.melds[seat].append(Meld("kong_exposed", kind, tiles, wilds, e.from_seat))
        self._w.fed.append((seat, e.from_seat, "kong_exposed", kind))
        self._w.turn_kongs.append(("kong_exposed", e.from_seat))
        self._kong_done(seat)

    def _kong_added(self, e: ev.KongAdded) -> None:
        w = self._w
        self._in_hand(e)
        seat = self._seat(e.seat, e)
        kind = TILE_INDEX[e.kind]
        t = TILE_INDEX[e.tile]
        melds = w.melds[seat]
        for i, m in enumerate(melds):
            if m.kind == "pong" and m.of == kind:
                break
        else:
            self._break("no_pong", f"seat {seat} has no pong of {e.kind} to add a kong to", e, seat)
        self._take(seat, (t,), e)
        melds[i] = Meld("kong_added", kind, (*m.tiles, t), m.wilds + (t != kind), m.from_seat)
        w.turn_kongs.append(("kong_added", None))
        self._kong_done(seat)

    def _kong_concealed(self, e: ev.KongConcealed) -> None:
        w = self._w
        self._in_hand(e)
        seat = self._seat(e.seat, e)
        kind = TILE_INDEX[e.kind]
        own = [TILE_INDEX[x] for x in e.tiles]
        if len(own) != 4:
            self._break("bad_meld", f"a concealed kong takes 4 tiles from hand, not {len(own)}", e, seat)
        self._take(seat, own, e)
        wilds = sum(1 for x in own if x != kind)
        w.melds[seat].append(Meld("kong_concealed", kind, tuple(own), wilds, None))
        w.turn_kongs.append(("kong_concealed", None))
        self._kong_done(seat)

    def _won(self, e: ev.HandWon) -> None:
        w = self._w
        self._in_hand(e)
        t = TILE_INDEX[e.tile]
        for win in e.winners:
            self._seat(win.seat, e)
        if e.how == "self_draw" and len(e.winners) != 1:
            self._break("bad_win", f"a self-draw names {len(e.winners)} winners, not one", e)
        if e.how == "discard":
            if e.from_seat is None:
                self._break("bad_win", "a discard win names no discarder", e)
            self._claim_discard(e.winners[0].seat, e.from_seat, t, e)
        elif e.how == "robbed_kong":
            if e.from_seat is None:
                self._break("bad_win", "a robbed kong names no kong adder", e)
            self._seat(e.from_seat, e)
            melds = w.melds[e.from_seat]
            for i, m in enumerate(melds):
                if m.kind == "kong_added" and m.tiles[-1] == t:
                    # The robbed tile leaves the kong, which stands again as a pong.
                    melds[i] = Meld("pong", m.of, m.tiles[:-1], m.wilds - (t != m.of), m.from_seat)
                    w.kongs[e.from_seat] -= 1
                    break
            else:
                self._break("bad_win", f"seat {e.from_seat} has no added kong of {e.tile} to rob", e)
        w.last_discard = None
        for win in e.winners:
            if win.seat not in w.out:
                w.out.append(win.seat)
        if len(w.out) >= w.ruleset.wins_to_end:
            w.phase = "won"
            return
        # 血战到底: the winners leave; the next still-in seat after the last winner counted
        # from the discarder (the kong adder; the winner on a self-draw) draws next.
        w.pending_kong = None
        n = len(w.players)
        start = e.from_seat if e.from_seat is not None and e.how != "self_draw" else e.winners[0].seat
        last = max((x.seat for x in e.winners), key=lambda s: (s - start - 1) % n)
        w.turn = self.next_in(last)
        w.phase = "draw"

    def _exchanged(self, e: ev.TilesExchanged) -> None:
        """换三张: each seat's given tiles leave its hand and reach the seat the direction names."""
        w = self._w
        if w.phase in _OUT_OF_HAND:
            self._in_hand(e)
        n = len(w.players)
        if len(e.given) != n:
            self._break("bad_exchange", f"an exchange for {len(e.given)} seats at a table of {n}", e)
        step = {"next": 1, "prev": n - 1, "across": 2}[e.direction]
        for s, tiles in enumerate(e.given):
            self._take(s, [TILE_INDEX[x] for x in tiles], e)
        for s, tiles in enumerate(e.given):
            to = (s + step) % n
            for name in tiles:
                t = TILE_INDEX[name]
                w.hands[to][t] += 1
                w.keys[to][SUIT_OF[t]] += KEY_STEP[t]
                w.held[to] += 1

    def _void_declared(self, e: ev.VoidDeclared) -> None:
        """定缺: the seat's void suit is recorded (the family judges the declaration)."""
        w = self._w
        if w.phase in _OUT_OF_HAND:
            self._in_hand(e)
        seat = self._seat(e.seat, e)
        if e.suit in ("m", "p", "s") and w.voids[seat] < 0:
            w.voids[seat] = "mps".index(e.suit)

    def _drawn_hand(self, e: ev.HandDrawn) -> None:
        self._in_hand(e)
        self._w.phase = "drawn"

    def _settled(self, e: ev.HandSettled) -> None:
        w = self._w
        if len(e.scores) != len(w.scores):
            self._break("bad_scores", f"{len(e.scores)} scores for {len(w.scores)} seats", e)
        for tr in e.transfers:
            self._seat(tr.payer, e)
            self._seat(tr.payee, e)
        # The server's scores are the table's scores; whether they follow from
        # the transfers is for the audit to judge.
        w.scores = list(e.scores)
        w.phase = "between_hands"


def _tiles(hand: list[int]) -> list[int]:
    return [t for t in range(NUM_KINDS) for _ in range(hand[t])]


_APPLY = {
    ev.GameOpened: Replayer._opened,
    ev.RoomResized: Replayer._resized,
    ev.FeeCharged: Replayer._fee,
    ev.FeeRefunded: Replayer._refund,
    ev.GameClosed: Replayer._closed,
    ev.HandStarted: Replayer._hand_started,
    ev.PigBetPlaced: Replayer._bet,
    ev.TilesDealt: Replayer._dealt,
    ev.TailTurned: Replayer._tail_turned,
    ev.TileDrawn: Replayer._drawn,
    ev.TileDiscarded: Replayer._discarded,
    ev.ClaimDeclared: Replayer._claim_declared,
    ev.ClaimPassed: Replayer._claim_passed,
    ev.Chowed: Replayer._chowed,
    ev.Ponged: Replayer._ponged,
    ev.KongExposed: Replayer._kong_exposed,
    ev.KongAdded: Replayer._kong_added,
    ev.KongConcealed: Replayer._kong_concealed,
    ev.HandWon: Replayer._won,
    ev.TilesExchanged: Replayer._exchanged,
    ev.VoidDeclared: Replayer._void_declared,
    ev.HandDrawn: Replayer._drawn_hand,
    ev.HandSettled: Replayer._settled,
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
