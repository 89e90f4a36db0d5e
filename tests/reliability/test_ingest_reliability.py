"""Ingest drops nothing silently: every game read is added, replaced, unchanged or refused
with why; one bad game never costs a batch; spools live beside the store and are swept;
a second ingest into a busy store fails with a clear message."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
import typer
from typer.testing import CliRunner

from paipu import store
from paipu.store_cmd import register
from tests.paipu.test_store import counts, dianji_game, q, write
from tests.reliability.helpers import ROOT


@pytest.fixture
def cli():
    app = typer.Typer()
    register(app)
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


def _lines(b) -> list[dict]:
    return [json.loads(x) for x in b.jsonl().splitlines()]


def _dump(path, *games: list[dict]) -> str:
    with open(path, "w", encoding="utf-8") as f:
        for g in games:
            for d in g:
                f.write(json.dumps(d, ensure_ascii=False) + "\n")
    return str(path)


def _renumber(events: list[dict]) -> list[dict]:
    return [{**d, "seq": i} for i, d in enumerate(events)]


def _sums(r) -> bool:
    return r.games_read == r.added + len(r.replaced) + r.unchanged + len(r.refused)


# --- one bad game never costs the batch ---------------------------------------------


def test_an_integer_beyond_32_bits_is_an_unreadable_line_not_a_failed_batch(tmp_path):
    db = str(tmp_path / "s.duckdb")
    bad = _lines(dianji_game("bad"))
    settle = next(d for d in bad if d["type"] == "HandSettled")
    settle["transfers"][0]["amount"] = 2 ** 31
    path = _dump(tmp_path / "a.jsonl", _lines(dianji_game("g1")), bad, _lines(dianji_game("g2")))
    r = store.ingest([path], db)
    assert (r.added, r.refused) == (3, []) and _sums(r)
    assert q(db, "SELECT game, complete FROM games ORDER BY game") == [("bad", False), ("g1", True), ("g2", True)]
    problem = q(db, "SELECT problem FROM games WHERE game = 'bad'")[0][0]
    assert "expected `int` <= 2147483647 at field `transfers[0].amount`" in problem
    # the good games are whole
    assert q(db, "SELECT count(*) FROM events WHERE game = 'g2'")[0][0] == len(_lines(dianji_game("g2")))


def test_a_game_the_store_cannot_hold_is_refused_alone(tmp_path):
    # two winners each owed 2^31 - 1: every field fits, their sum (hands.points) does not
    db = str(tmp_path / "s.duckdb")
    bad = _lines(dianji_game("bad"))
    won = next(d for d in bad if d["type"] == "HandWon")
    won["winners"] = [dict(won["winners"][0], points=2 ** 31 - 1), dict(won["winners"][0], seat=2, points=2 ** 31 - 1)]
    path = _dump(tmp_path / "a.jsonl", _lines(dianji_game("g1")), bad, _lines(dianji_game("g2")))
    r = store.ingest([path], db)
    assert r.added == 2 and len(r.refused) == 1 and _sums(r)
    assert r.refused[0].startswith("game bad in ") and "the store could not take it" in r.refused[0]
    assert "ingest-" not in r.refused[0]  # no temporary path in a user message
    assert q(db, "SELECT list(game ORDER BY game) FROM games")[0][0] == ["g1", "g2"]
    for t in ("events", "hands", "hand_players", "transfers", "wins"):
        assert q(db, f"SELECT count(*) FROM {t} WHERE game = 'bad'")[0][0] == 0


def test_a_room_resized_in_the_middle_of_a_hand_is_stored(tmp_path, cli):
    db = str(tmp_path / "s.duckdb")
    ev = _lines(dianji_game("g1"))
    i = next(k for k, d in enumerate(ev) if d["type"] == "TileDiscarded")
    resize = {"type": "RoomResized", "game": "g1", "seq": 0, "at": ev[i]["at"], "seats": ["A", "B", "C"]}
    ev.insert(i, resize)
    for d in ev:
        if d["type"] in ("HandSettled", "GameClosed"):
            d["scores"] = d["scores"][:3]
    path = _dump(tmp_path / "a.jsonl", _renumber(ev))
    r = cli("ingest", path, "--db", db)
    assert r.exit_code == 0, r.output
    assert "1 added" in r.output
    assert q(db, "SELECT seats, players FROM games")[0] == (3, ["A", "B", "C"])
    assert q(db, "SELECT count(*) FROM hand_players")[0][0] == 4  # the hand was dealt to 4 seats


def test_an_internal_error_on_one_game_stores_the_others_and_exits_3(tmp_path, cli, monkeypatch):
    db = str(tmp_path / "s.duckdb")
    path = write(tmp_path / "a.jsonl", dianji_game("g1"), dianji_game("boom"), dianji_game("g2"))
    # the one step of ingest that runs per game in Python: its lines and content hash
    derive_mod = sys.modules["paipu.store.ingest"]  # ingest calls derive.game_lines by the name it imported
    real = derive_mod.game_lines

    def flaky(log, *a, **kw):
        if log.game == "boom":
            raise ZeroDivisionError("planted")
        return real(log, *a, **kw)

    monkeypatch.setattr(derive_mod, "game_lines", flaky)
    r = cli("ingest", path, "--db", db)
    assert r.exit_code == 3, r.output
    assert "3 games read: 2 added, 0 replaced, 0 unchanged, 1 refused" in r.output
    assert "internal error ZeroDivisionError: planted" in r.output and "Traceback" not in r.output
    assert counts(db)["games"] == 2


# --- the same game id twice in one run ------------------------------------------------


def test_a_game_id_repeated_across_files_is_refused_and_counted(tmp_path, cli):
    db = str(tmp_path / "s.duckdb")
    a = write(tmp_path / "a.jsonl", dianji_game("g1"), dianji_game("g2"))
    b = write(tmp_path / "b.jsonl", dianji_game("g1", final=7), dianji_game("g3"))
    copy = write(tmp_path / "c.jsonl", dianji_game("g2"))
    r = cli("ingest", a, b, copy, "--db", db)
    assert r.exit_code == 0, r.output
    assert "5 games read: 3 added, 0 replaced, 1 unchanged, 1 refused" in r.output
    assert f"refused game g1 in {b}: the id was already read from {a}" in r.output
    # the first one read is stored, with its own file
    assert q(db, "SELECT file, final_scores[1] FROM games WHERE game = 'g1'")[0][0] == a


def test_sample_logs_counts_add_up(tmp_path):
    db = str(tmp_path / "s.duckdb")
    r = store.ingest([os.path.join(ROOT, "sample_logs")], db, audit=False)
    assert _sums(r) and r.games_read == counts(db)["games"] + r.unchanged + len(r.refused)
    assert all("already read" in x for x in r.refused)


# --- spools beside the store, swept ----------------------------------------------------


def test_the_spool_is_beside_the_store_and_leftovers_are_swept(tmp_path, monkeypatch):
    import tempfile

    # a temporary folder of this test's own, so other processes' spools cannot show up in it
    own_tmp = tmp_path / "tmp"
    own_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(own_tmp))
    db = str(tmp_path / "s.duckdb")
    left = tmp_path / ".s.duckdb.ingest-999999-dead"
    left.mkdir()
    (left / "events.ndjson").write_bytes(b"x" * 1000)
    other = tmp_path / ".t.duckdb.ingest-999999-dead"  # another store's spool: not ours to sweep
    other.mkdir()
    before_tmp = set(os.listdir(own_tmp))
    seen = []

    def look(batch):
        seen.append(sorted(n for n in os.listdir(tmp_path) if n.startswith(".s.duckdb.ingest-")))

    store.ingest([write(tmp_path / "a.jsonl", dianji_game("g1"))], db, before_commit=look)
    assert len(seen) == 1 and len(seen[0]) == 1 and seen[0][0].startswith(f".s.duckdb.ingest-{os.getpid()}-")
    assert not left.exists() and other.exists()
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".s.duckdb.ingest-")]
    assert not {n for n in os.listdir(own_tmp) if n.startswith("paipu-ingest-")} - before_tmp


def test_a_killed_ingest_leaves_its_spool_beside_the_store_and_the_next_one_sweeps_it(tmp_path):
    db = str(tmp_path / "s.duckdb")
    path = write(tmp_path / "all.jsonl", *[dianji_game(f"g{i}", start_hour=i) for i in range(3)])
    script = textwrap.dedent(f"""
        import os
        from paipu import store
        def die(batch):
            os.kill(os.getpid(), 9)
        store.ingest([{path!r}], {db!r}, before_commit=die)
    """)
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, timeout=120)
    assert proc.returncode == -9
    assert [n for n in os.listdir(tmp_path) if n.startswith(".s.duckdb.ingest-")]
    r = store.ingest([path], db)
    assert r.added == 3
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".s.duckdb.ingest-")]


# --- two ingests at once ----------------------------------------------------------------


def test_a_second_ingest_into_a_busy_store_fails_with_a_clear_message(tmp_path, cli):
    db = str(tmp_path / "s.duckdb")
    path = write(tmp_path / "a.jsonl", dianji_game("g1"), dianji_game("g2"))
    script = textwrap.dedent(f"""
        import sys, time
        from paipu import store
        def hold(batch):
            print("writing", flush=True)
            time.sleep(4)
        store.ingest([{path!r}], {db!r}, before_commit=hold)
        print("done", flush=True)
    """)
    first = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert first.stdout.readline() == b"writing\n"
        r = cli("ingest", path, "--db", db)
        assert r.exit_code == 2, r.output
        assert f"the store {db} is in use by another paipu process (process {first.pid})" in r.output
        assert "Traceback" not in r.output
    finally:
        out, err = first.communicate(timeout=60)
    assert first.returncode == 0 and out == b"done\n", err
    assert counts(db)["games"] == 2
    r = cli("ingest", path, "--db", db)
    assert "0 added, 0 replaced, 2 unchanged, 0 refused" in r.output
