"""The reducer's handlers for the room: the opening, its seats, fees, each hand's
settlement and the closing.  Each takes the replayer ``r`` (:class:`~replay.state.Replayer`) and the
event, and changes only its table."""

from __future__ import annotations

from typing import Any

import msgspec

from schema import events as ev
from schema.ruleset import RulesetError, resolve
from schema.tiles import NUM_KINDS

from .errors import ReplayError


def opened(r, e: ev.GameOpened) -> None:
    w = r.table
    if w.game is not None:  # a game opens once: a second opening cannot be applied
        r.fail("opened_twice", f"a second GameOpened in game {w.game!r} (the game opened at seq "
               f"{w.opened.seq if w.opened is not None else 0})", e)
    if e.schema_version > ev.SCHEMA_VERSION:
        r.fail("schema_version", f"schema version {e.schema_version} is newer than "
               f"this paipu reads ({ev.SCHEMA_VERSION})", e)
    try:
        rules = resolve(e.preset, msgspec.structs.asdict(e.options) and
                        {k: v for k, v in msgspec.structs.asdict(e.options).items() if v is not None})
    except RulesetError as x:
        raise ReplayError("bad_ruleset", str(x), game=e.game, hand=0, seq=e.seq, line=r.line) from None
    n = len(e.seats)
    if n != rules.players:
        rules = seated(r, rules, n, e)
    w.game = e.game
    w.opened = e
    w.ruleset = rules
    w.players = list(e.seats)
    w.scores = [e.start_points] * n
    w.creator = e.creator
    w.dealer = e.creator
    w.phase = "between_hands"
    reset_seats(r, n)
    w.fees = [0] * n
    w.last_bets = [None] * n


def reset_seats(r, n: int) -> None:
    w = r.table
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
    w.indicator = w.wild = None
    w.set_aside = [[] for _ in range(n)]
    w.flowers_held = [[] for _ in range(n)]
    w.opening_wins = []
    w.birds = []
    w.bird_origin = None
    w.revealed = []
    w.revealed_by = None
    w.sea_offers = []
    w.last_won = None
    w.turn_draw = None


def seated(r, rules: Any, n: int, e: ev.Event) -> Any:
    """``rules`` for a table of ``n`` seats; a ruleset that cannot be played by ``n`` (a
    four-seat-only family) is a structural break of the log, not a failure of paipu."""
    try:
        return msgspec.structs.replace(rules, players=n)
    except ValueError as x:
        raise ReplayError("bad_ruleset", f"{n} seats: {x}", game=e.game, hand=r.table.hand, seq=e.seq,
                          line=r.line) from None


def resized(r, e: ev.RoomResized) -> None:
    w = r.table
    if w.hand:
        r.fail("resize_in_play", "a room can change its seats only before the first hand", e)
    w.players = list(e.seats)
    n = len(e.seats)
    w.scores = w.scores[:n] + [w.opened.start_points] * (n - len(w.scores))
    w.ruleset = seated(r, w.ruleset, n, e)
    w.creator = min(w.creator, n - 1)
    w.dealer = w.creator
    reset_seats(r, n)
    w.fees = w.fees[:n]
    w.last_bets = w.last_bets[:n]


def fee(r, e: ev.FeeCharged) -> None:
    r.table.fees[r.seat_of(e.seat, e)] += e.amount


def refund(r, e: ev.FeeRefunded) -> None:
    r.table.fees[r.seat_of(e.seat, e)] -= e.amount


def closed(r, e: ev.GameClosed) -> None:
    w = r.table
    w.phase = "closed"
    if len(e.scores) == len(w.scores):
        w.scores = list(e.scores)


def settled(r, e: ev.HandSettled) -> None:
    w = r.table
    if len(e.scores) != len(w.scores):
        r.fail("bad_scores", f"{len(e.scores)} scores for {len(w.scores)} seats", e)
    for tr in e.transfers:
        r.seat_of(tr.payer, e)
        r.seat_of(tr.payee, e)
    # The server's scores are the table's scores; whether they follow from
    # the transfers is for the audit to judge.
    w.scores = list(e.scores)
    w.phase = "between_hands"
