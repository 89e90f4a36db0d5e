"""The store derives the rows of a game with flowers (144-tile sets, hainan.md): a flower dealt
or drawn is outside a hand's 34 counts, in both engines."""

from pathlib import Path

from paipu import store

HAINAN = str(Path(__file__).resolve().parents[2] / "sample_logs" / "hainan" / "clean" / "opt_flower_sets.jsonl")
PLAIN = str(Path(__file__).resolve().parents[2] / "sample_logs" / "clean" / "baiban_chow_aa_billing.jsonl")


def test_a_game_with_flowers_is_stored_by_both_engines(tmp_path):
    for engine in ("python", "sql"):
        got = store.ingest([HAINAN], str(tmp_path / f"{engine}.duckdb"), audit=False, engine=engine)
        assert (got.games_read, got.added, got.refused, got.internal_errors) == (1, 1, [], 0), engine


def test_near_miss_games_without_flowers_are_stored_as_before(tmp_path):
    got = store.ingest([PLAIN], str(tmp_path / "p.duckdb"), audit=False, engine="python")
    assert got.added == got.games_read and not got.refused
