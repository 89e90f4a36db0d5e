"""The simulator plays Xuzhou 徐州麻将 legally (the hand's 配子 from its indicator, dead 配子
discards, 下嘴 bets, the dealer's rotation by ``draw_dealer``), and each Xuzhou fault class
gives exactly its finding (``bench/faults.py --family xuzhou`` runs 100 each)."""

from __future__ import annotations

import collections
import random

import pytest

from audits.audit import audit_game
from paipu.sim.mutate import mutate
from paipu.sim.simulate import SimConfig, simulate_games
from paipu.sim.xuzhou.coverage import seen_in
from paipu.sim.xuzhou.faults import FAULTS
from schema.reader import GameLog


def audit(events):
    return audit_game(GameLog(events[0].game, "sim", events, list(range(1, len(events) + 1)), closed=True))


def games(n: int, seed: int = 38, **options):
    return list(simulate_games(SimConfig(preset="xuzhou", games=n, seed=seed, max_hands=6, fee=0,
                                         include_wall=False, options=options)))


@pytest.mark.parametrize("options", [{}, {"xiazui": "max_two", "dealer_bonus": "double"},
                                     {"multi_win": False, "wild_discard": "forbidden"},
                                     {"wild_from": "same", "draw_dealer": "next", "shape_gate": "bazhi"}])
def test_simulated_xuzhou_rooms_audit_clean(options):
    played = games(8, **options)
    seen: collections.Counter = collections.Counter()
    for g in played:
        assert [(f.code, f.message) for f in audit(g).findings] == []
        seen_in(g, seen)
    assert seen["hands_won"] > 20 and seen["jihu"] and seen["dealer_bonus_paid"] and seen["payment_without_dealer"]


def test_the_bots_meet_the_dead_pei_and_the_paopei():
    seen: collections.Counter = collections.Counter()
    for g in games(12, seed=5):
        seen_in(g, seen)
    assert seen["dead_pei_discard"] > 0 and seen["paopei"] > 0


@pytest.fixture(scope="module")
def corpus():
    return games(30, seed=9000)


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_xuzhou_fault_gives_exactly_its_finding(name, corpus):
    rng = random.Random(name)
    done = 0
    for g in corpus:
        res = mutate(g, FAULTS[name], rng)
        if res is None:
            continue
        events, expected = res
        found = {(f.code, f.seq) for f in audit(events).findings}
        assert found == set(expected), (name, found, expected)
        assert expected[0][0] == FAULTS[name].code
        done += 1
        if done == 3:
            break
    assert done, f"{name}: no place in these games"
