"""What every ruleset must answer: the rule family interface.

A :class:`RuleFamily` is frozen data plus a few named functions (the pokerkit
shape, not a class tree), in parts that follow the finding catalogue's groups:
``table``, ``claims``, ``wins``, ``scoring``, ``settlement``, ``billing`` and the
family's ``own`` checks.  The audit's walker and check modules, the simulator's
bots, the fault injector and ``paipu hand`` reach the rules only through a family
(:func:`audits.rules.family_of`), so each rule exists once, in its family's
package (``audits/rules/qujing/`` for Qujing 飞小鸡 / 飞白板 / 双鬼).

The neutral vocabulary the families share is here too: a claim check's
:class:`Violation` (a catalogue code with expected/actual), the win context
(:class:`WinContext`), a scored hand (:class:`Score`), one hand's settlement
(:class:`Settlement`), the billing events (:class:`FeeEvent`), the pass book
(:class:`PassBook`: what each seat let go since its own last action) and a
family's word on a discard (:class:`DiscardVerdict`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable, Collection, Literal, Mapping, NamedTuple, Optional, Sequence

from replay.melds import Meld
from schema import events as ev
from schema.events import Transfer
from schema.ruleset import Ruleset

from .hands import Reading

WinHow = Literal["self_draw", "discard", "robbed_kong"]
#: A claim on a discard (or on an added kong's tile, for ``win``).
Claim = Literal["win", "kong", "pong", "chow"]


class Violation(NamedTuple):
    """A rule broken: the catalogue ``code``, a one-line ``message``, and the values."""

    code: str
    message: str = ""
    expected: Any = None
    actual: Any = None


@dataclass(frozen=True)
class WinContext:
    """How a hand was won.

    ``how``: self_draw / discard / robbed_kong.  ``win_tile``: the tile won on.
    ``after_kong``: the tile came as the replacement after the winner's own kong.
    ``kong_discard``: the discard won on was made right after the discarder's
    kong replacement.  ``first_turn``: the win is on the winner's first turn
    (the dealer's 14 tiles), for families that score 天和 / 地和.
    """

    how: WinHow = "self_draw"
    win_tile: Optional[int] = None
    after_kong: bool = False
    kong_discard: bool = False
    first_turn: bool = False
    # -- what families with winds, floors and 天/地/人和 read (Guangdong; -1 / "" / False: unknown)
    #: the winner's seat wind and the round wind, 0..3 = 东 南 西 北
    seat_wind: int = -1
    round_wind: int = -1
    #: ``tianhe`` / ``dihe`` / ``renhe`` when the win is one of them, else ""
    heavenly: str = ""
    #: a self-draw of the last drawable tile (海底)
    last_tile: bool = False
    #: how many seats win on this tile (一炮三响 at three)
    winners: int = 1
    #: the other seats that legally win the same tile (一炮多响), where the family's rules make a
    #: score depend on them (``WinRules.legal_winners``): seats that win do not pay (Wuhan §5.1)
    co_winners: frozenset = frozenset()

    # -- Sichuan (sichuan.md §9.3, §9.4); neutral defaults for the other families ----------
    #: a self-draw of the last wall tile (海底捞月) or a win on the final discard (海底炮)
    sea_bottom: bool = False
    #: ``tianhe`` / ``dihe`` when the win is one of them (families that score them), else ""
    tiandi: str = ""
    #: the winner's declared void suit (0 m, 1 p, 2 s; -1: none declared)
    void: int = -1
    #: 点杠花: a self-draw on the replacement of an exposed kong made on another seat's discard
    #: (the kong just before the winning draw)
    dianganghua: bool = False
    #: a self-draw of the replacement for a flower set aside (花上开花; new-families.md §1);
    #: a single-tile kong's replacement sets ``after_kong`` instead
    after_flower: bool = False
    #: a win on a tile turned face up after a kong (开杠, new-families.md §1): for the konger's
    #: self-draw, how many of the revealed tiles complete its hand; for another seat's win on
    #: one, 1.  0: not a revealed tile
    kong_reveal: int = 0
    #: the flowers the winner has set aside (``Table.set_aside``, 1f..8f as 34..41), for
    #: families whose seat flowers score (海南 位置花); () where unknown or none
    flowers: tuple[int, ...] = ()

    @property
    def plain_tile(self) -> Optional[int]:
        """The winning tile when it is plain even if it is a wild kind: a tile another
        seat exposed (a discard or a robbed kong's tile) never acts as wild."""
        return self.win_tile if self.how in ("discard", "robbed_kong") else None


@dataclass
class Score:
    """The best reading of a hand and what it is worth.

    ``complete``: the tiles form a winning hand; ``wins``: and the win is legal
    as scored (minimum fan for its kind of win).  ``fans`` are the family's fan
    names after replacement, ``fan`` their total, ``capped`` the total after the
    cap and ``points`` what one payer pays.
    """

    wins: bool
    complete: bool
    fans: list[str]
    fan: int
    capped: int
    points: int
    reading: Optional[Reading] = None
    reason: str = ""
    #: a family's derivation of the value, step by step (Guangdong §7.6), for --explain
    steps: list[str] = field(default_factory=list)
    #: the catalogue code of why a complete hand does not win, when the family names one
    #: (Sichuan: WIN_NOT_VOID); "" otherwise
    code: str = ""

    def to_dict(self) -> dict:
        """The score as plain data (tiles spelled), for JSON views."""
        from schema.tiles import tile_name
        d = {"wins": self.wins, "complete": self.complete, "fans": self.fans, "fan": self.fan,
             "capped_fan": self.capped, "points": self.points, "reason": self.reason}
        if self.steps:
            d["steps"] = list(self.steps)
        if self.reading is not None:
            d["reading"] = {
                "seven_pairs": self.reading.seven_pairs,
                "groups": [{"kind": g.kind, "tiles": [tile_name(t) for t in g.tiles],
                            "wilds_as": [tile_name(t) for t in g.wild_as]} for g in self.reading.groups],
                "wild_assignments": [tile_name(t) for t in self.reading.wild_assignments],
            }
        else:
            d["reading"] = None
        return d


class computed_once:
    """A value of a reading's fan input computed on its first read and kept (as
    ``functools.cached_property``, without the lock that takes on Python 3.11: a
    family's scorer reads its fan input in one thread, a dozen fans or more on each
    reading of every win)."""

    def __init__(self, fn: Callable):
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        got = obj.__dict__[self.name] = self.fn(obj)
        return got


def ruleset_with(ruleset: Ruleset, **changes: Any) -> Ruleset:
    """``ruleset`` with ``changes`` (``msgspec.structs.replace``), made once per ruleset object
    and changes: a copy validates every option again, and a family asks for the same variant
    at every claim or settlement of a room (the rules without wilds, without the 敲锣 floor)."""
    key = (id(ruleset), *changes.items())
    got = _VARIANTS.get(key)
    if got is None or got[0] is not ruleset:
        import msgspec

        if len(_VARIANTS) > 4096:  # bounded: a long audit keeps a small memory
            _VARIANTS.clear()
        got = _VARIANTS[key] = (ruleset, msgspec.structs.replace(ruleset, **changes))
    return got[1]


#: (id(ruleset), *changes) -> (the ruleset, its variant): :func:`ruleset_with`'s
_VARIANTS: dict[tuple, tuple[Ruleset, Ruleset]] = {}


def steps_when_read(cls: type, write: Callable[..., list[str]]) -> None:
    """Make a :class:`Score` subclass's ``steps`` written when first read (``--explain``, the
    report, ``paipu hand``), not for every win the audit scores: ``write(*score.derive)``
    (``derive``: a field of ``cls`` holding the arguments) gives them, kept once written."""

    def read(score: Score) -> list[str]:
        got = score.__dict__.get("_steps")
        if not got and score.derive is not None:  # type: ignore[attr-defined]
            got = score.__dict__["_steps"] = write(*score.derive)  # type: ignore[attr-defined]
        return got if got is not None else []

    def keep(score: Score, steps: list[str]) -> None:
        score.__dict__["_steps"] = steps

    cls.steps = property(read, keep)  # type: ignore[attr-defined]


class Settlement(NamedTuple):
    """One hand settled: the transfers in the order paid, the scores after, and whether
    the game must end now (a family's end condition, e.g. 敲锣 at 0)."""

    transfers: list[Transfer]
    scores: list[int]
    game_over: bool


class FeeEvent(NamedTuple):
    """An expected billing event: ``charged`` (FeeCharged) or ``refunded`` (FeeRefunded)."""

    kind: Literal["charged", "refunded"]
    seat: int
    amount: int


class HandFacts(NamedTuple):
    """What a settlement needs besides the winners, read from the table by the family:
    养猪 bets and 点鸡 tallies by seat (``None`` when the room does not play them);
    ``extra``: a family's own facts (Guangdong: the 包 liabilities and kongs); ``dealer``:
    the hand's dealer, for families whose money depends on it (坐庄 bonuses)."""

    bets: Optional[list[int]]
    tallies: Optional[list[int]]
    #: a family's own facts (Sichuan: the hand's money book, ``sichuan.settlement.Book``)
    extra: Any = None
    #: the hand's dealer (None: not known, e.g. ``paipu hand`` without ``--dealer``)
    dealer: Optional[int] = None
    #: the dealer's level L (连庄; None: not known, read as 1), for families whose dealer
    #: pairs are paid by level (``paipu hand --level``)
    dealer_level: Optional[int] = None


class PassBook:
    """What each seat let go since its own last draw or claim (the family's pass rules
    decide what is recorded and what it bars).

    ``tiles[claim][seat]``: the tiles the seat could have claimed with ``claim`` and
    did not (过手碰 / 过手杠 in Qujing); :meth:`win_chances`: the win chances it let go —
    every discard open to it that it did not take — kept unjudged (``(tile, context)``)
    until a later claim asks, because judging a chance may need a full scoring (the
    seat's hand stands until its passes end, so a later judgement is the judgement of
    the moment); ``robs[seat]``: it let a 抢杠 chance go.  ``dirty[seat]``: a pass other
    than a win chance is recorded.

    The win chances of the hand are one log, ``(tile, context, seats open to it,
    takers)`` a discard; each seat's own start in it moves on when its passes end.
    """

    __slots__ = ("tiles", "chances", "since", "robs", "rob_tiles", "dirty")

    def __init__(self, n: int, tile_claims: Sequence[str]) -> None:
        self.tiles: dict[str, list[set[int]]] = {c: [set() for _ in range(n)] for c in tile_claims}
        self.chances: list[tuple[int, bool, Collection[int], Collection[int]]] = []
        self.since = [0] * n
        self.robs = [False] * n
        #: the kinds of the added kongs each seat could rob and did not
        self.rob_tiles: list[set[int]] = [set() for _ in range(n)]
        self.dirty = [False] * n

    def let_go(self, seat: int, claim: str, tile: int, kong_discard: bool = False) -> None:
        """Record that ``seat`` could claim ``tile`` with ``claim`` and did not."""
        if claim == "win":
            self.chances.append((tile, kong_discard, (seat,), ()))
        elif claim in self.tiles:
            self.tiles[claim][seat].add(tile)
            self.dirty[seat] = True

    def let_wins_go(self, seats: Collection[int], takers: Collection[int], tile: int, kong_discard: bool) -> None:
        """Record a win chance on ``tile`` let go by each of ``seats`` not among ``takers``."""
        self.chances.append((tile, kong_discard, seats, takers))

    def win_chances(self, seat: int) -> list[tuple[int, bool]]:
        """The win chances ``seat`` let go since its passes last ended, as (tile, context)."""
        return [(tile, kd) for tile, kd, seats, takers in self.chances[self.since[seat]:]
                if seat in seats and seat not in takers]

    def let_rob_go(self, seat: int, tile: Optional[int] = None) -> None:
        """Record that ``seat`` could rob an added kong (of ``tile``) and did not."""
        self.robs[seat] = True
        if tile is not None:
            self.rob_tiles[seat].add(tile)
        self.dirty[seat] = True

    def clear(self, seat: int) -> None:
        """The seat's own draw or claim: its passes end."""
        self.since[seat] = len(self.chances)
        if self.dirty[seat]:
            for sets in self.tiles.values():
                sets[seat].clear()
            self.robs[seat] = False
            self.rob_tiles[seat].clear()
            self.dirty[seat] = False


#: Judge of one seat's win chance: (seat, tile, kong_discard) -> the win is legal.
WinJudge = Callable[[int, int, bool], bool]


class Particular(NamedTuple):
    """One row of what is particular to a family in a hand (``OwnRules.particulars``), shown
    by the report page and ``--explain`` as they are: a ``label``, the ``tiles`` it is about
    (tile names, drawn as tiles) and a ``text`` saying what they do."""

    label: str
    tiles: tuple[str, ...] = ()
    text: str = ""
    #: the tiles are the hand's wild kinds (the page marks them as wild on the table)
    wild: bool = False


#: The event types only some rulesets log (:attr:`TableRules.events` names a family's).
SPECIAL_EVENTS: frozenset = frozenset({ev.VoidDeclared, ev.TilesExchanged, ev.IndicatorTurned, ev.TileSetAside,
                                       ev.OpeningWinDeclared, ev.KongRevealed, ev.LastTileOffered, ev.BirdsDrawn})


class DiscardVerdict(NamedTuple):
    """A family's word on one discard (``TableRules.discard_rule``): ``dead``: the discard
    opens no claim and no win chance (a dead discard, 死牌); ``violation``: the rule the
    discard breaks (a tile the ruleset forbids to discard), or None; ``claim_code``: the
    finding a claim or a win on the dead discard gives (a discard that should not have been
    made, such as one in a draw-only end of the wall, names that procedure's code)."""

    dead: bool = False
    violation: Optional[Violation] = None
    claim_code: str = "CLAIM_ON_DEAD_DISCARD"


#: The verdict on a plain discard (not dead, no rule broken), shared: a family's rule that
#: returns this very object spares the walker any further look at the discard.
PLAIN_DISCARD = DiscardVerdict()


# The interface is grouped as the finding catalogue is (audits/catalogue.py GROUPS): each part is
# a small frozen dataclass, so a family reads as a handful of short blocks and a rule's hook is
# one hop away (``family.claims.check_pong``, ``family.settlement.settle``).  Functions take the
# :class:`Ruleset` (the room's options) first; tiles are integers (``schema.tiles``).  A field
# that defaults to None is a piece a family may leave out: the walker then does what it did
# before the piece existed.


@dataclass(frozen=True, kw_only=True)
class TableRules:
    """The wall, the tail, wild kinds, whose turn it is and the dealer (catalogue group ``table``)."""

    #: (ruleset) -> the wild kinds (empty for families without wilds).
    wild_kinds: Callable[[Ruleset], frozenset[int]]
    #: (ruleset) -> how many tail tiles are kept face up as the kong-replacement pool
    #: (Qujing 翻屁股: 2); 0 means a kong's replacement is the next wall tile.
    tail_pool: Callable[[Ruleset], int]
    #: (ruleset, undrawn, face_up) -> tiles counted as remaining for the exhaustive draw.
    remaining: Callable[[Ruleset, int, int], int]
    #: (ruleset, kongs declared this hand) -> the exhaustive-draw reserve (黄庄).
    reserve: Callable[[Ruleset, int], int]
    #: (creator) -> the first hand's dealer.
    first_dealer: Callable[[int], int]
    #: (dealer, winners, how, from_seat) -> the next hand's dealer.
    next_dealer: Callable[..., int]
    #: (ruleset, dealer, first winning moment (seats, how, from_seat) or None) -> the next
    #: dealer; when set it replaces ``next_dealer`` (rotation that depends on options, or
    #: hands with several winning moments).  (Sichuan)
    dealer_after: Optional[Callable[..., int]] = None
    #: ``dealer_after`` also gets ``table=`` (the hand's end: 海底 offers, reveals) and ``book=``
    #: (the family's hand book, or None in the simulator).  (Changsha: the 海底 taker deals)
    dealer_reads_table: bool = False
    #: (ruleset, table, first winning moment (seats, how, from_seat) or None, n) -> (the next
    #: hand's dealer or None: not audited, its dealer level or None: not audited); when set it
    #: replaces ``dealer_after`` and ``next_dealer`` (rotation with dealer levels, 连庄: the
    #: table is the hand just settled, its logged ``dealer_level`` and kongs included).
    #: The walker checks a logged ``HandStarted.dealer_level`` against it (DEALER_ROTATION).
    rotation: Optional[Callable[..., tuple[Optional[int], Optional[int]]]] = None
    #: (ruleset) -> where a kong replacement comes from when no tail pool is kept:
    #: ``tail`` (the wall's last tile, logged source "tail") or ``wall`` (the next tile).  (Guangdong)
    replacement_source: Optional[Callable[[Ruleset], str]] = None

    # -- the shared ground of the five new families (new-families.md §1); nothing calls them yet --
    #: (ruleset, indicator kind) -> the wild kind a turned indicator names (the family's cycle:
    #: the indicator itself, or the next kind in its suit).  None: wilds are preset (``wilds``).
    wild_of: Optional[Callable[[Ruleset, int], int]] = None
    #: (ruleset, table, seat, tile) -> :class:`DiscardVerdict`: whether the discard is dead
    #: (opens no claim, no win chance) and the rule it breaks (a wild or 痞 tile the ruleset
    #: forbids to discard, the forced discard, honour order).  None: every discard is plain.
    discard_rule: Optional[Callable[..., DiscardVerdict]] = None
    #: (ruleset) -> ``discard_rule`` bound to that ruleset, a function of (table, seat, tile): for
    #: a family whose rule reads facts of the ruleset on every discard (the walker binds it once
    #: per ruleset object; ``discard_rule`` is then this function's answer).  None: the walker
    #: binds ``discard_rule`` itself.  (Wenzhou's discard order)
    discard_rule_for: Optional[Callable[[Ruleset], Callable[..., DiscardVerdict]]] = None
    #: The event types beyond every ruleset's own (draws, discards, claims, kongs, wins,
    #: settlements) that this family's rooms log: 定缺 and 换三张 (VoidDeclared, TilesExchanged),
    #: a turned indicator, a tile set aside (flowers, 红中杠), an opening win, a 开杠 reveal, a 海底
    #: offer, birds.  Any of :data:`SPECIAL_EVENTS` outside it is EVENT_NOT_IN_RULESET.
    events: frozenset = frozenset()
    #: (ruleset, table) -> the seat that draws next where the family departs from "the seat
    #: after the last discard" (end-of-wall turns: a draw-only 海底, an offered last tile), or
    #: None to keep the usual turn.  None: turns always follow the last discard.
    next_drawer: Optional[Callable[..., Optional[int]]] = None


@dataclass(frozen=True, kw_only=True)
class ClaimRules:
    """Claims on a discard or a kong, what a hand could claim, and the pass rules
    (catalogue group ``claims``; the passed-win codes are reported under ``wins``)."""

    #: claim -> rank; a higher rank takes a discard over a lower one (胡 > 杠 > 碰 > 吃).
    claim_rank: Mapping[str, int]
    #: (ruleset, n, seat, from_seat, discard, own tiles) -> violations of a chow.
    check_chow: Callable[..., list[Violation]]
    #: (ruleset, seat, from_seat, discard, own tiles) -> violations of a pong.
    check_pong: Callable[..., list[Violation]]
    #: (ruleset, seat, from_seat, kind, discard, own tiles) -> violations of an exposed kong.
    check_exposed_kong: Callable[..., list[Violation]]
    #: (ruleset, kind, tile) -> violations of an added kong (onto the seat's own pong).
    check_added_kong: Callable[..., list[Violation]]
    #: (ruleset, kind, own tiles) -> violations of a concealed kong.
    check_concealed_kong: Callable[..., list[Violation]]
    #: (ruleset, counts, discard) -> the seat could pong the discard.
    could_pong: Callable[[Ruleset, Sequence[int], int], bool]
    #: (ruleset, counts, discard) -> the seat could kong the discard.
    could_kong: Callable[[Ruleset, Sequence[int], int], bool]
    #: (ruleset, counts, discard, claimer, discarder) -> pairs of hand tiles that chow it.
    chow_options: Callable[..., list[tuple[int, int]]]
    #: (ruleset, counts, discard) -> three-tile sets from hand that kong the discard.
    exposed_kong_options: Callable[..., list[tuple[int, ...]]]
    #: (ruleset, counts) -> (kind, four tiles) concealed kongs the hand can declare.
    concealed_kong_options: Callable[..., list[tuple[int, tuple[int, ...]]]]
    #: (ruleset, counts, melds) -> (kind, tile) added kongs onto the seat's pongs.
    added_kong_options: Callable[..., list[tuple[int, int]]]
    #: (kind of the kong event: kong_added / kong_exposed / kong_concealed) -> it can be robbed.
    can_rob: Callable[[str], bool]
    #: the claims whose pass bars that tile until the seat's own next draw or claim.
    tile_passes: tuple[str, ...]
    #: (book, seat, claim, tile, judge, rules=, how=) -> the catalogue code of the pass rule a
    #: claim breaks, or None.  ``judge`` decides whether a win chance let go was legal; ``how``:
    #: a win on a ``discard`` or by robbing an added kong (``robbed_kong``).
    pass_violation: Callable[..., Optional[str]]
    #: the pass rule needs the value of wins (``pass_violation`` gets ``value=``: (seat, tile,
    #: kong_discard or None for the current discard, how="discard") -> the capped fan of a legal
    #: win, a rob's with its 抢杠 fan).  (Sichuan)
    pass_values: bool = False


@dataclass(frozen=True, kw_only=True)
class WinRules:
    """Whether a hand is complete, what it waits on, and whether a win is legal
    (catalogue group ``wins``)."""

    #: (ruleset, counts, melds, plain) -> concealed counts (the winning tile included) +
    #: melds form a winning hand (fast, no fan); ``plain``: a wild kind won from another seat.
    is_winning: Callable[..., bool]
    #: (ruleset, counts, melds) -> the plain tiles that complete a 3k+1 hand.
    waits: Callable[..., list[int]]
    #: (ruleset, counts, suit keys, tiles held, melds) -> the seat's wait entry when one
    #: tile could complete it (a superset test, cached until the hand changes), else False.
    seat_waits: Callable[..., Any]
    #: (ruleset, entry, counts, melds, tile) -> complete with ``tile`` from another seat (exact).
    completes: Callable[..., bool]
    #: (ruleset, how, fan) -> the minimum fan a win of this kind needs is met.
    fan_enough: Callable[[Ruleset, str, int], bool]
    #: (ruleset, concealed counts, melds, tile) -> a one-line name of a special wait
    #: (单吊小鸡), or "" — for messages.  None: the family names no wait.  (Qujing, Wenzhou)
    describe_wait: Optional[Callable[..., str]] = None
    #: (ruleset, concealed counts with the tile just drawn) -> a hand holding wild kinds
    #: (the drawn tile included) is complete after the draw only where the wait entry
    #: (``seat_waits``) of the hand before the draw allows one, as for a hand without
    #: wilds, and where ``completes`` on that entry says a plain tile drawn completes it
    #: (as the same tile from another seat); None: a hand holding a wild kind is always
    #: judged in full after a draw, and ``completes`` never answers a draw.
    drawn_within_waits: Optional[Callable[[Ruleset, Sequence[int]], bool]] = None
    #: (ruleset, table, seat, how, tile, after_kong, kong_discard, winners) -> the WinContext
    #: the family scores with (the table as it is before the win is applied).  (Guangdong)
    win_context: Optional[Callable[..., WinContext]] = None
    #: (ruleset, HandWon, wins_alone) -> the declarers of a 一炮多响 that win legally, where a
    #: winner's legality depends on who else wins the tile (the seats that win do not pay),
    #: else None; ``wins_alone(seat, co_winners)`` judges one declarer with the given other
    #: winners.  The audit scores each winner with the others as ``WinContext.co_winners``.  (Wuhan)
    legal_winners: Optional[Callable[..., Optional[frozenset]]] = None
    #: (ruleset, table, seat, how, first_turn) -> extra WinContext fields for a win, or None.  (Sichuan)
    win_extras: Optional[Callable[..., Optional[dict]]] = None
    #: (ruleset, WinContext, request) -> the context the family scores a ``paipu hand`` request
    #: with, where its score needs table facts the neutral context lacks (the request's
    #: ``seat``, ``from_seat``, ``dealer``, ``indicator`` and its ``context`` mapping).  (Wuhan)
    request_context: Optional[Callable[..., WinContext]] = None
    #: (ruleset, WinContext) -> the family's own ``paipu hand`` request facts (the ``seat``,
    #: ``from_seat``, ``dealer`` and ``context`` that ``request_context`` reads back) a scored
    #: context implies: its inverse, so ``--explain``'s pasted command scores as the audit did.
    #: The neutral fields' facts come from ``audits.explain.request_facts``.  (Wuhan, Wenzhou)
    request_of: Optional[Callable[..., dict]] = None


@dataclass(frozen=True, kw_only=True)
class ScoringRules:
    """Fans and points: the best reading of a hand and what one payer owes
    (catalogue group ``scoring``: FAN_MISMATCH, POINTS_MISMATCH)."""

    #: (ruleset, concealed tiles with the winning tile, melds, ctx) -> the best reading (:class:`Score`).
    score: Callable[..., Score]
    #: (ruleset, concealed tiles, melds, ctx) -> every reading as (fan names, total, reading);
    #: a hand read two ways may be logged with either reading of the highest total.
    reading_fans: Callable[..., Any]
    #: (fan, ruleset) -> points per payer (base × 2^min(fan, cap) in Qujing).
    points: Callable[[int, Ruleset], int]
    #: fan name -> value.
    fan_values: Mapping[str, int]
    #: fan name -> its Chinese name.
    fan_chinese: Mapping[str, str]
    #: (ruleset, logged Winner, Score or None) -> the points one payer owes for the winner
    #: *as logged* (POINTS_MISMATCH is step-wise: points against the logged fan).  (Guangdong)
    winner_points: Optional[Callable[..., int]] = None
    #: (ruleset, logged Winner, Score) -> the code a logged fan list that differs from every
    #: best reading gets (FAN_MISMATCH, or a warning when only the names differ), or None.  (Guangdong)
    fan_finding: Optional[Callable[..., Optional[str]]] = None
    #: (ruleset, logged Winner, Score, HandFacts) -> {payer seat: the amount that payer owes the
    #: winner} after the family's per-pair factors (dealer pairs, 连庄, caps), compared with the
    #: logged ``Winner.payers`` (POINTS_MISMATCH per payer).  None: every payer owes
    #: ``Winner.points`` (the shared ground of the five new families; nothing calls it yet).
    payer_points: Optional[Callable[..., Mapping[int, int]]] = None


@dataclass(frozen=True, kw_only=True)
class SettlementRules:
    """One hand's money and the game's points: the settlement, how transfers are compared,
    bets, the room's start and end (catalogue group ``scoring``: TRANSFER_MISMATCH and the rest)."""

    #: (ruleset, received, bets) -> bets and tallies the settlement needs, from the table's
    #: neutral facts (tiles each seat received from the wall, bets placed).
    hand_facts: Callable[..., HandFacts]
    #: (ruleset, scores, winners [(seat, P)], how, from_seat, facts, clamp) -> Settlement.
    settle: Callable[..., Settlement]
    #: transfer reason -> how ``--explain`` words it.
    transfer_labels: Mapping[str, str]
    #: groups of transfer reasons compared together, with the code a mismatch gets
    #: (the robbed-kong group's code is chosen by ``how`` in ``transfer_code``); the first
    #: group is the win's, and a reason named in no group nor in ``net_reasons`` is compared
    #: with it (a payment the family never makes is a wrong one: ``checks.scoring.transfer_groups``).
    transfer_groups: tuple[tuple[tuple[str, ...], str], ...]
    #: (how, group code, expected, actual) -> the code a mismatch in that group reports.
    transfer_code: Callable[..., str]
    #: reasons compared as per-seat nets rather than payer/payee pairs (点鸡), with their code.
    net_reasons: tuple[tuple[str, ...], str]
    #: (ruleset, bet, placed_before, dealt) -> violation of a pig bet (养猪).
    check_bet: Callable[..., Optional[Violation]]
    #: (ruleset) -> the points every player starts the game with (敲锣: 20).
    start_points: Callable[[Ruleset], int]
    #: (ruleset, seats, start_points) -> violations of the room as opened.
    check_room: Callable[..., list[Violation]]
    #: (ruleset, scores) -> the game must end now (敲锣 at 0).
    game_over: Callable[[Ruleset, Sequence[int]], bool]
    #: (ruleset, table, HandWon or None) -> the settlement's facts read from the table
    #: (when set, asked instead of ``hand_facts``).  (Guangdong)
    table_facts: Optional[Callable[..., HandFacts]] = None
    #: (ruleset, n, winners [(seat, P)], how, from_seat, facts) -> the corrected settlement's
    #: derivation, one line per payment, for ``--explain`` (a family whose money is more than
    #: P per payer: dealer bonuses, side bets).  None: the transfers speak for themselves.
    derivation: Optional[Callable[..., list[str]]] = None
    #: (ruleset, table, HandWon) -> the birds due after the win (抓鸟) as (count, source
    #: ``wall`` / ``tail`` / ``last``, the seat counted from), or None: the simulator draws
    #: them, the family's ``event_checks`` may judge a logged BirdsDrawn by it.  None: no birds.
    birds_due: Optional[Callable[..., Optional[tuple[int, str, int]]]] = None
    #: (ruleset, Score) -> a scored win's transfers outside a log (``paipu hand``), for a family
    #: whose money rides on the score (per-pair shares, 包); None: ``settle`` with the points.  (Wuhan)
    score_transfers: Optional[Callable[..., list]] = None
    #: (ruleset, Score, how, winner, from_seat, dealer) -> the ``HandFacts.extra`` a ``paipu hand``
    #: request is settled with, for a family whose liability is decided by the winner's score
    #: (无番抢杠); None: the request's own extras.  (Hainan)
    request_facts: Optional[Callable[..., Any]] = None
    #: whether the order of a discard's winners' payments is a rule (MULTI_WIN_ORDER): Qujing
    #: pays them in seat order from the discarder's next seat; Guangdong compares transfers
    #: as sums only (guangdong.md §8.7: "the order of payments is not a finding").
    payment_order: bool = True
    #: the reasons of a transfer group are compared as one total per (payer, payee): a log may
    #: split a pair's money by reason or not (changsha.md §10.6).  False: per reason too.
    pair_totals: bool = False
    #: (ruleset, n, how, winners, from_seat, facts, expected, actual) -> the code that names
    #: what explains a wrong pair total (a bird factor, an opening base), or None to keep the
    #: group's code.  None: the group's code (``transfer_code``).
    explain_pair: Optional[Callable[..., Optional[str]]] = None


@dataclass(frozen=True, kw_only=True)
class BillingRules:
    """The room's fee: what is charged or refunded, and when (catalogue group ``billing``)."""

    #: (billing, creator, fee, seats_opened, seats_now) -> events due at the first settlement.
    fees_at_first_settlement: Callable[..., list[FeeEvent]]
    #: (billing, creator, fee, already_charged) -> events due at a 4→3 change.
    fees_at_resize: Callable[..., list[FeeEvent]]


@dataclass(frozen=True, kw_only=True)
class OwnRules:
    """The family's own checks beside the walker's: a per-hand memory, the event types it
    watches and its rules on rare events.  All optional (Qujing needs none)."""

    #: (ruleset, n, dealer) -> the family's memory of one hand (its own rules and money
    #: moments), or None; the walker keeps it as ``AuditContext.hand_book``.  (Sichuan)
    hand_book: Optional[Callable[..., Any]] = None
    #: the event types the family watches with ``observe`` (nothing else is slowed down);
    #: ``RuleFamily.data["observe_after"]`` narrows the types also observed after their handler.
    observes: frozenset = frozenset()
    #: (ruleset, table, event, book, ctx, after) -> [(seat, Violation)]: the family's own
    #: checks of a watched event, on the table before it applies (``after`` False) and after
    #: its handler ran (``after`` True); ``ctx`` answers ``legal_win_on``, ``barred``,
    #: ``won_scores`` and the other AuditContext questions.
    observe: Optional[Callable[..., list]] = None
    #: (ruleset, table, event) -> violations of the family's own rules on a rare event
    #: (a claim, a kong, a hand's start), judged on the table before the event applies.  (Guangdong)
    event_checks: Optional[Callable[..., list[Violation]]] = None
    #: (room ruleset, one hand's events from its HandStarted) -> what is particular to the
    #: family in that hand, as :class:`Particular` rows (the indicator and wilds, flowers,
    #: birds, revealed tiles, levels), for the report page (each hand's settlement); read from the
    #: log, judged by the family's own rules.  None: nothing particular.
    particulars: Optional[Callable[..., list[Particular]]] = None


@dataclass(frozen=True, kw_only=True)
class RuleFamily:
    """Everything that differs between rulesets, as data and named functions, in the
    catalogue's groups: :class:`TableRules`, :class:`ClaimRules`, :class:`WinRules`,
    :class:`ScoringRules`, :class:`SettlementRules`, :class:`BillingRules` and the
    family's :class:`OwnRules`.

    The Qujing implementation is :data:`audits.rules.qujing.QUJING`.  A variant is
    ``dataclasses.replace(F, wins=replace(F.wins, fan_enough=...))``, or shorter
    :func:`variant` ``(F, wins={"fan_enough": ...})``.
    """

    name: str
    table: TableRules
    claims: ClaimRules
    wins: WinRules
    scoring: ScoringRules
    settlement: SettlementRules
    billing: BillingRules
    own: OwnRules = OwnRules()
    #: the catalogue codes of rules every family has in its own words:
    #: ``below_min_fan`` (a win without the fan its kind needs), ``rob_kong_exposed`` /
    #: ``rob_kong_concealed`` (a robbing of a kong that cannot be robbed).
    codes: Mapping[str, str] = field(default_factory=dict)
    #: Free-form data a family's own functions share (documented by the family).
    data: Mapping[str, Any] = field(default_factory=dict)


# --- a part from the rule modules that name their hooks as Qujing's do ---------------------------
# Most families keep their claims in a ``claims`` module, their shapes in ``wins`` and their
# fans in ``fans``, each naming a hook as Qujing's module does; a part is then read from the
# module and only what differs is given (a family reusing another's rule passes that
# family's module).

#: :class:`ClaimRules` field -> its name in a claims module (audits/rules/qujing/claims.py).
CLAIM_HOOKS: Mapping[str, str] = {
    "claim_rank": "CLAIM_RANK", "check_chow": "check_chow", "check_pong": "check_pong",
    "check_exposed_kong": "check_exposed_kong", "check_added_kong": "check_added_kong",
    "check_concealed_kong": "check_concealed_kong", "could_pong": "could_pong", "could_kong": "could_kong",
    "chow_options": "chow_options", "exposed_kong_options": "exposed_kong_options",
    "concealed_kong_options": "concealed_kong_options", "added_kong_options": "added_kong_options",
    "can_rob": "can_rob"}
#: :class:`WinRules` field -> its name in a wins module (audits/rules/qujing/wins.py).
WIN_HOOKS: Mapping[str, str] = {
    "is_winning": "is_winning", "waits": "waits", "seat_waits": "seat_waits", "completes": "completes",
    "drawn_within_waits": "drawn_within_waits", "describe_wait": "describe_wait"}
#: :class:`ScoringRules` field -> its name in a fans module (audits/rules/qujing/fans.py).
SCORING_HOOKS: Mapping[str, str] = {
    "score": "score_hand", "reading_fans": "reading_fans", "points": "points", "fan_values": "FAN_VALUES",
    "fan_chinese": "CHINESE", "winner_points": "winner_points", "fan_finding": "fan_finding"}


def _hooks(module: Any, names: Mapping[str, str]) -> dict[str, Any]:
    return {field: getattr(module, name) for field, name in names.items() if hasattr(module, name)}


def claim_rules_from(claims: Any, **given: Any) -> ClaimRules:
    """The family's :class:`ClaimRules`: the 吃 / 碰 / 杠 hooks of :data:`CLAIM_HOOKS` that
    the module ``claims`` has, and ``given`` (the pass rules, and any hook in place of the
    module's)."""
    return ClaimRules(**{**_hooks(claims, CLAIM_HOOKS), **given})


def win_rules_from(wins: Any, fans: Any, **given: Any) -> WinRules:
    """The family's :class:`WinRules`: the hooks of :data:`WIN_HOOKS` that the module
    ``wins`` has, ``fan_enough`` of ``fans``, and ``given`` (a win's context, and any hook in
    place of the modules')."""
    return WinRules(**{**_hooks(wins, WIN_HOOKS), "fan_enough": fans.fan_enough, **given})


def scoring_rules_from(fans: Any, **given: Any) -> ScoringRules:
    """The family's :class:`ScoringRules`: the hooks of :data:`SCORING_HOOKS` that the module
    ``fans`` has, and ``given`` (what one payer owes, and any hook in place of the module's)."""
    return ScoringRules(**{**_hooks(fans, SCORING_HOOKS), **given})


#: The parts of a :class:`RuleFamily`, by field name.
PARTS: tuple[str, ...] = ("table", "claims", "wins", "scoring", "settlement", "billing", "own")


def variant(family: RuleFamily, **changes: Any) -> RuleFamily:
    """A copy of ``family`` with some hooks swapped: a part's name takes a mapping of the
    fields to change in that part (``wins={"fan_enough": f}``) or a whole part; any other
    keyword (``name``, ``codes``, ``data``) replaces that field."""
    for part in PARTS:
        if isinstance(changes.get(part), Mapping):
            changes[part] = replace(getattr(family, part), **changes[part])
    return replace(family, **changes)


__all__ = ["BillingRules", "CLAIM_HOOKS", "Claim", "ClaimRules", "DiscardVerdict", "FeeEvent", "HandFacts", "Meld", "OwnRules",
           "PLAIN_DISCARD", "PARTS", "Particular", "PassBook", "RuleFamily", "Score", "ScoringRules", "Settlement",
           "SCORING_HOOKS", "SettlementRules", "TableRules", "Violation", "WIN_HOOKS", "WinContext", "WinHow", "WinJudge",
           "WinRules", "claim_rules_from", "computed_once", "ruleset_with", "scoring_rules_from", "steps_when_read",
           "variant", "win_rules_from"]
