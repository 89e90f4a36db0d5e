"""The ingest's batch spool: a batch's lines go to disk as they are read, and the games of a
batch that are already stored unchanged are left out of what DuckDB loads from it."""

from __future__ import annotations

import os
import sys

import duckdb

from paipu import store
from tests.paipu.test_store import counts, dianji_game, q, write

TABLES_WITH_ROWS = ("games", "events", "hands", "hand_players", "transfers", "wins")


def per_game(db: str) -> dict[str, dict[str, int]]:
    """Rows per game in each table that has rows for every game here."""
    return {t: dict(q(db, f"SELECT game, count(*) FROM {t} GROUP BY game")) for t in TABLES_WITH_ROWS}


def test_a_batch_mixing_stored_changed_and_new_games_writes_each_once(tmp_path):
    db = str(tmp_path / "s.duckdb")
    store.ingest([write(tmp_path / "a.jsonl", dianji_game("g1"), dianji_game("g2"))], db)
    # one batch: g1 unchanged (left out of the load), g2 changed (replaced), g3 new
    mixed = write(tmp_path / "b.jsonl", dianji_game("g1"), dianji_game("g2", final=7), dianji_game("g3"))
    r = store.ingest([mixed], db)
    assert (r.batches, r.added, r.replaced, r.unchanged) == (1, 1, ["g2"], 1)
    assert r.events == 2 * len(dianji_game("g3").events)
    # the same rows as the final content ingested into an empty store
    fresh = str(tmp_path / "fresh.duckdb")
    store.ingest([mixed], fresh)
    assert per_game(db) == per_game(fresh)
    assert q(db, "SELECT game, final_scores[1] FROM games ORDER BY game") == \
        q(fresh, "SELECT game, final_scores[1] FROM games ORDER BY game")
    # the unchanged game kept its row as first written (not written again)
    assert q(db, "SELECT file FROM games WHERE game = 'g1'")[0][0].endswith("a.jsonl")


def test_a_game_the_store_refuses_is_retried_alone_from_the_spool(tmp_path, monkeypatch):
    """A batch the store rejects is written again one game per transaction, each game's lines read
    back from the batch's spool: only the game at fault is refused."""
    from paipu.store import derive

    db = str(tmp_path / "s.duckdb")
    path = write(tmp_path / "a.jsonl", dianji_game("g1"), dianji_game("bad"), dianji_game("g2"))
    real = derive.write_batch

    def picky(con, spool, meta, *a, **kw):
        if any(m["game"] == "bad" for m in meta):
            raise duckdb.ConversionException("planted: a value the store cannot hold")
        return real(con, spool, meta, *a, **kw)

    monkeypatch.setattr(derive, "write_batch", picky)
    monkeypatch.setattr(sys.modules["paipu.store.ingest"], "write_batch", picky)  # ingest's own name for it
    r = store.ingest([path], db)
    assert r.added == 2 and len(r.refused) == 1 and "game bad" in r.refused[0]
    assert q(db, "SELECT list(game ORDER BY game) FROM games")[0][0] == ["g1", "g2"]
    assert counts(db)["events"] == 2 * len(dianji_game("g1").events)
    # nothing of the spool is left beside the store
    assert not [n for n in os.listdir(tmp_path) if ".ingest-" in n]
