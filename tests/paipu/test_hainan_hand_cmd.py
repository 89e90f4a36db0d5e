"""``paipu hand --preset hainan``: the win context Hainan needs — the seat's position
(``--seat-wind``), its flowers set aside (``--flowers``, 位置花) and 花上开花
(``--after-flower``) — with the 番 gate, the rate and the transfers with the feeder's extra."""

from __future__ import annotations

import json

import typer
from typer.testing import CliRunner

from paipu.hand_cmd import register

app = typer.Typer()
register(app)
app.command("noop")(lambda: None)
runner = CliRunner()
HN = ["--preset", "hainan"]
EX2 = ["456s78s33p", "-m", "pong:9p chow:123m", "--seat-wind", "south"]


def hand(*args: str, input: str | None = None):
    return runner.invoke(app, ["hand", *args], input=input)


def js(*args: str) -> dict:
    r = hand(*args, "--json", *HN)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_the_own_flower_opens_the_gate_on_a_discard():
    # hainan.md §12.2: with 兰 set aside seat 1 may win seat 2's 9s; with 秋 it may not
    got = js(*EX2, "--tile", "9s", "--discard", "--flowers", "6f", "--seat", "1", "--from-seat", "2", "--dealer", "0")
    assert got["wins"] and got["fans"] == ["zhenghua"] and got["fan"] == 1 and got["points"] == 1
    assert sorted((t["payer"], t["amount"]) for t in got["transfers"]) == [(0, 1), (2, 2), (3, 1)]
    near = js(*EX2, "--tile", "9s", "--discard", "--flowers", "3f")
    assert near["complete"] and not near["wins"] and near["fan"] == 0


def test_a_self_draw_needs_no_fan_and_the_rates():
    assert js(*EX2, "--tile", "6s")["points"] == 2
    hua = js(*EX2, "--tile", "6s", "--after-flower")
    assert hua["fans"] == ["huashang_kaihua"] and hua["points"] == 3
    gang = js(*EX2, "--tile", "6s", "--after-kong")
    assert gang["fans"] == ["gangshang_kaihua"] and gang["points"] == 3


def test_a_flower_in_the_hand_is_an_input_error():
    r = hand("456s78s33p3f", "--tile", "6s", *HN)
    assert r.exit_code != 0 and "flower" in r.output
    r = hand(*EX2, "--tile", "6s", "--after-flower", "--discard", *HN)
    assert r.exit_code != 0 and "花上开花" in r.output


def test_batch_with_flowers():
    req = {"preset": "hainan", "hand": "456s78s33p", "tile": "9s", "melds": ["pong:9p", "chow:123m"],
           "how": "discard", "seat_wind": "south", "flowers": ["6f"]}
    r = hand("--batch", input=json.dumps(req) + "\n")
    assert r.exit_code == 0 and json.loads(r.output.splitlines()[0])["fans"] == ["zhenghua"]


def test_the_report_page_shows_the_familys_particulars():
    from paipu.report.model import build_model
    from paipu.sim.hainan import examples as hx
    from schema.reader import GameLog
    b = hx.ex03_gangshang(True)
    m = build_model(GameLog(b.game, "t.jsonl", list(b.events), list(range(1, len(b.events) + 1)), None, True))
    text = " ".join(m["room"]["particulars"])
    assert "春夏秋冬梅兰菊竹" in text and "位置花" in text and "3 杠上开花 / 花上开花" in text
    hand = m["hands"][0]
    assert hand["set_aside"] == [[1, "春 1f, 夏 2f, 秋 3f, 冬 4f"]]
    assert any("kong (kong_concealed, v 2)" in line for line in hand["settlement"]["steps"])
    assert hand["settlement"]["winners"][0]["steps"][2] == "3. r = 3 (杠上开花)"
    # near miss: a family that states nothing particular shows nothing
    from paipu.sim.xuzhou import examples as xx
    b = xx.ex03_dealer_self_draw()
    m = build_model(GameLog(b.game, "t.jsonl", list(b.events), list(range(1, len(b.events) + 1)), None, True))
    assert m["room"]["particulars"] == [] and "set_aside" not in m["hands"][0]


def test_a_robbing_with_no_fan_but_qianggang_is_paid_by_the_adder_alone():
    # hainan.md §7, §12.5 (b): seat 1 (pong 9m) robs the dealer's 5s with only 抢杠 → 无番抢杠:
    # the adder pays every share and the feeder's extra, 4, reason qianggang (as the ledger does)
    got = js("34s678p789p33p", "-m", "pong:9m", "--tile", "5s", "--robbed-kong",
             "--seat", "1", "--from-seat", "0", "--dealer", "0")
    assert got["wins"] and got["fans"] == ["qianggang"] and got["fan"] == 1
    assert got["transfers"] == [{"payer": 0, "payee": 1, "amount": 4, "reason": "qianggang"}]
    assert got["payments"] == [{"payer": "kong_adder", "amount": 4}]
    # the same hand won on a discard is no 无番抢杠: no 番 at all, so no win
    assert not js("34s678p789p33p", "-m", "pong:9m", "--tile", "5s", "--discard")["wins"]


def test_a_robbing_with_another_fan_is_an_ordinary_discard_win():
    # near miss, hainan.md §12.5 (a): 三元刻 and 二五八将 besides 抢杠 → 有番抢杠: seat 0 pays 1 + e 1,
    # seats 2 and 3 pay 1 each
    got = js("34s678p555z22m", "-m", "chow:123m", "--tile", "5s", "--robbed-kong",
             "--seat", "1", "--from-seat", "0", "--dealer", "0")
    assert got["wins"] and "qianggang" in got["fans"] and got["fan"] == 3
    assert sorted((t["payer"], t["amount"], t["reason"]) for t in got["transfers"]) == \
        [(0, 2, "win"), (2, 1, "win"), (3, 1, "win")]
    assert got["payments"] == [{"payer": "kong_adder", "amount": 2}, {"payer": "each_other_player", "amount": 1}]


def test_the_hand_command_and_the_ledger_share_the_rule():
    # the one rule (settlement.rob_without_fan) decides both: the ledger's liabilities and the request's facts
    from audits.rules.hainan import settlement as st
    from audits.rules.family import Score
    bare = Score(True, True, ["qianggang"], 1, 1, 1)
    rich = Score(True, True, ["jiang258", "qianggang"], 2, 2, 1)
    assert st.rob_without_fan(bare) and not st.rob_without_fan(rich)
    assert st.request_facts(None, bare, "robbed_kong", 1, 0, 0).bao[1].reason == "qianggang"
    assert st.request_facts(None, rich, "robbed_kong", 1, 0, 0).bao == {}
    assert st.request_facts(None, bare, "discard", 1, 0, 0).bao == {}
