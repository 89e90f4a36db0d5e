"""hainan.md §12 recomputed through ``paipu hand --preset hainan`` (the public entry point):
the figures typed in from the text, never from paipu's output."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from paipu.hand_cmd import register

app = typer.Typer()
register(app)
app.command("noop")(lambda: None)
runner = CliRunner()

#: §12.8: the dealer (seat 0, n = 2: its third hand in a row, ``--level 3``) ponged 3p and
#: self-draws 9p: 清一色 碰碰胡, B = 2, r = 2.
EX8 = ["111p555p777p9p", "--tile", "9p", "-m", "pong:3p", "--self-draw", "--seat", "0", "--dealer", "0",
       "--seat-wind", "east", "--round-wind", "east", "--preset", "hainan", "-o", "base=2", "--json"]


def paid(*args: str) -> dict:
    r = runner.invoke(app, ["hand", *args])
    assert r.exit_code == 0, r.output
    got = json.loads(r.output)
    return {t["payer"]: t["amount"] for t in got["transfers"]}


@pytest.mark.parametrize("options, each", [
    ([], 4),
    (["-o", "hand_multiplier=additive"], 28),
    (["-o", "hand_multiplier=multiplicative"], 16),
    (["-o", "lianzhuang=multiply"], 12),  # u = 2 × (2 + 1) = 6
    (["-o", "lianzhuang=add"], 8),  # u = 2 + 2 = 4
    (["-o", "lianzhuang=add", "-o", "dealer_unit_bonus=1"], 10),  # u = 5
])
def test_example_8_the_dealer_options_through_paipu_hand(options, each):
    assert paid(*EX8, "--level", "3", *options) == {1: each, 2: each, 3: each}


def test_the_dealer_level_prices_only_dealer_pairs():
    # near misses: a first hand (level 1, n = 0) is priced at B under either 连庄 option, and a
    # non-dealer winner's pairs without the dealer stay at B whatever the level
    assert paid(*EX8, "--level", "1", "-o", "lianzhuang=multiply") == {1: 4, 2: 4, 3: 4}
    assert paid(*EX8, "-o", "lianzhuang=multiply") == {1: 4, 2: 4, 3: 4}  # no level given: a first hand
    not_dealer = [a if a != "0" or i != EX8.index("--seat") + 1 else "1" for i, a in enumerate(EX8)]
    not_dealer[not_dealer.index("--seat-wind") + 1] = "south"
    assert paid(*not_dealer, "--level", "3", "-o", "lianzhuang=multiply") == {0: 12, 2: 4, 3: 4}
