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
3. **Bounded cost.**  A time limit (the query is interrupted) and a memory limit.
4. **The store's files are never an output.**  ``--output`` naming the store, its
   write-ahead log or its temporary folder (directly, through a symlink or a hard
   link) is refused before anything is opened for writing.
"""

from __future__ import annotations

import os
import threading
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


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


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
        raise QueryRefused(f"the query does not parse: {_first_line(e)}") from None
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
            raise QueryRefused(f"bad memory limit {memory!r}: {_first_line(e)}") from None
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


@contextmanager
def time_limit(con: duckdb.DuckDBPyConnection, seconds: Optional[float]) -> Iterator[None]:
    """Interrupt whatever ``con`` runs after ``seconds``; the interruption becomes :class:`QueryRefused`."""
    if not seconds or seconds <= 0:
        yield
        return
    fired = threading.Event()

    def stop() -> None:
        fired.set()
        con.interrupt()

    timer = threading.Timer(seconds, stop)
    timer.daemon = True
    timer.start()
    try:
        yield
    except duckdb.Error as e:
        if fired.is_set():
            raise QueryRefused(limit_message("the query", "time", seconds)) from None
        raise e
    finally:
        timer.cancel()


def run_query(db: str, sql: str, fmt: str = "table", output: Optional[str] = None, *,
              timeout: Optional[float] = DEFAULT_TIMEOUT, memory: str = DEFAULT_MEMORY,
              parquet: Optional[str] = None) -> tuple[list[str], list[tuple]]:
    """Run one read-only query; write parquet to ``output`` or return (columns, rows).

    ``parquet`` runs it on the Parquet dataset at that folder or URL instead of the
    DuckDB store ``db``.  Raises :class:`QueryRefused` (one sentence) for anything
    refused or failed, :class:`~paipu.store.ingest.StoreError` for a store that
    cannot be opened.
    """
    if parquet is not None:
        check_dataset_output(parquet, output)
    else:
        check_output(db, output)
    con = open_read_only(db, output if fmt == "parquet" else None, memory, parquet=parquet)
    try:
        check_read_only(con, sql)
        try:
            with time_limit(con, timeout):
                if fmt == "parquet":
                    rel = con.sql(sql)
                    rel.write_parquet(os.path.abspath(output))
                    return list(rel.columns), []
                cur = con.execute(sql)
                cols = [d[0] for d in cur.description] if cur.description else []
                return cols, cur.fetchall()
        except duckdb.PermissionException:
            raise QueryRefused("the query touches files or the network, which `paipu query` does not allow") from None
        except duckdb.OutOfMemoryException:
            raise QueryRefused(limit_message("the query", "memory", memory)) from None
        except duckdb.Error as e:
            raise QueryRefused(f"the query failed: {_first_line(e)}") from None
    finally:
        con.close()


__all__ = ["DEFAULT_MEMORY", "DEFAULT_TIMEOUT", "QueryRefused", "StoreError", "check_dataset_output", "check_output",
           "check_read_only", "limit_message",
           "open_read_only", "run_query", "store_files", "time_limit"]
