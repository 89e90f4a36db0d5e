"""Every worked example of xuzhou.md §11 with its exact money (B = 1, U = 1, the
dealer seat 0, ``dealer_bonus = plus_one`` unless stated)."""

import pytest

from audits.rules.family import HandFacts, PassBook, WinContext
from audits.rules.passes import pass_violation
from audits.rules.xuzhou import fans, settlement, wins
from schema.tiles import TILE_INDEX as T

from .helpers import counts, rules, tiles

DEALER = 0


def settle(r, winners, how, from_seat=None, bets=None, dealer=DEALER):
    facts = HandFacts(bets, None, None, dealer)
    return settlement.settle(r, [0, 0, 0, 0], winners, how, from_seat, facts)


def pays(result):
    return sorted((t.payer, t.payee, t.amount, t.reason) for t in result.transfers)


def score(r, hand, how, tile, heavenly=""):
    return fans.score_hand(r, tiles(hand), (), WinContext(how=how, win_tile=T[tile], heavenly=heavenly))


def test_example_2_paopei_on_a_discard():
    r = rules("5p")  # indicator 4p
    sc = score(r, "234m 567m 78s 99p 4p 5z 5p 9s", "discard", "9s")
    assert sc.wins and sorted(sc.fans) == ["jihu", "paopei"] and sc.fan == 0 and sc.points == 1
    s = settle(r, [(2, sc.points)], "discard", 3)
    assert pays(s) == [(3, 2, 1, "win")] and s.scores == [0, 0, 1, -1]
    assert settlement.dealer_after(r, DEALER, ([2], "discard", 3)) == 1


def test_example_3_dealer_self_draw():
    r = rules("5p")
    s = settle(r, [(0, 1)], "self_draw")
    assert pays(s) == [(1, 0, 2, "win"), (2, 0, 2, "win"), (3, 0, 2, "win")] and s.scores == [6, -2, -2, -2]
    assert settle(rules("5p", dealer_bonus="double"), [(0, 1)], "self_draw").scores == [6, -2, -2, -2]
    assert settle(rules("5p", dealer_bonus="none"), [(0, 1)], "self_draw").scores == [3, -1, -1, -1]
    assert settlement.dealer_after(r, DEALER, ([0], "self_draw", None)) == 0


def test_example_3_double_differs_with_larger_units():
    # near miss of plus_one vs double: with zimo_units 2 the dealer's payers pay 3 vs 4
    assert settle(rules("5p", zimo_units=2), [(0, 2)], "self_draw").scores == [9, -3, -3, -3]
    assert settle(rules("5p", zimo_units=2, dealer_bonus="double"), [(0, 2)], "self_draw").scores == [12, -4, -4, -4]


def test_example_4_multi_win_with_the_dealer():
    r = rules("5p")
    s = settle(r, [(0, 1), (2, 1)], "discard", 1)
    assert pays(s) == [(1, 0, 2, "win"), (1, 2, 1, "win")] and s.scores == [2, -3, 1, 0]
    assert settlement.dealer_after(r, DEALER, ([0, 2], "discard", 1)) == 0
    # multi_win off: only seat 2 (first from seat 1's 下家) is paid, and seat 1 deals next
    s = settle(rules("5p", multi_win=False), [(2, 1)], "discard", 1)
    assert s.scores == [0, -1, 1, 0]
    assert settlement.dealer_after(r, DEALER, ([2], "discard", 1)) == 1


def test_example_5_guohu_then_self_draw():
    r = rules("1z")
    hand = counts("123m 45m 456p 789p 11s")  # waits on 3m / 6m
    assert wins.is_winning(r, [c + (i == T["3m"]) for i, c in enumerate(hand)])
    book = PassBook(4, ())
    book.let_wins_go([3], [], T["3m"], False)  # seat 1's 3m: seat 3 does not win

    def judge(seat, tile, kd):
        return wins.is_winning(r, [c + (i == tile) for i, c in enumerate(hand)], (), plain=tile)
    # seat 2's 6m: barred (过胡, exactly Qujing's rule)
    assert pass_violation(book, 3, "win", T["6m"], judge, rules=r) == "WIN_DURING_GUOHU"
    # seat 3 draws: the bar is lifted
    book.clear(3)
    assert pass_violation(book, 3, "win", T["6m"], judge, rules=r) is None
    s = settle(r, [(3, 1)], "self_draw")
    assert pays(s) == [(0, 3, 2, "win"), (1, 3, 1, "win"), (2, 3, 1, "win")] and s.scores == [-2, -1, -1, 4]


def test_example_5_near_miss_a_chance_that_was_no_win():
    book = PassBook(4, ())
    book.let_wins_go([3], [], T["3m"], False)
    assert pass_violation(book, 3, "win", T["6m"], lambda s, t, kd: False, rules=rules("1z")) is None


def test_example_6_xiazui():
    r = rules("5p", xiazui="max_two")
    bets = [1, 0, 2, 1]
    s = settle(r, [(2, 1)], "self_draw", bets=bets)
    by_payer = {}
    for t in s.transfers:
        by_payer[t.payer] = by_payer.get(t.payer, 0) + t.amount
    assert by_payer == {0: 5, 1: 3, 3: 4} and s.scores == [-5, -3, 12, -4]
    # the bets are paid under reason yangzhu, the rest under win
    assert (0, 2, 2, "win") in pays(s) and (0, 2, 3, "yangzhu") in pays(s)
    assert settlement.dealer_after(r, DEALER, ([2], "self_draw", None)) == 1
    assert settlement.check_bet(r, 3, False, False).code == "YANGZHU_BET_INVALID"
    assert settlement.check_bet(r, 1, False, True).code == "YANGZHU_BET_INVALID"
    assert settlement.check_bet(r, 2, False, False) is None
    # if seat 3 discarded and seat 2 won on it, only seat 3 pays: 4
    s = settle(r, [(2, 1)], "discard", 3, bets=bets)
    assert s.scores == [0, 0, 4, -4]


def test_example_7a_qidui_pays_as_pinghu():
    r = rules("8s")
    sc = score(r, "11m 33m 55p 77p 99s 11z 8s 2s", "discard", "2s")
    assert sc.fans == ["qidui"] and sc.fan == 0 and sc.points == 1
    assert settle(r, [(1, sc.points)], "discard", 0).scores == [-2, 2, 0, 0]

    class Logged:
        fans, fan = ["qidui"], 2
    assert fans.fan_finding(r, Logged, sc) == "FAN_MISMATCH"


def test_example_7b_luanpai_self_draw():
    r = rules("5m")
    sc = score(r, "147m 258p 369s 1234z 7z", "self_draw", "7z")
    assert sc.fans == ["shisanlan"] and sc.points == 1
    assert settle(r, [(3, 1)], "self_draw").scores == [-2, -1, -1, 4]
    assert not score(rules("5m", luanpai="shisanyao"), "147m 258p 369s 1234z 7z", "self_draw", "7z").complete


def test_example_8_shape_gate():
    hand = "123m 456m 789p 345s 77s"
    assert not score(rules("1z", shape_gate="bazhi"), hand, "discard", "7s").complete
    assert score(rules("1z"), hand, "discard", "7s").complete


@pytest.mark.parametrize("how, units, want", [("discard", "dianpao_units", 3), ("self_draw", "zimo_units", 2)])
def test_units_and_base(how, units, want):
    r = rules("5p", base=1, **{units: want})
    assert score(r, "234m 567m 789s 99p 456p", how, "9p").points == want
    r2 = rules("5p", base=2, **{units: want})
    assert score(r2, "234m 567m 789s 99p 456p", how, "9p").points == 2 * want
