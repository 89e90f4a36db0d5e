"""One game's rows for every table but the findings' (games, hands, hand_players, wins,
transfers, the events table's columns), its content hash and body hash.

:func:`fast_game_rows` is what an ingest runs per game (in the ingest itself or in its
workers, :func:`paipu.store.ingest.built_game`); :func:`game_rows` is the event-by-event
reference the tests hold it to.  Both the ingest (:mod:`paipu.store.ingest`) and the batch
(:mod:`paipu.store.derive`) import from here, and this module imports neither of them.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, Callable, Optional, Sequence

import msgspec

from schema import events as ev
from schema.reader import GameLog
from schema.ruleset import Ruleset, RulesetError, resolve
from schema.tiles import NUM_KINDS, TILE_INDEX

from .tables import GameRows, _ROW

_enc = msgspec.json.Encoder()


# ---------------------------------------------------------------------------
# per game, in Python: the lines and the content hash


def game_lines(log: GameLog) -> tuple[str, bytes]:
    """The game's content hash and its events as JSON lines (the schema's own encoding, one a line).

    The hash covers the events and the game's first unreadable line, so the same
    content always gives the same hash, whatever the key order or spacing of the log
    it came from.
    """
    lines = _enc.encode_lines(log.events)
    h = hashlib.blake2b(lines, digest_size=16)
    if log.problem is not None:
        h.update(b"\0problem\0" + log.problem.message.encode())
    return h.hexdigest(), lines




#: Per event type, the positions of the fields the body hash covers: all but game, seq, at
#: and the optional tamper-evidence fields, so sealing a log does not change its body.
_SEAL_FIELDS = frozenset({"prev", "wall_commit", "reveal_salt", "reveal_wall", "sig", "seal"})
_BODY = {t: frozenset(i for i, f in enumerate(t.__struct_fields__) if i >= 3 and f not in _SEAL_FIELDS)
         for t in ev.EVENT_TYPES}


def _body_cut(t: type) -> Optional[slice]:
    """The fields of ``_BODY[t]`` as one slice of the event's tuple, if they are consecutive and
    none may be unset (an unset optional field, such as a kong's ``mode``, is left out of the
    hash, so a log written before the field existed hashes as it did)."""
    pos = sorted(_BODY[t])
    fields = msgspec.structs.fields(t)
    if any(fields[i].default is msgspec.UNSET for i in pos):
        return None
    return slice(pos[0], pos[-1] + 1) if pos and pos == list(range(pos[0], pos[-1] + 1)) else None


#: Per event type, its name and the slice of its fields the body hash covers (a tuple slice
#: encodes as the same JSON array as the list of those fields, at a fraction of the cost).
_BODY_PARTS = {t: (t.__name__, _body_cut(t)) for t in ev.EVENT_TYPES}


def body_hash(events: Sequence[ev.Event]) -> str:
    """Hash of a game's events without game id, seq, times and seal fields (``games.body_hash``:
    the same game under another id, or replayed at another time, hashes the same)."""
    astuple = msgspec.structs.astuple
    parts = _BODY_PARTS
    body = _enc.encode_lines([
        (name, astuple(e)[cut] if cut is not None else
         [v for i, v in enumerate(astuple(e)) if i in _BODY[type(e)] and v is not msgspec.UNSET])
        for e in events for name, cut in (parts[type(e)],)])
    return hashlib.blake2b(body, digest_size=16).hexdigest()


# ---------------------------------------------------------------------------
# the rulesets of the batch's rooms (a handful of distinct configurations)


def room_rules(preset: Optional[str], overrides: dict[str, Any], players: int) -> Optional[Ruleset]:
    """The resolved ruleset of a room at ``players`` seats: None when the preset or options are invalid."""
    if preset is None:
        return None
    try:
        rules = resolve(preset, overrides)
        if rules.players != players:
            rules = msgspec.structs.replace(rules, players=players)
        return rules
    except (RulesetError, ValueError):
        return None


def family_or_none(rules: Optional[Ruleset]) -> Any:
    """The game's rule family (None when its ruleset is invalid or of no known family)."""
    if rules is None:
        return None
    from audits.rules import UnknownFamily, family_of
    try:
        return family_of(rules)
    except UnknownFamily:
        return None



# ---------------------------------------------------------------------------
# one game -> rows


def _ruleset_of(opened: ev.GameOpened, players: int) -> Optional[Ruleset]:
    """The room's resolved ruleset at ``players`` seats (None when invalid)."""
    return room_rules(opened.preset, {k: v for k, v in msgspec.structs.asdict(opened.options).items()
                                      if v is not None}, players)


class _HandAcc:
    """Accumulates one hand's derived rows."""

    __slots__ = ("hand", "dealer", "n", "started_seq", "started_at", "ended_seq", "settled_seq", "result",
                 "how", "from_seat", "winners", "fans", "fan", "points", "draws", "dealt", "reported",
                 "kongs", "first_draw", "first_draw_seq", "got", "bets", "sdraws", "sdiscards", "chows",
                 "pongs", "kexp", "kadd", "kcon", "score_before", "score_after", "received", "paid",
                 "dianji", "self_draw", "dealt_in", "robbed", "offered_at_win")

    def __init__(self, e: ev.HandStarted, n: int, scores: list[int]):
        self.hand = e.hand
        self.dealer = e.dealer
        self.n = n
        self.started_seq = e.seq
        self.started_at = e.at
        self.ended_seq = self.settled_seq = None
        self.result = self.how = self.from_seat = None
        self.winners: list[int] = []
        #: per winner: the discards the other seats had made when it won (血战到底: a winner
        #: leaves the hand, and the discards after are no claim opportunities of its own)
        self.offered_at_win: dict[int, int] = {}
        self.fans: list[str] = []
        self.fan = self.points = None
        self.draws = self.dealt = self.kongs = 0
        self.reported = None
        self.first_draw = self.first_draw_seq = None
        z = [0] * n
        self.bets, self.sdraws, self.sdiscards = z[:], z[:], z[:]
        #: per seat: the tiles of each kind it received from the wall (deal and draws), the
        #: neutral fact the family's 点鸡 tally is read from
        self.got = [[0] * NUM_KINDS for _ in range(n)]
        self.chows, self.pongs, self.kexp, self.kadd, self.kcon = z[:], z[:], z[:], z[:], z[:]
        self.received, self.paid, self.dianji = z[:], z[:], z[:]
        self.score_before = list(scores)
        self.score_after: Optional[list[int]] = None
        self.self_draw = [False] * n
        self.dealt_in = [False] * n
        self.robbed = [False] * n



def _seat_ok(seat: Any, n: int) -> bool:
    return isinstance(seat, int) and 0 <= seat < n



def add_audit(log: GameLog, rows: GameRows, audit: Callable[[GameLog], Any]) -> None:
    """Run ``audit`` on the game and add its findings to ``rows`` (and the game row's flags).

    An exception from the audit is recorded in the game's ``problem`` column; it
    never stops the ingest.
    """
    try:
        result = audit(log)
    except Exception as x:  # someone else's code: record, never stop the ingest
        _record_audit(log, rows, None, f"{type(x).__name__}: {x}")
    else:
        _record_audit(log, rows, result, None)


def _record_audit(log: GameLog, rows: GameRows, result: Any, failure: Optional[str]) -> None:
    g = rows.rows["games"][0]
    if failure is not None:
        g.problem = (g.problem + "; " if g.problem else "") + f"audit failed: {failure}"
        g.complete = False
        return
    players = rows.players
    g.audited = True
    g.audit_complete = bool(getattr(result, "complete", True))
    g.complete = bool(g.complete and g.audit_complete)
    out = rows.rows["findings"]
    R = _ROW["findings"]
    for f in getattr(result, "findings", ()):
        seat = f.seat
        out.append(R(f.game or log.game, f.hand, f.seq, seat,
                     players[seat] if _seat_ok(seat, len(players)) else None, f.code, f.severity, f.rule,
                     f.expected, f.actual, f.message, f.file if f.file is not None else log.file, f.line))
    g.findings = len(out)
    _record_ledger(log, rows, result)


def _record_ledger(log: GameLog, rows: GameRows, result: Any) -> None:
    """The audit's corrected ledger and who owes whom (``audits.corrections``) as rows."""
    from audits.corrections import gaps, hand_deltas, hand_numbers, net_corrections, who_owes_whom

    logged, ledger, numbers = result.logged_scores, result.ledger, hand_numbers(result)
    players = rows.players
    name = lambda s: players[s] if _seat_ok(s, len(players)) else None  # noqa: E731
    L = _ROW["ledger"]
    for hand, log_row, cor_row, gap, err in zip(numbers, logged, ledger, gaps(logged, ledger),
                                                hand_deltas(logged, ledger)):
        for s, (a, b, g, d) in enumerate(zip(log_row, cor_row, gap, err)):
            rows.rows["ledger"].append(L(log.game, hand, s, name(s), a, b, g, d))
    C = _ROW["corrections"]
    for i, p in enumerate(who_owes_whom(net_corrections(logged, ledger))):
        rows.rows["corrections"].append(C(log.game, i, p.debtor, name(p.debtor), p.creditor, name(p.creditor),
                                          p.amount))


class _Room:
    """What :func:`game_rows` knows of the game's room as it reads on: players by seat, the
    resolved ruleset and its family, the tile set's size and the scores carried forward."""

    def __init__(self, log: GameLog, opened: Optional[ev.GameOpened]):
        self.log = log
        self.opened = opened
        self.players: list[str] = list(opened.seats) if opened else []
        self.n = len(self.players)
        self.rules = _ruleset_of(opened, self.n) if opened else None
        self.family = family_or_none(self.rules)
        self.set_size = self.rules.tile_count if self.rules is not None else 136
        self.scores = [opened.start_points] * self.n if opened else []

    def player(self, seat: Any) -> Optional[str]:
        return self.players[seat] if _seat_ok(seat, len(self.players)) else None

    def resized(self, e: ev.RoomResized) -> None:
        self.players = list(e.seats)
        n = self.n = len(self.players)
        self.scores = (self.scores + [self.opened.start_points if self.opened else 0] * n)[:n]
        if self.opened:
            # a room resized to a size its ruleset cannot seat has no rules (and no family) left
            self.rules = _ruleset_of(self.opened, n)
            self.family = family_or_none(self.rules)


def _finish_hand(out: GameRows, room: _Room, h: _HandAcc) -> None:
    """The ``hands`` row and the ``hand_players`` rows of one hand."""
    game, nn = room.log.game, h.n
    # 点鸡: the chickens each seat answers for, as the family tallies them
    facts = room.family.settlement.hand_facts(room.rules, h.got, h.bets) if room.family is not None else None
    chickens = facts.tallies if facts is not None and facts.tallies is not None else [None] * nn
    dianji_due = _dianji_due(room, facts, nn)
    out.rows["hands"].append(_ROW["hands"](
        game, h.hand, h.dealer, nn, h.started_seq, h.ended_seq, h.settled_seq, h.started_at, h.result,
        h.how, h.from_seat, h.winners, h.fans, h.fan, h.points, h.draws, room.set_size - h.dealt - h.draws,
        h.reported, h.kongs, h.first_draw, h.first_draw_seq, h.settled_seq is not None))
    for s in range(nn):
        before = h.score_before[s] if s < len(h.score_before) else None
        after = h.score_after[s] if h.score_after is not None and s < len(h.score_after) else None
        claims = h.chows[s] + h.pongs[s] + h.kexp[s]
        out.rows["hand_players"].append(_ROW["hand_players"](
            game, h.hand, s, room.player(s), nn, s == h.dealer, before, after,
            after - before if after is not None and before is not None else None,
            h.received[s], h.paid[s], h.dianji[s], chickens[s], h.bets[s], h.sdraws[s], h.sdiscards[s],
            h.offered_at_win.get(s, sum(h.sdiscards) - h.sdiscards[s]), h.chows[s], h.pongs[s], h.kexp[s], h.kadd[s], h.kcon[s],
            claims, s in h.winners, h.self_draw[s], h.dealt_in[s], h.robbed[s], h.settled_seq, dianji_due[s]))


def _play(cur: _HandAcc, t: type, e: Any, ok: bool) -> None:
    """A draw, discard, deal, claim, kong or bet of the hand under way, counted (``ok``: the
    event's seat is one of the hand's own, which a resize mid-hand does not change)."""
    seat = getattr(e, "seat", None)
    if t is ev.TileDrawn:
        cur.draws += 1
        if ok:
            cur.sdraws[seat] += 1
            k = TILE_INDEX[e.tile]
            if k < NUM_KINDS:  # a flower is outside a hand's 34 counts (set aside, never played)
                cur.got[seat][k] += 1
        if cur.first_draw is None and e.source == "wall":
            cur.first_draw, cur.first_draw_seq = e.tile, e.seq
    elif t is ev.TileDiscarded:
        if ok:
            cur.sdiscards[seat] += 1
    elif t is ev.TilesDealt:
        for s, tiles in enumerate(e.hands):
            cur.dealt += len(tiles)
            if s < cur.n:
                got = cur.got[s]
                for x in tiles:
                    k = TILE_INDEX[x]
                    if k < NUM_KINDS:  # flowers dealt are outside the 34 counts
                        got[k] += 1
    elif t is ev.Ponged:
        if ok:
            cur.pongs[seat] += 1
    elif t is ev.Chowed:
        if ok:
            cur.chows[seat] += 1
    elif t is ev.KongExposed:
        cur.kongs += 1
        if ok:
            cur.kexp[seat] += 1
    elif t is ev.KongAdded:
        cur.kongs += 1
        if ok:
            cur.kadd[seat] += 1
    elif t is ev.KongConcealed:
        cur.kongs += 1
        if ok:
            cur.kcon[seat] += 1
    elif t is ev.PigBetPlaced:
        if ok:
            cur.bets[seat] = e.bet


def _won(out: GameRows, room: _Room, cur: _HandAcc, e: ev.HandWon) -> None:
    """A win of the hand under way: its ``wins`` rows and the hand's result.

    A hand won several times (血战到底, or a family that logs each winner of one discard
    apart) keeps every win in its row: the winners and fans of all of them, the highest fan,
    the points summed; ``win_kind`` and ``from_seat`` stay the first win's."""
    hn = cur.n
    again = cur.result == "won" or bool(cur.winners)
    if not again:
        cur.how, cur.from_seat = e.how, e.from_seat
    cur.result, cur.ended_seq = "won", e.seq
    winners = cur.winners if again else []
    fans: list[str] = cur.fans if again else []
    discards = sum(cur.sdiscards)
    due_of = _win_due(room, cur, e)
    for w in e.winners:
        if w.seat not in winners:
            winners.append(w.seat)
            if _seat_ok(w.seat, hn):
                cur.offered_at_win[w.seat] = discards - cur.sdiscards[w.seat]
        fans.extend(f for f in w.fans if f not in fans)
        out.rows["wins"].append(_ROW["wins"](
            room.log.game, cur.hand, e.seq, w.seat, room.player(w.seat), e.how, e.from_seat,
            room.player(e.from_seat), e.tile, list(w.fans), w.fan, w.points, due_of(w) if due_of else None))
        if e.how == "self_draw" and _seat_ok(w.seat, hn):
            cur.self_draw[w.seat] = True
    cur.winners, cur.fans = winners, fans
    fans_so_far = [w.fan for w in e.winners] + ([cur.fan] if again and cur.fan is not None else [])
    cur.fan = max(fans_so_far, default=None)
    cur.points = sum(w.points for w in e.winners) + ((cur.points or 0) if again else 0)
    if _seat_ok(e.from_seat, hn):
        if e.how == "discard":
            cur.dealt_in[e.from_seat] = True
        elif e.how == "robbed_kong":
            cur.robbed[e.from_seat] = True


def _win_due(room: _Room, cur: _HandAcc, e: ev.HandWon) -> Optional[Callable[[Any], Optional[list[int]]]]:
    """养猪: a function of one winner of ``e`` giving, per seat, what the room's family settles that
    seat to pay the winner for its logged points (the win, 抢杠 and 养猪 shares), for the store's
    ``yangzhu_payout`` check to compare with what was paid (None for a seat off the table); None
    where the room does not play 养猪."""
    rules, n = room.rules, cur.n
    if room.family is None or rules is None or not rules.yangzhu \
            or (e.from_seat is not None and not _seat_ok(e.from_seat, n)):
        return None
    from audits.ledger import expected_transfers

    facts = room.family.settlement.hand_facts(rules, cur.got, cur.bets)

    def due(w: Any) -> Optional[list[int]]:
        if not _seat_ok(w.seat, n):
            return None
        owed = [0] * n
        for t in expected_transfers(rules, n, e.how, [(w.seat, w.points)], e.from_seat, facts):
            if t.payee == w.seat and t.reason in _WIN_SHARES and _seat_ok(t.payer, n):
                owed[t.payer] += t.amount
        return owed
    return due


#: The reasons of a winner's shares under 养猪 (what ``yangzhu_payout`` sums per payer and winner).
_WIN_SHARES = ("win", "qianggang", "yangzhu")


def _dianji_due(room: _Room, facts: Any, n: int) -> list[Optional[int]]:
    """点鸡: each seat's net as the room's family settles the table's chickens (None per seat where
    the room does not play 点鸡)."""
    rules = room.rules
    if facts is None or facts.tallies is None or rules is None or not rules.dianji:
        return [None] * n
    from audits.ledger import expected_transfers, net_of

    return net_of([t for t in expected_transfers(rules, n, None, [], None, facts) if t.reason == "dianji"], n)


def _settled(out: GameRows, room: _Room, cur: _HandAcc, e: ev.HandSettled) -> None:
    """The settlement of the hand under way: its ``transfers`` rows, each seat's money and the
    scores after (carried forward when they are one per seat of the room)."""
    hn = cur.n
    cur.settled_seq = e.seq
    for i, tr in enumerate(e.transfers):
        out.rows["transfers"].append(_ROW["transfers"](
            room.log.game, cur.hand, e.seq, i, tr.payer, tr.payee, room.player(tr.payer), room.player(tr.payee),
            tr.amount, tr.reason))
        if _seat_ok(tr.payer, hn) and _seat_ok(tr.payee, hn):
            cur.paid[tr.payer] += tr.amount
            cur.received[tr.payee] += tr.amount
            if tr.reason == "dianji":
                cur.dianji[tr.payer] -= tr.amount
                cur.dianji[tr.payee] += tr.amount
    if len(e.scores) == hn:
        cur.score_after = list(e.scores)
    if len(e.scores) == room.n:
        room.scores = list(e.scores)


def _hand_event(out: GameRows, room: _Room, cur: _HandAcc, t: type, e: ev.Event, seat: Any) -> bool:
    """One event of the hand under way into its rows and counters; True when it settled the
    hand (its rows are then finished).  The hand's own seat count judges ``seat``: a
    RoomResized in the middle of a hand changes the room's seats, never the per-seat counters
    of the hand under way."""
    if t is ev.HandWon:
        _won(out, room, cur, e)
    elif t is ev.HandDrawn:
        cur.result, cur.ended_seq, cur.reported = "drawn", e.seq, e.remaining
    elif t is ev.HandSettled:
        _settled(out, room, cur, e)
        return True
    else:
        _play(cur, t, e, _seat_ok(seat, cur.n))
    return False


def _game_row(log: GameLog, room: _Room, closed_ev: Optional[ev.GameClosed], hands: int, content_hash: str,
              body: str, now: Optional[datetime]) -> Any:
    """The game's ``games`` row (its audit columns filled later, :func:`add_audit`)."""
    opened, rules, players = room.opened, room.rules, room.players
    problem = str(log.problem) if log.problem is not None else None
    complete = bool(log.closed and log.problem is None)
    return _ROW["games"](
        log.game, log.file,
        opened.server if opened else None, opened.build if opened else None, opened.preset if opened else None,
        msgspec.structs.asdict(rules) if rules else None,
        {k: v for k, v in msgspec.structs.asdict(opened.options).items() if v is not None} if opened else None,
        players, room.n, opened.creator if opened else None, opened.start_points if opened else None,
        opened.billing if opened else None, opened.fee if opened else None, opened.at if opened else None,
        closed_ev.at if closed_ev else None, closed_ev.reason if closed_ev else None,
        list(closed_ev.scores) if closed_ev else None, hands, len(log.events), log.closed, problem,
        False, None, complete, 0, content_hash, body, now)


def game_rows(log: GameLog, audit: Optional[Callable[[GameLog], Any]] = None,
              now: Optional[datetime] = None) -> tuple[str, GameRows]:
    """The content hash of one game and its rows for every table.

    Never raises on odd content: a log that breaks the rules still loads (that is
    what the findings are for).  With ``audit``, its findings are added too
    (see :func:`add_audit`).  The steps: the room (:class:`_Room`), each hand's play
    (:func:`_play`), wins (:func:`_won`) and settlement (:func:`_settled`), each hand's
    rows (:func:`_finish_hand`) and the game's row (:func:`_game_row`).
    """
    out = GameRows()
    events = log.events
    room = _Room(log, events[0] if events and type(events[0]) is ev.GameOpened else None)
    hand_no = 0
    cur: Optional[_HandAcc] = None
    hands = 0
    closed_ev: Optional[ev.GameClosed] = None
    pairs: list[tuple[int, ev.Event]] = []
    for e in events:
        t = type(e)
        if t is ev.HandStarted:
            if cur is not None:
                _finish_hand(out, room, cur)
            hands += 1
            hand_no = e.hand
            cur = _HandAcc(e, room.n, room.scores)
        elif cur is not None and t in _HAND_EVENTS:
            if _hand_event(out, room, cur, t, e, getattr(e, "seat", None)):
                _finish_hand(out, room, cur)
                cur = None
        elif t is ev.RoomResized:
            room.resized(e)
        elif t is ev.GameClosed:
            if cur is not None:
                _finish_hand(out, room, cur)
                cur = None
            closed_ev = e
        pairs.append((hand_no, e))
    if cur is not None:
        _finish_hand(out, room, cur)

    # the events table's columns (the same as the batch path's, paipu.store.columns)
    from .columns import EventColumns

    cols = EventColumns(keep_raw=False)
    cols.add(log.game, events, log.lines, list(map(type, events)), [getattr(e, "seat", None) for e in events],
             [h for h, _e in pairs], None)
    out.event_batch = cols.take()
    # the same content hash as the batch path's (derive.game_lines): one store, one definition
    content_hash = game_lines(log)[0]
    # the same events with game id and times set aside (duplicates under another id)
    body = body_hash(events)
    out.events = len(events)
    out.players = room.players
    out.rows["games"].append(_game_row(log, room, closed_ev, hands, content_hash, body, now))
    if audit is not None:
        add_audit(log, out, audit)
    return content_hash, out



#: The event types whose per-seat counts :func:`fast_game_rows` takes in one count per hand
#: (the rest of :func:`_play`'s types are visited one by one).
_COUNTED = (ev.TileDrawn, ev.TileDiscarded, ev.Chowed, ev.Ponged, ev.KongExposed, ev.KongAdded, ev.KongConcealed)
#: The event types :func:`fast_game_rows` visits one by one (a few a hand).
_VISITED = frozenset({ev.HandStarted, ev.HandWon, ev.HandDrawn, ev.HandSettled, ev.RoomResized, ev.GameClosed,
                      ev.TilesDealt, ev.PigBetPlaced})
_KONGS = (ev.KongExposed, ev.KongAdded, ev.KongConcealed)


def _keeps_tally(room: _Room, n: int) -> bool:
    """Whether the room's family keeps a 点鸡 tally (then each seat's tiles from the wall are counted)."""
    fam = room.family
    if fam is None or room.rules is None:
        return False
    return fam.settlement.hand_facts(room.rules, [[0] * NUM_KINDS for _ in range(n)], [0] * n).tallies is not None


def _count_segment(cur: _HandAcc, events: list, types: list, seats: list, a: int, b: int, tally: bool) -> None:
    """The per-seat counts of :func:`_play` for the counted events of ``events[a:b]`` (the hand under
    way: ``ok`` is a seat of the hand's own), and the hand's first draw from the wall."""
    from collections import Counter

    n = cur.n
    per = {ev.TileDrawn: cur.sdraws, ev.TileDiscarded: cur.sdiscards, ev.Chowed: cur.chows, ev.Ponged: cur.pongs,
           ev.KongExposed: cur.kexp, ev.KongAdded: cur.kadd, ev.KongConcealed: cur.kcon}
    for (t, seat), k in Counter(zip(types[a:b], seats[a:b])).items():
        counts = per.get(t)
        if counts is None:
            continue
        if t is ev.TileDrawn:
            cur.draws += k
        elif t in _KONGS:
            cur.kongs += k
        if seat is not None and 0 <= seat < n:
            counts[seat] += k
    i = a - 1
    drawn = ev.TileDrawn
    while cur.first_draw is None:
        try:
            i = types.index(drawn, i + 1, b)
        except ValueError:
            break
        e = events[i]
        if e.source == "wall":
            cur.first_draw, cur.first_draw_seq = e.tile, e.seq
    if tally:
        got = cur.got
        idx = TILE_INDEX
        i = a - 1
        while True:
            try:
                i = types.index(drawn, i + 1, b)
            except ValueError:
                break
            seat = seats[i]
            if seat < n:
                got[seat][idx[events[i].tile]] += 1


def fast_game_rows(log: GameLog, content_hash: str, body: str,
                   now: Optional[datetime] = None) -> tuple[GameRows, list, list, list]:
    """:func:`game_rows` (the same rows in every table but events), taking a count per hand of
    the draws, discards, claims and kongs instead of a Python step per event: only the few
    events a hand that shape it (its start, deal, bets, wins, settlement, a resize) are visited
    one by one.  Returns the rows and, for the events table, each event's type, seat and hand number."""
    out = GameRows()
    events = log.events
    n_ev = len(events)
    types = list(map(type, events))
    seats = [getattr(e, "seat", None) for e in events]
    room = _Room(log, events[0] if events and types[0] is ev.GameOpened else None)
    visited = _VISITED
    marks = [i for i, t in enumerate(types) if t in visited]
    hands_col: list[int] = []
    hand_no = 0
    hand_at = 0  # where the current hand number's run of the hand column starts
    cur: Optional[_HandAcc] = None
    seg = 0  # the first event of the hand under way not yet counted
    hands = 0
    closed_ev: Optional[ev.GameClosed] = None

    tallies: dict[tuple, bool] = {}

    def count(upto: int) -> None:
        """The counted events of the hand under way from ``seg`` to ``upto``."""
        # the family the hand is settled under (after a resize mid-hand, the room's new one)
        key = (id(room.rules), cur.n)
        if key not in tallies:
            tallies[key] = _keeps_tally(room, cur.n)
        _count_segment(cur, events, types, seats, seg, upto, tallies[key])

    def finish(upto: int) -> None:
        count(upto)
        _finish_hand(out, room, cur)

    for i in marks:
        e = events[i]
        t = types[i]
        if t is ev.HandStarted:
            if cur is not None:
                finish(i)
            hands_col += [hand_no] * (i - hand_at)
            hand_at = i
            hands += 1
            hand_no = e.hand
            cur = _HandAcc(e, room.n, room.scores)
            seg = i + 1
        elif cur is not None and t in _HAND_EVENTS:
            if t is ev.HandWon:  # the counts so far, which a winner's offered discards are read from
                count(i)
                seg = i
            if _hand_event(out, room, cur, t, e, seats[i]):
                finish(i)
                cur = None
        elif t is ev.RoomResized:
            room.resized(e)
        elif t is ev.GameClosed:
            if cur is not None:
                finish(i)
                cur = None
            closed_ev = e
    if cur is not None:
        finish(n_ev)
    hands_col += [hand_no] * (n_ev - hand_at)
    out.events = n_ev
    out.players = room.players
    out.rows["games"].append(_game_row(log, room, closed_ev, hands, content_hash, body, now))
    return out, types, seats, hands_col


_HAND_EVENTS = frozenset({ev.TileDrawn, ev.TileDiscarded, ev.TilesDealt, ev.Ponged, ev.Chowed, ev.KongExposed,
                          ev.KongAdded, ev.KongConcealed, ev.PigBetPlaced, ev.HandWon, ev.HandDrawn,
                          ev.HandSettled})
