"""Wenzhou rooms audited end to end (wenzhou.md §12): every worked example and option room
clean with the text's money, each near miss with its one finding."""

from __future__ import annotations

import pytest

from audits import audit_game
from paipu.sim.wenzhou import examples as xx

from ..helpers import log_of

#: The Wenzhou-only catalogue codes these rooms and the fault classes near-miss
#: (tests/paipu/test_wenzhou_sim.py plants CAISHEN_MONEY_MISMATCH in simulated rooms).
WENZHOU_CODES = {"HONOUR_DISCARD_ORDER", "WIN_CAISHEN_DANDIAO_DISCARD", "CAISHEN_MONEY_MISMATCH"}


@pytest.mark.parametrize("name", sorted({**xx.EXAMPLES, **xx.OPTION_ROOMS}))
def test_room_audits_clean_with_the_texts_money(name):
    a = audit_game(log_of({**xx.EXAMPLES, **xx.OPTION_ROOMS}[name]()))
    assert [(f.code, f.message) for f in a.findings] == []
    assert a.ledger == a.logged_scores  # the corrected ledger agrees with the text's money


@pytest.mark.parametrize("name", sorted(xx.NEAR_MISSES))
def test_near_miss_gives_its_one_finding(name):
    make, code = xx.NEAR_MISSES[name]
    assert [f.code for f in audit_game(log_of(make())).findings] == [code]


def test_the_texts_money():
    final = lambda b: audit_game(log_of(b)).ledger[-1]  # noqa: E731
    assert final(xx.ex01_soft_discard()) == [-1, -1, 3, -1]
    assert final(xx.ex01_soft_discard("discarder_for_all")) == [0, -3, 3, 0]
    assert final(xx.ex02_dealer_level_2()) == [12, -4, -4, -4]
    assert final(xx.ex02_dealer_level_2("jinjie2")) == [24, -8, -8, -8]
    assert final(xx.ex03_dandiao()) == [-4, -4, -4, 12]
    assert final(xx.ex04_sancaishen("a")) == [-4, 8, -2, -2]
    assert final(xx.ex04_sancaishen("b")) == [-8, 16, -4, -4]
    assert final(xx.ex04_sancaishen("c")) == [-16, 32, -8, -8]
    assert final(xx.ex05_jiehe()) == [-2, 6, -2, -2]
    assert final(xx.ex06_side_options()) == [-3, -6, 2, 7]
    assert final(xx.ex06_side_options("discarder_for_all")) == [3, -13, 3, 7]
    assert final(xx.ex07_levels()) == [48, -16, -16, -16]
    assert final(xx.ex08_dihe()) == [-4, -4, -4, 12]
    assert final(xx.ex08_dihe("first_round_shangjia")) == [-1, -1, -1, 3]


def test_a_barred_win_is_paid_nothing_in_the_corrected_ledger():
    a = audit_game(log_of(xx.ex03_dandiao(caishen_last=True, on_discard=True)))
    assert a.logged_scores[-1] == [-4, -4, -4, 12] and a.ledger[-1] == [0, 0, 0, 0]


def test_jiehe_pays_the_first_declarer_in_the_corrected_ledger():
    a = audit_game(log_of(xx.ex05_jiehe(winner=3)))
    assert a.logged_scores[-1] == [-2, -2, -2, 6] and a.ledger[-1] == [-2, 6, -2, -2]


def test_explain_derives_each_payment():
    from audits.audit import explain_records
    _, records = explain_records(log_of(xx.ex02_dealer_level_2()))
    rec = [r for r in records if r["kind"] == "settlement"][-1]
    assert "seat 1 → seat 0: D_2 = 2 (multiply); × M 2 = 4" in rec["steps"]
    assert rec["steps"][0].startswith("dealer seat 0 at level 2")


def test_the_wenzhou_codes_are_met():
    from paipu.sim.wenzhou.faults import FAULTS
    found = {code for _, code in xx.NEAR_MISSES.values()} | {f.code for f in FAULTS.values()}
    assert WENZHOU_CODES <= found
