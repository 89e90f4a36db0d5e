"""The ``paipu hand`` command."""

from __future__ import annotations

import json

import typer
from typer.testing import CliRunner

from paipu.hand_cmd import register

app = typer.Typer()


@app.callback()
def _root() -> None:
    """paipu (test harness)."""


register(app)
runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, ["hand", *args], input=input)


def test_hand_json_wins_with_fans_and_payment():
    r = run("34m222p66p", "--tile", "2m", "--melds", "chow:567s ckong:4p", "--after-kong",
            "--option", "chow=true", "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["wins"] and "gangshang_kaihua" in d["fans"] and d["fan"] == 2 and d["points"] == 4
    assert d["payments"] == [{"payer": "each_other_player", "amount": 4}]


def test_hand_reading_shows_wild_assignment():
    r = run("23m456p789s555z77z", "--tile", "1s", "--json")
    d = json.loads(r.stdout)
    assert d["wins"] and d["reading"]["wild_assignments"] in (["1m"], ["4m"])


def test_hand_discard_without_fan_does_not_win():
    r = run("123m456p789s1s", "--tile", "5z", "--melds", "pong:2z", "--discard", "--json")
    d = json.loads(r.stdout)
    assert r.exit_code == 0 and d["complete"] and not d["wins"] and d["payments"] == []


def test_hand_robbed_kong_adder_pays_three():
    r = run("123m456p789s1s", "--tile", "5z", "--melds", "pong:2z", "--robbed-kong", "--seat", "0",
            "--from-seat", "2", "--json")
    d = json.loads(r.stdout)
    assert d["payments"] == [{"payer": "kong_adder", "amount": 3}]
    assert d["transfers"] == [{"payer": 2, "payee": 0, "amount": 3, "reason": "qianggang"}]


def test_hand_text_output():
    r = run("1112345678999m", "--tile", "9m")
    assert r.exit_code == 0 and "WINS" in r.stdout and "qingyise" in r.stdout


def test_hand_waits_for_13_tiles():
    d = json.loads(run("1112345678999m", "--json").stdout)
    assert d["waits"] == [f"{i}m" for i in range(1, 10)]


def test_hand_bad_input_exit_2_one_sentence():
    for args in (["12x"], ["123m", "--tile", "1m"], ["123m456p789s1s", "--tile", "5z", "--melds", "pang:2z"],
                 ["123m456p789s11z2z", "--tile", "2z", "--option", "nope=1"], []):
        r = run(*args)
        assert r.exit_code == 2, (args, r.output)
        assert "Traceback" not in r.output and r.stderr.strip().count("\n") == 0


def test_hand_batch():
    lines = "\n".join([json.dumps({"hand": "1112345678999m", "tile": "9m"}),
                       json.dumps({"hand": "123m456p789s1s", "tile": "5z", "melds": ["pong:2z"], "how": "discard"}),
                       "not json"]) + "\n"
    r = run("--batch", input=lines)
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert len(out) == 3 and out[0]["wins"] and not out[1]["wins"] and "error" in out[2]
    assert r.exit_code == 2


def _examples() -> list[list[str]]:
    """The ``paipu hand`` examples of the module docstring, as argument lists."""
    import shlex

    from paipu import hand_cmd

    out = []
    for line in (hand_cmd.__doc__ or "").splitlines():
        line = line.strip()
        if line.startswith("paipu hand "):
            out.append(shlex.split(line)[2:])
    return out


def test_docstring_examples_run_and_win():
    examples = _examples()
    assert len(examples) == 3
    for args in examples:
        r = run(*args)
        assert r.exit_code == 0, (args, r.output)
        assert ("WINS" in r.stdout) or json.loads(r.stdout)["wins"], args


def test_hand_first_docstring_example_near_miss_one_tile_short():
    # the example as it once read (12 concealed tiles + the winning tile) is refused, not scored
    r = run("234m456p789s55z", "1s", "--tile", "1m", "--self-draw")
    assert r.exit_code == 2 and "needs 14" in r.stderr


def test_hand_waits_refuse_a_kind_held_four_times():
    # two chickens in hand and two in the 6s kong: no fifth 1s can come
    d = json.loads(run("123m11s66z", "--melds", "ckong:1166s pong:333p", "--json").stdout)
    assert d["waits"] and "1s" not in d["waits"] and "5z" in d["waits"]


def test_hand_waits_near_miss_chicken_still_in_the_wall():
    d = json.loads(run("123m11s66z", "--melds", "ckong:6666s pong:333p", "--json").stdout)
    assert "1s" in d["waits"]


def test_hand_refuses_a_chow_when_the_room_has_no_chow():
    r = run("34m222p66p", "--tile", "2m", "--melds", "chow:567s ckong:4p", "--after-kong")
    assert r.exit_code == 2 and "吃" in r.stderr and "chow=true" in r.stderr
    assert "Traceback" not in r.output and r.stderr.strip().count("\n") == 0


def test_hand_refuses_illegal_melds_and_keeps_legal_ones():
    for melds in ("pong:7z7z1s", "kong:2p1s1s1s", "chow:135m"):
        r = run("123m456p789s5z", "--tile", "5z", "--melds", melds, "--option", "chow=true")
        assert r.exit_code == 2, (melds, r.output)
    # near misses: two chickens pong a discarded chicken as plain 1s; a pair + 1 chicken konges
    for melds in ("pong:1s1s1s", "kong:2p2p2p1s"):
        r = run("123m456p789s5z", "--tile", "5z", "--melds", melds, "--json")
        assert r.exit_code == 0 and json.loads(r.stdout)["wins"], (melds, r.output)


def test_hand_sixiaoji_is_a_self_draw_not_a_discard_win():
    d = json.loads(run("1111s2468m3579p1z", "--tile", "9s", "--discard", "--json").stdout)
    assert not d["wins"] and "sixiaoji" not in d["fans"]
    d = json.loads(run("1111s2468m3579p1z", "--tile", "9s", "--self-draw", "--passed-win", "--json").stdout)
    assert d["wins"] and d["fans"] == ["sixiaoji"]  # 过胡 never bars a self-draw


def test_hand_sixiaoji_on_discard_with_passed_win_is_not_a_win():
    base = ["1111s2468m3579p1z", "--tile", "9s", "--discard", "--option", "sixiaoji_on_discard=true", "--json"]
    d = json.loads(run(*base, "--passed-win").stdout)
    assert not d["wins"] and d["payments"] == [] and "过胡" in d["reason"]
    d = json.loads(run(*base).stdout)  # near miss: no win passed
    assert d["wins"] and d["fans"] == ["sixiaoji"]


def test_hand_transfers_need_seats_of_the_table():
    args = ["123m456p789s1s", "--tile", "5z", "--melds", "pong:2z", "--robbed-kong"]
    assert run(*args, "--seat", "0", "--from-seat", "4").exit_code == 2
    assert run(*args, "--seat", "2", "--from-seat", "2").exit_code == 2
    assert run(*args, "--seat", "0").exit_code == 2  # a robbed kong names its adder
    d = json.loads(run(*args, "--seat", "3", "--from-seat", "1", "--json").stdout)
    assert d["transfers"] == [{"payer": 1, "payee": 3, "amount": 3, "reason": "qianggang"}]


# --- Sichuan (sichuan.md): the void suit and the win context -------------------------------

def test_sichuan_hand_with_its_void_suit():
    ok = run("234567p3345678s", "--tile", "9s", "--discard", "--preset", "sichuan", "--void", "m", "--json")
    d = json.loads(ok.stdout)
    assert ok.exit_code == 0 and d["wins"] and d["fans"] == ["jihu"] and d["points"] == 1
    assert d["payments"] == [{"payer": "discarder", "amount": 1}]
    # near miss: the same hand with 条 declared void does not win
    bad = json.loads(run("234567p3345678s", "--tile", "9s", "--discard", "--preset", "sichuan", "--void", "s",
                         "--json").stdout)
    assert not bad["wins"] and bad["complete"]


def test_sichuan_self_draw_pays_jiadi_and_haidi_counts():
    d = json.loads(run("234567p3345678s", "--tile", "9s", "--preset", "sichuan", "--void", "m", "--last-tile",
                       "--json").stdout)
    assert d["fans"] == ["jihu", "haidi"] and d["points"] == 2
    assert d["payments"] == [{"payer": "each_other_player", "amount": 3}]


def test_sichuan_text_and_batch():
    assert "WINS" in run("1111m33m55m77m88m9", "m", "--tile", "9m", "--preset", "sichuan", "--void", "s").stdout
    line = json.dumps({"hand": "1111m33m55m77m88m9m", "tile": "9m", "how": "self_draw", "preset": "sichuan",
                       "void": "s"})
    out = json.loads(run("--batch", input=line + "\n").stdout)
    assert sorted(out["fans"]) == ["longqidui", "qingyise"] and out["fan"] == 5 and out["points"] == 8
    assert out["payments"] == [{"payer": "each_other_player", "amount": 9}]


def test_co_winners_flag_names_the_other_winners_of_a_discard():
    # 一炮多响 (Wuhan §9.4, 起胡 on the least payer): seat 3 also wins, so it pays nothing and is
    # no basis; without --co-winners seat 3 is the least payer and the 屁胡 is below 起胡
    args = ["12345688m34s", "--tile", "5s", "--melds", "pong:777s", "--discard", "--kong-discard", "--winners", "2",
            "--seat", "2", "--from-seat", "1", "--dealer", "0", "--indicator", "4p",
            "--context", "seat_fans=[[1,0,0,1,0],[1,0,0,1,0],[1,0,0,0,0],[1,0,0,0,0]]", "--preset", "wuhan-hzlzg",
            "--option", "multi_win=true", "--option", "qihu=32", "--option", 'qihu_basis="min"', "--json"]
    both = run(*args, "--co-winners", "3")
    assert both.exit_code == 0 and json.loads(both.stdout)["wins"]
    alone = run(*args)
    assert alone.exit_code == 0 and not json.loads(alone.stdout)["wins"]
    bad = run(*args, "--co-winners", "2")
    assert bad.exit_code == 2 and "not the winner's own" in bad.output
    assert "--co-winners" in run("--help").output
