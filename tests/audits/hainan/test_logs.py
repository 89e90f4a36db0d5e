"""Hainan rooms audited end to end (hainan.md §12): every worked example and option room
clean with the text's money, each near miss with its one finding, the corrected ledger."""

from __future__ import annotations

import pytest

from audits import audit_game
from paipu.sim.hainan import examples as hx

from ..helpers import log_of

ROOMS = {**hx.EXAMPLES, **hx.OPTION_ROOMS}


@pytest.mark.parametrize("name", sorted(ROOMS))
def test_room_audits_clean_with_the_texts_money(name):
    a = audit_game(log_of(ROOMS[name]()))
    assert [(f.code, f.message) for f in a.findings] == []
    assert a.ledger == a.logged_scores  # the corrected ledger agrees with the text's money


@pytest.mark.parametrize("name", sorted(hx.NEAR_MISSES))
def test_near_miss_gives_its_one_finding(name):
    make, code = hx.NEAR_MISSES[name]
    assert [f.code for f in audit_game(log_of(make())).findings] == [code]


def test_the_texts_money():
    final = lambda b: audit_game(log_of(b)).ledger[-1]  # noqa: E731
    assert final(hx.ex01_jiang258()) == [-1, -1, 4, -2]
    assert final(hx.ex02_zimo_without_fan()) == [-2, 6, -2, -2]
    assert final(hx.ex02_own_flower()) == [-1, 4, -2, -1]
    assert final(hx.ex03_gangshang()) == [-5, -5, -5, 15]
    assert final(hx.ex03_gangshang(True)) == [-6, -2, -6, 14]
    assert final(hx.ex04_sandao()) == [0, -4, 4, 0]
    assert final(hx.ex04_sandao(3)) == [-1, -1, 4, -2]
    assert final(hx.ex04_sandao(-1)) == [-2, -2, 6, -2]
    assert final(hx.ex05_qianggang()) == [-2, 4, -1, -1]
    assert final(hx.ex05_qianggang(False)) == [-4, 4, 0, 0]
    assert final(hx.ex06_baogang()) == [-4, 4, 2, -2]
    assert final(hx.ex06_baogang(False)) == [-2, 3, 2, -3]
    assert final(hx.ex06_huangzhuang()) == [0, 0, 0, 0]
    assert final(hx.ex07_genpai()) == [-5, -1, -1, 7]
    assert final(hx.ex07_genpai(drawn=True)) == [0, 0, 0, 0]
    assert final(hx.ex07_genpai(drawn=True, always=True)) == [-3, 1, 1, 1]
    for option, each in (("default", 4), ("additive", 28), ("multiplicative", 16), ("multiply", 12), ("add", 8),
                         ("add_bonus", 10)):
        assert final(hx.ex08_dealer_options(option)) == [3 * each, -each, -each, -each]
    assert final(hx.ex09_shisanlan()) == [-1, 4, -2, -1]
    assert final(hx.ex09_zimo()) == [-2, 6, -2, -2]


def test_a_win_below_the_gate_is_paid_nothing_in_the_corrected_ledger():
    a = audit_game(log_of(hx.nm_below_fan_flower()))
    assert a.logged_scores[-1] == [-1, 4, -2, -1] and a.ledger[-1] == [0, 0, 0, 0]


def test_explain_derives_each_payment():
    from audits.audit import explain_records
    _, records = explain_records(log_of(hx.ex04_sandao()))
    rec = [r for r in records if r["kind"] == "settlement"][0]
    assert any(line.startswith("三道: seat 2 made 3 claims on seat 1's discards: seat 1 → seat 2: Σ s_l 1 + 1 + 1 + e 1 = 4")
               for line in rec["steps"]), rec["steps"]
    _, records = explain_records(log_of(hx.ex08_dealer_options("multiply")))
    rec = [r for r in records if r["kind"] == "settlement"][-1]
    assert "seat 1 → seat 0: s = P 4 × u 6 / B 2 = 12" in rec["steps"], rec["steps"]
