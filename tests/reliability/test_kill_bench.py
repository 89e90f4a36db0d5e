"""The kill -9 bench's own machinery (``bench/kill_ingest.py``): an ingest forked from the warm
interpreter is the real command (same store as a fresh one, its exit code read back, killed
like any process), and the partial-game check finds a game stored in part."""

from __future__ import annotations

import importlib.util
import os
import signal

import duckdb
import pytest

from tests.reliability.helpers import ROOT


@pytest.fixture
def bench(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("kill_ingest_bench", os.path.join(ROOT, "bench", "kill_ingest.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    child_tmp = tmp_path / "tmp"
    child_tmp.mkdir()
    monkeypatch.setattr(mod, "CHILD_TMP", [str(child_tmp)])
    yield mod
    mod._kill_children()


def test_a_forked_ingest_is_the_command_and_dies_like_one(tmp_path, bench):
    paths = bench.build_corpus(str(tmp_path), files=1, games_per_file=2)
    bench.ZYGOTES.append(bench.Zygote(str(tmp_path)))
    fresh = str(tmp_path / "fresh.duckdb")
    p = bench.run_ingest(paths, fresh, 150)  # a new interpreter, as a user runs it
    p.communicate()
    assert p.returncode == 0
    forked = str(tmp_path / "forked.duckdb")
    f = bench.start_ingest(paths, forked, 150)
    f.communicate(timeout=300)
    assert f.returncode == 0
    assert bench.snapshot(forked) == bench.snapshot(fresh)
    assert bench.reingest(paths, forked, 150) is None  # again: all unchanged, exit 0
    # a failing command says so: a missing input is exit 2, not a pass
    missing = bench.start_ingest([str(tmp_path / "nope.jsonl")], str(tmp_path / "m.duckdb"), 150)
    missing.communicate(timeout=300)
    assert missing.returncode == 2
    # killed: no exit code of its own, counted as killed
    k = bench.start_ingest(paths, str(tmp_path / "k.duckdb"), 150)
    k.send_signal(signal.SIGKILL)
    k.communicate(timeout=60)
    assert k.returncode == -9 and not bench._alive(k.pid)


def test_the_partial_game_check_finds_a_game_stored_in_part(tmp_path, bench):
    paths = bench.build_corpus(str(tmp_path), files=1, games_per_file=2)
    db = str(tmp_path / "s.duckdb")
    bench.prefill(paths, db, 150)
    assert bench.partial_games(db) == []
    con = duckdb.connect(db)
    con.execute("DELETE FROM events WHERE game = 'f0-g1' AND seq = (SELECT max(seq) FROM events WHERE game = 'f0-g1')")
    con.close()
    assert bench.partial_games(db) == ["f0-g1"]
