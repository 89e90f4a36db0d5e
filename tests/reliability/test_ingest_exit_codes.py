"""``paipu ingest`` exits 3 when the audit hit an internal error on a game (issue 35): the game
is stored with its ``INTERNAL_ERROR`` finding, every other game too, and the exit code says so."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

import audits.audit as walker
from paipu.store_cmd import register
from tests.paipu.test_store import dianji_game, q, write


@pytest.fixture
def cli():
    app = typer.Typer()
    register(app)
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


@pytest.fixture
def broken_on_bad(monkeypatch):
    """paipu's own audit failing on the game ``bad`` (a stand-in for a bug; no real one is known)."""
    real = walker.walk

    def walk(ctx):
        if ctx.log.game == "bad":
            raise RuntimeError("a bug in paipu")
        return real(ctx)
    monkeypatch.setattr(walker, "walk", walk)


@pytest.mark.parametrize("extra", [[], ["--batch-events", "1"]])
def test_ingest_exits_3_when_the_audit_hit_an_internal_error(tmp_path, cli, broken_on_bad, extra):
    logs = write(tmp_path / "a.jsonl", dianji_game("g1"), dianji_game("bad"), dianji_game("g2"))
    db = str(tmp_path / "s.duckdb")
    r = cli("ingest", logs, "--db", db, *extra)
    assert r.exit_code == 3, r.output
    assert "internal error in paipu on 1 game(s) (bad;" in r.output
    assert q(db, "SELECT list(game ORDER BY game) FROM games")[0][0] == ["bad", "g1", "g2"]
    assert q(db, "SELECT code FROM findings WHERE game = 'bad'") == [("INTERNAL_ERROR",)]


def test_the_python_derivation_counts_it_too(tmp_path, broken_on_bad):
    from paipu import store

    logs = write(tmp_path / "a.jsonl", dianji_game("g1"), dianji_game("bad"))
    r = store.ingest([logs], str(tmp_path / "s.duckdb"), engine="python")
    assert r.audit_internal_errors == ["bad"] and r.added == 2


def test_no_internal_error_exits_0_near_miss(tmp_path, cli):
    logs = write(tmp_path / "a.jsonl", dianji_game("g1"), dianji_game("bad"))
    r = cli("ingest", logs, "--db", str(tmp_path / "s.duckdb"))
    assert r.exit_code == 0, r.output


def test_without_the_audit_there_is_nothing_to_count(tmp_path, cli, broken_on_bad):
    logs = write(tmp_path / "a.jsonl", dianji_game("bad"))
    assert cli("ingest", logs, "--db", str(tmp_path / "s.duckdb"), "--no-audit").exit_code == 0
