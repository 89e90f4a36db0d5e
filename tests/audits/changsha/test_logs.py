"""Changsha rooms audited end to end (changsha.md §13, §14): the worked examples clean with
the text's money, each near miss with its findings."""

from __future__ import annotations

import pytest

from audits import audit_game
from paipu.sim.changsha import examples as cx

from ..helpers import log_of


@pytest.mark.parametrize("name", sorted({**cx.EXAMPLES, **cx.OPTION_ROOMS}))
def test_room_audits_clean_with_the_texts_money(name):
    a = audit_game(log_of({**cx.EXAMPLES, **cx.OPTION_ROOMS}[name]()))
    assert [(f.code, f.message) for f in a.findings] == []
    assert a.ledger == a.logged_scores


@pytest.mark.parametrize("name", sorted(cx.NEAR_MISSES))
def test_near_miss_gives_its_findings(name):
    make, codes = cx.NEAR_MISSES[name]
    assert [f.code for f in audit_game(log_of(make())).findings] == codes


def test_the_texts_money():
    final = lambda b: audit_game(log_of(b)).ledger[-1]  # noqa: E731
    assert final(cx.ex01_small_discard_win()) == [0, -2, 2, 0]
    assert final(cx.ex02_dealer_self_draw()) == [17, -5, -7, -5]
    assert final(cx.ex02_dealer_self_draw("double")) == [19, -5, -9, -5]
    assert final(cx.ex02_dealer_self_draw("plus_point")) == [13, -4, -5, -4]
    assert final(cx.ex10_classic_sheet()) == [37, -3, -29, -5]
    # the corrected ledger of a room paid without birds is the text's money
    assert final(cx.nm_birds_left_out()) == [37, -3, -29, -5]
    # an opening win the tiles do not hold is paid nothing: 2 → 0: 12 × 2 + 1 only
    assert final(cx.nm_opening_not_held()) == [25, 0, -25, 0]


def test_explain_derives_each_pair_step_by_step():
    from audits.audit import explain_records
    _audit, recs = explain_records(log_of(cx.nm_birds_left_out()))
    steps = [s for r in recs for s in r.get("steps", [])]
    assert any("seat 2 → seat 0: A = Q 2 + H 12 = 14; m = n(0) + n(2) = 1" in s and s.endswith("= 29") for s in steps)
    assert any(s.startswith("dealer seat 0; birds") for s in steps)
