"""The state the audit's check modules share while one game is walked.

:class:`AuditContext` holds the live table (read-only: only the reducer changes
it), the game's rule family, the findings, and the per-game and per-hand
memories the checks keep (the open discard, the pass book, each seat's wait
entry).  Rules are never decided here: every rule question goes to the family.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any, Callable, Collection, Optional

import msgspec

from replay.state import Replayer
from schema import events as ev
from schema.reader import GameLog
from schema.ruleset import Ruleset
from schema.tiles import ALL_KINDS, NUM_KINDS, TILE_INDEX, format_hand, kinds_in_set

from .catalogue import CATALOGUE
from .findings import Finding
from .ledger import GameAudit
from .rules import family_of
from .rules.family import PassBook, RuleFamily, Score, WinContext
from .rules.wilds import default_discard_kinds, default_discard_rule

#: Codes reported once per hand (later repeats are counted in the first finding's message):
#: one slip desynchronises every later draw or turn of the hand.
ONCE_PER_HAND = frozenset({"DRAW_NOT_WALL_ORDER", "TURN_ORDER"})
#: Codes reported once per seat per hand (later repeats counted likewise): a flower kept in
#: hand (补花 not made) stays kept at every later action of that seat until the hand ends.
ONCE_PER_SEAT_AND_HAND = frozenset({"FLOWER_NOT_SET_ASIDE"})
_FOLDED = ONCE_PER_HAND | ONCE_PER_SEAT_AND_HAND


#: No seat (shared, never changed): what most discards' could-take sets are.
NOBODY: frozenset[int] = frozenset()


class OpenDiscard:
    """The last discard, until someone claims it or play moves on: the seats it is open to
    for a win, which seats could pong or kong it (the family's answers) and the claims
    declared on it."""

    __slots__ = ("seat", "tile", "seq", "open_to_win", "could_pong", "could_kong", "declared", "kong_discard")

    def __init__(self, seat: int, tile: int, seq: int, open_to_win: Collection[int],
                 could_pong: "set[int] | frozenset[int]", could_kong: "set[int] | frozenset[int]",
                 kong_discard: bool):
        self.seat = seat
        self.tile = tile
        self.seq = seq
        #: every other seat still in the hand.  Whether one of them could win the discard
        #: (complete, enough fan) is judged only when a claim, a declaration or a pass rule
        #: asks (:meth:`AuditContext.legal_win_on`): most discards are never asked about
        self.open_to_win = open_to_win
        self.could_pong = could_pong
        self.could_kong = could_kong
        #: the discard came right after its maker's kong replacement (杠上炮)
        self.kong_discard = kong_discard
        self.declared: dict[int, set[str]] = {}

    def could(self, claim: str) -> Collection[int]:
        """The seats that could make ``claim`` on this discard (chow is judged when made; a
        win among the seats it is open to, judged when asked)."""
        return {"win": self.open_to_win, "kong": self.could_kong, "pong": self.could_pong}.get(claim, NOBODY)


#: The most kongs one hand can hold (four seats, four each): a reserve by kongs is read up to it.
_MOST_KONGS = 16


def _bound(fam: RuleFamily, rules: Ruleset) -> tuple:
    """What :meth:`AuditContext.bind_rules` binds for ``rules``: the wild kinds; the most tiles
    that may remain undrawn at an exhaustive draw (no 黄庄 while more remain: the largest
    reserve at any count of kongs, plus the face-up tail tiles, which a family may leave out of
    its remaining count, Qujing's ``draw_reserve_counts_tail`` off); the face-up
    tail tiles the family keeps as the kong-replacement pool; the family's word on each
    discard (``discard_rule``; by default from ``wild_discard``; None where every discard is
    plain) and the discarded kinds it is asked about (None: every one; the shared rule
    judges the wild kinds only, ``wilds.default_discard_kinds``)."""
    discard_rule = fam.table.discard_rule or (default_discard_rule if rules.wild_discard != "plain" else None)
    # the rule as the walker asks it, of (table, seat, tile): the family's own binding, else the rule
    # with the ruleset as its first argument
    if discard_rule is None:
        bound = None
    elif fam.table.discard_rule_for is not None:
        bound = fam.table.discard_rule_for(rules)
    else:
        bound = functools.partial(discard_rule, rules)
    pool = fam.table.tail_pool(rules)
    most_undrawn = max(fam.table.reserve(rules, k) for k in range(_MOST_KONGS + 1)) + pool
    return (fam.table.wild_kinds(rules), most_undrawn, pool,
            bound, default_discard_kinds(rules) if discard_rule is default_discard_rule else None)


@functools.lru_cache(maxsize=None)
def _playable_names(limit: int) -> frozenset[str]:
    """The tile names of the kinds below ``limit``."""
    return frozenset(name for name, k in TILE_INDEX.items() if k < limit)


#: id(ruleset) -> (ruleset, family, what :func:`_bound` binds for it)
_BOUND: dict[int, tuple] = {}


class AuditContext:
    """One game's audit in progress (see the module docstring)."""

    def __init__(self, log: GameLog, explain: bool = False):
        self.log = log
        self.replayer = Replayer()
        self.table = self.replayer.table
        #: Apply the event being checked to the table (the reducer's checks run; the
        #: walker has asked ``is_next`` and set ``replayer.line`` first).
        self.apply = self.replayer.advance
        #: the same for the two most frequent events, without the reducer's dispatch
        self.apply_drawn = self.replayer.drawn
        self.apply_discarded = self.replayer.discarded
        self.findings: list[Finding] = []
        self.audit = GameAudit(game=log.game, file=log.file, findings=self.findings)
        #: The --explain derivation, as data (``audits.explain``), when asked for.
        self.explained: Optional[list[dict]] = [] if explain else None
        self.line: Optional[int] = None
        self.seq = -1
        self.rules: Optional[Ruleset] = None
        self.family: Optional[RuleFamily] = None
        self.wild: frozenset[int] = frozenset()
        self.max_reserve = 0
        self.tail_pool = 0
        #: the family's word on a discard, bound to the ruleset: (table, seat, tile) -> DiscardVerdict
        self.discard_rule: Optional[Callable] = None
        self.discard_kinds: Optional[frozenset[int]] = None
        #: the scores made while one win is judged (``checks.wins.hand_won``), by what was asked:
        #: the table stands still until the win applies, so a winner asked about twice (the
        #: single-winner rule, then its own score) is scored once; None: no memo
        self.win_scores: Optional[dict] = None
        self.next_drawer: Optional[Callable] = None
        #: the family hooks asked on every discard or draw, bound once per ruleset (the hot path
        #: reads no part of the family): ``claims.could_pong`` / ``could_kong`` and
        #: ``table.replacement_source``
        self.could_pong: Optional[Callable] = None
        self.could_kong: Optional[Callable] = None
        self.replacement_source: Optional[Callable] = None
        self.n = 0
        self.others: tuple[tuple[int, ...], ...] = ()
        # per game
        self.logged: list[int] = []
        self.ledger: list[int] = []
        #: the dealer the next hand must have (None before the first settlement)
        self.next_dealer: Optional[int] = None
        #: the next hand's dealer level by the family's ``rotation`` (None: not audited)
        self.next_level: Optional[int] = None
        #: this hand's dealer level by the rotation where the log names another (None: as logged);
        #: the hand's money is compared and corrected at it (:meth:`at_due_level`)
        self.level_due: Optional[int] = None
        self.settled_hands = 0
        self.fee_events: list[ev.FeeCharged] = []
        #: the log line of each FeeCharged, by seq (a billing finding points at its charge)
        self.fee_lines: dict[int, Optional[int]] = {}
        self.early_fees: list[ev.FeeCharged] = []
        self.fee_open = False
        self.refunds: list[ev.FeeRefunded] = []
        self.resized = False
        self.knocked_reported = False
        self.repeats: dict[Any, int] = {}
        self.first_of: dict[Any, int] = {}
        #: the family's memory of the current hand (``RuleFamily.own.hand_book``), or None
        self.hand_book = None
        #: this game's own handler table (a hand book family's, see :meth:`observing`), with the
        #: family's wrapped handlers and the walker's plain ones; None: not switchable
        self.handlers: Optional[dict] = None
        self.observed_handlers: dict = {}
        self.plain_handlers: dict = {}
        #: the record :attr:`open_discard` points to while a discard is open (filled afresh
        #: for each discard; a settled discard is forgotten by setting ``open_discard`` to None)
        self.discard_record = OpenDiscard(-1, -1, -1, NOBODY, NOBODY, NOBODY, False)
        self.reset_hand()

    # -- findings -------------------------------------------------------------------

    def find(self, code: str, e: Optional[ev.Event] = None, *, seat: Optional[int] = None,
             expected: Any = None, actual: Any = None, message: str = "", seq: Optional[int] = None,
             line: Optional[int] = None) -> None:
        """Record a finding of catalogue ``code`` at event ``e`` (or at ``seq``)."""
        if code in _FOLDED:
            key = (code, seat) if code in ONCE_PER_SEAT_AND_HAND else code
            if key in self.first_of:
                self.repeats[key] = self.repeats.get(key, 0) + 1
                return
            self.first_of[key] = len(self.findings)
        c = CATALOGUE[code]
        self.findings.append(Finding(
            code=code, severity=c.severity, game=self.log.game, hand=self.table.hand,
            seq=e.seq if e is not None else (seq if seq is not None else self.seq), seat=seat,
            rule=c.rule, expected=expected, actual=actual, message=message or c.rule,
            file=self.log.file, line=self.line if line is None else line))

    def violated(self, violations, e: ev.Event, seat: int) -> None:
        """Record each of a family check's violations as a finding at ``e``."""
        for v in violations:
            self.find(v.code, e, seat=seat, expected=v.expected, actual=v.actual, message=v.message)

    def family_checks(self, e: ev.Event, seat: Optional[int]) -> None:
        """The family's own rules on ``e`` (``OwnRules.event_checks``, on the table before it
        applies): each violation a finding at ``e`` (most events break none)."""
        checks = self.family.own.event_checks
        if checks is not None:
            broken = checks(self.rules, self.table, e)
            if broken:
                self.violated(broken, e, seat)

    def at_due_level(self, facts):
        """The settlement facts priced at the dealer level the rotation gives (``level_due``)
        where the log names a wrong one, for families whose facts carry the level."""
        due = self.level_due
        if due is None or facts.dealer_level is None or facts.dealer_level == due:
            return facts
        return facts._replace(dealer_level=due)

    def flush_repeats(self) -> None:
        """Report each once-per-hand code (once-per-seat-and-hand: per seat) at its first event,
        counting the later ones."""
        for key, more in self.repeats.items():
            i = self.first_of[key]
            f = self.findings[i]
            self.findings[i] = msgspec.structs.replace(f, message=f"{f.message} (and {more} later event(s) of this hand)")
        self.repeats = {}
        self.first_of = {}

    # -- the room and the hand ----------------------------------------------------------

    def adopt_rules(self) -> None:
        """Take the table's ruleset (at the opening or a resize) and its family."""
        t = self.table
        self.family = family_of(t.ruleset)
        self.bind_rules(t.ruleset)
        self.could_pong = self.family.claims.could_pong
        self.could_kong = self.family.claims.could_kong
        self.replacement_source = self.family.table.replacement_source
        #: the family's drawer where it departs from "after the last discard" (``next_drawer``)
        self.next_drawer = self.family.table.next_drawer
        #: tiles a player about to discard holds, sets as 3 (``Ruleset.hand_size`` + 1: 14, or 17)
        self.discard_size = t.ruleset.hand_size + 1
        #: the set's tiles are the integers below this (27: 108 suited tiles; 34: with honours;
        #: 42: with flowers): TILE_NOT_IN_SET
        self.set_limit = max(kinds_in_set(t.ruleset.tile_count)) + 1
        #: the names of the tiles a set or a win may hold: the set's kinds, no flower
        self.playable_names = _playable_names(min(self.set_limit, NUM_KINDS))
        self.n = n = len(t.players)
        #: per seat: the other seats (the ones that could take its discard)
        self.others = tuple(tuple(s for s in range(n) if s != seat) for seat in range(n))
        self.logged = list(t.scores)
        self.ledger = list(t.scores)
        a = self.audit
        a.ruleset = t.ruleset
        a.players = list(t.players)
        self.reset_hand()

    def bind_rules(self, rules: Ruleset) -> None:
        """Play by ``rules`` from now on: the room's ruleset, or a hand's with its turned wild
        (``audits.rules.wilds.hand_rules``); every cache bound to the ruleset is rebuilt here
        (kept per ruleset object: a room that turns its wild binds twice a hand)."""
        fam = self.family
        self.rules = rules
        got = _BOUND.get(id(rules))
        if got is None or got[0] is not rules or got[1] is not fam:
            if len(_BOUND) > 1024:  # bounded: a long audit keeps a small memory
                _BOUND.clear()
            got = _BOUND[id(rules)] = (rules, fam) + _bound(fam, rules)
        _, _, self.wild, self.max_reserve, self.tail_pool, self.discard_rule, self.discard_kinds = got

    def reset_hand(self) -> None:
        """Forget the last hand's memories."""
        self.flush_repeats()
        n = self.n
        #: copies seen of each tile (the 34 kinds, then the flowers) this hand
        self.seen = [0] * ALL_KINDS
        self.overcount_reported: set[int] = set()
        self.open_discard: Optional[OpenDiscard] = None
        self.passes = PassBook(n, self.family.claims.tile_passes if self.family else ())
        #: per seat, the other seats still in the hand while ``len(table.out)`` seats have left
        #: (血战): (that count, the seats by seat), read by ``claims.open_discard``
        self.others_in: tuple[int, tuple[tuple[int, ...], ...]] = (0, self.others)
        #: after a 补杠: (adder, tile, seats whose hand is complete with it), until robbed or played past
        self.rob_chance: Optional[tuple[int, int, list[int]]] = None
        #: per seat: its wait entry (the family's), None when stale
        self.waits: list = [None] * n
        self.win_legal: list[Optional[dict]] = [None] * n
        #: per seat: the tile it drew last and its wait entry and win judgements from
        #: before that draw (discarding the tile it drew gives it that hand again)
        self.kept_tile: list[int] = [-1] * n
        self.kept_waits: list = [None] * n
        self.kept_legal: list[Optional[dict]] = [None] * n
        #: the last draw (a TileDrawn), until its drawer discards or melds
        self.last_draw: Optional[ev.TileDrawn] = None
        self.tail_drawn = [False] * n
        self.kong_discard = False
        self.last_kong: Optional[ev.Event] = None
        #: the kong the adder has not yet taken a replacement for (抢杠 is legal only then)
        self.robbable = False
        self.won: Optional[ev.HandWon] = None
        #: the hand's first winning moment (血战 hands have several; the next dealer reads it)
        self.first_won: Optional[ev.HandWon] = None
        self.won_scores: list[Optional[Score]] = []
        self.won_pictures: list[str] = []
        #: (--explain only) each winner's WinContext as scored, for its pasted ``paipu hand`` command
        self.won_contexts: list[Optional[WinContext]] = []
        #: the winners the corrected ledger pays at the last winning moment, as (seat, P):
        #: its legal winners, or under a single-winner rule the first legal declarer
        self.true_winners: list[tuple[int, int]] = []
        #: of those, the declared legal winners the log left out (一炮多响; each already a
        #: WIN_MISSED_MULTI): a check of what the log did with its own winners leaves them out
        self.missed_winners: frozenset[int] = frozenset()
        #: the seats that declared a win on the added kong's tile (抢杠) while it may be robbed
        self.rob_declared: set[int] = set()
        self.size_reported: set[int] = set()
        self.tail_reported = False
        self.exhaust_reported = False
        self.bet_placed = [False] * n
        self.first_turn = True
        #: a room that turns its wild (``wild_from``) awaits the indicator from the deal on
        self.indicator_due = False
        #: the seq of the last dead discard (the family's ``discard_rule``), -1: none
        self.dead_seq = -1
        #: the finding a claim or a win on that dead discard gives (its ``DiscardVerdict.claim_code``)
        self.dead_code = "CLAIM_ON_DEAD_DISCARD"
        #: a tile set aside awaiting its replacement: (seat, it is a flower), else None
        self.set_aside_pending: Optional[tuple[int, bool]] = None
        #: the replacement draw after a flower set aside (花上开花 while it is the last draw)
        self.flower_draw: Optional[ev.TileDrawn] = None

    def seat_changed(self, seat: int) -> None:
        """The seat's concealed hand changed: its wait entry and win judgements are stale."""
        self.waits[seat] = None
        self.win_legal[seat] = None
        self.kept_tile[seat] = -1

    def observing(self, types, on: bool) -> None:
        """The family's own checks of the event ``types`` on (its wrapped handlers) or off (the
        walker's handlers alone) from the next event on, for a family whose checks of those
        types have nothing to judge in some states of the hand (it switches them back on
        before such a state can end).  Nothing happens where the game's handlers are shared."""
        handlers = self.handlers
        if handlers is not None:
            source = self.observed_handlers if on else self.plain_handlers
            for t in types:
                handlers[t] = source[t]

    def naming_drawer(self, on: bool) -> None:
        """The family's drawer (``TableRules.next_drawer``) asked at each wall draw from the
        next draw on (``on``), or not: the turn's seat draws, as where the family names none.
        For a family whose drawer is the turn's seat in some states of the hand (it asks
        again before such a state can end)."""
        self.next_drawer = self.family.table.next_drawer if on else None

    # -- rule questions on the live table (answered by the family) ----------------------

    def wait_entry(self, seat: int):
        """The family's wait entry for ``seat`` (cached until its hand changes)."""
        got = self.waits[seat]
        if got is None:
            t = self.table
            got = self.waits[seat] = self.family.wins.seat_waits(self.rules, t.hands[seat], t.keys[seat],
                                                                 t.held[seat], t.melds[seat])
        return got

    def completes(self, seat: int, tile: int) -> bool:
        """Is ``seat``'s hand complete with ``tile`` taken from another seat?"""
        entry = self.wait_entry(seat)
        if not entry:
            return False
        t = self.table
        return self.family.wins.completes(self.rules, entry, t.hands[seat], t.melds[seat], tile)

    def hand_tiles(self, seat: int, tile: Optional[int], how: str) -> list[int]:
        """The seat's concealed tiles, with the tile won on when it came from another seat."""
        tiles = [k for k, c in enumerate(self.table.hands[seat][:NUM_KINDS]) if c for _ in range(c)]
        if tile is not None and (how != "self_draw" or self.own_revealed(seat, tile)):
            tiles.append(tile)
        return tiles

    def own_revealed(self, seat: int, tile: int) -> bool:
        """``tile`` lies face up after ``seat``'s own kong (开杠, new-families.md §1): a self-draw
        on it takes it from the reveal, not from the hand."""
        t = self.table
        return bool(t.revealed) and t.revealed_by == seat and tile in t.revealed

    def win_context(self, seat: int, tile: Optional[int], how: str, kong_discard: Optional[bool] = None,
                    winners: int = 1, co_winners: frozenset = frozenset()) -> WinContext:
        """The context of ``seat`` winning on ``tile`` as the table is now: the family's own
        (``RuleFamily.wins.win_context``), or the neutral one with the family's extra fields
        (``RuleFamily.wins.win_extras``) where it has some.  ``winners``: seats winning on the
        tile; ``co_winners``: the other legal winners, where they matter (``WinRules.legal_winners``)."""
        kd = how == "discard" and (self.kong_discard if kong_discard is None else kong_discard)
        fam = self.family
        after_kong = how == "self_draw" and self.tail_drawn[seat]
        if fam.wins.win_context is not None:
            got = fam.wins.win_context(self.rules, self.table, seat, how, tile, after_kong, kd, winners)
        else:
            extras = fam.wins.win_extras
            more = extras(self.rules, self.table, seat, how, self.first_turn) if extras is not None else None
            if more:
                got = WinContext(how=how, win_tile=tile, after_kong=after_kong, kong_discard=kd, **more)
            else:
                got = WinContext(how=how, win_tile=tile, after_kong=after_kong, kong_discard=kd)
        flower = self.flower_draw
        if how == "self_draw" and flower is not None and flower is self.last_draw and flower.seat == seat:
            got = replace(got, after_flower=True)  # 花上开花: won on the replacement of a flower
        if co_winners:
            got = replace(got, co_winners=co_winners)
        return got

    def score(self, seat: int, tile: Optional[int], how: str, kong_discard: Optional[bool] = None,
              winners: int = 1, co_winners: frozenset = frozenset()) -> Score:
        """The family's best reading of the seat's hand won on ``tile`` (as the table is now),
        with ``co_winners`` the other legal winners where they matter (:meth:`win_context`)."""
        memo = self.win_scores
        if memo is not None:
            key = (seat, tile, how, self.kong_discard if kong_discard is None else kong_discard, winners, co_winners)
            got = memo.get(key)
            if got is None:
                ctx = self.win_context(seat, tile, how, kong_discard, winners, co_winners)
                got = memo[key] = self.family.scoring.score(self.rules, self.hand_tiles(seat, tile, how),
                                                            self.table.melds[seat], ctx)
            return got
        ctx = self.win_context(seat, tile, how, kong_discard, winners, co_winners)
        return self.family.scoring.score(self.rules, self.hand_tiles(seat, tile, how), self.table.melds[seat], ctx)

    def legal_win_on(self, seat: int, tile: int, kong_discard: bool, how: str = "discard",
                     declared_win: bool = False) -> bool:
        """Could ``seat`` legally win on ``tile`` from another seat (complete, enough fan)?
        Scored only when asked (过胡, priority, 一炮多响), cached until its hand changes.
        ``declared_win``: the seat is logged winning on the tile, so its score is made anyway:
        it is scored at once, not first tested for completeness against its waits."""
        key = (tile, kong_discard, how)
        known = self.win_legal[seat]
        if known is None:
            known = self.win_legal[seat] = {}
        got = known.get(key)
        if got is None:
            got = False
            if declared_win or self.completes(seat, tile):
                sc = self.score(seat, tile, how, kong_discard)
                got = sc.complete and not sc.code and self.family.wins.fan_enough(self.rules, how, sc.capped)
            known[key] = got
        return got

    def barred(self, seat: int, claim: str, tile: int, how: str = "discard") -> Optional[str]:
        """The pass rule (the family's) that bars ``seat``'s ``claim`` on ``tile``, or None;
        ``how``: a win on a discard, or by robbing an added kong (``robbed_kong``)."""
        fam = self.family
        # a claim other than a win is barred only by a pass of it, and only a family that keeps
        # such passes (``tile_passes``: 过手碰 / 过手杠) records one
        if claim != "win" and claim not in fam.claims.tile_passes:
            return None
        if fam.claims.pass_values:
            return fam.claims.pass_violation(self.passes, seat, claim, tile, self.legal_win_on, value=self.win_value,
                                             rules=self.rules, how=how)
        return fam.claims.pass_violation(self.passes, seat, claim, tile, self.legal_win_on, rules=self.rules, how=how)

    def legal_rob(self, seat: int, tile: int) -> bool:
        """Could ``seat`` legally rob the added kong of ``tile`` now (complete, enough fan, not
        barred by a pass rule; a seat that has left never wins)?"""
        if self.table.out and seat in self.table.out:
            return False
        return self.legal_win_on(seat, tile, False, "robbed_kong") \
            and self.barred(seat, "win", tile, "robbed_kong") is None

    def win_value(self, seat: int, tile: int, kong_discard: Optional[bool], how: str = "discard") -> Optional[int]:
        """The capped fan of ``seat``'s legal win on ``tile`` from another seat (``kong_discard``
        None: the current discard; ``how``: ``robbed_kong`` for a robbing, with its fans), or
        None when it is not a legal win."""
        sc = self.score(seat, tile, how, kong_discard)
        return sc.capped if sc.complete and not sc.code else None

    def picture(self, seat: int, tile: Optional[int], how: str) -> str:
        """The seat's hand for --explain: concealed tiles (with the tile won on) and melds."""
        tiles = format_hand(self.hand_tiles(seat, tile, how))
        melds = " ".join(f"[{m.kind} {format_hand(list(m.tiles))}]" for m in self.table.melds[seat])
        return f"{tiles} {melds}".strip()

