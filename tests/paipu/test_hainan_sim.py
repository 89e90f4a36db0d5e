"""The simulator plays Hainan 海南麻将 legally (the opening 补花 by seat or by round, flowers
drawn in play, the 番 gate, 截胡, 黄庄 at 15, the dealer keeping the deal), and each Hainan
fault class gives exactly its finding (``bench/faults.py --family hainan`` runs 100 each)."""

from __future__ import annotations

import collections
import random

import pytest

from audits.audit import audit_game
from paipu.sim.hainan.coverage import seen_in
from paipu.sim.hainan.faults import FAULTS
from paipu.sim.mutate import mutate
from paipu.sim.simulate import SimConfig, simulate_games
from schema import events as ev
from schema.reader import GameLog


def audit(events):
    return audit_game(GameLog(events[0].game, "sim", events, list(range(1, len(events) + 1)), closed=True))


def games(n: int, seed: int = 41, **options):
    return list(simulate_games(SimConfig(preset="hainan", games=n, seed=seed, max_hands=6, fee=0,
                                         include_wall=True, options=options)))


@pytest.mark.parametrize("options", [{}, {"opening_buhua": "by_round", "hand_multiplier": "additive"},
                                     {"min_fan": 0, "genpai": "always", "flower_money": "sets"},
                                     {"lianzhuang": "multiply", "haidi_bao": True, "luanpai": "both"}])
def test_simulated_hainan_rooms_audit_clean(options):
    played = games(6, **options)
    seen: collections.Counter = collections.Counter()
    for g in played:
        assert [(f.code, f.message) for f in audit(g).findings] == []
        seen_in(g, seen)
    assert seen["hands_won"] > 10 and seen["buhua_opening"] and seen["buhua_in_play"] and seen["rate_1"]


def test_the_opening_buhua_goes_by_seat_from_the_dealer():
    for g in games(3):
        dealer, order = None, []
        for e in g:
            if type(e) is ev.HandStarted:
                dealer, order = e.dealer, []
            elif type(e) is ev.TileSetAside and dealer is not None:
                order.append((e.seat - dealer) % 4)
            elif type(e) is ev.TileDiscarded and dealer is not None:
                assert order == sorted(order)  # each seat finishes before the next begins
                dealer = None


def test_the_bots_meet_huashang_kaihua_and_the_liabilities():
    seen: collections.Counter = collections.Counter()
    for g in games(40, seed=7):
        seen_in(g, seen)
    assert seen["huashang_kaihua"] and seen["rate_3"] and seen["bao_sandao"] and seen["kong"]


@pytest.fixture(scope="module")
def corpus():
    return list(simulate_games(SimConfig(preset="hainan", games=30, seed=9100, max_hands=6, fee=0,
                                         include_wall=False)))


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_hainan_fault_gives_exactly_its_finding(name, corpus):
    rng = random.Random(name)
    done = 0
    for g in corpus:
        res = mutate(g, FAULTS[name], rng)
        if res is None:
            continue
        events, expected = res
        assert [(f.code, f.seq) for f in audit(events).findings] == expected, name
        done += 1
        if done >= 3:
            break
    assert done, f"{name}: no room had its situation"


def test_at_least_ten_fault_classes():
    assert len(FAULTS) >= 10 and all(f.families == ("hainan",) for f in FAULTS.values())
