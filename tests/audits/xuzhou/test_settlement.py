"""Xuzhou settlement (xuzhou.md §8), dealer rotation (§4) and 下嘴 bets (§8.3)."""

import pytest

from audits.rules.family import HandFacts
from audits.rules.xuzhou import settlement

from .helpers import rules


def test_rob_is_paid_by_the_adder_as_a_discard():
    r = rules("5p", dianpao_units=2, zimo_units=1)
    s = settlement.settle(r, [0] * 4, [(2, 2)], "robbed_kong", 3, HandFacts(None, None, None, 0))
    assert [(t.payer, t.payee, t.amount, t.reason) for t in s.transfers] == [(3, 2, 2, "win")]
    # near miss: the adder is the dealer: +1
    s = settlement.settle(r, [0] * 4, [(2, 2)], "robbed_kong", 3, HandFacts(None, None, None, 3))
    assert s.transfers[0].amount == 3


def test_derivation_lines():
    r = rules("5p", xiazui="max_one")
    transfers, lines = settlement.derive(r, 4, [(1, 1)], "discard", 0, 0, [1, 1, 0, 0])
    assert [(t.amount, t.reason) for t in transfers] == [(2, "win"), (2, "yangzhu")]
    assert lines == ["seat 0 → seat 1: P 1 + 1 (坐庄 +1 × B); 下嘴 (1 + 1) × 1 = 2 = 4"]
    assert settlement.derive(r, 4, [], None, None, 0)[0] == []


def test_no_dealer_fact_no_bonus():
    s = settlement.settle(rules("5p"), [0] * 4, [(2, 1)], "discard", 3)
    assert s.transfers[0].amount == 1


def test_zero_bets_add_no_transfer():
    r = rules("5p", xiazui="max_two")
    transfers, _ = settlement.derive(r, 4, [(2, 1)], "discard", 3, 0, [0, 0, 0, 0])
    assert [t.reason for t in transfers] == ["win"]


@pytest.mark.parametrize("draw_dealer, want", [("stay", 2), ("next", 3)])
def test_draw_dealer(draw_dealer, want):
    assert settlement.dealer_after(rules("5p", draw_dealer=draw_dealer), 2, None) == want


def test_kong_transfers_are_undue():
    assert settlement.transfer_code(None, "KONG_PAYMENT_MISMATCH") == "KONG_PAYMENT_UNDUE"
    assert settlement.transfer_code("discard", "TRANSFER_MISMATCH") == "TRANSFER_MISMATCH"


def test_bets_only_when_the_room_plays_xiazui():
    assert settlement.check_bet(rules("5p"), 0, False, False).code == "YANGZHU_BET_INVALID"
    r = rules("5p", xiazui="max_one")
    assert settlement.check_bet(r, 1, False, False) is None
    assert settlement.check_bet(r, 2, False, False).code == "YANGZHU_BET_INVALID"
    assert settlement.check_bet(r, 1, True, False).code == "YANGZHU_BET_INVALID"
    assert settlement.hand_facts(rules("5p"), None, [1, 0, 0, 0]).bets is None
    assert settlement.hand_facts(r, None, [1, 0, 0, 0]).bets == [1, 0, 0, 0]


def test_payer_points_per_pair():
    from types import SimpleNamespace as NS
    r = rules("5p")
    winner = NS(seat=2, points=1, payers=[NS(seat=0), NS(seat=1), NS(seat=3)])
    facts = HandFacts(None, None, None, 0)
    assert settlement.payer_points(r, winner, None, facts) == {0: 2, 1: 1, 3: 1}
    # near miss: the winner is the dealer: every pair carries the bonus
    assert settlement.payer_points(r, winner, None, HandFacts(None, None, None, 2)) == {0: 2, 1: 2, 3: 2}
    assert settlement.payer_points(r, NS(seat=2, points=1, payers=None), None, facts) == {}


def test_derivation_for_explain():
    r = rules("5p")
    lines = settlement.derivation(r, 4, [(0, 1)], "self_draw", None, HandFacts(None, None, None, 0))
    assert lines[0].startswith("dealer seat 0; 坐庄 plus_one")
    assert lines[1:] == ["seat 1 → seat 0: P 1 + 1 (坐庄 +1 × B) = 2", "seat 2 → seat 0: P 1 + 1 (坐庄 +1 × B) = 2",
                         "seat 3 → seat 0: P 1 + 1 (坐庄 +1 × B) = 2"]
    # near miss: the dealer is not involved in a discard win between seats 2 and 3
    assert settlement.derivation(r, 4, [(2, 1)], "discard", 3, HandFacts(None, None, None, 0))[1:] == \
        ["seat 3 → seat 2: P 1 = 1"]
