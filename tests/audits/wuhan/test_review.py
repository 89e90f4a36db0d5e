"""An independent review of wuhan.md against the family (rules the worked examples leave
untested): each rule holding and a near miss failing, the expected figures derived by hand
from the text (§ cited in each test), never read back from the code.

B = 1, 开口番 and the defaults unless stated; the hands reuse §12's so each figure is that
example's with one thing changed."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from audits.rules.wuhan import fans as fans_mod
from audits.rules.wuhan import laizi, money, settlement, wins
from paipu.hand_cmd import evaluate
from paipu.sim.wuhan.examples import multi_win_qihu
from paipu.sim.wuhan.scenes import reopened
from schema.ruleset import resolve
from schema.tiles import TILE_INDEX as T

from .helpers import chow, fans, kong, paid, pong, rules, score
from .test_examples import (EX2, EX3, EX3_MELDS, EX4, EX4_MELDS, EX5, EX5_MELDS, EX7, EX7_MELDS, EX8_MELDS,
                            SEAT2)
from .test_logs import audit

EX2_HAND, EX2_MELDS = "123m456m34s8m5p5s", [pong("7s", 0)]
EX4_HAND = "123m55m6m5p4m"
EX5_HAND = "23p77p4p"
EX7_HAND = "1z1z1z999m55p"
EX10 = dict(how="self_draw", win="2m", seat=3, dealer=0, seat_fans=fans((1,), (0,), (1, 1), (2,)))
EX10_HAND, EX10_MELDS = "22s34m678p2m", [pong("9s", 1), chow("4m", 2)]
#: seat 2 (one call) wins on seat 1's discard; nobody else has a fan source
PLAIN = dict(how="discard", seat=2, from_seat=1, dealer=0, seat_fans=fans((0,), (0,), (1,), (0,)))


# --- §8.1 personal fans: 癞子杠 and the 发财杠 of 红中发财赖子杠 -----------------------------

def test_laizi_gang_fan_1_prices_a_laizi_kong_as_one_fan():
    # §12.4 with laizi_gang_fan = 1: seat 2's F = 1, 10 × 1.5 × 2^(1+1) = 60; 60 + 60 + 30
    sc = score("5p", EX4_HAND, EX4_MELDS, options={"laizi_gang_fan": 1}, **EX4)
    assert paid(sc) == {0: 60, 2: 60, 3: 30} and sc.total == 150


def test_near_miss_by_default_a_laizi_kong_is_two_fans():
    assert paid(score("5p", EX4_HAND, EX4_MELDS, **EX4))[2] == 120


def _table(set_aside, discards=((), (), (), ())):
    return SimpleNamespace(players=[0] * 4, melds=[[] for _ in range(4)], set_aside=[list(x) for x in set_aside],
                           discards=[[(t,) for t in d] for d in discards])


def test_a_facai_kong_is_one_fan_like_a_hongzhong_kong():
    # §3.1, §8.1: under 红中发财赖子杠 (pi_tiles 7z 6z) a 发财 set aside is a 发财杠, 1 番 like 红中杠
    r = rules("5p", pi_tiles=("7z", "6z"))
    got = settlement._seat_fans(r, _table([[], [], [], [T["6z"], T["7z"], T["5p"]]]), None)
    assert got[3] == money.SeatFan(0, 0, 0, 2, 1)
    assert money.personal(r, got[3]) == 1 + 1 + 2


def test_near_miss_a_discarded_pi_tile_keeps_its_fan_an_ordinary_discard_none():
    # §5.3: a 红中 logged as a discard is the 红中杠 it should have been (its 番 counts); a 发财
    # discarded under the default 痞 (红中 alone) is an ordinary tile
    r = rules("5p")
    got = settlement._seat_fans(r, _table([[], [], [], []], [[T["7z"], T["6z"]], [], [], []]), None)
    assert got[0] == money.SeatFan(0, 0, 0, 1, 0)


# --- §8.2 win fans: 硬胡 in a 大胡, the self-draw on 杠开 / 海底捞 -----------------------------

def test_dahu_yinghu_fan_2_prices_hard_in_a_big_win_as_two():
    # §12.5 with dahu_yinghu_fan = 2: F_w = 1 + 2 = 3; 10 × 1.5 × 2^4 = 240, 10 × 2^5 = 320 → 300,
    # 10 × 2^6 = 640 → 300; not all three reach 300: 840, paid by seat 0 (放三铺)
    sc = score("5s", EX5_HAND, EX5_MELDS, options={"dahu_yinghu_fan": 2}, **EX5)
    assert sc.fan == 3 and paid(sc) == {3: 240, 0: 300, 1: 300} and sc.total == 840
    assert sc.cap_kind == "cap" and sc.liable == (0, "bao_sanpu")


def test_near_miss_dahu_yinghu_fan_leaves_a_hard_pihu_at_one():
    # §8.2: the option applies to 大胡 only: §12.3's hard 屁胡 keeps F_w = 5 and 352
    sc = score("5p", "567s789s22p", EX3_MELDS, options={"dahu_yinghu_fan": 2}, **EX3)
    assert sc.fan == 5 and sc.total == 352


def test_kaihua_haidi_zimo_gives_haidi_the_self_draw_factor():
    # §8.4: with kaihua_haidi_zimo, §12.10's 海底捞 is a self-draw with the ×1.5 for every seat:
    # 15 × 2^3 = 120, 15 × 2^2 = 60, 15 × 2^4 = 240
    sc = score("5p", EX10_HAND, EX10_MELDS, haidi_draw=True, options={"kaihua_haidi_zimo": True}, **EX10)
    assert paid(sc) == {0: 120, 1: 60, 2: 240} and sc.total == 420


def test_kaihua_haidi_zimo_under_koukou_is_a_fan():
    # 口口番: the bonus is 1 fan, Z = 1: F_w = 2 calls + 硬胡 1 + 自摸 1 = 4; seat 0 (1 call)
    # 10 × 2^5 = 320 → 300, seat 1 10 × 2^4 = 160, seat 2 (1 call + 明杠) 10 × 2^6 → 300
    sc = score("5p", EX10_HAND, EX10_MELDS, haidi_draw=True,
               options={"kaihua_haidi_zimo": True, "fan_mode": "koukou"}, **EX10)
    assert sc.fan == 4 and paid(sc) == {0: 300, 1: 160, 2: 300}


def test_near_miss_by_default_haidi_has_no_self_draw_bonus():
    sc = score("5p", EX10_HAND, EX10_MELDS, haidi_draw=True, **EX10)
    assert paid(sc) == {0: 80, 1: 40, 2: 160}


# --- §8.4 the big win's bonus: dahu_bonus -------------------------------------------------

def test_dahu_bonus_fan_under_kaikou_is_one_fan_not_the_factor():
    # §12.4 with dahu_bonus = fan: F_w = 1 + 自摸 1 = 2, no ×1.5: 10 × 2^3, 10 × 2^4, 10 × 2^2
    sc = score("5p", EX4_HAND, EX4_MELDS, options={"dahu_bonus": "fan"}, **EX4)
    assert sc.fan == 2 and paid(sc) == {0: 80, 2: 160, 3: 40}


def test_dahu_bonus_fan_gives_the_discarder_the_fang_chong_fan():
    # §12.5 with dahu_bonus = fan: seat 3's F = 1 + 放冲 1: 10 × 2^(2+2) = 160 (not 120)
    sc = score("5s", EX5_HAND, EX5_MELDS, options={"dahu_bonus": "fan"}, **EX5)
    assert paid(sc) == {3: 160, 0: 160, 1: 300}


def test_dahu_bonus_x15_under_koukou_is_the_factor_not_a_fan():
    # §12.4 under 口口番 with dahu_bonus = x1.5: F_w = 2 calls, every seat × 1.5:
    # 15 × 2^3 = 120, 15 × 2^4 = 240, 15 × 2^2 = 60
    sc = score("5p", EX4_HAND, EX4_MELDS, options={"dahu_bonus": "x1.5", "fan_mode": "koukou"}, **EX4)
    assert sc.fan == 2 and paid(sc) == {0: 120, 2: 240, 3: 60}


# --- §8.3 the hand base ---------------------------------------------------------------------

def test_dahu_base_sets_the_big_wins_base():
    # §12.7 with dahu_base 5 and no cap: H = 5 × 2 = 10: 10 × 2^8, 10 × 2^7, 10 × 2^10
    sc = score("1s", EX7_HAND, EX7_MELDS, options={"dahu_base": 5, "payment_cap": 0}, **EX7)
    assert sc.points == 10 and paid(sc) == {0: 2560, 1: 1280, 2: 10240}


def test_three_big_wins_double_twice():
    # §7.3, §8.3: 清一色 + 碰碰胡 + 杠开 is k = 3, H = 10 × 2^2 = 40; hard, F_w 2; no cap
    sc = score("5p", "111m333m444m99m", [pong("7m", 0)], how="self_draw", after_kong=True, win="9m", seat=2,
               dealer=0, seat_fans=fans((0,), (0,), (1,), (0,)), options={"payment_cap": 0})
    assert sorted(sc.fans) == ["duidui", "gangshang_kaihua", "qingyise", "yinghu"] and sc.points == 40
    assert paid(sc) == {0: 160, 1: 160, 3: 160}


def test_three_big_wins_add_under_dahu_stack_add():
    # dahu_stack = add: H = 10 × 3 = 30
    sc = score("5p", "111m333m444m99m", [pong("7m", 0)], how="self_draw", after_kong=True, win="9m", seat=2,
               dealer=0, seat_fans=fans((0,), (0,), (1,), (0,)), options={"payment_cap": 0, "dahu_stack": "add"})
    assert sc.points == 30 and paid(sc) == {0: 120, 1: 120, 3: 120}


def test_qingyise_and_jiangyise_holding_together_count_once():
    # §7.3: 清一色, 将一色 and 风一色 are one 大胡 even where two hold: no reading names two of them
    # (with 碰碰胡 beside, k is 2, never 3)
    both = wins.Shapes(standard=True, std258=True, duidui=True, qingyise=True, qys_duidui=True, jiangyise=True,
                       jys_duidui=True, fengyise=False, fys_duidui=False)
    readings = [names for names, _pair in fans_mod._structures(resolve("wuhan-hzlzg"), both)]
    assert ["qingyise", "duidui"] in readings and ["jiangyise", "duidui"] in readings
    assert all(len(set(names) & {"qingyise", "jiangyise", "fengyise"}) <= 1 for names in readings)
    assert max(len(names) for names in readings) == 2


# --- §7.3 / §7.5 what each big win needs ------------------------------------------------------

def test_quanqiuren_by_self_draw_is_no_quanqiuren():
    # §7.3: 全求人 is won on a discard; §12.8's hand self-drawn is a hard 屁胡: F_w = 1 + 自摸 1 +
    # 硬胡 1 = 3; seat 0 (dealer fan) 2^4, seat 2 (1 call) 2^4, seat 3 (1 call) 2^4
    sc = score("5p", "8m8m", EX8_MELDS, how="self_draw", win="8m", seat=1, dealer=0,
               seat_fans=fans((0,), (4,), (1,), (1,)))
    assert sc.fans == ["jihu", "yinghu"] and sc.fan == 3 and paid(sc) == {0: 16, 2: 16, 3: 16}


def test_quanqiuren_by_robbing_is_only_qianggang():
    sc = score("5p", "8m8m", EX8_MELDS, how="robbed_kong", win="8m", seat=1, from_seat=3, dealer=0,
               seat_fans=fans((0,), (4,), (1,), (1,)))
    assert sc.fans == ["qianggang", "yinghu"] and sc.liable == (3, "qianggang")


def test_quanqiuren_needs_a_258_pair():
    # §7.5: 全求人 on its own needs a 2-5-8 pair: §12.8 on a 7m is WIN_PAIR_NOT_258 (chows: no 碰碰胡)
    sc = score("5p", "7m7m", EX8_MELDS, how="discard", win="7m", seat=1, from_seat=3, dealer=0,
               seat_fans=fans((0,), (4,), (1,), (1,)), feeder_ready=True)
    assert sc.code == "WIN_PAIR_NOT_258"


def test_gangkai_needs_a_258_pair_and_its_near_miss():
    # §7.5: 杠开 on its own needs a 2-5-8 pair (pair 3m fails, 2m wins: H 10, F_w 2, no self-draw bonus)
    bad = score("5p", "123m456m345s3m3m", [pong("7s", 0)], how="self_draw", after_kong=True, win="3m", **SEAT2)
    good = score("5p", "123m456m345s2m2m", [pong("7s", 0)], how="self_draw", after_kong=True, win="2m", **SEAT2)
    assert bad.code == "WIN_PAIR_NOT_258"
    assert good.fans == ["gangshang_kaihua", "yinghu"] and paid(good) == {3: 40, 0: 40, 1: 40}


def test_pengpenghu_takes_any_pair():
    # §7.5: 碰碰胡 excuses the pair: 222m 333p 444s 66m + pong 7s on a discard, hard, H 10, F_w 2:
    # the discarder 15 × 2^2 = 60, the others 10 × 2^2 = 40
    sc = score("5p", "222m333p444s6m6m", [pong("7s", 0)], win="6m", **PLAIN)
    assert sc.fans == ["duidui", "yinghu"] and paid(sc) == {1: 60, 0: 40, 3: 40}


def test_pengpenghu_dahu_off_makes_it_a_pihu_that_needs_a_258_pair():
    # §7.3 pengpenghu_dahu = off: the same hand is a 屁胡, and its 66m pair fails the pair rule
    sc = score("5p", "222m333p444s6m6m", [pong("7s", 0)], win="6m", options={"pengpenghu_dahu": False}, **PLAIN)
    assert sc.code == "WIN_PAIR_NOT_258"


def test_pengpenghu_dahu_off_with_a_258_pair_pays_as_a_pihu():
    # ... and with a 55m pair a hard 屁胡: F_w 2; discarder 2^(2+1) = 8, dealer 2^(2+1) = 8, seat 3 4
    sc = score("5p", "222m333p444s5m5m", [pong("7s", 0)], win="5m", options={"pengpenghu_dahu": False}, **PLAIN)
    assert sc.fans == ["jihu", "yinghu"] and paid(sc) == {1: 8, 0: 8, 3: 4}


def test_fengyise_and_its_near_miss_with_facai_a_pi_tile():
    # §7.2 乱风: 东 南 pongs, 西西 北北 白白 发发 on a discard: hard 风一色, H 10, F_w 2:
    # 60 + 40 + 40;
    # with pi_tiles 7z 6z, 发 is a 痞 tile: the winner holds one (WIN_HOLDING_PI)
    hand, melds = "3z3z4z4z5z5z6z6z", [pong("1z", 0), pong("2z", 1)]
    sc = score("5p", hand, melds, win="6z", **PLAIN)
    assert sc.fans == ["fengyise", "yinghu"] and paid(sc) == {1: 60, 0: 40, 3: 40}
    assert score("5p", hand, melds, win="6z", options={"pi_tiles": ["7z", "6z"]}, **PLAIN).code == "WIN_HOLDING_PI"


# --- §7.1 the order of the codes; §7.4 the 癞子 limit of a 大胡 --------------------------------

def test_not_opened_comes_before_holding_a_pi_tile():
    # §7.1: the first condition that fails gives the code: unopened and holding 中 → WIN_NOT_OPENED
    sc = score("5p", "123m456m345s7z2m2m", [kong("9s", None, "kong_concealed")], how="self_draw", win="2m", **SEAT2)
    assert sc.code == "WIN_NOT_OPENED"


def test_dahu_max_laizi_2_refuses_three_laizi_and_its_near_miss():
    # §7.4: §12.12's 将一色 with a third 6m: unlimited by default (H 10, the same 120), and
    # WIN_LAIZI_LIMIT with dahu_max_laizi = 2
    args = ("6m", "5m8m2s5s6m6m6m5p", [pong("2p", 1), pong("8s", 2)])
    kw = dict(how="self_draw", win="5p", seat=3, dealer=0, indicator="5m", seat_fans=fans((0,), (1,), (0,), (2,)))
    assert score(*args, **kw).total == 120
    assert score(*args, options={"dahu_max_laizi": 2}, **kw).code == "WIN_LAIZI_LIMIT"


# --- §3.2 the max-four rule -------------------------------------------------------------------

MAX4 = dict(how="discard", win="2s", seat=2, from_seat=1, dealer=0, indicator="4p",
            seat_fans=fans((0,), (0,), (1,), (0,)))


def test_max_four_counts_the_indicator_and_the_seats_melds():
    # W 5p (indicator 4p).  4p 4p + 癞子 + 123m 456m + 2s 2s with a chow 234p: the 癞子 as a third
    # concealed 4p would be the fifth (2 held + 1 in the chow + the indicator + 1); the other
    # reading, pair 44p + pong 2s, fails the pair rule
    sc = score("5p", "4p4p5p123m456m2s2s", [chow("2p", 1)], **MAX4)
    assert sc.code == "WIN_PAIR_NOT_258"


def test_near_miss_max_four_with_the_chow_elsewhere_the_laizi_stands_for_4p():
    # the same with the chow 123s: 2 held + the indicator + 1 = 4: a soft 屁胡 (pair 2s), 2 + 4 + 4
    sc = score("5p", "4p4p5p123m456m2s2s", [chow("1s", 1)], **MAX4)
    assert sc.wins and sc.fans == ["jihu"] and paid(sc) == {1: 4, 0: 4, 3: 2}


def test_wild_max_four_off_lets_the_laizi_be_the_fifth():
    sc = score("5p", "4p4p5p123m456m2s2s", [chow("2p", 1)], options={"wild_max_four": False}, **MAX4)
    assert sc.wins and sc.fans == ["jihu"]


def test_max_four_counts_a_pong_of_the_kind():
    # §12.2's hand with a pong of 8m instead of 7s: the 癞子 could only be a fifth 8m
    sc = score("5p", "123m456m345s8m5p", [pong("8m", 0)], **{**MAX4, "win": "5s"})
    assert not sc.wins and not sc.complete
    off = score("5p", "123m456m345s8m5p", [pong("8m", 0)], options={"wild_max_four": False}, **{**MAX4, "win": "5s"})
    assert off.wins


# --- §9.2 who pays; §9.3 the cap, 金顶, 阳光顶; the base ------------------------------------------

def test_discarder_pihu_the_discarder_alone_pays_a_pihu():
    sc = score("5p", EX2_HAND, EX2_MELDS, options={"discard_payers": "discarder_pihu"}, **EX2)
    assert paid(sc) == {1: 8}


def test_near_miss_discarder_pihu_all_three_pay_a_dahu():
    sc = score("5s", EX5_HAND, EX5_MELDS, options={"discard_payers": "discarder_pihu", "bao_sanpu": "off"}, **EX5)
    assert paid(sc) == {3: 120, 0: 160, 1: 300}


def test_the_liable_seat_pays_even_when_it_is_no_paying_seat():
    # §9.5: discard_payers = discarder: seat 3 alone owes 120; the third call's feeder, seat 0, pays it
    sc = score("5s", EX5_HAND, EX5_MELDS, options={"discard_payers": "discarder"}, **EX5)
    assert paid(sc) == {3: 120} and sc.liable == (0, "bao_sanpu")


@pytest.mark.parametrize("options, want", [
    ({"jinding": 0}, {0: 300, 1: 300, 2: 300}),                  # no 金顶: each capped
    ({"yangguangding": 700}, {0: 400, 1: 700, 2: 400}),          # 阳光顶 set apart
    ({"jinding": 450}, {0: 450, 1: 550, 2: 450}),                # 阳光顶 defaults to J + 100
    ({"payment_cap": 500}, {0: 600, 1: 700, 2: 600}),            # J = C + 100, G = J + 100
    ({"base": 2}, {0: 800, 1: 1000, 2: 800}),                    # B × the fixed amount
])
def test_jinding_amounts_by_option(options, want):
    # §12.7's multiples 5120 / 2560 / 20480 all reach every cap here
    assert paid(score("1s", EX7_HAND, EX7_MELDS, options=options, **EX7)) == want


def test_the_base_multiplies_each_capped_amount():
    assert paid(score("5p", EX2_HAND, EX2_MELDS, options={"base": 3}, **EX2)) == {1: 24, 0: 12, 3: 24}


# --- §9.5 包: which case decides --------------------------------------------------------------

#: seat 1's 清一色 全求人 of 条: chow 123s (seat 0), pong 5s (seat 3), pong 9s (seat 2, its third
#: call), chow 678s (seat 0); seat 3 throws 8s, the pair
QYS_QQR = dict(how="discard", win="8s", seat=1, from_seat=3, dealer=0, indicator="4p", third_feeder=2,
               feeder_ready=False, seat_fans=fans((0,), (4,), (1,), (1,)))
QYS_QQR_MELDS = [chow("1s", 0), pong("5s", 3), pong("9s", 2), chow("6s", 0)]


def test_sanpu_comes_first_by_default():
    sc = score("5p", "8s8s", QYS_QQR_MELDS, **QYS_QQR)
    assert {"qingyise", "quanqiuren"} <= set(sc.fans) and sc.liable == (2, "bao_sanpu")


def test_quanqiuren_first_puts_the_discarder_first():
    sc = score("5p", "8s8s", QYS_QQR_MELDS, options={"bao_precedence": "quanqiuren_first"}, **QYS_QQR)
    assert sc.liable == (3, "bao_quanqiuren")


def test_bao_sanpu_qingyise_jiangyise_makes_jiangyise_liable_too():
    # §9.5 a: a 将一色 whose third call came from seat 0 (pongs 2p, 8s, 5m from seats 1, 2, 0)
    hand, melds = "2m2m5s5s", [pong("2p", 1), pong("8s", 2), pong("5m", 0)]
    kw = dict(how="discard", win="8p", seat=3, from_seat=1, dealer=0, third_feeder=0,
              seat_fans=fans((0,), (1,), (1,), (3,)))
    assert score("5p", hand + "8p", melds, **kw).liable is None
    sc = score("5p", hand + "8p", melds, options={"bao_sanpu": "qingyise_jiangyise"}, **kw)
    assert "jiangyise" in sc.fans and sc.liable == (0, "bao_sanpu")


# --- §5.1, §9.3, §10 multi_win: the seats that won the tile do not pay it -------------------

#: §12.7's hand won on seat 0's discard: 碰碰胡 (no 杠开), hard, H 10, F_w 7; the multiples are
#: seat 0 (放冲 ×1.5) 15 × 2^8 = 3840, seat 1 10 × 2^7 = 1280, seat 2 10 × 2^10 = 10240
EX7_ON_A_DISCARD = dict(how="discard", win="9m", seat=3, from_seat=0, dealer=0, indicator="9s",
                        seat_fans=EX7["seat_fans"])


def test_a_co_winner_pays_nothing_so_there_is_no_jinding():
    # seat 2 won the same tile: only seats 0 and 1 pay; 金顶 needs three paying seats (§9.3),
    # so each pays min(M, 300): 300 + 300
    sc = score("1s", "1z1z1z99m55p9m", EX7_MELDS, options={"multi_win": True}, co_winners=frozenset({2}),
               **EX7_ON_A_DISCARD)
    assert paid(sc) == {0: 300, 1: 300} and sc.total == 600 and sc.cap_kind == "cap"


def test_near_miss_three_paying_seats_reach_jinding():
    sc = score("1s", "1z1z1z99m55p9m", EX7_MELDS, options={"multi_win": True}, **EX7_ON_A_DISCARD)
    assert paid(sc) == {0: 400, 1: 500, 2: 400} and sc.cap_kind == "jinding"


def test_paipu_hand_leaves_the_co_winners_out_of_the_transfers():
    got = evaluate({"preset": "wuhan-hzlzg", "hand": "1z1z1z99m55p", "tile": "9m", "how": "discard",
                    "melds": ["pong:2m", "kong:8s"], "seat": 3, "from_seat": 0, "dealer": 0, "indicator": "9s",
                    "co_winners": [2], "options": {"multi_win": True},
                    "context": {"seat_fans": [list(f) for f in EX7["seat_fans"]]}})
    assert {t["payer"]: t["amount"] for t in got["transfers"]} == {0: 300, 1: 300}


def test_a_log_with_two_winners_and_a_cap_pays_no_jinding():
    # sample multi_win_qihu (qihu 8) with payment_cap 16: seat 3's multiples are 32 (seat 1) and
    # 16 (the dealer); seat 2 won the tile too and pays nothing, so two seats pay: min(M, 16) each.
    # Seat 2's 8 and 4 are below the cap.  Corrected: seat 0 −4 −16, seat 1 −8 −16, seat 2 +12, seat 3 +32
    a = audit(reopened(multi_win_qihu(8), payment_cap=16))
    assert a.ledger[-1] == [-20, -24, 12, 32]


def test_near_miss_when_the_other_declarer_is_no_legal_winner_three_pay_and_reach_jinding():
    # qihu 16: seat 2's win fails (its discarder's 8), so seat 2 pays seat 3 2^(3+1) = 16 too: all
    # three reach 16: 金顶 J = 116 from the opened seats 1 and 2, 阳光顶 216 from the dealer
    a = audit(reopened(multi_win_qihu(16), payment_cap=16))
    assert ("WIN_BELOW_MIN_FAN", 2) in [(f.code, f.seat) for f in a.findings]
    assert a.ledger[-1] == [-216, -116, -116, 448]


# --- §4 and §12.13: the next dealer -----------------------------------------------------------

@pytest.mark.parametrize("mode, rows", [
    ("rotate", [(0, ([2], "discard", 1), 1), (1, None, 1), (1, ([1], "self_draw", None), 1),
                (1, ([0], "robbed_kong", 1), 2)]),
    ("winner", [(0, ([2], "discard", 1), 2), (2, None, 2), (2, ([1], "self_draw", None), 1),
                (1, ([0], "robbed_kong", 1), 0)]),
])
def test_example13_every_row(mode, rows):
    r = resolve("wuhan-hzlzg", {"win_dealer": mode})
    for dealer, first, want in rows:
        assert settlement.dealer_after(r, dealer, first) == want, (dealer, first)


@pytest.mark.parametrize("mode, want", [("rotate", 0), ("winner", 3)])
def test_multi_win_next_dealer(mode, want):
    # §4: seats 0 (the dealer) and 3 both win seat 2's discard: rotate keeps the deal with the
    # dealer, among the winners; winner gives it to the first winner from the discarder's 下家
    # (3, 0, 1 in turn): seat 3
    r = resolve("wuhan-hzlzg", {"win_dealer": mode, "multi_win": True})
    assert settlement.dealer_after(r, 0, ([0, 3], "discard", 2)) == want


def test_multi_win_near_miss_rotate_passes_the_deal_when_the_dealer_did_not_win():
    r = resolve("wuhan-hzlzg", {"multi_win": True})
    assert settlement.dealer_after(r, 0, ([1, 3], "discard", 2)) == 1


# --- §3.1 and §9.2 ---------------------------------------------------------------------------

def test_wild_cycle_never_gives_a_pi_kind():
    for pis in (("7z",), ("7z", "6z")):
        r = rules("5p", pi_tiles=pis)
        assert all(laizi.wild_of(r, k) not in laizi.pi_kinds(r) for k in range(34))


def test_money_payers_on_a_self_draw_are_the_three_others():
    w = money.Win(1, "self_draw", None, 0, (), False, None)
    assert money.payers(resolve("wuhan-hzlzg"), w, 4) == [2, 3, 0]
    assert money.payers(resolve("wuhan-hzlzg"), w._replace(how="discard", from_seat=3), 4, {2}) == [3, 0]



# --- §13: each paying seat's logged F_l and multiple -------------------------------------------

def _payer_changed(seat: int, **changes):
    """§12.2's clean log with one logged payer share changed."""
    import msgspec
    from paipu.sim.wuhan.examples import ex02_pihu_discard
    b = ex02_pihu_discard()
    out = []
    for e in b.events:
        if type(e).__name__ == "HandWon":
            w = e.winners[0]
            payers = [msgspec.structs.replace(p, **changes) if p.seat == seat else p for p in w.payers]
            e = msgspec.structs.replace(e, winners=[msgspec.structs.replace(w, payers=payers)])
        out.append(e)
    b.events = out
    return b


def test_the_logged_breakdown_of_example2_holds():
    assert audit(_payer_changed(0)).findings == []


def test_a_wrong_payer_fan_with_the_right_amount_is_fan_mismatch():
    # §13 FAN_MISMATCH: the dealer's F_l is 1 (dealer fan), logged 3 while its amount 4 is right
    got = [(f.code, f.expected, f.actual) for f in audit(_payer_changed(0, fan=3)).findings]
    assert got == [("FAN_MISMATCH", 1, 3)]


def test_a_wrong_payer_multiple_with_the_right_amount_is_points_mismatch():
    # §13 POINTS_MISMATCH: the dealer's M_l = 2^(1+1) = 4, logged 16
    got = [(f.code, f.expected, f.actual) for f in audit(_payer_changed(0, multiple=16)).findings]
    assert got == [("POINTS_MISMATCH", 4, 16)]


def test_near_miss_a_wrong_amount_is_one_finding_not_three():
    # the fan, the multiple and the amount of one share wrong together: the amount's finding alone
    got = [f.code for f in audit(_payer_changed(0, fan=3, multiple=16, amount=16)).findings]
    assert got.count("FAN_MISMATCH") == 0 and got.count("POINTS_MISMATCH") == 1


def test_a_log_naming_a_tied_reading_is_checked_against_that_readings_fans():
    # §9.6: §12.7's hand self-drawn without a kong, seat 1 opened too: 碰碰胡 (F_w 7, ×1.5 each) and
    # a hard 屁胡 (F_w = 6 + 自摸 1 + 硬胡 1 = 8; the dealer 1 番 more) both reach 金顶 (all three
    # opened: 400 each, 1200).  The log may name either, and each has its own F_l and M_l:
    # 屁胡 — seat 0 F 1 + dealer 1 → 2^10, seat 1 F 1 → 2^9, seat 2 F 3 → 2^11;
    # 碰碰胡 — 15 × 2^8, 15 × 2^8, 15 × 2^10
    kw = {**EX7, "after_kong": False, "seat_fans": fans((1,), (1,), (1, 0, 1), (2, 1, 0, 2, 1))}
    sc = score("1s", EX7_HAND, EX7_MELDS, **kw)
    assert sc.total == 1200 and sc.cap_kind == "jinding"
    r = resolve("wuhan-hzlzg")
    pihu = settlement._named_shares(r, SimpleNamespace(fans=["jihu", "yinghu"]), sc)
    assert {x.seat: (x.fan, x.multiple, x.amount) for x in pihu} == {0: (2, 1024, 400), 1: (1, 512, 400),
                                                                      2: (3, 2048, 400)}
    big = settlement._named_shares(r, SimpleNamespace(fans=["duidui", "yinghu"]), sc)
    assert {x.seat: (x.fan, x.multiple) for x in big} == {0: (1, 3840), 1: (1, 3840), 2: (3, 15360)}


def test_near_miss_a_named_reading_that_pays_otherwise_is_left_to_the_names_finding():
    # the soft reading of a hard hand does not exist here: a 屁胡 without 硬胡 would pay less
    kw = {**EX7, "after_kong": False, "seat_fans": fans((1,), (1,), (1, 0, 1), (2, 1, 0, 2, 1))}
    sc = score("1s", EX7_HAND, EX7_MELDS, options={"payment_cap": 0}, **kw)
    assert settlement._named_shares(resolve("wuhan-hzlzg", {"payment_cap": 0}), SimpleNamespace(fans=["jihu"]),
                                    sc) is None


# --- §5.1, §6: claims on a discard at D = 0 ---------------------------------------------------

def _at_d0(**options):
    """The family's claim checks on a pong and a 直杠 of a discard made at D = 0 (the events of
    §12.6's log, whose seat 0 pongs 6p)."""
    import msgspec

    from audits.rules.wuhan import claims
    from paipu.sim.wuhan.examples import ex06_qianggang
    from schema import events as ev
    r = resolve("wuhan-hzlzg", options)
    table = SimpleNamespace(undrawn=r.draw_reserve, phase="claim", turn=1, indicator=None)
    pong_ = next(e for e in ex06_qianggang().events if type(e) is ev.Ponged)
    kong_ = ev.KongExposed(game=pong_.game, seq=pong_.seq, at=pong_.at, seat=pong_.seat, from_seat=pong_.from_seat,
                           kind=pong_.tile, tile=pong_.tile, tiles=[pong_.tile] * 3)
    assert msgspec.structs.asdict(pong_)["from_seat"] is not None
    return tuple([v.code for v in claims.event_checks(r, table, e)] for e in (pong_, kong_))


def test_at_d0_a_pong_is_allowed_and_an_exposed_kong_has_no_replacement():
    # §5.4: a kong needs D ≥ 1, so a 直杠 of a discard at D = 0 is KONG_WITHOUT_REPLACEMENT; a pong
    # is a claim like any (the family's part, with the shared last_discard_claims opened)
    assert _at_d0(haidi="last_tile", last_discard_claims="all") == ([], ["KONG_WITHOUT_REPLACEMENT"])


def test_under_the_preset_a_pong_of_the_last_discard_is_no_finding():
    # wuhan.md has no last-discard rule (§5.1: 碰 from any seat; §5.4 and §6 limit only kongs,
    # KONG_WITHOUT_REPLACEMENT; under haidi = last_tile "play is ordinary to the end"): the
    # preset opens the shared last_discard_claims
    assert _at_d0(haidi="last_tile") == ([], ["KONG_WITHOUT_REPLACEMENT"])
