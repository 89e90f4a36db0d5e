"""The simulator plays Wenzhou 温州麻将 legally (16 + 1 tiles, the 财神 from its indicator with 白板
standing in, the discard order, dealer levels, 买底 bets only at a dealership's first hand),
and each Wenzhou fault class gives exactly its finding (``bench/faults.py --family wenzhou``
runs 100 each)."""

from __future__ import annotations

import collections
import random

import pytest

from audits.audit import audit_game
from paipu.sim.mutate import mutate
from paipu.sim.simulate import SimConfig, simulate_games
from paipu.sim.wenzhou.coverage import seen_in
from paipu.sim.wenzhou.faults import FAULTS
from schema import events as ev
from schema.reader import GameLog


def audit(events):
    return audit_game(GameLog(events[0].game, "sim", events, list(range(1, len(events) + 1)), closed=True))


def games(n: int, seed: int = 39, **options):
    return list(simulate_games(SimConfig(preset="wenzhou", games=n, seed=seed, max_hands=8, fee=0,
                                         include_wall=True, options=options)))


@pytest.mark.parametrize("options", [{}, {"maidi": True, "caishenqian": True, "kong_payments": "at_end"},
                                     {"lianzhuang": "jinjie2", "discard_payers": "discarder_for_all",
                                      "draw_dealer": "pass_if_kong", "after_fourth": "pass"},
                                     {"extra_shuangfan": "teshu", "lazila": True, "shaozhongfa": True}])
def test_simulated_wenzhou_rooms_audit_clean(options):
    played = games(6, **options)
    seen: collections.Counter = collections.Counter()
    for g in played:
        assert [(f.code, f.message) for f in audit(g).findings] == []
        seen_in(g, seen)
    assert seen["hands_won"] > 20 and seen["ruanhu"] and seen["yinghu"] and seen["level_2"]


def test_the_deal_is_sixteen_and_seventeen_and_bets_only_at_level_one():
    g = games(2, maidi=True)[0]
    deals = [e for e in g if type(e) is ev.TilesDealt]
    starts = [e for e in g if type(e) is ev.HandStarted]
    for start, deal in zip(starts, deals):
        assert sorted(len(h) for h in deal.hands) == [16, 16, 16, 17]
        assert len(deal.hands[start.dealer]) == 17
    bets_at = collections.Counter()
    level = None
    for e in g:
        if type(e) is ev.HandStarted:
            level = e.dealer_level
        elif type(e) is ev.PigBetPlaced:
            bets_at[level] += 1
    assert bets_at and set(bets_at) == {1}


@pytest.fixture(scope="module")
def corpus():
    return games(12, seed=3900) + games(6, seed=3901, caishenqian=True)


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_wenzhou_fault_gives_exactly_its_finding(name, corpus):
    rng = random.Random(name)
    done = 0
    for g in corpus:
        res = mutate(g, FAULTS[name], rng)
        if res is None:
            continue
        events, expected = res
        found = sorted((f.code, f.seq) for f in audit(events).findings)
        assert found == sorted(expected), (name, g[0].game)
        done += 1
        if done >= 3:
            break
    assert done, name
