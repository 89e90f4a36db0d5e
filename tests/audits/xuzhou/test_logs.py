"""Xuzhou rooms audited end to end (xuzhou.md §11, §12): every worked example and option
room clean with the text's money, each near miss with its one finding."""

from __future__ import annotations

import pytest

from audits import audit_game
from paipu.sim.xuzhou import examples as xx

from ..helpers import log_of

#: The catalogue codes these rooms hold and near-miss.
XUZHOU_CODES = {"WIN_DURING_GUOHU", "FAN_MISMATCH", "WIN_INCOMPLETE", "YANGZHU_BET_INVALID", "TRANSFER_MISMATCH",
                "FAN_NAMES_DIFFER", "CLAIM_ON_LAST_DISCARD"}


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
    assert final(xx.ex02_paopei()) == [0, 0, 1, -1]
    assert final(xx.ex03_dealer_self_draw()) == [6, -2, -2, -2]
    assert final(xx.ex04_multi_win()) == [2, -3, 1, 0]
    assert final(xx.ex04_multi_win(True)) == [0, -1, 1, 0]
    assert final(xx.ex05_guohu()) == [-2, -1, -1, 4]
    assert final(xx.ex06_xiazui()) == [-5, -3, 12, -4]
    assert final(xx.ex06_xiazui(True)) == [0, 0, 4, -4]
    assert final(xx.ex07a_qidui()) == [-2, 2, 0, 0]
    assert final(xx.ex07b_luanpai()) == [-2, -1, -1, 4]
    assert final(xx.ex09_tianhe()) == [6, -2, -2, -2]


def test_a_barred_win_is_paid_nothing_in_the_corrected_ledger():
    # the 过胡 win: the log pays it, the corrected ledger does not
    a = audit_game(log_of(xx.ex05_guohu(True)))
    assert a.logged_scores[-1] == [0, 0, -1, 1] and a.ledger[-1] == [0, 0, 0, 0]


def test_explain_derives_each_payment():
    from audits.audit import explain_game, explain_records
    _, records = explain_records(log_of(xx.ex03_dealer_self_draw()))
    rec = [r for r in records if r["kind"] == "settlement"][0]
    assert "seat 1 → seat 0: P 1 + 1 (坐庄 +1 × B) = 2" in rec["steps"]
    text = explain_game(log_of(xx.ex03_dealer_self_draw()))
    assert any("P 1 + 1 (坐庄 +1 × B) = 2" in line for line in text)
