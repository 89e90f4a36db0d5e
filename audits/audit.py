"""The audit: walk one game's events, judging each against its ruleset's family.

:func:`audit_game` sends every event to the check that owns its type (the
modules of :mod:`audits.checks`, grouped as the catalogue is); each check
judges the event against the family's rules, applies it through the reducer's
one checked path and keeps its memories in the shared
:class:`~audits.context.AuditContext`.  Nothing here knows a rule.

Nothing raises on bad game data: a structural break (an event the table cannot
take at all) is reported once, at the event, with the findings of the checked
prefix kept, and the game is marked incomplete.  A failure of paipu itself is
reported as ``INTERNAL_ERROR`` (exit 3), never as a property of the log.

Readings where the rules are silent (each stated at its check too):

* passes (过手碰 / 过手杠 / 过胡) are determined by the audit, not by ``ClaimPassed``:
  a seat that *could* make a claim on a discard (the family says which) and did
  not has passed it; a 抢杠 chance let go is a passed win too.
* ``CLAIM_PRIORITY`` and ``WIN_MISSED_MULTI`` need the higher claim to be
  *declared* (``ClaimDeclared``) and legal: possible, and not barred by a pass.
* The corrected ledger pays nothing for a win that is not legal; 点鸡 is still settled.
* ``DRAW_NOT_WALL_ORDER`` and ``TURN_ORDER`` are reported once per hand, ``FLOWER_NOT_SET_ASIDE``
  once per seat per hand (later repeats are counted in the first finding's message).
"""

from __future__ import annotations

from typing import Callable

from replay.errors import ReplayError
from schema import events as ev
from schema.reader import GameLog

from .checks import billing, claims, scoring, special, stream, table, wins
from .context import AuditContext
from .explain import render
from .ledger import GameAudit, expected_transfers, net_of
from .rules import UnknownFamily


def _game_closed(ctx: AuditContext, e: ev.GameClosed) -> None:
    claims.discard_settled(ctx)
    billing.game_closed(ctx, e)
    scoring.game_closed_scores(ctx, e)
    ctx.apply(e)


def _opened_again(ctx: AuditContext, e: ev.GameOpened) -> None:
    """A game opens once: a second ``GameOpened`` in sequence goes to the reducer, which
    breaks the game there (a structural break, never a second room)."""
    ctx.apply(e)


#: The check that owns each event type (the opening is applied first, then judged; a
#: second opening in sequence is a structural break).
HANDLERS: dict[type, Callable[[AuditContext, ev.Event], None]] = {
    ev.GameOpened: _opened_again,
    ev.RoomResized: table.resized,
    ev.FeeCharged: billing.fee_charged,
    ev.FeeRefunded: billing.fee_refunded,
    ev.GameClosed: _game_closed,
    ev.HandStarted: table.hand_started,
    ev.PigBetPlaced: scoring.bet_placed,
    ev.TilesDealt: table.dealt,
    ev.TailTurned: table.tail_turned,
    ev.TileDrawn: table.tile_drawn,
    ev.TileDiscarded: table.tile_discarded,
    ev.ClaimDeclared: claims.claim_declared,
    ev.ClaimPassed: claims.claim_passed,
    ev.Chowed: claims.chowed,
    ev.Ponged: claims.ponged,
    ev.KongExposed: claims.kong_exposed,
    ev.KongAdded: claims.kong_added,
    ev.KongConcealed: claims.kong_concealed,
    ev.HandWon: wins.hand_won,
    ev.HandDrawn: table.hand_drawn,
    ev.HandSettled: scoring.hand_settled,
    ev.TilesExchanged: table.exchanged,
    ev.VoidDeclared: table.void_declared,
    ev.IndicatorTurned: special.indicator_turned,
    ev.TileSetAside: special.tile_set_aside,
    ev.OpeningWinDeclared: special.opening_win_declared,
    ev.KongRevealed: special.kong_revealed,
    ev.LastTileOffered: special.last_tile_offered,
    ev.BirdsDrawn: special.birds_drawn,
}
assert set(HANDLERS) == set(ev.EVENT_TYPES), "every event type needs a check"

_WATCHED: dict = {}


def handlers_for(family) -> dict:
    """The handlers for a family's games: HANDLERS, with each event type the family
    ``observes`` wrapped so its own checks run before and after (others are untouched).

    A family may wrap an event type itself (``data["observers"]``: event type -> a function
    of the walker's handler and :func:`report` returning the wrapped handler), where it
    judges that type on a shorter path than ``observe`` (Sichuan's draws and discards)."""
    if family is None or not family.own.observes or family.own.observe is None:
        return HANDLERS
    got = _WATCHED.get(family.name)
    if got is None:
        got = dict(HANDLERS)
        after = family.data.get("observe_after", family.own.observes)
        own = family.data.get("observers", {})
        for t in family.own.observes:
            wrap = own.get(t)
            got[t] = wrap(HANDLERS[t], report) if wrap is not None else _watching(family, HANDLERS[t], t in after)
        _WATCHED[family.name] = got
    return got


def until_a_hand_starts(full: dict, family) -> dict:
    """The handlers of one game until its first ``HandStarted``, for a family that keeps a
    memory of the hand (``hand_book``): it observes a hand's events once a hand has
    started; before, the walker's own check takes each (a hand event outside a hand is
    the reducer's structural break).  At the first ``HandStarted`` the dict becomes
    ``full`` in place, so the walker's hot path pays nothing for the wait."""
    if family is None or family.own.hand_book is None or not family.own.observes:
        return full
    waiting = dict(full)
    for t in family.own.observes:
        if t is not ev.HandStarted:
            waiting[t] = HANDLERS[t]
    start = full[ev.HandStarted]

    def hand_started(ctx: AuditContext, e: ev.HandStarted) -> None:
        start(ctx, e)
        waiting.update(full)
    waiting[ev.HandStarted] = hand_started
    return waiting


def _own_handlers(ctx: AuditContext, handlers: dict) -> None:
    """Give the context this game's handler table where it is the game's own (a hand book
    family's, :func:`until_a_hand_starts`), so the family may switch its observers
    (``AuditContext.observing``); a shared table is never changed."""
    if ctx.family is not None and handlers is not HANDLERS and handlers is not _WATCHED.get(ctx.family.name):
        ctx.handlers = handlers
        ctx.observed_handlers = handlers_for(ctx.family)
        ctx.plain_handlers = HANDLERS


def report(ctx: AuditContext, e: ev.Event, found) -> None:
    """Report the family's [(seat, Violation)] for the event."""
    for seat, v in found:
        ctx.find(v.code, e, seat=seat, expected=v.expected, actual=v.actual, message=v.message)


def _watching(family, handler: Callable, after: bool) -> Callable:
    observe = family.own.observe

    def watched(ctx: AuditContext, e: ev.Event) -> None:
        for seat, v in observe(ctx.rules, ctx.table, e, ctx.hand_book, ctx, False):
            ctx.find(v.code, e, seat=seat, expected=v.expected, actual=v.actual, message=v.message)
        handler(ctx, e)
        if after:
            observe(ctx.rules, ctx.table, e, ctx.hand_book, ctx, True)

    def watched_before(ctx: AuditContext, e: ev.Event) -> None:
        for seat, v in observe(ctx.rules, ctx.table, e, ctx.hand_book, ctx, False):
            ctx.find(v.code, e, seat=seat, expected=v.expected, actual=v.actual, message=v.message)
        handler(ctx, e)
    return watched if after else watched_before


def walk(ctx: AuditContext) -> GameAudit:
    """Walk the game's events through their checks; stop at a structural break."""
    log = ctx.log
    lines = log.lines
    if len(lines) < len(log.events):
        lines = list(lines) + [None] * (len(log.events) - len(lines))
    replayer = ctx.replayer
    w = replayer.table
    handlers = HANDLERS
    for e, line in zip(log.events, lines):
        ctx.line = replayer.line = line
        try:
            # the game's next event (Replayer.is_next, inlined on this hot path) goes to its checks
            if e.seq == w.seq + 1 and e.game == w.game and w.game is not None:
                handlers[type(e)](ctx, e)
            else:
                # the opening, or an event out of sequence (the reducer raises the break)
                replayer.apply(e)
                if type(e) is ev.GameOpened:
                    table.opened(ctx, e)
                    # the family's own checks wrap the event types it observes
                    handlers = until_a_hand_starts(handlers_for(ctx.family), ctx.family) \
                        if ctx.family is not None else HANDLERS
                    _own_handlers(ctx, handlers)
        except ReplayError as x:
            stream.broken(ctx, x, e)
            ctx.audit.complete = False
            break
        except UnknownFamily as x:
            ctx.find("STRUCTURAL_BREAK", e, actual="bad_ruleset", message=str(x))
            ctx.audit.complete = False
            break
        ctx.seq = e.seq
    else:
        stream.end_of_log(ctx)
    ctx.flush_repeats()
    ctx.audit.hands = ctx.table.hand
    return ctx.audit


def _internal_error(ctx: AuditContext, x: BaseException) -> GameAudit:
    ctx.audit.complete = False
    ctx.find("INTERNAL_ERROR", None, actual=type(x).__name__,
             message=f"paipu failed on this game (a bug in paipu, not in the log): {type(x).__name__}: {x}")
    ctx.audit.hands = ctx.table.hand
    return ctx.audit


def audit_game(log: GameLog) -> GameAudit:
    """Audit one game.  Never raises: every deviation of the log is a finding, and a
    failure of paipu itself is an ``INTERNAL_ERROR`` finding (the other games go on)."""
    ctx = AuditContext(log)
    try:
        return walk(ctx)
    except Exception as x:  # a bug in paipu: reported as one, never as a mismatch in the log
        return _internal_error(ctx, x)


def explain_records(log: GameLog) -> tuple[GameAudit, list[dict]]:
    """Audit one game and return its step-by-step derivation as data (``audits.explain``)."""
    ctx = AuditContext(log, explain=True)
    try:
        audit = walk(ctx)
    except Exception as x:  # a bug in paipu
        audit = _internal_error(ctx, x)
    return audit, list(ctx.explained or [])


def explain_game(log: GameLog) -> list[str]:
    """One game's hands with each settlement derived step by step (fans, cap, payer by
    payer, 养猪 and 点鸡), followed by the game's findings, as text lines."""
    audit, records = explain_records(log)
    return render(records, audit.findings)


__all__ = ["GameAudit", "HANDLERS", "audit_game", "expected_transfers", "explain_game",
           "explain_records", "net_of", "walk"]
