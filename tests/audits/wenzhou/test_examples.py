"""Every worked example of wenzhou.md §12 with its exact money (B = 1, lianzhuang = multiply
(the spec's linear), discard_payers = all unless stated)."""

from audits.rules.wenzhou import play
from audits.rules.wenzhou.settlement import rotation
from schema.tiles import TILE_INDEX as T

from .helpers import counts, facts, meld, pays, rules, score, settle, table


def test_example_1_soft_win_on_a_discard():
    r = rules("1z")  # indicator 东: W = 东, 白板 = 东
    sc = score(r, "123m 456m 789m 234s 6p 99s 1z 7p", "discard", "7p")
    assert sc.wins and sc.fans == ["ruanhu"] and sc.fan == 0 and sc.points == 1
    s = settle(r, [(2, sc.points)], "discard", 1, facts(0, 1))
    assert pays(s) == [(0, 2, 1, "win"), (1, 2, 1, "win"), (3, 2, 1, "win")] and s.scores == [-1, -1, 3, -1]
    s = settle(rules("1z", discard_payers="discarder_for_all"), [(2, 1)], "discard", 1, facts(0, 1))
    assert pays(s) == [(1, 2, 3, "win")]
    assert rotation(r, table(dealer=0, level=1), ([2], "discard", 1)) == (1, 1)


def test_example_2_hard_self_draw_by_a_level_2_dealer():
    r = rules("4z")  # W = 北, none held
    sc = score(r, "111m 234m 567p 789p 345s 88s", "self_draw", "8s")
    assert sc.wins and sc.fans == ["yinghu"] and sc.fan == 1 and sc.points == 2
    s = settle(r, [(0, 2)], "self_draw", None, facts(0, 2))
    assert pays(s) == [(1, 0, 4, "win"), (2, 0, 4, "win"), (3, 0, 4, "win")] and s.scores[0] == 12
    assert rotation(r, table(dealer=0, level=2), ([0], "self_draw", None)) == (0, 3)
    s = settle(rules("4z", lianzhuang="jinjie2"), [(0, 2)], "self_draw", None, facts(0, 2))
    assert s.scores == [24, -8, -8, -8]


def test_example_3_dandiao_with_a_level_3_dealer_paying():
    r = rules("2p")
    melds = [meld("chow", "123m", 2), meld("pong", "555p", 1), meld("pong", "111z", 0), meld("chow", "678s", 2),
             meld("pong", "999m", 1)]
    sc = score(r, "7s 7s", "discard", "7s", melds)
    assert sc.wins and sc.fans == ["yinghu", "quanqiuren"] and sc.fan == 2 and sc.points == 4
    s = settle(r, [(3, 4)], "discard", 0, facts(1, 3))
    assert pays(s) == [(0, 3, 4, "win"), (1, 3, 12, "win"), (2, 3, 4, "win")] and s.scores[3] == 20
    assert rotation(r, table(dealer=1, level=3), ([3], "discard", 0)) == (2, 1)


def test_example_3_caishen_dandiao_barred_on_a_discard_then_wins_by_self_draw():
    r = rules("2p")
    melds = [meld("chow", "123m", 2), meld("pong", "555p", 1), meld("pong", "111z", 0), meld("chow", "678s", 2),
             meld("pong", "999m", 1)]
    barred = score(r, "2p 7s", "discard", "7s", melds)
    assert not barred.wins and barred.complete and barred.code == "WIN_CAISHEN_DANDIAO_DISCARD"
    # near miss: with caishen_dandiao = free the same discard win stands (单吊, ×4)
    free = score(rules("2p", caishen_dandiao="free"), "2p 7s", "discard", "7s", melds)
    assert free.wins and free.points == 4
    drawn = score(r, "2p 3m", "self_draw", "3m", melds)
    assert drawn.wins and drawn.fans == ["ruanhu", "quanqiuren"] and drawn.points == 4
    s = settle(r, [(3, drawn.points)], "self_draw", None, facts(1, 3))
    assert pays(s) == [(0, 3, 4, "win"), (1, 3, 12, "win"), (2, 3, 4, "win")]


def test_example_4_sancaishen_with_jinjie1():
    r = rules("5s", lianzhuang="jinjie1")
    # (a) no shape: the bare win, 硬, M = 2
    bare = score(r, "5s 5s 5s 1m 4m 7m 1p 4p 7p 1s 4s 7s 1z 2z 3z 4z 6z", "self_draw", "5s")
    assert bare.wins and bare.fans == ["yinghu", "sancaishen_bare"] and bare.points == 2
    s = settle(r, [(1, 2)], "self_draw", None, facts(0, 1))
    assert pays(s) == [(0, 1, 4, "win"), (2, 1, 2, "win"), (3, 1, 2, "win")] and s.scores[1] == 8
    # near miss: the same tiles on a discard do not win (sancaishen_on_discard off)
    assert not score(r, "5s 5s 5s 1m 4m 7m 1p 4p 7p 1s 4s 7s 1z 2z 3z 4z 6z", "discard", "6z").wins
    # (b) a standard shape with the three 财神 standing in: 三财神 双翻, M = 4
    std = score(r, "123m 456m 789m 12p 5p 5p 7z 5s 5s 5s", "self_draw", "5s")
    assert std.wins and "sancaishen" in std.fans and std.points == 4
    assert settle(r, [(1, 4)], "self_draw", None, facts(0, 1)).scores == [-8, 16, -4, -4]
    # (c) lazila and all three read as 5s (a 5s triplet): M = 8
    lz = rules("5s", lianzhuang="jinjie1", lazila=True)
    gw = score(lz, "123m 456m 789m 123p 77z 5s 5s 5s", "self_draw", "5s")
    assert gw.wins and "sancai_guiwei" in gw.fans and gw.points == 8 and gw.fan == 3
    assert settle(lz, [(1, 8)], "self_draw", None, facts(0, 1)).scores == [-16, 32, -8, -8]
    # near miss: without lazila the same hand is 三财神 ×4
    assert score(r, "123m 456m 789m 123p 77z 5s 5s 5s", "self_draw", "5s").points == 4
    assert rotation(r, table(dealer=0, level=1), ([1], "self_draw", None)) == (1, 1)


def test_example_5_honour_order_two_breaches_are_one_finding():
    r = rules("9p")
    held = counts("3z 4z 5m 1m 2m 3m 6p 7p 8p 1s 2s 3s 4s 5s 6s 7s 8s")
    v = play.honour_violation(r, held, 2, T["5m"], (1, T["3z"]))
    # two breaches in one discard (rule 2 and rule 3), one finding naming both
    assert v is not None and v.code == "HONOUR_DISCARD_ORDER" and "rule 2" in v.message and "rule 3" in v.message
    assert v.expected == ["3z"]
    # discarding 北 still breaks rule 3 (not rule 2: 北 is a single honour); only 西 is legal
    north = play.honour_violation(r, held, 2, T["4z"], (1, T["3z"]))
    assert north is not None and "rule 3" in north.message and "rule 2" not in north.message
    assert play.honour_violation(r, held, 2, T["3z"], (1, T["3z"])) is None
    # no previous 西: either single honour is legal (rule 2), a suited tile is not
    assert play.honour_violation(r, held, 2, T["4z"], (1, T["9m"])) is None
    assert play.honour_violation(r, held, 2, T["5m"], (1, T["9m"])).code == "HONOUR_DISCARD_ORDER"
    # honour_first off: no order
    off = rules("9p", honour_first=False)
    verdict = play.discard_rule(off, table(hands=[held] * 4, latest_discard=(1, T["3z"])), 2, T["5m"])
    assert verdict.violation is None


def test_example_5_jiehe_pays_the_first_winner():
    r = rules("9p")
    s = settle(r, [(1, 2)], "discard", 0, facts(2, 1))
    assert pays(s) == [(0, 1, 2, "win"), (2, 1, 2, "win"), (3, 1, 2, "win")] and s.scores[1] == 6
    assert rotation(r, table(dealer=2, level=1), ([1], "discard", 0)) == (3, 1)


def test_example_6_every_side_option_at_once():
    r = rules("9p", maidi=True, caishenqian=True, kong_payments="at_end")
    f = facts(0, 2, bought=(1, 0, 0, 1), held=(2, 0, 0, 1), kongs=((), (), ("kong_concealed",), ()))
    s = settle(r, [(3, 1)], "discard", 1, f)
    by_reason = {}
    for t in s.transfers:
        by_reason.setdefault(t.reason, []).append((t.payer, t.payee, t.amount))
    assert sorted(by_reason["win"]) == [(0, 3, 6), (1, 3, 1), (2, 3, 1)]
    assert s.scores == [-3, -6, 2, 7]
    d = settle(rules("9p", maidi=True, caishenqian=True, kong_payments="at_end",
                     discard_payers="discarder_for_all"), [(3, 1)], "discard", 1, f)
    assert [t for t in d.transfers if t.reason == "win"][0].amount == 8 and d.scores == [3, -13, 3, 7]
    # near miss: without the side options only the win is paid
    assert settle(rules("9p"), [(3, 1)], "discard", 1, facts(0, 2)).scores == [-2, -1, -1, 4]


def test_example_7_levels_across_hands():
    r = rules("9p")
    assert rotation(r, table(0, 1), ([0], "self_draw", None)) == (0, 2)
    assert rotation(r, table(0, 2), None) == (0, 3)  # drawn: stay, L + 1
    assert rotation(r, table(0, 3), ([0], "discard", 2)) == (0, 4)
    assert rotation(r, table(0, 4), ([0], "self_draw", None)) == (None, 1)  # redraw: whoever, at 1
    assert rotation(rules("9p", after_fourth="pass"), table(0, 4), None) == (1, 1)
    assert rotation(r, table(0, 3), ([2], "discard", 1)) == (1, 1)
    # the other drawn-hand rules
    assert rotation(rules("9p", draw_dealer="stay_same_level"), table(0, 2), None) == (0, 2)
    assert rotation(rules("9p", draw_dealer="pass_if_kong"), table(0, 2, kongs=(0, 1, 0, 0)), None) == (1, 1)
    assert rotation(rules("9p", draw_dealer="pass_if_kong"), table(0, 2), None) == (0, 2)
    assert rotation(rules("9p", draw_dealer="next"), table(0, 2), None) == (1, 1)
    # in hand 4 a non-dealer winner with M = 2 collects 4 × 2 from the dealer, 2 from the others
    assert pays(settle(r, [(2, 2)], "discard", 1, facts(0, 4))) == [(0, 2, 8, "win"), (1, 2, 2, "win"),
                                                                    (3, 2, 2, "win")]


def test_example_8_dihe():
    r = rules("9p")
    no_melds = [[], [], [], []]
    first = table(dealer=1, melds=no_melds, discards=[[], [[T["3m"], -1]], [], []], last_discard=(1, T["3m"]))
    assert play.heavenly(r, first, 3, "discard") == "dihe"
    sc = score(r, "123m 456m 789m 234s 6p 99s 9p 7p", "discard", "7p", heavenly="dihe")
    assert sc.fans == ["ruanhu", "dihe"] and sc.points == 4
    assert pays(settle(r, [(3, 4)], "discard", 1, facts(1, 1))) == [(0, 3, 4, "win"), (1, 3, 4, "win"),
                                                                    (2, 3, 4, "win")]
    # first_round_shangjia: seat 1 is not seat 3's 上家, so no 地和 (M = 1)
    assert play.heavenly(rules("9p", dihe_scope="first_round_shangjia"), first, 3, "discard") == ""
    assert play.heavenly(rules("9p", dihe_scope="first_round_shangjia"), first, 2, "discard") == "dihe"
    # near miss: a second discard ends the 地和 window
    later = table(dealer=1, melds=no_melds, discards=[[], [[T["3m"], -1]], [[T["4m"], -1]], []],
                  last_discard=(2, T["4m"]))
    assert play.heavenly(r, later, 3, "discard") == ""
