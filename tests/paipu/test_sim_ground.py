"""The simulator and the fault injector on the new families' shared ground (new-families.md
§4 step 8): the toy families of tests/audits/test_toy_families_ground.py are played by the
shared table driver — a turned indicator and its wild, flowers set aside and replaced,
16-tile deals, birds after a win — audit clean, and the ground's fault classes
(paipu/sim/ground_faults.py) planted in them are found."""

from __future__ import annotations

import random

import pytest

from audits import audit_game
from audits.rules import FAMILIES, register
from paipu.sim.fault_kit import Fault
from paipu.sim.ground_faults import INDICATOR_FAULTS, SET_ASIDE_FAULTS, ground_faults
from paipu.sim.mutate import mutate
from paipu.sim.simulate import SimConfig, simulate_games
from schema import events as ev
from schema import ruleset as rs
from schema.reader import GameLog
from tests.audits.test_toy_families_ground import BIRD, FLOWER, SIXTEEN, WILD


def audited(events):
    return audit_game(GameLog(game=events[0].game, file="sim.jsonl", events=events,
                              lines=list(range(1, len(events) + 1))))


def play(preset: str, games: int = 6, seed: int = 5) -> list[list[ev.Event]]:
    return list(simulate_games(SimConfig(preset=preset, games=games, seed=seed, max_hands=4, fee=0)))


@pytest.fixture
def rooms(monkeypatch):
    """The toy families and a room of each."""
    monkeypatch.setitem(rs.TILE_SETS, "toy-flower", 144)
    monkeypatch.setattr(rs, "SIXTEEN_TILE_HANDS", rs.SIXTEEN_TILE_HANDS | {"toy-16"})
    presets = {
        "toy-wild": rs.Ruleset(family="toy-wild", wilds=(), wild_from="next", wild_discard="dead"),
        "toy-wild-tail": rs.Ruleset(family="toy-wild", wilds=(), wild_from="same", indicator_from="tail",
                                    wild_discard="forbidden"),
        "toy-flower": rs.Ruleset(family="toy-flower", wilds=()),
        "toy-16": rs.Ruleset(family="toy-16", wilds=()),
        "toy-bird": rs.Ruleset(family="toy-bird", wilds=()),
    }
    for name, rules in presets.items():
        monkeypatch.setitem(rs.PRESETS, name, rules)
    for fam in (WILD, FLOWER, SIXTEEN, BIRD):
        register(fam)
    yield presets
    for fam in (WILD, FLOWER, SIXTEEN, BIRD):
        FAMILIES.pop(fam.name, None)


def kinds(games) -> dict[type, int]:
    out: dict[type, int] = {}
    for events in games:
        for e in events:
            out[type(e)] = out.get(type(e), 0) + 1
    return out


@pytest.mark.parametrize("preset", ["toy-wild", "toy-wild-tail", "toy-flower", "toy-16", "toy-bird"])
def test_simulated_toy_rooms_audit_clean(rooms, preset):
    games = play(preset)
    for events in games:
        a = audited(events)
        assert a.complete and [(f.code, f.message) for f in a.findings] == []
    seen = kinds(games)
    assert seen.get(ev.HandWon, 0) > 0


def test_each_piece_is_in_the_simulated_games(rooms):
    wild = play("toy-wild")
    assert kinds(wild)[ev.IndicatorTurned] == kinds(wild)[ev.HandStarted]
    tail = play("toy-wild-tail")
    assert {e.source for g in tail for e in g if type(e) is ev.IndicatorTurned} == {"tail"}
    # wild_from = same: the logged wild is the indicator itself; next: the kind after it
    assert all(e.wild == e.tile for g in tail for e in g if type(e) is ev.IndicatorTurned)
    assert any(e.wild != e.tile for g in wild for e in g if type(e) is ev.IndicatorTurned)
    flower = play("toy-flower")
    set_aside = [e for g in flower for e in g if type(e) is ev.TileSetAside]
    assert set_aside and all(e.tile.endswith("f") for e in set_aside)
    sixteen = play("toy-16", games=2)
    deals = [e for g in sixteen for e in g if type(e) is ev.TilesDealt]
    assert deals and all(sorted(map(len, d.hands)) == [16, 16, 16, 17] for d in deals)
    birds = play("toy-bird", games=3)
    assert kinds(birds)[ev.BirdsDrawn] == kinds(birds)[ev.HandWon]
    assert any(t.reason == "bird" for g in birds for e in g if type(e) is ev.HandSettled for t in e.transfers)


def wild_discards(games):
    """(the discard of the hand's wild, the event after it) in each game."""
    out = []
    for events in games:
        wild = None
        for e, after in zip(events, events[1:]):
            if type(e) is ev.IndicatorTurned:
                wild = e.wild
            elif type(e) is ev.TileDiscarded and e.tile == wild:
                out.append((e, after))
    return out


def test_no_bot_discards_a_forbidden_wild_and_nobody_claims_a_dead_one(rooms):
    assert wild_discards(play("toy-wild-tail", games=10)) == []  # wild_discard = forbidden
    dead = wild_discards(play("toy-wild", games=10))             # wild_discard = dead
    assert dead and all(type(after) in (ev.TileDrawn, ev.HandDrawn) for _, after in dead)


def plant(fault: Fault, games) -> int:
    """Plant ``fault`` in each game that has a place for it; the audit must report its code at the
    planted event.  Returns how many were planted."""
    planted = 0
    for k, events in enumerate(games):
        got = mutate(events, fault, random.Random(k))
        if got is None:
            continue
        new, expected = got
        found = {(f.code, f.seq) for f in audited(new).findings}
        for code, seq in expected:
            assert (code, seq) in found, (fault.name, code, seq, sorted(found))
        planted += 1
    return planted


@pytest.mark.parametrize("name", INDICATOR_FAULTS)
def test_indicator_faults_are_found(rooms, name):
    faults = ground_faults("toy-wild", names=INDICATOR_FAULTS)
    assert plant(faults[name], play("toy-wild", games=4)) == 4
    # near miss: a room of another family is no place for the class
    assert plant(faults[name], play("toy-flower", games=1)) == 0


@pytest.mark.parametrize("name", SET_ASIDE_FAULTS)
def test_set_aside_faults_are_found(rooms, name):
    faults = ground_faults("toy-flower", names=SET_ASIDE_FAULTS)
    assert plant(faults[name], play("toy-flower", games=4)) >= 3


def test_fault_classes_read_the_hand_ruleset(rooms):
    from paipu.sim.fault_kit import _Ctx, hand_ruleset
    events = play("toy-wild", games=1)[0]
    ctx = _Ctx(events, random.Random(0))
    seen = []
    for i, e, r in ctx.walk():
        if type(e) is ev.TilesDealt:
            seen.append(("dealt", hand_ruleset(r).wilds))     # before the indicator: the room's
        if i and type(events[i - 1]) is ev.IndicatorTurned:
            seen.append(("turned", hand_ruleset(r).wilds, (events[i - 1].wild,)))
    assert seen and all(x[1] == () for x in seen if x[0] == "dealt")
    assert all(x[1] == x[2] for x in seen if x[0] == "turned") and any(x[0] == "turned" for x in seen)


def test_a_flower_replacement_is_no_kong_discard_for_the_fault_kit(rooms):
    from paipu.sim.fault_kit import _Ctx
    events = play("toy-flower", games=2)[0]
    ctx = _Ctx(events, random.Random(0))
    after_flower = [i for i in range(2, len(events)) if type(events[i]) is ev.TileDiscarded
                    and type(events[i - 2]) is ev.TileSetAside and type(events[i - 1]) is ev.TileDrawn
                    and events[i - 1].seat == events[i].seat]
    assert after_flower and not any(ctx.kong_discard(i) for i in after_flower)


@pytest.mark.parametrize("guohu", ["same_tile", "any_discard"])
def test_a_toy_on_the_shared_pass_rule_simulates_and_audits_clean(monkeypatch, guohu):
    # the toy plays audits/rules/passes.py (one pass rule over ``guohu``): the simulator's bots
    # keep to it and the walker judges by it, so rooms with declined wins audit clean (the rule's
    # holding cases and near misses: tests/audits/test_ground_helpers.py)
    from audits.rules import passes
    from audits.rules.family import variant
    from tests.audits.test_toy_family import TOY
    fam = variant(TOY, name="toy-pass", claims={"pass_violation": passes.pass_violation, "tile_passes": ()})
    monkeypatch.setitem(rs.PRESETS, "toy-pass", rs.Ruleset(family="toy-pass", wilds=(), guohu=guohu))
    register(fam)
    try:
        games = list(simulate_games(SimConfig(preset="toy-pass", games=8, seed=2, max_hands=4, fee=0,
                                              decline_win=0.6)))
        assert any(type(e) is ev.ClaimPassed and "win" in e.claims for g in games for e in g)
        for events in games:
            assert [f.code for f in audited(events).findings] == []
    finally:
        FAMILIES.pop("toy-pass", None)
