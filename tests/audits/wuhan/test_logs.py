"""wuhan.md §12 as logs: every worked example and option room audits clean with the text's
money (the corrected ledger equals the logged scores); every near miss gives exactly its one
finding (sample_logs/wuhan holds the same rooms)."""

from __future__ import annotations

import pytest

from audits.audit import audit_game
from paipu.sim.wuhan.examples import EXAMPLES, NEAR_MISSES, OPTION_ROOMS
from schema.reader import GameLog


def audit(b):
    events = b.events
    return audit_game(GameLog(game=events[0].game, file="t", events=events, lines=list(range(1, len(events) + 1))))


@pytest.mark.parametrize("name", sorted({**EXAMPLES, **OPTION_ROOMS}))
def test_worked_example_audits_clean_with_the_texts_money(name):
    a = audit({**EXAMPLES, **OPTION_ROOMS}[name]())
    assert a.findings == [], [(f.code, f.seq, f.message) for f in a.findings]
    assert a.ledger[-1] == a.logged_scores[-1]


@pytest.mark.parametrize("name", sorted(NEAR_MISSES))
def test_near_miss_gives_exactly_its_finding(name):
    build, want = NEAR_MISSES[name]
    a = audit(build())
    assert [f.code for f in a.findings] == want, [(f.code, f.seq, f.message) for f in a.findings]


@pytest.mark.parametrize("name, ledger", [
    ("ex02_pihu_discard", [-4, -8, 20, -8]),
    ("ex05_qingyise_sanpu", [-580, 0, 580, 0]),
    ("ex06_qianggang", [-240, 0, 240, 0]),
    ("ex07_gangkai_jinding", [-400, -500, -400, 1300]),
    ("ex08b_quanqiuren_bao", [0, 240, 0, -240]),
    ("ex10_haidi", [-80, -40, -160, 280]),
    ("ex12_jiangyise", [-30, -60, -30, 120]),
])
def test_the_corrected_ledger_pays_the_texts_amounts(name, ledger):
    assert audit(EXAMPLES[name]()).ledger[-1] == ledger


def test_an_illegal_win_is_paid_nothing_in_the_corrected_ledger():
    a = audit(NEAR_MISSES["ex11a_two_laizi"][0]())
    assert a.logged_scores[-1] == [-8, -8, 32, -16] and a.ledger[-1] == [0, 0, 0, 0]


def test_a_pi_tile_discarded_keeps_its_fan_one_finding():
    a = audit(NEAR_MISSES["ex02_pi_discarded"][0]())
    assert a.ledger[-1] == [-4, -8, 20, -8]  # seat 3 pays 8 with the 红中杠's fan, as §12.2


def test_explain_derives_the_settlement_step_by_step():
    from audits.audit import explain_game
    ex = explain_game(GameLog(game="wh-ex07", file="t", events=EXAMPLES["ex07_gangkai_jinding"]().events,
                              lines=list(range(1, 200))))
    text = repr(ex)
    assert "金顶" in text and "2^(7+1) = 5120" in text and "F_w" in text


def test_the_haidi_draws_follow_each_other_and_the_table_knows_the_turns_draw():
    """The shared ground: a draw-only turn (``next_drawer`` asked while the last drawer keeps its
    tiles) and ``Table.turn_draw`` (wall, tail, or None after a claim)."""
    from replay.state import Replayer
    b = EXAMPLES["ex10b_haidi_huangzhuang"]()
    r = Replayer()
    sources = []
    for e in b.events:
        r.apply(e)
        if type(e).__name__ in ("TileDrawn", "Ponged", "Chowed"):
            sources.append(r.table.turn_draw)
    assert "tail" in sources and None in sources and sources[-4:] == ["wall"] * 4
    assert audit(b).findings == []
    assert [f.code for f in audit(NEAR_MISSES["ex10_haidi_wrong_drawer"][0]()).findings] == ["TURN_ORDER"]


def test_explain_prints_each_derivation_once():
    """The winner's derivation is printed under the winner, not again under the settlement; a
    hand with no legal win says so once."""
    from audits.audit import explain_game
    lines = explain_game(GameLog(game="wh-ex07", file="t", events=EXAMPLES["ex07_gangkai_jinding"]().events,
                                 lines=list(range(1, 200))))
    assert sum("F_w = " in x for x in lines) == 1
    assert sum("金顶" in x for x in lines) >= 1
    bad = explain_game(GameLog(game="wh-ex11a", file="t", events=NEAR_MISSES["ex11a_two_laizi"][0]().events,
                               lines=list(range(1, 200))))
    assert sum("no legal win: no transfers" in x for x in bad) == 1


def test_explain_names_the_rule_an_illegal_winner_breaks_instead_of_a_price():
    """An illegal winner's line says which rule its hand breaks and that it is paid nothing, not
    a price of P = 1 × 2^0 = 0; a legal winner (the near miss) is priced as before."""
    from audits.audit import explain_game
    bad = explain_game(GameLog(game="wh-ex11a", file="t", events=NEAR_MISSES["ex11a_two_laizi"][0]().events,
                               lines=list(range(1, 200))))
    seat2 = [x for x in bad if x.startswith("  seat 2: ")]
    assert len(seat2) == 1 and "not a legal win (WIN_LAIZI_LIMIT): a 屁胡 holding 2 癞子" in seat2[0]
    assert "no payment" in seat2[0] and "2^" not in seat2[0]
    good = explain_game(GameLog(game="wh-ex07", file="t", events=EXAMPLES["ex07_gangkai_jinding"]().events,
                                lines=list(range(1, 200))))
    assert not any("not a legal win" in x for x in good)


@pytest.mark.parametrize("name", ["ex02_rob_pi_kong", "ex02_rob_laizi_kong"])
def test_robbing_a_single_tile_kong_is_a_finding_not_a_break(name):
    """§5.3, §7.6: a 红中杠 / 癞子杠 is never robbed — ROB_CONCEALED_KONG at the robbing, never a
    structural break (the holding case: ex06 robs an added kong, clean)."""
    build, _ = NEAR_MISSES[name]
    a = audit(build())
    assert [(f.code, f.seat) for f in a.findings] == [("ROB_CONCEALED_KONG", 3)]
    assert audit(EXAMPLES["ex06_qianggang"]()).findings == []


def test_an_illegal_win_counts_as_huangzhuang_for_the_next_dealer():
    """§4, §9.7: after seat 2's illegal win the dealer (seat 0) deals again, under ``rotate`` and
    ``winner`` alike; passing the deal as after a win is DEALER_ROTATION (the legal win, ex13,
    passes it)."""
    assert [f.code for f in audit(NEAR_MISSES["ex13_dealer_kept_after_illegal_win"][0]()).findings] == \
        ["WIN_PAIR_NOT_258"]
    for name in ("ex13_dealer_passed_after_illegal_win", "ex13_winner_deals_after_illegal_win"):
        got = [(f.code, f.seq) for f in audit(NEAR_MISSES[name][0]()).findings]
        assert [c for c, _ in got] == ["WIN_PAIR_NOT_258", "DEALER_ROTATION"], got
    assert audit(EXAMPLES["ex13_dealer_rotate"]()).findings == []


def test_a_claim_in_the_haidi_phase_is_sea_bottom_order():
    """§6: no claim in the 海底 phase — the pong of a 海底 discard is SEA_BOTTOM_ORDER (not
    CLAIM_ON_DEAD_DISCARD), beside the discard's own; the phase played draw-only is clean."""
    a = audit(NEAR_MISSES["ex10_claim_in_haidi"][0]())
    assert [(f.code, f.seat) for f in a.findings] == [("SEA_BOTTOM_ORDER", 2), ("SEA_BOTTOM_ORDER", 1)]
    assert audit(EXAMPLES["ex10b_haidi_huangzhuang"]()).findings == []
