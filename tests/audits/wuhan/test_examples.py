"""wuhan.md §12: every worked example, with its exact money (the scoring and money rules;
the same examples run as logs in test_logs.py)."""

from __future__ import annotations

import pytest

from audits.rules.wuhan import laizi
from schema.tiles import TILE_INDEX as T

from .helpers import chow, fans, kong, paid, pong, rules, score


@pytest.mark.parametrize("pi, indicator, wild", [
    (("7z",), "4p", "5p"), (("7z",), "9s", "1s"), (("7z",), "4z", "6z"), (("7z",), "7z", "6z"),
    (("7z",), "6z", "5z"), (("7z",), "5z", "1z"), (("7z",), "1z", "2z"), (("7z",), "3m", "4m"),
    (("7z", "6z"), "4z", "5z"), (("7z", "6z"), "7z", "5z"), (("7z", "6z"), "6z", "5z"), (("7z", "6z"), "5z", "1z"),
])
def test_example1_the_wild_is_the_kind_after_the_indicator(pi, indicator, wild):
    assert laizi.wild_of(rules("5p", pi_tiles=pi), T[indicator]) == T[wild]


def test_example1_near_miss_the_red_dragon_is_never_the_wild():
    assert laizi.wild_of(rules("5p"), T["4z"]) != T["7z"]


EX2 = dict(how="discard", win="5s", seat=2, from_seat=1, dealer=0, indicator="4p",
           seat_fans=fans((0,), (1,), (1,), (1, 0, 0, 1)))


def test_example2_pihu_on_a_discard_three_seats_pay():
    sc = score("5p", "123m456m34s8m5p5s", [pong("7s", 0)], **EX2)
    assert sc.wins and sc.fans == ["jihu"] and sc.fan == 1 and sc.points == 1
    assert paid(sc) == {1: 8, 0: 4, 3: 8} and sc.total == 20


def test_example2_discarder_alone_pays_with_discard_payers_discarder():
    sc = score("5p", "123m456m34s8m5p5s", [pong("7s", 0)], options={"discard_payers": "discarder"}, **EX2)
    assert paid(sc) == {1: 8}


@pytest.mark.parametrize("basis", ["feeder", "min"])
def test_example2_below_qihu_is_not_a_legal_win(basis):
    sc = score("5p", "123m456m34s8m5p5s", [pong("7s", 0)], options={"qihu": 16, "qihu_basis": basis}, **EX2)
    assert not sc.wins and sc.code == "WIN_BELOW_MIN_FAN"


def test_example2_near_miss_qihu_8_is_met_by_the_feeder():
    sc = score("5p", "123m456m34s8m5p5s", [pong("7s", 0)], options={"qihu": 8}, **EX2)
    assert sc.wins


EX3 = dict(how="self_draw", win="9s", seat=0, dealer=0, seat_fans=fans((2, 1), (1,), (0,), (1, 0, 1)))
EX3_MELDS = [chow("2m", 3), kong("9p", 2)]


def test_example3_pihu_self_draw_dealer_hard():
    sc = score("5p", "567s789s22p", EX3_MELDS, **EX3)
    assert sc.fans == ["jihu", "yinghu"] and sc.fan == 5
    assert paid(sc) == {1: 64, 2: 32, 3: 256} and sc.total == 352


@pytest.mark.parametrize("basis", ["feeder", "min"])
def test_example3_qihu_32_is_met(basis):
    assert score("5p", "567s789s22p", EX3_MELDS, options={"qihu": 32, "qihu_basis": basis}, **EX3).wins


def test_example3_near_miss_qihu_64_fails_on_the_smallest():
    assert score("5p", "567s789s22p", EX3_MELDS, options={"qihu": 64, "qihu_basis": "min"}, **EX3).code \
        == "WIN_BELOW_MIN_FAN"


def test_example3_without_the_dealer_fan():
    sc = score("5p", "567s789s22p", EX3_MELDS, options={"dealer_fan": False}, **EX3)
    assert sc.fan == 4 and sc.total == 176


EX4 = dict(how="self_draw", win="4m", seat=1, dealer=0, seat_fans=fans((1,), (2,), (0, 0, 0, 0, 1), (0,)))
EX4_MELDS = [pong("3m", 0), chow("7m", 0)]


def test_example4_qingyise_self_draw_times_one_and_a_half():
    sc = score("5p", "123m55m6m5p4m", EX4_MELDS, **EX4)
    assert sc.fans == ["qingyise"] and sc.points == 10 and sc.fan == 1
    assert paid(sc) == {0: 60, 2: 120, 3: 30} and sc.total == 210 and sc.liable is None


def test_example4_koukou_caps_one_seat():
    sc = score("5p", "123m55m6m5p4m", EX4_MELDS, options={"fan_mode": "koukou"}, **EX4)
    assert sc.fan == 3 and paid(sc) == {0: 160, 2: 300, 3: 80} and sc.total == 540 and sc.cap_kind == "cap"


EX5 = dict(how="discard", win="4p", seat=2, from_seat=3, dealer=1, indicator="4s", third_feeder=0,
           seat_fans=fans((0, 0, 1), (1, 0, 0, 2), (3,), (1,)))
EX5_MELDS = [pong("1p", 3), chow("4p", 1), pong("9p", 0)]


def test_example5_qingyise_sanpu_and_the_cap():
    sc = score("5s", "23p77p4p", EX5_MELDS, **EX5)
    assert sc.fans == ["qingyise", "yinghu"] and sc.fan == 2
    assert paid(sc) == {3: 120, 0: 160, 1: 300}
    assert sc.liable == (0, "bao_sanpu")


def test_example5_near_miss_no_bao_with_bao_sanpu_off():
    sc = score("5s", "23p77p4p", EX5_MELDS, options={"bao_sanpu": "off"}, **EX5)
    assert paid(sc) == {3: 120, 0: 160, 1: 300} and sc.liable is None


def test_example6_qianggang_the_adder_pays_all():
    sc = score("5p", "78p123s789s22s6p", [chow("3m", 1)], how="robbed_kong", win="6p", seat=2, from_seat=0,
               dealer=0, seat_fans=fans((1,), (0,), (1,), (1,)))
    assert sc.fans == ["qianggang", "yinghu"] and sc.fan == 2
    assert paid(sc) == {0: 120, 1: 40, 3: 80} and sc.liable == (0, "qianggang")


def test_example6_near_miss_without_qianggang_bao_each_seat_pays():
    sc = score("5p", "78p123s789s22s6p", [chow("3m", 1)], how="robbed_kong", win="6p", seat=2, from_seat=0,
               dealer=0, seat_fans=fans((1,), (0,), (1,), (1,)), options={"qianggang_bao": False})
    assert sc.liable is None


EX7 = dict(how="self_draw", win="9m", seat=3, dealer=0, indicator="9s", after_kong=True,
           seat_fans=fans((1,), (0,), (1, 0, 1), (2, 1, 0, 2, 1)))
EX7_MELDS = [pong("2m", 2), kong("8s", 0)]


def test_example7_gangkai_duidui_jinding_and_yangguangding():
    sc = score("1s", "1z1z1z999m55p", EX7_MELDS, **EX7)
    assert sorted(sc.fans) == ["duidui", "gangshang_kaihua", "yinghu"] and sc.points == 20 and sc.fan == 7
    assert [x.multiple for x in sc.shares] == [5120, 2560, 20480]
    assert paid(sc) == {0: 400, 1: 500, 2: 400} and sc.total == 1300 and sc.cap_kind == "jinding"


@pytest.mark.parametrize("options, total", [({"fan_mode": "koukou"}, 1600), ({"dahu_stack": "add"}, 1300),
                                            ({"hading": 600}, 1300), ({"payment_cap": 0}, 28160)])
def test_example7_options(options, total):
    assert score("1s", "1z1z1z999m55p", EX7_MELDS, options=options, **EX7).total == total


EX8 = dict(how="discard", win="8m", seat=1, from_seat=3, dealer=0, seat_fans=fans((0,), (4,), (1,), (1,)))
EX8_MELDS = [chow("1s", 0), pong("5m", 3), pong("1z", 2), chow("6p", 0)]


@pytest.mark.parametrize("ready, option, liable", [
    (True, "if_not_ready", None), (False, "if_not_ready", (3, "bao_quanqiuren")),
    (True, "always", (3, "bao_quanqiuren")), (False, "off", None)])
def test_example8_quanqiuren_and_the_ready_test(ready, option, liable):
    sc = score("5p", "8m8m", EX8_MELDS, feeder_ready=ready, options={"quanqiuren_bao": option}, **EX8)
    assert sc.fans == ["quanqiuren", "yinghu"] and sc.fan == 2
    assert paid(sc) == {3: 120, 0: 40, 2: 80} and sc.liable == liable


def test_example8_koukou_jinding():
    sc = score("5p", "8m8m", EX8_MELDS, feeder_ready=False, options={"fan_mode": "koukou"}, **EX8)
    assert sc.fan == 5 and paid(sc) == {3: 500, 0: 600, 2: 500} and sc.liable == (3, "bao_quanqiuren")


EX9 = dict(how="discard", win="6p", seat=2, from_seat=0, dealer=1, indicator="9s",
           seat_fans=fans((1,), (2,), (3,), (0,)))
EX9_MELDS = [chow("2m", 1), chow("5s", 1), pong("9p", 3)]


@pytest.mark.parametrize("mode, fw, want", [("kaikou", 1, {0: 8, 1: 8, 3: 2}), ("koukou", 3, {0: 32, 1: 64, 3: 8})])
def test_example9_kaikou_and_koukou(mode, fw, want):
    sc = score("1s", "55m7p1s6p", EX9_MELDS, options={"fan_mode": mode}, **EX9)
    assert sc.fans == ["jihu"] and sc.fan == fw and paid(sc) == want


def test_example10_haidi():
    sc = score("5p", "22s34m678p2m", [pong("9s", 1), chow("4m", 2)], how="self_draw", win="2m", seat=3, dealer=0,
               haidi_draw=True, seat_fans=fans((1,), (0,), (1, 1), (2,)))
    assert sc.fans == ["haidi", "yinghu"] and sc.fan == 2 and paid(sc) == {0: 80, 1: 40, 2: 160}


def test_example10_near_miss_the_same_draw_outside_the_haidi_phase_is_a_pihu():
    sc = score("5p", "22s34m678p2m", [pong("9s", 1), chow("4m", 2)], how="self_draw", win="2m", seat=3, dealer=0,
               seat_fans=fans((1,), (0,), (1, 1), (2,)))
    assert sc.fans == ["jihu", "yinghu"]


SEAT2 = dict(seat=2, dealer=0, seat_fans=fans((0,), (0,), (1,), (0,)))


def test_example11a_two_laizi_pihu():
    sc = score("5p", "123m456m34s8m5p5p", [pong("7s", 0)], how="self_draw", win="5p", **SEAT2)
    assert not sc.wins and sc.code == "WIN_LAIZI_LIMIT"


def test_example11a_near_miss_the_same_two_laizi_on_a_kong_replacement_win():
    sc = score("5p", "123m456m34s8m5p5p", [pong("7s", 0)], how="self_draw", win="5p", after_kong=True, **SEAT2)
    assert sc.wins and "gangshang_kaihua" in sc.fans


def test_example11b_pair_not_258():
    sc = score("5p", "123m456m345s3m3m", [pong("7s", 0)], how="discard", win="3m", from_seat=1, **SEAT2)
    assert sc.code == "WIN_PAIR_NOT_258"


def test_example11b_near_miss_pair_of_2m_wins():
    assert score("5p", "123m456m345s2m2m", [pong("7s", 0)], how="discard", win="2m", from_seat=1, **SEAT2).wins


def test_example11c_not_opened():
    sc = score("5p", "123m456m345s2m2m", [kong("9s", None, "kong_concealed")], how="self_draw", win="2m", **SEAT2)
    assert sc.code == "WIN_NOT_OPENED"


def test_example11d_holding_a_red_dragon():
    sc = score("5p", "123m456m345s7z2m2m", [pong("7s", 0)], how="self_draw", win="2m", **SEAT2)
    assert sc.code == "WIN_HOLDING_PI"


def test_example12_jiangyise_with_two_laizi():
    sc = score("6m", "5m8m2s5s8p6m6m5p", [pong("2p", 1), pong("8s", 2)], how="self_draw", win="5p", seat=3,
               dealer=0, indicator="5m", seat_fans=fans((0,), (1,), (0,), (2,)))
    assert sc.fans == ["jiangyise"] and sc.fan == 1 and paid(sc) == {0: 30, 1: 60, 2: 30} and sc.total == 120


def test_example12_near_miss_dahu_max_laizi_2_still_allows_two():
    sc = score("6m", "5m8m2s5s8p6m6m5p", [pong("2p", 1), pong("8s", 2)], how="self_draw", win="5p", seat=3,
               dealer=0, indicator="5m", seat_fans=fans((0,), (1,), (0,), (2,)), options={"dahu_max_laizi": 2})
    assert sc.wins
