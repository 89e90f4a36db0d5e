"""A batch of games into the store in SQL: DuckDB reads the events' JSON lines and derives every table.

:func:`write_batch` takes the games of one batch as JSON lines (one event per line,
each game's lines together and in log order — what :func:`game_lines` makes from a
game the reader validated), loads them with DuckDB's own JSON reader into a staging
table, and derives ``games``, ``hands``, ``wins``, ``hand_players`` and
``transfers`` with SQL, in one transaction.  Python takes no step per event: the
only per-game work left in Python is the content hash, the resolved ruleset per
distinct room configuration, and the 点鸡 tally of the rule family
(``family.settlement.hand_facts``) for the hands of rooms that keep one, so that rule keeps its
one home in ``audits/rules``.

The semantics are those of :func:`paipu.store.ingest.game_rows` (the per-event
Python derivation, still used for the Parquet dataset and ``--cluster``); the
tests compare the two table by table.
"""

from __future__ import annotations

import hashlib
import os
import time
from typing import Any, Callable, Optional, Sequence

import duckdb
import msgspec

from schema import events as ev
from schema.reader import GameLog
from schema.ruleset import Ruleset, RulesetError, resolve
from schema.tiles import NUM_KINDS, TILE_INDEX

from .tables import transaction

_enc = msgspec.json.Encoder()

#: Event types whose fields beyond the hot ones (type, game, seq, at, seat, tile,
#: source) the derivation needs; only these rows are parsed a second time.
RARE_TYPES = ("GameOpened", "RoomResized", "HandStarted", "TilesDealt", "PigBetPlaced", "HandWon",
              "HandDrawn", "HandSettled", "GameClosed")

_RARE_SPEC = msgspec.json.encode({
    "hand": "INTEGER", "dealer": "INTEGER", "hands": "VARCHAR[][]", "bet": "INTEGER", "how": "VARCHAR",
    "from_seat": "INTEGER",
    "winners": "STRUCT(seat INTEGER, fans VARCHAR[], fan INTEGER, points INTEGER)[]", "remaining": "INTEGER",
    "transfers": "STRUCT(payer INTEGER, payee INTEGER, amount INTEGER, reason VARCHAR)[]",
    "scores": "INTEGER[]", "seats": "VARCHAR[]", "server": "VARCHAR", "build": "VARCHAR", "preset": "VARCHAR",
    "options": "JSON", "creator": "INTEGER", "start_points": "INTEGER", "billing": "VARCHAR", "fee": "INTEGER",
    "reason": "VARCHAR"}).decode()


def _in(types: Sequence[str]) -> str:
    return "(" + ", ".join(f"'{t}'" for t in types) + ")"


# ---------------------------------------------------------------------------
# per game, in Python: the lines and the content hash


def game_lines(log: GameLog) -> tuple[str, bytes, bytes]:
    """The game's events as JSON lines for DuckDB, their hand marks, and the game's content hash.

    The events are in the schema's own encoding, one a line.  The marks are CSV,
    one ``seg,hand`` line per event: ``hand`` the number of the last HandStarted
    (0 before the first), ``seg`` the hand segment the event counts toward (1, 2, …
    for the n-th HandStarted, from it to its first HandSettled, or to the
    GameClosed, next HandStarted or end; 0 outside any hand).  Finding those places
    is a C-level search per hand and the marks are repeated bytes, so nothing here
    takes a Python step per event.  The hash covers the events and the game's first
    unreadable line, so the same content always gives the same hash, whatever the
    key order or spacing of the log it came from.
    """
    events = log.events
    lines = _enc.encode_lines(events)
    types = list(map(type, events))
    started = [i for i, t in enumerate(types) if t is _STARTED]
    n = len(events)
    marks = [b"0,0\n" * (started[0] if started else n)]
    for k, i in enumerate(started):
        j = started[k + 1] if k + 1 < len(started) else n
        stop = j
        for t, after in ((ev.HandSettled, 1), (ev.GameClosed, 0)):
            try:
                stop = min(stop, types.index(t, i, j) + after)
            except ValueError:
                pass
        hand = events[i].hand
        marks.append(b"%d,%d\n" % (k + 1, hand) * (stop - i))
        marks.append(b"0,%d\n" % hand * (j - stop))
    h = hashlib.blake2b(lines, digest_size=16)
    if log.problem is not None:
        h.update(b"\0problem\0" + log.problem.message.encode())
    return h.hexdigest(), lines, b"".join(marks)


_STARTED = ev.HandStarted


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


_OVERRIDES = next(f.type for f in msgspec.inspect.type_info(ev.GameOpened).fields if f.name == "options").cls


def _overrides(options_json: Optional[str]) -> dict[str, Any]:
    """The options a room overrode on its preset."""
    if not options_json:
        return {}
    opts = msgspec.json.decode(options_json.encode(), type=_OVERRIDES)
    return {k: v for k, v in msgspec.structs.asdict(opts).items() if v is not None}


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


def _rules(preset: Optional[str], options_json: Optional[str], players: int) -> Optional[Ruleset]:
    """The resolved ruleset of a room from its logged options' JSON (:func:`room_rules`)."""
    try:
        overrides = _overrides(options_json)
    except ValueError:  # msgspec's decode errors: options that are not the schema's
        return None
    return room_rules(preset, overrides, players)


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
# the SQL


#: Per-seat counters: the event types counted per (game, hand, seat).
COUNTED = ("TileDrawn", "TileDiscarded", "Chowed", "Ponged", "KongExposed", "KongAdded", "KongConcealed")

_STAGE = f"""
-- each line with its marks (seg, hand), joined by position
CREATE OR REPLACE TEMP TABLE _l AS
SELECT json AS data, v[1] AS type, v[2] AS game, v[3]::INTEGER AS seq, v[4] AS at_raw,
       v[5]::INTEGER AS seat, v[6] AS tile, v[7] AS source, m.seg, m.hand
FROM (SELECT json, json_extract_string(json, ['$.type', '$.game', '$.seq', '$.at', '$.seat', '$.tile',
                                              '$.source']) AS v
      FROM read_json_objects($path, format='newline_delimited'))
POSITIONAL JOIN read_csv($marks, columns={{'seg': 'INTEGER', 'hand': 'INTEGER'}}, header=false, auto_detect=false,
                         delim=',', quote='', escape='') m;

-- the events table takes each line's JSON, once
INSERT INTO events SELECT game, seq, type, at_raw::TIMESTAMPTZ, hand, seat, tile, data FROM _l e{{only}};

-- pos: the line's place in the spool (games are whole and in log order)
CREATE OR REPLACE TEMP TABLE _r0 AS
SELECT e.rowid AS pos, game, seq, type, seg, at_raw::TIMESTAMPTZ AS ts, seat, tile,
       json_transform(data, '{_RARE_SPEC}') AS r
FROM _l e WHERE type IN {_in(RARE_TYPES)}{{only_and}};

-- from here on the lines without their JSON (so the batch's staging holds it no longer than needed)
CREATE OR REPLACE TEMP TABLE _e AS SELECT e.rowid AS pos, e.* EXCLUDE (data) FROM _l e{{only}};
DROP TABLE _l;
CREATE OR REPLACE TEMP VIEW _w AS SELECT * FROM _e;

CREATE OR REPLACE TEMP TABLE _gf AS
SELECT game, min(pos) AS first_pos, max(pos) AS last_pos, count(*) AS events,
       count_if(type = 'HandStarted') AS hands
FROM _w GROUP BY game;

-- the room: players by seat, from the game's opening GameOpened, then each RoomResized
CREATE OR REPLACE TEMP TABLE _room AS
SELECT r.game, r.pos, r.r.seats AS players
FROM _r0 r JOIN _gf g USING (game)
WHERE r.type = 'RoomResized' OR (r.type = 'GameOpened' AND r.pos = g.first_pos);

-- each rare line's room: the players of the game's last room line at or before it
CREATE OR REPLACE TEMP TABLE _r AS
SELECT r.* EXCLUDE (room), coalesce(last_value(room IGNORE NULLS) OVER (PARTITION BY game ORDER BY pos
                                    ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), []::VARCHAR[]) AS players
FROM (SELECT r.*, CASE WHEN r.type = 'RoomResized' OR (r.type = 'GameOpened' AND r.pos = g.first_pos)
                       THEN r.r.seats END AS room
      FROM _r0 r JOIN _gf g USING (game)) r;
DROP TABLE _r0;

-- a hand's lines: its segment (from its HandStarted to its first HandSettled, or to the
-- GameClosed, the next HandStarted or the end of the game)
CREATE OR REPLACE TEMP TABLE _seg AS
SELECT s.*, len(h.players) AS hn
FROM (SELECT game, seg, min(pos) AS hs_pos, max(pos) AS end_pos FROM _w WHERE seg > 0 GROUP BY game, seg) s
JOIN _r h ON h.pos = s.hs_pos;

-- the per-seat counters of the hands, counted over the hand's own lines
CREATE OR REPLACE TEMP TABLE _cnt AS
SELECT c.*, s.hn FROM (
    SELECT game, seg, seat, type, count(*) AS n,
           min(pos) FILTER (WHERE source = 'wall') AS wall_pos,
           arg_min(tile, pos) FILTER (WHERE source = 'wall') AS wall_tile,
           arg_min(seq, pos) FILTER (WHERE source = 'wall') AS wall_seq
    FROM _w WHERE seg > 0 AND type IN {_in(COUNTED)} GROUP BY game, seg, seat, type) c
JOIN _seg s USING (game, seg);

-- settlements that carry the room's scores forward (the hand's own, with one score per seat)
CREATE OR REPLACE TEMP TABLE _settle AS
SELECT r.game, r.seg, r.pos, r.seq, r.r.scores AS scores, r.r.transfers AS transfers, r.players
FROM _r r WHERE r.type = 'HandSettled' AND r.seg > 0;

CREATE OR REPLACE TEMP TABLE _carry AS
SELECT game, pos, scores FROM _settle WHERE len(scores) = len(players);
"""

_HANDS = """
CREATE OR REPLACE TEMP TABLE _h AS
WITH won AS (
    SELECT r.game, r.seg, arg_max(r.r, r.pos) AS w, arg_max(r.pos, r.pos) AS pos
    FROM _r r JOIN _seg s USING (game, seg)
    WHERE r.type = 'HandWon' AND r.pos <= s.end_pos GROUP BY r.game, r.seg),
ended AS (
    SELECT r.game, r.seg, arg_max(r.type, r.pos) AS type, arg_max(r.seq, r.pos) AS seq,
           arg_max(r.r.remaining, r.pos) FILTER (WHERE r.type = 'HandDrawn') AS reported
    FROM _r r JOIN _seg s USING (game, seg)
    WHERE r.type IN ('HandWon', 'HandDrawn') AND r.pos <= s.end_pos GROUP BY r.game, r.seg),
counts AS (
    SELECT game, seg, sum(n) FILTER (WHERE type = 'TileDrawn') AS draws,
           sum(n) FILTER (WHERE type IN ('KongExposed', 'KongAdded', 'KongConcealed')) AS kongs,
           arg_min(wall_tile, wall_pos) FILTER (WHERE type = 'TileDrawn') AS first_draw,
           arg_min(wall_seq, wall_pos) FILTER (WHERE type = 'TileDrawn') AS first_draw_seq
    FROM _cnt GROUP BY game, seg),
dealt AS (
    SELECT r.game, r.seg, sum(list_sum(list_transform(r.r.hands, lambda x: len(x)))) AS dealt
    FROM _r r JOIN _seg s USING (game, seg)
    WHERE r.type = 'TilesDealt' AND r.pos <= s.end_pos GROUP BY r.game, r.seg),
prior AS (
    -- the scores before the hand: the last carried settlement, cut at any resize since
    SELECT s.game, s.seg, c.scores, c.pos AS carry_pos
    FROM _seg s ASOF LEFT JOIN _carry c ON c.game = s.game AND c.pos < s.hs_pos),
resized AS (
    SELECT p.game, p.seg, min(len(m.players)) AS cut
    FROM prior p JOIN _room m ON m.game = p.game AND m.pos > coalesce(p.carry_pos, -1)
    JOIN _seg s ON s.game = p.game AND s.seg = p.seg AND m.pos < s.hs_pos
    JOIN _gf g ON g.game = m.game AND m.pos <> g.first_pos
    GROUP BY p.game, p.seg)
SELECT s.game, s.seg, s.hs_pos, s.end_pos, hs.seq AS started_seq, hs.ts AS started_at,
       hs.r.hand AS hand, hs.r.dealer AS dealer, len(hs.players) AS hn,
       e.type AS ended_type, e.seq AS ended_seq, e.reported, won.w AS w,
       st.seq AS settled_seq, st.scores AS settle_scores, st.transfers,
       coalesce(c.draws, 0) AS draws, coalesce(c.kongs, 0) AS kongs, c.first_draw, c.first_draw_seq,
       coalesce(d.dealt, 0) AS dealt, p.scores AS prior_scores, rz.cut AS resize_cut,
       coalesce(op.r.start_points, 0) AS start_points
FROM _seg s JOIN _r hs ON hs.pos = s.hs_pos
LEFT JOIN won ON won.game = s.game AND won.seg = s.seg
LEFT JOIN ended e ON e.game = s.game AND e.seg = s.seg
LEFT JOIN counts c ON c.game = s.game AND c.seg = s.seg
LEFT JOIN dealt d ON d.game = s.game AND d.seg = s.seg
LEFT JOIN _settle st ON st.game = s.game AND st.seg = s.seg
LEFT JOIN prior p ON p.game = s.game AND p.seg = s.seg
LEFT JOIN resized rz ON rz.game = s.game AND rz.seg = s.seg
LEFT JOIN _gf g ON g.game = s.game
LEFT JOIN _r op ON op.pos = g.first_pos AND op.type = 'GameOpened';

-- every HandWon of a hand (several on 血战): flags for each seat
CREATE OR REPLACE TEMP TABLE _wins AS
SELECT r.game, r.seg, r.pos, r.seq, r.r.how AS how, r.r.from_seat AS from_seat, r.tile, r.players,
       r.r.winners AS winners
FROM _r r JOIN _seg s USING (game, seg) WHERE r.type = 'HandWon' AND r.pos <= s.end_pos;
"""

_HAND_PLAYERS = """
CREATE OR REPLACE TEMP TABLE _hp AS
WITH seats AS (
    SELECT game, seg, unnest(range(hn)) AS seat FROM _h),
per AS (
    SELECT game, seg, seat, sum(n) FILTER (WHERE type = 'TileDrawn') AS draws,
           sum(n) FILTER (WHERE type = 'TileDiscarded') AS discards,
           sum(n) FILTER (WHERE type = 'Chowed') AS chows, sum(n) FILTER (WHERE type = 'Ponged') AS pongs,
           sum(n) FILTER (WHERE type = 'KongExposed') AS kexp, sum(n) FILTER (WHERE type = 'KongAdded') AS kadd,
           sum(n) FILTER (WHERE type = 'KongConcealed') AS kcon
    FROM _cnt WHERE seat >= 0 AND seat < hn GROUP BY game, seg, seat),
bets AS (
    SELECT r.game, r.seg, r.seat, arg_max(r.r.bet, r.pos) AS bet
    FROM _r r JOIN _seg s USING (game, seg)
    WHERE r.type = 'PigBetPlaced' AND r.pos <= s.end_pos AND r.seat >= 0 AND r.seat < s.hn
    GROUP BY ALL),
sd AS (
    SELECT DISTINCT game, seg, seat FROM (
        SELECT game, seg, unnest(list_transform(winners, lambda x: x.seat)) AS seat FROM _wins WHERE how = 'self_draw')),
fr AS (
    SELECT game, seg, from_seat AS seat, bool_or(how = 'discard') AS dealt_in, bool_or(how = 'robbed_kong') AS robbed
    FROM _wins WHERE from_seat IS NOT NULL GROUP BY ALL),
tr AS (
    SELECT t.game, t.seg, t.x.payer AS payer, t.x.payee AS payee, t.x.amount AS amount, t.x.reason AS reason
    FROM (SELECT game, seg, unnest(transfers) AS x FROM _settle) t JOIN _h h USING (game, seg)
    WHERE t.x.payer < h.hn AND t.x.payee < h.hn),
money AS (
    SELECT game, seg, seat, sum(paid) AS paid, sum(received) AS received, sum(dianji) AS dianji FROM (
        SELECT game, seg, payer AS seat, amount AS paid, 0 AS received,
               CASE WHEN reason = 'dianji' THEN -amount ELSE 0 END AS dianji FROM tr
        UNION ALL
        SELECT game, seg, payee, 0, amount, CASE WHEN reason = 'dianji' THEN amount ELSE 0 END FROM tr)
    GROUP BY ALL)
SELECT s.game, h.hand, s.seat, m.players AS room_players, h.hn AS seats, s.seat = h.dealer AS is_dealer,
       CASE WHEN h.prior_scores IS NOT NULL AND s.seat < len(h.prior_scores) AND s.seat < coalesce(h.resize_cut, 4)
            THEN h.prior_scores[s.seat + 1] ELSE h.start_points END AS score_before,
       CASE WHEN len(h.settle_scores) = h.hn THEN h.settle_scores[s.seat + 1] END AS score_after,
       coalesce(mo.received, 0) AS received, coalesce(mo.paid, 0) AS paid, coalesce(mo.dianji, 0) AS dianji_net,
       coalesce(b.bet, 0) AS bet, coalesce(p.draws, 0) AS draws, coalesce(p.discards, 0) AS discards,
       sum(coalesce(p.discards, 0)) OVER (PARTITION BY s.game, s.seg) - coalesce(p.discards, 0) AS offered,
       coalesce(p.chows, 0) AS chows, coalesce(p.pongs, 0) AS pongs, coalesce(p.kexp, 0) AS kongs_exposed,
       coalesce(p.kadd, 0) AS kongs_added, coalesce(p.kcon, 0) AS kongs_concealed,
       coalesce(p.chows, 0) + coalesce(p.pongs, 0) + coalesce(p.kexp, 0) AS claims,
       coalesce(list_contains(list_transform(h.w.winners, lambda x: x.seat), s.seat), false) AS won,
       sd.seat IS NOT NULL AS self_draw, coalesce(fr.dealt_in, false) AS dealt_in,
       coalesce(fr.robbed, false) AS robbed, h.settled_seq, s.seg
FROM seats s JOIN _h h USING (game, seg)
ASOF LEFT JOIN _room m ON m.game = s.game AND m.pos <= h.end_pos
LEFT JOIN per p ON p.game = s.game AND p.seg = s.seg AND p.seat = s.seat
LEFT JOIN bets b ON b.game = s.game AND b.seg = s.seg AND b.seat = s.seat
LEFT JOIN sd ON sd.game = s.game AND sd.seg = s.seg AND sd.seat = s.seat
LEFT JOIN fr ON fr.game = s.game AND fr.seg = s.seg AND fr.seat = s.seat
LEFT JOIN money mo ON mo.game = s.game AND mo.seg = s.seg AND mo.seat = s.seat;
"""

#: Player id of a seat in a list of players by seat (NULL off the table).
def _player(players: str, seat: str) -> str:
    return f"CASE WHEN {seat} >= 0 AND {seat} < len({players}) THEN {players}[{seat} + 1] END"


_GAMES = """
CREATE OR REPLACE TEMP TABLE _g AS
WITH closed AS (
    SELECT game, arg_max(ts, pos) AS ts, arg_max(r.reason, pos) AS reason, arg_max(r.scores, pos) AS scores
    FROM _r WHERE type = 'GameClosed' GROUP BY game)
SELECT mt.game, mt.file, op.r.server AS server, op.r.build AS build, op.r.preset AS preset,
       c.ruleset, c.options, coalesce(fin.players, []::VARCHAR[]) AS players,
       len(coalesce(fin.players, []::VARCHAR[])) AS seats, op.r.creator AS creator,
       op.r.start_points AS start_points, op.r.billing AS billing, op.r.fee AS fee, op.ts AS opened_at,
       cl.ts AS closed_at, cl.reason AS close_reason, cl.scores AS final_scores,
       coalesce(g.hands, 0)::INTEGER AS hands, coalesce(g.events, 0)::INTEGER AS events, mt.closed, mt.problem,
       mt.audited, mt.audit_complete,
       mt.closed AND mt.problem IS NULL AND coalesce(mt.audit_complete, true) AS complete,
       mt.findings, mt.content_hash, mt.body_hash, $now::TIMESTAMPTZ AS ingested_at, c.tile_count
-- every game of the batch, those with no readable event too (a first line that failed the
-- schema): its row says why in ``problem``, so no game read is counted without being stored
FROM _meta mt LEFT JOIN _gf g USING (game)
LEFT JOIN _r op ON op.pos = g.first_pos AND op.type = 'GameOpened'
ASOF LEFT JOIN _room fin ON fin.game = mt.game AND fin.pos <= g.last_pos
LEFT JOIN closed cl ON cl.game = mt.game
LEFT JOIN _cfg c ON c.game = mt.game;
"""

_INSERTS = f"""
INSERT INTO games SELECT * EXCLUDE (tile_count) FROM _g;
INSERT INTO hands
SELECT h.game, h.hand, h.dealer, h.hn, h.started_seq, h.ended_seq, h.settled_seq, h.started_at,
       CASE h.ended_type WHEN 'HandWon' THEN 'won' WHEN 'HandDrawn' THEN 'drawn' END, h.w.how, h.w.from_seat,
       coalesce(list_transform(h.w.winners, lambda x: x.seat), []::INTEGER[]),
       coalesce(list_filter(flatten(list_transform(h.w.winners, lambda x: x.fans)),
                            lambda f, i: list_position(flatten(list_transform(h.w.winners, lambda x: x.fans)), f) = i),
                []::VARCHAR[]),
       list_max(list_transform(h.w.winners, lambda x: x.fan)), list_sum(list_transform(h.w.winners, lambda x: x.points)),
       h.draws, coalesce(g.tile_count, 136) - h.dealt - h.draws, h.reported, h.kongs, h.first_draw,
       h.first_draw_seq, h.settled_seq IS NOT NULL
FROM _h h JOIN _g g USING (game);
INSERT INTO wins
SELECT game, hand, seq, x.seat, {_player('players', 'x.seat')}, how, from_seat, {_player('players', 'from_seat')},
       tile, x.fans, x.fan, x.points
FROM (SELECT w.*, h.hand, unnest(w.winners) AS x FROM _wins w JOIN _h h USING (game, seg));
INSERT INTO hand_players
SELECT p.game, p.hand, p.seat, {_player('p.room_players', 'p.seat')}, p.seats, p.is_dealer, p.score_before,
       p.score_after, p.score_after - p.score_before, p.received, p.paid, p.dianji_net, k.chickens, p.bet,
       p.draws, p.discards, p.offered, p.chows, p.pongs, p.kongs_exposed, p.kongs_added, p.kongs_concealed,
       p.claims, p.won, p.self_draw, p.dealt_in, p.robbed, p.settled_seq
FROM _hp p LEFT JOIN _chk k ON k.game = p.game AND k.seg = p.seg AND k.seat = p.seat;
INSERT INTO transfers
SELECT game, hand, seq, idx - 1, x.payer, x.payee, {_player('players', 'x.payer')}, {_player('players', 'x.payee')},
       x.amount, x.reason
FROM (SELECT s.game, h.hand, s.seq, s.players, unnest(s.transfers) AS x,
             generate_subscripts(s.transfers, 1) AS idx
      FROM _settle s JOIN _h h USING (game, seg));
"""

#: The audit's rows of the batch (``_af``, ``_al``, ``_ac``: findings, ledger, corrections
#: without player ids) into the store, with each seat's player id from the game's row.
_AUDIT_INSERTS = f"""
INSERT INTO findings
SELECT f.game, f.hand, f.seq, f.seat, {_player('g.players', 'f.seat')}, f.code, f.severity, f.rule, f.expected,
       f.actual, f.message, f.file, f.line
FROM {{f}} f JOIN _g g USING (game);
INSERT INTO ledger
SELECT l.game, l.hand, l.seat, {_player('g.players', 'l.seat')}, l.logged, l.corrected, l.gap, l.error
FROM {{l}} l JOIN _g g USING (game);
INSERT INTO corrections
SELECT c.game, c.idx, c.debtor_seat, {_player('g.players', 'c.debtor_seat')}, c.creditor_seat,
       {_player('g.players', 'c.creditor_seat')}, c.amount
FROM {{c}} c JOIN _g g USING (game);
"""

FINDING_COLUMNS = {"game": "VARCHAR", "hand": "INTEGER", "seq": "INTEGER", "seat": "INTEGER", "code": "VARCHAR",
                   "severity": "VARCHAR", "rule": "VARCHAR", "expected": "JSON", "actual": "JSON",
                   "message": "VARCHAR", "file": "VARCHAR", "line": "INTEGER"}
LEDGER_COLUMNS = {"game": "VARCHAR", "hand": "INTEGER", "seat": "INTEGER", "logged": "INTEGER",
                  "corrected": "INTEGER", "gap": "INTEGER", "error": "INTEGER"}
CORRECTION_COLUMNS = {"game": "VARCHAR", "idx": "INTEGER", "debtor_seat": "INTEGER", "creditor_seat": "INTEGER",
                      "amount": "INTEGER"}
META_COLUMNS = {"game": "VARCHAR", "file": "VARCHAR", "problem": "VARCHAR", "closed": "BOOLEAN",
                "content_hash": "VARCHAR", "body_hash": "VARCHAR", "audited": "BOOLEAN", "audit_complete": "BOOLEAN", "findings": "INTEGER"}
CFG_COLUMNS = {"game": "VARCHAR", "ruleset": "JSON", "options": "JSON", "tile_count": "INTEGER"}
CHK_COLUMNS = {"game": "VARCHAR", "seg": "BIGINT", "seat": "BIGINT", "chickens": "INTEGER"}


def read_sql(path: str, columns: dict[str, str]) -> str:
    """``read_json`` of a newline-delimited spool with an explicit column spec (no sampling)."""
    cols = ", ".join(f"\"{k}\": '{v}'" for k, v in columns.items())
    return (f"read_json('{_quote(path)}', format='newline_delimited', columns={{{cols}}}, "
            "auto_detect=false)")


def _quote(path: str) -> str:
    return path.replace("'", "''")


def _load(con: duckdb.DuckDBPyConnection, name: str, rows: list, columns: dict[str, str], spool_dir: str) -> None:
    """A temp table ``name`` of ``rows`` (dicts or structs), spooled as JSON lines for DuckDB's reader."""
    if not rows:
        cols = ", ".join(f"{k} {v}" for k, v in columns.items())
        con.execute(f"CREATE OR REPLACE TEMP TABLE {name} ({cols})")
        return
    path = os.path.join(spool_dir, f"{name}.ndjson")
    with open(path, "wb") as f:
        f.write(_enc.encode_lines(rows))
    con.execute(f"CREATE OR REPLACE TEMP TABLE {name} AS SELECT * FROM {read_sql(path, columns)}")


def _run(con: duckdb.DuckDBPyConnection, script: str, params: Optional[dict] = None) -> None:
    for stmt in script.split(";\n"):
        if stmt.strip():
            con.execute(stmt, params or {}) if params and "$" in stmt else con.execute(stmt)


# ---------------------------------------------------------------------------
# configurations and 点鸡 tallies: the small Python part


def _configs(con: duckdb.DuckDBPyConnection, spool_dir: str) -> dict[tuple, Any]:
    """The ``_cfg`` table (resolved ruleset, options, tile set per game); returns the cache of rulesets."""
    rows = con.execute("""
        SELECT g.game, op.r.preset, op.r.options::VARCHAR, len(op.r.seats),
               len(coalesce(fin.players, []::VARCHAR[]))
        FROM _gf g JOIN _r op ON op.pos = g.first_pos AND op.type = 'GameOpened'
        ASOF LEFT JOIN _room fin ON fin.game = g.game AND fin.pos <= g.last_pos""").fetchall()
    cache: dict[tuple, Any] = {}

    def rules(preset: str, opts: str, n: int) -> Optional[Ruleset]:
        key = (preset, opts, n)
        if key not in cache:
            cache[key] = _rules(preset, opts, n)
        return cache[key]

    out = []
    text: dict[tuple, tuple] = {}
    for game, preset, opts, n0, n in rows:
        key = (preset, opts, n0, n)
        if key not in text:
            first, last = rules(preset, opts, n0), rules(preset, opts, n)
            text[key] = (msgspec.to_builtins(last) if last is not None else None, _overrides(opts),
                         first.tile_count if first is not None else 136)
        ruleset, options, tiles = text[key]
        out.append({"game": game, "ruleset": ruleset, "options": options, "tile_count": tiles})
    _load(con, "_cfg", out, CFG_COLUMNS, spool_dir)
    return cache


def _chickens(con: duckdb.DuckDBPyConnection, spool_dir: str) -> None:
    """The ``_chk`` table: 点鸡 tallies per seat per hand, as the room's rule family counts them.

    Only hands of rooms whose family keeps a tally are looked at; the tiles each seat
    received from the wall (deal and draws) are counted in SQL, the tally is the
    family's ``hand_facts``.
    """
    hands = con.execute("""
        SELECT h.game, h.seg, h.hn, op.r.preset, op.r.options::VARCHAR, len(op.r.seats), len(m.players)
        FROM _h h JOIN _gf g USING (game) JOIN _r op ON op.pos = g.first_pos AND op.type = 'GameOpened'
        ASOF LEFT JOIN _room m ON m.game = h.game AND m.pos <= h.end_pos""").fetchall()
    want: dict[tuple, tuple] = {}
    families: dict[tuple, Any] = {}
    for game, seg, hn, preset, opts, n0, n in hands:
        fkey = (preset, opts, n0)
        if fkey not in families:
            families[fkey] = family_or_none(_rules(preset, opts, n0))
        family = families[fkey]
        if family is None or n is None:
            continue
        rules = _rules(preset, opts, n)
        if rules is None or family.settlement.hand_facts(rules, [[0] * NUM_KINDS] * hn, [0] * hn).tallies is None:
            continue
        want[(game, seg)] = (family, rules, hn)
    out: list[dict] = []
    if want:
        _load(con, "_want", [{"game": g, "seg": s} for g, s in want], {"game": "VARCHAR", "seg": "BIGINT"}, spool_dir)
        got: dict[tuple, list[list[int]]] = {k: [[0] * NUM_KINDS for _ in range(v[2])] for k, v in want.items()}
        bets: dict[tuple, list[int]] = {k: [0] * v[2] for k, v in want.items()}
        for game, seg, seat, tile, n in con.execute("""
                SELECT game, seg, seat, tile, count(*) FROM (
                    SELECT r.game, r.seg, s.i - 1 AS seat, unnest(r.r.hands[s.i]) AS tile
                    FROM _r r JOIN _want USING (game, seg) JOIN _h h USING (game, seg),
                         (SELECT unnest(range(1, 5)) AS i) s
                    WHERE r.type = 'TilesDealt' AND r.pos <= h.end_pos AND s.i <= len(r.r.hands) AND s.i <= h.hn
                    UNION ALL
                    SELECT w.game, w.seg, w.seat, w.tile FROM _w w JOIN _want USING (game, seg)
                    JOIN _seg s USING (game, seg)
                    WHERE w.type = 'TileDrawn' AND w.seg > 0 AND w.seat >= 0 AND w.seat < s.hn)
                GROUP BY ALL""").fetchall():
            got[(game, seg)][seat][TILE_INDEX[tile]] += n
        for game, seg, seat, bet in con.execute("""
                SELECT p.game, p.seg, p.seat, p.bet FROM _hp p JOIN _want USING (game, seg)""").fetchall():
            bets[(game, seg)][seat] = bet
        for key, (family, rules, hn) in want.items():
            tallies = family.settlement.hand_facts(rules, got[key], bets[key]).tallies
            for s in range(hn):
                out.append({"game": key[0], "seg": key[1], "seat": s,
                            "chickens": tallies[s] if tallies is not None else None})
    _load(con, "_chk", out, CHK_COLUMNS, spool_dir)


# ---------------------------------------------------------------------------
# the batch


class Spool:
    """A batch's games on disk, as :func:`write_batch` reads them: their JSON lines in one file
    and their marks in another (each game's lines together and in log order, see
    :func:`game_lines`), written as the batch is read so no batch waits in memory."""

    def __init__(self, spool_dir: str, name: str):
        self.events = os.path.join(spool_dir, f"{name}.ndjson")
        self.marks = os.path.join(spool_dir, f"{name}.marks.csv")
        self._f: Any = open(self.events, "wb")
        self._g: Any = open(self.marks, "wb")
        #: game id -> (offset, size) of its lines, (offset, size) of its marks
        self.spans: dict[str, tuple[int, int, int, int]] = {}
        self._at = [0, 0]

    def add(self, game: str, lines: bytes, marks: bytes) -> None:
        """Append one game's lines and marks."""
        self._f.write(lines)
        self._g.write(marks)
        a, b = self._at
        self.spans[game] = (a, len(lines), b, len(marks))
        self._at = [a + len(lines), b + len(marks)]

    def close(self) -> None:
        """Finish writing (before DuckDB reads the files)."""
        if self._f is not None:
            self._f.close()
            self._g.close()
            self._f = self._g = None

    def game(self, game: str) -> tuple[bytes, bytes]:
        """One game's lines and marks, read back (a batch retried game by game)."""
        a, n, b, m = self.spans[game]
        with open(self.events, "rb") as f, open(self.marks, "rb") as g:
            f.seek(a)
            g.seek(b)
            return f.read(n), g.read(m)

    def remove(self) -> None:
        """Delete the files."""
        self.close()
        for p in (self.events, self.marks):
            try:
                os.remove(p)
            except OSError:
                pass

    @classmethod
    def of(cls, spool_dir: str, name: str, games: Sequence[tuple[str, tuple[bytes, bytes]]]) -> "Spool":
        """A closed spool of these games' (lines, marks)."""
        sp = cls(spool_dir, name)
        for game, (lines, marks) in games:
            sp.add(game, lines, marks)
        sp.close()
        return sp


def write_batch(con: duckdb.DuckDBPyConnection, spool: Spool, meta: list[dict],
                replaced: list[str],
                spool_dir: str,
                now: Any, audit_rows: Optional[tuple[list, list, list]] = None,
                audit_tables: Optional[tuple[str, str, str]] = None,
                before_commit: Optional[Callable[[], None]] = None,
                tables: Sequence[str] = ()) -> tuple[int, int, float]:
    """Write the games of ``meta`` (one row per game, :data:`META_COLUMNS`) from ``spool`` in one
    transaction; the spool's other games are left out.

    The audit's rows come
    either as Python rows (``audit_rows``: findings, ledger, corrections, see
    :data:`FINDING_COLUMNS` …) or as the names of temp tables already loaded from an
    audit's output (``audit_tables``).  The games of ``replaced`` are deleted first from
    every table of ``tables``,
    inside the transaction.  Returns events, findings, seconds
    spent loading the raw events.
    """
    spool.close()
    # the spool's games this batch leaves out (already stored unchanged): their lines are skipped
    only = " WHERE e.game IN (SELECT game FROM _meta)" if len(meta) < len(spool.spans) else ""
    try:
        with transaction(con):
            if replaced:
                for name in tables:
                    con.execute(f"DELETE FROM {name} WHERE game IN (SELECT unnest($ids))", {"ids": replaced})
            _load(con, "_meta", meta, META_COLUMNS, spool_dir)
            t0 = time.perf_counter()
            first, rest = _STAGE.split(";\n", 1)
            con.execute(first, {"path": spool.events, "marks": spool.marks})
            raw = time.perf_counter() - t0
            _run(con, rest.replace("{only}", only).replace("{only_and}", only.replace(" WHERE ", " AND ")))
            _run(con, _HANDS)
            _run(con, _HAND_PLAYERS)
            _configs(con, spool_dir)
            _chickens(con, spool_dir)
            con.execute(_GAMES, {"now": now})
            _run(con, _INSERTS)
            if audit_rows is not None:
                _load(con, "_af", audit_rows[0], FINDING_COLUMNS, spool_dir)
                _load(con, "_al", audit_rows[1], LEDGER_COLUMNS, spool_dir)
                _load(con, "_ac", audit_rows[2], CORRECTION_COLUMNS, spool_dir)
                audit_tables = ("_af", "_al", "_ac")
            if audit_tables is not None:
                f, l, c = audit_tables
                _run(con, _AUDIT_INSERTS.format(f=f, l=l, c=c))
            events = con.execute("SELECT count(*) FROM _w").fetchone()[0]
            findings = int(con.execute("SELECT coalesce(sum(findings), 0) FROM _g").fetchone()[0])
            if before_commit is not None:
                before_commit()
            _drop_stage(con)
    finally:
        _drop_stage(con)
    return events, findings, raw


#: The batch's staging tables (temporary; dropped before the commit, so the commit writes the
#: store's own tables only).
_STAGING = ("_l", "_e", "_m", "_gf", "_room", "_r", "_seg", "_cnt", "_settle", "_carry", "_h", "_wins", "_hp", "_g",
            "_meta", "_cfg", "_chk", "_want", "_af", "_al", "_ac")


def _drop_stage(con: duckdb.DuckDBPyConnection) -> None:
    try:
        con.execute("DROP VIEW IF EXISTS _w")
    except duckdb.Error:
        pass
    for t in _STAGING:
        try:
            con.execute(f"DROP TABLE IF EXISTS {t}")
        except duckdb.Error:
            pass
