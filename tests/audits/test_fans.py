"""One case that holds and a near miss for every fan of qujing.md §5."""

from __future__ import annotations


from audits.rules.family import WinContext
from audits.rules.qujing.fans import FAN_VALUES, fan_total, may_win, points, score_hand
from replay.melds import Meld
from schema.ruleset import resolve
from schema.tiles import parse_hand, tile_index

XJ = resolve("qujing-xiaoji")


def meld(spec: str) -> Meld:
    kind, _, tiles = spec.partition(":")
    ts = parse_hand(tiles)
    kinds = {"chow": "chow", "pong": "pong", "kong": "kong_exposed", "akong": "kong_added", "ckong": "kong_concealed"}
    k = kinds[kind]
    if k == "chow":
        return Meld("chow", ts[0], tuple(ts))
    size = 3 if k == "pong" else 4
    if len(ts) == 1:
        ts = ts * size
    of = max(set(ts), key=ts.count)
    return Meld(k, of, tuple(ts), wilds=sum(1 for t in ts if t != of))


def score(hand: str, tile: str | None = None, melds=(), how="self_draw", ruleset=XJ, passed_win=False, **ctx):
    tiles = parse_hand(hand)
    t = tile_index(tile) if tile else tiles[-1]
    if tile:
        tiles = tiles + [t]
    return score_hand(tiles, [meld(m) for m in melds], ruleset, WinContext(how=how, win_tile=t, **ctx),
                      passed_win)


def fans(*a, **k) -> list[str]:
    return score(*a, **k).fans


# 底和 ------------------------------------------------------------------------
def test_dihu_holds_self_draw_plain_hand():
    s = score("123m456p789s1s", "5z", melds=["pong:2z"])
    assert s.fans == ["dihu"] and s.fan == 0 and s.wins and s.points == 1


def test_dihu_near_miss_discard_needs_fan():
    s = score("123m456p789s1s", "5z", melds=["pong:2z"], how="discard")
    assert s.complete and not s.wins and s.fans == []


def test_dihu_robbed_kong_counts_as_self_draw():
    assert score("123m456p789s1s", "5z", melds=["pong:2z"], how="robbed_kong").wins


# 无鸡 ------------------------------------------------------------------------
def test_wuji_holds_no_chicken():
    assert "wuji" in fans("123m456p789s5z", "5z", melds=["pong:2z"])


def test_wuji_holds_chicken_as_plain_1s():
    assert "wuji" in fans("123s456p789m5z", "5z", melds=["pong:2z"])


def test_wuji_near_miss_chicken_wild():
    assert "wuji" not in fans("123m456p789s1s", "5z", melds=["pong:2z"])


def test_wuji_near_miss_chicken_in_kong():
    assert "wuji" not in fans("123m456p5z", "5z", melds=["pong:2z", "kong:4p4p4p1s"])


# 门清自摸 --------------------------------------------------------------------
def test_menqing_zimo_holds():
    assert "menqing_zimo" in fans("123m456p789s234m5z", "5z")


def test_menqing_zimo_holds_with_concealed_kong():
    assert "menqing_zimo" in fans("123m456p234m5z", "5z", melds=["ckong:9s"])


def test_menqing_zimo_near_miss_pong():
    assert "menqing_zimo" not in fans("123m456p789s5z", "5z", melds=["pong:2z"])


def test_menqing_zimo_near_miss_discard():
    assert "menqing_zimo" not in fans("123m456p789s234m5z", "5z", how="discard")


def test_menqing_zimo_near_miss_not_with_xiaoqidui():
    f = fans("1133m5577p2299s4z", "4z")
    assert "xiaoqidui" in f and "menqing_zimo" not in f


# 杠上开花 / 五梅花 ---------------------------------------------------------------
def test_gangshang_kaihua_holds():
    assert "gangshang_kaihua" in fans("34m222p66p", "2m", melds=["chow:567s", "ckong:4p"], after_kong=True)


def test_gangshang_kaihua_near_miss_not_after_kong():
    assert "gangshang_kaihua" not in fans("34m222p66p", "2m", melds=["chow:567s", "ckong:4p"])


def test_wumeihua_holds_replaces_gangshang_kaihua():
    f = fans("123m34p678s22z", "5p", melds=["ckong:9m"], after_kong=True)
    assert "wumeihua" in f and "gangshang_kaihua" not in f


def test_wumeihua_near_miss_other_tile():
    f = fans("123m45p678s22z", "3p", melds=["ckong:9m"], after_kong=True)
    assert "wumeihua" not in f and "gangshang_kaihua" in f


def test_wumeihua_near_miss_chicken_as_5p_by_default():
    f = fans("123m34p678s22z", "1s", melds=["ckong:9m"], after_kong=True)
    assert "wumeihua" not in f and "gangshang_kaihua" in f


def test_wumeihua_wild_5p_option():
    rs = resolve("qujing-xiaoji", {"wumeihua_wild_5p": True})
    assert "wumeihua" in fans("123m34p678s22z", "1s", melds=["ckong:9m"], after_kong=True, ruleset=rs)


# 杠上炮 ----------------------------------------------------------------------
def test_gangshang_pao_holds():
    s = score("123m456p789s1s", "5z", melds=["pong:2z"], how="discard", kong_discard=True)
    assert s.wins and s.fans == ["gangshang_pao"]


def test_gangshang_pao_near_miss_plain_discard():
    assert not score("123m456p789s1s", "5z", melds=["pong:2z"], how="discard").wins


# 双杠 / 四杠 ----------------------------------------------------------------------
def test_shuanggang_holds():
    assert "shuanggang" in fans("123m456p5z", "5z", melds=["kong:9s", "ckong:2z"])


def test_shuanggang_near_miss_one_kong():
    assert "shuanggang" not in fans("123m456p5z", "5z", melds=["pong:9s", "ckong:2z"])


def test_sigang_holds_replaces_shuanggang():
    f = fans("5z", "5z", melds=["kong:9s", "ckong:2z", "kong:3m", "akong:4p"])
    assert "sigang" in f and "shuanggang" not in f


def test_sigang_near_miss_three_kongs():
    f = fans("123m5z", "5z", melds=["kong:9s", "ckong:2z", "kong:3m"])
    assert "sigang" not in f and "shuanggang" in f


# 混一色 / 清一色 / 字一色 -----------------------------------------------------------
def test_hunyise_holds():
    assert "hunyise" in fans("123456789m1112z", "2z")


def test_hunyise_near_miss_two_suits():
    assert "hunyise" not in fans("123456m789p1112z", "2z")


def test_qingyise_holds():
    f = fans("1112345678999m", "9m")
    assert "qingyise" in f and "hunyise" not in f


def test_qingyise_near_miss_one_honour():
    f = fans("1112345678999m", "5z")
    assert "qingyise" not in f


def test_qingyise_counts_chicken_as_its_tile():
    assert "qingyise" in fans("1112345678999m", "1s")


def test_ziyise_holds_replaces_both():
    f = fans("2223335556667z", "7z")
    assert "ziyise" in f and "hunyise" not in f and "qingyise" not in f


def test_ziyise_near_miss_one_suit_tile():
    f = fans("222333555666z9m", "9m")
    assert "ziyise" not in f and "hunyise" in f


# 大对 ------------------------------------------------------------------------
def test_duidui_holds():
    assert "duidui" in fans("111m222p333s4445z", "5z")


def test_duidui_near_miss_one_chow():
    assert "duidui" not in fans("123m222p333s4445z", "5z")


# 全求人 / 单吊小鸡 -------------------------------------------------------------
QQR = ["pong:2z", "pong:3z", "chow:234m", "pong:7p"]


def test_quanqiuren_holds():
    s = score("5p", "5p", melds=QQR, how="discard")
    assert s.wins and "quanqiuren" in s.fans


def test_quanqiuren_near_miss_self_draw():
    assert "quanqiuren" not in fans("5p", "5p", melds=QQR)


def test_quanqiuren_near_miss_wild_chicken_last_tile():
    s = score("1s", "5p", melds=QQR, how="discard")
    assert "quanqiuren" not in s.fans and not s.wins


def test_dandiao_xiaoji_self_draw_wins_on_anything():
    assert score("1s", "5p", melds=QQR).wins


def test_dandiao_xiaoji_discarded_chicken_wins_as_plain_pair():
    s = score("1s", "1s", melds=QQR, how="discard")
    assert s.wins and "wuji" in s.fans


def test_dandiao_xiaoji_discard_with_fan_wins():
    s = score("1s", "3m", melds=["pong:2m", "pong:5m", "chow:678m", "pong:9m"], how="discard")
    assert s.wins and "qingyise" in s.fans


def test_dandiao_xiaoji_discard_without_fan_near_miss():
    assert not score("1s", "3m", melds=["pong:2m", "pong:5z", "chow:678p", "pong:9m"], how="discard").wins


# 小三元 / 大三元 -------------------------------------------------------------------
def test_xiaosanyuan_holds():
    assert "xiaosanyuan" in fans("555z666z77z123m45p", "6p")


def test_xiaosanyuan_near_miss_wind_pair():
    assert "xiaosanyuan" not in fans("555z666z11z123m45p", "6p")


def test_dasanyuan_holds_replaces_xiaosanyuan():
    f = fans("555z666z777z123m4p", "4p")
    assert "dasanyuan" in f and "xiaosanyuan" not in f


def test_dasanyuan_near_miss_two_dragon_pongs():
    assert "dasanyuan" not in fans("555z666z123m44p56p", "7p")


# 小四喜 / 大四喜 -------------------------------------------------------------------
def test_xiaosixi_holds():
    assert "xiaosixi" in fans("111z222z333z44z12m", "3m")


def test_xiaosixi_near_miss_two_wind_pongs():
    assert "xiaosixi" not in fans("111z222z44z123m45p", "6p")


def test_dasixi_holds_replaces_xiaosixi():
    f = fans("111z222z333z444z5m", "5m")
    assert "dasixi" in f and "xiaosixi" not in f


def test_dasixi_near_miss_three_wind_pongs():
    assert "dasixi" not in fans("111z222z333z44z12m", "3m")


# 小七对 / 龙爪背 -------------------------------------------------------------------
def test_xiaoqidui_holds():
    assert "xiaoqidui" in fans("1133m5577p2299s4z", "4z")


def test_xiaoqidui_four_equal_tiles_count_as_two_pairs():
    assert score("1111m5577p2299s4z", "4z").complete


def test_xiaoqidui_near_miss_with_meld():
    assert "xiaoqidui" not in fans("1133m5577p22s", "2s", melds=["pong:4z"])


def test_xiaoqidui_near_miss_two_singles():
    assert not score("1133m5577p2299s3z", "4z").complete


def test_longzhuabei_holds_replaces_xiaoqidui():
    f = fans("1111m5577p2299s4z", "4z")
    assert "longzhuabei" in f and "xiaoqidui" not in f


def test_longzhuabei_near_miss_no_four():
    assert "longzhuabei" not in fans("1133m5577p2299s4z", "4z")


# 四小鸡 -----------------------------------------------------------------------
def test_sixiaoji_holds_immediate_no_other_fan():
    s = score("1111s2468m3579p", "9s")
    assert s.wins and s.fans == ["sixiaoji"] and s.fan == 3


def test_sixiaoji_near_miss_three_chickens():
    assert "sixiaoji" not in fans("111s2468m3579p9s", "9s")


def test_sixiaoji_shuanggui_any_four_ghosts():
    assert score("5577z2468m3579p", "9s", ruleset=resolve("qujing-shuanggui")).fans == ["sixiaoji"]


def test_sixiaoji_near_miss_not_on_a_discard_or_a_rob():
    # 四小鸡 wins on one's own turn only (default): on a discard or a robbed kong it is no hand
    for how in ("discard", "robbed_kong"):
        s = score("1111s2468m3579p", "9s", how=how)
        assert not s.wins and "sixiaoji" not in s.fans, how


def test_sixiaoji_on_discard_option():
    rs = resolve("qujing-xiaoji", {"sixiaoji_on_discard": True})
    s = score("1111s2468m3579p", "9s", how="discard", ruleset=rs)
    assert s.wins and s.fans == ["sixiaoji"]
    assert not score("1111s2468m3579p", "9s", how="robbed_kong", ruleset=rs).wins


def test_sixiaoji_better_ordinary_reading_wins_over_it_under_a_higher_cap():
    # four chickens and a complete 清一色 + 大对 reading: 4 fan beats 四小鸡's 3 with fan_cap 4
    rs = resolve("qujing-xiaoji", {"fan_cap": 4})
    s = score("1111s111222999m", "5m", ruleset=rs)
    assert s.wins and "sixiaoji" not in s.fans and s.fan > 3
    assert score("1111s2468m3579p", "9s", ruleset=rs).fans == ["sixiaoji"]  # near miss: no ordinary reading


# totals, cap, highest reading, win conditions ---------------------------------
def test_fan_values_table():
    assert FAN_VALUES["dihu"] == 0 and FAN_VALUES["qingyise"] == 2 and FAN_VALUES["dasixi"] == 3
    assert fan_total(["wuji", "qingyise", "duidui"]) == 4


def test_points_capped_at_fan_cap():
    assert points(2, XJ) == 4 and points(3, XJ) == 8 and points(5, XJ) == 8
    assert points(5, resolve("qujing-xiaoji", {"fan_cap": 5, "base": 2})) == 64


def test_highest_reading_is_scored():
    # the chicken can complete 9m-99m (qingyise) — the scorer picks the best reading
    s = score("1112345678999m", "1s")
    assert "qingyise" in s.fans and all(t < 9 for t in s.reading.wild_assignments)


def test_discard_win_needs_one_fan():
    assert may_win("discard", 1) and not may_win("discard", 0) and may_win("self_draw", 0)


def test_guohu_blocks_any_discard_win():
    assert not may_win("discard", 3, passed_win=True) and may_win("self_draw", 0, passed_win=True)
    assert not may_win("robbed_kong", 0, passed_win=True) and may_win("robbed_kong", 0)  # 过胡 bars robs too
    s = score("123m456p789s234m5z", "5z", how="discard", passed_win=True)
    assert s.complete and not s.wins


def test_discarded_chicken_is_plain():
    # 23m456p789s555z waits on 1m/4m: a discarded 1s is a plain 1s and does not complete it
    assert not score("23m456p789s555z77z", "1s", how="discard").complete


def test_self_drawn_chicken_is_wild():
    assert score("23m456p789s555z77z", "1s").wins
