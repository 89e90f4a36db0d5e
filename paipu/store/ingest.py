"""The history store: game logs loaded into DuckDB tables for SQL and anomaly checks.

:func:`ingest` streams games out of logs (through :class:`schema.reader.LogReader`,
so every line is decoded and validated the way the rest of paipu reads it), runs
the audit on each game when :mod:`audits.audit` is available, and writes, per
game, the raw events and the derived tables described in :data:`TABLES` (and in
``docs/store.md``, generated from the same data).

Guarantees:

* **Idempotent.** Every game carries a content hash of its events; re-ingesting
  a game with the same hash changes nothing.  A game whose content changed is
  replaced (all its rows, in every table) and reported.
* **All or nothing.** Games are written in batches, each batch one transaction:
  an interrupted ingest leaves the store as it was after the last whole batch.
* **Bounded memory.** Games are streamed; a batch's rows wait as Arrow columns
  (:mod:`paipu.store.columns`) and are appended to DuckDB in one transaction.  An
  ingest writing its own store limits DuckDB's memory (:data:`INGEST_MEMORY`),
  spilling into the spool folder.
* **Workers write their own share.** With ``jobs > 1`` or a cluster, each worker
  reads its part of the logs, audits and builds its games' rows
  (:func:`built_game`); this process only appends them, in input order.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, NamedTuple, Optional, Sequence

import duckdb
import msgspec

from schema.collector import few_collections
from schema.reader import GameLog, LogReader

from .derive import META_COLUMNS, Spool, write_batch
from .rows import _record_audit, add_audit, body_hash, fast_game_rows, game_lines, game_rows
from .scratch import make as make_scratch, remove as remove_scratch, sweep as sweep_scratch
from .errors import StoreError, interrupted
from .tables import (TABLE_NAMES, TABLES, GameRows, _first_line, connect, ddl, incompatible_message,
                     schema_markdown, writer_versions, write_rows as _write)

#: Default database file (in the working folder).
DEFAULT_DB = "paipu.duckdb"

#: Games per batch are cut when this many events are waiting (one transaction each).
DEFAULT_BATCH_EVENTS = 250_000
#: ... or when this many games are waiting, whatever their events: a batch's staging grows
#: with its games too (each game row carries its ruleset), and past the ingest's memory
#: limit DuckDB spills and crawls (100,000 two-event games in one batch did not finish in
#: 600 s; in batches of 5,000 they take seconds, bench/run.py ``--small-games``).
DEFAULT_BATCH_GAMES = 5_000

#: DuckDB's memory limit while an ingest writes its own store: past it DuckDB writes
#: temporary blocks to the spool folder, so the ingest's peak memory stays bounded
#: whatever the input's size.  The ingest stages nothing in DuckDB (it appends Arrow
#: batches), so a low limit costs no time: peak RSS ingesting a 300 MB log 328 MB at 96 MB,
#: 308 MB at 64 MB, 282 MB at 48 MB, in the same time (and 100,000 two-event games as fast).
INGEST_MEMORY = "48MB"
#: ... and where the workers build the rows (``--jobs N``, ``--cluster``): when a batch arrived
#: as one small record batch per game, appending hundreds of them under 48 MB made the ingest
#: of a 40 MB log 20% slower (52 and 50 s against 43 and 39 s, alternating runs); a worker's
#: games now share one record batch (:class:`~paipu.store.columns.EventGroup`), not re-measured.
INGEST_MEMORY_BUILT = "96MB"


def _open_target(parquet: Optional[str], con: Any, db: str, own: bool) -> tuple[Any, Any, str]:
    """Where an ingest writes: a Parquet dataset (its spool in a temporary folder) or the
    DuckDB store (opened here when the caller gave no connection): (target, con, db)."""
    if parquet is not None:
        from .parquet import ParquetTarget

        return ParquetTarget(parquet), con, ":memory:"
    if own:
        con = connect(db)
    return _DuckTarget(con), con, db


def _release(pool: Optional["_StreamAuditor"], spool_dir: Optional[str], con: Any, target: Any) -> None:
    """At the end of an ingest, whatever happened: stop the audit workers (``pool``), remove the
    spool, close the store the ingest opened (``con``) and the Parquet target."""
    if pool is not None:
        pool.close()
    if spool_dir is not None:
        remove_scratch(spool_dir)
    if con is not None:
        con.close()
    if target is not None:
        target.close()


def _read_before(report: "IngestReport", seen: dict[str, tuple[str, str]], log: GameLog,
                 content_hash: str) -> bool:
    """Whether this run already read a game of this id (then this copy is skipped: counted
    unchanged when its content is the same, refused when it differs)."""
    prior = seen.get(log.game)
    if prior is None:
        seen[log.game] = (content_hash, log.file)
        return False
    if prior[0] == content_hash:
        report.unchanged += 1
    else:
        where = "earlier in the same file" if prior[1] == log.file else f"from {prior[1]}"
        report.refused.append(
            f"game {log.game} in {log.file}: the id was already read {where} in this run with other "
            "content; this copy was not stored (ingest it on its own to replace the stored one)")
    return True


def _usable(report: "IngestReport", game: Any) -> bool:
    """Whether a worker's game (:class:`BuiltGame`) can be stored; if not, it is refused with why:
    paipu could not derive its rows, or no worker could audit it (the audit's own result then)."""
    if isinstance(game, BuiltGame):
        game.settle()
        if game.broken is None:
            return True
    why = (f"paipu could not derive its rows (internal error {game.broken})" if isinstance(game, BuiltGame) else
           "no worker could audit it (" + "; ".join(f.message for f in getattr(game, "findings", ())) + ")")
    report.refused.append(f"game {game.game} in {game.file}: {why}; please report it")
    report.internal_errors += 1
    return False


def _not_derived(report: "IngestReport", log: GameLog, x: BaseException) -> None:
    """A game whose rows paipu failed to derive (a bug in paipu): said, counted, skipped."""
    report.refused.append(f"game {log.game} in {log.file}: paipu could not derive its rows "
                          f"(internal error {type(x).__name__}: {x}); please report it")
    report.internal_errors += 1



def _safe_audit(log: GameLog) -> tuple[Any, Optional[str]]:
    """Worker-process entry: the audit's result, or why it failed."""
    from audits.audit import audit_game  # type: ignore[import-not-found]

    try:
        return audit_game(log), None
    except Exception as x:
        return None, f"{type(x).__name__}: {x}"


# ---------------------------------------------------------------------------
# ingest


@dataclass
class IngestReport:
    """What one ingest did."""

    games_read: int = 0
    added: int = 0
    unchanged: int = 0
    #: Ids of games whose content changed and were replaced.
    replaced: list[str] = field(default_factory=list)
    #: Games read but not written, each with why (one sentence): a game id seen
    #: twice in one run with different content, or a game the store could not take.
    #: Every game read is counted once: read = added + replaced + unchanged + refused.
    refused: list[str] = field(default_factory=list)
    #: Games refused because of a bug in paipu (counted among ``refused`` too): the
    #: command exits 3 after storing every other game.
    internal_errors: int = 0
    #: Ids of games stored whose audit hit an internal error in paipu (an ``INTERNAL_ERROR``
    #: finding, or an audit that failed): stored with it, and the command exits 3.
    audit_internal_errors: list[str] = field(default_factory=list)
    events: int = 0
    findings: int = 0
    batches: int = 0
    #: Lines that belong to no game (unreadable files, lines without a game id).
    orphans: list[str] = field(default_factory=list)
    audited: bool = False
    audit_note: str = ""
    seconds: float = 0.0
    #: Seconds spent loading the raw events table (the DuckDB INSERT of the spool).
    raw_seconds: float = 0.0

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds if self.seconds > 0 else 0.0

    @property
    def raw_events_per_second(self) -> float:
        return self.events / self.raw_seconds if self.raw_seconds > 0 else 0.0


def load_auditor() -> tuple[Optional[Callable[[GameLog], Any]], str]:
    """``audits.audit.audit_game`` if it can be imported, else ``None`` and why not."""
    try:
        from audits.audit import audit_game  # type: ignore[import-not-found]
    except Exception as e:  # missing or mid-edit: ingest without findings
        return None, f"audit unavailable ({type(e).__name__}: {e}); ingested without findings"
    return audit_game, ""


class _ClusterAuditor:
    """Audits a batch's games as tasks on a Dask cluster (``ingest --cluster`` of standard
    input, which the workers cannot read themselves; files go as byte ranges, :class:`_StreamAuditor`).

    The batch is cut into chunks of games; each chunk is one task, so a worker
    that dies has its chunks run again elsewhere by the scheduler, and results
    come back in the batch's order: no game lost or audited twice into the store.
    """

    def __init__(self, client: Any):
        self.client = client

    def map(self, logs: list[GameLog]) -> list[tuple[Any, Optional[str]]]:
        workers = max(1, len(self.client.scheduler_info().get("workers", {})))
        size = max(1, len(logs) // (4 * workers))
        chunks = [logs[i:i + size] for i in range(0, len(logs), size)]
        futures = self.client.map(_safe_audit_chunk, chunks, pure=False)
        try:
            parts = self.client.gather(futures)
        except Exception as e:  # the cluster gave up (e.g. workers kept dying): this batch is not written
            raise StoreError(f"the Dask cluster could not audit a batch ({type(e).__name__}: "
                             f"{str(e).splitlines()[0] if str(e) else ''}); the batches before it are stored, "
                             "run the ingest again to add the rest") from None
        return [r for part in parts for r in part]


class _StreamAuditor:
    """Audits the ingest's games where the input is read again by the workers themselves:
    ``jobs`` worker processes (:func:`audits.parallel.audit_parallel`), or the workers of a
    Dask cluster given byte ranges of the files as tasks (:class:`audits.cluster.ClusterAudit`,
    as ``audit --cluster`` does).  No decoded game crosses a process boundary, only the
    results come back, in the order the ingest reads the games; this process only derives
    and merges the rows.

    The workers start here, when it is made: before the ingest opens its store, so local
    ones are forked from a process that holds no DuckDB threads (``spawn`` where a caller's
    connection is already open, ``start_method``).  A batch takes the results of its own
    games; the results of games the ingest skips (unchanged, read twice) are let go."""

    def __init__(self, paths: Sequence[str], jobs: int, start_method: Optional[str], cluster: Any = None,
                 build: Optional[Callable[[GameLog], Any]] = None):
        self.cluster = cluster is not None
        #: the problems that name no game (complete once the results are all taken)
        self.orphans: list[Any] = []
        #: with ``build``, each worker audits a game and builds its rows (:func:`built_game`), and
        #: the ingest takes its games from :meth:`games` instead of reading the logs itself
        self.build = build
        #: the workers run on this machine (``--jobs N``, or a cluster's workers all here, ``local:N``)
        self.here = not self.cluster or _all_here(cluster)
        if self.cluster:
            from audits.cluster import ClusterAudit  # type: ignore[import-not-found]

            # the first tasks go out now: the workers audit while the ingest opens its store
            try:
                self._results = ClusterAudit(paths, cluster, self.orphans, audit=build)
            except Exception as e:  # the cluster cannot take the work: nothing is written
                raise StoreError(_cluster_failed(e, "start the audit")) from None
        else:
            from audits.parallel import audit_parallel  # type: ignore[import-not-found]

            self._results = audit_parallel(paths, jobs, self.orphans, start_method=start_method, audit=build)
        self._ahead: Any = None if build is not None else self._next()

    def games(self) -> Any:
        """Each game's :class:`BuiltGame` (or, for a game no worker could audit, the audit's own
        result saying why), in input order."""
        while True:
            item = self._next()
            if item is None:
                return
            yield item

    def _next(self) -> Any:
        if not self.cluster:
            return next(self._results, None)
        try:
            return next(self._results, None)
        except Exception as e:  # the cluster gave up (e.g. workers kept dying): this batch is not written
            raise StoreError(_cluster_failed(e, "audit a batch") + "; the batches before it are stored, "
                             "run the ingest again to add the rest") from None

    def map(self, logs: list[GameLog]) -> list[tuple[Any, Optional[str]]]:
        out: list[tuple[Any, Optional[str]]] = []
        for log in logs:
            while self._ahead is not None and (self._ahead.game, self._ahead.file) != (log.game, log.file):
                self._ahead = self._next()
            if self._ahead is None:  # cannot happen while both read the same files the same way
                out.append((None, "the parallel audit gave no result for this game"))
                continue
            out.append((self._ahead, None))
            self._ahead = self._next()
        return out

    def close(self) -> None:
        """Stop the workers (the results not taken are let go)."""
        self._results.close()


def _cluster_failed(e: BaseException, what: str) -> str:
    """Why the Dask cluster could not do ``what``, in one line."""
    return f"the Dask cluster could not {what} ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''})"


def _all_here(client: Any) -> bool:
    """Whether every worker of the Dask ``client``'s cluster runs on this machine."""
    import socket

    here = {"127.0.0.1", "localhost", "::1"}
    try:
        here.add(socket.gethostbyname(socket.gethostname()))
        workers = client.scheduler_info().get("workers", {})
    except Exception:  # no word from the scheduler: take them as elsewhere
        return False
    return bool(workers) and all(w.get("host") in here for w in workers.values())


def _stream_auditor(auditor: Any, paths: Sequence[str], jobs: int, cluster: Any,
                    con: Optional[duckdb.DuckDBPyConnection],
                    build: Optional[Callable[[GameLog], Any]] = None) -> Optional[_StreamAuditor]:
    """The audit workers of ``ingest --jobs N`` (N > 1) or ``ingest --cluster``, the audit on,
    started now: before the store opens (``fork``), or with ``spawn`` where the caller's
    connection ``con`` is open already.  None with stdin among the paths (it can be read
    once only: the audit then runs in the ingest itself, or ships its games to the cluster)."""
    if auditor is None or "-" in paths or (cluster is None and jobs <= 1):
        return None
    return _StreamAuditor(paths, jobs, None if con is None else "spawn", cluster, build)


def _start(auditor: Any, paths: Sequence[str], jobs: int, cluster: Any, parquet: Optional[str],
           con: Optional[duckdb.DuckDBPyConnection], db: str, own: bool,
           build: Optional[Callable[[GameLog], Any]] = None) -> tuple[Any, Any, Any, str]:
    """The audit workers (:func:`_stream_auditor`, or None), then the target the ingest writes
    to (:func:`_open_target`): (workers, target, connection, store path)."""
    pool = _stream_auditor(auditor, paths, jobs, cluster, con, build)
    try:
        return (pool, *_open_target(parquet, con, db, own))
    except BaseException:
        _release(pool, None, None, None)
        raise


class BuiltGame(msgspec.Struct, gc=False):
    """One game audited and made into rows by a worker (:func:`built_game`): what the ingest
    appends, with nothing decoded in it (the events table's columns are rows of a record
    batch the worker's consecutive games share, :class:`~paipu.store.columns.EventGroup`;
    every other table's rows tuples)."""

    game: str
    file: str
    #: the audit's result, or why it failed
    audit: Any = None
    failure: Optional[str] = None
    #: why paipu could not derive the game's rows (a bug in paipu), else None
    broken: Optional[str] = None
    content_hash: str = ""
    meta: dict = {}
    rows: dict = {}
    #: the group holding the game's events, and the game's slot in it
    events: Any = None
    slot: int = 0
    n_events: int = 0

    def event_rows(self) -> tuple[Any, int, int]:
        """The record batch holding the game's events, their first row and how many."""
        start, n = self.events.spans[self.slot]
        return self.events.batch(), start, n

    def settle(self) -> None:
        """Take the group's word on the game's events: a game whose columns Arrow refused is broken."""
        if self.broken is None and self.events is not None:
            self.events.batch()
            why = self.events.broken[self.slot]
            if why is not None:
                self.broken = why


#: The group each worker thread adds the events of the games it builds to (:func:`_grouped`), as ``.group``.
_OPEN = threading.local()


def _grouped(log: GameLog, types: list, seats: list, hands: list, lines: Optional[bytes],
             keep_raw: bool) -> tuple[Any, int]:
    """Add a game's events to this thread's open group (a new one once it is sent or sealed,
    holds :data:`~paipu.store.columns.CHUNK_EVENTS` events, or keeps the raw lines otherwise):
    (group, slot)."""
    from .columns import CHUNK_EVENTS, EventGroup

    group = getattr(_OPEN, "group", None)
    if group is not None and group.keep_raw == keep_raw and len(group) < CHUNK_EVENTS:
        slot = group.add(log.game, log.events, log.lines, types, seats, hands, lines)
        if slot is not None:
            return group, slot
    group = _OPEN.group = EventGroup(keep_raw)
    return group, group.add(log.game, log.events, log.lines, types, seats, hands, lines)


def seal_open_group() -> None:
    """Make this thread's open group's record batch now, and start the next game in a new group."""
    group = getattr(_OPEN, "group", None)
    _OPEN.group = None
    if group is not None:
        group.batch()


class GameBuilder:
    """What the workers of ``ingest --jobs N`` and ``--cluster`` run on each game they read:
    :func:`built_game`.  A cluster task calls :meth:`finish` at its end
    (:func:`audits.cluster.audit_span`): its games' events then travel as record batches of
    its own, made in the task, since Dask sends a task's result whenever the client asks,
    while the worker goes on with the next task (a group still open then would take that
    task's games too, and be sent again with them)."""

    def __init__(self, keep_raw: bool = False):
        self.keep_raw = keep_raw

    def __call__(self, log: GameLog) -> "BuiltGame":
        return built_game(log, self.keep_raw)

    def finish(self) -> None:
        """The end of a task: seal the group its games are in (:func:`seal_open_group`)."""
        seal_open_group()


def built_game(log: GameLog, keep_raw: bool = False) -> BuiltGame:
    """A worker's part of ``ingest --jobs N`` and ``--cluster``: audit one game it read and build
    its rows (:func:`fast_game_rows`, :mod:`paipu.store.columns`), so the ingest only appends them."""
    result, failure = _safe_audit(log)
    try:
        content_hash, lines = game_lines(log)
        rows, types, seats, hands = fast_game_rows(log, content_hash, body_hash(log.events), None)
        group, slot = _grouped(log, types, seats, hands, lines if keep_raw else None, keep_raw)
    except Exception as x:  # a bug in paipu: the ingest says so and keeps the other games
        return BuiltGame(log.game, log.file, broken=f"{type(x).__name__}: {x}")
    astuple = msgspec.structs.astuple
    table_rows = {t: [astuple(r) for r in rs] for t, rs in rows.rows.items() if rs}
    table_rows["players"] = rows.players
    return BuiltGame(log.game, log.file, result, failure, None, content_hash, _meta(log, content_hash, rows),
                     table_rows, group, slot, len(log.events))


def _safe_audit_chunk(logs: list[GameLog]) -> list[tuple[Any, Optional[str]]]:
    """Cluster-task entry: :func:`_safe_audit` over a chunk of games."""
    return [_safe_audit(log) for log in logs]


class _Batch:
    def __init__(self) -> None:
        self.games: dict[str, tuple[str, GameRows, GameLog]] = {}
        self.events = 0

    def add(self, game: str, content_hash: str, rows: GameRows, log: GameLog) -> None:
        old = self.games.pop(game, None)
        if old is not None:
            self.events -= old[1].events
        self.games[game] = (content_hash, rows, log)
        self.events += rows.events


#: Spool folders are named ``.<store file name>.ingest-<pid>-<random>`` beside the store.
SPOOL_MARK = ".ingest-"


def spool_prefix(db: str) -> str:
    """The path prefix of the spool folders of the store ``db`` (beside it, hidden)."""
    folder, name = os.path.split(os.path.abspath(db))
    return os.path.join(folder, f".{name}{SPOOL_MARK}")


def sweep_spools(db: str) -> int:
    """Remove spool folders left beside ``db`` by killed ingests; returns how many.

    Call only while holding the store's write lock (an open read-write
    connection): then no other ingest of this store is running.
    """
    prefix = spool_prefix(db)
    folder, start = os.path.split(prefix)
    swept = 0
    try:
        names = os.listdir(folder)
    except OSError:
        return 0
    own = f"{start}{os.getpid()}-"
    for n in names:
        # with the lock held, a spool of another process is a dead ingest's (this
        # process's own are in use by another connection of it)
        if n.startswith(start) and not n.startswith(own) and os.path.isdir(os.path.join(folder, n)):
            shutil.rmtree(os.path.join(folder, n), ignore_errors=True)
            swept += 1
    return swept


def _bound_memory(con: duckdb.DuckDBPyConnection, spool_dir: str, built: bool = False,
                  workers_here: bool = False) -> None:
    """Bound DuckDB's memory for the ingest (:data:`INGEST_MEMORY`, or :data:`INGEST_MEMORY_BUILT`
    where workers ``built`` the rows), spilling into ``spool_dir`` (removed with the spool at
    the end, swept after a killed ingest)."""
    con.execute("SET memory_limit = $m", {"m": INGEST_MEMORY_BUILT if built else INGEST_MEMORY})
    con.execute("SET temp_directory = $d", {"d": spool_dir})
    # the ingest reports its own progress (on stderr, to a terminal only); DuckDB's bar would go to stdout
    con.execute("SET enable_progress_bar = false")
    if workers_here:
        # local workers (``--jobs N``, ``--cluster local:N``) take the cores: a second DuckDB thread only contends with them (the
        # parent's CPU for a 40 MB log 1.23 s against 1.38 s with DuckDB's default of 2)
        con.execute("SET threads = 1")


def _make_spool(db: str) -> str:
    """The ingest's spool folder: beside the store, or (a Parquet dataset, ``:memory:``) a
    locked folder in ``$TMPDIR`` (:mod:`paipu.store.scratch`), after sweeping those of
    killed ingests."""
    if db == ":memory:":
        sweep_scratch()
        return make_scratch("ingest")
    prefix = spool_prefix(db)
    folder, start = os.path.split(prefix)
    return tempfile.mkdtemp(prefix=f"{start}{os.getpid()}-", dir=folder)


def ingest(paths: Sequence[str], db: str = DEFAULT_DB, *, audit: bool = True, jobs: int = 1,
           batch_events: int = DEFAULT_BATCH_EVENTS, batch_games: int = DEFAULT_BATCH_GAMES,
           progress: Optional[Callable[[IngestReport], None]] = None,
           before_commit: Optional[Callable[[int], None]] = None,
           con: Optional[duckdb.DuckDBPyConnection] = None, parquet: Optional[str] = None,
           cluster: Any = None, audit_output: Optional[str] = None, engine: str = "sql",
           keep_raw: bool = False) -> IngestReport:
    """Load the games of ``paths`` into the store ``db``; see the module docs for the guarantees.

    Every game read is counted once in the report: added, replaced, unchanged or
    refused (with why).  A game id read twice in one run is kept once: a second
    copy with the same content counts as unchanged, one with other content is
    refused (the first one read wins), never dropped silently.

    The spool folder lives beside the store (``.<name>.ingest-…``); folders left
    by killed ingests are swept when the next ingest has the store's lock.

    ``before_commit(batch_number)`` runs inside each batch's transaction just
    before it commits (a test hook: raising there rolls the batch back).  A batch is
    cut at ``batch_events`` events or ``batch_games`` games, whichever comes first.
    ``jobs > 1`` runs the audit in that many worker processes that read their own
    share of the logs (:func:`audits.parallel.audit_parallel`; no decoded game is sent
    to them), started before the store opens; they are started with ``spawn`` where
    ``con`` is given (a script calling this then needs the usual
    ``if __name__ == "__main__":`` guard).  With stdin (``-``) among the paths the audit
    runs in this process.

    ``parquet`` (a folder or fsspec URL) writes the Parquet dataset of
    :mod:`paipu.store.parquet` instead of the DuckDB file ``db``, with the same
    batches, counts and guarantees.

    ``cluster`` (a ``distributed.Client``) runs the audit of each batch as tasks
    on that Dask cluster instead (``jobs`` is then ignored); the rows are still
    derived and written here, batch by batch, so the store's guarantees hold.

    ``audit_output`` (a file ``paipu audit --format json`` wrote for these logs)
    stores that audit's findings and ledger instead of running the audit here; an
    output made from other content of the logs is refused (:class:`StoreError`).

    ``engine="sql"`` (the default; the name is kept from when DuckDB derived the rows)
    builds each batch's rows from the decoded games and appends them to DuckDB as Arrow
    columns (:mod:`paipu.store.derive`, :mod:`paipu.store.columns`); ``engine="python"``
    derives them event by event instead (:func:`game_rows`, the reference the tests hold
    the batched derivation to, table by table).
    """
    if engine not in ("sql", "python"):
        raise ValueError(f"engine must be 'sql' or 'python', not {engine!r}")
    if engine == "sql":
        return _ingest_sql(paths, db, audit=audit, jobs=jobs, batch_events=batch_events, batch_games=batch_games,
                           progress=progress,
                           before_commit=before_commit, con=con, audit_output=audit_output, parquet=parquet,
                           cluster=cluster, keep_raw=keep_raw)
    if audit_output is not None:
        raise StoreError("--audit-output needs the batched derivation (engine='sql')")
    report = IngestReport()
    auditor, note = load_auditor() if audit else (None, "")
    report.audited, report.audit_note = auditor is not None, note
    own = con is None and parquet is None
    pool, target, con, db = _start(auditor, paths, jobs, cluster, parquet, con, db, own)
    auditor = pool or auditor
    started = time.perf_counter()
    reader = LogReader(paths)
    spool_dir = None
    # game id -> (content hash, file) of every game read in this run
    seen: dict[str, tuple[str, str]] = {}
    try:
        if db != ":memory:":
            sweep_spools(db)
        spool_dir = _make_spool(db)
        batch = _Batch()
        if pool is None and auditor is not None and cluster is not None:  # stdin: games go to the cluster
            auditor = _ClusterAuditor(cluster)
        for log in reader.games():
            report.games_read += 1
            # rows and hash first; the audit runs only for games that will be written
            try:
                content_hash, rows = game_rows(log, None, datetime.now(timezone.utc))
            except Exception as x:  # a bug in paipu: count it, say so, keep the other games
                _not_derived(report, log, x)
                continue
            if _read_before(report, seen, log, content_hash):
                continue
            batch.add(log.game, content_hash, rows, log)
            if batch.events >= batch_events or len(batch.games) >= batch_games:
                _flush(target, batch, report, spool_dir, auditor, before_commit)
                batch = _Batch()
                if progress:
                    progress(report)
        if batch.games:
            _flush(target, batch, report, spool_dir, auditor, before_commit)
        report.orphans = [str(p) for p in reader.orphans]
    finally:
        _release(pool, spool_dir, con if own else None, target if parquet is not None else None)
    report.seconds = time.perf_counter() - started
    if progress:
        progress(report)
    return report


class _DuckTarget:
    """Where :func:`ingest` writes by default: the DuckDB store behind ``con``."""

    def __init__(self, con: duckdb.DuckDBPyConnection):
        self.con = con

    def known(self, ids: list[str]) -> dict[str, str]:
        """Content hash of each of ``ids`` already stored."""
        return dict(self.con.execute(
            "SELECT game, content_hash FROM games WHERE game IN (SELECT unnest($ids))", {"ids": ids}).fetchall())

    def write(self, write: list[tuple[str, GameRows]], replaced: list[str], spool_dir: str,
              before_commit: Optional[Callable[[int], None]], batch_no: int) -> tuple[int, int, float]:
        return _write(self.con, write, replaced, spool_dir, before_commit, batch_no)

    def sql_connection(self) -> duckdb.DuckDBPyConnection:
        """The connection the batches are written through (an audit output's temp tables live there)."""
        return self.con

    def interrupt(self) -> None:
        """Stop the statement the store's connection is running (Ctrl-C, :meth:`_Writer.stop`)."""
        self.con.interrupt()

    def write_sql(self, spool: Spool, metas: list[dict], replaced: list[str], spool_dir: str, now: Any,
                  audit_rows: Any, audit_tables: Any, hook: Optional[Callable[[], None]]) -> tuple[int, int, float]:
        """One batch in one transaction (see :func:`paipu.store.write_batch`)."""
        return write_batch(self.con, spool, metas, replaced, spool_dir, now, audit_rows=audit_rows,
                                  audit_tables=audit_tables, before_commit=hook, tables=TABLE_NAMES)


def _flush(target: Any, batch: _Batch, report: IngestReport, spool_dir: str,
           auditor: Optional[Callable[[GameLog], Any]], before_commit: Optional[Callable[[int], None]]) -> None:
    """Write one batch in one transaction: skip unchanged games, replace changed ones.

    If the store rejects the batch (a value DuckDB cannot hold), the batch is
    rolled back and its games are written one per transaction, so only the
    game at fault is refused (with why) and every other game is stored.
    """
    ids = list(batch.games)
    known = target.known(ids)
    write: list[tuple[str, GameRows]] = []
    replaced: list[str] = []
    unchanged = 0
    logs: list[GameLog] = []
    for game, (h, rows, log) in batch.games.items():
        old = known.get(game)
        if old == h:
            unchanged += 1
            continue
        if old is not None:
            replaced.append(game)
        write.append((game, rows))
        logs.append(log)
    if isinstance(auditor, (_StreamAuditor, _ClusterAuditor)):
        for log, (_game, rows), (result, failure) in zip(logs, write, auditor.map(logs)):
            _record_audit(log, rows, result, failure)
            _note_internal(report, log.game, result, failure)
    elif auditor is not None:
        for log, (_game, rows) in zip(logs, write):
            add_audit(log, rows, auditor)
            g = rows.rows["games"][0]
            if g.problem is not None and "audit failed: " in g.problem or \
                    any(f.code == INTERNAL_ERROR for f in rows.rows["findings"]):
                report.audit_internal_errors.append(log.game)
    report.unchanged += unchanged
    try:
        events, findings, raw = target.write(write, replaced, spool_dir, before_commit, report.batches + 1)
    except duckdb.Error as e:
        if isinstance(e, duckdb.InterruptException) or not write:
            raise
        # one game the store cannot take must not cost the others: one transaction each
        for game, rows in write:
            try:
                ev_n, f_n, r_s = target.write([(game, rows)], [game] if game in replaced else [], spool_dir,
                                              None, report.batches + 1)
            except duckdb.Error as x:
                if isinstance(x, duckdb.InterruptException):
                    raise
                report.refused.append(f"game {game} in {rows.rows['games'][0].file}: the store could not take "
                                      f"it ({_store_reason(x, spool_dir)}); nothing of it was written")
                continue
            report.batches += 1
            _count(report, 1, [game] if game in replaced else [], ev_n, f_n, r_s)
        return
    report.batches += 1
    _count(report, len(write), replaced, events, findings, raw)


#: The finding code of paipu's own failure on a game (``audits.catalogue``).
INTERNAL_ERROR = "INTERNAL_ERROR"


def _note_internal(report: IngestReport, game: str, result: Any, failure: Optional[str]) -> None:
    """Count a game whose audit failed or found paipu's own failure (exit 3)."""
    if failure is not None or any(f.code == INTERNAL_ERROR for f in getattr(result, "findings", ())):
        report.audit_internal_errors.append(game)


def _count(report: IngestReport, written: int, replaced: list[str], events: int, findings: int, raw: float) -> None:
    report.added += written - len(replaced)
    report.replaced += replaced
    report.events += events
    report.findings += findings
    report.raw_seconds += raw


def _store_reason(e: BaseException, spool_dir: str) -> str:
    """DuckDB's reason in one line, without the spool's temporary paths."""
    text = _first_line(e).replace(spool_dir + os.sep, "").replace(spool_dir, "the spool")
    return text if len(text) <= 300 else text[:300] + "…"


# ---------------------------------------------------------------------------
# the SQL path (a DuckDB store): DuckDB reads the games' JSON lines and derives the tables


class _SqlBatch:
    """One batch of games waiting to be written: their rows (:class:`Spool`), hashes, game-row
    facts and (when the audit runs here) their logs."""

    def __init__(self, spool_dir: str, number: int, keep_raw: bool = False) -> None:
        self.games: dict[str, tuple[str, dict, Optional[GameLog]]] = {}
        #: the games workers audited and built, by id (their audit's result inside)
        self.built: dict[str, BuiltGame] = {}
        self.events = 0
        self.spool = Spool(spool_dir, f"batch-{number}", keep_raw)

    def add(self, game: str, content_hash: str, lines: bytes, log: GameLog, keep_log: bool) -> None:
        rows = self.spool.add_game(log, content_hash, lines)
        self.games[game] = (content_hash, _meta(log, content_hash, rows), log if keep_log else None)
        self.events += len(log.events)

    def add_built(self, game: "BuiltGame") -> None:
        """A game a worker audited and made into rows (:func:`built_game`)."""
        self.spool.add_built(game.game, game.rows, game.event_rows())
        self.games[game.game] = (game.content_hash, dict(game.meta), None)
        self.built[game.game] = game
        self.events += game.n_events


class _Writer:
    """Writes batches on a thread of its own, one after another, while the next batch is read.

    DuckDB releases the GIL while it parses and derives, so reading and validating
    the logs (Python) and loading the previous batch (DuckDB) overlap.  Batches are
    written in order, each in its own transaction; at most one waits in the queue.
    An error in the writer is raised in the reading thread at the next hand-over or
    at :meth:`finish`.  ``interrupt`` stops the statement the writer's connection is
    running (:meth:`stop`).
    """

    def __init__(self, write: Callable[[Any], None], interrupt: Optional[Callable[[], None]] = None):
        import queue
        import threading

        self._write = write
        self._interrupt = interrupt
        self._queue: Any = queue.Queue(maxsize=1)
        self._error: Optional[BaseException] = None
        self._stopped = False
        # set when the thread ends: waited on instead of Thread.join, which a Ctrl-C can leave
        # saying the thread ended while it still runs (CPython 3.11's _wait_for_tstate_lock)
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="paipu-ingest-writer", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            while True:
                batch = self._queue.get()
                if batch is None:
                    return
                if self._error is None and not self._stopped:
                    try:
                        self._write(batch)
                    except BaseException as e:  # handed to the reading thread
                        self._error = e
        finally:
            self._done.set()

    def put(self, batch: _SqlBatch) -> None:
        """Queue a batch (waits while the writer is one batch behind)."""
        self._raise()
        self._queue.put(batch)

    def finish(self) -> None:
        """Wait for every queued batch to be written; raise the writer's error, if any."""
        self._queue.put(None)
        self._done.wait()
        self._raise()

    def stop(self) -> None:
        """Ctrl-C in the reading thread: the statement being written is interrupted (its batch's
        transaction rolls back), the batch queued is dropped, and this returns only once the
        thread has let go of the store, so the store is never closed under a running statement
        (DuckDB refuses that, or aborts the process).  A Ctrl-C while it waits interrupts again."""
        import queue

        self._stopped = True
        ended = False  # the end mark is queued
        while not self._done.is_set():
            try:
                if self._interrupt is not None:
                    self._interrupt()
                if not ended:
                    try:
                        self._queue.put_nowait(None)
                        ended = True
                    except queue.Full:  # the writer takes the batch waiting (and drops it) first
                        pass
                self._done.wait(0.05)
            except KeyboardInterrupt:
                continue

    def wind_up(self, failing: BaseException) -> None:
        """The writer at the end of an ingest that stopped on ``failing``: after an error, the
        batches handed over are written (the first error is the one raised, a later one of the
        writer's is let go); after Ctrl-C (:func:`~paipu.store.errors.interrupted`, or any other ``BaseException`` that is not an error),
        :meth:`stop`."""
        if interrupted(failing) or not isinstance(failing, Exception):
            self.stop()
            return
        try:
            self.finish()
        except KeyboardInterrupt:
            self.stop()
            raise
        except BaseException:
            pass

    def _raise(self) -> None:
        if self._error is not None:
            err, self._error = self._error, None
            raise err


def audit_rows(log: GameLog, result: Any) -> tuple[list[dict], list[dict], list[dict]]:
    """The audit's findings, corrected ledger and who-owes-whom of one game as rows
    (without player ids: the store fills them from the game's players)."""
    from audits.corrections import gaps, hand_deltas, hand_numbers, net_corrections, who_owes_whom

    findings = [{"game": f.game or log.game, "hand": f.hand, "seq": f.seq, "seat": f.seat, "code": f.code,
                 "severity": f.severity, "rule": f.rule, "expected": f.expected, "actual": f.actual,
                 "message": f.message, "file": f.file if f.file is not None else log.file, "line": f.line}
                for f in getattr(result, "findings", ())]
    logged, ledger, numbers = result.logged_scores, result.ledger, hand_numbers(result)
    rows = [{"game": log.game, "hand": hand, "seat": s, "logged": a, "corrected": b, "gap": g, "error": d}
            for hand, log_row, cor_row, gap, err in zip(numbers, logged, ledger, gaps(logged, ledger),
                                                        hand_deltas(logged, ledger))
            for s, (a, b, g, d) in enumerate(zip(log_row, cor_row, gap, err))]
    pays = [{"game": log.game, "idx": i, "debtor_seat": p.debtor, "creditor_seat": p.creditor, "amount": p.amount}
            for i, p in enumerate(who_owes_whom(net_corrections(logged, ledger)))]
    return findings, rows, pays


def _ingest_sql(paths: Sequence[str], db: str, *, audit: bool, jobs: int, batch_events: int, batch_games: int,
                progress: Optional[Callable[[IngestReport], None]],
                before_commit: Optional[Callable[[int], None]], con: Optional[duckdb.DuckDBPyConnection],
                audit_output: Optional[str], parquet: Optional[str], cluster: Any, keep_raw: bool = False) -> IngestReport:
    """:func:`ingest` with the rows built from the decoded games (see :mod:`paipu.store.derive`)."""
    with few_collections():
        return _ingest_batches(paths, db, audit=audit, jobs=jobs, batch_events=batch_events,
                               batch_games=batch_games, progress=progress, before_commit=before_commit, con=con,
                               audit_output=audit_output, parquet=parquet, cluster=cluster, keep_raw=keep_raw)


def _batched(batch: "_SqlBatch", report: IngestReport, seen: dict[str, tuple[str, str]], log: Any, built: bool,
             keep: bool) -> bool:
    """Add one game to the batch (a worker's built game, or a log read here); False when it is
    left out: unusable, read before in this ingest, or failed to derive (counted and said)."""
    if built:
        if not _usable(report, log) or _read_before(report, seen, log, log.content_hash):
            return False
        batch.add_built(log)
        return True
    try:
        content_hash, lines = game_lines(log)
        if _read_before(report, seen, log, content_hash):
            return False
        batch.add(log.game, content_hash, lines, log, keep)
    except Exception as x:  # a bug in paipu: count it, say so, keep the other games
        _not_derived(report, log, x)
        return False
    return True


def _ingest_batches(paths: Sequence[str], db: str, *, audit: bool, jobs: int, batch_events: int, batch_games: int,
                    progress: Optional[Callable[[IngestReport], None]],
                    before_commit: Optional[Callable[[int], None]], con: Optional[duckdb.DuckDBPyConnection],
                    audit_output: Optional[str], parquet: Optional[str], cluster: Any, keep_raw: bool) -> IngestReport:
    """:func:`_ingest_sql`'s body: read, batch, audit and write."""
    report = IngestReport()
    own = con is None and parquet is None
    auditor: Any = None
    if audit_output is not None:
        report.audited = True
    elif audit:
        auditor, note = load_auditor()
        report.audited, report.audit_note = auditor is not None, note
    build = GameBuilder(keep_raw) if audit_output is None else None
    pool, target, con, db = _start(auditor, paths, jobs, cluster, parquet, con, db, own, build)
    auditor = pool or auditor
    started = time.perf_counter()
    reader = LogReader(paths)
    spool_dir = None
    joined = None
    writer: Optional[_Writer] = None
    lookup: Optional[duckdb.DuckDBPyConnection] = None
    seen: dict[str, tuple[str, str]] = {}
    try:
        if db != ":memory:":
            sweep_spools(db)
        spool_dir = _make_spool(db)
        # with workers that build the rows, this process reads no log: it takes their games in order
        built = pool is not None and pool.build is not None
        if own and db != ":memory:":
            _bound_memory(con, spool_dir, built=built, workers_here=built and pool.here)
        if audit_output is not None:
            from .audit_join import AuditOutput

            joined = AuditOutput(target.sql_connection(), audit_output, paths, spool_dir)
        elif pool is None and auditor is not None and cluster is not None:  # stdin: games go to the cluster
            auditor = _ClusterAuditor(cluster)
        keep = auditor is not None

        def flush(b: _SqlBatch) -> None:
            try:
                _flush_sql(target, b, report, spool_dir, auditor, joined, before_commit)
            finally:
                b.spool.remove()

        def write_audited(p: _Prepared) -> None:
            try:
                _write_prepared(target, p, report, spool_dir, True, None, before_commit)
            finally:
                p.batch.spool.remove()

        # The writer thread loads each batch into the store (DuckDB, which releases the GIL)
        # while this thread reads the next one (or takes the workers' next games) and, with
        # the audit on here, audits its games (the look-up of stored hashes through a
        # connection of this thread's own).  With a Parquet target, or standard input audited
        # on a cluster, the batches are audited and written here in turn.
        hand_over: Callable[[_SqlBatch], None] = flush
        if keep and (cluster is None or built) and isinstance(target, _DuckTarget):
            lookup = con.cursor()
            known = _DuckTarget(lookup).known
            writer = _Writer(write_audited, target.interrupt)
            put = writer.put

            def audit_then_put(b: _SqlBatch) -> None:
                put(_prepare_sql(known, b, report, auditor, None))
            hand_over = audit_then_put
        elif not keep:
            writer = _Writer(flush, getattr(target, "interrupt", None))
            hand_over = writer.put
        made = 1
        batch = _SqlBatch(spool_dir, made, keep_raw)
        for log in (pool.games() if built else reader.games()):
            report.games_read += 1
            if not _batched(batch, report, seen, log, built, keep):
                continue
            if batch.events >= batch_events or len(batch.games) >= batch_games:
                batch.spool.close()
                hand_over(batch)
                made += 1
                batch = _SqlBatch(spool_dir, made, keep_raw)
                if progress:
                    progress(report)
        batch.spool.close()
        if batch.games:
            hand_over(batch)
        else:
            batch.spool.remove()
        if writer is not None:
            writer.finish()
            writer = None
        report.orphans = [str(p) for p in (pool.orphans if built else reader.orphans)]
    except BaseException as e:
        if writer is not None:  # stopped before the writer was done: see _Writer.wind_up
            w, writer = writer, None
            w.wind_up(e)
        if interrupted(e) and not isinstance(e, KeyboardInterrupt):
            raise KeyboardInterrupt from None  # a Ctrl-C DuckDB took in a statement of this thread
        raise
    finally:
        if joined is not None:
            joined.close()
        if lookup is not None:
            lookup.close()
        _release(pool, spool_dir, con if own else None, target if parquet is not None else None)
    report.seconds = time.perf_counter() - started
    if progress:
        progress(report)
    return report


def _meta(log: GameLog, content_hash: str, rows: GameRows) -> dict:
    g = rows.rows["games"][0]
    return {"game": log.game, "file": log.file, "problem": str(log.problem) if log.problem is not None else None,
            "closed": log.closed, "content_hash": content_hash, "body_hash": g.body_hash,
            "audited": False, "audit_complete": None, "findings": 0}


class _Prepared(NamedTuple):
    """A batch ready to write: its games to write as (game, None, meta, audit rows or None),
    the stored games they replace, and the batch (its spool)."""

    batch: _SqlBatch
    write: list[tuple[str, None, dict, Optional[tuple]]]
    replaced: list[str]


def _prepare_sql(known: Callable[[list[str]], dict[str, str]], batch: _SqlBatch, report: IngestReport,
                 auditor: Any, joined: Any) -> _Prepared:
    """The part of a batch's flush that reads: skip the games stored unchanged (``known``:
    game -> stored content hash), and audit the others (or take a finished audit's rows)."""
    known_hashes = known(list(batch.games))
    write: list[tuple[str, None, dict, Optional[tuple]]] = []
    replaced: list[str] = []
    logs: list[GameLog] = []
    for game, (h, meta, log) in batch.games.items():
        old = known_hashes.get(game)
        if old == h:
            report.unchanged += 1
            continue
        if old is not None:
            replaced.append(game)
        write.append((game, None, meta, None))
        if log is not None:
            logs.append(log)
    if joined is not None:
        joined.check([(m["game"], m["file"]) for _g, _l, m, _a in write])
        for _g, _l, meta, _a in write:
            meta.update(joined.meta(meta["game"]))
            if meta["game"] in joined.internal:
                report.audit_internal_errors.append(meta["game"])
    elif auditor is not None:
        if batch.built:
            logs = [batch.built[g] for g, _l, _m, _a in write]  # each stands in for its log (game, file)
            results = [(b.audit, b.failure) for b in logs]
        elif isinstance(auditor, (_StreamAuditor, _ClusterAuditor)):
            results = auditor.map(logs)
        else:
            results = []
            for log in logs:
                try:
                    results.append((auditor(log), None))
                except Exception as x:  # someone else's code: record, never stop the ingest
                    results.append((None, f"{type(x).__name__}: {x}"))
        for i, (log, (result, failure)) in enumerate(zip(logs, results)):
            game, lines, meta, _a = write[i]
            _note_internal(report, game, result, failure)
            if failure is not None:
                meta["problem"] = (meta["problem"] + "; " if meta["problem"] else "") + f"audit failed: {failure}"
                continue
            rows = audit_rows(log, result)
            meta.update(audited=True, audit_complete=bool(getattr(result, "complete", True)),
                        findings=len(rows[0]))
            write[i] = (game, lines, meta, rows)
    batch.games = {}  # the logs are audited: a batch waiting for the writer keeps only its spool
    batch.built = {}
    return _Prepared(batch, write, replaced)


def _write_prepared(target: Any, prep: _Prepared, report: IngestReport, spool_dir: str, audited: bool,
                    joined: Any, before_commit: Optional[Callable[[int], None]]) -> None:
    """The part of a batch's flush that writes, in one transaction (``audited``: the rows
    carry the audit's own findings).

    If the store rejects the batch (a value DuckDB cannot hold), the batch is
    rolled back and its games are written one per transaction, so only the game at
    fault is refused (with why) and every other game is stored.
    """
    batch, write, replaced = prep
    now = datetime.now(timezone.utc)
    replaced_set = set(replaced)

    def one(items: list, batch_no: int, hook: Optional[Callable[[int], None]],
            spool: Spool) -> tuple[int, int, float]:
        audit_py = None
        if joined is None and audited:
            audit_py = ([], [], [])
            for _g, _l, _m, rows in items:
                if rows is not None:
                    for k in range(3):
                        audit_py[k].extend(rows[k])
        metas = [dict((k, v) for k, v in m.items() if k in META_COLUMNS) for _g, _l, m, _a in items]
        gone = [g for g, _l, _m, _a in items if g in replaced_set]
        return target.write_sql(spool, metas, gone, spool_dir, now, audit_py,
                                joined.tables if joined is not None else None,
                                (lambda: hook(batch_no)) if hook is not None else None)

    if not write:
        return
    try:
        events, findings, raw = one(write, report.batches + 1, before_commit, batch.spool)
    except duckdb.Error as e:
        if isinstance(e, duckdb.InterruptException):
            raise
        for item in write:
            game = item[0]
            single = batch.spool.only(game)
            try:
                ev_n, f_n, r_s = one([item], report.batches + 1, None, single)
            except duckdb.Error as x:
                if isinstance(x, duckdb.InterruptException):
                    raise
                report.refused.append(f"game {game} in {item[2]['file']}: the store could not take "
                                      f"it ({_store_reason(x, spool_dir)}); nothing of it was written")
                continue
            report.batches += 1
            _count(report, 1, [game] if game in replaced_set else [], ev_n, f_n, r_s)
        return
    report.batches += 1
    _count(report, len(write), replaced, events, findings, raw)


def _flush_sql(target: Any, batch: _SqlBatch, report: IngestReport, spool_dir: str,
               auditor: Any, joined: Any, before_commit: Optional[Callable[[int], None]]) -> None:
    """Write one batch in one transaction: skip unchanged games, replace changed ones
    (:func:`_prepare_sql`, then :func:`_write_prepared`)."""
    prep = _prepare_sql(target.known, batch, report, auditor, joined)
    _write_prepared(target, prep, report, spool_dir, auditor is not None, joined, before_commit)


def table_counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """Rows in each table of the store."""
    return {t.name: con.execute(f"SELECT count(*) FROM {t.name}").fetchall()[0][0] for t in TABLES}


__all__ = ["DEFAULT_BATCH_EVENTS", "DEFAULT_BATCH_GAMES", "DEFAULT_DB", "IngestReport", "StoreError", "TABLES", "connect", "ddl", "game_rows", "incompatible_message",
           "ingest", "writer_versions",
           "load_auditor", "schema_markdown", "spool_prefix", "sweep_spools", "table_counts"]
