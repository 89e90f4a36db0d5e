"""The fault injector: every fault class is planted and found by the audit with its code."""

import json
import random
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from audits import audit_game
from audits.catalogue import CATALOGUE
from paipu.sim.mutate import FAULTS, mutate
from paipu.sim_cmd import register
from paipu.sim.simulate import SimConfig, simulate_games, write_log
from replay import ReplayError, Replayer
from schema import events as ev
from schema.reader import GameLog, read_games

SOURCES = [
    SimConfig(preset="qujing-xiaoji", games=150, seed=900, max_hands=2, decline_win=0.5),
    SimConfig(preset="qujing-xiaoji", options={"chow": True, "dianji": True}, games=10, seed=901, max_hands=3),
    SimConfig(preset="qujing-baiban", options={"yangzhu": True}, games=10, seed=902, max_hands=3),
    SimConfig(preset="qujing-shuanggui", options={"qiaoluo": True, "qiaoluo_points": 5}, games=8, seed=903,
              max_hands=None),
    SimConfig(preset="qujing-shuanggui", games=150, seed=904, max_hands=2),
    # Sichuan rooms for the Sichuan fault classes (paipu/sim/sichuan/faults.py)
    SimConfig(preset="sichuan", games=12, seed=905, max_hands=3),
    SimConfig(preset="sichuan-xuezhan", games=12, seed=906, max_hands=3),
    SimConfig(preset="sichuan", options={"void_first": False}, games=6, seed=907, max_hands=2),
]


def _log(events):
    return GameLog(events[0].game, "m", list(events), list(range(1, len(events) + 1)), closed=True)


SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs" / "clean"


@pytest.fixture(scope="module")
def games():
    """Seeded simulated rooms, plus the clean sample rooms (一炮多响 and 抢杠 are rare in play)."""
    pool = [g for cfg in SOURCES for g in simulate_games(cfg)]
    logs, _ = read_games([str(SAMPLES)])
    return pool + [log.events for log in logs]


def test_the_fault_table():
    assert len(FAULTS) >= 20
    # the rule defects of issue 10 each have a fault class
    codes = {f.code for f in FAULTS.values()}
    assert {"CLAIM_OWN_DISCARD", "ROB_LATE", "YANGZHU_BET_INVALID", "QIAOLUO_START_POINTS",
            "ROOM_SEATS_MISMATCH"} <= codes
    assert FAULTS["rob_during_guohu"].code == "WIN_DURING_GUOHU"
    for name, f in FAULTS.items():
        assert f.code in CATALOGUE, name
        assert f.name == name and f.description
    groups = {f.group for f in FAULTS.values()}
    assert {"claims", "wins", "scoring", "table", "stream"} <= groups


# the Guangdong classes (gd_*) need Guangdong rooms: tests/paipu/test_guangdong_sim.py; the
# Xuzhou classes (xz_*) Xuzhou rooms: tests/paipu/test_xuzhou_sim.py; the Wuhan classes (wh_*)
# Wuhan rooms: tests/paipu/test_wuhan_sim.py
@pytest.mark.parametrize("name", [n for n in FAULTS if not n.startswith(("gd_", "xz_", "wh_"))])
def test_each_fault_is_detected_with_its_code(games, name):
    rng = random.Random(name)
    applied = 0
    for g in games:
        res = mutate(g, name, rng)
        if res is None:
            continue
        events, expected = res
        applied += 1
        assert expected and all(code == FAULTS[name].code for code, _ in expected)
        found = {(f.code, f.seq) for f in audit_game(_log(events)).findings}
        for want in expected:
            assert want in found, (name, g[0].game, want, sorted(found))
        # one fault, one finding: the rest of the planted log is legal
        assert found == set(expected), (name, g[0].game, sorted(found))
        if applied >= 3:
            break
    assert applied >= 1, f"{name}: no game in the seeded set has the situation it needs"


def test_mutate_leaves_the_clean_game_alone_and_renumbers(games):
    g = games[0]
    before = list(g)
    events, expected = mutate(g, "wrong_fan", random.Random(1)) or mutate(games[1], "wrong_fan", random.Random(1))
    assert g == before
    assert [e.seq for e in events] == list(range(len(events)))
    assert type(events[-1]) is ev.GameClosed


def test_structural_faults_break_only_where_planted(games):
    # (fault, how far before the planted seq the replay got): a gap skips one number
    for name, back in (("sequence_gap", 2), ("repeated_event", 0), ("tiles_not_in_hand", 1)):
        events, expected = mutate(games[0], name, random.Random(3))
        r = Replayer()
        seq = expected[0][1]
        with pytest.raises(ReplayError):
            for e in events:
                r.apply(e)
        assert r.table.seq == seq - back, name


def test_not_applicable_is_none():
    # a room with no 点鸡 cannot have a wrong 点鸡 amount
    g = next(simulate_games(SimConfig(seed=5, max_hands=1)))
    assert mutate(g, "dianji_wrong_amount", random.Random(0)) is None
    assert mutate(g, "yangzhu_wrong_amount", random.Random(0)) is None


def test_cli_mutate(tmp_path):
    app = typer.Typer()
    register(app)
    runner = CliRunner()
    clean = tmp_path / "clean.jsonl"
    write_log(str(clean), simulate_games(SimConfig(games=3, seed=8, max_hands=2)))
    out = tmp_path / "bad.jsonl"
    res = runner.invoke(app, ["mutate", "--fault", "wrong_fan", str(clean), "-o", str(out), "--seed", "2"])
    assert res.exit_code == 0, res.output
    exp = json.loads((tmp_path / "bad.jsonl.expected.json").read_text())
    assert exp["fault"] == "wrong_fan" and exp["findings"][0]["code"] == "FAN_MISMATCH"
    logs, _ = read_games([str(out)])
    assert len(logs) == 3
    bad = next(g for g in logs if g.game == exp["game"])
    found = {(f.code, f.seq) for f in audit_game(bad).findings}
    assert ("FAN_MISMATCH", exp["findings"][0]["seq"]) in found
    assert all(not audit_game(g).findings for g in logs if g.game != exp["game"])
    res = runner.invoke(app, ["mutate", "--fault", "dianji_wrong_amount", str(clean), "-o", str(out)])
    assert res.exit_code == 2 and "not applicable" in res.output
    res = runner.invoke(app, ["mutate", "--fault", "nope", str(clean), "-o", str(out)])
    assert res.exit_code == 2 and "unknown fault class" in res.output
    res = runner.invoke(app, ["mutate", "--list"])
    assert res.exit_code == 0 and "guoshou_peng" in res.output
    res = runner.invoke(app, ["mutate", "--fault", "wrong_fan", str(tmp_path / "missing.jsonl"), "-o", str(out)])
    assert res.exit_code == 2 and "no such file" in res.output
