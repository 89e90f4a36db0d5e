"""The history store: tables, idempotence, replacement, atomicity, and the read-only query command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time

import duckdb
import pytest
import typer
from typer.testing import CliRunner

from paipu import store
from paipu.store_cmd import register
from schema.builder import GameBuilder

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

DEAL = ("11s123m456p789p2z33z", "1s23m456m789m123p4z", "4m5m6m7m8m9m1z1z2z2z3z3z4z", "4p5p6p7p8p9p4s5s6s7s8s9s4z")


def first_round(b: GameBuilder) -> None:
    """Deal :data:`DEAL` with 9s 8s face up; the dealer discards, then each seat draws and discards."""
    b.deal(*DEAL)
    b.tail("9s", "8s")
    b.discard(0, "2z")
    for seat, tile in ((1, "5m"), (2, "6p"), (3, "1p")):
        b.draw(seat, tile)
        b.discard(seat, tile)


def dianji_game(gid: str, *, seats=("A", "B", "C", "D"), build: str = "1.0", underpay: bool = False,
                final: int | None = None, start_hour: int = 0) -> GameBuilder:
    """One 点鸡 hand: seat 1 wins on seat 0's discard; chickens 2, 1, 0, 0 (nets +5, +1, −3, −3)."""
    from datetime import timedelta

    from schema.builder import EPOCH

    b = GameBuilder(gid, seats=seats, options={"dianji": True}, build=build, start=EPOCH + timedelta(hours=start_hour))
    b.open()
    b.hand(1, dealer=0)
    first_round(b)
    b.win([(1, ["wuji"], 1, 2)], "discard", "1p", from_seat=3)
    transfers = [(3, 1, 2, "win"), (1, 0, 1, "dianji"), (2, 0, 2, "dianji"), (2, 1, 1, "dianji"),
                 (3, 0, 2, "dianji"), (3, 1, 1, "dianji")]
    if underpay:
        transfers[-2] = (3, 0, 1, "dianji")
    scores = [0, 0, 0, 0]
    for payer, payee, amount, _ in transfers:
        scores[payer] -= amount
        scores[payee] += amount
    b.settle(transfers, scores)
    b.close("hands_done", scores if final is None else [final, *scores[1:]])
    return b


def write(path, *builders) -> str:
    with open(path, "wb") as f:
        for b in builders:
            f.write(b.jsonl())
    return str(path)


def counts(db: str) -> dict[str, int]:
    con = store.connect(db, read_only=True)
    try:
        return store.table_counts(con)
    finally:
        con.close()


def q(db: str, sql: str, params=None) -> list[tuple]:
    con = duckdb.connect(db, read_only=True)
    try:
        return con.execute(sql, params or {}).fetchall()
    finally:
        con.close()


@pytest.fixture
def two_games(tmp_path):
    return write(tmp_path / "a.jsonl", dianji_game("g1"), dianji_game("g2", seats=("E", "F", "G", "H")))


# --- the tables ------------------------------------------------------------


def test_ingest_fills_every_table(tmp_path, two_games):
    db = str(tmp_path / "s.duckdb")
    r = store.ingest([two_games], db)
    assert (r.games_read, r.added, r.unchanged, r.replaced) == (2, 2, 0, [])
    c = counts(db)
    n_events = len(dianji_game("g1").events)
    assert c["games"] == 2 and c["events"] == 2 * n_events
    assert c["hands"] == 2 and c["wins"] == 2 and c["hand_players"] == 8 and c["transfers"] == 12
    assert r.events == 2 * n_events

    g = q(db, "SELECT server, build, preset, players, seats, hands, closed, close_reason, complete, "
              "(ruleset->>'dianji')::BOOLEAN, events FROM games WHERE game = 'g1'")[0]
    assert g == ("paipu-sim", "1.0", "qujing-xiaoji", ["A", "B", "C", "D"], 4, 1, True, "hands_done",
                 g[8], True, n_events)
    h = q(db, "SELECT dealer, result, win_kind, from_seat, winners, fans, fan, points, draws, remaining, "
              "first_draw, settled FROM hands WHERE game = 'g1'")[0]
    assert h == (0, "won", "discard", 3, [1], ["wuji"], 1, 2, 3, 136 - 53 - 3, "5m", True)
    rows = q(db, "SELECT seat, player, chickens, dianji_net, score_change, won, dealt_in, discards, offered, "
                 "draws FROM hand_players WHERE game = 'g1' ORDER BY seat")
    assert [r[:4] for r in rows] == [(0, "A", 2, 5), (1, "B", 1, 1), (2, "C", 0, -3), (3, "D", 0, -3)]
    assert [r[4] for r in rows] == [5, 3, -3, -5]
    assert [r[5] for r in rows] == [False, True, False, False]
    assert [r[6] for r in rows] == [False, False, False, True]
    assert [r[7] for r in rows] == [1, 1, 1, 1] and [r[8] for r in rows] == [3, 3, 3, 3]
    assert [r[9] for r in rows] == [0, 1, 1, 1]
    ev = q(db, "SELECT seq, type, hand, seat, tile, extra FROM events WHERE game = 'g1' ORDER BY seq")
    assert [e[0] for e in ev] == list(range(n_events))
    assert ev[0][1:3] == ("GameOpened", 0) and ev[4][1:] == ("TileDiscarded", 1, 0, "2z", None)
    t = q(db, "SELECT idx, payer_player, payee_player, amount, reason FROM transfers WHERE game = 'g1' ORDER BY idx")
    assert t[0] == (0, "D", "B", 2, "win") and t[1] == (1, "B", "A", 1, "dianji")


def test_a_hand_won_several_times_keeps_every_win_in_its_row(tmp_path):
    """血战到底: sample ex07 is won twice in one hand (seat 1 on seat 0's discard, 对对胡 2 points;
    then seat 2 by self-draw, 清一色 4 points) before the wall runs out.  The hand's row names both
    winners, both wins' fans, the highest fan and the points summed; win_kind and from_seat stay
    the first win's; both winners have ``won`` in hand_players, and ``offered`` counts only the
    discards made before each one left.  Near miss: a hand won once (the 点鸡 game) keeps its
    one win as it was."""
    db = str(tmp_path / "s.duckdb")
    store.ingest([os.path.join(ROOT, "sample_logs", "clean", "sichuan_ex07_huazhu.jsonl")], db)
    h = q(db, "SELECT result, win_kind, from_seat, winners, fans, fan, points FROM hands")
    assert h == [("drawn", "discard", 0, [1, 2], ["duidui", "jihu", "qingyise"], 2, 6)]
    won = q(db, "SELECT seat FROM hand_players WHERE won ORDER BY seat")
    assert won == [(1,), (2,)]
    # a winner leaves the hand: its claim opportunities are the others' discards before its win
    # (seat 1 won at seq 8, seat 2 at seq 18); the seats that stay in are offered every one
    offered = q(db, "SELECT seat, offered FROM hand_players ORDER BY seat")
    assert offered == [(0, 27), (1, 1), (2, 3), (3, 28)]
    assert q(db, "SELECT count(*) FROM wins")[0][0] == 2
    once = write(tmp_path / "once.jsonl", dianji_game("g1"))
    store.ingest([once], db)
    assert q(db, "SELECT winners, fans, fan, points, win_kind, from_seat FROM hands WHERE game = 'g1'") == \
        [([1], ["wuji"], 1, 2, "discard", 3)]


def test_raw_event_json_is_kept_only_with_keep_raw_and_then_with_zstd(tmp_path, two_games):
    """Without --keep-raw the events table keeps no JSON of its own (``raw`` NULL); with it, each
    event's JSON in the schema's own encoding, kept with zstd, which DuckDB would not pick itself."""
    from schema.reader import encode_events, read_games

    plain_db, raw_db = str(tmp_path / "s.duckdb"), str(tmp_path / "raw.duckdb")
    store.ingest([two_games], plain_db)
    assert q(plain_db, "SELECT count(raw), count(*) > 0 FROM events")[0] == (0, True)
    store.ingest([two_games], raw_db, keep_raw=True)
    games, _ = read_games([two_games])
    want = sorted(line for g in games for line in encode_events(g.events).decode().splitlines())
    assert sorted(r for (r,) in q(raw_db, "SELECT raw FROM events")) == want
    con = duckdb.connect(raw_db)
    try:
        con.execute("CHECKPOINT")
        used = dict(con.execute("SELECT column_name, list(DISTINCT compression) FROM pragma_storage_info('events') "
                                "WHERE segment_type <> 'VALIDITY' GROUP BY ALL").fetchall())
        # the same JSON in a column DuckDB compresses as it likes: not zstd
        con.execute("CREATE TABLE plain AS SELECT raw FROM events")
        con.execute("CHECKPOINT")
        plain = {c for (c,) in con.execute("SELECT DISTINCT compression FROM pragma_storage_info('plain') "
                                            "WHERE segment_type <> 'VALIDITY'").fetchall()}
    finally:
        con.close()
    assert used["raw"] == ["ZSTD"]
    assert "ZSTD" not in plain and "ZSTD" not in used["seq"]


def test_findings_are_stored_when_the_audit_is_there(tmp_path, two_games):
    db = str(tmp_path / "s.duckdb")
    r = store.ingest([two_games], db)
    if not r.audited:
        pytest.skip("audits.audit is not importable yet")
    n = q(db, "SELECT count(*) FROM findings")[0][0]
    assert n == r.findings == q(db, "SELECT sum(findings) FROM games")[0][0]
    assert q(db, "SELECT bool_and(audited) FROM games")[0][0] is True


def test_audit_in_worker_processes_gives_the_same_store(tmp_path):
    games = [dianji_game(f"g{i}", start_hour=i, underpay=i % 2 == 1) for i in range(4)]
    path = write(tmp_path / "a.jsonl", *games)
    one, two = str(tmp_path / "one.duckdb"), str(tmp_path / "two.duckdb")
    r1 = store.ingest([path], one)
    r2 = store.ingest([path], two, jobs=2)
    assert (r1.findings, r1.added) == (r2.findings, r2.added)
    sql = "SELECT game, code, seq, seat FROM findings ORDER BY ALL"
    assert q(one, sql) == q(two, sql)
    assert counts(one) == counts(two)


@pytest.mark.parametrize("engine", ["sql", "python"])
def test_audit_workers_read_their_own_share(tmp_path, monkeypatch, engine):
    """``jobs > 1``: the workers read the logs themselves; no decoded game is pickled to
    them (a GameLog that cannot be pickled changes nothing), and the store is the one-job
    store (with either derivation of the rows)."""
    import pickle

    from schema.reader import GameLog

    def refuse(self):
        raise pickle.PicklingError("a decoded game was sent to a worker")

    games = [dianji_game(f"g{i}", start_hour=i, underpay=i % 2 == 1) for i in range(4)]
    path = write(tmp_path / "a.jsonl", *games)
    one, two = str(tmp_path / "one.duckdb"), str(tmp_path / "two.duckdb")
    r1 = store.ingest([path], one, engine=engine)
    monkeypatch.setattr(GameLog, "__reduce__", refuse, raising=False)
    r2 = store.ingest([path], two, jobs=2, engine=engine)
    assert r2.findings == r1.findings > 0 and r2.added == 4 and not r2.refused
    sql = "SELECT game, code, seq, seat, expected, actual FROM findings ORDER BY ALL"
    assert q(one, sql) == q(two, sql)
    assert q(one, "SELECT * FROM ledger ORDER BY ALL") == q(two, "SELECT * FROM ledger ORDER BY ALL")


def test_audit_workers_skip_the_results_of_unchanged_games(tmp_path):
    """Re-ingesting with one game changed: the workers audit every game, the batch takes the
    changed game's result and lets the unchanged games' results go (no result goes to the
    wrong game): the store is the one a one-job ingest of the changed file makes."""
    path = tmp_path / "a.jsonl"
    write(path, *[dianji_game(f"g{i}", start_hour=i) for i in range(4)])
    db = str(tmp_path / "s.duckdb")
    assert store.ingest([str(path)], db, jobs=2).added == 4
    write(path, *[dianji_game(f"g{i}", start_hour=i, underpay=i == 2) for i in range(4)])
    again = store.ingest([str(path)], db, jobs=2)
    assert (again.unchanged, again.replaced) == (3, ["g2"])
    fresh = str(tmp_path / "fresh.duckdb")
    store.ingest([str(path)], fresh)
    sql = "SELECT game, code, seq, seat FROM findings ORDER BY ALL"
    assert q(db, sql) == q(fresh, sql)
    per_game = "SELECT game, findings FROM games ORDER BY game"
    assert q(db, per_game) == q(fresh, per_game)
    assert dict(q(db, per_game))["g2"] > dict(q(db, per_game))["g1"]


def test_an_audit_worker_killed_mid_ingest_loses_no_game(tmp_path, monkeypatch, capsys):
    """``jobs > 1``: an audit worker killed while the ingest runs is replaced and audits
    again what it had not reported; the store is the one-job store."""
    import multiprocessing as mp
    import signal

    from audits import parallel

    monkeypatch.setattr(parallel, "SPAN_BYTES", 8192)  # many spans: the workers outlive batch 1
    # and each game takes a while, so a worker still holds unreported games when batch 1
    # commits, however the machine schedules the processes (forked workers inherit this)
    slow = parallel._Games.run

    def slow_run(self, log):
        time.sleep(0.1)
        return slow(self, log)

    monkeypatch.setattr(parallel._Games, "run", slow_run)
    games = [dianji_game(f"g{i:02}", start_hour=i, underpay=i % 3 == 0) for i in range(12)]
    path = write(tmp_path / "a.jsonl", *games)
    one, two = str(tmp_path / "one.duckdb"), str(tmp_path / "two.duckdb")
    store.ingest([path], one)
    killed: list[str] = []

    def kill_a_worker(batch: int) -> None:
        if batch == 1:
            victim = next(p for p in mp.active_children() if p.name.startswith("paipu-audit"))
            os.kill(victim.pid, signal.SIGKILL)
            killed.append(victim.name)

    r = store.ingest([path], two, jobs=2, batch_events=2 * len(games[0].events), before_commit=kill_a_worker)
    assert killed and r.added == 12 and not r.refused
    assert "died (killed by SIGKILL); a new worker audits the games it had not reported" in capsys.readouterr().err
    for sql in ("SELECT game, code, seq, seat FROM findings ORDER BY ALL", "SELECT game, findings FROM games ORDER BY ALL",
                "SELECT * FROM ledger ORDER BY ALL"):
        assert q(one, sql) == q(two, sql)


def test_audit_of_stdin_with_jobs_runs_here(tmp_path):
    """stdin is read once: with ``-`` and ``jobs > 1`` the audit runs in the ingesting process."""
    data = b"".join(dianji_game(f"g{i}", start_hour=i, underpay=i == 1).jsonl() for i in range(2))
    db = str(tmp_path / "s.duckdb")
    r = subprocess.run([sys.executable, "-m", "paipu", "ingest", "-", "--db", db, "--jobs", "2"], input=data,
                       capture_output=True, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    assert r.returncode == 0, r.stderr.decode()
    found = dict(q(db, "SELECT game, findings FROM games"))
    assert found["g1"] > found["g0"] and q(db, "SELECT bool_and(audited) FROM games") == [(True,)]


def test_ingest_without_audit_keeps_an_empty_findings_table(tmp_path, two_games):
    db = str(tmp_path / "s.duckdb")
    r = store.ingest([two_games], db, audit=False)
    assert not r.audited and counts(db)["findings"] == 0
    assert q(db, "SELECT bool_or(audited) FROM games")[0][0] is False


# --- idempotence and replacement -------------------------------------------------


def test_ingesting_twice_changes_nothing(tmp_path, two_games):
    db = str(tmp_path / "s.duckdb")
    store.ingest([two_games], db)
    before = counts(db)
    stamp = q(db, "SELECT list(ingested_at ORDER BY game) FROM games")
    again = store.ingest([two_games], db)
    assert (again.added, again.unchanged, again.replaced, again.events) == (0, 2, [], 0)
    assert counts(db) == before
    assert q(db, "SELECT list(ingested_at ORDER BY game) FROM games") == stamp
    # the same game from another file (or twice in one run) is still the same game
    other = write(tmp_path / "b.jsonl", dianji_game("g1"))
    third = store.ingest([other, other, two_games], db)
    assert third.unchanged == 4 and third.added == 0 and counts(db) == before


def test_a_changed_game_is_replaced_and_reported(tmp_path, two_games):
    db = str(tmp_path / "s.duckdb")
    store.ingest([two_games], db)
    before = counts(db)
    changed = write(tmp_path / "c.jsonl", dianji_game("g1", final=99))
    r = store.ingest([changed], db)
    assert r.replaced == ["g1"] and r.added == 0
    after = counts(db)
    # the new final score may earn the game a finding; every other table is the same size
    assert {k: v for k, v in after.items() if k != "findings"} == {k: v for k, v in before.items() if k != "findings"}
    assert after["findings"] == q(db, "SELECT sum(findings) FROM games")[0][0]
    assert q(db, "SELECT final_scores[1], file FROM games WHERE game = 'g1'")[0] == (99, changed)


def test_duplicate_content_under_another_id_shares_the_body_hash(tmp_path):
    db = str(tmp_path / "s.duckdb")
    store.ingest([write(tmp_path / "d.jsonl", dianji_game("g1"), dianji_game("g9", start_hour=5))], db)
    rows = q(db, "SELECT game, content_hash, body_hash FROM games ORDER BY game")
    assert rows[0][1] != rows[1][1] and rows[0][2] == rows[1][2]


def test_unreadable_lines_and_orphans_are_reported_not_fatal(tmp_path):
    path = tmp_path / "bad.jsonl"
    good = dianji_game("g1").jsonl()
    lines = good.splitlines()
    lines.insert(6, b'{"type":"TileDrawn","game":"g1","seq":6,"at":"2026-01-01T00:00:00Z","seat":9}')
    path.write_bytes(b"\n".join(lines) + b"\nnot json\n")
    db = str(tmp_path / "s.duckdb")
    r = store.ingest([str(path)], db)
    assert r.added == 1 and len(r.orphans) == 1 and "not JSON" in r.orphans[0]
    g = q(db, "SELECT events, complete, problem IS NOT NULL FROM games")[0]
    assert g == (6, False, True)


# --- atomicity -------------------------------------------------------------------


def test_a_failure_mid_batch_leaves_the_store_as_before_that_batch(tmp_path):
    db = str(tmp_path / "s.duckdb")
    games = [dianji_game(f"g{i}", start_hour=i) for i in range(6)]
    store.ingest([write(tmp_path / "first.jsonl", *games[:2])], db)
    before = counts(db)
    path = write(tmp_path / "rest.jsonl", *games[2:])
    per_game = len(games[0].events)

    def boom(batch: int) -> None:
        if batch == 2:
            raise RuntimeError("injected failure")

    with pytest.raises(RuntimeError):
        store.ingest([path], db, batch_events=2 * per_game, before_commit=boom)
    after = counts(db)
    # batch 1 (games 2 and 3) committed; batch 2 (games 4 and 5) left no trace
    assert after["games"] == before["games"] + 2
    assert after["events"] == before["events"] + 2 * per_game
    assert q(db, "SELECT list(game ORDER BY game) FROM games")[0][0] == ["g0", "g1", "g2", "g3"]
    for t in ("hands", "hand_players", "transfers", "wins", "events"):
        assert q(db, f"SELECT count(*) FROM {t} WHERE game IN ('g4', 'g5')")[0][0] == 0
    # and a rerun finishes the job without duplicating anything
    r = store.ingest([path], db)
    assert (r.added, r.unchanged) == (2, 2) and counts(db)["games"] == 6


def kill_ingest_in_batch_2(path: str, batch_events: int, where: str) -> None:
    """Run ``store.ingest([path], <where>)`` in a child process that dies (exit 9) just before
    the second batch would commit; ``where`` is the store argument as Python source."""
    script = textwrap.dedent(f"""
        import os
        from paipu import store
        def die(batch):
            if batch == 2:
                os._exit(9)
        store.ingest([{path!r}], {where}, batch_events={batch_events}, before_commit=die)
    """)
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, timeout=120)
    assert proc.returncode == 9, proc.stderr.decode()


def test_a_killed_ingest_leaves_no_half_written_batch(tmp_path):
    db = str(tmp_path / "s.duckdb")
    games = [dianji_game(f"g{i}", start_hour=i) for i in range(4)]
    path = write(tmp_path / "all.jsonl", *games)
    per_game = len(games[0].events)
    kill_ingest_in_batch_2(path, 2 * per_game, repr(db))  # the process dies inside the second transaction
    c = counts(db)
    assert c["games"] == 2 and c["events"] == 2 * per_game and c["hand_players"] == 8
    r = store.ingest([path], db)
    assert (r.added, r.unchanged) == (2, 2)


# --- the CLI ---------------------------------------------------------------------


@pytest.fixture
def cli():
    app = typer.Typer()
    register(app)
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


def test_ingest_command_reports_and_is_idempotent(tmp_path, two_games, cli):
    db = str(tmp_path / "s.duckdb")
    r = cli("ingest", two_games, "--db", db)
    assert r.exit_code == 0, r.output
    assert "2 added, 0 replaced, 0 unchanged" in r.output
    r = cli("ingest", two_games, "--db", db)
    assert "0 added, 0 replaced, 2 unchanged" in r.output
    changed = write(tmp_path / "c.jsonl", dianji_game("g2", seats=("E", "F", "G", "H"), final=7))
    r = cli("ingest", changed, "--db", db)
    assert "1 replaced" in r.output and "game g2 changed" in r.output


def test_ingest_command_bad_input_is_one_sentence(tmp_path, cli):
    r = cli("ingest", str(tmp_path / "nope.jsonl"), "--db", str(tmp_path / "s.duckdb"))
    assert r.exit_code == 2 and "no such file" in r.output and "Traceback" not in r.output
    junk = tmp_path / "junk.duckdb"
    junk.write_bytes(b"this is not a database" * 100)
    r = cli("ingest", write(tmp_path / "a.jsonl", dianji_game("g1")), "--db", str(junk))
    assert r.exit_code == 2 and "cannot open the store" in r.output


def test_query_formats(tmp_path, two_games, cli):
    db = str(tmp_path / "s.duckdb")
    store.ingest([two_games], db)
    sql = "SELECT game, hands, players FROM games ORDER BY game"
    r = cli("query", "--db", db, sql, "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output) == [{"game": "g1", "hands": 1, "players": ["A", "B", "C", "D"]},
                                    {"game": "g2", "hands": 1, "players": ["E", "F", "G", "H"]}]
    r = cli("query", "--db", db, sql, "--format", "csv")
    assert r.output.splitlines()[:2] == ["game,hands,players", 'g1,1,"[""A"", ""B"", ""C"", ""D""]"']
    r = cli("query", "--db", db, sql)
    assert r.exit_code == 0 and "g2" in r.output
    out = tmp_path / "games.parquet"
    r = cli("query", "--db", db, sql, "--format", "parquet", "--output", str(out))
    assert r.exit_code == 0, r.output
    assert duckdb.sql("SELECT count(*) FROM read_parquet($p)", params={"p": str(out)}).fetchall() == [(2,)]
    # strict JSON: a statistic no chance could make (an infinite X²) is named, never a bare Infinity
    r = cli("query", "--db", db, "SELECT 'Infinity'::DOUBLE AS x, '-Infinity'::DOUBLE AS y, 1.5::DOUBLE AS z",
            "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output, parse_constant=lambda c: pytest.fail(f"bare {c} in JSON")) == [
        {"x": "Infinity", "y": "-Infinity", "z": 1.5}]
    for ok in ("SHOW TABLES", "DESCRIBE games", "WITH x AS (SELECT 1 AS a) SELECT * FROM x", "FROM hands",
               "EXPLAIN SELECT * FROM games"):
        assert cli("query", "--db", db, ok).exit_code == 0, ok


@pytest.mark.parametrize("sql", [
    "DELETE FROM games",
    "DROP TABLE events",
    "UPDATE games SET hands = 0",
    "INSERT INTO meta VALUES ('a', 'b')",
    "CREATE TABLE x AS SELECT 1",
    "ATTACH '{tmp}/other.duckdb' AS other",
    "COPY games TO '{tmp}/leak.csv'",
    "COPY (SELECT * FROM games) TO '{tmp}/leak.parquet' (FORMAT parquet)",
    "EXPORT DATABASE '{tmp}/dump'",
    "INSTALL httpfs",
    "LOAD httpfs",
    "SET threads = 1",
    "PRAGMA enable_profiling",
    "CHECKPOINT",
    "SELECT 1; DELETE FROM games",
    "SELECT * FROM read_csv('{tmp}/secret.csv')",
    "SELECT * FROM read_text('/etc/passwd')",
])
def test_query_refuses_writes_and_file_access(tmp_path, two_games, cli, sql):
    db = str(tmp_path / "s.duckdb")
    store.ingest([two_games], db)
    (tmp_path / "secret.csv").write_text("a\n1\n")
    before = counts(db)
    r = cli("query", "--db", db, sql.format(tmp=tmp_path))
    assert r.exit_code == 2, r.output
    assert "paipu:" in r.output and "Traceback" not in r.output
    assert counts(db) == before
    for leaked in ("other.duckdb", "leak.csv", "leak.parquet", "dump"):
        assert not (tmp_path / leaked).exists()


def test_query_errors_are_one_sentence(tmp_path, two_games, cli):
    db = str(tmp_path / "s.duckdb")
    r = cli("query", "--db", db, "SELECT 1")
    assert r.exit_code == 2 and "no store" in r.output
    store.ingest([two_games], db)
    r = cli("query", "--db", db, "SELECT nope FROM games")
    assert r.exit_code == 2 and "the query failed" in r.output and "Traceback" not in r.output
    r = cli("query", "--db", db, "SELEC 1")
    assert r.exit_code == 2 and "does not parse" in r.output
    r = cli("query", "--db", db, "SELECT 1", "--format", "xml")
    assert r.exit_code == 2 and "unknown format" in r.output


def test_docs_describe_every_table():
    with open(os.path.join(ROOT, "docs", "store.md"), encoding="utf-8") as f:
        text = f.read()
    assert store.schema_markdown() in text


def test_remaining_counts_from_the_rooms_tile_set(tmp_path):
    # Sichuan plays 108 suited tiles: an exhaustive draw (流局) leaves nothing undrawn, where a
    # 136-tile count would claim 28 tiles left
    import glob

    logs = sorted(glob.glob(os.path.join(ROOT, "sample_logs", "*", "sichuan*.jsonl")))
    assert logs
    db = str(tmp_path / "s.duckdb")
    store.ingest(logs, db, audit=False)
    rows = q(db, "SELECT g.preset, h.result, h.remaining FROM hands h JOIN games g USING (game)")
    drawn = [r for _p, result, r in rows if result == "drawn"]
    assert drawn and set(drawn) == {0}
    assert all(0 <= r <= 108 for _p, _res, r in rows)
