"""The read-only guard of ``paipu query`` and ``paipu anomalies``.

A query may read the store and nothing else, and may not destroy what it reads.
The guard works in layers, each enforcing one rule:

1. **One read-only statement.**  DuckDB parses the text; only one ``SELECT``
   (``WITH``, ``FROM``, ``SHOW``, ``DESCRIBE``, ``SUMMARIZE`` parse as SELECT) or a
   plain ``EXPLAIN`` runs.  ``EXPLAIN ANALYZE`` is refused: it *executes* its
   statement.
2. **A locked-down connection.**  Read-only, no file or network access (except
   the parquet output when asked for), no extension installs, no spilling to
   disk, configuration locked so the query cannot undo any of it.
3. **Bounded cost.**  A time limit and a memory limit, both held by a watchdog
   (:class:`Watchdog`): DuckDB's own ``memory_limit`` bounds what its buffer manager
   holds, and the watchdog interrupts the connection when the time is up or when the
   process's resident memory has grown past the limit (what DuckDB does not count, and
   the rows handed to Python, which are fetched in chunks and checked between them).
4. **The store's files are never an output.**  ``--output`` naming the store, its
   write-ahead log or its temporary folder (directly, through a symlink or a hard
   link) is refused before anything is opened for writing.
"""

from __future__ import annotations

import os
import re
import sys
import threading
import time
from contextlib import contextmanager
from typing import Any, Iterator, Optional

import duckdb

from .errors import StoreError
from .tables import connect

#: Statement types that may run; everything else is refused.
READ_STATEMENTS = {"SELECT", "EXPLAIN"}

#: Default time limit of one query (seconds) and memory limit (a DuckDB size).
DEFAULT_TIMEOUT = 60.0
DEFAULT_MEMORY = "2GB"

#: Keywords that turn EXPLAIN into executing its statement.
_ANALYZE = {"ANALYZE", "ANALYSE"}


class QueryRefused(ValueError):
    """A query that is not a single read-only statement, or that broke a limit (one sentence)."""


#: At most this many lines, of at most this many characters, of a DuckDB message are shown:
#: DuckDB bounds its own excerpt of the query, not a value the message quotes.
MESSAGE_LINES = 20
MESSAGE_WIDTH = 500


def duckdb_message(e: BaseException) -> str:
    """DuckDB's whole message, as DuckDB wrote it: the first line says what failed, the lines
    after it how to fix it (``Candidate bindings: …``, ``Did you mean …``) and where (the
    query's line, with a caret under the fault, its columns kept, so the caret still points
    at the right word under a one-line prefix).  Blank and trailing-space lines are dropped;
    no traceback, only the text."""
    lines = [x.rstrip() for x in str(e).splitlines()]
    lines = [x if len(x) <= MESSAGE_WIDTH else x[:MESSAGE_WIDTH] + " …" for x in lines if x.strip()]
    if len(lines) > MESSAGE_LINES:
        lines = lines[:MESSAGE_LINES] + [f"… ({len(lines) - MESSAGE_LINES} more lines)"]
    return "\n".join(lines) if lines else type(e).__name__


def store_files(db: str) -> list[str]:
    """The files DuckDB keeps for the store ``db``: the database, its WAL and its temp folder."""
    return [db, db + ".wal", db + ".tmp"]


def _same(a: str, b: str) -> bool:
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)  # a hard link to the store is the store
    except OSError:
        return False


def check_output(db: str, output: Optional[str]) -> None:
    """Refuse an ``output`` path that is one of the store's own files (or inside its temp folder)."""
    if not output or db == ":memory:":
        return
    for f in store_files(db):
        if _same(output, f):
            raise QueryRefused(f"the output {output} is the store's own file {f}; choose another --output")
    tmp = os.path.realpath(db + ".tmp")
    if os.path.realpath(output).startswith(tmp + os.sep):
        raise QueryRefused(f"the output {output} is inside the store's temporary folder; choose another --output")


#: The file endings of each output format: an existing file is overwritten without
#: ``--force`` only when it ends so (the output of an earlier run, by its look).
OUTPUT_ENDINGS = {"table": (".txt",), "csv": (".csv", ".tsv", ".txt"), "json": (".json",),
                  "parquet": (".parquet",)}


def is_duckdb_file(path: str) -> bool:
    """Whether ``path`` is a DuckDB database file (its header's magic bytes)."""
    try:
        with open(path, "rb") as f:
            head = f.read(12)
    except OSError:
        return False
    return head[8:12] == b"DUCK"


def check_overwrite(output: Optional[str], fmt: str, force: bool = False) -> None:
    """Refuse to overwrite an existing file that is not an earlier output of this format (a
    DuckDB store, a log, a folder …) unless ``force``; a DuckDB store is named as such."""
    if not output or not os.path.lexists(output):
        return
    if os.path.isdir(output):
        raise QueryRefused(f"the output {output} is a folder; give a file name")
    if force:
        return
    if is_duckdb_file(output):
        raise QueryRefused(f"the output {output} is a DuckDB database; it is not overwritten "
                           "(choose another --output, or add --force to replace it)")
    if not output.lower().endswith(OUTPUT_ENDINGS.get(fmt, ())):
        raise QueryRefused(f"the output {output} exists and does not look like a {fmt} output "
                           f"({', '.join(OUTPUT_ENDINGS.get(fmt, ()))}); choose another --output, or add --force "
                           "to overwrite it")


def _explain_analyze(sql: str) -> bool:
    """Whether an EXPLAIN statement asks for ANALYZE (by keyword, not by text inside strings or comments)."""
    tokens = duckdb.tokenize(sql)
    for i, (pos, kind) in enumerate(tokens):
        if kind.name in ("comment", "string_const"):
            continue
        end = tokens[i + 1][0] if i + 1 < len(tokens) else len(sql)
        word = sql[pos:end].strip().upper()
        if word in _ANALYZE:
            return True
    return False


def check_read_only(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    """Refuse anything but one SELECT / plain EXPLAIN statement (parsed by DuckDB itself)."""
    try:
        statements = con.extract_statements(sql)
    except duckdb.Error as e:
        raise QueryRefused(f"the query does not parse: {duckdb_message(e)}") from None
    if len(statements) != 1:
        raise QueryRefused(f"give exactly one statement, not {len(statements)}")
    kind = statements[0].type.name
    if kind not in READ_STATEMENTS:
        raise QueryRefused(f"`paipu query` only reads: a {kind} statement is refused "
                           "(allowed: SELECT, WITH, FROM, SHOW, DESCRIBE, SUMMARIZE, EXPLAIN)")
    if kind == "EXPLAIN" and _explain_analyze(sql):
        raise QueryRefused("EXPLAIN ANALYZE runs its statement, so `paipu query` refuses it; use plain EXPLAIN")


def check_dataset_output(url: str, output: Optional[str]) -> None:
    """Refuse an ``output`` path inside the Parquet dataset ``url``."""
    if not output or "://" in url:
        return
    root = os.path.realpath(url)
    if os.path.realpath(output) == root or os.path.realpath(output).startswith(root + os.sep):
        raise QueryRefused(f"the output {output} is inside the dataset {url}; choose another --output")


def open_read_only(db: str, output: Optional[str] = None, memory: str = DEFAULT_MEMORY, *,
                   parquet: Optional[str] = None) -> duckdb.DuckDBPyConnection:
    """A locked-down connection: read-only, no file or network access except ``output``,
    no spilling to disk, a memory limit, no extension installs, configuration locked.

    With ``parquet`` (a dataset folder or URL), the connection is an in-memory
    database whose views read that dataset (:func:`paipu.store.parquet.open_dataset`)
    and the only files it may open are the dataset's (and ``output``).
    """
    readable: list[str] = []
    if parquet is not None:
        from .parquet import allowed_root, open_dataset

        check_dataset_output(parquet, output)
        con = open_dataset(parquet)
        readable = [allowed_root(parquet)]
    else:
        check_output(db, output)
        con = connect(db, read_only=True)
    try:
        try:
            con.execute("SET memory_limit = $m", {"m": memory})
        except duckdb.Error as e:
            raise QueryRefused(f"bad memory limit {memory!r}: {duckdb_message(e)}") from None
        # no spill files: a query past the memory limit fails instead of writing beside the store
        con.execute("SET temp_directory = ''")
        if output:
            con.execute("SET allowed_paths = $p", {"p": [os.path.abspath(output)]})
        if readable:
            con.execute("SET allowed_directories = $d", {"d": readable})
        con.execute("SET enable_external_access = false")
        con.execute("SET autoinstall_known_extensions = false")
        con.execute("SET lock_configuration = true")
    except BaseException:
        con.close()
        raise
    return con


def limit_message(what: str, limit: str, value: Any) -> str:
    """One sentence naming the limit ``what`` hit (``"time"``: ``value`` seconds, or ``"memory"``:
    a DuckDB size) and the option that raises it."""
    if limit == "time":
        return (f"{what} stopped at the time limit of {value:g} s; raise it with --timeout SECONDS "
                "(0: no limit)")
    return f"{what} needs more memory than the memory limit of {value}; raise it with --memory SIZE (e.g. 8GB)"


_UNITS = {"": 1, "b": 1, "kb": 10 ** 3, "mb": 10 ** 6, "gb": 10 ** 9, "tb": 10 ** 12,
          "kib": 2 ** 10, "mib": 2 ** 20, "gib": 2 ** 30, "tib": 2 ** 40, "k": 10 ** 3, "m": 10 ** 6, "g": 10 ** 9,
          "t": 10 ** 12}


def size_bytes(text: str) -> Optional[int]:
    """A DuckDB memory size (``500MB``, ``2GB``, ``1.5GiB``) in bytes; None when not one."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*", text or "")
    if m is None or m.group(2).lower() not in _UNITS:
        return None
    return int(float(m.group(1)) * _UNITS[m.group(2).lower()])


def resident_bytes() -> Optional[int]:
    """This process's resident memory now (Linux ``/proc``); elsewhere its peak so far
    (``getrusage``: never falls, so a watch on its growth is the stricter one); None if unknown."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024
    except (ImportError, OSError, ValueError):
        return None


class LimitReached(QueryRefused):
    """The watchdog stopped the work at a limit (``limit``: ``"time"`` or ``"memory"``)."""

    def __init__(self, limit: str, message: str):
        super().__init__(message)
        self.limit = limit


class Watchdog:
    """Holds a connection to its time and memory limits from a thread of its own.

    Every :data:`POLL` seconds it looks at the clock and at the process's resident
    memory; past ``seconds``, or grown by more than ``memory`` (a DuckDB size) plus
    :data:`SLACK` since it started, it records which limit was hit (:attr:`hit`) and
    interrupts the connection, again at every poll until stopped (a statement started
    after an interruption is interrupted too).  The caller fetching rows in chunks
    calls :meth:`check` between them.
    """

    POLL = 0.05
    #: Memory allowed beyond the limit before the watchdog steps in (DuckDB's own
    #: accounting holds the limit; this is for what it does not count): a quarter of
    #: the limit, at least 64 MiB.
    SLACK = 64 * 2 ** 20

    def __init__(self, con: duckdb.DuckDBPyConnection, seconds: Optional[float], memory: Optional[str] = None):
        self.con = con
        self.seconds = seconds if seconds and seconds > 0 else None
        self.memory = memory
        self.hit: Optional[str] = None
        limit = size_bytes(memory) if memory else None
        self._base = resident_bytes() if limit is not None else None
        self._budget = limit + max(self.SLACK, limit // 4) if limit is not None and self._base is not None else None
        self._deadline = time.monotonic() + self.seconds if self.seconds else None
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None
        if self._deadline is not None or self._budget is not None:
            self._thread = threading.Thread(target=self._run, name="paipu-query-watchdog", daemon=True)
            self._thread.start()

    def _look(self) -> None:
        """Record the limit hit, if any, now."""
        if self.hit is None:
            if self._deadline is not None and time.monotonic() >= self._deadline:
                self.hit = "time"
            elif self._budget is not None:
                now = resident_bytes()
                if now is not None and now - self._base > self._budget:
                    self.hit = "memory"

    def _run(self) -> None:
        while not self._stop.wait(self.POLL):
            self._look()
            if self.hit is not None:
                try:
                    self.con.interrupt()
                except duckdb.Error:
                    pass

    def message(self, what: str = "the query") -> str:
        """The sentence for the limit hit (:func:`limit_message`)."""
        assert self.hit is not None
        return limit_message(what, self.hit, self.seconds if self.hit == "time" else self.memory)

    def check(self, what: str = "the query") -> None:
        """Raise :class:`LimitReached` if a limit was hit (looked at here too, so a caller
        fetching rows is held to the limits between chunks even while this thread waits
        for its turn on a busy machine)."""
        self._look()
        if self.hit is not None:
            raise LimitReached(self.hit, self.message(what))

    def stop(self) -> None:
        """Stop watching (the thread ends within one poll)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()


@contextmanager
def time_limit(con: duckdb.DuckDBPyConnection, seconds: Optional[float],
               memory: Optional[str] = None) -> Iterator[Watchdog]:
    """Hold whatever ``con`` runs inside to ``seconds`` and to ``memory`` (:class:`Watchdog`);
    a DuckDB error raised because the watchdog interrupted becomes :class:`LimitReached`."""
    dog = Watchdog(con, seconds, memory)
    try:
        yield dog
    except duckdb.Error as e:
        if dog.hit is not None:
            raise LimitReached(dog.hit, dog.message()) from None
        raise e
    finally:
        dog.stop()


#: Rows fetched from DuckDB at a time (the watchdog is consulted between chunks).
FETCH_ROWS = 20_000


def run_query(db: str, sql: str, fmt: str = "table", output: Optional[str] = None, *,
              timeout: Optional[float] = DEFAULT_TIMEOUT, memory: str = DEFAULT_MEMORY,
              parquet: Optional[str] = None, force: bool = False) -> tuple[list[str], list[tuple]]:
    """Run one read-only query; write parquet to ``output`` or return (columns, rows).

    ``parquet`` runs it on the Parquet dataset at that folder or URL instead of the
    DuckDB store ``db``.  Raises :class:`QueryRefused` (one sentence) for anything
    refused or failed, :class:`~paipu.store.ingest.StoreError` for a store that
    cannot be opened.  An existing ``output`` that is not an earlier output of ``fmt``
    is refused unless ``force`` (:func:`check_overwrite`; the store's own files always).
    """
    if parquet is not None:
        check_dataset_output(parquet, output)
    else:
        check_output(db, output)
    check_overwrite(output, fmt, force)
    con = open_read_only(db, output if fmt == "parquet" else None, memory, parquet=parquet)
    try:
        check_read_only(con, sql)
        try:
            with time_limit(con, timeout, memory) as dog:
                if fmt == "parquet":
                    rel = con.sql(sql)
                    rel.write_parquet(os.path.abspath(output))
                    dog.check()
                    return list(rel.columns), []
                cur = con.execute(sql)
                cols = [d[0] for d in cur.description] if cur.description else []
                rows: list[tuple] = []
                while True:
                    chunk = cur.fetchmany(FETCH_ROWS)
                    dog.check()
                    if not chunk:
                        return cols, rows
                    rows.extend(chunk)
        except duckdb.PermissionException:
            raise QueryRefused("the query touches files or the network, which `paipu query` does not allow") from None
        except duckdb.OutOfMemoryException:
            raise QueryRefused(limit_message("the query", "memory", memory)) from None
        except duckdb.Error as e:
            raise QueryRefused(f"the query failed: {duckdb_message(e)}") from None
    finally:
        con.close()


__all__ = ["DEFAULT_MEMORY", "DEFAULT_TIMEOUT", "FETCH_ROWS", "duckdb_message", "OUTPUT_ENDINGS", "check_overwrite", "is_duckdb_file", "LimitReached", "QueryRefused", "Watchdog",
           "resident_bytes", "size_bytes", "StoreError", "check_dataset_output", "check_output",
           "check_read_only", "limit_message",
           "open_read_only", "run_query", "store_files", "time_limit"]
