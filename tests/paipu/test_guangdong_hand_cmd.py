"""``paipu hand --preset guangdong-jipinghu``: the win context (winds, 天/地/人和, 海底, 抢杠,
杠上开花, 一炮三响), text, ``--json`` and ``--batch``; and ``audit --explain`` on a
Guangdong log shows §7.6 step by step and the liability that applied."""

from __future__ import annotations

import json

import typer
from typer.testing import CliRunner

from audits.audit import explain_game
from paipu.hand_cmd import register
from paipu.sim.guangdong import examples as gx

from ..audits.helpers import log_of

app = typer.Typer()
register(app)
app.command("noop")(lambda: None)
runner = CliRunner()
GD = ["--preset", "guangdong-jipinghu"]


def hand(*args: str, input: str | None = None):
    return runner.invoke(app, ["hand", *args], input=input)


def js(*args: str) -> dict:
    r = hand(*args, "--json", *GD)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_the_cap_with_seat_and_round_winds():
    res = js("777z222m888p5s", "--tile", "5s", "--melds", "pong:1z", "--self-draw",
             "--seat-wind", "east", "--round-wind", "east")
    assert sorted(res["fans"]) == sorted(["duidui", "zimo", "menfeng", "quanfeng", "sanyuan"])
    assert res["fan"] == 6 and res["points"] == 8
    # near miss: as 南 in the 东 round only 圈风 counts
    res = js("777z222m888p5s", "--tile", "5s", "--melds", "pong:1z", "--self-draw",
             "--seat-wind", "south", "--round-wind", "east")
    assert "menfeng" not in res["fans"] and res["fan"] == 5 and res["points"] == 8


def test_floors_and_heavenly_hands():
    assert js("23m45699p", "--tile", "4m", "--melds", "chow:345s kong:7777s", "--self-draw",
              "--after-kong")["points"] == 8
    assert js("234m567p34s99p", "--tile", "5s", "--melds", "pong:8s", "--self-draw", "--last-tile")["points"] == 8
    assert js("34m678p234s456s11z", "--tile", "5m", "--robbed-kong")["points"] == 8
    assert js("234m567p34s99p", "--tile", "5s", "--melds", "pong:8s", "--discard", "--winners", "3")["points"] == 8
    assert js("234m567p34s99p", "--tile", "5s", "--melds", "pong:8s", "--discard")["points"] == 1
    assert js("123m456m789m123p5p", "--tile", "5p", "--self-draw", "--tianhe")["fans"] == ["tianhe"]
    assert js("78m123p456p789p11s", "--tile", "9m", "--discard", "--renhe")["points"] == 64


def test_text_shows_the_derivation_and_batch_answers_per_line():
    r = hand("23m45699p", "--tile", "4m", "--melds", "chow:345s kong:7777s", "--self-draw", "--after-kong", *GD)
    assert r.exit_code == 0 and "F = max(1, 3) = 3" in r.stdout
    lines = [json.dumps({"hand": "123m456m789p23s55s", "tile": "4s", "preset": "guangdong-jipinghu"}),
             json.dumps({"hand": "1122m3344p5566s7z", "tile": "7z", "preset": "guangdong-jipinghu", "how": "discard"})]
    r = hand("--batch", input="\n".join(lines) + "\n")
    out = [json.loads(x) for x in r.stdout.splitlines()]
    assert out[0]["points"] == 4 and out[0]["wins"]
    assert not out[1]["complete"]  # 七对 is no win by default


def test_bad_wind_is_an_input_error():
    r = hand("123m456m789p23s55s", "--tile", "4s", "--seat-wind", "up", *GD)
    assert r.exit_code == 2


def test_explain_shows_the_steps_and_the_liability():
    text = "\n".join(explain_game(log_of(gx.ex06_gangkai_bao())))
    assert "4. 杠上开花: F = max(1, 3) = 3" in text and "5. P = 1 × 2^3 = 8" in text
    assert "包 bao_gangkai: seat 3 pays 3·P for seat 1" in text
    text = "\n".join(explain_game(log_of(gx.ex06_gangkai_bao(True))))
    assert "包: none" in text  # near miss: an added kong makes no liability
    text = "\n".join(explain_game(log_of(gx.ex09_luodi("b"))))
    assert "包: none" in text  # 包先不包后: A already answers for B
