"""The audit: replay each game and judge every event against the Qujing rules.

:func:`audit_game` walks one game's events through :class:`replay.Replayer` and,
at each event, checks it against the rules engine (:mod:`audits.hands`,
:mod:`audits.fans`) for the ruleset the game declared.  Every settlement is
recomputed rather than trusted.  Deviations become :class:`~audits.findings.Finding`
objects whose codes come from :data:`audits.catalogue.CATALOGUE`.

The checks are *step-wise*: each logged step is judged against the logged step
before it (fans against the hand; points against the logged fan; transfers
against the logged points; scores against the logged transfers), so one server
bug gives one finding.  The *corrected ledger* (``GameAudit.ledger``) instead
recomputes everything from the tiles and carries the corrections forward.

Nothing here raises on bad game data: a structural break (an event the table
cannot take at all) is reported once, at the event, with the findings of the
checked prefix kept, and the game is marked incomplete.

Readings where the rules are silent (each a comment at its check too):

* 过手碰 / 过手杠 / 过胡 are determined by the audit, not by ``ClaimPassed``: a seat
  that *could* pong / kong / legally win (complete, ≥ 1 fan, not already in 过胡)
  on a discard and did not take it has passed, until its own next draw, chow,
  pong or kong.  Letting a 抢杠 chance go (a complete hand on an added kong's
  tile) starts 过胡 too: the seed bars every win after 过胡 ("禁胡所有牌").
* ``CLAIM_PRIORITY`` needs the higher claim to be *declared* (``ClaimDeclared``)
  and legal; ``WIN_MISSED_MULTI`` likewise (a declared, legal win left out of
  ``HandWon`` or ignored by play moving on).
* The corrected ledger pays nothing for a win that is not legal (incomplete,
  0-fan or 过胡 discard win); 点鸡 is still settled.
* ``DRAW_NOT_WALL_ORDER`` and ``TURN_ORDER`` are reported once per hand (the
  first event, with a count of the later ones), since one slip desynchronises
  every later draw.
* Performance: a seat's win chances are evaluated only when the engine's fast
  table look-up says it is one tile from complete; a seat holding no chicken
  wins a discard with 无鸡 (1 fan) without a full scoring; the replay's live
  working state is read, never snapshotted.
"""

from __future__ import annotations

from typing import AbstractSet, Any, Iterable, Iterator, Optional

import msgspec

from replay.errors import ReplayError
from replay.state import KEY_STEP, Replayer
from schema import events as ev
from schema.reader import GameLog, LogProblem, LogReader
from schema.ruleset import Ruleset
from schema.tiles import NUM_KINDS, TILE_INDEX, TILE_NAMES

from . import engine, settlement
from . import fans as fanlib
from . import hands
from .catalogue import CATALOGUE
from .findings import Finding

_T = TILE_INDEX
#: What one more tile adds to its suit's base-5 key (hands.hand_keys, first kind most significant).
#: Codes reported once per hand (later repeats are counted in the first finding's message).
_ONCE_PER_HAND = frozenset({"DRAW_NOT_WALL_ORDER", "TURN_ORDER"})
_CLAIM_RANK = {"win": 4, "kong": 3, "pong": 2, "chow": 1}
_MELD_EVENTS = (ev.Chowed, ev.Ponged, ev.KongExposed, ev.KongAdded, ev.KongConcealed)


class GameAudit(msgspec.Struct, kw_only=True):
    """The audit of one game.

    ``complete`` is False when a structural break or an unreadable line stopped
    the replay, or the log ended before ``GameClosed``.  ``logged_scores`` are
    the scores the server reported after each settled hand; ``ledger`` the
    scores each player *should* have had after each hand, every settlement
    recomputed and the corrections carried forward.
    """

    game: str
    file: str
    findings: list[Finding] = []
    complete: bool = True
    hands: int = 0
    logged_scores: list[list[int]] = []
    ledger: list[list[int]] = []
    ruleset: Optional[Ruleset] = None
    players: list[str] = []
    server: str = ""
    build: str = ""

    @property
    def errors(self) -> int:
        """How many findings are at error severity."""
        return sum(1 for f in self.findings if f.severity == "error")


# ---------------------------------------------------------------------------
# settlement arithmetic (shared by the checks, the ledger and --explain)


def expected_transfers(rules: Ruleset, n: int, how: Optional[str], winners: list[tuple[int, int]],
                       from_seat: Optional[int], bets: list[int], chickens: list[int],
                       scores: Optional[list[int]] = None) -> list[ev.Transfer]:
    """The transfers one hand should make, in the order they are paid.

    ``winners`` are (seat, P) with P = base × 2^min(fan, cap).  The rules family's
    settlement (:mod:`audits.settlement` for Qujing, qujing.md §6) decides:
    win payments first (自摸 every other seat pays P; 点炮 the discarder pays
    each winner in seat order from its next seat; 抢杠 包三家 the adder pays
    (n−1) × P), each followed by its 养猪 part, then 点鸡.  With ``scores`` and
    20分敲锣 each payer pays at most what it holds; without ``scores`` the
    amounts are unclamped.
    """
    if rules.players != n:
        rules = msgspec.structs.replace(rules, players=n)
    if scores is None:
        rules = msgspec.structs.replace(rules, qiaoluo=False)
        scores = [0] * n
    fam = engine.family_of(rules)
    try:
        transfers, _after, _knocked = fam.settle(rules, list(scores), list(winners), how if winners else None,
                                                 from_seat, list(bets), list(chickens))
    except (ValueError, IndexError, KeyError):
        return []  # an impossible win shape (already a finding); pay nothing
    return transfers


def net_of(transfers: Iterable[ev.Transfer], n: int) -> list[int]:
    """Each seat's net gain from ``transfers``."""
    net = [0] * n
    for t in transfers:
        if 0 <= t.payer < n and 0 <= t.payee < n:
            net[t.payer] -= t.amount
            net[t.payee] += t.amount
    return net


def _sums(transfers: Iterable[ev.Transfer], reasons: tuple[str, ...]) -> dict[tuple[int, int, str], int]:
    out: dict[tuple[int, int, str], int] = {}
    for t in transfers:
        if t.reason in reasons:
            k = (t.payer, t.payee, t.reason)
            out[k] = out.get(k, 0) + t.amount
    return {k: v for k, v in out.items() if v}


def _show(d: dict[tuple[int, int, str], int]) -> list[str]:
    return [f"{p}->{q} {a} {r}" for (p, q, r), a in sorted(d.items())]


# ---------------------------------------------------------------------------
# the auditor


class _Pending:
    """The last discard, until someone claims it or play moves on."""

    __slots__ = ("seat", "tile", "seq", "could_win", "could_pong", "could_kong", "declared", "kd")

    def __init__(self, seat: int, tile: int, seq: int, could_win: AbstractSet[int] = frozenset(),
                 could_pong: AbstractSet[int] = frozenset(), could_kong: AbstractSet[int] = frozenset(),
                 kd: bool = False):
        self.seat = seat
        self.tile = tile
        self.seq = seq
        #: seats whose hand is complete with the tile (a legal win also needs ≥ 1 fan: judged lazily)
        self.could_win = could_win
        #: the discard came right after its maker's kong replacement (杠上炮)
        self.kd = kd
        self.could_pong = could_pong
        self.could_kong = could_kong
        self.declared: dict[int, set[str]] = {}


class _Auditor:
    def __init__(self, log: GameLog, explain: bool = False):
        self.log = log
        self.r = Replayer()
        self.w = self.r.work
        self.findings: list[Finding] = []
        self.audit = GameAudit(game=log.game, file=log.file, findings=self.findings)
        self.explain: Optional[list[str]] = [] if explain else None
        self.line: Optional[int] = None
        self.seq = -1
        self.rules: Optional[Ruleset] = None
        self.max_reserve = 0
        self.wild: frozenset[int] = frozenset()
        self.n = 0
        # game-level
        self.logged: list[int] = []
        self.ledger: list[int] = []
        self.prev_result: Optional[tuple[str, Any]] = None  # ("won", next dealer) / ("drawn", None)
        self.settled_hands = 0
        self.fee_events: list[ev.FeeCharged] = []
        self.early_fees: list[ev.FeeCharged] = []
        self.fee_open = False  # charging allowed (right after the first settlement)
        self.fee_missing_reported = False
        self.refunds: list[ev.FeeRefunded] = []
        self.resized = False
        self.knocked_reported = False
        self._reset_hand()

    # -- findings -------------------------------------------------------------

    def find(self, code: str, e: Optional[ev.Event] = None, *, seat: Optional[int] = None,
             expected: Any = None, actual: Any = None, message: str = "", seq: Optional[int] = None,
             line: Optional[int] = None) -> None:
        if code in _ONCE_PER_HAND:
            first = self.first_of.get(code)
            if first is not None:
                self.repeats[code] = self.repeats.get(code, 0) + 1
                return
            self.first_of[code] = len(self.findings)
        c = CATALOGUE[code]
        self.findings.append(Finding(
            code=code, severity=c.severity, game=self.log.game, hand=self.w.hand,
            seq=e.seq if e is not None else (seq if seq is not None else self.seq), seat=seat,
            rule=c.rule, expected=expected, actual=actual, message=message or c.rule,
            file=self.log.file, line=self.line if line is None else line))

    def say(self, text: str) -> None:
        if self.explain is not None:
            self.explain.append(text)

    # -- per hand -------------------------------------------------------------

    def _flush_repeats(self) -> None:
        """A desynchronised wall or turn repeats at every later event: report the first
        occurrence of the hand, with a count of the later ones in its message."""
        for code, more in self.repeats.items():
            i = self.first_of[code]
            f = self.findings[i]
            self.findings[i] = msgspec.structs.replace(
                f, message=f"{f.message} (and {more} later event(s) of this hand)")
        self.repeats = {}
        self.first_of = {}

    def _reset_hand(self) -> None:
        if getattr(self, "repeats", None):
            self._flush_repeats()
        self.repeats: dict[str, int] = {}
        self.first_of: dict[str, int] = {}
        n = self.n
        self.seen = [0] * NUM_KINDS
        self.overcount_reported: set[int] = set()
        self.pending: Optional[_Pending] = None
        self.ban_pong: list[set[int]] = [set() for _ in range(n)]
        self.ban_kong: list[set[int]] = [set() for _ in range(n)]
        #: 过胡 candidates per seat: (tile, 杠上炮 flag) of discards it could complete on and let go
        self.guohu: list[list[tuple[int, bool]]] = [[] for _ in range(n)]
        #: seats that let a 抢杠 go (过胡 until their own next draw or claim)
        self.rob_passed = [False] * n
        #: after a 补杠: (adder, tile, seats whose hand is complete with it) until robbed or drawn past
        self.rob_chance: Optional[tuple[int, int, list[int]]] = None
        #: whether the seat has any 过手碰 / 过手杠 / 过胡 to clear
        self.any_passes = [False] * n
        self.won_guohu: set[int] = set()
        self.waits: list = [None] * n  # per seat: None (stale), False or (naturals, wilds)
        self.last_draw: Optional[tuple[int, str, int]] = None  # (seat, source, tile) just drawn
        self.tail_drawn = [False] * n  # the seat's last draw was a kong replacement
        self.kong_discard = False  # the last discard came right after its maker's kong replacement
        self.last_kong: Optional[ev.Event] = None
        self.won: Optional[ev.HandWon] = None
        self.won_scores: list[Optional[fanlib.Score]] = []
        self.size_reported: set[int] = set()
        self.tail_reported = False
        self.exhaust_reported = False
        self.first_turn = True  # the dealer's first 14 tiles, before any discard

    # -- the walk -------------------------------------------------------------

    def run(self) -> GameAudit:
        log = self.log
        events = log.events
        lines = log.lines
        if len(lines) < len(events):
            lines = list(lines) + [None] * (len(events) - len(lines))
        handlers = _HANDLERS
        w = self.w
        for e, line in zip(events, lines):
            self.line = line
            h = handlers.get(type(e))
            try:
                # An event that is this game's next one goes to its check (which applies
                # it); anything else (the opening, a broken sequence) to the replayer,
                # which raises the structural break.
                if h is not None and e.seq == w.seq + 1 and e.game == w.game and w.game is not None:
                    h(self, e)
                else:
                    self.r.apply(e, line)
                    if type(e) is ev.GameOpened:
                        self._opened(e)
            except ReplayError as x:
                self._break(x, e)
                self.audit.complete = False
                break
            self.seq = e.seq
        else:
            self._end_of_log()
        self._flush_repeats()
        self.audit.hands = self.w.hand
        return self.audit

    def apply(self, e: ev.Event) -> None:
        self.r.apply(e, self.line)

    def _break(self, x: ReplayError, e: ev.Event) -> None:
        kind = x.kind
        msg = f"{x.message} ({kind})"
        if kind == "reported":
            return  # the check that stopped the replay already made its finding
        if kind == "seq_gap":
            self.find("STREAM_SEQ_GAP", e, expected=self.w.seq + 1, actual=e.seq, message=msg)
        elif kind == "seq_repeat":
            self.find("STREAM_SEQ_REPEAT", e, expected=self.w.seq + 1, actual=e.seq, message=msg)
        elif kind == "tile_not_in_hand" and isinstance(e, _MELD_EVENTS):
            self.find("CLAIM_TILES_NOT_IN_HAND", e, seat=x.seat, message=msg)
        elif kind == "not_in_tail":
            self.find("KONG_REPLACEMENT_NOT_FROM_TAIL", e, seat=x.seat,
                      expected=[TILE_NAMES[t] for t in self.w.tail], actual=getattr(e, "tile", None), message=msg)
        elif kind == "bad_win" and type(e) is ev.HandWon and e.how == "robbed_kong" and self._robbed_not_added(e):
            self.find("ROB_CONCEALED_KONG", e, seat=e.from_seat, expected="kong_added",
                      actual=type(self.last_kong).__name__ if self.last_kong is not None else None,
                      message=f"抢杠 on a kong that was not an added kong (补杠): {x.message}")
        else:
            self.find("STRUCTURAL_BREAK", e, seat=x.seat, actual=kind, message=msg)

    def _robbed_not_added(self, e: ev.HandWon) -> bool:
        k = self.last_kong
        return k is not None and type(k) in (ev.KongConcealed, ev.KongExposed)

    def _end_of_log(self) -> None:
        log = self.log
        last_line = log.lines[-1] if log.lines else None
        if log.problem is not None:
            p = log.problem
            self.audit.complete = False
            self.find("STREAM_UNREADABLE_LINE", None, seq=self.seq + 1, line=p.line,
                      message=f"{p}: the game cannot be replayed past this line")
        elif not log.events or type(log.events[-1]) is not ev.GameClosed:
            self.audit.complete = False
            self.find("GAME_TRUNCATED", None, seq=self.seq + 1, line=last_line,
                      message="the log ends before GameClosed")

    # -- room -----------------------------------------------------------------

    def _opened(self, e: ev.GameOpened) -> None:
        w = self.w
        self.rules = w.ruleset
        self.max_reserve = max((w.ruleset.draw_reserve, *w.ruleset.draw_reserve_by_kongs))
        self.family = engine.family_of(w.ruleset)
        self.wild = w.wild
        self.n = len(w.players)
        self.logged = list(w.scores)
        self.ledger = list(w.scores)
        a = self.audit
        a.ruleset = w.ruleset
        a.players = list(e.seats)
        a.server = e.server
        a.build = e.build
        self._reset_hand()
        self.say(f"game {e.game}: preset {e.preset}, seats {', '.join(e.seats)}, creator seat {e.creator}, "
                 f"start {e.start_points}")

    def h_resized(self, e: ev.RoomResized) -> None:
        self.apply(e)
        self.resized = True
        self.n = len(self.w.players)
        self.rules = self.w.ruleset
        self.logged = list(self.w.scores)
        self.ledger = list(self.w.scores)
        self.audit.players = list(e.seats)
        self.audit.ruleset = self.rules
        self._reset_hand()

    def h_fee(self, e: ev.FeeCharged) -> None:
        # Billing (钻石): the fee is charged when the first hand is settled, once.
        op = self.w.opened
        if self.settled_hands == 0:
            self.early_fees.append(e)  # judged at the first settlement, or at close
        elif self.fee_events and (not self.fee_open or op.billing == "creator"
                                  or any(f.seat == e.seat for f in self.fee_events)):
            self.find("FEE_CHARGED_TWICE", e, seat=e.seat, actual=e.amount,
                      message=f"seat {e.seat} charged again; the fee was already charged at seq "
                              f"{self.fee_events[0].seq}")
        self.fee_events.append(e)
        self.apply(e)

    def h_refund(self, e: ev.FeeRefunded) -> None:
        op = self.w.opened
        if not self.resized or op.billing != "creator" or e.seat != self.w.creator:
            self.find("REFUND_UNEXPECTED", e, seat=e.seat, actual=e.amount,
                      message="a refund goes only to the creator of a 4→3 room under creator billing")
        self.refunds.append(e)
        self.apply(e)

    def _fee_after_settlement(self, e: ev.Event) -> None:
        """The first settlement's billing window closes at ``e``: judge the charges made in it."""
        if not self.fee_open:
            return
        self.fee_open = False
        op = self.w.opened
        due = [f for f in settlement.fees_at_first_settlement(op.billing, self.w.creator, op.fee, len(op.seats),
                                                               self.n) if f.kind == "charged"]
        if not due:
            return
        if not self.fee_events:
            self.fee_missing_reported = True
            self.find("FEE_NOT_CHARGED", e, expected=op.fee, actual=0,
                      message=f"the first hand was settled but the fee of {op.fee} was not charged")
            return
        want = sorted((f.seat, f.amount) for f in due)
        got = sorted((f.seat, f.amount) for f in self.fee_events)
        if want != got and not any(x.code == "FEE_CHARGED_TWICE" for x in self.findings):
            self.find("FEE_AMOUNT", e, expected=[list(x) for x in want], actual=[list(x) for x in got],
                      message=f"{op.billing} billing: charges (seat, amount) differ")

    def h_closed(self, e: ev.GameClosed) -> None:
        self._resolve(e)
        self._fee_after_settlement(e)
        op = self.w.opened
        if self.settled_hands == 0 and self.fee_events:
            self.find("FEE_ON_DISSOLVED", e, expected=0, actual=sum(f.amount for f in self.fee_events),
                      message="no hand was settled, yet the room's fee was charged")
        if self.resized and op.billing == "creator" and self.fee_events and len(op.seats) == 4 and op.fee // 4 > 0:
            # 4→3 under creator billing: the creator gets the difference (fee // 4) back.
            mine = [r for r in self.refunds if r.seat == self.w.creator]
            if not mine:
                self.find("REFUND_MISSING", e, seat=self.w.creator, expected=op.fee // 4, actual=0,
                          message="the room went from 4 to 3 seats but the creator got no refund")
            elif sum(r.amount for r in mine) != op.fee // 4:
                self.find("FEE_AMOUNT", e, seat=self.w.creator, expected=op.fee // 4,
                          actual=sum(r.amount for r in mine), message="the 4→3 refund is not fee // 4")
        if list(e.scores) != self.logged:
            self.find("SCORE_MISMATCH", e, expected=list(self.logged), actual=list(e.scores))
        self.apply(e)

    # -- hand start -----------------------------------------------------------

    def h_hand(self, e: ev.HandStarted) -> None:
        self._fee_after_settlement(e)
        rules = self.rules
        # 20分敲锣: the game ends as soon as a player reaches 0.
        if rules is not None and rules.qiaoluo and self.settled_hands and min(self.logged) <= 0 \
                and not self.knocked_reported:
            self.knocked_reported = True
            self.find("GAME_NOT_ENDED_AT_ZERO", e, expected="GameClosed", actual=f"hand {e.hand}",
                      message=f"a player is at 0 ({self.logged}) yet hand {e.hand} starts")
        # Dealer: the creator first; then the winner, the same dealer after 黄庄,
        # the discarder after 一炮多响.
        if self.prev_result is None:
            want = self.w.creator if self.w.hand == 0 else None
        else:
            want = self.prev_result[1]
        if want is not None and e.dealer != want:
            self.find("DEALER_ROTATION", e, seat=e.dealer, expected=want, actual=e.dealer)
        self.apply(e)
        self._reset_hand()
        self.say(f"hand {e.hand}: dealer seat {e.dealer}")

    def h_bet(self, e: ev.PigBetPlaced) -> None:
        self.apply(e)

    def h_dealt(self, e: ev.TilesDealt) -> None:
        w = self.w
        wall = w.wall
        self.apply(e)
        n = self.n
        dealer = w.dealer
        for s, tiles in enumerate(e.hands):
            want = 14 if s == dealer else 13
            if len(tiles) != want:
                self.find("HAND_SIZE", e, seat=s, expected=want, actual=len(tiles),
                          message=f"seat {s} was dealt {len(tiles)} tiles, not {want}")
                self.size_reported.add(s)
            for name in tiles:
                self.seen[_T[name]] += 1
        self._check_overcount(e)
        if wall is not None and len(wall) == 136:
            # The dealer takes wall[0:14], then 13 each from the dealer's next seat on.
            pos = 14
            spans = {dealer: (0, 14)}
            for k in range(1, n):
                spans[(dealer + k) % n] = (pos, pos + 13)
                pos += 13
            for s, tiles in enumerate(e.hands):
                a, b = spans.get(s, (0, 0))
                if sorted(_T[x] for x in tiles) != sorted(wall[a:b]):
                    self.find("DRAW_NOT_WALL_ORDER", e, seat=s,
                              expected=hands_str(wall[a:b]), actual=hands_str(_T[x] for x in tiles),
                              message=f"seat {s}'s deal is not wall[{a}:{b}]")

    def _check_overcount(self, e: ev.Event) -> None:
        for t in range(NUM_KINDS):
            if self.seen[t] > 4 and t not in self.overcount_reported:
                self.overcount_reported.add(t)
                self.find("TILE_OVERCOUNT", e, expected=4, actual=self.seen[t],
                          message=f"{TILE_NAMES[t]} appears {self.seen[t]} times in this hand")

    def h_tail(self, e: ev.TailTurned) -> None:
        w = self.w
        wall = w.wall
        if wall is not None and len(wall) == 136:
            want = [wall[w.wall_tail - k] for k in range(len(e.tiles)) if w.wall_tail - k >= 0]
            got = [_T[x] for x in e.tiles]
            if got != want:
                self.find("DRAW_NOT_WALL_ORDER", e, expected=[TILE_NAMES[t] for t in want], actual=list(e.tiles),
                          message="the turned tail tiles are not the wall's last tiles in order")
        if len(w.tail) + len(e.tiles) > 2:
            self.find("TAIL_REFILL_WRONG", e, expected=2, actual=len(w.tail) + len(e.tiles),
                      message="more than two tail tiles face up")
        self.apply(e)
        for name in e.tiles:
            t = _T[name]
            self.seen[t] += 1
            if self.seen[t] > 4:
                self._check_overcount(e)
        self.tail_reported = False

    def _tail_ok(self, e: ev.Event) -> None:
        # 翻屁股: two tail tiles face up at all times once the deal is done.
        if len(self.w.tail) != 2 and not self.tail_reported:
            self.tail_reported = True
            self.find("TAIL_REFILL_WRONG", e, expected=2, actual=len(self.w.tail),
                      message=f"{len(self.w.tail)} tail tiles face up, not 2")

    # -- draws and discards ---------------------------------------------------

    def h_draw(self, e: ev.TileDrawn) -> None:
        w = self.w
        if self.rob_chance is not None:
            # nobody robbed the added kong: every seat that could have has passed a win (过胡)
            for s in self.rob_chance[2]:
                self.rob_passed[s] = True
                self.any_passes[s] = True
            self.rob_chance = None
        if self.pending is not None:
            self._missed_wins(e, [])
            self._resolve(e)
        seat = e.seat
        t = _T[e.tile]
        if e.source == "wall":
            phase = w.phase
            if phase == "draw" and seat == w.turn:
                pass
            elif phase == "replacement":
                self.find("KONG_REPLACEMENT_NOT_FROM_TAIL", e, seat=seat, expected="tail", actual="wall",
                          message=f"seat {seat} drew from the wall after a kong, not from the tail pair")
            elif w.phase != "draw" or seat != w.turn:
                self.find("TURN_ORDER", e, seat=seat, expected=w.turn if w.phase == "draw" else "a discard",
                          actual=seat, message=f"seat {seat} draws out of turn")
            rules = self.rules
            # 黄庄: no wall draw once the remaining tiles are down to the reserve.
            if w.undrawn <= self.max_reserve + 2 and rules is not None and not self.exhaust_reported:
                remaining = w.undrawn - (0 if rules.draw_reserve_counts_tail else len(w.tail))
                reserve = rules.reserve_for(sum(w.kongs))
                if remaining <= reserve:
                    self.exhaust_reported = True
                    self.find("EXHAUSTIVE_DRAW_MISSED", e, seat=seat, expected=reserve, actual=remaining,
                              message=f"{remaining} tiles remain (reserve {reserve}): the hand should have "
                                      "ended in 黄庄")
            wall = w.wall
            if wall is not None:
                head = w.wall_head
                if head <= w.wall_tail and wall[head] != t and len(wall) == 136:
                    self.find("DRAW_NOT_WALL_ORDER", e, seat=seat, expected=TILE_NAMES[wall[head]],
                              actual=e.tile, message=f"draw #{head} of the wall")
            seen = self.seen
            seen[t] += 1
            if seen[t] > 4:
                self._check_overcount(e)
        else:
            if w.phase != "replacement" or w.pending_kong != seat:
                self.find("TAIL_DRAW_WITHOUT_KONG", e, seat=seat,
                          message=f"seat {seat} took a tail tile without a kong")
            elif len(w.tail) != 2:
                self._tail_ok(e)
        self.r.apply_draw(e, t, self.line)
        # 过手碰 / 过手杠 / 过胡 last until the player's own next draw.
        if self.any_passes[seat]:
            self._clear_passes(seat)
        self.waits[seat] = None
        self.last_draw = (seat, e.source, t)
        self.tail_drawn[seat] = e.source == "tail"

    def _clear_passes(self, seat: int) -> None:
        self.ban_pong[seat].clear()
        self.ban_kong[seat].clear()
        self.guohu[seat].clear()
        self.rob_passed[seat] = False
        self.any_passes[seat] = False

    def h_discard(self, e: ev.TileDiscarded) -> None:
        w = self.w
        if self.pending is not None:
            self._resolve(e)
        seat = e.seat
        phase = w.phase
        if phase == "discard" and seat == w.turn:
            pass
        elif phase == "replacement":
            self.find("KONG_REPLACEMENT_NOT_FROM_TAIL", e, seat=seat, expected="a tail draw", actual="discard",
                      message=f"seat {seat} discarded after a kong without taking a replacement")
        elif w.phase != "discard" or seat != w.turn:
            self.find("TURN_ORDER", e, seat=seat, expected=w.turn, actual=seat,
                      message=f"seat {seat} discards out of turn")
        if len(w.tail) != 2:
            self._tail_ok(e)
        if 0 <= seat < self.n and seat not in self.size_reported:
            held = w.held[seat] + 3 * len(w.melds[seat])
            if held != 14:
                self.size_reported.add(seat)
                self.find("HAND_SIZE", e, seat=seat, expected=14, actual=held,
                          message=f"seat {seat} holds {held} tiles (sets as 3) before discarding, not 14")
        t = _T[e.tile]
        self.r.apply_discard(e, t, self.line)
        self.first_turn = False
        self.kong_discard = self.tail_drawn[seat]
        self.tail_drawn[seat] = False
        self.last_draw = None
        self.waits[seat] = None
        self._open_pending(seat, t, e.seq)

    # -- what the other seats could do with a discard -------------------------

    def _naturals(self, seat: int) -> tuple[list[int], int]:
        c = list(self.w.hands[seat])
        wn = 0
        for k in self.wild:
            wn += c[k]
            c[k] = 0
        return c, wn

    def _tenpai(self, seat: int):
        """``[naturals or None, wilds, suit keys, cache]`` when the seat is one tile from
        complete (听牌), else False.

        Cached until the seat's own hand changes.  The test is the engine's fast
        table look-up without the melds' max-four headroom: a superset, so no
        chance is missed; :meth:`_completes` confirms exactly.
        """
        got = self.waits[seat]
        if got is None:
            w = self.w
            h = w.hands[seat]
            keys = list(w.keys[seat])  # the replayer keeps hands.hand_keys(h) up to date
            wn = 0
            for k in self.wild:
                n = h[k]
                if n:
                    wn += n
                    keys[k // 9 if k < 27 else 3] -= n * KEY_STEP[k]  # chickens are not naturals
            got = False
            if wn >= 4 and w.held[seat] % 3 == 1:
                got = [None, wn, keys, {}]  # 四小鸡: four chickens held win on any tile
            elif w.held[seat] % 3 == 1:
                if hands.is_complete_keys(keys[0], keys[1], keys[2], keys[3], wn + 1):
                    got = [None, wn, keys, {}]
                elif not w.melds[seat]:
                    # 小七对: every natural kind with an odd count needs one wild.
                    # No tile seen more than 4 times this hand: every count is 0..4.
                    if self.overcount_reported:
                        odd = sum(1 for i in range(NUM_KINDS) if h[i] & 1)
                    else:
                        odd = h.count(1) + h.count(3)
                    for k in self.wild:
                        odd -= h[k] & 1
                    if odd <= wn + 1:
                        got = [None, wn, keys, {}]
            self.waits[seat] = got
        return got

    def _completes(self, seat: int, t: int, ten) -> bool:
        """Is ``seat``'s hand complete with the discarded ``t``?  (Fast look-up, then exact.)"""
        c, wn, keys, cache = ten
        got = cache.get(t)
        if got is not None:
            return got
        if wn >= 4:
            cache[t] = True  # 四小鸡: four chickens in the concealed hand are a win by themselves
            return True
        melds = self.w.melds[seat]
        if c is None:
            c = ten[0] = self._naturals(seat)[0]
        k = list(keys)
        k[t // 9 if t < 27 else 3] += KEY_STEP[t]  # the suit key with one more t
        c[t] += 1
        try:
            ok = hands.is_complete_keys(k[0], k[1], k[2], k[3], wn) or hands.is_seven_pairs(c, wn, bool(melds))
            if ok and melds:
                ok = self.family.is_winning(c, wn, hands.meld_use_of(melds), True)
        finally:
            c[t] -= 1
        cache[t] = ok
        return ok

    def _legal_discard_win(self, seat: int, t: int, kd: bool) -> bool:
        """Could ``seat`` (its hand as it is now) legally win on a discarded ``t``: complete
        and at least 1 fan?  Scored only when asked (过胡, priority, 一炮多响 checks)."""
        ten = self.waits[seat]
        cache = ten[3] if ten else {}
        key = (t, kd)
        got = cache.get(key)
        if got is not None:
            return got
        melds = self.w.melds[seat]
        if not any(self.w.hands[seat][k] for k in self.wild) and not any(m.wilds for m in melds):
            ok = True  # 无鸡 (1 fan): no chicken held and none wild in a meld
        else:
            score = self._score(seat, t, "discard", kd)
            ok = score is not None and score.complete and score.fan >= 1
        cache[key] = ok
        return ok

    def _in_guohu(self, seat: int) -> bool:
        """过胡: the seat let a legal discard win go since its own last draw or claim."""
        return self.rob_passed[seat] or any(self._legal_discard_win(seat, t, kd) for t, kd in self.guohu[seat])

    def _open_pending(self, seat: int, t: int, seq: int) -> None:
        """Note what every other seat could do with the discard ``t`` (for 过手 and priority)."""
        hands_ = self.w.hands
        waits = self.waits
        win: set[int] = set()
        pong: set[int] = set()
        kong: set[int] = set()
        for s in range(self.n):
            if s == seat:
                continue
            h = hands_[s]
            ht = h[t]
            if ht >= 2:
                pong.add(s)  # 碰 with two natural copies (chickens only as plain 1s)
                # 直杠: three naturals, or a natural pair + one chicken
                if ht >= 3 or any(h[k] for k in self.wild if k != t):
                    kong.add(s)
            ten = waits[s]
            if ten is None:
                ten = self._tenpai(s)
            if ten:
                ok = ten[3].get(t)  # _completes' cache
                if ok is None:
                    ok = self._completes(s, t, ten)
                if ok:
                    win.add(s)
        self.pending = _Pending(seat, t, seq, win, pong, kong, self.kong_discard)

    def _score(self, seat: int, t: Optional[int], how: str, kd: Optional[bool] = None) -> Optional[fanlib.Score]:
        w = self.w
        tiles = [k for k in range(NUM_KINDS) for _ in range(w.hands[seat][k])]
        if how != "self_draw" and t is not None:
            tiles.append(t)
        ctx = fanlib.WinContext(
            how=how, win_tile=t,
            after_kong=how == "self_draw" and self.tail_drawn[seat],
            kong_discard=how == "discard" and (self.kong_discard if kd is None else kd))
        try:
            return self.family.score_hand(tiles, w.melds[seat], self.rules, ctx)
        except Exception:  # the engine must not stop the audit
            return None

    def _resolve(self, e: ev.Event, takers: Iterable[int] = ()) -> None:
        """The last discard is settled by ``e``: every seat that could have taken it
        and did not has passed (过手碰, 过手杠, 过胡)."""
        p = self.pending
        if p is None:
            return
        self.pending = None
        if not (p.could_pong or p.could_kong or p.could_win):
            return  # no one could take it: no one passed anything
        took = set(takers)
        for s in p.could_pong - took:
            self.ban_pong[s].add(p.tile)
            self.any_passes[s] = True
        for s in p.could_kong - took:
            self.ban_kong[s].add(p.tile)
            self.any_passes[s] = True
        for s in p.could_win - took:
            self.guohu[s].append((p.tile, p.kd))
            self.any_passes[s] = True

    def _missed_wins(self, e: ev.Event, winners: list[int]) -> None:
        """一炮多响: every seat that declared a legal win on the discard is a winner."""
        p = self.pending
        if p is None or not p.declared:
            return
        for s, claims in sorted(p.declared.items()):
            if "win" in claims and s not in winners and s in p.could_win and \
                    self._legal_discard_win(s, p.tile, p.kd):
                self.find("WIN_MISSED_MULTI", e, seat=s, expected=sorted(winners + [s]), actual=winners,
                          message=f"seat {s} declared a legal win on seat {p.seat}'s {TILE_NAMES[p.tile]} "
                                  "but is not a winner")

    def h_declared(self, e: ev.ClaimDeclared) -> None:
        p = self.pending
        if p is not None and 0 <= e.seat < self.n:
            p.declared.setdefault(e.seat, set()).add(e.claim)
        self.apply(e)

    def h_passed(self, e: ev.ClaimPassed) -> None:
        self.apply(e)

    def _priority(self, e: ev.Event, seat: int, claim: str) -> None:
        """胡 > 杠 > 碰 > 吃: no one takes a discard over a higher legal claim declared on it."""
        p = self.pending
        if p is None:
            return
        rank = _CLAIM_RANK[claim]
        legal = {"win": p.could_win, "kong": p.could_kong, "pong": p.could_pong}
        for s, claims in sorted(p.declared.items()):
            if s == seat:
                continue
            for c in claims:
                if _CLAIM_RANK.get(c, 0) > rank and s in legal.get(c, ()) and \
                        (c != "win" or self._legal_discard_win(s, p.tile, p.kd)):
                    self.find("CLAIM_PRIORITY", e, seat=seat, expected=f"seat {s} {c}", actual=f"seat {seat} {claim}",
                              message=f"seat {seat}'s {claim} was taken over seat {s}'s declared {c}")
                    return

    # -- claims ---------------------------------------------------------------

    def h_chow(self, e: ev.Chowed) -> None:
        rules = self.rules
        seat = e.seat
        if not rules.chow:
            self.find("CLAIM_CHOW_DISABLED", e, seat=seat, expected="chow off", actual="chow",
                      message="a chow in a room that did not enable 吃")
        elif e.from_seat != (seat - 1) % self.n:
            self.find("CLAIM_CHOW_WRONG_SEAT", e, seat=seat, expected=(seat - 1) % self.n, actual=e.from_seat,
                      message=f"seat {seat} chowed from seat {e.from_seat}, not from 上家")
        tiles = sorted([_T[e.tile]] + [_T[x] for x in e.tiles])
        if len(tiles) == 3 and not _is_run(tiles):
            if any(t in self.wild for t in tiles):
                self.find("CLAIM_WILD_IN_CHOW", e, seat=seat, actual=[TILE_NAMES[t] for t in tiles],
                          message="a chicken used as wild in a chow")
            else:
                self.find("CLAIM_MELD_INVALID", e, seat=seat, actual=[TILE_NAMES[t] for t in tiles],
                          message="the chow's tiles are not a run")
        self._priority(e, seat, "chow")
        self._resolve(e, (seat,))
        self.apply(e)
        self._after_meld(seat)

    def _after_meld(self, seat: int) -> None:
        self._clear_passes(seat)
        self.waits[seat] = None
        self.last_draw = None
        self.tail_drawn[seat] = False

    def h_pong(self, e: ev.Ponged) -> None:
        seat = e.seat
        t = _T[e.tile]
        own = [_T[x] for x in e.tiles]
        odd = [x for x in own if x != t]
        if odd:
            if any(x in self.wild for x in odd):
                self.find("CLAIM_WILD_IN_PONG", e, seat=seat, actual=[TILE_NAMES[x] for x in own],
                          message=f"a chicken used as wild in a pong of {e.tile}")
            else:
                self.find("CLAIM_MELD_INVALID", e, seat=seat, actual=[TILE_NAMES[x] for x in own],
                          message=f"a pong of {e.tile} with other tiles")
        if 0 <= seat < self.n and t in self.ban_pong[seat]:
            self.find("GUOSHOU_PENG", e, seat=seat, actual=e.tile,
                      message=f"seat {seat} passed a pong of {e.tile} since its last draw or claim")
        self._priority(e, seat, "pong")
        self._resolve(e, (seat,))
        self.apply(e)
        self._after_meld(seat)

    def h_kong_exposed(self, e: ev.KongExposed) -> None:
        seat = e.seat
        kind = _T[e.kind]
        own = [_T[x] for x in e.tiles]
        natural = sum(1 for x in own if x == kind)
        wild = sum(1 for x in own if x != kind and x in self.wild)
        if _T[e.tile] != kind or natural + wild != len(own):
            self.find("CLAIM_MELD_INVALID", e, seat=seat, actual=[e.tile] + list(e.tiles),
                      message=f"an exposed kong of {e.kind} with other tiles")
        elif not (natural == 3 or (natural == 2 and wild == 1)):
            # 直杠 on a discard: three naturals, or a natural pair + one chicken.
            self.find("KONG_ILLEGAL_CHICKENS", e, seat=seat, expected="3 natural or a pair + 1 chicken",
                      actual=list(e.tiles), message=f"直杠 of {e.kind} with {natural} natural + {wild} chicken(s)")
        if 0 <= seat < self.n and kind in self.ban_kong[seat]:
            self.find("GUOSHOU_GANG", e, seat=seat, actual=e.kind,
                      message=f"seat {seat} passed a kong of {e.kind} since its last draw or claim")
        self._priority(e, seat, "kong")
        self._resolve(e, (seat,))
        self._tail_ok(e)
        self.apply(e)
        self._after_meld(seat)
        self.last_kong = e

    def _own_turn(self, e: ev.Event, seat: int) -> None:
        w = self.w
        if w.phase != "discard" or seat != w.turn:
            self.find("TURN_ORDER", e, seat=seat, expected=w.turn, actual=seat,
                      message=f"seat {seat} declares a kong from hand out of turn")

    def h_kong_added(self, e: ev.KongAdded) -> None:
        seat = e.seat
        kind = _T[e.kind]
        t = _T[e.tile]
        self._resolve(e)
        self._own_turn(e, seat)
        if t != kind and t not in self.wild:
            # 补杠: the fourth tile is the pong's kind or a chicken.
            self.find("CLAIM_MELD_INVALID", e, seat=seat, actual=e.tile,
                      message=f"an added kong of {e.kind} with {e.tile}")
        self._tail_ok(e)
        self.apply(e)
        self._after_meld(seat)
        self.last_kong = e
        # 抢杠: a seat whose hand is complete with the added tile may rob it (as a self-draw)
        robbers = []
        for s in range(self.n):
            if s != seat:
                ten = self._tenpai(s)
                if ten and self._completes(s, t, ten):
                    robbers.append(s)
        self.rob_chance = (seat, t, robbers) if robbers else None

    def h_kong_concealed(self, e: ev.KongConcealed) -> None:
        seat = e.seat
        kind = _T[e.kind]
        own = [_T[x] for x in e.tiles]
        natural = sum(1 for x in own if x == kind)
        wild = sum(1 for x in own if x != kind and x in self.wild)
        self._resolve(e)
        self._own_turn(e, seat)
        if natural + wild != len(own):
            self.find("CLAIM_MELD_INVALID", e, seat=seat, actual=list(e.tiles),
                      message=f"a concealed kong of {e.kind} with other tiles")
        elif natural < 1:
            # 暗杠: 4 natural, 3 + 1, 2 + 2 or 1 + 3 chickens: at least one natural tile.
            self.find("KONG_ILLEGAL_CHICKENS", e, seat=seat, expected="at least 1 natural", actual=list(e.tiles),
                      message=f"暗杠 of {e.kind} without a natural {e.kind}")
        self._tail_ok(e)
        self.apply(e)
        self._after_meld(seat)
        self.last_kong = e

    # -- the end of a hand ----------------------------------------------------

    def h_won(self, e: ev.HandWon) -> None:
        w = self.w
        self.rob_chance = None
        rules = self.rules
        seats = [x.seat for x in e.winners]
        t = _T[e.tile]
        if e.how == "discard":
            self._missed_wins(e, seats)
        elif e.how == "self_draw":
            # 自摸: the winner holds the turn with a fresh draw (or the dealer's first 14 tiles);
            # 四小鸡 (four chickens held) wins at once.
            ld = self.last_draw
            s0 = seats[0] if seats else -1
            fresh = (ld is not None and ld[0] == s0) or (self.first_turn and s0 == w.dealer)
            sixiaoji = 0 <= s0 < self.n and sum(w.hands[s0][k] for k in self.wild) >= 4
            if len(seats) != 1 or not (sixiaoji or (fresh and w.phase == "discard" and w.turn == s0)):
                self.find("TURN_ORDER", e, seat=seats[0] if seats else None,
                          expected=ld[0] if ld else "a player who just drew", actual=seats,
                          message="a self-draw win by a player who did not just draw")
        elif e.how == "robbed_kong":
            if self._robbed_not_added(e) and e.from_seat == getattr(self.last_kong, "seat", None):
                self.find("ROB_CONCEALED_KONG", e, seat=e.from_seat, expected="KongAdded",
                          actual=type(self.last_kong).__name__,
                          message="抢杠 on a kong that was not an added kong (补杠)")
                raise ReplayError("reported", "", game=e.game, hand=w.hand, seq=e.seq)
        scores: list[Optional[fanlib.Score]] = []
        for x in e.winners:
            s = x.seat
            if not 0 <= s < self.n:
                scores.append(None)
                continue
            sc = self._score(s, t, e.how)
            scores.append(sc)
            if sc is None:
                continue
            if not sc.complete:
                self.find("WIN_INCOMPLETE", e, seat=s, actual=hands_str(self._hand_tiles(s, t, e.how)),
                          message=f"seat {s}'s hand is not complete with {e.tile}")
                continue
            if e.how == "discard" and sc.fan < 1:
                dandiao = self._dandiao(s)
                self.find("WIN_ZERO_FAN_DISCARD", e, seat=s, expected=">= 1 fan", actual=sc.fan,
                          message=(f"单吊小鸡 seat {s} won on a discarded {e.tile} without fan" if dandiao else
                                   f"seat {s} won on a discard with 0 fan (底和 is self-draw only)"))
            elif e.how == "discard" and self._in_guohu(s):
                self.won_guohu.add(s)
                self.find("WIN_DURING_GUOHU", e, seat=s,
                          message=f"seat {s} passed a win (过胡) and has not drawn or claimed since")
            if (sorted(x.fans) != sorted(sc.fans) or x.fan != sc.fan) and not self._equal_reading(s, t, e.how, x, sc):
                self.find("FAN_MISMATCH", e, seat=s, expected={"fans": sc.fans, "fan": sc.fan},
                          actual={"fans": list(x.fans), "fan": x.fan})
        for x in e.winners:
            want = fanlib.points(x.fan, rules)
            if x.points != want:
                self.find("POINTS_MISMATCH", e, seat=x.seat, expected=want, actual=x.points,
                          message=f"{rules.base} × 2^min({x.fan}, {rules.fan_cap}) = {want}")
        self.pending = None
        if self.explain is not None:
            self.won_hands = [self._hand_picture(x.seat, t, e.how) if 0 <= x.seat < self.n else "?"
                              for x in e.winners]
        self.apply(e)
        self.won = e
        self.won_scores = scores

    def _equal_reading(self, seat: int, t: int, how: str, logged: ev.Winner, best: fanlib.Score) -> bool:
        """Whether the logged fans are those of *another* reading with the same highest total
        (a hand read two ways scores either; both are right)."""
        if logged.fan != best.fan or best.reading is None:
            return False
        w = self.w
        tiles = self._hand_tiles(seat, t, how)
        ctx = fanlib.WinContext(how=how, win_tile=t, after_kong=how == "self_draw" and self.tail_drawn[seat],
                                kong_discard=how == "discard" and self.kong_discard)
        wild_kinds = [TILE_INDEX[k] for k in self.rules.wilds]
        try:
            counts, wn, by_kind = hands.split_wilds(tiles, wild_kinds, ctx.plain_tile)
            melds = tuple(w.melds[seat])
            want = sorted(logged.fans)
            for r in hands.readings(counts, wn, hands.meld_use_of(melds), bool(melds), extra_kinds=wild_kinds):
                names = fanlib.fans_of(fanlib.FanInput(r, melds, ctx, self.rules, by_kind))
                if fanlib.fan_total(names) == best.fan and sorted(names) == want:
                    return True
        except Exception:  # the engine must not stop the audit
            return False
        return False

    def _hand_picture(self, seat: int, t: int, how: str) -> str:
        """The winner's hand for --explain: concealed tiles (with the tile won on) and melds."""
        tiles = hands_str(self._hand_tiles(seat, t, how))
        melds = " ".join(f"[{m.kind} {hands_str(m.tiles)}]" for m in self.w.melds[seat])
        return f"{tiles} {melds}".strip()

    def _hand_tiles(self, seat: int, t: int, how: str) -> list[int]:
        h = self.w.hands[seat]
        tiles = [k for k in range(NUM_KINDS) for _ in range(h[k])]
        if how != "self_draw":
            tiles.append(t)
        return tiles

    def _dandiao(self, seat: int) -> bool:
        """单吊小鸡: all other tiles complete, a single chicken left waiting."""
        c, wn = self._naturals(seat)
        return wn == 1 and sum(c) % 3 == 0 and (sum(c) == 0 or hands.is_complete(c + [0] * 0, 2))

    def h_drawn(self, e: ev.HandDrawn) -> None:
        w = self.w
        self._missed_wins(e, [])
        self._resolve(e)
        rules = self.rules
        remaining = w.undrawn - (0 if rules.draw_reserve_counts_tail else len(w.tail))
        reserve = rules.reserve_for(sum(w.kongs))
        if remaining > reserve:
            self.find("EXHAUSTIVE_DRAW_EARLY", e, expected=reserve, actual=remaining,
                      message=f"黄庄 declared with {remaining} tiles remaining (reserve {reserve})")
        self.apply(e)
        self.won = None

    def h_settled(self, e: ev.HandSettled) -> None:
        w = self.w
        rules = self.rules
        n = self.n
        before = list(self.logged)
        won = self.won
        if w.phase not in ("won", "drawn"):
            # the replayer allows a settlement anywhere; the audit wants a hand result first
            self.find("STRUCTURAL_BREAK", e, actual="settlement", message="a hand settled before it ended")
        bets = list(w.bets)
        chickens = list(w.chickens)
        how = won.how if won else None
        frm = won.from_seat if won else None
        logged_w = [(x.seat, x.points) for x in won.winners] if won else []
        exp = expected_transfers(rules, n, how, logged_w, frm, bets, chickens)
        exp_capped = expected_transfers(rules, n, how, logged_w, frm, bets, chickens, before) \
            if rules.qiaoluo else exp
        got = list(e.transfers)
        self._compare_transfers(e, how, exp, exp_capped, got, before)
        # scores after the hand = scores before + this hand's transfers
        want_scores = [b + d for b, d in zip(before, net_of(got, n))]
        if list(e.scores) != want_scores:
            self.find("SCORE_CONTINUITY", e, expected=want_scores, actual=list(e.scores))
        if rules.qiaoluo and min(e.scores) < 0 and not any(
                f.code == "SCORE_BELOW_ZERO" and f.seq == e.seq for f in self.findings):
            self.find("SCORE_BELOW_ZERO", e, expected=">= 0", actual=list(e.scores))
        # the corrected ledger: recomputed fans, the corrected scores carried forward
        true_w = []
        if won:
            for x, sc in zip(won.winners, self.won_scores):
                if sc is not None and sc.complete and (how != "discard" or (sc.fan >= 1 and x.seat not in self.won_guohu)):
                    true_w.append((x.seat, fanlib.points(sc.fan, rules)))
        corrected = expected_transfers(rules, n, how, true_w, frm, bets, chickens, self.ledger)
        self.ledger = [b + d for b, d in zip(self.ledger, net_of(corrected, n))]
        self._explain_hand(won, corrected, true_w, bets, chickens, e)
        # billing: the first settlement opens the fee window
        if self.settled_hands == 0:
            self.fee_open = True
            for f in self.early_fees:
                self.find("FEE_CHARGED_EARLY", f, seat=f.seat, actual=f.amount, seq=f.seq,
                          message=f"the fee was charged at seq {f.seq}, before the first settlement at seq {e.seq}")
            if self.early_fees:
                self.fee_open = False  # already charged (early)
        self.settled_hands += 1
        self.apply(e)
        self.logged = list(e.scores)
        self.audit.logged_scores.append(list(e.scores))
        self.audit.ledger.append(list(self.ledger))
        if won:
            if len(won.winners) > 1 and won.from_seat is not None:
                nxt = won.from_seat  # 一炮多响: the discarder deals
            else:
                nxt = won.winners[0].seat if won.winners else w.dealer
            self.prev_result = ("won", nxt)
        else:
            self.prev_result = ("drawn", w.dealer)

    def _compare_transfers(self, e: ev.HandSettled, how: Optional[str], exp: list[ev.Transfer],
                           capped: list[ev.Transfer], got: list[ev.Transfer], before: list[int]) -> None:
        win_r = ("win", "qianggang")
        groups = (
            (win_r, "QIANGGANG_PAYER" if how == "robbed_kong" else "TRANSFER_MISMATCH"),
            (("yangzhu",), "YANGZHU_MISMATCH"),
        )
        bad = []
        for reasons, code in groups:
            if _sums(capped, reasons) != _sums(got, reasons):
                bad.append((reasons, code))
        dianji_bad = net_of((t for t in capped if t.reason == "dianji"), self.n) != \
            net_of((t for t in got if t.reason == "dianji"), self.n)
        if (bad or dianji_bad) and capped is not exp:
            # 20分敲锣: the server paid the full amounts, ignoring the floor at 0
            if all(_sums(exp, r) == _sums(got, r) for r, _ in groups) and \
                    net_of((t for t in exp if t.reason == "dianji"), self.n) == \
                    net_of((t for t in got if t.reason == "dianji"), self.n):
                self.find("SCORE_BELOW_ZERO", e, expected=_show(_sums(capped, ("win", "qianggang", "yangzhu",
                                                                               "dianji"))),
                          actual=_show(_sums(got, ("win", "qianggang", "yangzhu", "dianji"))),
                          message=f"a payer paid more than they held (scores before {before})")
                return
        for reasons, code in bad:
            self.find(code, e, expected=_show(_sums(capped, reasons)), actual=_show(_sums(got, reasons)))
        if dianji_bad:
            self.find("DIANJI_MISMATCH", e,
                      expected=net_of((t for t in capped if t.reason == "dianji"), self.n),
                      actual=net_of((t for t in got if t.reason == "dianji"), self.n),
                      message="点鸡 nets per seat differ")
        if not bad and how == "discard":
            # 一炮多响: paid in seat order from the discarder's next seat
            want = [t.payee for t in capped if t.reason == "win"]
            order = [t.payee for t in got if t.reason == "win"]
            if len(want) > 1 and order != want:
                self.find("MULTI_WIN_ORDER", e, expected=want, actual=order)

    def _explain_hand(self, won: Optional[ev.HandWon], corrected: list[ev.Transfer],
                      true_w: list[tuple[int, int]], bets: list[int], chickens: list[int],
                      settled: ev.HandSettled) -> None:
        if self.explain is None:
            return
        rules = self.rules
        say = self.say
        if won is None:
            say("  黄庄 exhaustive draw: no win payments")
        else:
            frm = "" if won.from_seat is None else f" from seat {won.from_seat}"
            say(f"  {won.how} on {won.tile}{frm}")
            for i, (x, sc) in enumerate(zip(won.winners, self.won_scores)):
                pic = self.won_hands[i] if i < len(getattr(self, "won_hands", [])) else ""
                say(f"  seat {x.seat} hand: {pic}")
                if sc is None or not sc.complete:
                    say(f"  seat {x.seat}: not a complete hand — no payment")
                    continue
                parts = " + ".join(f"{fanlib.CHINESE.get(f, f)} {f} {fanlib.FAN_VALUES[f]}" for f in sc.fans)
                say(f"  seat {x.seat}: {parts or 'no fan'} = {sc.fan} fan; cap {rules.fan_cap} → "
                    f"{min(sc.fan, rules.fan_cap)}; P = {rules.base} × 2^{min(sc.fan, rules.fan_cap)} = "
                    f"{fanlib.points(sc.fan, rules)}   (logged: {x.fan} fan, P {x.points})")
        if rules.yangzhu:
            say(f"  养猪 bets: {bets}")
        if rules.dianji:
            say(f"  点鸡 chickens: {chickens}")
        for t in corrected:
            label = {"win": "pays", "qianggang": "pays (抢杠 包三家)", "yangzhu": "pays 养猪",
                     "dianji": "pays 点鸡"}[t.reason]
            say(f"    seat {t.payer} {label} {t.amount} to seat {t.payee}")
        logged = ", ".join(f"{t.payer}->{t.payee} {t.amount} {t.reason}" for t in settled.transfers) or "none"
        say(f"  logged transfers: {logged}")
        say(f"  scores after: recomputed {self.ledger}, logged {list(settled.scores)}")


def _is_run(tiles: list[int]) -> bool:
    a, b, c = tiles
    return a < 27 and a // 9 == c // 9 and b == a + 1 and c == a + 2


def hands_str(tiles: Iterable[int]) -> str:
    from schema.tiles import format_hand
    return format_hand(list(tiles))


_HANDLERS = {
    ev.RoomResized: _Auditor.h_resized,
    ev.FeeCharged: _Auditor.h_fee,
    ev.FeeRefunded: _Auditor.h_refund,
    ev.GameClosed: _Auditor.h_closed,
    ev.HandStarted: _Auditor.h_hand,
    ev.PigBetPlaced: _Auditor.h_bet,
    ev.TilesDealt: _Auditor.h_dealt,
    ev.TailTurned: _Auditor.h_tail,
    ev.TileDrawn: _Auditor.h_draw,
    ev.TileDiscarded: _Auditor.h_discard,
    ev.ClaimDeclared: _Auditor.h_declared,
    ev.ClaimPassed: _Auditor.h_passed,
    ev.Chowed: _Auditor.h_chow,
    ev.Ponged: _Auditor.h_pong,
    ev.KongExposed: _Auditor.h_kong_exposed,
    ev.KongAdded: _Auditor.h_kong_added,
    ev.KongConcealed: _Auditor.h_kong_concealed,
    ev.HandWon: _Auditor.h_won,
    ev.HandDrawn: _Auditor.h_drawn,
    ev.HandSettled: _Auditor.h_settled,
}


# ---------------------------------------------------------------------------
# public API


def audit_game(log: GameLog) -> GameAudit:
    """Audit one game.  Never raises for bad game data: every deviation is a finding."""
    a = _Auditor(log)
    try:
        return a.run()
    except Exception as x:  # a bug in a check must not lose the game's other findings
        a.audit.complete = False
        a.find("STRUCTURAL_BREAK", None, actual=type(x).__name__,
               message=f"the audit stopped on an internal error: {type(x).__name__}: {x}")
        a.audit.hands = a.w.hand
        return a.audit


def explain_game(log: GameLog) -> list[str]:
    """One game's hands with each settlement derived step by step (fans, cap, payer
    by payer, 养猪 and 点鸡 lines), followed by the game's findings."""
    a = _Auditor(log, explain=True)
    try:
        a.run()
    except Exception as x:  # pragma: no cover - defensive
        a.say(f"(the audit stopped: {type(x).__name__}: {x})")
    out = list(a.explain or [])
    if a.findings:
        out.append("findings:")
        for f in a.findings:
            seat = f" seat {f.seat}" if f.seat is not None else ""
            vals = f" (expected {f.expected!r}, actual {f.actual!r})" if f.expected is not None or \
                f.actual is not None else ""
            out.append(f"  [{f.severity}] {f.code} hand {f.hand} seq {f.seq}{seat}: {f.message}{vals}")
    else:
        out.append("no findings")
    return out


def audit_paths(paths: Iterable[str], jobs: int = 1, orphans: Optional[list[LogProblem]] = None
                ) -> Iterator[GameAudit]:
    """Audit every game in ``paths`` (files, folders, ``-``), in input order.

    Pass a list as ``orphans`` to collect the problems that name no game
    (missing files, lines without a game id); it is complete once the iterator
    is exhausted.  ``jobs > 1`` audits games in that many worker processes
    (:mod:`audits.parallel`), with the same results in the same order.
    """
    if jobs > 1:
        from .parallel import audit_parallel

        yield from audit_parallel(paths, jobs, orphans)
        return
    reader = LogReader(paths)
    try:
        for log in reader.games():
            yield audit_game(log)
    finally:
        if orphans is not None:
            orphans.extend(reader.orphans)


__all__ = ["GameAudit", "audit_game", "audit_paths", "expected_transfers", "explain_game",
           "net_of"]
