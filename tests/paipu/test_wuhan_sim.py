"""The simulator plays Wuhan 红中赖子杠 legally (the hand's 癞子 from its indicator, 红中杠 and
癞子杠, the draw-only 海底 phase, per-payer shares, 包), each Wuhan fault class gives exactly its
finding (``bench/faults.py --family wuhan`` runs 100 each), and the sample logs audit as their
``.expected.json`` says."""

from __future__ import annotations

import collections
import json
import random
from pathlib import Path

import pytest

from audits.audit import audit_game
from paipu.sim.mutate import mutate
from paipu.sim.simulate import SimConfig, simulate_games
from paipu.sim.wuhan.coverage import seen_in
from paipu.sim.wuhan.faults import FAULTS
from schema.reader import GameLog, read_games

ROOT = Path(__file__).resolve().parents[2]


def audit(events):
    return audit_game(GameLog(events[0].game, "sim", events, list(range(1, len(events) + 1)), closed=True))


def games(n: int, seed: int = 40, **options):
    return list(simulate_games(SimConfig(preset="wuhan-hzlzg", games=n, seed=seed, max_hands=6, fee=0,
                                         include_wall=False, options=options)))


@pytest.mark.parametrize("options", [{}, {"fan_mode": "koukou", "pi_tiles": ["7z", "6z"]},
                                     {"multi_win": True, "discard_payers": "discarder", "haidi": "last_tile"}])
def test_simulated_wuhan_rooms_audit_clean(options):
    seen: collections.Counter = collections.Counter()
    for g in games(6, **options):
        assert [(f.code, f.message) for f in audit(g).findings] == []
        seen_in(g, seen)
    assert seen["hands_won"] > 10 and seen["jihu"] and seen["hongzhong_gang"] and seen["laizi_gang"]


@pytest.fixture(scope="module")
def corpus():
    return games(30, seed=9400)


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_wuhan_fault_gives_exactly_its_finding(name, corpus):
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
        if done == 2:
            break
    assert done, f"{name}: no place in these games"


@pytest.mark.parametrize("path", sorted((ROOT / "sample_logs" / "wuhan").rglob("*.jsonl")), ids=lambda p: p.name)
def test_the_wuhan_sample_logs_audit_as_expected(path):
    want = json.loads(path.with_name(path.name[:-len(".jsonl")] + ".expected.json").read_text(encoding="utf-8"))
    (log,), _ = read_games([str(path)])
    a = audit_game(log)
    assert [{"game": f.game, "code": f.code, "seq": f.seq} for f in a.findings] == want["findings"]
    assert (a.ledger[-1] if a.ledger else None) == want["final_scores"][log.game]["ledger"]


class _PickLast(random.Random):
    """Plants at the last candidate (the fault's ``pick``)."""

    def choice(self, seq):
        return seq[-1]


def test_a_missing_indicator_leaves_the_hands_wild_unknown_one_finding():
    """No indicator turned (WILD_INDICATOR_MISSING): the hand's 癞子 is unknown, so the dealer's
    癞子杠 right after is not also SET_ASIDE_INVALID (one error, one finding); with the
    indicator there, an ordinary tile set aside still is (``wh_ordinary_set_aside``)."""
    from schema import events as ev
    for g in games(40, seed=7):
        for i, e in enumerate(g[:-1]):
            nxt = g[i + 1]
            if type(e) is ev.IndicatorTurned and type(nxt) is ev.TileSetAside and nxt.tile == e.wild:
                cut = g[:i + 2] + [g[-1]]  # the hand up to the dealer's 癞子杠: the pick is the last indicator
                events, expected = mutate(cut, FAULTS["wh_indicator_missing"], _PickLast())
                assert [(f.code, f.seq) for f in audit(events).findings] == expected
                assert expected[0][0] == "WILD_INDICATOR_MISSING"
                return
    pytest.fail("no dealer's first action a 癞子杠 in these games")
