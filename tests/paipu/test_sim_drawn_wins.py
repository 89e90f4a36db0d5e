"""The simulators skip the family's self-draw check only where it cannot win: a hand whose
wait entry (kept from before the draw) says no tile completes it, with no wild tile drawn or
held unless the family vouches for that entry (``drawn_within_waits``), is never
complete once it draws (the family's exact check agrees)."""

from __future__ import annotations

import pytest

import paipu.sim.simulate as sim
from paipu.sim.simulate import SimConfig, simulate_encoded
from schema.tiles import TILE_INDEX, tiles_of

NINE_P, ONE_S = TILE_INDEX["9p"], TILE_INDEX["1s"]


@pytest.mark.parametrize("preset, options", [
    ("qujing-xiaoji", {"chow": True, "dianji": True}),
    ("qujing-shuanggui", {}),
    ("guangdong-jipinghu", {"seven_pairs_fan": 4}),
])
def test_a_skipped_self_draw_check_never_hides_a_win(monkeypatch, preset, options):
    skipped = asked = 0
    real = sim._Rulings.drawn_may_complete

    def checked(self, seat, tile):
        nonlocal skipped, asked
        may = real(self, seat, tile)
        if may:
            asked += 1
            return may
        skipped += 1
        t = self.table
        assert not self.family.wins.is_winning(self.rules, t.hands[seat], t.melds[seat]), (seat, tile)
        assert not self.family.wins.is_winning(self.rules, t.hands[seat], ()), (seat, tile)
        return may

    monkeypatch.setattr(sim._Rulings, "drawn_may_complete", checked)
    for _ in simulate_encoded(SimConfig(preset=preset, options=options, games=4, seed=5, rare_hands=0.5)):
        pass
    assert skipped > 0 and asked > 0  # both ways taken


@pytest.mark.parametrize("preset, arrange", [("sichuan", 0.0), ("sichuan-xuezhan", 0.5)])
def test_a_skipped_sichuan_self_draw_check_never_hides_a_win(monkeypatch, preset, arrange):
    from audits.rules.sichuan import fans as F
    from paipu.sim.sichuan import game as sichuan_sim

    seen = {True: 0, False: 0}
    real = sichuan_sim.SichuanGame._drawn_may_complete

    def checked(self, seat):
        may = real(self, seat)
        seen[may] += 1
        if not may:
            t = self.table
            assert not F.is_legal_shape(t.hands[seat], t.melds[seat], t.voids[seat], self.rules), seat
        return may

    monkeypatch.setattr(sichuan_sim.SichuanGame, "_drawn_may_complete", checked)
    for _ in simulate_encoded(SimConfig(preset=preset, games=4, seed=6, arrange=arrange)):
        pass
    assert seen[True] and seen[False]  # both ways taken


def _rulings_after_draw(concealed: str, drawn: str, entry):
    """A seat holding ``concealed`` + ``drawn``, its wait entry ``entry`` kept from before the draw."""
    from types import SimpleNamespace

    from audits.rules import hands as H
    from schema.tiles import parse_hand

    before = [0] * 34
    for t in parse_hand(concealed):
        before[t] += 1
    after = list(before)
    after[TILE_INDEX[drawn]] += 1
    from audits.rules import family_of

    rules = sim._ruleset(SimConfig(preset="qujing-xiaoji"))
    game = SimpleNamespace(family=family_of(rules), rules=rules, wild=frozenset({TILE_INDEX["1s"]}), n=4,
                           table=SimpleNamespace(hands=[after] + [[0] * 34] * 3, melds=[[]] * 4, kongs=[0] * 4,
                                                 keys=[list(H.hand_keys(after))] + [[0] * 4] * 3))
    ask = sim._Rulings(game, None)
    k = H.hand_keys(before)
    ask.waits[0] = ((k[0], k[1], k[2], k[3], 0, 0), entry)
    return ask


def test_a_hand_with_no_wait_is_not_asked_again_after_its_draw():
    assert _rulings_after_draw("1234569m1279p25z", "9p", False).drawn_may_complete(0, NINE_P) is False
    # near miss: the same hand with a wait is asked in full
    assert _rulings_after_draw("1234569m1279p25z", "9p", [None, 0, [], {}]).drawn_may_complete(0, NINE_P) is True


def test_four_chickens_held_or_no_entry_kept_is_asked_in_full():
    # near miss of the test above: four chickens held (四小鸡), or no entry kept
    assert _rulings_after_draw("1111s1479m258p135z", "9p", False).drawn_may_complete(0, NINE_P) is True
    ask = _rulings_after_draw("1234569m1279p25z", "9p", False)
    ask.waits[0] = None
    assert ask.drawn_may_complete(0, NINE_P) is True


def test_chickens_drawn_or_held_are_skipped_where_the_family_vouches_for_the_wait_entry():
    from audits.rules.family import variant

    held = _rulings_after_draw("1234569m1279p1s5z", "9p", False)
    drawn = _rulings_after_draw("1234569m1279p25z", "1s", False)
    assert held.drawn_may_complete(0, NINE_P) is False  # Qujing: fewer than four chickens
    assert drawn.drawn_may_complete(0, ONE_S) is False
    # near miss: a family that does not vouch for it is asked in full
    for ask, tile in ((held, NINE_P), (drawn, ONE_S)):
        ask.family = variant(ask.family, wins={"drawn_within_waits": None})
        assert ask.drawn_may_complete(0, tile) is True


def test_the_tail_tile_choice_agrees_with_the_familys_full_check(monkeypatch):
    asked = []
    real = sim._Rulings.would_win_with

    def checked(self, seat, tile):
        got = real(self, seat, tile)
        counts = list(self.table.hands[seat])
        counts[tile] += 1
        assert got == self.family.wins.is_winning(self.rules, counts, self.table.melds[seat]), (seat, tile)
        asked.append(got)
        return got

    monkeypatch.setattr(sim._Rulings, "would_win_with", checked)
    for preset in ("qujing-xiaoji", "qujing-shuanggui"):
        for _ in simulate_encoded(SimConfig(preset=preset, games=6, seed=7, rare_hands=0.5)):
            pass
    assert True in asked and False in asked  # both answers met


@pytest.mark.parametrize("preset, options", [
    ("qujing-xiaoji", {"chow": True}),
    ("qujing-shuanggui", {"qiaoluo": True}),
    ("guangdong-jipinghu", {}),
])
def test_every_self_draw_answer_agrees_with_the_familys_full_check(monkeypatch, preset, options):
    seen = {True: 0, False: 0}
    real = sim._Rulings.self_draw_win

    def checked(self, seat, tile, after_kong, after_flower=False):
        got = real(self, seat, tile, after_kong, after_flower)
        counts, melds = self.table.hands[seat], self.table.melds[seat]
        want = self.family.wins.is_winning(self.rules, counts, melds) and self.family.scoring.score(
            self.rules, tiles_of(counts), melds,
            self.context(seat, "self_draw", tile, after_kong=after_kong, after_flower=after_flower)).wins
        assert (got is not None) == want, (seat, tile)
        seen[want] += 1
        return got

    monkeypatch.setattr(sim._Rulings, "self_draw_win", checked)
    for _ in simulate_encoded(SimConfig(preset=preset, options=options, games=4, seed=9, rare_hands=0.3)):
        pass
    assert seen[True] and seen[False]
