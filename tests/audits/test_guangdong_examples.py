"""Guangdong 鸡平和: the worked examples of guangdong.md §11 audit clean with the text's
money, and each finding code of §12 holds on a faulty room and not on its near miss."""

from __future__ import annotations

import pytest

from audits import audit_game
from paipu.sim.guangdong import examples as gx
from paipu.sim.guangdong.scenes import Scene, reopened, repaid, rescored
from schema.builder import GameBuilder

from .helpers import log_of

#: The catalogue codes this module holds and near-misses (test_audit_codes counts them).
GUANGDONG_CODES = {
    "KONG_WITHOUT_REPLACEMENT", "ROUND_WIND_MISMATCH", "CLAIM_ON_LAST_DISCARD", "WIN_BELOW_MIN_FAN",
    "WIN_DURING_LOUHE", "ROB_EXPOSED_KONG", "FAN_NAMES_DIFFER", "BAO_PAYER", "BAO_UNDUE",
    "KONG_PAYMENT_UNDUE", "KONG_PAYMENT_MISMATCH",
}


def codes(b: GameBuilder) -> list[str]:
    return [f.code for f in audit_game(log_of(b)).findings]


# --- §11: every worked example, with the text's money ------------------------------------

@pytest.mark.parametrize("name", sorted(gx.EXAMPLES))
def test_worked_example_audits_clean_with_the_texts_money(name):
    a = audit_game(log_of(gx.EXAMPLES[name]()))
    assert [(f.code, f.message) for f in a.findings] == []
    assert a.ledger == a.logged_scores  # the corrected ledger agrees with the text's money


def test_the_texts_money_for_the_liabilities_and_floors():
    final = lambda b: audit_game(log_of(b)).ledger[-1]  # noqa: E731
    assert final(gx.ex06_gangkai_bao()) == [0, 24, 0, -24]          # 点杠者包三家
    assert final(gx.ex06_gangkai_bao(True)) == [-8, 24, -8, -8]      # added kong: no 包
    assert final(gx.ex08_yipao_sanxiang()) == [-32, 8, 8, 16]        # 一炮三响 floors
    assert final(gx.ex08_yipao_sanxiang(False)) == [-17, 1, 0, 16]   # two winners: no floor
    assert final(gx.ex10_dasanyuan_bao()) == [-192, 0, 0, 192]
    assert final(gx.ex13_haidi()) == [-16, 48, -16, -16]


@pytest.mark.parametrize("name", sorted(gx.NEAR_MISSES))
def test_near_miss_rooms_give_their_findings(name):
    make, code = gx.NEAR_MISSES[name]
    assert codes(make()) == (code if isinstance(code, list) else [code])


# --- §12 findings: each holds, and its near miss does not ------------------------------------

def test_min_fan_bars_a_jihu_and_not_a_pinghu_zimo():
    assert codes(reopened(gx.ex01_jihu_on_a_discard(), min_fan=1)) == ["WIN_BELOW_MIN_FAN"]
    assert codes(reopened(gx.ex02_pinghu_self_draw(), min_fan=2)) == []


def test_louhe_scope_any_discard_bars_the_other_tile_too():
    assert codes(gx.ex12_louhe()) == []
    assert codes(reopened(gx.ex12_louhe(), louhe_scope="any_discard")) == ["WIN_DURING_LOUHE"]


def test_gangkai_bao_paid_by_everyone_is_a_bao_payer_finding():
    b = repaid(gx.ex06_gangkai_bao(), [(2, 1, 8, "win"), (3, 1, 8, "win"), (0, 1, 8, "win")])
    assert codes(b) == ["BAO_PAYER"]


def test_bao_after_an_added_kong_is_undue():
    b = repaid(gx.ex06_gangkai_bao(True), [(2, 1, 24, "bao_gangkai")])
    assert codes(b) == ["BAO_UNDUE"]


def test_bao_special_paid_to_the_wrong_seat_is_a_bao_payer_finding():
    b = repaid(gx.ex10_dasanyuan_bao(), [(1, 3, 192, "bao_special")])
    assert codes(b) == ["BAO_PAYER"]


def test_a_bao_on_a_discard_win_is_undue():
    b = repaid(gx.ex10_dasanyuan_bao(True), [(0, 3, 64, "bao_special")])
    assert codes(b) == ["BAO_UNDUE"]


def test_kong_payments_are_undue_by_default_and_checked_on_win():
    paid = [(3, 1, 24, "bao_gangkai"), (3, 1, 3, "kong")]
    assert codes(repaid(gx.ex06_gangkai_bao(), paid)) == ["KONG_PAYMENT_UNDUE"]
    assert codes(repaid(reopened(gx.ex06_gangkai_bao(), kong_payments="on_win"), paid)) == []
    wrong = [(3, 1, 24, "bao_gangkai"), (3, 1, 2, "kong")]
    assert codes(repaid(reopened(gx.ex06_gangkai_bao(), kong_payments="on_win"), wrong)) == ["KONG_PAYMENT_MISMATCH"]


def test_fan_names_that_omit_a_floor_event_are_a_warning_only():
    b = rescored(gx.ex06_gangkai_bao(), ["jihu", "zimo"], 1, 8)
    a = audit_game(log_of(b))
    assert [(f.code, f.severity) for f in a.findings] == [("FAN_NAMES_DIFFER", "warning")]
    # near miss: a fan that does not hold is a mismatch
    assert codes(rescored(gx.ex06_gangkai_bao(), ["jihu", "zimo", "menfeng", "gangshang_kaihua"], 2, 8)) \
        == ["FAN_MISMATCH"]


def test_a_missing_floor_is_a_points_mismatch():
    # 杠上开花 1 fan logged with P = 2: the floor to 3 is missing
    b = rescored(gx.ex06_gangkai_bao(), ["jihu", "zimo", "gangshang_kaihua"], 1, 2)
    assert codes(repaid(b, [(3, 1, 6, "bao_gangkai")])) == ["POINTS_MISMATCH"]


def _wind_room(**winds) -> GameBuilder:
    return gx.ex11_dihe(**winds)


def test_logged_winds_are_checked_against_the_dealer():
    assert codes(_wind_room(round_wind="east", seat_winds=["west", "north", "east", "south"])) == []
    assert codes(_wind_room(round_wind="south")) == ["ROUND_WIND_MISMATCH"]
    assert codes(_wind_room(seat_winds=["east", "south", "west", "north"])) == ["ROUND_WIND_MISMATCH"]


def _last_tile_room(claim: str, options=None) -> GameBuilder:
    """Play to the last tile: seat 1 draws it (haidi position) and throws 9s; seat 3 holds 9s9s."""
    s = Scene("gd-last", options=options, creator=2)
    s.hand(2, {3: "99s", 1: "555s"}, reserve="5s" if claim == "kong" else "9s", avoid="9s 5s")
    s.discard(2)
    nxt = s.until(3, 1)
    assert nxt == 1
    if claim == "kong":
        s.draw(1, "5s")
        s.kong_concealed(1, "5s")
        return s.b
    s.draw(1, "9s")
    s.discard(1, "9s")
    s.pong(3, 1, "9s")
    return s.b


def test_only_a_win_on_the_last_discard():
    assert "CLAIM_ON_LAST_DISCARD" in codes(_last_tile_room("pong"))
    assert "CLAIM_ON_LAST_DISCARD" not in codes(_last_tile_room("pong", {"last_discard_claims": "all"}))


def test_no_kong_without_a_replacement():
    assert "KONG_WITHOUT_REPLACEMENT" in codes(_last_tile_room("kong"))
    # near miss: the same kong one tile earlier has its replacement
    s = Scene("gd-kong-ok", creator=2)
    s.hand(2, {1: "555s"}, reserve="5s", avoid="5s")
    s.discard(2)
    s.until(3, 3)  # seat 1 is next with three tiles left
    s.draw(1, "5s")
    s.kong_concealed(1, "5s")
    assert "KONG_WITHOUT_REPLACEMENT" not in codes(s.b)


def test_robbing_an_exposed_kong_is_not_a_robbing():
    s = Scene("gd-rob-exposed")
    s.hand(0, {0: "7s", 1: "777s", 2: "34m 678p 234s 456s 11z"}, avoid="7s")
    s.go_around(s.opening_round(0), 3)
    s.discard(0, "7s")
    s.kong_exposed(1, 0, "7s")
    s.win([(2, ["pinghu", "zimo", "qianggang"], 2, 8)], "robbed_kong", "7s", from_seat=1)
    assert "ROB_EXPOSED_KONG" in codes(s.b)
    assert "ROB_EXPOSED_KONG" not in codes(gx.ex07_qianggang())
