"""The anomaly library: every check finds its planted case and nothing on a clean corpus."""

from __future__ import annotations

import re

import duckdb
import pytest
import typer
from typer.testing import CliRunner

from paipu.store import anomalies as A
from paipu import store
from paipu.store_cmd import register
from tests.paipu.test_store import dianji_game, first_round, write
from schema.builder import GameBuilder

CHECKS = A.load_checks()


def run(db: str, only=None, **params) -> dict[str, list[tuple]]:
    con = store.connect(db, read_only=True)
    try:
        return {r.check.code: r.rows for r in A.run_checks(con, only, {k: str(v) for k, v in params.items()})}
    finally:
        con.close()


# --- the library itself ----------------------------------------------------------


def test_every_check_states_statistic_threshold_and_params():
    assert {"dianji_payout", "yangzhu_payout", "negative_scores", "win_rate", "deal_in_rate", "claim_rate",
            "collusion_pairs", "draw_rate", "first_draw_shuffle", "duplicate_games", "findings_by_player",
            "findings_by_build"} <= set(CHECKS)
    for c in CHECKS.values():
        assert c.title and c.statistic and c.threshold
        used = set(re.findall(r"\$(\w+)", re.sub(r"^--.*$", "", c.sql, flags=re.M)))
        assert used == {p.name for p in c.params}, c.code


def test_every_check_runs_on_an_empty_store(tmp_path):
    db = str(tmp_path / "empty.duckdb")
    store.connect(db).close()
    assert run(db) == {code: [] for code in CHECKS}


def test_parameters_are_bound_never_pasted(tmp_path):
    db = str(tmp_path / "s.duckdb")
    store.ingest([write(tmp_path / "a.jsonl", dianji_game("g1"))], db)
    with pytest.raises(A.AnomalyError, match="not a number"):
        run(db, ["win_rate"], z="1; DROP TABLE games")
    with pytest.raises(A.AnomalyError, match="findings_by_build failed"):
        run(db, ["findings_by_build"], period="month', opened_at)); DROP TABLE games; --")
    assert store.table_counts(duckdb.connect(db, read_only=True))["games"] == 1
    with pytest.raises(A.AnomalyError, match="no selected check takes parameter 'zz'"):
        run(db, ["win_rate"], zz=3)
    with pytest.raises(A.AnomalyError, match="no anomaly check named 'nope'"):
        run(db, ["nope"])
    assert A.convert("2026-02-01", "TIMESTAMPTZ").isoformat() == "2026-02-01T00:00:00+00:00"
    assert A.convert("null", "TIMESTAMPTZ") is None


# --- planted by hand (GameBuilder) -------------------------------------------------


def yangzhu_game(gid: str, *, wrong: bool = False) -> GameBuilder:
    """养猪: A bets 1, B bets 2; A self-draws with P = 2: B pays 2+3, C and D pay 2+1."""
    b = GameBuilder(gid, options={"yangzhu": True})
    b.open()
    b.hand(1, dealer=0)
    for seat, bet in enumerate((1, 2, 0, 0)):
        b.bet(seat, bet)
    first_round(b)
    b.draw(0, "4z")
    b.win([(0, ["menqing_zimo"], 1, 2)], "self_draw", "4z")
    transfers = [(1, 0, 2, "win"), (1, 0, 3, "yangzhu"), (2, 0, 2, "win"), (2, 0, 1, "yangzhu"),
                 (3, 0, 2, "win"), (3, 0, 1 if not wrong else 0, "yangzhu")]
    scores = [0] * 4
    for p, r, a, _ in transfers:
        scores[p] -= a
        scores[r] += a
    b.settle(transfers, scores)
    b.close("hands_done", scores)
    return b


def qiaoluo_game(gid: str, *, below_zero: bool) -> GameBuilder:
    b = GameBuilder(gid, options={"qiaoluo": True}, start_points=20)
    b.open()
    b.hand(1, dealer=0)
    first_round(b)
    b.win([(1, ["qingyise"], 2, 24 if below_zero else 4)], "discard", "1p", from_seat=3)
    paid = 24 if below_zero else 4
    scores = [20, 20 + paid, 20, 20 - paid]
    b.settle([(3, 1, paid, "win")], scores)
    b.close("knocked_out" if below_zero else "hands_done", scores)
    return b


def test_hand_planted_payout_score_and_duplicate_cases(tmp_path):
    db = str(tmp_path / "s.duckdb")
    clean = [dianji_game("d-ok"), yangzhu_game("y-ok"), qiaoluo_game("q-ok", below_zero=False)]
    store.ingest([write(tmp_path / "clean.jsonl", *clean)], db, audit=False)
    found = run(db)
    assert found == {code: [] for code in CHECKS}

    bad = [dianji_game("d-bad", build="9.9", underpay=True, seats=("E", "F", "G", "H")),
           yangzhu_game("y-bad", wrong=True), qiaoluo_game("q-bad", below_zero=True),
           dianji_game("d-copy", start_hour=7)]
    store.ingest([write(tmp_path / "bad.jsonl", *bad)], db, audit=False)
    found = run(db)
    assert {(r[0], r[3], r[4]) for r in found["dianji_payout"]} == {("d-bad", 0, "E"), ("d-bad", 3, "H")}
    assert "net 4 expected 5" in found["dianji_payout"][0][5] and "build 9.9" in found["dianji_payout"][0][5]
    assert [(r[0], r[1], r[3]) for r in found["yangzhu_payout"]] == [("y-bad", 1, 3)]
    assert "paid seat 0 2 (win + bets), expected 3" in found["yangzhu_payout"][0][5]
    assert {(r[0], r[1], r[3]) for r in found["negative_scores"]} == {("q-bad", 1, 3), ("q-bad", None, 3)}
    assert sorted(r[0] for r in found["duplicate_games"]) == ["d-copy", "d-ok"]
    assert "same events as d-copy" in dict((r[0], r[5]) for r in found["duplicate_games"])["d-ok"]
    assert all(found[c] == [] for c in CHECKS if c not in
               ("dianji_payout", "yangzhu_payout", "negative_scores", "duplicate_games"))


# --- planted by the simulator -----------------------------------------------------

SIM_GAMES = 60
#: Lower minimum sample sizes so the small test corpus is actually judged.
SMALL = dict(min_hands=60, min_offered=300, min_draws=100)


def _sim_store(tmp_path_factory, name: str, **knobs) -> str:
    from paipu.sim.simulate import SimConfig, simulate_games, write_log

    d = tmp_path_factory.mktemp(name)
    log = str(d / f"{name}.jsonl")
    write_log(log, simulate_games(SimConfig(games=SIM_GAMES, seed=5, options={"dianji": True},
                                            builds=("1.0", "1.1"), **knobs)))
    db = str(d / f"{name}.duckdb")
    store.ingest([log], db)
    return db


@pytest.fixture(scope="module")
def clean_db(tmp_path_factory):
    return _sim_store(tmp_path_factory, "clean")


@pytest.fixture(scope="module")
def planted_db(tmp_path_factory):
    return _sim_store(tmp_path_factory, "planted", colluding_pair=(0, 2), illegal_claimer=1,
                      dianji_underpay_build="1.1", biased_shuffle=True)


def _params(code: str) -> dict:
    names = {p.name for p in CHECKS[code].params}
    return {k: v for k, v in SMALL.items() if k in names}


def _run_one(db: str, code: str) -> list[tuple]:
    return run(db, [code], **_params(code))[code]


def test_clean_simulated_corpus_has_no_anomalies(clean_db):
    for code in CHECKS:
        assert _run_one(clean_db, code) == [], code


def test_colluding_pair_is_found(planted_db):
    rows = _run_one(planted_db, "collusion_pairs")
    assert rows
    pairs = {re.match(r"(\S+) dealt into (\S+):", r[5]).groups() for r in rows}
    assert pairs <= {("P01", "P02"), ("P02", "P01")} and ("P01", "P02") in pairs
    assert all(r[0] and r[1] is not None and r[2] is not None for r in rows)


def test_illegal_claimer_is_found(planted_db):
    claim = _run_one(planted_db, "claim_rate")
    assert claim and claim[0][4] == "P03" and "z = " in claim[0][5]
    by_player = _run_one(planted_db, "findings_by_player")
    if not by_player:
        pytest.skip("no findings stored (audits.audit not available)")
    assert {r[4] for r in by_player} == {"P03"}
    assert all(r[5].startswith("CLAIM_") for r in by_player)


def test_dianji_underpaying_build_is_found(planted_db):
    rows = _run_one(planted_db, "dianji_payout")
    assert rows and all("build 1.1" in r[5] for r in rows)
    by_build = _run_one(planted_db, "findings_by_build")
    if by_build:
        assert all("build 1.1" in r[5] for r in by_build)


def test_underpaying_build_is_found_from_the_corrected_ledger(planted_db):
    rows = _run_one(planted_db, "underpayment_by_build")
    assert [re.search(r"build (\S+):", r[5]).group(1) for r in rows] == ["1.1"]
    statistic, value, rate, baseline, n = rows[0][6:11]
    assert statistic == "z" and value > 3 and rate > baseline and n > 0


def test_biased_shuffle_is_found(planted_db):
    rows = _run_one(planted_db, "first_draw_shuffle")
    assert rows and all("chi-square" in r[5] for r in rows)


# --- the command ------------------------------------------------------------------


def test_anomalies_command(tmp_path):
    app = typer.Typer()
    register(app)
    runner = CliRunner()
    db = str(tmp_path / "s.duckdb")
    store.ingest([write(tmp_path / "a.jsonl", dianji_game("g1"), dianji_game("g2", underpay=True, build="2.0"))],
                 db, audit=False)
    r = runner.invoke(app, ["anomalies", "--db", db, "--format", "csv", "--rows"])
    assert r.exit_code == 1
    lines = [x for x in r.stdout.splitlines() if x.startswith("code,") or x.startswith("dianji_payout,")]
    assert lines[0] == "code,game,hand,seq,seat,player,detail,statistic,value,rate,baseline,n,ruleset"
    assert len(lines) == 3 and all(x.endswith(",qujing-xiaoji dianji=true") for x in lines[1:])
    r = runner.invoke(app, ["anomalies", "--db", db, "--format", "csv"])  # one row per fired check and ruleset
    lines = r.stdout.splitlines()
    assert r.exit_code == 1 and lines[0].startswith("code,ruleset,rows,statistic,value,rate,baseline,n,")
    assert len(lines) == 2 and lines[1].startswith("dianji_payout,qujing-xiaoji dianji=true,2,difference,")
    r = runner.invoke(app, ["anomalies", "--db", db, "--only", "dianji_payout", "--param", "tolerance=1"])
    assert r.exit_code == 0
    r = runner.invoke(app, ["anomalies", "--db", db, "--only", "WIN_RATE", "--param", "z=abc"])
    assert r.exit_code == 2 and "is not a number" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["anomalies", "--db", db, "--param", "z"])
    assert r.exit_code == 2 and "not name=value" in r.output
    r = runner.invoke(app, ["anomalies", "--db", str(tmp_path / "none.duckdb")])
    assert r.exit_code == 2 and "no store" in r.output
    r = runner.invoke(app, ["anomalies", "--list", "--only", "first_draw_shuffle"])
    assert r.exit_code == 0 and "critical" in r.output and "statistic:" in r.output


def _cli(*args):
    app = typer.Typer()
    register(app)
    return CliRunner().invoke(app, list(args))


def _small_params(checks) -> list[str]:
    names = {p.name for c in checks.values() for p in c.params}
    return [x for k, v in SMALL.items() if k in names for x in ("--param", f"{k}={v}")]


def test_default_output_is_one_line_per_fired_check_naming_its_statistic(planted_db):
    found = {code: rows for code, rows in run(planted_db, None, **{k: v for k, v in SMALL.items()}).items()}
    fired = [code for code in CHECKS if found[code]]
    assert len(fired) >= 4 and sum(len(found[c]) for c in fired) > len(fired)  # many rows, few checks
    r = _cli("anomalies", "--db", planted_db, *_small_params(CHECKS))
    assert r.exit_code == 1
    lines = r.stdout.splitlines()
    # one ruleset in this store: one line per fired check, naming the ruleset
    assert [line.split(":")[0] for line in lines] == [f"{code} (qujing-xiaoji dianji=true)" for code in fired]
    col = {c: k for k, c in enumerate(A.COLUMNS)}
    for code, line in zip(fired, lines):
        best = max(found[code], key=lambda row: abs(row[col["value"]]))
        stat = best[col["statistic"]]
        assert re.match(rf"{code} \(qujing-xiaoji dianji=true\): {len(found[code])} rows?; strongest {stat} = ",
                        line), line
        assert line.endswith(best[col["detail"]])
    collusion = next(line for line in lines if line.startswith("collusion_pairs"))
    assert "rate " in collusion and "baseline " in collusion and "n = " in collusion
    assert "--rows lists every row" in r.stderr
    rows = _cli("anomalies", "--db", planted_db, "--rows", "--format", "json", *_small_params(CHECKS))
    import json

    listed = json.loads(rows.stdout)
    assert len(listed) == sum(len(found[c]) for c in fired)
    assert {"statistic", "value", "rate", "baseline", "n"} <= set(listed[0])


def test_every_check_returns_its_statistic_as_columns(planted_db):
    found = run(planted_db, None, **SMALL)
    col = {c: k for k, c in enumerate(A.COLUMNS)}
    for code, rows in found.items():
        for row in rows:
            assert row[col["statistic"]] in ("z", "chi2", "difference", "score", "copies"), code
            assert isinstance(row[col["value"]], float), code
            if row[col["statistic"]] == "z":
                assert abs(row[col["value"]]) > 4.0 and 0 <= row[col["rate"]] <= 1 and row[col["n"]] > 0, code
                assert f"z = {row[col['value']]:.1f}" in row[col["detail"]], code


def test_parquet_output_and_users_own_checks(planted_db, tmp_path):
    mine = tmp_path / "checks"
    mine.mkdir()
    (mine / "long_games.sql").write_text(
        "-- title: games with many hands\n"
        "-- statistic: hands per game against a limit\n"
        "-- threshold: hands > $most\n"
        "-- param most INTEGER = 7: most hands expected\n"
        "SELECT game, NULL::INTEGER AS hand, NULL::INTEGER AS seq, NULL::INTEGER AS seat, NULL::VARCHAR AS player,\n"
        "       format('{} hands', hands) AS detail, 'hands' AS statistic, hands::DOUBLE AS value,\n"
        "       NULL::DOUBLE AS rate, $most::DOUBLE AS baseline, NULL::BIGINT AS n\n"
        "FROM games WHERE hands > $most ORDER BY hands DESC, game\n", encoding="utf-8")
    out = str(tmp_path / "fired.parquet")
    r = _cli("anomalies", "--db", planted_db, "--checks-dir", str(mine), "--only", "long_games", "--only",
             "dianji_payout", "--format", "parquet", "--output", out)
    assert r.exit_code == 1, r.output
    got = duckdb.connect().execute(f"SELECT code, rows, statistic FROM read_parquet('{out}') ORDER BY code").fetchall()
    assert [g[0] for g in got] == ["dianji_payout", "long_games"] and got[1][2] == "hands" and got[1][1] > 0
    (mine / "win_rate.sql").write_text((mine / "long_games.sql").read_text(), encoding="utf-8")
    clash = _cli("anomalies", "--db", planted_db, "--checks-dir", str(mine))
    assert clash.exit_code == 2 and "already in the library" in clash.stderr
    missing = _cli("anomalies", "--db", planted_db, "--checks-dir", str(tmp_path / "none"))
    assert missing.exit_code == 2 and "not a folder" in missing.stderr
