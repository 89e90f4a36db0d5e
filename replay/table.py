"""The table the reducer keeps: the live, mutable :class:`Table` (read-only to everyone
but :class:`~replay.state.Replayer`) and the immutable :class:`TableState` snapshot."""

from __future__ import annotations

from typing import Optional

import msgspec

from schema import events as ev
from schema.ruleset import Ruleset
from schema.tiles import NUM_KINDS, TILE_NAMES, format_hand

from .melds import Meld

TOTAL_TILES = 136

#: Per tile kind: which suit key it belongs to (m, p, s, honours) and what one more
#: copy adds to that key (base 5, first kind most significant: ``audits.rules.hands.hand_keys``).
SUIT_OF = tuple(t // 9 if t < 27 else 3 for t in range(NUM_KINDS))
KEY_STEP = tuple(5 ** (8 - t % 9) if t < 27 else 5 ** (6 - (t - 27)) for t in range(NUM_KINDS))
#: Phases in which no tile moves (the hand is not in play).
OUT_OF_HAND = frozenset({"opening", "between_hands", "closed", "won", "drawn"})

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
    # the new families' facts (shared/design/new-families.md §1), as logged; empty elsewhere
    #: The hand's turned indicator and the wild the log names (IndicatorTurned).
    indicator: Optional[int] = None
    wild: Optional[int] = None
    #: Per seat: tiles set aside (TileSetAside) and flowers held, not yet set aside.
    set_aside: tuple[tuple[int, ...], ...] = ()
    flowers_held: tuple[tuple[int, ...], ...] = ()
    #: Opening wins declared: (seat, names, tiles).
    opening_wins: tuple[tuple[int, tuple[str, ...], tuple[int, ...]], ...] = ()
    #: Birds drawn after the win and the seat they are counted from.
    birds: tuple[int, ...] = ()
    bird_origin: Optional[int] = None
    #: Tiles revealed after a kong, still open to wins.
    revealed: tuple[int, ...] = ()
    #: 海底 offers in order: (seat, accepted).
    sea_offers: tuple[tuple[int, bool], ...] = ()
    #: Hands in a row the dealer dealt before this one (连庄).
    dealer_streak: int = 0
    #: Per seat: (hand, bet) of its last side bet, kept across hands (None: none yet).
    last_bets: tuple[Optional[tuple[int, int]], ...] = ()

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
        # the new families' facts as logged (shared/design/new-families.md §1)
        "indicator", "wild", "set_aside", "flowers_held", "opening_wins", "birds", "bird_origin",
        "revealed", "revealed_by", "sea_offers", "dealer_streak", "last_bets", "last_won",
        # how the seat on turn got its 14th tile: "wall", "tail" (a replacement), None (a claim)
        "turn_draw",
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
        # --- the new families' facts, as logged (the families judge them) ---------------
        #: The hand's turned indicator and the wild kind the log names (IndicatorTurned).
        self.indicator: Optional[int] = None
        self.wild: Optional[int] = None
        #: Per seat: the tiles it set aside this hand (补花, 红中杠, 癞子杠), in order.
        self.set_aside: list[list[int]] = []
        #: Per seat: flowers dealt or drawn and not yet set aside (outside the 34 counts).
        self.flowers_held: list[list[int]] = []
        #: Opening wins (起手胡) declared this hand: (seat, names, tiles).
        self.opening_wins: list[tuple[int, tuple[str, ...], tuple[int, ...]]] = []
        #: The birds (抓鸟) drawn after this hand's win and the seat counted from.
        self.birds: list[int] = []
        self.bird_origin: Optional[int] = None
        #: Tiles revealed after a kong (开杠), open to wins until the next draw, and the konger;
        #: at the next draw they become the konger's discards.
        self.revealed: list[int] = []
        self.revealed_by: Optional[int] = None
        #: 海底 offers this hand, in order: (seat, accepted).
        self.sea_offers: list[tuple[int, bool]] = []
        #: Hands in a row the dealer dealt before this one (0 in a first hand or a new dealer).
        self.dealer_streak = 0
        #: Per seat: (hand, bet) of its last side bet (PigBetPlaced), kept across hands.
        self.last_bets: list[Optional[tuple[int, int]]] = []
        #: (how, from_seat, tile kind, seq) of the HandWon that won the hand: a HandWon
        #: right after it belongs to the same moment.
        self.last_won: Optional[tuple[str, Optional[int], int, int]] = None
        #: The source of the draw that gave the seat on turn its tiles this turn (``wall`` or
        #: ``tail``), or None after a claim or before any draw (end-of-wall phases read it).
        self.turn_draw: Optional[str] = None
