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


def test_query_and_anomalies_refuse_an_output_in_the_stores_temporary_folder(tmp_path, db, cli):
    os.makedirs(db + ".tmp", exist_ok=True)
    target = os.path.join(db + ".tmp", "out.csv")
    for args in (["query", "--db", db, "SELECT 1"], ["anomalies", "--db", db]):
        r = cli(*args, "--format", "csv", "-o", target)
        assert r.exit_code == 2, r.output
        assert "inside the store's temporary folder" in r.output and "Traceback" not in r.output
    assert os.listdir(db + ".tmp") == []


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


SLOW = "SELECT count(*) AS c FROM range(100000000000) a"
HUNGRY = "SELECT list(i) AS c FROM range(50000000) t(i)"


def test_a_slow_query_stops_at_the_time_limit(db, cli):
    r = cli("query", "--db", db, SLOW, "--timeout", "0.5")
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    # the limit hit, its value, and how to raise it
    assert "time limit of 0.5 s" in r.output and "raise it with --timeout" in r.output, r.output


def test_a_query_past_the_memory_limit_fails_cleanly(db, cli, tmp_path):
    r = cli("query", "--db", db, HUNGRY, "--memory", "50MB")
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output
    assert "memory limit of 50MB" in r.output and "raise it with --memory" in r.output, r.output
    # nothing spilled beside the store
    assert not os.path.exists(db + ".tmp")
    r = cli("query", "--db", db, "SELECT 1", "--memory", "lots")
    assert r.exit_code == 2 and "memory limit" in r.output


def _check(folder, code: str, sql: str, where: str) -> str:
    """A --checks-dir folder holding one check ``code`` whose rows come from ``sql``."""
    folder.mkdir(exist_ok=True)
    (folder / f"{code}.sql").write_text(
        f"-- title: {code}\n-- statistic: none\n-- threshold: none\n"
        "SELECT NULL::VARCHAR AS game, NULL::INTEGER AS hand, NULL::INTEGER AS seq, NULL::INTEGER AS seat,\n"
        "       NULL::VARCHAR AS player, 'x' AS detail, 'x' AS statistic, NULL::DOUBLE AS value,\n"
        f"       NULL::DOUBLE AS rate, NULL::DOUBLE AS baseline, NULL::BIGINT AS n FROM ({sql}) q WHERE {where}\n",
        encoding="utf-8")
    return str(folder)


def test_anomaly_checks_stop_at_the_time_limit_and_say_which_limit(db, cli, tmp_path):
    mine = _check(tmp_path / "mine", "slow_check", SLOW, "c < 0")
    r = cli("anomalies", "--db", db, "--checks-dir", mine, "--only", "slow_check", "--timeout", "0.5")
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and "Interrupt" not in r.output
    assert "slow_check" in r.output, r.output
    assert "time limit of 0.5 s" in r.output and "raise it with --timeout" in r.output, r.output


def test_anomaly_checks_past_the_memory_limit_say_which_limit(db, cli, tmp_path):
    mine = _check(tmp_path / "mine", "hungry_check", HUNGRY, "len(c) < 0")
    r = cli("anomalies", "--db", db, "--checks-dir", mine, "--only", "hungry_check", "--memory", "50MB")
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and "hungry_check" in r.output, r.output
    assert "memory limit of 50MB" in r.output and "raise it with --memory" in r.output, r.output
