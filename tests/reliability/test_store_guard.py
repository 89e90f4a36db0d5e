"""The store guarded: ``query`` and ``anomalies`` never write the store's own files, run
only SELECT and plain EXPLAIN, and stop at a time and a memory limit."""

from __future__ import annotations

import os

import pytest
import typer
from typer.testing import CliRunner

from paipu import store
from paipu.store_cmd import register
from tests.paipu.test_store import counts, dianji_game, write


@pytest.fixture
def cli():
    app = typer.Typer()
    register(app)
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "s.duckdb")
    store.ingest([write(tmp_path / "a.jsonl", dianji_game("g1"), dianji_game("g2", seats=("E", "F", "G", "H")))],
                 path, audit=False)
    return path


def _intact(db: str, before: dict) -> None:
    assert counts(db) == before


@pytest.mark.parametrize("fmt", ["csv", "json", "table", "parquet"])
@pytest.mark.parametrize("which", ["store", "wal", "symlink", "hardlink"])
def test_query_refuses_to_write_over_the_store(tmp_path, db, cli, fmt, which):
    before = counts(db)
    with open(db, "rb") as f:
        content = f.read()
    target = {"store": db, "wal": db + ".wal"}.get(which)
    if which == "symlink":
        target = str(tmp_path / "link.csv")
        os.symlink(db, target)
    elif which == "hardlink":
        target = str(tmp_path / "hard.csv")
        os.link(db, target)
    r = cli("query", "--db", db, "SELECT 1", "--format", fmt, "-o", target)
    assert r.exit_code == 2, r.output
    assert "store's own file" in r.output and "Traceback" not in r.output
    with open(db, "rb") as f:
        assert f.read() == content
    _intact(db, before)
    if which == "wal":
        assert not os.path.exists(db + ".wal")


def test_anomalies_refuses_to_write_over_the_store(tmp_path, db, cli):
    before = counts(db)
    for target in (db, db + ".wal"):
        r = cli("anomalies", "--db", db, "--format", "csv", "-o", target)
        assert r.exit_code == 2, r.output
        assert "store's own file" in r.output
    _intact(db, before)
    assert not os.path.exists(db + ".wal")


def test_query_output_beside_the_store_is_fine(tmp_path, db, cli):
    out = tmp_path / "out.csv"
    r = cli("query", "--db", db, "SELECT count(*) AS n FROM games", "--format", "csv", "-o", str(out))
    assert r.exit_code == 0, r.output
    assert out.read_text().splitlines() == ["n", "2"]


@pytest.mark.parametrize("sql", [
    "EXPLAIN ANALYZE SELECT * FROM games",
    "explain analyse select * from games",
    "/* x */ EXPLAIN (ANALYZE) SELECT 1",
    "EXPLAIN (FORMAT json, ANALYZE) SELECT 1",
])
def test_explain_analyze_is_refused(db, cli, sql):
    r = cli("query", "--db", db, sql)
    assert r.exit_code == 2, r.output
    assert "EXPLAIN ANALYZE" in r.output


def test_plain_explain_still_runs_even_with_analyze_in_a_string(db, cli):
    assert cli("query", "--db", db, "EXPLAIN SELECT 'analyze' AS a FROM games").exit_code == 0
    assert cli("query", "--db", db, "SELECT 'explain analyze' AS a").exit_code == 0


def test_a_slow_query_stops_at_the_time_limit(db, cli):
    sql = "SELECT count(*) FROM range(100000000000) a"
    r = cli("query", "--db", db, sql, "--timeout", "0.5")
    assert r.exit_code == 2, r.output
    assert "time limit" in r.output and "Traceback" not in r.output


def test_a_query_past_the_memory_limit_fails_cleanly(db, cli, tmp_path):
    sql = "SELECT list(i) FROM range(50000000) t(i)"
    r = cli("query", "--db", db, sql, "--memory", "50MB")
    assert r.exit_code == 2, r.output
    assert "memory" in r.output.lower() and "Traceback" not in r.output
    # nothing spilled beside the store
    assert not os.path.exists(db + ".tmp")
    r = cli("query", "--db", db, "SELECT 1", "--memory", "lots")
    assert r.exit_code == 2 and "memory limit" in r.output
