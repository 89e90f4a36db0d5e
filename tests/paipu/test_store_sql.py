"""Ingest with the batched derivation (``engine="sql"``, paipu.store.derive: each batch's rows
built from the decoded games and appended as Arrow) and an audit's output joined.

The per-event Python derivation (``engine="python"``, ``ingest.game_rows``) is the
reference: on every sample log, and on games built to hit the awkward cases, the
batched derivation must store the same rows in every table.
"""

from __future__ import annotations

import json
import os

import duckdb
import pytest
import typer
from typer.testing import CliRunner

from paipu import store
from paipu.store.tables import TABLES
from paipu.store_cmd import register
from tests.paipu.test_store import counts, dianji_game, q, write

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = os.path.join(ROOT, "sample_logs")

#: The one column whose value differs between two ingests of the same logs: the write time.
ENGINE_COLUMNS = {"games": ("ingested_at",)}


@pytest.fixture
def cli():
    app = typer.Typer()
    register(app)
    runner = CliRunner()
    return lambda *args: runner.invoke(app, list(args))


def contents(db: str, skip: dict = ENGINE_COLUMNS) -> dict[str, list]:
    """Every table's rows, sorted; ``extra`` as parsed JSON (the same fields, however spaced)."""
    con = duckdb.connect(db, read_only=True)
    try:
        out = {}
        for t in TABLES:
            cols = [c for c in t.names if c not in skip.get(t.name, ())]
            rows = con.execute(f"SELECT {', '.join(cols)} FROM {t.name} ORDER BY ALL").fetchall()
            if t.name == "events":
                i = cols.index("extra")
                rows = sorted((*r[:i], json.loads(r[i]) if r[i] is not None else None, *r[i + 1:]) for r in rows)
            out[t.name] = rows
        return out
    finally:
        con.close()


def _events(b) -> list[dict]:
    return [json.loads(x) for x in b.jsonl().splitlines()]


def _dump(path, *games: list[dict]) -> str:
    with open(path, "w", encoding="utf-8") as f:
        for g in games:
            for d in g:
                f.write(json.dumps(d, ensure_ascii=False) + "\n")
    return str(path)


def _awkward(tmp_path) -> str:
    """Games that hit the derivation's corners: a resize in the middle of a hand, a hand never
    settled, a game never closed, an unreadable line, events after a settlement."""
    resized = _events(dianji_game("resized"))
    i = next(k for k, d in enumerate(resized) if d["type"] == "TileDiscarded")
    resized.insert(i, {"type": "RoomResized", "game": "resized", "seq": 0, "at": resized[i]["at"],
                       "seats": ["A", "B", "C"]})
    for d in resized:
        if d["type"] in ("HandSettled", "GameClosed"):
            d["scores"] = d["scores"][:3]
    resized = [{**d, "seq": k} for k, d in enumerate(resized)]
    unsettled = [d for d in _events(dianji_game("unsettled")) if d["type"] != "HandSettled"]
    unclosed = [d for d in _events(dianji_game("unclosed")) if d["type"] != "GameClosed"]
    bad = _events(dianji_game("bad"))
    bad[7]["seat"] = 9
    after = _events(dianji_game("after"))
    k = next(k for k, d in enumerate(after) if d["type"] == "HandSettled")
    after.insert(k + 1, {**after[k - 2], "game": "after"})  # a draw after the hand was settled
    return _dump(tmp_path / "awkward.jsonl", resized, unsettled, unclosed, bad, after)


@pytest.mark.parametrize("audit", [True, False], ids=["audited", "no-audit"])
def test_sql_derivation_stores_the_rows_of_the_python_one(tmp_path, audit):
    paths = [SAMPLES, _awkward(tmp_path)]
    sql, py = str(tmp_path / "sql.duckdb"), str(tmp_path / "py.duckdb")
    a = store.ingest(paths, sql, audit=audit)
    b = store.ingest(paths, py, audit=audit, engine="python")
    assert (a.games_read, a.added, a.refused, a.events, a.findings) == \
        (b.games_read, b.added, b.refused, b.events, b.findings)
    mine, reference = contents(sql), contents(py)
    for t in TABLES:
        assert mine[t.name] == reference[t.name], t.name
    assert len(mine["hand_players"]) > 500 and any(r[12] is not None for r in mine["hand_players"])  # chickens
    # the content hash is one definition for both engines: the same game is unchanged either way
    again = store.ingest(paths, py, audit=audit)
    assert again.added == 0 and again.replaced == [] and again.unchanged == a.added


def test_a_changed_row_is_seen_by_the_comparison(tmp_path):
    """Near miss: the comparison above notices a single changed value."""
    path = write(tmp_path / "a.jsonl", dianji_game("g1"))
    sql, py = str(tmp_path / "sql.duckdb"), str(tmp_path / "py.duckdb")
    store.ingest([path], sql, audit=False)
    store.ingest([path], py, audit=False, engine="python")
    con = duckdb.connect(sql)
    con.execute("UPDATE hand_players SET chickens = chickens + 1 WHERE seat = 0")
    con.close()
    assert contents(sql)["hand_players"] != contents(py)["hand_players"]


def test_body_hash_ignores_id_time_and_seal_but_not_a_tile(tmp_path):
    db = str(tmp_path / "s.duckdb")
    base = _events(dianji_game("g1"))
    moved = _events(dianji_game("g2", start_hour=7))
    sealed = [dict(d, game="g3", prev="ab" * 32) if k else dict(d, game="g3") for k, d in enumerate(base)]
    tile = [dict(d, game="g4") for d in base]
    k = next(k for k, d in enumerate(tile) if d["type"] == "TileDiscarded")
    tile[k]["tile"] = "3z"
    store.ingest([_dump(tmp_path / "a.jsonl", base, moved, sealed, tile)], db, audit=False)
    h = dict(q(db, "SELECT game, body_hash FROM games"))
    assert h["g1"] == h["g2"] == h["g3"] and h["g4"] != h["g1"]
    assert len(set(dict(q(db, "SELECT game, content_hash FROM games")).values())) == 4


def test_a_malformed_line_names_file_line_and_field_and_the_other_games_are_stored(tmp_path, cli):
    db = str(tmp_path / "s.duckdb")
    g1, g2, g3 = _events(dianji_game("g1")), _events(dianji_game("g2")), _events(dianji_game("g3"))
    g2[5]["tile"] = "10m"
    path = _dump(tmp_path / "a.jsonl", g1, g2, g3)
    with open(path, "a") as f:
        f.write('{"type": "TileDrawn", "game": \n')
    r = cli("ingest", path, "--db", db, "--no-audit")
    line = len(g1) + 6
    assert r.exit_code == 0, r.output
    assert f"{path}:{len(g1) + len(g2) + len(g3) + 1}: not JSON" in r.output  # an orphan line, on stderr
    assert q(db, "SELECT list(game ORDER BY game) FROM games")[0][0] == ["g1", "g2", "g3"]
    problem, complete, events = q(db, "SELECT problem, complete, events FROM games WHERE game = 'g2'")[0]
    assert problem.startswith(f"{path}:{line}: ") and "at field `tile`" in problem
    assert (complete, events) == (False, 5)  # stored up to the bad line
    assert q(db, "SELECT count(*) FROM events WHERE game = 'g3'")[0][0] == len(g3)


# --- the audit's output ---------------------------------------------------------------


def _audit_json(cli_paths, out) -> None:
    """``paipu audit PATHS --format json -o OUT``."""
    from paipu import audit_cmd

    app = typer.Typer()
    audit_cmd.register(app)
    register(app)  # a second command keeps `audit` a named subcommand
    r = CliRunner().invoke(app, ["audit", *cli_paths, "--format", "json", "-o", str(out)])
    assert r.exit_code in (0, 1), r.output


def test_an_audit_output_stores_what_the_audit_in_process_stores(tmp_path, cli):
    out = tmp_path / "audit.jsonl"
    _audit_json([SAMPLES], out)
    joined, own = str(tmp_path / "joined.duckdb"), str(tmp_path / "own.duckdb")
    r = cli("ingest", SAMPLES, "--db", joined, "--audit-output", str(out))
    assert r.exit_code == 0, r.output
    store.ingest([SAMPLES], own)
    mine, reference = contents(joined, {"games": ("ingested_at",)}), contents(own, {"games": ("ingested_at",)})
    for t in TABLES:
        assert mine[t.name] == reference[t.name], t.name
    assert mine["findings"] and mine["ledger"] and mine["corrections"]
    # idempotent: the same logs and output again change nothing
    again = store.ingest([SAMPLES], joined, audit_output=str(out))
    assert again.added == 0 and again.replaced == [] and again.unchanged > 0


def test_a_stale_audit_output_is_refused_and_nothing_is_written(tmp_path, cli):
    path = write(tmp_path / "a.jsonl", dianji_game("g1"), dianji_game("g2"))
    out = tmp_path / "audit.jsonl"
    _audit_json([path], out)
    db = str(tmp_path / "s.duckdb")
    # near miss first: the logs as audited are accepted
    ok = cli("ingest", path, "--db", str(tmp_path / "ok.duckdb"), "--audit-output", str(out))
    assert ok.exit_code == 0, ok.output
    write(tmp_path / "a.jsonl", dianji_game("g1"), dianji_game("g2", final=99))  # one game changed since
    r = cli("ingest", path, "--db", db, "--audit-output", str(out))
    assert r.exit_code == 2, r.output
    assert "was made from other content of" in r.output and path in r.output and "Traceback" not in r.output
    assert counts(db)["games"] == 0


def test_an_audit_output_of_other_logs_is_refused(tmp_path, cli):
    a = write(tmp_path / "a.jsonl", dianji_game("g1"))
    b = write(tmp_path / "b.jsonl", dianji_game("g2"))
    out = tmp_path / "audit.jsonl"
    _audit_json([a], out)
    db = str(tmp_path / "s.duckdb")
    r = cli("ingest", b, "--db", db, "--audit-output", str(out))
    assert r.exit_code == 2 and "game g2 of" in r.output and "is not in the audit output" in r.output
    assert counts(db)["games"] == 0


def test_a_filtered_or_foreign_audit_output_is_refused(tmp_path, cli):
    path = write(tmp_path / "a.jsonl", dianji_game("g1", underpay=True))
    out = tmp_path / "audit.jsonl"
    _audit_json([path], out)
    lines = out.read_bytes().splitlines()
    assert len(lines) >= 2  # the underpaid 点鸡 gives a finding, then the summary
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"\n".join(lines[1:]) + b"\n")  # a finding dropped
    r = cli("ingest", path, "--db", str(tmp_path / "s.duckdb"), "--audit-output", str(cut))
    assert r.exit_code == 2 and "findings in the audit output but the audit found" in r.output
    # a log given as the audit output is no audit output
    r = cli("ingest", path, "--db", str(tmp_path / "s.duckdb"), "--audit-output", path)
    assert r.exit_code == 2 and "not a finding or a summary record" in r.output
    r = cli("ingest", path, "--db", str(tmp_path / "s.duckdb"), "--audit-output", str(out), "--no-audit")
    assert r.exit_code == 2 and "cannot go with --no-audit" in r.output


def test_an_audit_output_missing_a_later_game_keeps_the_whole_batches_before_it(tmp_path):
    games = [dianji_game(f"g{i}", start_hour=i) for i in range(4)]
    path = write(tmp_path / "a.jsonl", *games)
    out = tmp_path / "audit.jsonl"
    _audit_json([path], out)
    # the audit output as if the audit had stopped after g1: g2 and g3 have no summary
    kept, seen = [], 0
    for line in out.read_bytes().splitlines():
        if seen < 2:
            kept.append(line)
        seen += b'"record":"summary"' in line
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"\n".join(kept) + b"\n")
    db = str(tmp_path / "s.duckdb")
    with pytest.raises(store.StoreError, match="game g2 of .* is not in the audit output"):
        store.ingest([path], db, audit_output=str(cut), batch_events=2 * len(games[0].events))
    assert q(db, "SELECT list(game ORDER BY game) FROM games")[0][0] == ["g0", "g1"]
    assert q(db, "SELECT count(*) FROM ledger WHERE game IN ('g2', 'g3')")[0][0] == 0


def test_an_audit_output_without_its_logs_digest_is_refused(tmp_path, cli):
    """A summary record without ``source`` (an older paipu's audit) cannot be checked: refused."""
    path = write(tmp_path / "a.jsonl", dianji_game("g1"))
    out = tmp_path / "audit.jsonl"
    _audit_json([path], out)
    records = [json.loads(x) for x in out.read_text().splitlines()]
    assert records[-1]["record"] == "summary" and records[-1]["source"]["bytes"] == os.path.getsize(path)
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "source"}) + "\n" for r in records))
    r = cli("ingest", path, "--db", str(tmp_path / "s.duckdb"), "--audit-output", str(old))
    assert r.exit_code == 2 and "does not record its log's content" in r.output
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n")
    r = cli("ingest", path, "--db", str(tmp_path / "s.duckdb"), "--audit-output", str(broken))
    assert r.exit_code == 2 and f"{broken}:1: not JSON" in r.output


def test_an_audit_output_into_a_parquet_dataset_stores_the_same_rows(tmp_path):
    from paipu.store.parquet import open_dataset

    out = tmp_path / "audit.jsonl"
    _audit_json([SAMPLES], out)
    ds, own = str(tmp_path / "dataset"), str(tmp_path / "own.duckdb")
    store.ingest([SAMPLES], parquet=ds, audit_output=str(out), batch_events=3_000)
    store.ingest([SAMPLES], own)
    con = open_dataset(ds)
    try:
        got = {t.name: con.execute(f"SELECT {', '.join(c for c in t.names if c != 'ingested_at')} FROM {t.name} "
                                   "ORDER BY ALL").fetchall() for t in TABLES if t.name != "events"}
    finally:
        con.close()
    expected = contents(own)
    for name, rows in got.items():
        assert rows == expected[name], name
    assert got["findings"] and got["ledger"]
