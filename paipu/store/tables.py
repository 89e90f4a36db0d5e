"""The store's tables: one list (:data:`TABLES`) drives the DDL, the loaders and
``docs/store.md``; opening a store (:func:`connect`), and writing games' rows in one
transaction (:func:`write_rows`), shared by the DuckDB and Parquet targets."""

from __future__ import annotations

import os
import re
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Optional

import duckdb
import msgspec

from .columns import SOURCE_ENUM, TILE_ENUM, TYPE_ENUM
from .errors import StoreError

#: Version of the table layout; stored in ``meta`` and checked on open.
STORE_VERSION = 3

# ---------------------------------------------------------------------------
# the tables: one list drives the DDL, the loaders and docs/store.md


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    doc: str
    #: how DuckDB stores the column, appended to its DDL (``USING COMPRESSION …``); empty: DuckDB chooses
    storage: str = ""


@dataclass(frozen=True)
class Table:
    name: str
    grain: str
    doc: str
    columns: tuple[Column, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)


def _t(name: str, grain: str, doc: str, *cols: tuple[str, ...]) -> Table:
    return Table(name, grain, doc, tuple(Column(*c) for c in cols))


TABLES: tuple[Table, ...] = (
    _t("games", "one row per game", "What the room was and how it ended; the key every other table joins on.",
       ("game", "VARCHAR", "game id (unique in the store)"),
       ("file", "VARCHAR", "the log file it was last ingested from"),
       ("server", "VARCHAR", "server name from GameOpened"),
       ("build", "VARCHAR", "server build from GameOpened"),
       ("preset", "VARCHAR", "ruleset preset name"),
       ("ruleset", "JSON", "the resolved ruleset (every option), NULL if the preset/options are invalid"),
       ("options", "JSON", "the options the log overrode on the preset"),
       ("players", "VARCHAR[]", "player ids by seat (after a 4→3 resize)"),
       ("seats", "INTEGER", "number of seats at the table"),
       ("creator", "INTEGER", "creator's seat"),
       ("start_points", "INTEGER", "points each player started with"),
       ("billing", "VARCHAR", "creator or aa"),
       ("fee", "INTEGER", "room fee in diamonds"),
       ("opened_at", "TIMESTAMPTZ", "time of GameOpened"),
       ("closed_at", "TIMESTAMPTZ", "time of GameClosed (NULL if never closed)"),
       ("close_reason", "VARCHAR", "hands_done, knocked_out or dissolved (NULL if never closed)"),
       ("final_scores", "INTEGER[]", "scores GameClosed reported, by seat"),
       ("hands", "INTEGER", "hands started"),
       ("events", "INTEGER", "events stored in the events table"),
       ("closed", "BOOLEAN", "the log reached GameClosed"),
       ("problem", "VARCHAR", "first unreadable line of the game, if any (later events dropped)"),
       ("audited", "BOOLEAN", "the audit ran on this game"),
       ("audit_complete", "BOOLEAN", "the audit replayed the whole game (NULL if not audited)"),
       ("complete", "BOOLEAN", "closed, no unreadable line, and (if audited) replayed to the end"),
       ("findings", "INTEGER", "audit findings stored for the game"),
       ("content_hash", "VARCHAR", "hash of the stored events: same hash, same game"),
       ("body_hash", "VARCHAR", "hash of the events without game id and times (finds duplicates under new ids)"),
       ("ingested_at", "TIMESTAMPTZ", "when this version of the game was written")),
    _t("events", "one row per event",
       "Every event as read and validated: its common fields as typed columns, the rare ones as JSON.",
       ("game", "VARCHAR", "game id"),
       ("seq", "INTEGER", "event number within the game (0, 1, 2, …)"),
       ("type", TYPE_ENUM, "event type (TileDrawn, HandWon, …)"),
       ("happened_at", "TIMESTAMPTZ", "the event's time (`at` in the log)"),
       ("hand", "INTEGER", "hand number the event belongs to (0 before the first hand)"),
       ("seat", "UTINYINT", "the event's `seat` field, if it has one"),
       ("tile", TILE_ENUM, "the event's `tile` field, if it has one"),
       ("from_seat", "UTINYINT", "the event's `from_seat` (a claim's discarder, a win's discarder or kong adder)"),
       ("kind", TILE_ENUM, "a kong's `kind` (the tile it is a kong of)"),
       ("tiles", f"{TILE_ENUM}[]", "the event's `tiles` (a meld's tiles from hand, tail or revealed tiles, birds)"),
       ("source", SOURCE_ENUM, "where a drawn, revealed or bird tile came from (`source`)"),
       ("amount", "INTEGER", "a fee's diamonds (FeeCharged, FeeRefunded) or a 养猪 bet (PigBetPlaced, `bet`)"),
       ("line", "INTEGER", "the line of the log file it was read from (the file is `games.file`)"),
       ("extra", "JSON", "the event's other fields (a deal's hands, a win's winners, a settlement's "
                         "transfers, a room's options, a claim, a seal's `prev` …) as a JSON object; "
                         "NULL when it has none"),
       # zstd: the raw JSON is the largest column when kept; DuckDB's own choice compresses it worse
       ("raw", "JSON", "the whole event as JSON, kept only by `paipu ingest --keep-raw` (else NULL)",
        "USING COMPRESSION zstd")),
    _t("hands", "one row per hand", "How each hand went and ended.",
       ("game", "VARCHAR", "game id"),
       ("hand", "INTEGER", "hand number"),
       ("dealer", "INTEGER", "dealer's seat"),
       ("seats", "INTEGER", "seats at the table"),
       ("started_seq", "INTEGER", "seq of HandStarted"),
       ("ended_seq", "INTEGER", "seq of HandWon / HandDrawn (NULL if neither)"),
       ("settled_seq", "INTEGER", "seq of HandSettled (NULL if not settled)"),
       ("started_at", "TIMESTAMPTZ", "time of HandStarted"),
       ("result", "VARCHAR", "won, drawn, or NULL (hand never ended)"),
       ("win_kind", "VARCHAR", "self_draw, discard or robbed_kong (the first win's, where a hand is won several times)"),
       ("from_seat", "INTEGER", "discarder or kong adder of a won hand (the first win's)"),
       ("winners", "INTEGER[]", "winning seats, of every win of the hand (several on 一炮多响 and 血战到底)"),
       ("fans", "VARCHAR[]", "fans awarded, all winners and wins together"),
       ("fan", "INTEGER", "highest fan total the server claimed"),
       ("points", "INTEGER", "sum over the winners of every win of the points each payer owes"),
       ("draws", "INTEGER", "tiles drawn (wall and tail)"),
       ("remaining", "INTEGER", "tiles left undrawn at the end (the set's tiles, 136 or 108, − dealt − drawn)"),
       ("reported_remaining", "INTEGER", "`remaining` as HandDrawn reported it"),
       ("kongs", "INTEGER", "kongs declared"),
       ("first_draw", "VARCHAR", "the first tile drawn from the wall after the deal"),
       ("first_draw_seq", "INTEGER", "seq of that draw"),
       ("settled", "BOOLEAN", "a HandSettled closed the hand")),
    _t("wins", "one row per winner per won hand", "Each winner as the server scored them.",
       ("game", "VARCHAR", "game id"),
       ("hand", "INTEGER", "hand number"),
       ("seq", "INTEGER", "seq of HandWon"),
       ("seat", "INTEGER", "winner's seat"),
       ("player", "VARCHAR", "winner's player id"),
       ("how", "VARCHAR", "self_draw, discard or robbed_kong"),
       ("from_seat", "INTEGER", "discarder / kong adder (NULL on self-draw)"),
       ("from_player", "VARCHAR", "their player id"),
       ("tile", "VARCHAR", "the winning tile"),
       ("fans", "VARCHAR[]", "fans awarded"),
       ("fan", "INTEGER", "fan total claimed"),
       ("points", "INTEGER", "points each payer owes before bets"),
       ("due", "INTEGER[]", "养猪 rooms: per seat, what the rule family settles that seat to pay this winner "
                            "for the logged points (win, 抢杠 and 养猪 shares; 0 for the others); NULL "
                            "where the room does not play 养猪")),
    _t("hand_players", "one row per seat per hand", "What each player did and got in each hand.",
       ("game", "VARCHAR", "game id"),
       ("hand", "INTEGER", "hand number"),
       ("seat", "INTEGER", "seat"),
       ("player", "VARCHAR", "player id"),
       ("seats", "INTEGER", "seats at the table"),
       ("is_dealer", "BOOLEAN", "dealt this hand"),
       ("score_before", "INTEGER", "score before the hand"),
       ("score_after", "INTEGER", "score HandSettled reported (NULL if not settled)"),
       ("score_change", "INTEGER", "score_after − score_before"),
       ("received", "INTEGER", "sum of transfers received"),
       ("paid", "INTEGER", "sum of transfers paid"),
       ("dianji_net", "INTEGER", "net of the 点鸡 transfers"),
       ("chickens", "INTEGER", "点鸡: chickens the seat answers for (dealt or drawn; discarded ones stay "
                               "counted), as the rule family tallies them; NULL when the room does not play 点鸡"),
       ("bet", "INTEGER", "养猪 bet (0 if none)"),
       ("draws", "INTEGER", "tiles drawn"),
       ("discards", "INTEGER", "tiles discarded"),
       ("offered", "INTEGER", "discards by the other seats while the seat was in the hand (claim opportunities; 血战到底: none after it won)"),
       ("chows", "INTEGER", "吃 made"),
       ("pongs", "INTEGER", "碰 made"),
       ("kongs_exposed", "INTEGER", "明杠 on a discard"),
       ("kongs_added", "INTEGER", "补杠"),
       ("kongs_concealed", "INTEGER", "暗杠"),
       ("claims", "INTEGER", "claims on a discard: chows + pongs + exposed kongs"),
       ("won", "BOOLEAN", "won the hand"),
       ("self_draw", "BOOLEAN", "won by self-draw"),
       ("dealt_in", "BOOLEAN", "discarded the tile another seat won on (点炮)"),
       ("robbed", "BOOLEAN", "had an added kong robbed (抢杠)"),
       ("settled_seq", "INTEGER", "seq of HandSettled"),
       ("dianji_due", "INTEGER", "点鸡: the net the rule family settles for the table's chickens (what "
                                 "dianji_net should be); NULL when the room does not play 点鸡")),
    _t("transfers", "one row per transfer", "Every point transfer, in the order the server paid it.",
       ("game", "VARCHAR", "game id"),
       ("hand", "INTEGER", "hand number"),
       ("seq", "INTEGER", "seq of HandSettled"),
       ("idx", "INTEGER", "position within the settlement (0-based)"),
       ("payer", "INTEGER", "payer's seat"),
       ("payee", "INTEGER", "payee's seat"),
       ("payer_player", "VARCHAR", "payer's player id"),
       ("payee_player", "VARCHAR", "payee's player id"),
       ("amount", "INTEGER", "points"),
       ("reason", "VARCHAR", "win, qianggang, yangzhu or dianji")),
    _t("findings", "one row per audit finding", "What the audit found (empty while the audit is unavailable).",
       ("game", "VARCHAR", "game id"),
       ("hand", "INTEGER", "hand number"),
       ("seq", "INTEGER", "seq of the event at fault"),
       ("seat", "INTEGER", "seat at fault, if any"),
       ("player", "VARCHAR", "that seat's player id"),
       ("code", "VARCHAR", "finding code (see the catalogue)"),
       ("severity", "VARCHAR", "error, warning or info"),
       ("rule", "VARCHAR", "the rule in one line"),
       ("expected", "JSON", "what the rules give"),
       ("actual", "JSON", "what the log shows"),
       ("message", "VARCHAR", "one-sentence explanation"),
       ("file", "VARCHAR", "log file"),
       ("line", "INTEGER", "log line")),
    _t("ledger", "one row per seat per settled hand",
       "The corrected ledger: each score as logged and as it should have been, every settlement "
       "recomputed by the audit and the corrections carried forward (empty while the audit is unavailable).",
       ("game", "VARCHAR", "game id"),
       ("hand", "INTEGER", "hand number"),
       ("seat", "INTEGER", "seat"),
       ("player", "VARCHAR", "player id"),
       ("logged", "INTEGER", "score after the hand as the server reported it"),
       ("corrected", "INTEGER", "score after the hand as it should have been"),
       ("gap", "INTEGER", "corrected − logged: positive, the seat has been shorted that much so far"),
       ("error", "INTEGER", "what this hand alone got wrong for the seat (the change of the gap)")),
    _t("corrections", "one row per payment that settles a game's corrections",
       "Who owes whom at the end of each game: the net corrections settled between players, "
       "largest first (empty for a game the server paid right).",
       ("game", "VARCHAR", "game id"),
       ("idx", "INTEGER", "position among the game's payments (0-based)"),
       ("debtor_seat", "INTEGER", "seat that holds too much"),
       ("debtor", "VARCHAR", "its player id"),
       ("creditor_seat", "INTEGER", "seat that was shorted"),
       ("creditor", "VARCHAR", "its player id"),
       ("amount", "INTEGER", "points the debtor owes the creditor")),
)

#: The tables' names (a replaced game's rows are deleted from each).
TABLE_NAMES: tuple[str, ...] = tuple(t.name for t in TABLES)

TABLE = {t.name: t for t in TABLES}

_META_DDL = "CREATE TABLE IF NOT EXISTS meta (key VARCHAR, value VARCHAR)"


def ddl() -> list[str]:
    """The CREATE TABLE statements of the store."""
    out = [_META_DDL]
    for t in TABLES:
        cols = ", ".join(f"{c.name} {c.type} {c.storage}".rstrip() for c in t.columns)
        out.append(f"CREATE TABLE IF NOT EXISTS {t.name} ({cols})")
    return out


def _sql_text(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def comment_ddl() -> list[str]:
    """The ``COMMENT ON`` statements that describe every table and column in the store
    itself (what ``docs/store.md`` says), so ``duckdb_tables()`` / ``duckdb_columns()`` explain them."""
    out = [f"COMMENT ON TABLE meta IS {_sql_text('The store: its layout version and the versions of paipu and DuckDB that created it and last wrote it (key, value).')}",
           f"COMMENT ON COLUMN meta.key IS {_sql_text('what the row records (store_version, paipu_version, duckdb_version, created_by_…, anomaly_checks)')}",
           f"COMMENT ON COLUMN meta.value IS {_sql_text('its value')}"]
    for t in TABLES:
        out.append(f"COMMENT ON TABLE {t.name} IS {_sql_text(f'{t.doc} Grain: {t.grain}.')}")
        out += [f"COMMENT ON COLUMN {t.name}.{c.name} IS {_sql_text(c.doc)}" for c in t.columns]
    return out


def run_once(con: duckdb.DuckDBPyConnection, key: str, statements: list[str]) -> None:
    """Run ``statements`` unless the store already ran these very ones (their digest is kept in
    ``meta`` under ``key``): catalog writes at every open would slow each ingest down."""
    import hashlib

    digest = hashlib.sha256("\n;\n".join(statements).encode()).hexdigest()[:16]
    held = con.execute("SELECT value FROM meta WHERE key = $k", {"k": key}).fetchall()
    if held and held[0][0] == digest:
        return
    for stmt in statements:
        con.execute(stmt)
    con.execute("DELETE FROM meta WHERE key = $k", {"k": key})
    con.execute("INSERT INTO meta VALUES ($k, $v)", {"k": key, "v": digest})


def _shown_type(sql: str) -> str:
    """A column's type as the docs show it (an ENUM by what it lists, not its every value)."""
    for enum, name in ((TYPE_ENUM, "ENUM of event types"), (TILE_ENUM, "ENUM of tiles"), (SOURCE_ENUM, "ENUM of sources")):
        sql = sql.replace(enum, name)
    return sql


def schema_markdown() -> str:
    """The table schema as Markdown (the body of ``docs/store.md``)."""
    lines = ["| table | grain | what it holds |", "|---|---|---|"]
    for t in TABLES:
        lines.append(f"| `{t.name}` | {t.grain} | {t.doc} |")
    for t in TABLES:
        lines += ["", f"### `{t.name}` — {t.grain}", "", "| column | type | meaning |", "|---|---|---|"]
        lines += [f"| `{c.name}` | `{_shown_type(c.type)}` | {c.doc} |" for c in t.columns]
    return "\n".join(lines) + "\n"


_ROW = {t.name: msgspec.defstruct(f"{t.name}_row", [(n, Any) for n in t.names], gc=False) for t in TABLES
        if t.name != "events"}


def _insert_sql(t: Table) -> str:
    cols = ", ".join(f"{c.name}: '{c.type}'" for c in t.columns)
    return (f"INSERT INTO {t.name} SELECT {', '.join(t.names)} FROM read_json($path, "
            f"format='newline_delimited', columns={{{cols}}})")


# ---------------------------------------------------------------------------
# opening


def connect(db: str, *, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open the store (creating its tables unless ``read_only``); a clear error if it cannot."""
    if read_only and db != ":memory:" and not os.path.exists(db):
        raise StoreError(f"no store at {db}; run `paipu ingest` first")
    new = not read_only and db != ":memory:" and not os.path.lexists(db)
    try:
        con = duckdb.connect(db, read_only=read_only)
    except duckdb.Error as e:
        text = _first_line(e)
        if _version_trouble(text):
            raise StoreError(incompatible_message(db, text)) from None
        if "lock" in text.lower():
            # DuckDB allows one writing process per file: another ingest (or a query
            # opened while it writes) holds it
            holder = re.search(r"\(PID (\d+)\)", str(e))
            who = f" (process {holder.group(1)})" if holder else ""
            raise StoreError(f"the store {db} is in use by another paipu process{who}; "
                             "wait for it to finish, then run again") from None
        raise StoreError(f"cannot open the store {db}: {text}") from None
    if not read_only:
        try:
            _create(con)
        except BaseException as e:
            con.close()
            if new:
                # all or nothing from the first write: a store this call began and could not
                # finish (an error, a Ctrl-C) is no store at all, so no empty file is left behind
                _remove_unfinished(db)
            if isinstance(e, duckdb.Error):
                raise StoreError(f"{db} is not a paipu store: {_first_line(e)}") from None
            if isinstance(e, StoreError):
                raise StoreError(f"{db}: {e}") from None
            raise
    return con


def _remove_unfinished(db: str) -> None:
    """Remove the files of a store whose creation did not finish (the database and its WAL)."""
    for f in (db, db + ".wal"):
        try:
            os.remove(f)
        except OSError:
            pass


def _version_trouble(text: str) -> bool:
    """Whether DuckDB refused a file because another DuckDB version wrote it."""
    t = text.lower()
    return "version" in t and any(w in t for w in ("database file", "storage", "serializ", "can only read"))


def incompatible_message(db: str, reason: str) -> str:
    """What to say when this DuckDB cannot open the store ``db``, and the way out."""
    return (f"the store {db} was written by a DuckDB this paipu's DuckDB {duckdb.__version__} cannot read "
            f"({reason}); with the paipu and DuckDB that wrote it (its `meta` table records both), run "
            f"`paipu export --db {db} --parquet DIR`, then here `paipu import --parquet DIR --db NEW.duckdb` "
            "(or query DIR directly: `paipu query --parquet DIR`); see docs/scale.md")


def writer_versions() -> dict[str, str]:
    """The versions of paipu and DuckDB writing now (recorded in every store)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        paipu = version("paipu")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        paipu = "unknown"
    return {"paipu_version": paipu, "duckdb_version": duckdb.__version__}


def _create(con: duckdb.DuckDBPyConnection) -> None:
    con.execute("BEGIN")
    for stmt in ddl():
        con.execute(stmt)
    rows = con.execute("SELECT value FROM meta WHERE key = 'store_version'").fetchall()
    row = rows[0] if rows else None
    if row is None:
        con.execute("INSERT INTO meta VALUES ('store_version', $v)", {"v": str(STORE_VERSION)})
        for k, v in writer_versions().items():
            con.execute("INSERT INTO meta VALUES ($k, $v)", {"k": f"created_by_{k}", "v": v})
    elif row[0] != str(STORE_VERSION):
        con.execute("ROLLBACK")
        raise StoreError(version_message(row[0]))
    # the last writer's versions: what an analyst needs to open the file again
    for k, v in writer_versions().items():
        con.execute("DELETE FROM meta WHERE key = $k", {"k": k})
        con.execute("INSERT INTO meta VALUES ($k, $v)", {"k": k, "v": v})
    # the store explains itself: every table and column carries a COMMENT, and the anomaly
    # checks live in it too (views and table macros plain duckdb runs)
    from .anomalies import install_statements

    run_once(con, "comments", comment_ddl())
    run_once(con, "anomaly_checks", install_statements())
    con.execute("COMMIT")


def version_message(held: str) -> str:
    """The one sentence refusing a store of another layout version, and how to get a store of this one."""
    if held == "1":
        return ("this store has layout version 1 (each event kept as JSON); this paipu writes version "
                f"{STORE_VERSION} (events as typed columns): ingest the logs again into a new store "
                "(`paipu ingest LOGS --db NEW.duckdb`, `--keep-raw` to keep each event's JSON too)")
    return (f"this store has layout version {held}, which this paipu (layout version {STORE_VERSION}) cannot "
            "write: ingest the logs again into a new store (`paipu ingest LOGS --db NEW.duckdb`)")


def _first_line(e: BaseException) -> str:
    return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__


_enc = msgspec.json.Encoder()


class GameRows:
    """Every row one game contributes to the store."""

    def __init__(self) -> None:
        self.rows: dict[str, list[Any]] = {t.name: [] for t in TABLES if t.name != "events"}
        #: the game's events as the events table's columns (an Arrow record batch)
        self.event_batch: Any = None
        self.events = 0
        self.players: list[str] = []


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """One transaction around the block: committed when it ends, rolled back when it raises
    (the error goes on), so a batch is written whole or not at all."""
    con.execute("BEGIN")
    try:
        yield
        con.execute("COMMIT")
    except BaseException:
        try:
            con.execute("ROLLBACK")
        except duckdb.Error:
            pass
        raise


def write_rows(con: duckdb.DuckDBPyConnection, write: list[tuple[str, GameRows]], replaced: list[str], spool_dir: str,
           before_commit: Optional[Callable[[int], None]], batch_no: int) -> tuple[int, int, float]:
    """Write games in one transaction (replacing ``replaced``); returns events, findings, load seconds."""
    with transaction(con):
        if replaced:
            for t in TABLES:
                con.execute(f"DELETE FROM {t.name} WHERE game IN (SELECT unnest($ids))", {"ids": replaced})
        events = 0
        findings = 0
        raw = 0.0
        if write:
            import pyarrow as pa

            batches = [rows.event_batch for _game, rows in write if rows.event_batch is not None]
            events = sum(rows.events for _game, rows in write)
            t0 = time.perf_counter()
            if batches:
                con.register("_ev", pa.Table.from_batches(batches))
                try:
                    con.execute("INSERT INTO events SELECT * FROM _ev")
                finally:
                    con.unregister("_ev")
            raw = time.perf_counter() - t0
            for t in TABLES:
                if t.name == "events":
                    continue
                buf = bytearray()
                for _game, rows in write:
                    if rows.rows[t.name]:
                        buf += _enc.encode_lines(rows.rows[t.name])
                if not buf:
                    continue
                path = os.path.join(spool_dir, f"{t.name}.ndjson")
                with open(path, "wb") as f:
                    f.write(buf)
                con.execute(_insert_sql(t), {"path": path})
            findings = sum(len(rows.rows["findings"]) for _g, rows in write)
        if before_commit is not None:
            before_commit(batch_no)
    return events, findings, raw
