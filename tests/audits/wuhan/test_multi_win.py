"""起胡 under 一炮多响 (wuhan.md §5.1 ``multi_win``, §9.4): each winner of one discard is judged
alone against the room's 起胡, with its own finding; the seats that won the tile do not pay
it, so under ``qihu_basis = min`` their multiples are no basis; a declarer whose win fails is
no winner, pays the others and counts in their basis."""

from __future__ import annotations

from audits.rules.wuhan import money
from audits.rules.wuhan.money import Share, Win
from paipu.sim.wuhan.examples import multi_win_min_basis, multi_win_qihu
from paipu.sim.wuhan.scenes import reopened

from .helpers import fans, pong, score
from .test_logs import audit

#: seat 2's 屁胡 on seat 1's discard: seats 1, 0 and 3 pay 8, 4 and 2
PIHU = Win(2, "discard", 1, 0, (), False, None)
SHARES = [Share(1, 2, 2, 8, 8), Share(0, 1, 2, 4, 4), Share(3, 0, 2, 2, 2)]


def _rules(**options):
    from schema.ruleset import resolve
    return resolve("wuhan-hzlzg", {"multi_win": True, **options})


def test_min_basis_leaves_out_a_seat_that_won_the_same_tile():
    r = _rules(qihu=4, qihu_basis="min")
    assert money.qihu_met(r, PIHU, SHARES, co_winners={3})


def test_min_basis_near_miss_a_seat_that_did_not_win_is_part_of_the_basis():
    r = _rules(qihu=4, qihu_basis="min")
    assert not money.qihu_met(r, PIHU, SHARES)
    assert not money.qihu_met(r, PIHU, SHARES, co_winners={0})  # seat 0 (4) out, seat 3's 2 still counts


def test_feeder_basis_is_the_discarders_multiple_whoever_else_won():
    r = _rules(qihu=8)
    assert money.qihu_met(r, PIHU, SHARES, co_winners={3})
    assert not money.qihu_met(_rules(qihu=16), PIHU, SHARES, co_winners={3})


EX2 = dict(how="discard", win="5s", seat=2, dealer=0, from_seat=1, indicator="4p",
           seat_fans=fans((0,), (1,), (1,), (1, 0, 0, 1)))


def test_score_takes_the_co_winners_from_its_context():
    # §12.2's 屁胡 under qihu 8 on the smallest multiple: the dealer's 4 fails it, unless the
    # dealer won the same tile
    opts = {"multi_win": True, "qihu": 8, "qihu_basis": "min"}
    melds = [pong("7s", 0)]
    assert score("5p", "123m456m34s8m5p5s", melds, options=opts, **EX2).code == "WIN_BELOW_MIN_FAN"
    sc = score("5p", "123m456m34s8m5p5s", melds, options=opts, co_winners=frozenset({0}), **EX2)
    assert sc.wins


def test_each_winner_meets_qihu_on_its_own_feeder_multiple():
    a = audit(multi_win_qihu(8))
    assert a.findings == []
    assert a.ledger[-1] == a.logged_scores[-1] == [-20, -40, 12, 48]


def test_near_miss_the_winner_below_qihu_has_its_own_finding_and_pays_the_other():
    a = audit(multi_win_qihu(16))
    assert [(f.code, f.seat) for f in a.findings] == [("WIN_BELOW_MIN_FAN", 2)]
    # seat 3 alone wins: seats 1, 0 and now seat 2 pay it 32 + 16 + 16
    assert a.ledger[-1] == [-16, -32, -16, 64]


def test_both_winners_below_qihu_each_have_a_finding():
    a = audit(reopened(multi_win_qihu(32), qihu_basis="min"))
    assert sorted((f.code, f.seat) for f in a.findings) == [("WIN_BELOW_MIN_FAN", 2), ("WIN_BELOW_MIN_FAN", 3)]
    assert a.ledger[-1] == [0, 0, 0, 0]


def test_min_basis_winners_do_not_pay_each_other():
    a = audit(multi_win_min_basis())
    assert a.findings == []
    assert a.ledger[-1] == a.logged_scores[-1] == [-64, -64, 64, 64]


def test_min_basis_near_miss_a_lone_winner_counts_the_seat_that_let_the_tile_go():
    a = audit(multi_win_min_basis(False))
    assert [(f.code, f.seat) for f in a.findings] == [("WIN_BELOW_MIN_FAN", 3)]
    assert a.ledger[-1] == [0, 0, 0, 0]


def test_min_basis_a_failing_declarer_pays_and_so_counts_in_the_others_basis():
    # §12.2's room under min: seat 2's basis is the dealer's 4 (< 16); failing, seat 2 pays
    # seat 3 its 16, which meets 16 (the fixed point keeps seat 3)
    a = audit(reopened(multi_win_qihu(16), qihu_basis="min"))
    assert [(f.code, f.seat) for f in a.findings] == [("WIN_BELOW_MIN_FAN", 2)]
    assert a.ledger[-1] == [-16, -32, -16, 64]
