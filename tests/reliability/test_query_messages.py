"""``paipu query`` shows DuckDB's whole message when a query fails or does not parse: what
failed, DuckDB's suggestions (candidate columns, "Did you mean") and the query's line with a
caret under the fault, still lined up; one message, never a traceback."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from paipu import store
from paipu.store_cmd import register
from tests.paipu.test_store import dianji_game, write


@pytest.fixture
def cli():
    app = typer.Typer()
    register(app)
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("query-messages")
    path = str(tmp / "s.duckdb")
    store.ingest([write(tmp / "a.jsonl", dianji_game("g1"))], path, audit=False)
    return path


def _caret_under(output: str, word: str) -> bool:
    """Whether the output has DuckDB's ``LINE n:`` excerpt and, on the next line, carets starting
    under ``word`` in it."""
    lines = output.splitlines()
    for i, line in enumerate(lines[:-1]):
        if line.startswith("LINE ") and word in line:
            caret = lines[i + 1]
            return caret.strip().startswith("^") and caret.index("^") == line.index(word)
    return False


def test_a_misspelt_column_shows_the_candidates_and_a_caret_under_it(db, cli):
    r = cli("query", "--db", db, "SELECT gmae, hands FROM games")
    assert r.exit_code == 2, r.output
    assert "paipu: the query failed: Binder Error" in r.output
    assert 'Candidate bindings: "game"' in r.output
    assert _caret_under(r.output, "gmae"), r.output
    assert "Traceback" not in r.output


def test_a_misspelt_table_shows_did_you_mean(db, cli):
    r = cli("query", "--db", db, "SELECT * FROM gmaes")
    assert r.exit_code == 2, r.output
    assert 'Did you mean "games"' in r.output
    assert _caret_under(r.output, "gmaes"), r.output


def test_a_query_that_does_not_parse_shows_where(db, cli):
    r = cli("query", "--db", db, "SELECT game FROM games WHER hands > 1")
    assert r.exit_code == 2, r.output
    assert "does not parse" in r.output and "syntax error" in r.output
    assert _caret_under(r.output, "hands"), r.output


def test_a_right_query_shows_no_error(db, cli):
    """The near miss: the same query spelt right runs."""
    r = cli("query", "--db", db, "SELECT game FROM games", "--format", "csv")
    assert r.exit_code == 0, r.output
    assert "g1" in r.output and "failed" not in r.output


def test_the_message_is_bounded_and_keeps_the_caret_columns():
    from paipu.store.query import MESSAGE_LINES, MESSAGE_WIDTH, duckdb_message

    caret = "               ^^^^^"
    long = Exception("Binder Error: x\nCandidate bindings: \"hands\"\n\nLINE 1: select hnads\n" + caret + "\n"
                     + "\n".join("v" * (MESSAGE_WIDTH * 3) for _ in range(MESSAGE_LINES * 2)))
    text = duckdb_message(long)
    lines = text.splitlines()
    assert lines[:4] == ["Binder Error: x", 'Candidate bindings: "hands"', "LINE 1: select hnads", caret]
    assert len(lines) == MESSAGE_LINES + 1 and lines[-1].startswith("… (")
    assert max(len(x) for x in lines) <= MESSAGE_WIDTH + 2
    assert duckdb_message(Exception("")) == "Exception"
