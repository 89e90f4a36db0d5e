"""Changsha money (changsha.md §10, §13): each worked example's transfers, exactly, and the
option values that change money."""

from __future__ import annotations

import pytest

from audits.rules.changsha import birds, fans, settlement as st
from audits.rules.changsha.settlement import ChangshaFacts
from audits.rules.family import HandFacts
from schema.ruleset import resolve
from schema.tiles import TILE_INDEX


def T(*names):
    return tuple(TILE_INDEX[x] for x in names)


def pairs(ruleset, winners, how, frm, birds_=(), openings=(0, 0, 0, 0), dealer=0, origin=None):
    cf = ChangshaFacts(openings=openings, birds=T(*birds_), bird_origin=origin)
    out = st.settle(ruleset, [0, 0, 0, 0], winners, how, frm, HandFacts(None, None, cf, dealer)).transfers
    tot = {}
    for t in out:
        tot[(t.payer, t.payee)] = tot.get((t.payer, t.payee), 0) + t.amount
    return tot


CS = resolve("changsha")


def test_ex1_small_discard_win():
    # seat 2 wins on seat 1's 2s, H = 1; birds 7m 4p from 2: n(0) = n(1) = 1
    assert pairs(CS, [(2, 1)], "discard", 1, ("7m", "4p")) == {(1, 2): 2}


@pytest.mark.parametrize("opts,want", [
    ({}, {(1, 0): 5, (2, 0): 7, (3, 0): 5}),
    ({"bird_mode": "double"}, {(1, 0): 5, (2, 0): 9, (3, 0): 5}),
    ({"bird_mode": "plus_point"}, {(1, 0): 4, (2, 0): 5, (3, 0): 4}),
    ({"dealer_bonus": "none"}, {(1, 0): 4, (2, 0): 6, (3, 0): 4}),
])
def test_ex2_dealer_small_self_draw_bird_modes(opts, want):
    assert pairs(resolve("changsha", opts), [(0, 2)], "self_draw", None, ("5p", "3s")) == want


def test_ex3_opening_wins_drawn_hand():
    got = pairs(CS, [], None, None, openings=(0, 1, 0, 1))
    assert got == {(0, 3): 3, (1, 3): 2, (2, 3): 2, (0, 1): 3, (2, 1): 2, (3, 1): 2}


def test_ex3_near_miss_birds_ignored_without_a_win():
    # birds never act on a drawn hand, even if some were recorded
    got = pairs(CS, [], None, None, birds_=("1m", "1m"), openings=(0, 1, 0, 1), origin=1)
    assert got[(2, 1)] == 2


def test_ex4_duidui_qingyise_self_draw():
    assert pairs(CS, [(1, 12)], "self_draw", None, ("1s", "8m")) == {(0, 1): 37, (2, 1): 24, (3, 1): 24}
    per_unit = resolve("changsha", {"dealer_bonus": "per_unit"})
    assert pairs(per_unit, [(1, 12)], "self_draw", None, ("1s", "8m"))[(0, 1)] == 42
    assert fans.hand_base(resolve("changsha", {"dahu_stack": "double"}), 2, "self_draw") == 12


def test_ex5_gangshang_kaihua():
    assert pairs(CS, [(2, 6)], "self_draw", None, ("2p", "9s")) == {(0, 2): 13, (1, 2): 12, (3, 2): 18}
    assert pairs(CS, [(2, 12)], "self_draw", None, ("2p", "9s")) == {(0, 2): 25, (1, 2): 24, (3, 2): 36}


def test_ex6_gangshang_pao():
    assert pairs(CS, [(3, 6)], "discard", 1, ("4m", "6p")) == {(1, 3): 6}


def test_ex7_qianggang_and_bao():
    assert pairs(CS, [(0, 6)], "robbed_kong", 2, ("9m", "3p")) == {(2, 0): 19}
    bao = resolve("changsha", {"qianggang_bao": True})
    assert pairs(bao, [(0, 6)], "robbed_kong", 2, ("9m", "3p")) == {(2, 0): 45}


def test_ex8_haidi_pao_two_winners():
    got = pairs(CS, [(1, 6), (2, 18)], "discard", 0, ("5p",))
    assert got == {(0, 1): 13, (0, 2): 37}
    none = resolve("changsha", {"empty_wall_bird": "none"})
    assert pairs(none, [(1, 6), (2, 18)], "discard", 0, ()) == {(0, 1): 7, (0, 2): 19}


def test_ex8_origin_is_the_giver_on_a_multi_win():
    assert birds.origin_of(CS, 0, [1, 2], 0) == 0
    assert birds.origin_of(CS, 0, [1], 0) == 1


def test_ex9_jiangjiang():
    assert pairs(CS, [(3, 6)], "discard", 1, ("1m", "7p")) == {(1, 3): 18}


def test_ex10_the_classic_sheet():
    got = pairs(CS, [(0, 12)], "discard", 2, ("4s", "7m"), openings=(1, 0, 0, 0))
    assert got == {(2, 0): 29, (3, 0): 5, (1, 0): 3}
    nob = resolve("changsha", {"qishou_birds": False})
    got = pairs(nob, [(0, 12)], "discard", 2, ("4s", "7m"), openings=(1, 0, 0, 0))
    assert got == {(2, 0): 27, (3, 0): 3, (1, 0): 3}


def test_bird_hits_by_rank():
    # 159 the origin, 26 下家, 37 对家, 48 上家
    assert [birds.hit_seat(TILE_INDEX[f"{r}m"], 1) for r in range(1, 10)] == [1, 2, 3, 0, 1, 2, 3, 0, 1]


def test_bird_count_due():
    assert birds.count_due(CS, 10) == (2, "wall")
    assert birds.count_due(CS, 1) == (1, "wall")
    assert birds.count_due(CS, 0) == (1, "last")
    assert birds.count_due(resolve("changsha", {"empty_wall_bird": "none"}), 0) == (0, "last")
    assert birds.count_due(resolve("changsha", {"bird_source": "tail", "bird_count": 4}), 9) == (4, "tail")


def test_reasons_split_by_part():
    cf = ChangshaFacts(openings=(1, 0, 0, 0), birds=T("4s", "7m"))
    out = st.settle(CS, [0] * 4, [(0, 12)], "discard", 2, HandFacts(None, None, cf, 0)).transfers
    by = {(t.payer, t.reason): t.amount for t in out}
    assert by[(2, "qishou")] == 2 and by[(2, "win")] == 12 and by[(2, "bird")] == 14 and by[(2, "dealer")] == 1
