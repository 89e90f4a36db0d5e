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
