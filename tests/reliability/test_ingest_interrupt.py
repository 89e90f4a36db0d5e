"""Ctrl-C during an ingest: the batch being written is rolled back, the store keeps only the
batches committed before it, and the command exits 130 (never a DuckDB
"connection is busy" error, an internal-error exit or an abort of the process).

The Ctrl-C is sent from inside the writer thread, at a chosen batch, just before that batch
commits, and the writer then runs a long statement: the reading thread is interrupted while it
waits for a busy writer, the moment at which the ingest used to close the store's connection
under the running statement.
"""

from __future__ import annotations

import subprocess
import sys

import duckdb

from paipu.store.errors import interrupted
from tests.reliability.helpers import ROOT, lines

#: The child: paipu's own entry point, with the store's batch writer wrapped so that batch
#: number ``argv[1]`` (1-based) sends SIGINT to the main thread just before it commits and then
#: keeps the writer's connection busy (a statement of many seconds unless interrupted).
CHILD = """
import signal, sys, threading
signal.signal(signal.SIGINT, signal.default_int_handler)  # a test runner's worker may pass SIGINT on ignored
import paipu.store  # noqa: F401
ing = sys.modules["paipu.store.ingest"]
real, at, seen = ing.write_batch, int(sys.argv[1]), []

def write_batch(con, *args, **kw):
    def before_commit():
        seen.append(1)
        if len(seen) == at:
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
            con.execute("SELECT count(*) FROM range(2000000000) t(x) WHERE x % 7 = 3").fetchall()
    return real(con, *args, **{**kw, "before_commit": before_commit})

ing.write_batch = write_batch
from paipu.cli import main
sys.argv = ["paipu", *sys.argv[2:]]
main()
"""


def _ingest_with_ctrl_c_at(tmp_path, batch: int, *extra: str) -> tuple[subprocess.CompletedProcess, str]:
    log = tmp_path / "six.jsonl"
    log.write_bytes(b"".join(line for k in range(6) for line in lines(f"g{k}")))
    db = str(tmp_path / "s.duckdb")
    run = subprocess.run([sys.executable, "-c", CHILD, str(batch), "ingest", str(log), "--db", db,
                          "--batch-games", "2", *extra], cwd=ROOT, capture_output=True, timeout=300)
    return run, db


def _stored(db: str) -> tuple[list[str], bool]:
    """The games stored, and whether every table agrees with them (no part of a batch)."""
    con = duckdb.connect(db, read_only=True)
    try:
        games = [g for (g,) in con.execute("SELECT game FROM games ORDER BY game").fetchall()]
        events = con.execute("SELECT coalesce(sum(events), 0) FROM games").fetchone()[0]
        rows = con.execute("SELECT count(*) FROM events").fetchone()[0]
        hands = con.execute("SELECT count(DISTINCT game) FROM hands").fetchone()[0]
    finally:
        con.close()
    return games, events == rows and hands == len(games)


def test_ctrl_c_while_the_writer_is_busy_keeps_the_batches_before_and_exits_130(tmp_path):
    run, db = _ingest_with_ctrl_c_at(tmp_path, 2, "--no-audit")
    err = run.stderr.decode()
    assert run.returncode == 130, err
    assert "paipu: interrupted" in err  # the user is told why it stopped
    for word in ("Resource In Use", "internal error", "Traceback", "terminate", "FATAL"):
        assert word not in err
    # batch 1 (g0, g1) was committed; batch 2 was rolled back, batch 3 never written
    assert _stored(db) == (["g0", "g1"], True)


def test_ctrl_c_with_the_audit_on_keeps_whole_batches_too(tmp_path):
    run, db = _ingest_with_ctrl_c_at(tmp_path, 2)
    assert run.returncode == 130, run.stderr.decode()
    assert _stored(db) == (["g0", "g1"], True)


def test_no_ctrl_c_stores_every_game_near_miss(tmp_path):
    run, db = _ingest_with_ctrl_c_at(tmp_path, 99, "--no-audit")
    assert run.returncode == 0, run.stderr.decode()
    assert _stored(db) == ([f"g{k}" for k in range(6)], True)


def test_duckdbs_own_interrupted_error_counts_as_ctrl_c():
    # DuckDB takes a Ctrl-C that comes during a statement of the main thread and raises this
    assert interrupted(RuntimeError("Query interrupted")) and interrupted(KeyboardInterrupt())


def test_other_runtime_errors_are_not_ctrl_c_near_miss():
    assert not interrupted(RuntimeError("Query interrupted by a bug"))
    assert not interrupted(ValueError("Query interrupted"))


def test_an_exit_caused_by_ctrl_c_is_told_apart_from_a_plain_exit():
    from paipu.cli import _from_ctrl_c

    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as k:
            raise SystemExit(130) from k  # what typer makes of a Ctrl-C
    except SystemExit as x:
        assert _from_ctrl_c(x)
    assert not _from_ctrl_c(SystemExit(130))  # near miss: a 130 with no Ctrl-C behind it


def _create_interrupted(monkeypatch) -> None:
    from paipu.store import tables

    def stopped() -> list[str]:
        raise KeyboardInterrupt  # a Ctrl-C while the store's tables are being made

    monkeypatch.setattr(tables, "comment_ddl", stopped)


def test_ctrl_c_while_a_new_store_is_made_leaves_no_file(tmp_path, monkeypatch):
    from paipu.store.tables import connect

    db = str(tmp_path / "new.duckdb")
    _create_interrupted(monkeypatch)
    try:
        connect(db)
    except KeyboardInterrupt:
        pass
    else:  # pragma: no cover - the interruption must reach the caller
        raise AssertionError("the Ctrl-C was swallowed")
    assert not any(p.name.startswith("new.duckdb") for p in tmp_path.iterdir())


def test_ctrl_c_while_an_existing_store_is_opened_keeps_it_near_miss(tmp_path, monkeypatch):
    from paipu.store.tables import connect

    db = str(tmp_path / "old.duckdb")
    connect(db).close()  # made whole before
    # a store made by an older paipu has comments to add again on its next open
    con = duckdb.connect(db)
    con.execute("DELETE FROM meta WHERE key = 'comments'")
    con.close()
    _create_interrupted(monkeypatch)
    try:
        connect(db)
    except KeyboardInterrupt:
        pass
    con = duckdb.connect(db, read_only=True)
    try:
        assert con.execute("SELECT value FROM meta WHERE key = 'store_version'").fetchall()
    finally:
        con.close()
