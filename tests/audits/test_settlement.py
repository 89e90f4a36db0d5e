"""Settlement (qujing.md §6), dealer rotation, draws and billing (§7)."""

from __future__ import annotations

import random

import pytest

from schema.ruleset import RulesetError

from audits import engine
from audits.settlement import (FeeEvent, dianji_nets, fees_at_dissolve, fees_at_first_settlement,
                               fees_at_resize, first_dealer, is_exhausted, kong_allowed_at,
                               next_dealer, remaining_for_draw, settle)
from schema.events import Transfer
from schema.ruleset import resolve

XJ = resolve("qujing-xiaoji")


def tr(payer, payee, amount, reason="win"):
    return Transfer(payer=payer, payee=payee, amount=amount, reason=reason)


def test_self_draw_each_other_pays():
    ts, sc, ko = settle(XJ, [0] * 4, [(2, 4)], "self_draw")
    assert ts == [tr(3, 2, 4), tr(0, 2, 4), tr(1, 2, 4)] and sc == [-4, -4, 12, -4] and not ko


def test_discard_win_only_discarder_pays():
    ts, sc, _ = settle(XJ, [0] * 4, [(2, 2)], "discard", from_seat=0)
    assert ts == [tr(0, 2, 2)] and sc == [-2, 0, 2, 0]


def test_yipao_duoxiang_seat_order_from_discarder_next():
    ts, _, _ = settle(XJ, [0] * 4, [(0, 1), (3, 2), (2, 4)], "discard", from_seat=1)
    assert [t.payee for t in ts] == [2, 3, 0]


def test_qianggang_adder_pays_three_shares():
    ts, sc, _ = settle(XJ, [0] * 4, [(1, 2)], "robbed_kong", from_seat=3)
    assert ts == [tr(3, 1, 6, "qianggang")] and sc == [0, 6, 0, -6]


def test_seed_yangzhu_example():
    # A bets 1, B 2, C and D 0; A self-draws: A collects 3 more from B, 1 from C, 1 from D
    rs = resolve("qujing-xiaoji", {"yangzhu": True})
    ts, sc, _ = settle(rs, [0] * 4, [(0, 1)], "self_draw", bets=[1, 2, 0, 0])
    pig = {t.payer: t.amount for t in ts if t.reason == "yangzhu"}
    assert pig == {1: 3, 2: 1, 3: 1}
    assert ts == [tr(1, 0, 1), tr(1, 0, 3, "yangzhu"), tr(2, 0, 1), tr(2, 0, 1, "yangzhu"),
                  tr(3, 0, 1), tr(3, 0, 1, "yangzhu")]
    assert sc == [8, -4, -2, -2]


def test_yangzhu_near_miss_option_off():
    ts, _, _ = settle(XJ, [0] * 4, [(0, 1)], "self_draw", bets=[1, 2, 0, 0])
    assert all(t.reason == "win" for t in ts)


def test_yangzhu_under_baosanjia_adder_pays_three_shares_bets():
    rs = resolve("qujing-xiaoji", {"yangzhu": True})
    ts, _, _ = settle(rs, [0] * 4, [(0, 1)], "robbed_kong", from_seat=1, bets=[1, 2, 0, 0])
    assert ts == [tr(1, 0, 3, "qianggang"), tr(1, 0, 3 + 1 + 1, "yangzhu")]


def test_seed_dianji_example():
    rs = resolve("qujing-xiaoji", {"dianji": True})
    ts, sc, _ = settle(rs, [0] * 4, chickens=[2, 1, 0, 0])
    assert sc == [5, 1, -3, -3] == dianji_nets(rs, [2, 1, 0, 0])
    assert ts == [tr(1, 0, 1, "dianji"), tr(2, 0, 2, "dianji"), tr(2, 1, 1, "dianji"),
                  tr(3, 0, 2, "dianji"), tr(3, 1, 1, "dianji")]


def test_dianji_near_miss_option_off():
    assert settle(XJ, [0] * 4, chickens=[2, 1, 0, 0])[0] == []


def test_dianji_after_win_transfers():
    rs = resolve("qujing-xiaoji", {"dianji": True})
    ts, _, _ = settle(rs, [0] * 4, [(2, 2)], "discard", from_seat=0, chickens=[0, 1, 0, 0])
    assert [t.reason for t in ts] == ["win", "dianji", "dianji", "dianji"]


def test_dianji_and_yangzhu_exclusive():
    with pytest.raises(RulesetError, match="点鸡"):
        resolve("qujing-xiaoji", {"dianji": True, "yangzhu": True})


def test_kongs_pay_nothing():
    assert settle(XJ, [0] * 4) == ([], [0] * 4, False)


def test_qiaoluo_clamps_and_knocks_out():
    rs = resolve("qujing-xiaoji", {"qiaoluo": True})
    ts, sc, ko = settle(rs, [20, 3, 20, 0], [(0, 8)], "self_draw")
    assert ts == [tr(1, 0, 3), tr(2, 0, 8)] and sc == [31, 0, 12, 0] and ko


def test_qiaoluo_near_miss_nobody_at_zero():
    rs = resolve("qujing-xiaoji", {"qiaoluo": True})
    _, sc, ko = settle(rs, [20, 20, 20, 20], [(0, 8)], "self_draw")
    assert sc == [44, 12, 12, 12] and not ko


def test_zero_sum_without_clamping_random():
    rng = random.Random(11)
    for _ in range(3000):
        players = rng.choice((3, 4))
        opt = rng.choice(({}, {"dianji": True}, {"yangzhu": True}))
        rs = resolve("qujing-xiaoji", {"players": players, "base": rng.randint(1, 3), **opt})
        scores = [rng.randint(-50, 50) for _ in range(players)]
        how = rng.choice(("self_draw", "discard", "robbed_kong", None))
        fs = rng.randrange(players)
        winners = []
        if how == "self_draw":
            winners = [(rng.randrange(players), rng.choice((1, 2, 4, 8)))]
        elif how:
            seats = [s for s in range(players) if s != fs]
            winners = [(s, rng.choice((1, 2, 4, 8))) for s in rng.sample(seats, rng.randint(1, len(seats)))]
        bets = [rng.randint(0, 2) for _ in range(players)]
        chickens = [rng.randint(0, 4) for _ in range(players)]
        ts, after, ko = engine.settle(rs, scores, winners, how, fs, bets, chickens)
        assert sum(after) == sum(scores) and not ko
        assert all(t.amount > 0 for t in ts)


def test_next_dealer_rules():
    assert first_dealer(2) == 2
    assert next_dealer(0, [3], "self_draw") == 3
    assert next_dealer(0, []) == 0  # drawn hand keeps the dealer
    assert next_dealer(0, [1, 3], "discard", from_seat=2) == 2  # 一炮多响: the discarder deals


def test_exhaustive_draw_at_reserve():
    assert remaining_for_draw(XJ, 18, 2) == 20 and is_exhausted(XJ, 20)
    assert not is_exhausted(XJ, 21)
    no_tail = resolve("qujing-xiaoji", {"draw_reserve_counts_tail": False})
    assert remaining_for_draw(no_tail, 18, 2) == 18


def test_kong_allowed_at_reserve():
    assert kong_allowed_at(XJ, 20) and not kong_allowed_at(XJ, 19)


def test_draw_reserve_by_kongs():
    rs = resolve("qujing-xiaoji", {"draw_reserve_by_kongs": [20, 16, 14]})
    assert is_exhausted(rs, 16, kongs=1) and not is_exhausted(rs, 17, kongs=1) and is_exhausted(rs, 14, kongs=5)


def test_billing_creator_at_first_settlement():
    assert fees_at_first_settlement("creator", 1, 40, 4, 4) == [FeeEvent("charged", 1, 40)]


def test_billing_creator_resized_refund():
    assert fees_at_first_settlement("creator", 1, 40, 4, 3) == [FeeEvent("charged", 1, 40),
                                                               FeeEvent("refunded", 1, 10)]
    assert fees_at_resize("creator", 1, 40, already_charged=True) == [FeeEvent("refunded", 1, 10)]
    assert fees_at_resize("creator", 1, 40, already_charged=False) == []


def test_billing_aa_each_pays_share_no_refund():
    assert fees_at_first_settlement("aa", 0, 40, 4, 4) == [FeeEvent("charged", s, 10) for s in range(4)]
    assert fees_at_first_settlement("aa", 0, 40, 4, 3) == [FeeEvent("charged", s, 10) for s in range(3)]
    assert fees_at_resize("aa", 0, 40, already_charged=True) == []


def test_billing_dissolved_before_settlement_pays_nothing():
    assert fees_at_dissolve(0) == []
