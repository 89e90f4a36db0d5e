"""§4.1 / §6.5 meld rules, asked once (``play.meld_violations``): the audit's findings and
the simulator's choices come from the same function."""

from __future__ import annotations

from types import SimpleNamespace

from audits.rules.sichuan import play
from replay.table import KEY_STEP, SUIT_OF
from schema.tiles import tile_index

from .helpers import counts, rules


def _table(hand: str, void: int, undrawn: int = 20) -> SimpleNamespace:
    """Seat 0 holds ``hand`` (its suit keys kept as the reducer keeps them) with void ``void``."""
    c = counts(hand)
    keys = [0, 0, 0, 0]
    for k, n in enumerate(c):
        keys[SUIT_OF[k]] += n * KEY_STEP[k]
    return SimpleNamespace(voids=[void, -1, -1, -1], keys=[keys], hands=[c], undrawn=undrawn)


def _codes(table, tile: str, meld: str, **over) -> list[str]:
    return [v.code for v in play.meld_violations(rules(**over), table, 0, tile_index(tile), meld)]


def test_meld_of_the_void_suit_is_barred():
    t = _table("55s234p", void=0)  # void m, holds no m
    assert _codes(t, "5s", "pong") == []
    assert _codes(t, "5s", "kong_exposed") == []
    t = _table("55m234p", void=0)
    assert _codes(t, "5m", "pong") == ["CLAIM_VOID_SUIT"]


def test_meld_while_holding_the_void_suit_depends_on_the_option():
    t = _table("55s234p1m", void=0)  # void m, still holds 1m
    assert _codes(t, "5s", "pong", claims_while_void=False) == ["CLAIM_VOID_SUIT"]
    assert _codes(t, "5s", "kong", claims_while_void=False) == ["CLAIM_VOID_SUIT"]
    assert _codes(t, "5s", "pong", claims_while_void=True) == []


def test_no_void_rules_without_declared_voids():
    t = _table("55m234p", void=0)
    assert _codes(t, "5m", "pong", dingque="none") == []


def test_final_discard_and_kong_replacement():
    t = _table("555s234p", void=0, undrawn=0)
    assert _codes(t, "5s", "pong", last_discard_claims="win_only") == ["CLAIM_ON_LAST_DISCARD"]
    assert _codes(t, "5s", "kong_exposed", last_discard_claims="win_only") == ["CLAIM_ON_LAST_DISCARD"]
    assert _codes(t, "5s", "pong", last_discard_claims="all") == []
    assert _codes(t, "5s", "kong_exposed", last_discard_claims="all") == ["KONG_WITHOUT_REPLACEMENT"]
    assert _codes(t, "5s", "kong") == ["KONG_WITHOUT_REPLACEMENT"]
    t = _table("555s234p", void=0, undrawn=1)  # one tile left: every meld may be made
    assert _codes(t, "5s", "pong", last_discard_claims="win_only") == []
    assert _codes(t, "5s", "kong") == []


def test_the_simulator_asks_the_rule(monkeypatch):
    """The simulator melds only where the rule allows: with the rule made to bar every
    meld, a seeded room plays no pong or kong at all."""
    from paipu.sim.simulate import SimConfig, simulate_games
    from schema import events as ev

    def melds(cfg):
        return sum(1 for g in simulate_games(cfg) for e in g
                   if type(e) in (ev.Ponged, ev.KongExposed, ev.KongAdded, ev.KongConcealed))

    cfg = SimConfig(preset="sichuan-xuezhan", options={}, games=3, seed=7, max_hands=4)
    assert melds(cfg) > 0
    monkeypatch.setattr(play, "meld_violations", lambda *a: ["barred"])
    assert melds(cfg) == 0
