"""A win on a discard is judged only when something asks (a declaration, a claim, a
pass rule, a robbing chance): the audit searches no seat's waits for the discards
nobody claims, and judges what it is asked exactly as before."""

from __future__ import annotations

import os
import tempfile

import pytest

import audits.rules as rules_registry
from audits import audit_paths
from audits.rules.family import variant
from paipu.sim.simulate import SimConfig, simulate_games, write_log
from schema import events as ev


def _room(preset: str, seed: int) -> list[ev.Event]:
    return next(iter(simulate_games(SimConfig(preset=preset, games=1, seed=seed, max_hands=4))))


@pytest.mark.parametrize("preset,family", [("qujing-xiaoji", "qujing"), ("guangdong-jipinghu", "guangdong")])
def test_waits_are_searched_only_for_the_events_that_ask(monkeypatch, preset, family):
    events = _room(preset, seed=11)
    calls = []
    fam = rules_registry.FAMILIES[family]

    def counted(*args):
        calls.append(1)
        return fam.wins.seat_waits(*args)

    monkeypatch.setitem(rules_registry.FAMILIES, family, variant(fam, wins={"seat_waits": counted}))
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "room.jsonl")
        write_log(path, [events])
        (audit,) = list(audit_paths([path]))
    assert audit.complete and not audit.findings
    discards = sum(1 for e in events if type(e) is ev.TileDiscarded)
    # the events that may ask: a win (its 过胡 chances), a declaration, an added kong (抢杠)
    asking = sum(1 for e in events if type(e) in (ev.HandWon, ev.ClaimDeclared, ev.KongAdded))
    assert discards > 100
    assert len(calls) <= 4 * asking  # a per-discard search would make one for most discards
    assert len(calls) < discards / 4
