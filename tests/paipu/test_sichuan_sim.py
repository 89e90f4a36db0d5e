"""The Sichuan simulator plays both presets legally: its rooms audit clean (a modest
count here; ``bench/coverage.py --family sichuan`` runs 10,000 hands per preset)."""

import pytest

from audits.audit import audit_game
from paipu.sim.simulate import SimConfig, simulate_games
from schema.reader import GameLog


def _audit(events):
    return audit_game(GameLog(events[0].game, "sim", events, list(range(1, len(events) + 1)), None, True))


@pytest.mark.parametrize("preset,options", [
    ("sichuan", {}), ("sichuan-xuezhan", {}),
    ("sichuan", {"huan_san_zhang": True, "zimo_bonus": "jiafan", "guoshui": "any_discard"}),
])
def test_simulated_sichuan_rooms_audit_clean(preset, options):
    games = list(simulate_games(SimConfig(preset=preset, options=options, games=3, seed=5, max_hands=6,
                                          arrange=0.2)))
    assert len(games) == 3
    for events in games:
        a = _audit(events)
        assert a.findings == [] and a.hands == 6


def test_the_simulator_is_deterministic():
    cfg = SimConfig(preset="sichuan-xuezhan", games=1, seed=9, max_hands=3)
    assert list(simulate_games(cfg)) == list(simulate_games(cfg))
