"""A game whose first line fails the schema is stored with its problem, never counted "added"
with nothing written (issue 35): the DuckDB store, the Parquet dataset and the Python
derivation alike, with the audit on or off, alone in its batch or beside good games."""

from __future__ import annotations

import json

import pytest

from paipu import store
from paipu.store.parquet import open_dataset
from tests.paipu.test_store import dianji_game, q


def _lines(gid: str) -> list[dict]:
    return [json.loads(x) for x in dianji_game(gid).jsonl().splitlines()]


def _file(tmp_path, *games: list[dict]) -> str:
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for g in games for d in g), encoding="utf-8")
    return str(path)


def _broken_opening(gid: str) -> list[dict]:
    """A game whose GameOpened (its first line) fails the schema: no event of it is readable."""
    lines = _lines(gid)
    lines[0]["start_points"] = "lots"
    return lines


def _rows(con, gid: str) -> tuple:
    return con.execute("SELECT game, events, hands, complete, problem FROM games WHERE game = $g",
                       {"g": gid}).fetchall()


@pytest.mark.parametrize("audit", [True, False])
@pytest.mark.parametrize("engine", ["sql", "python"])
@pytest.mark.parametrize("company", [False, True])
def test_a_game_whose_first_line_fails_is_stored_with_its_problem(tmp_path, audit, engine, company):
    games = [_lines("g1"), _broken_opening("bad"), _lines("g2")] if company else [_broken_opening("bad")]
    db = str(tmp_path / "s.duckdb")
    r = store.ingest([_file(tmp_path, *games)], db, audit=audit, engine=engine)
    assert r.added == len(games) and not r.refused
    [(game, events, hands, complete, problem)] = q(db, "SELECT game, events, hands, complete, problem FROM games "
                                                       "WHERE game = 'bad'")
    assert (game, events, hands, complete) == ("bad", 0, 0, False)
    assert "in.jsonl:" in problem and "start_points" in problem
    # what was counted is what is stored
    assert q(db, "SELECT count(*) FROM games")[0][0] == r.added
    if audit:  # the audit's finding on the unreadable line is stored with it
        codes = [c for (c,) in q(db, "SELECT code FROM findings WHERE game = 'bad'")]
        assert codes == ["STREAM_UNREADABLE_LINE"]


@pytest.mark.parametrize("company", [False, True])
def test_the_parquet_dataset_keeps_it_too(tmp_path, company):
    games = [_lines("g1"), _broken_opening("bad")] if company else [_broken_opening("bad")]
    url = str(tmp_path / "pq")
    r = store.ingest([_file(tmp_path, *games)], parquet=url)
    assert r.added == len(games) and not r.refused
    con = open_dataset(url)
    try:
        [(game, events, hands, complete, problem)] = _rows(con, "bad")
        assert (game, events, hands, complete) == ("bad", 0, 0, False) and "start_points" in problem
        assert con.execute("SELECT count(*) FROM games").fetchone()[0] == r.added
    finally:
        con.close()


def test_the_stored_game_is_unchanged_on_a_second_ingest_and_replaced_when_fixed(tmp_path):
    db = str(tmp_path / "s.duckdb")
    path = _file(tmp_path, _broken_opening("bad"))
    store.ingest([path], db)
    again = store.ingest([path], db)
    assert (again.added, again.unchanged) == (0, 1)
    fixed = store.ingest([_file(tmp_path, _lines("bad"))], db)
    assert fixed.replaced == ["bad"]
    assert q(db, "SELECT events > 0, problem FROM games WHERE game = 'bad'") == [(True, None)]


def test_a_readable_game_still_counts_its_events_near_miss(tmp_path):
    # the near miss: the same game with a readable first line keeps all its events
    db = str(tmp_path / "s.duckdb")
    store.ingest([_file(tmp_path, _lines("ok"))], db)
    assert q(db, "SELECT events, problem FROM games WHERE game = 'ok'") == [(len(_lines("ok")), None)]
