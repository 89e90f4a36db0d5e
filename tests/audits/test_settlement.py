"""Settlement (qujing.md §6), dealer rotation, draws and billing (§7)."""

from __future__ import annotations

import random

import pytest

from schema.ruleset import RulesetError

from audits.ledger import net_of
from audits.rules.family import FeeEvent, HandFacts
from audits.rules.qujing.settlement import (check_bet, check_room, dianji_transfers, fees_at_first_settlement,
                                            fees_at_resize, first_dealer, game_over,
                                            hand_facts, next_dealer, remaining, reserve, settle)
from schema.events import Transfer
from schema.ruleset import resolve
from schema.tiles import counts_of, parse_hand

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
    ts, sc, _ = settle(rs, [0] * 4, [(0, 1)], "self_draw", facts=HandFacts([1, 2, 0, 0], None))
    pig = {t.payer: t.amount for t in ts if t.reason == "yangzhu"}
    assert pig == {1: 3, 2: 1, 3: 1}
    assert ts == [tr(1, 0, 1), tr(1, 0, 3, "yangzhu"), tr(2, 0, 1), tr(2, 0, 1, "yangzhu"),
                  tr(3, 0, 1), tr(3, 0, 1, "yangzhu")]
    assert sc == [8, -4, -2, -2]


def test_yangzhu_near_miss_option_off():
    ts, _, _ = settle(XJ, [0] * 4, [(0, 1)], "self_draw", facts=HandFacts([1, 2, 0, 0], None))
    assert all(t.reason == "win" for t in ts)


def test_yangzhu_under_baosanjia_adder_pays_three_shares_bets():
    rs = resolve("qujing-xiaoji", {"yangzhu": True})
    ts, _, _ = settle(rs, [0] * 4, [(0, 1)], "robbed_kong", from_seat=1, facts=HandFacts([1, 2, 0, 0], None))
    assert ts == [tr(1, 0, 3, "qianggang"), tr(1, 0, 3 + 1 + 1, "yangzhu")]


def test_seed_dianji_example():
    rs = resolve("qujing-xiaoji", {"dianji": True})
    ts, sc, _ = settle(rs, [0] * 4, facts=HandFacts(None, [2, 1, 0, 0]))
    assert sc == [5, 1, -3, -3] == net_of(dianji_transfers(rs, [2, 1, 0, 0]), 4)
    assert ts == [tr(1, 0, 1, "dianji"), tr(2, 0, 2, "dianji"), tr(2, 1, 1, "dianji"),
                  tr(3, 0, 2, "dianji"), tr(3, 1, 1, "dianji")]


def test_dianji_near_miss_option_off():
    assert settle(XJ, [0] * 4, facts=HandFacts(None, [2, 1, 0, 0]))[0] == []


def test_dianji_after_win_transfers():
    rs = resolve("qujing-xiaoji", {"dianji": True})
    ts, _, _ = settle(rs, [0] * 4, [(2, 2)], "discard", from_seat=0, facts=HandFacts(None, [0, 1, 0, 0]))
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
        ts, after, ko = settle(rs, scores, winners, how, fs, HandFacts(bets, chickens))
        assert sum(after) == sum(scores) and not ko
        assert all(t.amount > 0 for t in ts)


def test_next_dealer_rules():
    assert first_dealer(2) == 2
    assert next_dealer(0, [3], "self_draw") == 3
    assert next_dealer(0, []) == 0  # drawn hand keeps the dealer
    assert next_dealer(0, [1, 3], "discard", from_seat=2) == 2  # 一炮多响: the discarder deals


def test_qiaoluo_clamp_off_gives_the_amounts_due():
    rs = resolve("qujing-xiaoji", {"qiaoluo": True})
    ts, sc, ko = settle(rs, [20, 3, 20, 0], [(0, 8)], "self_draw", clamp=False)
    assert ts == [tr(1, 0, 8), tr(2, 0, 8), tr(3, 0, 8)] and sc == [44, -5, 12, -8] and not ko


def test_game_over_at_zero_under_qiaoluo_only():
    rs = resolve("qujing-xiaoji", {"qiaoluo": True})
    assert game_over(rs, [31, 0, 12, 0]) and not game_over(rs, [1, 1, 1, 1])
    assert not game_over(XJ, [0, -3, 5, -2])


def test_hand_facts_tally_every_chicken_received_from_the_wall():
    rs = resolve("qujing-xiaoji", {"dianji": True})
    received = [counts_of(parse_hand(h)) for h in ("11s234m", "1s5p", "9m", "")]
    facts = hand_facts(rs, received, [0, 0, 0, 0])
    assert facts.tallies == [2, 1, 0, 0] and facts.bets is None


def test_hand_facts_near_miss_options_off_or_yangzhu():
    received = [counts_of(parse_hand("11s"))] + [[0] * 34] * 3
    assert hand_facts(XJ, received, [0, 0, 0, 0]) == HandFacts(None, None)
    pig = resolve("qujing-xiaoji", {"yangzhu": True})
    assert hand_facts(pig, received, [1, 2, 0, 0]) == HandFacts([1, 2, 0, 0], None)


def test_pig_bet_rules_hold_and_near_miss():
    pig = resolve("qujing-xiaoji", {"yangzhu": True})
    assert all(check_bet(pig, b, False, False) is None for b in (0, 1, 2))
    for bet, before, dealt in ((3, False, False), (-1, False, False), (1, True, False), (1, False, True)):
        assert check_bet(pig, bet, before, dealt).code == "YANGZHU_BET_INVALID", (bet, before, dealt)
    assert check_bet(XJ, 1, False, False).code == "YANGZHU_BET_INVALID"  # a room without 养猪


def test_room_seats_and_qiaoluo_start_points():
    assert check_room(XJ, ["A", "B", "C", "D"], 0) == []
    assert [v.code for v in check_room(XJ, ["A", "B", "C"], 0)] == ["ROOM_SEATS_MISMATCH"]
    three = resolve("qujing-xiaoji", {"players": 3})
    assert check_room(three, ["A", "B", "C"], 0) == []
    ql = resolve("qujing-xiaoji", {"qiaoluo": True})
    assert check_room(ql, ["A", "B", "C", "D"], 20) == []
    assert [v.code for v in check_room(ql, ["A", "B", "C", "D"], 19)] == ["QIAOLUO_START_POINTS"]


def test_exhaustive_draw_at_reserve():
    # 18 wall tiles + the 2 face-up tail tiles = 20 remaining: the hand is drawn (黄庄)
    assert remaining(XJ, 20, 2) == 20 and remaining(XJ, 20, 2) <= reserve(XJ, 0)
    assert not remaining(XJ, 21, 2) <= reserve(XJ, 0)
    no_tail = resolve("qujing-xiaoji", {"draw_reserve_counts_tail": False})
    assert remaining(no_tail, 20, 2) == 18


def test_kong_allowed_at_reserve():
    # a kong is allowed while remaining >= reserve: still at exactly 20, not at 19
    assert reserve(XJ, 0) == 20
    assert remaining(XJ, 20, 2) >= reserve(XJ, 0) and not remaining(XJ, 19, 2) >= reserve(XJ, 0)


def test_draw_reserve_by_kongs():
    rs = resolve("qujing-xiaoji", {"draw_reserve_by_kongs": [20, 16, 14]})
    assert reserve(rs, 0) == 20 and reserve(rs, 1) == 16 and reserve(rs, 5) == 14
    assert 16 <= reserve(rs, 1) and not 17 <= reserve(rs, 1)


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
