"""Second-engineer review of xuzhou.md (§6, §11): the worked examples recomputed through the
public entry points (``paipu hand``), and the rules a first pass left without a near miss.

Expected values are derived from the text, never from paipu's output."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

import msgspec

from audits import audit_game
from audits.rules.family import WinContext
from audits.rules.xuzhou import fans
from paipu.hand_cmd import register
from paipu.sim.xuzhou import examples as xx
from paipu.sim.xuzhou.scenes import XuzhouScene
from schema import events as ev
from schema.tiles import TILE_INDEX as T

from ..helpers import log_of
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


# --- §11 the worked examples recomputed through ``paipu hand`` ------------------------------

@pytest.mark.parametrize("indicator, options, w", [
    ("4p", (), "5p"), ("9s", (), "1s"), ("4z", (), "1z"), ("5z", (), "7z"), ("7z", (), "6z"),
    ("6z", (), "5z"), ("4p", ("wild_from=same",), "4p")])
def test_example_1_indicators(indicator, options, w):
    opts = [x for o in options for x in ("-o", o)]
    got = hand("123m456m789p345s7s", "--tile", "7s", "--indicator", indicator, *opts)
    first = got["steps"][0]
    assert first.startswith(f"1. 配子 W = {w}")
    # 白板 stands in for W, except when W is 白板 itself
    assert ("白板 reads as" in first) == (w != "5z")


def test_example_2_pays_one_without_the_dealer():
    got = hand("234m567m78s99p4p5z5p", "--tile", "9s", "--discard", "--indicator", "4p", "--seat", "2",
               "--from-seat", "3", "--dealer", "0")
    assert sorted(got["fans"]) == ["jihu", "paopei"] and got["fan"] == 0 and got["points"] == 1
    assert paid(got) == [(3, 2, 1)]
    # near miss: the same win on the dealer's discard pays 1 + 1
    got = hand("234m567m78s99p4p5z5p", "--tile", "9s", "--discard", "--indicator", "4p", "--seat", "2",
               "--from-seat", "0", "--dealer", "0")
    assert paid(got) == [(0, 2, 2)]


@pytest.mark.parametrize("bonus, each", [("plus_one", 2), ("double", 2), ("none", 1)])
def test_example_3_dealer_self_draw(bonus, each):
    got = hand("234m567m789s99p45p", "--tile", "6p", "--self-draw", "--indicator", "1z", "--seat", "0",
               "--dealer", "0", "-o", f"dealer_bonus={bonus}")
    assert got["points"] == 1 and paid(got) == [(1, 0, each), (2, 0, each), (3, 0, each)]


def test_example_4_each_winner_of_one_discard():
    # seat 1 throws 6m: the dealer (seat 0) is paid 1 + 1, seat 2 is paid 1
    args = ("234m567m789s99p45m", "--tile", "6m", "--discard", "--indicator", "1z", "--from-seat", "1",
            "--dealer", "0")
    assert paid(hand(*args, "--seat", "0")) == [(1, 0, 2)]
    assert paid(hand(*args, "--seat", "2")) == [(1, 2, 1)]


def test_example_7a_qidui_on_the_dealers_discard():
    got = hand("11m33m55p77p99s11z8s", "--tile", "2s", "--discard", "--indicator", "7s", "--seat", "1",
               "--from-seat", "0", "--dealer", "0")
    assert got["fans"] == ["qidui"] and got["fan"] == 0 and got["points"] == 1 and paid(got) == [(0, 1, 2)]


def test_example_7b_luanpai_and_its_near_miss_under_shisanyao():
    args = ("147m258p369s1234z", "--tile", "7z", "--self-draw", "--indicator", "4m", "--seat", "3", "--dealer", "0")
    got = hand(*args)
    assert got["fans"] == ["shisanlan"] and paid(got) == [(0, 3, 2), (1, 3, 1), (2, 3, 1)]
    got = hand(*args, "-o", "luanpai=shisanyao")
    assert not got["complete"] and not got["wins"]


def test_example_8_the_shape_gate():
    args = ("123m456m789p345s7s", "--tile", "7s", "--discard", "--indicator", "1z", "--seat", "2",
            "--from-seat", "1", "--dealer", "0")
    assert paid(hand(*args)) == [(1, 2, 1)]
    assert not hand(*args, "-o", "shape_gate=bazhi")["complete"]


# --- §11 examples 4 and 6, §3.3 on logs: the near misses the text names -------------------------

def audited(b) -> tuple[list[str], list[int]]:
    a = audit_game(log_of(b))
    return [f.code for f in a.findings], a.ledger[-1]


def example_4(winners, transfers, options=None, next_dealer=None):
    """§11.4: seat 1 throws 6m; seats 0 (the dealer) and 2 both declare a win; the log names
    ``winners`` and pays ``transfers``; with ``next_dealer`` a drawn second hand follows."""
    s = XuzhouScene("xz-review-ex04", options)
    s.hand(0, {0: "123p 456p 789p 45m 99s 1z", 2: "234s 567s 789p 45m 11z", 1: "6m"}, indicator="9s",
           avoid="3m 6m")
    s.discard(0, "1z")
    s.draw(1)
    s.discard(1, "6m")
    s.b.declare(0, "win")
    s.b.declare(2, "win")
    s.win([(w, ["jihu"], 0, 1) for w in winners], "discard", "6m", from_seat=1, declare=False)
    s.settle(transfers)
    if next_dealer is not None:
        s.hand(next_dealer, {}, indicator="4p")
        s.until(s.opening_round(next_dealer), 0)
        s.drawn()
    return s.close()


BOTH = ([0, 2], [(1, 0, 2, "win"), (1, 2, 1, "win")])


def test_example_4_a_log_paying_only_the_dealer_is_win_missed_multi():
    assert audited(example_4(*BOTH)) == ([], [2, -3, 1, 0])
    # near miss (the text's): seat 2 declared a legal win and is left out
    codes, _ = audited(example_4([0], [(1, 0, 2, "win")]))
    assert codes == ["WIN_MISSED_MULTI"]


def test_example_4_the_dealer_among_the_winners_deals_again():
    assert audited(example_4(*BOTH, next_dealer=0))[0] == []
    # near miss: the deal passed to seat 1 although the dealer won
    assert audited(example_4(*BOTH, next_dealer=1))[0] == ["DEALER_ROTATION"]


def test_example_4_multi_win_off_the_first_from_the_discarders_xiajia():
    off = {"multi_win": False}
    assert audited(example_4([2], [(1, 2, 1, "win")], off, next_dealer=1)) == ([], [0, -1, 1, 0])
    # near miss: seat 0 declared later (seat 2 is seat 1's 下家): CLAIM_PRIORITY, and the
    # corrected ledger pays seat 2, the first legal declarer (new-families.md §1b)
    codes, ledger = audited(example_4([0], [(1, 0, 2, "win")], off))
    assert codes == ["CLAIM_PRIORITY"] and ledger == [0, -1, 1, 0]
    # near miss: under 截和 seat 2 alone won, so seat 1 deals next, not the dealer
    assert audited(example_4([2], [(1, 2, 1, "win")], off, next_dealer=0))[0] == ["DEALER_ROTATION"]


def test_example_6_a_bet_after_the_deal_is_invalid():
    b = xx.ex06_xiazui()
    assert audited(b) == ([], [-5, -3, 12, -4])
    # near miss: seat 3's bet moved after the deal
    b = xx.ex06_xiazui()
    events = list(b.events)
    bet = events.pop(max(i for i, e in enumerate(events) if type(e) is ev.PigBetPlaced))
    deal = next(i for i, e in enumerate(events) if type(e) is ev.TilesDealt)
    events.insert(deal + 1, bet)
    b.events = [msgspec.structs.replace(e, seq=k) for k, e in enumerate(events)]
    assert audited(b)[0] == ["YANGZHU_BET_INVALID"]


def white_indicator_room(fifth_white: bool = False):
    """Indicator 白 (W = 中): seat 2 is dealt 白白白 and the four 中 (配子): seven tiles of kind
    中 in play; with ``fifth_white`` one dealt 中 is a fourth 白板 (five with the indicator)."""
    s = XuzhouScene("xz-review-white")
    s.hand(0, {2: "5z 5z 5z 7z 7z 7z 7z"}, indicator="5z")
    s.until(s.opening_round(0), 0)
    s.drawn()
    b = s.close()
    if fifth_white:
        for i, e in enumerate(b.events):
            if type(e) is ev.TilesDealt:
                hands = [list(h) for h in e.hands]
                hands[2][hands[2].index("7z")] = "5z"  # seat 2 only 摸切s: its dealt tiles stay
                b.events[i] = msgspec.structs.replace(e, hands=hands)
    return b


def test_white_indicator_seven_tiles_of_kind_zhong_are_no_overcount():
    # §3.3: TILE_OVERCOUNT counts physical tiles; the max-four rule binds readings only
    assert audited(white_indicator_room()) == ([], [0, 0, 0, 0])
    # near miss: a fifth physical 白板 (the indicator is one of the four, §2)
    assert audited(white_indicator_room(True))[0] == ["TILE_OVERCOUNT"]


# --- §7.5 天和 is the dealer's dealt 14: a self-draw ---------------------------------------------

def test_tianhe_is_never_a_discard_win():
    args = ("234m567m789s99p45p", "--tile", "6p", "--tianhe", "--indicator", "1z", "--seat", "0", "--dealer", "0")
    got = hand(*args, "--self-draw")
    assert got["fans"] == ["jihu", "tianhe"] and paid(got) == [(1, 0, 2), (2, 0, 2), (3, 0, 2)]
    # near miss: a win on another seat's discard is never the dealer's dealt 14
    got = hand(*args, "--discard", "--from-seat", "1")
    assert got["fans"] == ["jihu"] and paid(got) == [(1, 0, 2)]


# --- §2 the indicator's place (``indicator_from``) on a logged wall ---------------------------

@pytest.mark.parametrize("played, other", [("head", "tail"), ("tail", "head")])
def test_indicator_from_on_a_logged_wall(played, other):
    from paipu.sim.simulate import SimConfig, simulate_games
    from paipu.sim.guangdong.scenes import reopened

    g = next(iter(simulate_games(SimConfig(preset="xuzhou", games=1, seed=3, max_hands=1, fee=0,
                                            include_wall=True, options={"indicator_from": played}))))
    events = list(g)  # a simulated room: its events
    started = next(e for e in events if type(e) is ev.HandStarted)
    turned = next(e for e in events if type(e) is ev.IndicatorTurned)
    # §2: the next wall tile after the 14/13 deal (wall[53]) from the head, or the wall's last from the tail
    assert turned.tile == (started.wall[4 * 13 + 1] if played == "head" else started.wall[-1])
    b = type("Room", (), {"game": events[0].game, "events": events})()
    assert audited(b)[0] == []
    # near miss: the same log in a room turning its indicator from the other end
    b.events = list(events)
    reopened(b, indicator_from=other)
    assert set(audited(b)[0]) == {"WILD_INDICATOR_MISSING"}


# --- §3.3 nobody wins on a dead 配子 (the 白板 standing in for it is live) ----------------------

def win_on_discard(tile: str):
    """Indicator 4p (W = 5p): seat 2 holds 234m 567m 789s 99p 46p; seat 1 throws ``tile`` and
    seat 2 declares a win on it, paid 1."""
    s = XuzhouScene("xz-review-dead-win")
    s.hand(0, {2: "234m 567m 789s 99p 46p", 1: tile}, indicator="4p", avoid="3p 6p 9s 9p")
    s.discard(0)
    s.draw(1)
    s.discard(1, tile)
    s.win([(2, ["jihu"], 0, 1)], "discard", tile, from_seat=1)
    s.settle([(1, 2, 1, "win")])
    return s.close()


def test_a_win_on_a_dead_pei_is_claim_on_dead_discard_and_paid_nothing():
    assert audited(win_on_discard("5p")) == (["CLAIM_ON_DEAD_DISCARD"], [0, 0, 0, 0])
    # near miss: a 白板 is a natural 5p (§3.2), a live discard: the win stands, seat 1 pays 1
    assert audited(win_on_discard("5z")) == ([], [0, -1, 1, 0])


# --- §6.1 a robbing chance let go is a passed win ----------------------------------------------

def rob_let_go(kong: str):
    """Seat 1 pongs the dealer's ``kong`` and later adds the fourth; seat 2 (123m 456m 789m 99p
    78s: waits on 6s / 9s) does not rob it, then wins on seat 1's 9s after the replacement."""
    s = XuzhouScene("xz-review-rob-pass")
    s.hand(0, {0: kong, 1: f"{kong} {kong}", 2: "123m 456m 789m 78s 9p 1z"}, indicator="1z",
           reserve=f"9p {kong} 9s", avoid=f"{kong} 9p 6s 9s")
    s.discard(0, kong)
    s.pong(1, 0, kong)
    s.discard(1)
    s.draw(2, "9p")
    s.discard(2, "1z")
    s.pass_turn(3)
    s.pass_turn(0)
    s.draw(1, kong)
    s.kong_added(1, kong)
    s.replacement(1, "9s")
    s.discard(1, "9s")
    s.win([(2, ["jihu"], 0, 1)], "discard", "9s", from_seat=1)
    s.settle([(1, 2, 1, "win")])
    return s.close()


def test_a_rob_let_go_bars_the_next_discard_win():
    # 6s completes seat 2's hand: the added kong was a win let go, and seat 2 has not drawn since
    assert audited(rob_let_go("6s")) == (["WIN_DURING_GUOHU"], [0, 0, 0, 0])
    # near miss: a kong of 西 (no win for seat 2) lets nothing go: the win on 9s stands
    assert audited(rob_let_go("3z")) == ([], [0, -1, 1, 0])


# --- §2 a kong needs a drawable tile (R ≥ 1) -----------------------------------------------------

def kong_of_a_late_discard(left: int):
    """Seat 3 (9m 9m 9m) kongs the 9m thrown with ``left`` drawable tiles remaining, then 流局."""
    s = XuzhouScene("xz-review-late-kong")
    s.hand(0, {3: "9m 9m 9m"}, indicator="1z", reserve="9m", avoid="9m")
    seat = s.until(s.opening_round(0), 1 + left)
    s.draw(seat, "9m")
    s.discard(seat, "9m")
    s.kong_exposed(3, seat, "9m")
    if left:
        s.replacement(3)
    s.discard(3)
    s.drawn()
    return s.close()


def test_a_kong_needs_a_drawable_tile():
    # one tile left: the kong takes it as its replacement, then 流局
    assert audited(kong_of_a_late_discard(1)) == ([], [0, 0, 0, 0])
    # near miss: the last discard (R = 0) may be ponged (ex12) but not konged
    assert audited(kong_of_a_late_discard(0))[0][0] == "KONG_WITHOUT_REPLACEMENT"


# --- §8.3 下嘴 paid apart, under reason ``yangzhu`` (new-families.md §3) ------------------------

def test_example_6_a_wrong_xiazui_part_is_yangzhu_mismatch():
    from paipu.sim.guangdong.scenes import repaid
    right = [(3, 2, 1, "win"), (3, 2, 3, "yangzhu"), (0, 2, 2, "win"), (0, 2, 3, "yangzhu"),
             (1, 2, 1, "win"), (1, 2, 2, "yangzhu")]
    assert audited(repaid(xx.ex06_xiazui(), right)) == ([], [-5, -3, 12, -4])
    # near miss: the dealer's 下嘴 part counted without its own bet, (2 + 0) instead of (2 + 1)
    short = [(p, q, 2 if (p, r) == (0, "yangzhu") else a, r) for p, q, a, r in right]
    assert audited(repaid(xx.ex06_xiazui(), short)) == (["YANGZHU_MISMATCH"], [-5, -3, 12, -4])


def test_the_gate_is_named_when_it_alone_refuses():
    # example 8 under bazhi: a 平和 whose suits hold 6, 3 and 5 tiles: the reason names 八枝
    args = ("123m456m789p345s7s", "--tile", "7s", "--discard", "--indicator", "1z")
    assert "八枝" in hand(*args, "-o", "shape_gate=bazhi")["reason"]
    # near miss: a hand that is no 平和 at all is not said to fail the gate
    got = hand("123m456m789p345s8s", "--tile", "7s", "--discard", "--indicator", "1z", "-o", "shape_gate=bazhi")
    assert not got["complete"] and "八枝" not in got["reason"]


def tianhe_after_a_kong(names):
    """The dealer is dealt 1111m 234m 567m 789s 9p, declares the concealed kong of 1m and wins on
    its replacement 9p: a self-draw paid 2 by each (§8.1, §8.2), logged with ``names``."""
    s = XuzhouScene("xz-review-tianhe-kong")
    s.hand(0, {0: "1111m 234m 567m 789s 9p"}, indicator="1z", reserve="9p")
    s.kong_concealed(0, "1m")
    s.replacement(0, "9p")
    s.win([(0, names, 0, 1)], "self_draw", "9p")
    s.settle([(1, 0, 2, "win"), (2, 0, 2, "win"), (3, 0, 2, "win")])
    return s.close()


def test_no_tianhe_after_the_dealers_kong():
    # §7.5: 天和 is the dealt 14 "before any discard or kong"; the money is a self-draw's either way
    assert audited(tianhe_after_a_kong(["jihu"])) == ([], [6, -2, -2, -2])
    # near miss: naming 天和 after the kong is a name that differs (money right: a warning)
    assert audited(tianhe_after_a_kong(["jihu", "tianhe"])) == (["FAN_NAMES_DIFFER"], [6, -2, -2, -2])


# --- shared code the review believes wrong (left to its owner) ----------------------------------

def test_explain_names_the_bets_xiazui():
    # --explain names the side bets as the family does (Xuzhou's are 下嘴, not 养猪)
    from audits.audit import explain_game
    text = explain_game(log_of(xx.ex06_xiazui()))
    assert any("下嘴 bets: [1, 0, 2, 1]" in line for line in text)
    assert not any("养猪" in line for line in text)


def test_explain_names_qujing_bets_yangzhu():
    # near miss: a Qujing room's bets stay 养猪 (and no family's word leaks into another's)
    from audits.audit import explain_game
    from schema.reader import LogReader
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "sample_logs" / "clean" / "seed_yangzhu_bets_1_2_0_0_selfdraw.jsonl"
    text = explain_game(next(LogReader([str(path)]).games()))
    assert any(line.strip().startswith("养猪 bets: [") for line in text)
    assert not any("下嘴" in line for line in text)


def test_the_corrected_ledger_pays_the_missed_declarer():
    # 一炮多响: every legal declarer wins, and the corrected ledger pays what the rules give for
    # the declarations the log holds (new-families.md §1b). Example 4: seat 2 declared a legal
    # win on seat 1's 6m; the log pays the dealer only
    codes, ledger = audited(example_4([0], [(1, 0, 2, "win")]))
    assert codes == ["WIN_MISSED_MULTI"] and ledger == [2, -3, 1, 0]


def test_the_corrected_ledger_pays_no_declarer_whose_win_is_not_legal():
    # near miss: seat 2 declares a win its hand does not make (48m waits on no 6m); the log
    # pays the dealer alone, rightly, and so does the corrected ledger
    s = XuzhouScene("xz-review-ex04-illegal")
    s.hand(0, {0: "123p 456p 789p 45m 99s 1z", 2: "234s 567s 789p 48m 11z", 1: "6m"}, indicator="9s",
           avoid="3m 6m")
    s.discard(0, "1z")
    s.draw(1)
    s.discard(1, "6m")
    s.b.declare(0, "win")
    s.b.declare(2, "win")
    s.win([(0, ["jihu"], 0, 1)], "discard", "6m", from_seat=1, declare=False)
    s.settle([(1, 0, 2, "win")])
    codes, ledger = audited(s.close())
    assert "WIN_MISSED_MULTI" not in codes and ledger == [2, -2, 0, 0]
