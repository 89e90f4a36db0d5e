"""``paipu hand --preset xuzhou``: the hand's 配子 from ``--indicator``, the names and flat
points, the 坐庄 bonus in the transfers with ``--dealer``, text and ``--batch``."""

from __future__ import annotations

import json

import typer
from typer.testing import CliRunner

from paipu.hand_cmd import register

app = typer.Typer()
register(app)
app.command("noop")(lambda: None)
runner = CliRunner()
XZ = ["--preset", "xuzhou"]


def hand(*args: str, input: str | None = None):
    return runner.invoke(app, ["hand", *args], input=input)


def js(*args: str) -> dict:
    r = hand(*args, "--json", *XZ)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_example_2_with_the_indicator():
    # indicator 4p: 5p is the 配子 and 白板 a natural 5p (xuzhou.md §11.2)
    got = js("234m567m78s99p4p5z5p", "--tile", "9s", "--discard", "--indicator", "4p", "--seat", "2",
             "--from-seat", "3", "--dealer", "0")
    assert got["wins"] and sorted(got["fans"]) == ["jihu", "paopei"] and got["fan"] == 0 and got["points"] == 1
    assert got["transfers"] == [{"payer": 3, "payee": 2, "amount": 1, "reason": "win"}]
    # near miss: without the indicator the hand has no 配子 and does not win
    assert not js("234m567m78s99p4p5z5p", "--tile", "9s", "--discard")["wins"]


def test_the_dealer_bonus_in_the_transfers():
    got = js("234m567m789s99p46p", "--tile", "5z", "--self-draw", "--indicator", "4p", "--seat", "0",
             "--dealer", "0")
    assert [t["amount"] for t in got["transfers"]] == [2, 2, 2]
    # near miss: seat 2 self-draws with seat 0 dealing: only the dealer's payment grows
    got = js("234m567m789s99p46p", "--tile", "5z", "--self-draw", "--indicator", "4p", "--seat", "2",
             "--dealer", "0")
    assert sorted((t["payer"], t["amount"]) for t in got["transfers"]) == [(0, 2), (1, 1), (3, 1)]


def test_options_change_the_points():
    got = js("234m567m789s99p46p", "--tile", "5z", "--self-draw", "--indicator", "4p", "-o", "zimo_units=3",
             "-o", "base=2")
    assert got["points"] == 6


def test_indicator_refused_where_the_rules_have_none():
    r = hand("234m567m789s99p46p", "--tile", "5z", "--indicator", "4p", "--preset", "qujing-xiaoji")
    assert r.exit_code != 0 and "indicator" in r.output


def test_batch_and_text():
    req = {"hand": "147m258p369s1234z", "tile": "7z", "how": "self_draw", "preset": "xuzhou", "indicator": "4m"}
    r = hand("--batch", input=json.dumps(req) + "\n")
    assert r.exit_code == 0 and json.loads(r.output)["fans"] == ["shisanlan"]
    r = hand("147m258p369s1234z", "--tile", "7z", "--indicator", "4m", *XZ)
    assert r.exit_code == 0 and "WINS" in r.output and "shisanlan" in r.output
