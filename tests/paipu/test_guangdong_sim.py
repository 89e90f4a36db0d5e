"""The simulator plays Guangdong 鸡平和 legally, and each Guangdong fault class of the
fault injector gives exactly its finding (``bench/faults.py --family guangdong`` runs 100 each)."""

from __future__ import annotations

import random

import pytest

from audits.audit import audit_game
from paipu.sim.guangdong.coverage import SPECIAL_HANDS, special_room
from paipu.sim.guangdong.faults import GUANGDONG_FAULTS
from paipu.sim.mutate import FAULTS, mutate
from paipu.sim.simulate import SimConfig, simulate_games
from schema.reader import GameLog


def audit(events):
    return audit_game(GameLog(events[0].game, "sim", events, list(range(1, len(events) + 1)), closed=True))


def games(n: int, **options):
    return list(simulate_games(SimConfig(preset="guangdong-jipinghu", games=n, seed=41, max_hands=6, fee=0,
                                         include_wall=False, options=options)))


def test_simulated_guangdong_rooms_audit_clean():
    played = games(12) + games(6, louhe_scope="any_discard", kong_payments="on_win")
    assert sum(1 for g in played for e in g if type(e).__name__ == "HandWon") > 20
    for g in played:
        assert [(f.code, f.message) for f in audit(g).findings] == []


@pytest.mark.parametrize("name", sorted(SPECIAL_HANDS))
def test_each_special_hand_room_audits_clean(name):
    assert audit(special_room(name).b.events).findings == []


@pytest.fixture(scope="module")
def corpus():
    return games(20)


@pytest.mark.parametrize("name", GUANGDONG_FAULTS)
def test_guangdong_fault_gives_exactly_its_finding(name, corpus):
    rng = random.Random(7)
    done = 0
    for g in corpus:
        res = mutate(g, name, rng)
        if res is None:
            continue
        events, expected = res
        found = {(f.code, f.seq) for f in audit(events).findings}
        assert found == set(expected), (name, found, expected)
        assert expected[0][0] == FAULTS[name].code
        done += 1
        if done == 2:
            break
    if done == 0:
        pytest.skip(f"{name}: no place in these games")
