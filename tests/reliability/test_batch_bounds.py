"""A batch is cut by games as well as by events (issue 35): many tiny games never make one
pathological batch."""

from __future__ import annotations

import json

import pytest

from paipu import store
from tests.paipu.test_store import dianji_game, q


def _tiny(tmp_path, n: int) -> str:
    """``n`` two-event games (an opening and a closing each)."""
    lines = [json.loads(x) for x in dianji_game("x").jsonl().splitlines()]
    opened, closed = lines[0], lines[-1]
    assert closed["type"] == "GameClosed"
    path = tmp_path / "tiny.jsonl"
    with open(path, "w", encoding="utf-8") as f:
        for i in range(n):
            f.write(json.dumps(dict(opened, game=f"t{i}", seq=0)) + "\n")
            f.write(json.dumps(dict(closed, game=f"t{i}", seq=1)) + "\n")
    return str(path)


@pytest.mark.parametrize("engine", ["sql", "python"])
def test_a_batch_is_cut_at_its_games(tmp_path, engine):
    db = str(tmp_path / "s.duckdb")
    r = store.ingest([_tiny(tmp_path, 25)], db, audit=False, batch_games=10, engine=engine)
    assert (r.added, r.batches) == (25, 3)
    assert q(db, "SELECT count(*) FROM games")[0][0] == 25


def test_events_still_cut_first_when_they_fill_sooner_near_miss(tmp_path):
    # 25 games of 2 events: 8 events a batch cut before 10 games
    r = store.ingest([_tiny(tmp_path, 25)], str(tmp_path / "s.duckdb"), audit=False, batch_events=8,
                     batch_games=10)
    assert (r.added, r.batches) == (25, 7)


def test_the_default_bounds_both():
    assert store.DEFAULT_BATCH_GAMES <= 10_000 and store.DEFAULT_BATCH_EVENTS >= 100_000
