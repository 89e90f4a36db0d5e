"""Second-engineer review of xuzhou.md (§6, §11): the worked examples recomputed through the
public entry points (``paipu hand``), and the rules a first pass left without a near miss.

Expected values are derived from the text, never from paipu's output."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from audits.rules.family import WinContext
from audits.rules.xuzhou import fans
from paipu.hand_cmd import register
from schema.tiles import TILE_INDEX as T

from .helpers import rules, tiles

app = typer.Typer()
register(app)
app.command("noop")(lambda: None)
runner = CliRunner()


def hand(*args: str) -> dict:
    """``paipu hand ... --preset xuzhou --json`` as a dict."""
    r = runner.invoke(app, ["hand", *args, "--preset", "xuzhou", "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def paid(got: dict) -> list[tuple[int, int, int]]:
    return sorted((t["payer"], t["payee"], t["amount"]) for t in got.get("transfers", []))


# --- §6 过胡 through ``paipu hand --passed-win`` ----------------------------------------------
# Example 5: seat 3 (123m 45m 456p 789p 11s) waits on 3m / 6m and let seat 1's 3m go.

WAITING = "123m45m456p789p11s"


def test_example_5_passed_win_bars_the_discard_win():
    # §6.2: after a passed win, no win on any discard until the seat's own draw or call
    got = hand(WAITING, "--tile", "6m", "--discard", "--passed-win", "--indicator", "1z", "--seat", "3",
               "--from-seat", "2", "--dealer", "0")
    assert got["complete"] and not got["wins"] and "过胡" in got["reason"]
    assert got["payments"] == [] and "transfers" not in got
    # near miss: without the pass the same discard win stands, seat 2 pays 1
    got = hand(WAITING, "--tile", "6m", "--discard", "--indicator", "1z", "--seat", "3", "--from-seat", "2",
               "--dealer", "0")
    assert got["wins"] and paid(got) == [(2, 3, 1)]


def test_passed_win_bars_a_rob():
    # §6.2: "may not win on any discard and may not rob"
    got = hand(WAITING, "--tile", "6m", "--robbed-kong", "--passed-win", "--indicator", "1z")
    assert got["complete"] and not got["wins"] and "过胡" in got["reason"]


def test_example_5_self_draw_after_the_pass_is_allowed():
    # §6.2: the self-draw on the seat's next draw wins: seats 1, 2 pay 1, the dealer 2; +4
    got = hand(WAITING, "--tile", "3m", "--self-draw", "--passed-win", "--indicator", "1z", "--seat", "3",
               "--dealer", "0")
    assert got["wins"] and got["reason"] == "" and paid(got) == [(0, 3, 2), (1, 3, 1), (2, 3, 1)]


@pytest.mark.parametrize("how, code", [("discard", "WIN_DURING_GUOHU"), ("robbed_kong", "WIN_DURING_GUOHU"),
                                       ("self_draw", "")])
def test_the_score_names_the_pass_code(how, code):
    # the scoring API carries the catalogue code of the bar (the walker's WIN_DURING_GUOHU)
    sc = fans.score_hand(rules("1z"), tiles("123m 45m 456p 789p 11s 6m"), (),
                         WinContext(how=how, win_tile=T["6m"]), passed_win=True)
    assert sc.complete and sc.wins == (code == "") and sc.code == code and sc.points == 1


def test_passed_win_does_not_make_an_incomplete_hand_complete():
    # the bar names 过胡 only for a hand that would otherwise win
    sc = fans.score_hand(rules("1z"), tiles("123m 45m 456p 789p 11s 9m"), (),
                         WinContext(how="discard", win_tile=T["9m"]), passed_win=True)
    assert not sc.complete and not sc.wins and sc.code == ""
