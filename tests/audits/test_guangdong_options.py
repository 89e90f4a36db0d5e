"""Guangdong 鸡平和 options whose reading is easy to get wrong: ``bao_special_trigger =
discarded`` (§8.4b), ``multi_win = off`` (截和, §4) and the order of transfers (§8.7,
not a finding).  Each rule holds on a room and fails on its near miss."""

from __future__ import annotations

import pytest

from audits import audit_game
from audits.rules import family_of
from audits.rules.guangdong import settlement
from paipu.sim.guangdong import examples as gx
from paipu.sim.guangdong.scenes import Scene, reopened, repaid
from replay.state import Replayer
from schema.builder import GameBuilder
from schema.tiles import TILE_INDEX
from schema.ruleset import resolve

from .helpers import log_of


def codes(b: GameBuilder) -> list[str]:
    return [f.code for f in audit_game(log_of(b)).findings]


def ledger(b: GameBuilder) -> list[int]:
    return audit_game(log_of(b)).ledger[-1]


# --- bao_special_trigger = discarded (§8.4b) ---------------------------------------------

def test_discarded_trigger_makes_the_thrower_of_the_last_dragon_liable():
    assert codes(gx.dasanyuan_discarded()) == []
    assert ledger(gx.dasanyuan_discarded()) == [-192, 0, 0, 192]


def test_under_claimed_an_unclaimed_last_dragon_makes_nobody_liable():
    assert codes(gx.dasanyuan_discarded(None)) == []
    assert ledger(gx.dasanyuan_discarded(None)) == [-64, -64, -64, 192]
    # the same money under `discarded` misses the liability; the 包 under `claimed` is undue
    assert codes(repaid(gx.dasanyuan_discarded(), [(0, 3, 64, "win"), (1, 3, 64, "win"),
                                                   (2, 3, 64, "win")])) == ["BAO_PAYER"]
    assert codes(repaid(gx.dasanyuan_discarded(None), [(0, 3, 192, "bao_special")])) == ["BAO_UNDUE"]


def test_discarded_trigger_keeps_the_claimed_case():
    # §11.10: seat 0's 白 was ponged as the last dragon set: seat 0 is liable under both readings
    b = reopened(gx.ex10_dasanyuan_bao(), bao_special_trigger="discarded")
    assert codes(b) == [] and ledger(b) == [-192, 0, 0, 192]


def _early_white(trigger: str = "discarded") -> GameBuilder:
    """Seat 0 throws 白 while seat 3 has only 中 exposed; 发 is ponged after it."""
    s = Scene("gd-bao-early", options={"bao_special_trigger": trigger})
    s.hand(0, {3: "77z 66z 55z 234m 78s 1m 4p", 1: "7z", 2: "6z", 0: "5z"}, reserve="5z 7s")
    s.discard(0)
    s.draw(1)
    s.discard(1, "7z")
    s.pong(3, 1, "7z")
    s.discard(3, "1m")
    s.draw(0)
    s.discard(0, "5z")  # only one dragon exposed yet: not such a moment
    s.pass_turn(1)
    s.draw(2)
    s.discard(2, "6z")
    s.pong(3, 2, "6z")
    s.discard(3, "4p")
    s.go_around(0, 3)
    s.draw(3, "5z")
    s.discard(3, "8s")
    s.go_around(0, 3)
    s.draw(3, "7s")
    s.win([(3, ["dasanyuan"], 6, 64)], "self_draw", "7s")
    s.settle([(0, 3, 64, "win"), (1, 3, 64, "win"), (2, 3, 64, "win")])
    return s.close()


def test_a_dragon_thrown_before_the_other_two_are_exposed_is_no_liability():
    assert codes(_early_white()) == []
    assert codes(repaid(_early_white(), [(0, 3, 192, "bao_special")])) == ["BAO_UNDUE"]


def test_play_order_rebuilds_the_discards_in_turn_order():
    r = Replayer()
    b = gx.dasanyuan_discarded()
    for e in b.events:
        r.apply(e)
        if type(e).__name__ == "HandWon":
            break
    order = settlement.play_order(r.table)
    thrown = [e for e in b.events if type(e).__name__ == "TileDiscarded"]
    assert [(s, t) for s, t, _ in order] == [(e.seat, TILE_INDEX[e.tile]) for e in thrown]
    assert [c for _, _, c in order].count(3) == 2  # the two dragons seat 3 ponged
    # ``limit``: the first discards alone, in the same order; a limit past the end gives them all
    assert settlement.play_order(r.table, 5) == order[:5]
    assert settlement.play_order(r.table, len(order) + 3) == order
    assert settlement.play_order(r.table, 0) == []


# --- multi_win = off: 截和 (§4) ------------------------------------------------------------

def test_jiehu_only_the_first_declarer_in_turn_order_wins():
    assert codes(gx.jiehu()) == []
    assert ledger(gx.jiehu()) == [-1, 1, 0, 0]
    # the same log with 一炮多响 on: seat 3's declared win was missed
    assert codes(reopened(gx.jiehu(), multi_win=True)) == ["WIN_MISSED_MULTI"]


def test_jiehu_the_wrong_winner_or_a_second_winner_is_a_priority_finding():
    wrong = audit_game(log_of(gx.jiehu(3))).findings
    assert [(f.code, f.seat) for f in wrong] == [("CLAIM_PRIORITY", 3)]
    second = audit_game(log_of(reopened(gx.ex08_yipao_sanxiang(False), multi_win=False))).findings
    assert [(f.code, f.seat) for f in second] == [("CLAIM_PRIORITY", 3)]
    # near miss: with 一炮多响 on, two winners are right
    assert codes(gx.ex08_yipao_sanxiang(False)) == []


def test_jiehu_an_illegal_first_declarer_does_not_bar_the_next():
    # seat 1 declares a win it does not have (its hand lacks the 3p wait): seat 3 wins rightly
    import msgspec
    b = gx.jiehu(3)
    kept = [e for e in b.events if not (type(e).__name__ == "ClaimDeclared" and e.seat == 1)]
    b.events = [msgspec.structs.replace(e, seq=kept[0].seq + i) for i, e in enumerate(kept)]
    assert codes(b) == []
    assert codes(gx.jiehu(3)) == ["CLAIM_PRIORITY"]  # near miss: seat 1 declared


def test_the_simulator_plays_jiehu_rooms_that_audit_clean():
    from paipu.sim.simulate import SimConfig, simulate_games
    from schema.reader import GameLog
    rooms = list(simulate_games(SimConfig(preset="guangdong-jipinghu", games=30, seed=5, max_hands=6, fee=0,
                                          options={"multi_win": False})))
    wins = [e for g in rooms for e in g if type(e).__name__ == "HandWon" and e.how == "discard"]
    assert wins and all(len(e.winners) == 1 for e in wins)
    # some discards were declared by two seats: 截和 happened
    intercepted = 0
    for g in rooms:
        for i, e in enumerate(g):
            if type(e).__name__ == "HandWon" and e.how == "discard":
                before = [x for x in g[i - 3:i] if type(x).__name__ == "ClaimDeclared" and x.claim == "win"]
                intercepted += len(before) > 1
    assert intercepted > 0
    for g in rooms:
        log = GameLog(g[0].game, "sim", g, list(range(1, len(g) + 1)), closed=True)
        assert [(f.code, f.message) for f in audit_game(log).findings] == []


# --- §8.7: the order of transfers is not a finding -----------------------------------------

def test_a_self_draw_paid_in_another_order_or_split_is_no_finding():
    assert codes(repaid(gx.ex02_pinghu_self_draw(), [(3, 1, 4, "win"), (2, 1, 4, "win"), (0, 1, 4, "win")])) == []
    assert codes(repaid(gx.ex08_yipao_sanxiang(), [(0, 3, 10, "win"), (0, 2, 8, "win"), (0, 1, 8, "win"),
                                                   (0, 3, 6, "win")])) == []
    assert codes(repaid(reopened(gx.ex06_gangkai_bao(), kong_payments="on_win"),
                        [(3, 1, 3, "kong"), (3, 1, 24, "bao_gangkai")])) == []
    # near miss: the same split with a wrong sum is a finding
    assert codes(repaid(gx.ex08_yipao_sanxiang(), [(0, 3, 10, "win"), (0, 2, 8, "win"), (0, 1, 8, "win"),
                                                   (0, 3, 5, "win")])) == ["TRANSFER_MISMATCH"]


def test_the_family_says_its_payment_order_is_no_rule():
    assert family_of(resolve("guangdong-jipinghu")).settlement.payment_order is False
    assert family_of(resolve("qujing-xiaoji")).settlement.payment_order is True


def test_yipao_duoxiang_winners_paid_in_another_order_is_no_finding():
    assert codes(repaid(gx.ex08_yipao_sanxiang(), [(0, 3, 16, "win"), (0, 2, 8, "win"), (0, 1, 8, "win")])) == []


# --- the other options that change the money (§9): each holds, and its near miss fails ------

def test_bao_precedence_luodi_first_puts_the_fourth_set_feeder_first():
    assert codes(gx.bao_precedence()) == [] and ledger(gx.bao_precedence()) == [0, 0, -192, 192]
    assert codes(gx.bao_precedence(None)) == [] and ledger(gx.bao_precedence(None)) == [-192, 0, 0, 192]
    # near miss: under luodi_first the special-hand feeder paying is the wrong payer
    assert codes(reopened(gx.bao_precedence(None), bao_precedence="luodi_first")) == ["BAO_PAYER"]


def test_gangkai_bao_chain_off_needs_the_exposed_kong_right_before_the_win():
    assert codes(gx.gangkai_chain()) == [] and ledger(gx.gangkai_chain()) == [-8, 24, -8, -8]
    assert codes(gx.gangkai_chain(True)) == [] and ledger(gx.gangkai_chain(True)) == [0, 24, 0, -24]
    # near miss: the chained 包 billed with the chain off is undue
    assert codes(reopened(gx.gangkai_chain(True), gangkai_bao_chain=False)) == ["BAO_UNDUE"]


def test_jiulian_not_strict_takes_any_last_tile():
    assert codes(gx.jiulian_loose()) == [] and ledger(gx.jiulian_loose()) == [-64, 192, -64, -64]
    assert codes(gx.jiulian_loose(True)) == []
    # near miss: the loose 九莲 in a strict room is 清一色
    assert codes(reopened(gx.jiulian_loose(), jiulian_strict=True)) == ["FAN_MISMATCH"]


@pytest.mark.parametrize("fan,points", [(4, 16), (5, 32), (6, 64)])
def test_seven_pairs_pays_the_rooms_value(fan, points):
    from paipu.sim.guangdong.examples import _seven_pairs
    assert codes(_seven_pairs(fan)) == [] and ledger(_seven_pairs(fan))[2] == points
    other = 4 if fan != 4 else 6
    assert codes(reopened(_seven_pairs(fan), seven_pairs_fan=other))[:1] == ["FAN_MISMATCH"]
