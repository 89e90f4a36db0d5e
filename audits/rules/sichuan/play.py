"""Sichuan rules of play that the shared walker does not know (sichuan.md §2–§7, §10):
the 108-tile set, 换三张 and 定缺, void-first discards, melds of the void suit, 血战
seats that have left, how a hand ends, the last four tiles, kongs at R = 0, and the
money moments of a hand (kongs as they stand, winning moments, the exhaustive end).

The walker hands every watched event to :func:`observe` twice (before the event is
applied, and after its handler ran), with the family's per-hand :class:`HandBook`.
"""

from __future__ import annotations

from typing import Any, Optional

from schema import events as ev
from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX, TILE_NAMES

from ..family import Settlement, Violation
from . import fans as F
from .settlement import Book, next_dealer

#: The events the family watches (everything else goes through the walker untouched).
OBSERVES = frozenset({
    ev.HandStarted, ev.TilesDealt, ev.TilesExchanged, ev.VoidDeclared, ev.TileDrawn, ev.TileDiscarded,
    ev.Ponged, ev.KongExposed, ev.KongAdded, ev.KongConcealed, ev.HandWon, ev.HandDrawn, ev.HandSettled,
    ev.ClaimDeclared, ev.ClaimPassed, ev.Chowed,
})

#: The events whose memories the family updates after the walker's handler (``_after``):
#: the kongs as they stand and the winning moments (which need the walker's scores).
OBSERVE_AFTER = frozenset({ev.KongExposed, ev.KongConcealed, ev.KongAdded, ev.HandWon})

_SUITS = ("m", "p", "s")


#: A bound no count of undrawn tiles is above: the short path never holds.
_NEVER = 1 << 30


class _BoundFact:
    """A fact of the :class:`HandBook` the short paths' bounds stand for: setting it
    recomputes them (:meth:`HandBook._bounds`)."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = "_" + name

    def __get__(self, book: Optional["HandBook"], owner: Optional[type] = None) -> Any:
        return self if book is None else getattr(book, self.slot)

    def __set__(self, book: "HandBook", value: Any) -> None:
        setattr(book, self.slot, value)
        book._bounds()


class HandBook:
    """One hand's memory: declarations, the dealer's first action, the kongs of the current
    turn, the last draw, and the money moments (replayed by :func:`settle`).

    The short paths of draws and discards (:func:`_wrap_drawn`, :func:`_wrap_discarded`)
    read one bound each, :attr:`draws_plain_above` and :attr:`discards_plain_above`, kept
    as the facts they stand for change (:attr:`dealer_acted`, :attr:`pending_added`,
    :attr:`ended`)."""

    #: the dealer's first action has closed the declarations (§4.1)
    dealer_acted = _BoundFact()
    #: the seat of an added kong that stands once nobody robs it, or None
    pending_added = _BoundFact()
    #: the hand has ended at a win (§6.1 under ``first_win``; §6.2.5 its last allowed winner)
    ended = _BoundFact()

    def __init__(self, ruleset: Ruleset, n: int = 4, dealer: int = 0) -> None:
        self.rules = ruleset
        self.n = n
        self.dealer = dealer
        self.declared = [False] * n
        self.exchanged = False
        # the facts behind the short paths' bounds (:class:`_BoundFact`), read by _bounds below
        self._dealer_acted = self._ended = False
        self._pending_added: Optional[int] = None
        self.void_reported = False
        #: (seat, kind, from_seat) of the last kong in the current turn, cleared by a discard
        self.turn_kong: Optional[tuple[int, str, Optional[int]]] = None
        #: money moments: ("kong", seat, kind, from) / ("win", logged, true, how, from, kd, dgh) / ("end", classes)
        self.moments: list[tuple] = []
        #: (ruleset, seats, moments) of the last corrected settlement, whose derivation
        #: :attr:`lines` writes when asked (``--explain``)
        self.lines_of: Optional[tuple[Ruleset, int, int]] = None
        self.end_wrong_reported = False
        #: the open discard's tile and seat while it may be won (for 最后四张)
        self.discard_window: Optional[tuple[int, int, bool]] = None
        self.first_win: Optional[tuple[list[int], str, Optional[int]]] = None
        #: settle()'s transfers by (the audit's own winners differ from the logged ones,
        #: moments so far, seats)
        self.settled: dict = {}
        #: the last-four phase holds while R ≤ this (§6.4, :func:`in_last_four`)
        self.last_four = 4 if ruleset.last_four_window == "four_remaining" else 3
        #: void first is checked (§4.1 rule 2)
        self.void_first = ruleset.void_first and ruleset.dingque == "declared"
        self._bounds()

    def _bounds(self) -> None:
        in_play = self._dealer_acted and not self._ended
        #: a draw takes the short path while R > this: in play, before the last four (§6.4),
        #: no added kong waiting for its replacement
        self.draws_plain_above = self.last_four if in_play and self._pending_added is None else _NEVER
        #: a discard takes the short path while R > this: in play, before R ≤ 4 (no last-four
        #: check can hold)
        self.discards_plain_above = 4 if in_play else _NEVER

    @property
    def lines(self) -> list[str]:
        """The derivation of the last corrected settlement, one line per step (``--explain``)."""
        if self.lines_of is None:
            return []
        ruleset, n, upto = self.lines_of
        return replay(ruleset, n, self.moments[:upto], True).lines


def hand_book(ruleset: Ruleset, n: int, dealer: int) -> HandBook:
    """``RuleFamily.own.hand_book``."""
    return HandBook(ruleset, n, dealer)


def _v(code: str, message: str, expected: Any = None, actual: Any = None) -> Violation:
    return Violation(code, message, expected, actual)


def holds_void(table, seat: int) -> bool:
    """The seat holds a concealed tile of its declared void suit (the suit's key is not 0)."""
    v = table.voids[seat]
    return v >= 0 and table.keys[seat][v] != 0


def in_last_four(ruleset: Ruleset, undrawn: int) -> bool:
    """§6.4: the phase starts with the draw that takes the fourth-last tile (R ≤ 3 after it),
    or as soon as R ≤ 4 (``four_remaining``)."""
    return undrawn <= (4 if ruleset.last_four_window == "four_remaining" else 3)


_NONE: list = []
#: the honour tiles' names: no 108-tile set holds them (§2)
_HONOURS = frozenset(TILE_NAMES[27:])


def observe(ruleset: Ruleset, table, e: ev.Event, hb: HandBook, ctx, after: bool) -> list:
    """``RuleFamily.own.observe``: [(seat, Violation)] for one watched event.

    Draws and discards (nine events in ten) take a short path (:func:`_drawn`,
    :func:`_discarded`; the walker calls them through :data:`OBSERVERS`); everything
    else goes to :func:`_observe`."""
    t = type(e)
    if after:
        _after(ruleset, table, e, hb, ctx)
        return _NONE
    if t is ev.TileDrawn:
        return _drawn(ruleset, table, e, hb, ctx)
    if t is ev.TileDiscarded:
        return _discarded(ruleset, table, e, hb, ctx)
    return _observe(ruleset, table, e, hb, ctx)


def _in_play(table, hb: HandBook, e) -> bool:
    """The short path's condition: a seat still in, in play, with a suited tile."""
    return hb.dealer_acted and table.phase != "won" and e.tile not in _HONOURS \
        and (not table.out or e.seat not in table.out)


def _drawn(ruleset: Ruleset, table, e: ev.TileDrawn, hb: HandBook, ctx) -> list:
    """A draw in play needs only the last-four check of the discard nobody claimed (the
    discard window is kept only in the last four, :func:`_discarded`) and the added kong
    that stands at its replacement."""
    if _in_play(table, hb, e):
        out = _NONE
        if hb.discard_window is not None:  # nobody claimed the last discard
            out = _missed_last_four(ruleset, table, hb, ctx, e, _NONE)
        if hb.pending_added is not None:  # an added kong stands at its replacement: nobody robbed it
            out = out + _missed_last_four_rob(ruleset, table, ctx, _NONE)
            _stands(hb, hb.pending_added, "kong_added", None)
        return out
    return _observe(ruleset, table, e, hb, ctx)


def _void_first(table, seat: int, tile: str) -> list:
    """Void first (§4.1 rule 2): a seat holding its void suit discards of that suit."""
    v = table.voids[seat]
    # the seat holds its void suit (:func:`holds_void`, read here without the call: every discard asks)
    if v >= 0 and table.keys[seat][v] and TILE_INDEX[tile] // 9 != v:
        return [(seat, _v("VOID_DISCARD_ORDER", f"seat {seat} discards {tile} while holding its "
                          f"void suit {_SUITS[v]}", f"a {_SUITS[v]} tile", tile))]
    return _NONE


def _discarded(ruleset: Ruleset, table, e: ev.TileDiscarded, hb: HandBook, ctx) -> list:
    """A discard in play needs the void-first check and, with R ≤ 4, the last-four checks;
    its memories: the turn's kongs end, and in the last four the discard is open to wins
    (杠上炮: its maker's last draw was a replacement, the fact the walker keeps as
    ``tail_drawn`` until this discard)."""
    seat = e.seat
    if _in_play(table, hb, e):
        out = _last_four_self_draw(ruleset, table, hb, ctx, seat, e) if table.undrawn <= 4 else _NONE
        if hb.void_first and 0 <= seat < hb.n:
            out = out + _void_first(table, seat, e.tile)
    else:
        out = _observe(ruleset, table, e, hb, ctx)
    hb.turn_kong = None
    # before the last four no discard can be won by 最后四张 (R only falls), so no window
    if table.undrawn <= hb.last_four and 0 <= seat < hb.n and e.tile not in _HONOURS:
        hb.discard_window = (seat, TILE_INDEX[e.tile], ctx.tail_drawn[seat])
    return out


def _wrap_drawn(handler, report):
    """The walker's draw handler with :func:`_drawn` before it, skipped where it has nothing
    to do: while R is above the hand book's bound (in play, before the last four, no added
    kong waiting: :attr:`HandBook.draws_plain_above`) by a seat still in.  An honour drawn
    there has nothing to judge either (the 108-tile set is the walker's TILE_NOT_IN_SET)."""
    def drawn(ctx, e: ev.TileDrawn) -> None:
        hb = ctx.hand_book
        table = ctx.table
        if table.undrawn <= hb.draws_plain_above or (table.out and e.seat in table.out):
            if table.phase == "won":
                return _play_after_end(ctx, e, report)
            found = _drawn(ctx.rules, table, e, hb, ctx)
            if found:
                report(ctx, e, found)
        handler(ctx, e)
    return drawn


def _wrap_discarded(handler, report):
    """The walker's discard handler with :func:`_discarded` before it; while R is above the
    hand book's bound (in play, R > 4: :attr:`HandBook.discards_plain_above`) by a seat still
    in, only the void-first check of a suited tile and the end of the turn's kongs."""
    def discarded(ctx, e: ev.TileDiscarded) -> None:
        hb = ctx.hand_book
        table = ctx.table
        seat = e.seat
        if table.undrawn > hb.discards_plain_above and (not table.out or seat not in table.out):
            if hb.void_first and 0 <= seat < hb.n and e.tile not in _HONOURS:
                found = _void_first(table, seat, e.tile)
                if found:
                    report(ctx, e, found)
            hb.turn_kong = None
        else:
            if table.phase == "won":
                return _play_after_end(ctx, e, report)
            found = _discarded(ctx.rules, table, e, hb, ctx)
            if found:
                report(ctx, e, found)
        handler(ctx, e)
    return discarded


def _play_after_end(ctx, e: ev.Event, report) -> None:
    """Play after the hand has ended (§6.1: the first winning moment under ``first_win``;
    §6.2.5: the last allowed winner under 血战): one HAND_END_WRONG at the first such event
    and no other finding; the event is passed over, so the hand's settlement is audited,
    and the corrected ledger produced, where the rules end the hand."""
    hb = ctx.hand_book
    if not hb.end_wrong_reported:
        hb.end_wrong_reported = True
        report(ctx, e, [(getattr(e, "seat", None), _v(
            "HAND_END_WRONG", f"play goes on after the hand ended ({len(ctx.table.out)} winner(s))",
            "HandSettled", type(e).__name__))])
    ctx.replayer.pass_over(e)


def _wrap_play(observed: bool, after: bool):
    """A play event's handler: passed over after the hand has ended (:func:`_play_after_end`),
    else the family's checks before it (``observed``) and its memories after it (``after``)."""
    def wrap(handler, report):
        def played(ctx, e) -> None:
            if ctx.table.phase == "won":
                return _play_after_end(ctx, e, report)
            # what :func:`observe` does with any event but a draw or a discard (none comes here)
            if observed:
                found = _observe(ctx.rules, ctx.table, e, ctx.hand_book, ctx)
                if found:
                    report(ctx, e, found)
            handler(ctx, e)
            if after:
                _after(ctx.rules, ctx.table, e, ctx.hand_book, ctx)
        return played
    return wrap


def _wrap_observed(handler, report):
    """An event the family judges before the walker's handler and remembers nothing of after
    it (the hand's start and deal, 换三张, 定缺, the settlement): what :func:`observe` does
    with it, without its dispatch."""
    def observed(ctx, e) -> None:
        found = _observe(ctx.rules, ctx.table, e, ctx.hand_book, ctx)
        if found:
            report(ctx, e, found)
        handler(ctx, e)
    return observed


#: The event types the family wraps itself (``data["observers"]``, see ``audits.audit.handlers_for``):
#: draws and discards on a short path; every play event is passed over after the hand ended;
#: the others are judged by :func:`_observe` (every type the family observes is one of these).
OBSERVERS = {ev.TileDrawn: _wrap_drawn, ev.TileDiscarded: _wrap_discarded,
             **{t: _wrap_play(t not in (ev.ClaimPassed, ev.Chowed), t in OBSERVE_AFTER)
                for t in (ev.ClaimDeclared, ev.ClaimPassed, ev.Chowed, ev.Ponged, ev.KongExposed, ev.KongAdded,
                          ev.KongConcealed, ev.HandWon, ev.HandDrawn)},
             **{t: _wrap_observed for t in (ev.HandStarted, ev.TilesDealt, ev.TilesExchanged, ev.VoidDeclared,
                                            ev.HandSettled)}}
assert set(OBSERVERS) == OBSERVES and not OBSERVE_AFTER & {ev.HandStarted, ev.TilesDealt, ev.TilesExchanged,
                                                           ev.VoidDeclared, ev.HandSettled}


def _observe(ruleset: Ruleset, table, e: ev.Event, hb: HandBook, ctx) -> list:
    """Every watched event off the short path of :func:`observe`."""
    t = type(e)
    if t is ev.Ponged:  # a pong ends the turn's kongs (a kong's turn ends at its discard)
        hb.turn_kong = None
    out: list = []
    # the 108-tile set (§2) is the shared TILE_NOT_IN_SET (``Ruleset.tile_count``, audits.checks.table)
    if t is ev.HandStarted:
        if table.hand == 0 and ruleset.first_dealer == "creator" and e.dealer != table.creator:
            out.append((e.dealer, _v("DEALER_ROTATION", "the room's creator deals the first hand",
                                     table.creator, e.dealer)))
        return out
    if t is ev.TilesExchanged:
        out += _exchange(ruleset, table, e, hb)
        return out
    if t is ev.VoidDeclared:
        out += _declared(ruleset, table, e, hb)
        return out
    if table.phase == "won" and t is not ev.HandSettled:
        if not hb.end_wrong_reported:
            hb.end_wrong_reported = True
            out.append((getattr(e, "seat", None), _v("HAND_END_WRONG", "play goes on after the hand ended "
                                                     f"({len(table.out)} winner(s))", "HandSettled", t.__name__)))
        return out
    seat = getattr(e, "seat", None)
    if t is ev.ClaimDeclared:
        if seat in table.out:
            out.append((seat, _v("ACTION_AFTER_WIN", f"seat {seat} has won and left, yet claims", None, e.claim)))
        return out
    if t is ev.HandSettled:
        if table.phase not in ("won", "drawn") and not hb.end_wrong_reported:
            hb.end_wrong_reported = True
            out.append((None, _v("HAND_END_WRONG", f"the hand is settled with {len(table.out)} winner(s) and "
                                 f"{table.undrawn} tiles left", "three winners or an empty wall",
                                 f"{len(table.out)} winner(s)")))
        return out
    # the first action of the dealer closes the declarations (§4.1)
    if not hb.dealer_acted and t in (ev.TileDiscarded, ev.KongConcealed, ev.HandWon, ev.TileDrawn,
                                      ev.Ponged, ev.KongExposed, ev.KongAdded):
        hb.dealer_acted = True
        out += _declarations_complete(ruleset, table, hb)
    if t is ev.HandWon:
        for w in e.winners:
            if w.seat in table.out:
                out.append((w.seat, _v("ACTION_AFTER_WIN", f"seat {w.seat} has already won and left",
                                       None, "HandWon")))
        seats = [w.seat for w in e.winners]
        if e.how == "robbed_kong":
            return out + _missed_last_four_rob(ruleset, table, ctx, seats)
        return out + _missed_last_four(ruleset, table, hb, ctx, e, seats)
    if seat is not None and seat in table.out:
        out.append((seat, _v("ACTION_AFTER_WIN", f"seat {seat} has won and left, yet acts", None, t.__name__)))
    if t is ev.TileDiscarded:
        out += _last_four_self_draw(ruleset, table, hb, ctx, seat, e)
        tile = TILE_INDEX[e.tile] if not e.tile.endswith("z") else -1
        if hb.void_first and tile >= 0 and 0 <= seat < hb.n:
            out += _void_first(table, seat, e.tile)
    elif t in (ev.Ponged, ev.KongExposed, ev.KongAdded, ev.KongConcealed):
        if t in (ev.KongAdded, ev.KongConcealed):
            out += _last_four_self_draw(ruleset, table, hb, ctx, seat, e)
        else:
            out += _missed_last_four(ruleset, table, hb, ctx, e, [])
        out += _meld_checks(ruleset, table, e, seat)
    elif t is ev.TileDrawn:
        out += _missed_last_four(ruleset, table, hb, ctx, e, [])
        if hb.pending_added is not None:
            out += _missed_last_four_rob(ruleset, table, ctx, _NONE)
            _stands(hb, hb.pending_added, "kong_added", None)
    elif t is ev.HandDrawn:
        out += _missed_last_four(ruleset, table, hb, ctx, e, [])
        hb.moments.append(("end", classify(ruleset, table, ctx.wait_entry)))
    return out


def _stands(hb: HandBook, seat: int, kind: str, frm: Optional[int]) -> None:
    hb.moments.append(("kong", seat, kind, frm))
    hb.pending_added = None


def _after(ruleset: Ruleset, table, e: ev.Event, hb: HandBook, ctx) -> None:
    """Memories after the handler: the kongs of the turn as they stand, and the winning moments."""
    t = type(e)
    if t is ev.KongExposed:
        hb.turn_kong = (e.seat, "kong_exposed", e.from_seat)
        _stands(hb, e.seat, "kong_exposed", e.from_seat)
    elif t is ev.KongConcealed:
        hb.turn_kong = (e.seat, "kong_concealed", None)
        _stands(hb, e.seat, "kong_concealed", None)
    elif t is ev.KongAdded:
        hb.turn_kong = (e.seat, "kong_added", None)
        hb.pending_added = e.seat
    elif t is ev.HandWon:
        _win_moment(ruleset, table, e, hb, ctx)


def _win_moment(ruleset: Ruleset, table, e: ev.HandWon, hb: HandBook, ctx) -> None:
    logged = [(x.seat, x.points) for x in e.winners]
    true = list(ctx.true_winners)
    if e.how == "robbed_kong":
        hb.pending_added = None  # a robbed kong pays nothing (§10.3)
    kd = e.how == "discard" and bool(ctx.kong_discard)
    dgh = None
    if e.how == "self_draw" and hb.turn_kong is not None and hb.turn_kong[0] == e.winners[0].seat \
            and hb.turn_kong[1] == "kong_exposed":
        dgh = hb.turn_kong[2]
    hb.moments.append(("win", logged, true, e.how, e.from_seat, kd, dgh))
    if hb.first_win is None:
        hb.first_win = ([x.seat for x in e.winners], e.how, e.from_seat)
    hb.discard_window = None
    hb.turn_kong = None
    # the hand ends with its last allowed winner (the walker's table has applied the win)
    if table.phase == "won":
        hb.ended = True


def classify(ruleset: Ruleset, table, wait_entry=None) -> dict[int, tuple[str, Optional[int]]]:
    """§10.7 step 1: each still-in seat is a 花猪, ready (with its best hand D) or not ready.

    ``wait_entry`` (the audit's cached :func:`.fans.seat_waits` entry of a seat) spares the
    search of a seat whose entry is empty: that test is a superset of :func:`.fans.waits_on`
    for a 3k+1 hand, so such a seat is not ready.  D is None where nothing is paid by it:
    查大叫 (step 2) pays ready seats only from seats that are not ready."""
    visible = None
    if not ruleset.dead_wait_counts:
        visible = [0] * 34
        for s in range(len(table.players)):
            for k in range(27):
                visible[k] += table.hands[s][k]
            for m in table.melds[s]:
                for x in m.tiles:
                    visible[x] += 1
            for tile, claimer in table.discards[s]:
                if claimer < 0:
                    visible[tile] += 1
    out: dict[int, tuple[str, Optional[int]]] = {}
    ready = []
    for s in range(len(table.players)):
        if s in table.out:
            continue
        void = table.voids[s]
        counts, melds = table.hands[s], table.melds[s]
        if F.is_huazhu(ruleset, counts, melds, void):
            out[s] = ("huazhu", 0)
            continue
        if wait_entry is not None and table.held[s] % 3 == 1 and not wait_entry(s):
            out[s] = ("not_ready", 0)
            continue
        # what the seat sees counts its own tiles too
        waits = F.waits_on(ruleset, counts, melds, void, visible)
        if waits:
            ready.append((s, waits))
        else:
            out[s] = ("not_ready", 0)
    paid = ruleset.chadajiao and any(c[0] == "not_ready" for c in out.values())
    for s, waits in ready:
        best = F.best_hand(ruleset, table.hands[s], table.melds[s], table.voids[s], waits=waits) if paid else None
        out[s] = ("ready", best[0] if best is not None else None)
    return out


def _exchange(ruleset: Ruleset, table, e: ev.TilesExchanged, hb: HandBook) -> list:
    out = []
    if not ruleset.huan_san_zhang:
        return [(None, _v("EXCHANGE_INVALID", "换三张 is off in this room", "no exchange", "TilesExchanged"))]
    if hb.exchanged or any(hb.declared):
        out.append((None, _v("EXCHANGE_INVALID", "one exchange per hand, before the void declarations")))
    hb.exchanged = True
    for s, given in enumerate(e.given):
        suits = {x[-1] for x in given}
        if len(given) != 3 or len(suits) != 1:
            out.append((s, _v("EXCHANGE_INVALID", f"seat {s} gives {len(given)} tiles of {len(suits)} suit(s)",
                              "three tiles of one suit", list(given))))
        elif s < len(table.hands):
            need: dict[int, int] = {}
            for x in given:
                k = TILE_INDEX[x]
                need[k] = need.get(k, 0) + 1
            if any(table.hands[s][k] < c for k, c in need.items()):
                out.append((s, _v("EXCHANGE_INVALID", f"seat {s} gives tiles it does not hold", None, list(given))))
    return out


def _declared(ruleset: Ruleset, table, e: ev.VoidDeclared, hb: HandBook) -> list:
    s = e.seat
    if ruleset.dingque != "declared":
        return [(s, _v("VOID_NOT_DECLARED", "this room plays without 定缺 (dingque = none)", "none", e.suit))]
    if ruleset.huan_san_zhang and not hb.exchanged and not any(hb.declared):
        hb.exchanged = True
        out = [(None, _v("EXCHANGE_INVALID", "换三张 is on, yet the voids are declared with no exchange",
                         "TilesExchanged", "VoidDeclared"))]
    else:
        out = []
    if e.suit not in _SUITS:
        return out + [(s, _v("VOID_NOT_DECLARED", f"{e.suit!r} is not a suit", "m, p or s", e.suit))]
    if s < hb.n and hb.declared[s]:
        return out + [(s, _v("VOID_NOT_DECLARED", f"seat {s} declares a second void suit", "one declaration",
                             e.suit))]
    if hb.dealer_acted:
        out.append((s, _v("VOID_NOT_DECLARED", f"seat {s} declares after the dealer's first action",
                          "before the first action", e.suit)))
    if s < hb.n:
        hb.declared[s] = True
    return out


def _declarations_complete(ruleset: Ruleset, table, hb: HandBook) -> list:
    if ruleset.dingque != "declared" or hb.void_reported:
        return []
    hb.void_reported = True
    return [(s, _v("VOID_NOT_DECLARED", f"seat {s} declared no void suit before the dealer's first action",
                   "a declaration", None)) for s in range(hb.n) if not hb.declared[s]]


def _meld_checks(ruleset: Ruleset, table, e: ev.Event, seat: int) -> list:
    kind = e.tile if isinstance(e, ev.Ponged) else e.kind
    if kind.endswith("z") or not 0 <= seat < len(table.hands):
        return []
    return [(seat, v) for v in meld_violations(ruleset, table, seat, TILE_INDEX[kind], _MELD_OF[type(e)])]


#: The meld each meld event makes, as :func:`meld_violations` names it.
_MELD_OF = {ev.Ponged: "pong", ev.KongExposed: "kong_exposed", ev.KongAdded: "kong", ev.KongConcealed: "kong"}


def meld_violations(ruleset: Ruleset, table, seat: int, kind: int, meld: str) -> list[Violation]:
    """Why ``seat`` may not make ``meld`` (``pong``, ``kong_exposed`` or ``kong``: an added or
    concealed kong) of tile ``kind`` now; empty when it may.  The audit judges each meld
    with it and the simulator asks it before melding.

    §4.1: no meld of the declared void suit, and (``claims_while_void`` off) no pong or
    kong at all while a tile of the void suit is held; §6.5: with no tile left, the final
    discard is open to 胡 only (``last_discard_claims = win_only``) and a kong has no
    replacement to take."""
    out = []
    v = table.voids[seat]
    if ruleset.dingque == "declared" and v >= 0:
        if kind // 9 == v:
            out.append(_v("CLAIM_VOID_SUIT", f"seat {seat} melds {TILE_NAMES[kind]} of its void suit {_SUITS[v]}",
                          "no meld of the void suit", TILE_NAMES[kind]))
        elif not ruleset.claims_while_void and holds_void(table, seat):
            out.append(_v("CLAIM_VOID_SUIT", f"seat {seat} melds while holding its void suit",
                          "no pong or kong while void tiles are held", TILE_NAMES[kind]))
    if table.undrawn <= 0:
        if meld != "kong" and ruleset.last_discard_claims == "win_only":
            out.append(_v("CLAIM_ON_LAST_DISCARD", "only 胡 may claim the final discard", "win",
                          "Ponged" if meld == "pong" else "KongExposed"))
        elif meld != "pong":
            out.append(_v("KONG_WITHOUT_REPLACEMENT", "a kong needs a tile left to replace it", "R >= 1",
                          table.undrawn))
    return out


def _last_four_self_draw(ruleset: Ruleset, table, hb: HandBook, ctx, seat: int, e: ev.Event) -> list:
    """最后四张自动和 (§6.4): a seat whose drawn tile completes a legal hand wins at once."""
    ld = ctx.last_draw
    if ld is None or ld.seat != seat or not in_last_four(ruleset, table.undrawn) or seat in table.out:
        return []
    counts = table.hands[seat]
    if F.is_legal_shape(counts, table.melds[seat], table.voids[seat], ruleset):
        return [(seat, _v("LAST_FOUR_WIN_NOT_TAKEN", f"seat {seat} drew {ld.tile} to a legal win in "
                          "the last four tiles and did not take it", "HandWon", type(e).__name__))]
    return []


def _missed_last_four(ruleset: Ruleset, table, hb: HandBook, ctx, e: ev.Event, winners: list[int]) -> list:
    """最后四张自动和 (§6.4): every still-in seat with a legal win on the last discard takes it."""
    w = hb.discard_window
    hb.discard_window = None
    if w is None:
        return []
    frm, tile, kd = w
    if not in_last_four(ruleset, table.undrawn):
        return []
    if isinstance(e, ev.HandWon) and e.how != "discard":
        return []
    out = []
    for s in range(hb.n):
        if s == frm or s in table.out or s in winners:
            continue
        if ctx.legal_win_on(s, tile, kd) and ctx.barred(s, "win", tile) is None:
            out.append((s, _v("LAST_FOUR_WIN_NOT_TAKEN", f"seat {s} could win on seat {frm}'s {TILE_NAMES[tile]} "
                              "in the last four tiles and did not", "a winner", winners)))
    return out


def _missed_last_four_rob(ruleset: Ruleset, table, ctx, winners: list[int]) -> list:
    """最后四张自动和 (§6.4): every still-in seat that can legally rob an added kong in the last
    four tiles robs it (``winners``: the seats that did)."""
    chance = ctx.rob_chance
    if chance is None or not in_last_four(ruleset, table.undrawn):
        return []
    adder, tile, robbers = chance
    return [(s, _v("LAST_FOUR_WIN_NOT_TAKEN", f"seat {s} could rob seat {adder}'s added kong of {TILE_NAMES[tile]} "
                   "in the last four tiles and did not", "a winner", winners))
            for s in robbers if s != adder and s not in winners and ctx.legal_rob(s, tile)]


# --- settlement through the shared interface ------------------------------------------------

def settle(ruleset: Ruleset, scores, winners, how, from_seat, facts, clamp=False):
    """``RuleFamily.settlement.settle``: the hand's moments replayed into a :class:`Book`; ``facts.extra``
    is (the hand book, corrected): the logged win points, or the audit's own."""
    hb, corrected = facts.extra if facts.extra is not None else (None, False)
    if hb is None:  # one winning moment alone (``paipu hand``)
        book = Book(ruleset, len(scores))
        if winners:
            book.win(list(winners), how, from_seat)
        return Settlement(book.transfers, _after_transfers(scores, book.transfers), False)
    n = len(scores)
    if corrected:  # the derivation (``--explain``) is written from these moments when asked
        hb.lines_of = (ruleset, n, len(hb.moments))
    # the audit settles a hand more than once (logged and corrected, and for the ledger):
    # the transfers depend only on the winners paid at each moment so far, so each replay
    # is kept in the book; the corrected one is the logged one while every logged win is true
    key = None
    if ruleset is hb.rules:
        own = corrected and any(m[0] == "win" and m[1] != m[2] for m in hb.moments)
        key = (own, len(hb.moments), n)
    known = hb.settled.get(key) if key is not None else None
    if known is None:
        known = replay(ruleset, n, hb.moments, corrected, explain=False).transfers
        if key is not None:
            hb.settled[key] = known
    return Settlement(list(known), _after_transfers(scores, known), False)


def replay(ruleset: Ruleset, n: int, moments, corrected: bool, explain: bool = True) -> Book:
    """A hand's money moments replayed into a :class:`Book` (the logged win points, or the
    audit's own when ``corrected``)."""
    book = Book(ruleset, n, explain=explain)
    for m in moments:
        if m[0] == "kong":
            book.kong(m[1], m[2], m[3])
        elif m[0] == "win":
            _, logged, true, h, frm, kd, dgh = m
            ws = true if corrected else logged
            if ws:
                book.win(ws, h, frm, kd, dgh)
            # the winners leave even when their win is not paid (the log's hand flow)
            book.out += [s for s, _ in logged if s not in book.out]
            if book.first is None:
                book.first = ([s for s, _ in logged], h, frm)
        else:
            book.exhausted(m[1])
    return book


def _after_transfers(scores, transfers) -> list[int]:
    after = list(scores)
    for t in transfers:
        after[t.payer] -= t.amount
        after[t.payee] += t.amount
    return after


def win_extras(ruleset: Ruleset, table, seat: int, how: str, first_turn: bool) -> dict:
    """``RuleFamily.wins.win_extras``: the winner's void suit, 海底 (the wall is empty), 天胡 /
    地胡 (§9.4) and 点杠花 (§10.4) from the table's neutral facts."""
    tiandi = ""
    if ruleset.tiandihu and not any(table.melds):
        got = sum(table.received[seat])
        if how == "self_draw" and seat == table.dealer and first_turn and got == 14:
            tiandi = "tianhe"
        elif how == "self_draw" and seat != table.dealer and got == 14:
            tiandi = "dihe"
        elif how == "discard" and ruleset.dihe_scope == "first_draw_or_dealer_discard" and seat != table.dealer \
                and got == 13 and len(table.discards[table.dealer]) == 1 and table.last_discard is not None \
                and table.last_discard[0] == table.dealer:
            tiandi = "dihe"
    kongs = table.turn_kongs
    return {"void": table.voids[seat] if seat < len(table.voids) else -1,
            "sea_bottom": table.undrawn == 0, "tiandi": tiandi,
            # 点杠花 (§10.4): the kong just before the winning draw is an exposed kong on a discard
            "dianganghua": how == "self_draw" and bool(kongs) and kongs[-1][0] == "kong_exposed"}


def dealer_after(ruleset: Ruleset, dealer: int, first, n: int = 4) -> int:
    """``RuleFamily.table.dealer_after`` (§3)."""
    return next_dealer(ruleset, dealer, first, n)


def pass_violation(book, seat: int, claim: str, tile: int, judge, value=None, rules=None,
                   how: str = "discard") -> Optional[str]:
    """过水 (§7.1) and 过手碰 (§7.2, by option), until the seat's own next draw, pong or kong.

    A legal win passed on a discard or on an added kong (a rob let go) puts the seat under
    the bar with that win's capped fan V, a rob's with its 抢杠 fan.  ``higher_fan``: a win
    on a discard or by robbing (``how`` ``robbed_kong``, valued with its 抢杠 fan) is barred
    unless its V is greater than the largest V passed; ``any_discard``: barred after any
    legal pass; ``off``: never."""
    if claim in ("pong", "kong"):
        if rules is not None and rules.guoshou_peng and (tile in book.tiles["pong"][seat]
                                                         or tile in book.tiles["kong"][seat]):
            return "GUOSHOU_PENG"
        return None
    if claim != "win" or rules is None or rules.guoshui == "off":
        return None
    passed = [(t, kd) for t, kd in book.win_chances(seat) if judge(seat, t, kd)]
    robs = book.rob_tiles[seat]
    if not passed and not robs:
        return None
    if value is None:  # no values known: only ``any_discard`` can judge
        return "WIN_DURING_GUOSHUI" if rules.guoshui == "any_discard" else None
    values = [value(seat, t, kd) for t, kd in passed]
    values += [value(seat, t, None, "robbed_kong") for t in robs]
    values = [v for v in values if v is not None]
    if not values:
        return None
    now = value(seat, tile, None, how) if rules.guoshui == "higher_fan" else None
    return None if guoshui_allows(rules, values, now) else "WIN_DURING_GUOSHUI"


def guoshui_allows(rules: Ruleset, passed: list, value: Optional[int]) -> bool:
    """过水 (§7.1): may a seat that passed legal wins worth ``passed`` (capped fans, each with
    every fan of that win: a passed rob's 抢杠 included) since its own last action win on a
    discard or rob now, at ``value`` (the new win's capped fan, a rob's with its 抢杠 fan)?
    The simulator asks this too."""
    if rules.guoshui == "off" or not passed:
        return True
    if rules.guoshui == "any_discard":
        return False
    return value is not None and value > max(passed)
