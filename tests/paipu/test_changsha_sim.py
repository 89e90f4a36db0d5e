"""The simulator plays Changsha 长沙麻将 legally (起手胡 after the deal, 开杠 reveals won and failed,
the locked hand, 海底漫游, birds, both presets), and each Changsha fault class gives exactly its
finding (``bench/faults.py --family changsha`` runs 100 each)."""

from __future__ import annotations

import collections
import random

import pytest

from audits.audit import audit_game
from paipu.sim.changsha.coverage import seen_in
from paipu.sim.changsha.faults import FAULTS
from paipu.sim.mutate import mutate
from paipu.sim.simulate import SimConfig, simulate_games
from schema.reader import GameLog


def audit(events):
    return audit_game(GameLog(events[0].game, "sim", events, list(range(1, len(events) + 1)), closed=True))


def games(n: int, seed: int = 42, preset: str = "changsha", wall: bool = False, **options):
    return list(simulate_games(SimConfig(preset=preset, games=n, seed=seed, max_hands=8, fee=0,
                                         include_wall=wall, options=options)))


@pytest.mark.parametrize("preset,options", [
    ("changsha", {}), ("changsha", {"bird_mode": "double", "kaigang_count": 4, "qianggang_bao": True}),
    ("changsha", {"multi_win": False, "dealer_bonus": "per_unit", "bird_source": "tail"}),
    ("changsha-jiajiang", {"qishou_repeat": True, "bird_mode": "plus_point"}),
])
def test_simulated_changsha_rooms_audit_clean(preset, options):
    seen: collections.Counter = collections.Counter()
    for g in games(10, preset=preset, wall=True, **options):
        assert [(f.code, f.message) for f in audit(g).findings] == []
        seen_in(g, seen)
    assert seen["hands_won"] > 40 and seen["jihu"]


def test_the_bots_meet_the_reveal_the_sea_and_the_opening_wins():
    seen: collections.Counter = collections.Counter()
    for g in games(30, seed=7):
        seen_in(g, seen)
    assert seen["kaigang_won"] and seen["kaigang_failed"] and seen["gangshang_pao"] + seen["gangshang_kaihua"]
    assert sum(seen[n] for n in ("qs_sixi", "qs_banban", "qs_queyise", "qs_liuliushun")) > 0
    assert seen["haidi"] + seen["haidi_pao"] > 0


def _reveal_claims(g) -> collections.Counter:
    """The claims (chow, pong, exposed kong) made on a tile of a 开杠 reveal nobody won on."""
    from schema import events as ev
    got: collections.Counter = collections.Counter()
    open_ = False
    for e in g:
        t = type(e)
        if t is ev.KongRevealed:
            open_ = True
        elif t in (ev.Chowed, ev.Ponged, ev.KongExposed) and open_:
            got[t.__name__] += 1
            open_ = False
        elif t in (ev.TileDrawn, ev.HandWon, ev.HandDrawn):
            open_ = False
    return got


def test_the_bots_claim_a_revealed_tile_under_kaigang_claims_all():
    """§6.2.3 ``kaigang_claims = all``: a revealed tile nobody won on is the konger's discard, so
    the bots chow (the konger's 下家), pong and kong it, and the rooms audit clean (against the
    logged wall too).  Near miss: under ``win_only`` no revealed tile is ever claimed."""
    claimed: collections.Counter = collections.Counter()
    for g in games(60, seed=5, wall=True, kaigang_claims="all"):
        assert [(f.code, f.message) for f in audit(g).findings] == []
        claimed += _reveal_claims(g)
    assert claimed["Chowed"] and claimed["Ponged"], claimed
    never: collections.Counter = collections.Counter()
    for g in games(60, seed=5):
        never += _reveal_claims(g)
    assert not never


@pytest.fixture(scope="module")
def corpus():
    return games(40, seed=11)


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_changsha_fault_gives_exactly_its_finding(name, corpus):
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
