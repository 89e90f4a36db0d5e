"""A batch of games into the store: rows built in Python from the decoded games, appended as Arrow.

:class:`Spool` holds one batch: for each game read, :func:`paipu.store.rows.fast_game_rows`
derives its rows (games, hands, hand_players, wins, transfers) from the events the reader
decoded, and the events table's typed columns are taken from the same events
(:mod:`paipu.store.columns`), cut into Arrow record batches as the batch grows.
:func:`write_batch` appends a batch's games in one transaction, with the audit's rows
(findings, ledger, corrections) from the audit's own result or a finished audit's output.
No event is decoded twice: DuckDB only appends columns.

Each game's rows, content hash and body hash are made in :mod:`paipu.store.rows`.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Optional, Sequence

import duckdb
import msgspec

from schema.reader import GameLog

from .rows import body_hash, fast_game_rows, game_lines, room_rules, family_or_none  # noqa: F401  (their home is rows)
from .tables import transaction

# ---------------------------------------------------------------------------
# the batch


#: Player id of a seat in a list of players by seat (NULL off the table).
def _player(players: str, seat: str) -> str:
    return f"CASE WHEN {seat} >= 0 AND {seat} < len({players}) THEN {players}[{seat} + 1] END"


#: A finished audit's rows of the batch (temp tables of findings, ledger, corrections without
#: player ids) into the store, with each seat's player id from the batch's games (``_g``).
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
                "content_hash": "VARCHAR", "body_hash": "VARCHAR", "audited": "BOOLEAN", "audit_complete": "BOOLEAN",
                "findings": "INTEGER"}


def read_sql(path: str, columns: dict[str, str]) -> str:
    """``read_json`` of a newline-delimited spool with an explicit column spec (no sampling)."""
    cols = ", ".join(f"\"{k}\": '{v}'" for k, v in columns.items())
    return (f"read_json('{_quote(path)}', format='newline_delimited', columns={{{cols}}}, "
            "auto_detect=false)")


def _quote(path: str) -> str:
    return path.replace("'", "''")


class Spool:
    """One batch's games as rows: the events table's columns in Arrow record batches, and each
    game's rows of the other tables (:class:`paipu.store.tables.GameRows`), in reading order.

    ``spans`` maps each game to its events' place in the batch (what a retry of one game
    takes, :meth:`only`)."""

    def __init__(self, spool_dir: str = "", name: str = "", keep_raw: bool = False):
        from .columns import EventColumns

        self.keep_raw = keep_raw
        self._cols = EventColumns(keep_raw)
        self.batches: list[Any] = []
        self.rows: dict[str, Any] = {}
        #: game id -> (first event, events) in the batch
        self.spans: dict[str, tuple[int, int]] = {}
        #: the workers' events taken and not yet in ``batches``: (record batch, first row, rows)
        self._pieces: list[tuple[Any, int, int]] = []
        self._at = 0

    def add_game(self, log: GameLog, content_hash: str, encoded: bytes, now: Any = None) -> Any:
        """Derive one game's rows and add them; returns its :class:`~paipu.store.tables.GameRows`."""
        rows, types, seats, hands = fast_game_rows(log, content_hash, body_hash(log.events), now)
        self._cols.add(log.game, log.events, log.lines, types, seats, hands, encoded if self.keep_raw else None)
        self.rows[log.game] = rows
        n = len(log.events)
        self.spans[log.game] = (self._at, n)
        self._at += n
        if len(self._cols) >= CHUNK_EVENTS:
            self._settle()
            self.batches.append(self._cols.take())
        return rows

    def add_built(self, game: str, rows: dict, events: tuple[Any, int, int]) -> None:
        """A game's rows a worker built (:func:`paipu.store.ingest.built_game`): each table's rows as
        tuples, the events table's columns as rows of a record batch (``events``: the batch, the
        game's first row and rows there; the consecutive games of one batch are appended as
        one slice of it)."""
        from .tables import _ROW, GameRows

        if len(self._cols):
            self._settle()
            self.batches.append(self._cols.take())
        out = GameRows()
        for table, tuples in rows.items():
            if table == "players":
                out.players = tuples
            elif table == "games":
                out.rows["games"] = [_ROW["games"](*t) for t in tuples]
            else:
                out.rows[table] = tuples
        batch, start, n = events
        out.events = n
        self.rows[game] = out
        last = self._pieces[-1] if self._pieces else None
        if last is not None and last[0] is batch and last[1] + last[2] == start:
            self._pieces[-1] = (batch, last[1], last[2] + n)
        else:
            self._pieces.append((batch, start, n))
        self.spans[game] = (self._at, n)
        self._at += n

    def _settle(self) -> None:
        """The slices of the workers' batches taken so far into :attr:`batches`, in order."""
        self.batches += [batch.slice(start, n) for batch, start, n in self._pieces]
        self._pieces = []

    def close(self) -> None:
        """Convert the columns still held as Python lists."""
        self._settle()
        if len(self._cols) or not self.batches:
            self.batches.append(self._cols.take())
            self._cols.__init__(self.keep_raw)

    def remove(self) -> None:
        """Let go of the batch's rows."""
        self.batches = []
        self._pieces = []
        self.rows = {}

    def events_table(self) -> Any:
        """The batch's events as one Arrow table (the events table's columns)."""
        import pyarrow as pa

        self.close()
        return pa.Table.from_batches(self.batches, schema=self.batches[0].schema)

    def only(self, game: str) -> "Spool":
        """A spool of this batch's one game (a batch retried game by game)."""
        one = Spool(keep_raw=self.keep_raw)
        a, n = self.spans[game]
        one.batches = [self.events_table().slice(a, n).combine_chunks().to_batches(max_chunksize=max(n, 1))[0]] \
            if n else [self.batches[0].slice(0, 0)]
        one.rows = {game: self.rows[game]}
        one.spans = {game: (0, n)}
        return one


from .columns import CHUNK_EVENTS  # noqa: E402


def _register(con: duckdb.DuckDBPyConnection, name: str, table: Any) -> None:
    con.register(name, table)


def write_batch(con: duckdb.DuckDBPyConnection, spool: Spool, meta: list[dict],
                replaced: list[str],
                spool_dir: str,
                now: Any, audit_rows: Optional[tuple[list, list, list]] = None,
                audit_tables: Optional[tuple[str, str, str]] = None,
                before_commit: Optional[Callable[[], None]] = None,
                tables: Sequence[str] = ()) -> tuple[int, int, float]:
    """Write the games of ``meta`` (one dict per game, :data:`META_COLUMNS`: the audit's flags,
    the game's problem) from ``spool`` in one transaction; the spool's other games are left out.

    The audit's rows come either from the audit's result (``audit_rows``: findings,
    ledger, corrections as dicts without player ids) or as the names of temp tables
    already loaded from an audit's output (``audit_tables``).  The games of
    ``replaced`` are deleted first from every table of ``tables``, inside the
    transaction.  Returns events, findings, seconds spent appending the events.
    """
    from .columns import rows_table
    from .tables import TABLE

    spool.close()
    games = [m["game"] for m in meta]
    only = len(games) < len(spool.rows)
    game_rows = []
    for m in meta:
        g = spool.rows[m["game"]].rows["games"][0]
        g = msgspec.structs.replace(
            g, problem=m["problem"], audited=m["audited"], audit_complete=m["audit_complete"],
            complete=bool(m["closed"] and m["problem"] is None and (m["audit_complete"] is None or m["audit_complete"])),
            findings=m["findings"], ingested_at=now)
        game_rows.append(g)
    cols = lambda t: [(c.name, c.type) for c in TABLE[t].columns]  # noqa: E731
    names = ("_ev", "_g", "_hands", "_wins", "_hp", "_tr", "_af", "_al", "_ac")
    try:
        with transaction(con):
            if replaced:
                for name in tables:
                    con.execute(f"DELETE FROM {name} WHERE game IN (SELECT unnest($ids))", {"ids": replaced})
            t0 = time.perf_counter()
            _register(con, "_ev", spool.events_table())
            if only:
                con.execute("INSERT INTO events SELECT * FROM _ev WHERE game IN (SELECT unnest($ids))",
                            {"ids": games})
            else:
                con.execute("INSERT INTO events SELECT * FROM _ev")
            raw = time.perf_counter() - t0
            _register(con, "_g", rows_table(cols("games"), game_rows))
            con.execute("INSERT INTO games SELECT * FROM _g")
            for table, name in (("hands", "_hands"), ("wins", "_wins"), ("hand_players", "_hp"),
                                ("transfers", "_tr")):
                rows = [r for g in games for r in spool.rows[g].rows[table]]
                if rows:
                    _register(con, name, rows_table(cols(table), rows))
                    con.execute(f"INSERT INTO {table} SELECT * FROM {name}")
            if audit_rows is not None:
                for name, rows, spec in (("_af", audit_rows[0], FINDING_COLUMNS), ("_al", audit_rows[1], LEDGER_COLUMNS),
                                         ("_ac", audit_rows[2], CORRECTION_COLUMNS)):
                    _register(con, name, rows_table(list(spec.items()), [tuple(r[k] for k in spec) for r in rows]))
                audit_tables = ("_af", "_al", "_ac")
            if audit_tables is not None:
                f, l, c = audit_tables
                for stmt in _AUDIT_INSERTS.format(f=f, l=l, c=c).split(";\n"):
                    if stmt.strip():
                        con.execute(stmt)
            events = sum(spool.spans[g][1] for g in games)
            findings = sum(m["findings"] or 0 for m in meta)
            if before_commit is not None:
                before_commit()
    except Exception as e:
        import pyarrow as pa

        if isinstance(e, (pa.ArrowException, OverflowError)):
            # a value the store's column cannot hold: as DuckDB's own refusal, so the batch is
            # written again one game at a time and only the game at fault is refused
            raise duckdb.ConversionException(f"Conversion Error: a value does not fit its column ({e})") from None
        raise
    finally:
        for name in names:
            try:
                con.unregister(name)
            except duckdb.Error:
                pass
    return events, findings, raw
