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
    make, _code = xx.NEAR_MISSES[name]
    assert [f.code for f in audit_game(log_of(make())).findings] == xx.near_miss_codes(name)


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
    found = {c for name in xx.NEAR_MISSES for c in xx.near_miss_codes(name)} | {f.code for f in FAULTS.values()}
    assert WENZHOU_CODES <= found


def test_a_wrong_logged_level_is_repriced_at_the_rotations_level():
    # wenzhou.md §4, §9.1: hand 2 is seat 0's second hand in a row (level 2, D_2 = 2) but logged
    # and paid at level 1: DEALER_ROTATION, and the money, judged at level 2, is TRANSFER_MISMATCH
    # saying so; the corrected ledger has each non-dealer pay D_2 × 2 = 4, not 2
    a = audit_game(log_of(xx.ex02_dealer_level_2(logged=1)))
    rot, money = a.findings
    assert (rot.code, rot.expected, rot.actual) == ("DEALER_ROTATION", "dealer_level 2", "dealer_level 1")
    assert money.code == "TRANSFER_MISMATCH" and "priced at dealer level 2" in money.message
    assert money.expected == ["1->0 4 win", "2->0 4 win", "3->0 4 win"]
    assert a.logged_scores[-1] == [6, -2, -2, -2] and a.ledger[-1] == [12, -4, -4, -4]
    # near miss: logged at the right level, the same money is clean and the ledger agrees
    a = audit_game(log_of(xx.ex02_dealer_level_2()))
    assert a.findings == [] and a.ledger[-1] == a.logged_scores[-1] == [12, -4, -4, -4]


def test_the_explain_derivation_names_the_repriced_level():
    from audits.audit import explain_records
    _, records = explain_records(log_of(xx.ex02_dealer_level_2(logged=1)))
    rec = [r for r in records if r["kind"] == "settlement"][-1]
    assert rec["steps"][0].startswith("dealer seat 0 at level 2 (logged at level 1: priced at the rotation's)")
    assert "seat 1 → seat 0: D_2 = 2 (multiply); × M 2 = 4" in rec["steps"]


def test_a_bare_sancaishen_wins_on_a_drawn_turn_not_after_a_call():
    # wenzhou.md §7.3, §14: three 财神 win bare at one's own turn come with a draw
    a = audit_game(log_of(xx.bare_sancaishen_turn()))
    assert a.findings == [] and a.ledger[-1] == a.logged_scores[-1] == [-2, 6, -2, -2]
    # near miss: the turn reached by a pong is no draw: no bare win, paid nothing
    a = audit_game(log_of(xx.bare_sancaishen_turn(after_call=True)))
    assert [f.code for f in a.findings] == ["TURN_ORDER", "WIN_INCOMPLETE"]
    assert a.logged_scores[-1] == [-2, 6, -2, -2] and a.ledger[-1] == [0, 0, 0, 0]


def test_the_bare_moment_by_the_turns_draw():
    from audits.rules.wenzhou.fans import bare_moment
    from audits.rules.wenzhou.play import WenzhouContext, turn_drawn
    from schema.ruleset import resolve
    r = resolve("wenzhou")
    assert bare_moment(r, WenzhouContext(how="self_draw")) and not bare_moment(r, WenzhouContext(how="discard"))
    assert not bare_moment(r, WenzhouContext(how="self_draw", turn_drawn=False))
    assert bare_moment(resolve("wenzhou", {"sancaishen_on_discard": True}), WenzhouContext(how="discard"))

    class T:  # the table facts: how the turn's 17th tile came, the dealer, discards and melds
        turn_draw, dealer, discards, melds = None, 0, [[], [], [], []], [[], [], [], []]
    assert turn_drawn(T, 0) and not turn_drawn(T, 1)  # the dealer's dealt 17; a non-dealer's claim
    T.discards = [[(1, -1)], [], [], []]
    assert not turn_drawn(T, 0)
    T.turn_draw = "tail"
    assert turn_drawn(T, 0)
