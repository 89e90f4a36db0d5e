"""``paipu hand --preset wuhan-hzlzg``: the win context a Wuhan score needs (the indicator, the
seat, the dealer, every seat's fan sources, 海底, the third call's feeder, readiness) and the
money by seat, checked against wuhan.md §12."""

from __future__ import annotations

import pytest

from paipu.hand_cmd import InputError, evaluate


def req(**kw):
    base = {"preset": "wuhan-hzlzg"}
    base.update(kw)
    return evaluate(base)


def test_example3_by_paipu_hand():
    got = req(hand="567s78s22p", tile="9s", melds=["chow:234m", "kong:9p"], indicator="4p", seat=0, dealer=0,
              context={"seat_fans": [[2, 1], [1], [0], [1, 0, 1]]})
    assert got["wins"] and got["fan"] == 5 and got["fans"] == ["jihu", "yinghu"]
    assert {t["payer"]: t["amount"] for t in got["transfers"]} == {1: 64, 2: 32, 3: 256}


def test_example5_sanpu_by_paipu_hand():
    got = req(hand="23p77p", tile="4p", how="discard", from_seat=3, melds=["pong:1p", "chow:456p", "pong:9p"],
              indicator="4s", seat=2, dealer=1,
              context={"seat_fans": [[0, 0, 1], [1, 0, 0, 2], [3], [1]], "third_feeder": 0})
    assert got["transfers"] == [{"payer": 0, "payee": 2, "amount": 580, "reason": "bao_sanpu"}]


def test_near_miss_without_the_third_feeder_each_pays():
    got = req(hand="23p77p", tile="4p", how="discard", from_seat=3, melds=["pong:1p", "chow:456p", "pong:9p"],
              indicator="4s", seat=2, dealer=1, context={"seat_fans": [[0, 0, 1], [1, 0, 0, 2], [3], [1]]})
    assert {t["payer"]: t["amount"] for t in got["transfers"]} == {3: 120, 0: 160, 1: 300}


def test_two_laizi_pihu_is_refused_with_its_reason():
    got = req(hand="123m456m34s8m5p", tile="5p", melds=["pong:7s"], indicator="4p")
    assert not got["wins"] and "癞子" in got["reason"] and got["payments"] == []


def test_haidi_from_the_context():
    got = req(hand="22s34m678p", tile="2m", melds=["pong:9s", "chow:456m"], indicator="4p", seat=3, dealer=0,
              context={"haidi": True, "seat_fans": [[1], [0], [1, 1], [2]]})
    assert got["fans"] == ["haidi", "yinghu"] and sum(t["amount"] for t in got["transfers"]) == 280


def test_an_unknown_context_key_is_an_input_error():
    with pytest.raises(InputError, match="context"):
        req(hand="22s34m678p", tile="2m", melds=["pong:9s", "chow:456m"], context={"birds": 2})


def test_another_family_takes_no_context():
    with pytest.raises(InputError, match="no table facts"):
        evaluate({"preset": "xuzhou", "hand": "123m456m789m123p5p", "tile": "5p", "context": {"haidi": True}})


#: wuhan.md §5.1 / §9.4 with 起胡 on the least payer (``qihu_basis = min``): the 屁胡 of seat 2 on
#: seat 1's discard, which seat 3 also wins (sample ``multi_win_min_basis``)
_MIN_BASIS = dict(hand="12345688m34s", tile="5s", how="discard", melds=["pong:777s"], kong_discard=True, winners=2,
                  seat=2, from_seat=1, dealer=0, indicator="4p",
                  context={"seat_fans": [[1, 0, 0, 1, 0], [1, 0, 0, 1, 0], [1, 0, 0, 0, 0], [1, 0, 0, 0, 0]]},
                  options={"multi_win": True, "qihu": 32, "qihu_basis": "min"})


def test_co_winners_do_not_pay_so_their_multiple_is_no_basis_of_qihu():
    got = req(**_MIN_BASIS, co_winners=[3])
    assert got["wins"] and got["fans"] == ["jihu", "yinghu"] and got["fan"] == 2
    assert req(**{**_MIN_BASIS, "co_winners": "3"})["wins"]  # the --co-winners text spelling


def test_near_miss_without_the_co_winner_its_seat_is_the_least_payer():
    got = req(**_MIN_BASIS)
    assert not got["wins"] and "起胡 32" in got["reason"]


@pytest.mark.parametrize("co, why", [([2], "not the winner's own"), ([5], "4-player table"),
                                     ("1,x", "seat numbers")])
def test_bad_co_winners_are_input_errors(co, why):
    with pytest.raises(InputError, match=why):
        req(**_MIN_BASIS, co_winners=co)


def test_co_winners_are_winners_of_a_discard_or_a_robbed_kong():
    with pytest.raises(InputError, match="co-winners"):
        req(hand="22s34m678p", tile="2m", melds=["pong:9s", "chow:456m"], indicator="4p", co_winners=[1])
