"""Who wins a discard or an added kong, and what the corrected ledger pays them
(guangdong.md §4, §5.5, §7.4, §8.0): each rule holding, and its near miss.

* 一炮三响's floor counts legal winners only: an incomplete third "winner" lifts nobody;
* ``louhe_on_rob = off``: robbing is outside 漏和 both ways;
* robbing under 一炮多响 (every declared legal robber wins) and under 截和 (the first from
  the adder's 下家 alone);
* under 截和 the corrected ledger pays the first legal declarer, whichever the log paid.
"""

from __future__ import annotations

from audits.audit import audit_game
from paipu.sim.guangdong import examples as gx
from paipu.sim.guangdong.scenes import reopened
from schema.builder import GameBuilder
from schema.reader import GameLog


def audited(b: GameBuilder):
    return audit_game(GameLog(game=b.game, file="<scene>", events=b.events, lines=list(range(1, len(b.events) + 1))))


def found(b: GameBuilder) -> list[tuple[str, int]]:
    """The findings as (code, seat)."""
    return [(f.code, f.seat) for f in audited(b).findings]


def ledger(b: GameBuilder) -> list[int]:
    return audited(b).ledger[-1]


# --- 一炮三响: the floor counts legal winners (§7.4, §8.0, §8.2) ----------------------------

def test_an_incomplete_third_winner_lifts_no_floor():
    b = gx.yipao_incomplete_third()
    # seat 1's 鸡和 floored at 3 (P 8) is paid on a floor the rules do not give: P 1
    assert sorted(found(b)) == [("FAN_MISMATCH", 1), ("FAN_MISMATCH", 3), ("POINTS_MISMATCH", 1),
                                ("WIN_INCOMPLETE", 2)]
    # the corrected ledger: two legal winners, no floor: seat 1 gets 1, seat 3 16
    assert ledger(b) == [-17, 1, 0, 16]


def test_three_legal_winners_keep_the_floor():
    b = gx.ex08_yipao_sanxiang()
    assert found(b) == []
    assert ledger(b) == [-32, 8, 8, 16]


# --- louhe_on_rob = off: robbing outside 漏和 both ways (§5.5) -------------------------------

def test_louhe_on_rob_off_a_passed_discard_does_not_bar_robbing():
    b = gx.rob_after_passed_discard(louhe_on_rob=False)
    assert found(b) == []
    assert ledger(b) == [-24, 0, 24, 0]


def test_louhe_on_rob_on_a_passed_discard_bars_robbing():
    b = gx.rob_after_passed_discard(louhe_on_rob=True)
    assert found(b) == [("WIN_DURING_LOUHE", 2)]
    assert ledger(b) == [0, 0, 0, 0]  # a barred rob is paid nothing


def test_louhe_on_rob_off_a_passed_rob_bars_no_discard():
    from audits.rules.family import PassBook
    from audits.rules.guangdong.table import pass_violation
    from schema.ruleset import resolve
    book = PassBook(4, ())
    book.let_rob_go(2, 4)  # seat 2 let a rob of 5m go
    on = resolve("guangdong-jipinghu")
    off = resolve("guangdong-jipinghu", {"louhe_on_rob": False})
    assert pass_violation(book, 2, "win", 4, lambda *a: True, rules=on) == "WIN_DURING_LOUHE"
    assert pass_violation(book, 2, "win", 4, lambda *a: True, rules=off) is None


# --- robbing under 一炮多响 and 截和 (§4) -------------------------------------------------------

def test_every_declared_legal_robber_wins():
    assert found(gx.two_robbers()) == []
    assert ledger(gx.two_robbers()) == [-48, 0, 24, 24]


def test_a_declared_legal_robber_left_out_is_win_missed_multi():
    assert found(gx.two_robbers((2,), name="t-missed")) == [("WIN_MISSED_MULTI", 3)]


def test_jiehu_robbing_the_first_from_the_adders_xiajia_wins_alone():
    b = gx.two_robbers((2,), {"multi_win": False}, "t-jiehu-rob")
    assert found(b) == []
    assert ledger(b) == [-24, 0, 24, 0]


def test_jiehu_robbing_a_later_robber_paid_takes_it_over_a_higher_claim():
    assert found(gx.two_robbers((3,), {"multi_win": False}, "t-jiehu-rob3")) == [("CLAIM_PRIORITY", 3)]
    assert found(gx.two_robbers((2, 3), {"multi_win": False}, "t-jiehu-rob23")) == [("CLAIM_PRIORITY", 3)]


# --- the corrected ledger under 截和 (§8.0) -----------------------------------------------------

def test_jiehu_ledger_pays_the_first_legal_declarer_whoever_the_log_paid():
    # discard: seat 3 (清一色, 16) paid instead of seat 1 (鸡和, 1), or both paid
    assert ledger(gx.jiehu(3)) == [-1, 1, 0, 0]
    assert ledger(reopened(gx.ex08_yipao_sanxiang(False), multi_win=False)) == [-1, 1, 0, 0]
    # robbing: seat 3 paid instead of seat 2, or both
    assert ledger(gx.two_robbers((3,), {"multi_win": False}, "t-l3")) == [-24, 0, 24, 0]
    assert ledger(gx.two_robbers((2, 3), {"multi_win": False}, "t-l23")) == [-24, 0, 24, 0]


def test_jiehu_ledger_near_miss_the_right_winner_is_paid_as_logged():
    assert ledger(gx.jiehu(1)) == [-1, 1, 0, 0]
    assert audited(gx.jiehu(1)).logged_scores[-1] == [-1, 1, 0, 0]


def test_multi_win_on_ledger_pays_every_legal_winner():
    # the near miss of 截和: the same two declarers both paid with multi_win on
    assert ledger(gx.ex08_yipao_sanxiang(False)) == [-17, 1, 0, 16]
