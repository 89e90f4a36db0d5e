"""The anomaly checks judge every game within its own ruleset, and live in the store.

A store that holds Qujing, Guangdong, Sichuan and 血战到底 games together must not
pool them: each is won, drawn and claimed at its own rates, and Sichuan's 108-tile
set has 27 kinds, not 34.  The checks are also stored as table macros and a view
that plain DuckDB runs.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter

import duckdb
import pytest

from paipu import store
from paipu.store import anomalies as A
from paipu.store.tables import TABLES
from schema.ruleset import PRESETS
from schema.tiles import TILE_NAMES

CHECKS = A.load_checks()
#: Lower minimum sample sizes so the small test corpora are actually judged.
SMALL = dict(min_hands=60, min_offered=300, min_draws=100)
GAMES = 60


def _run(con, only=None, **params) -> dict[str, list[tuple]]:
    params = {k: str(v) for k, v in params.items() if any(k == p.name for c in A.select(CHECKS, only)
                                                                for p in c.params)}
    return {r.check.code: r.rows for r in A.run_checks(con, only, params)}


# --- the ruleset of a game ---------------------------------------------------------------


def _memory_store():
    return store.connect(":memory:")


def _add_game(con, game: str, preset: str, options: dict, first_draws: list[str], build: str = "1.0"):
    from schema.ruleset import resolve
    import msgspec

    rules = msgspec.json.encode(resolve(preset, options)).decode()
    con.execute("INSERT INTO games (game, server, build, preset, ruleset, options) VALUES (?, 's', ?, ?, ?, ?)",
                [game, build, preset, rules, json.dumps(options)])
    for hand, tile in enumerate(first_draws, 1):
        con.execute("INSERT INTO hands (game, hand, first_draw) VALUES (?, ?, ?)", [game, hand, tile])


def test_the_tile_kinds_are_the_rulesets():
    assert len(PRESETS["sichuan"].tile_kinds) == 27 and PRESETS["sichuan"].tile_kinds[-1] == "9s"
    assert PRESETS["sichuan-xuezhan"].tile_kinds == PRESETS["sichuan"].tile_kinds
    assert PRESETS["qujing-xiaoji"].tile_kinds == TILE_NAMES[:34] == PRESETS["guangdong-jipinghu"].tile_kinds


def test_a_fair_27_kind_shuffle_passes_in_sichuan_and_fails_as_qujing():
    con = _memory_store()
    uniform = [t for t in TILE_NAMES[:27] for _ in range(16)]  # 432 first draws, 16 of each suited kind
    _add_game(con, "s1", "sichuan", {}, uniform)
    assert _run(con, ["first_draw_shuffle"], min_draws=100)["first_draw_shuffle"] == []
    # near miss: the very same draws in a 136-tile room never drew an honour — a biased shuffle
    _add_game(con, "q1", "qujing-xiaoji", {}, uniform)
    rows = _run(con, ["first_draw_shuffle"], min_draws=100)["first_draw_shuffle"]
    assert [r[-1] for r in rows] == ["qujing-xiaoji"]
    assert "of 34 kinds" in rows[0][5] and "> 63.97" in rows[0][5]  # Wilson–Hilferty, exact 63.87


def test_a_skewed_sichuan_shuffle_fails_against_its_27_kinds():
    con = _memory_store()
    skewed = [t for t in TILE_NAMES[:27] for _ in range(8)]
    skewed[-40:] = ["1m"] * 40  # 1m drawn first 48 times of 216, 8 expected
    _add_game(con, "s1", "sichuan", {}, skewed)
    rows = _run(con, ["first_draw_shuffle"], min_draws=100)["first_draw_shuffle"]
    assert len(rows) == 1 and rows[0][-1] == "sichuan" and rows[0][9] == 26  # degrees of freedom
    assert "of 27 kinds" in rows[0][5] and "> 54.16" in rows[0][5] and "1m 48" in rows[0][5]


def test_a_money_only_option_keeps_the_population_and_a_play_option_splits_it():
    con = _memory_store()
    _add_game(con, "a", "qujing-xiaoji", {}, [])
    _add_game(con, "b", "qujing-xiaoji", {"base": 2}, [])
    _add_game(con, "c", "qujing-xiaoji", {"chow": True, "base": 2}, [])
    _add_game(con, "d", "sichuan-xuezhan", {}, [])
    # options written out at the preset's own values play the preset: its population
    _add_game(con, "e", "qujing-xiaoji", {"chow": False, "wilds": ["1s"], "draw_reserve": 20}, [])
    _add_game(con, "f", "qujing-baiban", {"wilds": ["1s"]}, [])  # near miss: 1s is not 飞白板's own wild
    got = dict(con.execute("SELECT game, ruleset FROM game_rulesets").fetchall())
    assert got == {"a": "qujing-xiaoji", "b": "qujing-xiaoji", "c": "qujing-xiaoji chow=true", "d": "sichuan-xuezhan",
                   "e": "qujing-xiaoji", "f": 'qujing-baiban wilds=["1s"]'}
    fams = dict(con.execute("SELECT game, family FROM game_rulesets").fetchall())
    assert fams == {"a": "qujing", "b": "qujing", "c": "qujing", "d": "sichuan", "e": "qujing", "f": "qujing"}


def test_no_library_check_names_a_column_after_its_parameters():
    # a stored macro's parameter takes the place of any unqualified column of its name
    for check in CHECKS.values():
        body = A._body(check).encode()
        names = {p.name for p in check.params}
        tokens = duckdb.tokenize(body.decode())
        for i, (pos, kind) in enumerate(tokens):
            end = tokens[i + 1][0] if i + 1 < len(tokens) else len(body)
            word = body[pos:end].decode(errors="replace").strip()
            before = body[:pos].decode(errors="replace").rstrip()
            if kind.name == "identifier" and word in names and not before.endswith("$"):
                assert before.upper().endswith(" AS") and word in A.COLUMNS, (check.code, word)


# --- simulated stores: three families together -------------------------------------------


def _sim_log(d, name: str, **knobs) -> str:
    from paipu.sim.simulate import SimConfig, simulate_encoded, write_log

    log = str(d / f"{name}.jsonl")
    write_log(log, simulate_encoded(SimConfig(games=GAMES, **knobs)))
    return log


@pytest.fixture(scope="module")
def family_logs(tmp_path_factory):
    d = tmp_path_factory.mktemp("families")
    return {
        "qujing": _sim_log(d, "qujing", seed=5, options={"dianji": True}, builds=("1.0", "1.1")),
        "guangdong": _sim_log(d, "guangdong", preset="guangdong-jipinghu", seed=6, game_prefix="gd-"),
        "sichuan": _sim_log(d, "sichuan", preset="sichuan", seed=7, game_prefix="sc-"),
        "xuezhan": _sim_log(d, "xuezhan", preset="sichuan-xuezhan", seed=8, game_prefix="xz-"),
        "guangdong_planted": _sim_log(d, "guangdong_planted", preset="guangdong-jipinghu", seed=9,
                                      game_prefix="gdp-", colluding_pair=(1, 3), biased_shuffle=True),
        "sichuan_planted": _sim_log(d, "sichuan_planted", preset="sichuan", seed=10, game_prefix="scp-",
                                    biased_shuffle=True, builds=("2.0",)),
        "qujing_planted": _sim_log(d, "qujing_planted", seed=5, options={"dianji": True}, builds=("1.0", "1.1"),
                                   game_prefix="qp-", colluding_pair=(0, 2), illegal_claimer=1,
                                   dianji_underpay_build="1.1", biased_shuffle=True),
    }


@pytest.fixture(scope="module")
def mixed_db(family_logs, tmp_path_factory):
    db = str(tmp_path_factory.mktemp("mixed") / "mixed.duckdb")
    store.ingest([family_logs[k] for k in ("qujing", "guangdong", "sichuan", "xuezhan")], db)
    return db


@pytest.fixture(scope="module")
def planted_db(family_logs, tmp_path_factory):
    db = str(tmp_path_factory.mktemp("planted") / "planted.duckdb")
    store.ingest([family_logs[k] for k in ("qujing_planted", "guangdong_planted", "sichuan_planted", "xuezhan")],
                 db)
    return db


def test_clean_games_of_every_family_in_one_store_fire_nothing(mixed_db):
    con = store.connect(mixed_db, read_only=True)
    try:
        rulesets = dict(con.execute("SELECT ruleset, count(*) FROM game_rulesets GROUP BY ALL").fetchall())
        assert rulesets == {"qujing-xiaoji dianji=true": GAMES, "guangdong-jipinghu": GAMES, "sichuan": GAMES,
                            "sichuan-xuezhan": GAMES}
        assert {c: rows for c, rows in _run(con, **SMALL).items() if rows} == {}
    finally:
        con.close()


def test_the_same_store_pooled_into_one_ruleset_fires(mixed_db):
    # near miss: the checks as they were, one population of 34 kinds for every game
    con = store.connect(mixed_db, read_only=True)
    try:
        con.execute("CREATE OR REPLACE TEMP VIEW game_rulesets AS SELECT game, 'all' AS ruleset, "
                    f"{list(TILE_NAMES[:34])} AS tile_kinds FROM games")
        check = CHECKS["first_draw_shuffle"]
        rows = con.execute(check.sql, A.bind(check, {"min_draws": "100"})).fetchall()
        assert rows and rows[0][7] > 100  # the 60 Sichuan rooms never draw an honour
    finally:
        con.close()


def _add_players(con, preset: str, prefix: str, win_every: int, hands: int = 400):
    """Five players of ``preset`` at one table; each wins one hand in ``win_every``."""
    for k in range(5):
        game = f"{prefix}{k}"
        _add_game(con, game, preset, {}, [])
        con.execute("INSERT INTO hands (game, hand, seats, result) SELECT ?, h, 4, 'won' FROM range(?) t(h)",
                    [game, hands])
        con.execute("INSERT INTO hand_players (game, hand, seat, player, seats, won) "
                    "SELECT ?, h, 0, ?, 4, h % ? = 0 FROM range(?) t(h)", [game, f"{prefix}{k}", win_every, hands])
        con.execute("INSERT INTO wins (game, hand, seat, player, how) "
                    "SELECT ?, h, 0, ?, 'self_draw' FROM range(?) t(h) WHERE h % ? = 0",
                    [game, f"{prefix}{k}", hands, win_every])


def test_a_ruleset_won_more_often_is_its_own_population():
    con = _memory_store()
    _add_players(con, "sichuan-xuezhan", "x", 5, 1000)  # 血战到底: several winners a hand, 20 % each
    _add_players(con, "qujing-xiaoji", "q", 10, 1000)  # 10 %
    assert _run(con, ["win_rate"], min_hands=100)["win_rate"] == []
    # near miss: pooled into one population, every player of both rulesets is 4+ sigma off
    con.execute("CREATE OR REPLACE TEMP VIEW game_rulesets AS SELECT game, 'all' AS ruleset FROM games")
    check = CHECKS["win_rate"]
    rows = con.execute(check.sql, A.bind(check, {"min_hands": "100"})).fetchall()
    assert len(rows) == 10 and all(abs(r[7]) > 4 for r in rows)


def test_each_familys_planted_anomaly_is_found_in_its_ruleset(planted_db):
    con = store.connect(planted_db, read_only=True)
    try:
        found = _run(con, **SMALL)
    finally:
        con.close()
    rulesets = {code: Counter(r[-1] for r in rows) for code, rows in found.items() if rows}
    # the biased shuffle of each family's server, judged against that family's kinds
    assert set(rulesets["first_draw_shuffle"]) == {"qujing-xiaoji dianji=true", "guangdong-jipinghu", "sichuan"}
    sichuan = next(r for r in found["first_draw_shuffle"] if r[-1] == "sichuan")
    assert "build 2.0" in sichuan[5] and "of 27 kinds" in sichuan[5]
    # the colluding pairs of Qujing and Guangdong, each in its own ruleset
    pairs = {(r[-1], re.match(r"(\S+) dealt into (\S+):", r[5]).groups()) for r in found["collusion_pairs"]}
    assert ("guangdong-jipinghu", ("P01", "P02")) in pairs and ("qujing-xiaoji dianji=true", ("P01", "P02")) in pairs
    assert {p for _, p in pairs} <= {("P01", "P02"), ("P02", "P01")}
    # Qujing's illegal claimer and underpaying build
    assert [r[4] for r in found["claim_rate"]] == ["P03"]
    assert set(rulesets["dianji_payout"]) == {"qujing-xiaoji dianji=true"}
    # the clean 血战到底 games beside them fire nothing
    assert all("sichuan-xuezhan" not in c for c in rulesets.values())


def test_one_summary_line_per_check_and_ruleset_names_the_ruleset(planted_db):
    con = store.connect(planted_db, read_only=True)
    try:
        results = A.run_checks(con, ["first_draw_shuffle"], {"min_draws": "100"})
    finally:
        con.close()
    lines = [A.summary_line(r) for r in A.summary_rows(results)]
    assert sorted(line.split(":")[0] for line in lines) == [
        "first_draw_shuffle (guangdong-jipinghu)", "first_draw_shuffle (qujing-xiaoji dianji=true)",
        "first_draw_shuffle (sichuan)"]


# --- the checks inside the store -------------------------------------------------------------

_PLAIN = """
import duckdb, json, sys
con = duckdb.connect(sys.argv[1], read_only=True)
con.execute("SET enable_progress_bar = false")  # a slow moment of the machine must not print a bar into the JSON
out = {
    "view": con.execute("SELECT code, ruleset, count(*) FROM anomalies GROUP BY ALL ORDER BY ALL").fetchall(),
    "macro": con.execute("SELECT * FROM anomaly_first_draw_shuffle(min_draws := 100)").fetchall(),
    "collusion": con.execute("SELECT * FROM anomaly_collusion_pairs(z := 4, min_count := 8)").fetchall(),
}
print(json.dumps(out, default=str))
"""


def test_plain_duckdb_runs_the_stored_checks(planted_db):
    # a process that never imports paipu: only duckdb and the store file
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, "-c", _PLAIN, planted_db], capture_output=True, text=True, env=env,
                          cwd="/", timeout=300)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    con = store.connect(planted_db, read_only=True)
    try:
        defaults = A.run_checks(con)
        shuffle = A.run_checks(con, ["first_draw_shuffle"], {"min_draws": "100"})[0].rows
        collusion = A.run_checks(con, ["collusion_pairs"])[0].rows
    finally:
        con.close()
    want = sorted([r.check.code, ruleset, n] for r in defaults
                  for ruleset, n in Counter(row[-1] for row in r.rows).items())
    assert sorted(got["view"]) == want and want  # the planted store fires at the defaults too
    norm = lambda rows: sorted(json.dumps(list(r), default=str) for r in rows)  # noqa: E731
    assert norm(got["macro"]) == norm(shuffle) and len({r[-1] for r in shuffle}) == 3
    assert norm(got["collusion"]) == norm(collusion) and collusion


def test_every_table_and_column_carries_a_comment(tmp_path):
    con = store.connect(str(tmp_path / "s.duckdb"))
    try:
        tables = dict(con.execute("SELECT table_name, comment FROM duckdb_tables()").fetchall())
        columns = {(t, c): doc for t, c, doc in
                   con.execute("SELECT table_name, column_name, comment FROM duckdb_columns()").fetchall()}
        macros = dict(con.execute("SELECT function_name, comment FROM duckdb_functions() "
                                  "WHERE function_name LIKE 'anomaly_%'").fetchall())
        views = dict(con.execute("SELECT view_name, comment FROM duckdb_views() WHERE NOT internal").fetchall())
    finally:
        con.close()
    for t in TABLES:
        assert tables[t.name].startswith(t.doc), t.name
        for c in t.columns:
            assert columns[(t.name, c.name)] == c.doc, (t.name, c.name)
    assert tables["meta"] and all(columns[("meta", c)] for c in ("key", "value"))
    assert set(macros) == {f"anomaly_{c}" for c in CHECKS}
    assert all(macros[f"anomaly_{c}"].startswith(CHECKS[c].title) for c in CHECKS)
    assert views["game_rulesets"] and views["anomalies"]
    assert all(columns[("anomalies", c)] for c in A.COLUMNS) and columns[("game_rulesets", "tile_kinds")]


def test_docs_describe_every_check_from_its_header():
    with open(os.path.join(os.path.dirname(__file__), "..", "..", "docs", "store.md"), encoding="utf-8") as f:
        text = f.read()
    assert A.checks_markdown() in text
    assert "anomaly_<code>(name := value" in text and "game_rulesets" in text
