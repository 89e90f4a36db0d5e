"""成都计番 (sichuan.md §9): a holding case and a near miss per fan, the §13 hands."""

import pytest

from audits.rules.sichuan import fans as F
from audits.rules.sichuan.fans import Moment

from .helpers import SC, VOID, counts, kong, pong, rules


def sc(hand, melds=(), void="p", ruleset=SC, **moment):
    return F.score(ruleset, counts(hand), list(melds), VOID[void], Moment(**moment))


def test_pinghu_on_a_discard_example_1():
    s = sc("234p567p33s456s789s", void="m", how="discard")
    assert (s.fans, s.fan, s.points) == (["jihu"], 0, 1)


def test_qingyise_duidui_example_2():
    s = sc("555s77s888s", [pong("2s"), pong("9s")], void="m")
    assert sorted(s.fans) == ["duidui", "qingyise"] and s.fan == 3 and s.points == 8
    assert "jingoudiao" not in s.fans and "gen" not in s.fans  # near misses: two melds, three 8s


def test_longqidui_and_cap_example_3():
    a = sc("3333m55m77m22s44s99s", void="p", how="discard")
    assert a.fans == ["longqidui"] and a.fan == 3 and a.points == 8
    assert sc("3333m55m77m22s44s99s", void="p", how="discard", ruleset=rules(fan_cap=4)).points == 8
    assert sc("3333m55m77m22s44s99s", void="p", how="discard",
              ruleset=rules(fan_cap=4, longqidui_fan=4)).points == 16
    b = sc("1111m33m55m77m88m99m", void="s")
    assert sorted(b.fans) == ["longqidui", "qingyise"] and b.fan == 5 and b.points == 8


def test_plain_seven_pairs_is_not_longqidui():
    s = sc("11m33m55m77m88m99m22s", void="p", how="discard")
    assert s.fans == ["xiaoqidui"] and s.fan == 2


@pytest.mark.parametrize("hand,melds,void,fans,f,p,p6", [
    ("88p", [pong("2s"), pong("5s"), pong("8s"), kong("2p", "kong_exposed", 1)], "m",
     ["duidui", "gen", "jiangdui", "jingoudiao"], 5, 8, 32),
    ("123m789m111p789p99m", [], "s", ["daiyaojiu"], 2, 4, 4),
    ("99s", [kong("2s"), kong("3s"), kong("5p"), kong("7p")], "m",
     ["duidui", "gen", "gen", "gen", "gen", "jingoudiao"], 6, 8, 64),
    ("11m22m33m55m77m88m99m", [], "p", ["qingyise", "xiaoqidui"], 4, 8, 16),
])
def test_fan_table_checks_example_11(hand, melds, void, fans, f, p, p6):
    s = sc(hand, melds, void, how="discard")
    assert sorted(s.fans) == fans and s.fan == f and s.points == p
    assert sc(hand, melds, void, how="discard", ruleset=rules(fan_cap=6)).points == p6


def test_tianhe_replaces_every_fan():
    s = sc("123m456m789m11m234m", void="p", heavenly="tianhe")
    assert s.fans == ["tianhe"] and s.fan == 5 and s.points == 8
    off = sc("123m456m789m11m234m", void="p", heavenly="tianhe", ruleset=rules(tiandihu=False))
    assert "tianhe" not in off.fans and "qingyise" in off.fans


def test_dihe():
    assert sc("123m456m789m11m234p", void="s", heavenly="dihe").fans == ["dihe"]


def test_gen_pong_plus_fourth_in_hand_and_near_miss():
    assert sc("234s123p789p22p", [pong("5s")], void="m").fans.count("gen") == 0
    assert sc("345s123p789p22p", [pong("5s")], void="m").fans.count("gen") == 1
    s = sc("234p22p555s567s678s", void="m")   # four 5s used as triplet + chow: a 根
    assert s.fans.count("gen") == 1


@pytest.mark.parametrize("moment,fan", [
    (dict(how="self_draw", after_kong=True), "gangshang_kaihua"),
    (dict(how="discard", kong_discard=True), "gangshang_pao"),
    (dict(how="robbed_kong"), "qianggang"),
    (dict(how="self_draw", sea_bottom=True), "haidi"),
    (dict(how="discard", sea_bottom=True), "haidi_pao"),
])
def test_event_fans_hold_and_near_miss(moment, fan):
    hand = "123m456m789m45s88s6s"
    assert fan in sc(hand, void="p", **moment).fans
    plain = "discard" if moment["how"] == "robbed_kong" else moment["how"]
    assert fan not in sc(hand, void="p", how=plain).fans


def test_zimo_only_under_jiafan():
    hand = "123m456m789m45s88s6s"
    assert "zimo" in sc(hand, void="p", ruleset=rules(zimo_bonus="jiafan")).fans
    assert "zimo" not in sc(hand, void="p").fans
    assert "zimo" not in sc(hand, void="p", how="robbed_kong", ruleset=rules(zimo_bonus="jiafan")).fans


def test_menqing_zhongzhang_only_with_option():
    hand = "234m456m678m45s88s6s"
    on = sc(hand, void="p", ruleset=rules(menqing_zhongzhang=True))
    assert "menqing" in on.fans and "zhongzhang" in on.fans
    assert "menqing" not in sc(hand, void="p").fans
    near = sc("234m456m678m45s88s6s", [], void="p", ruleset=rules(menqing_zhongzhang=True))
    assert near.fan == 2
    ponged = sc("234m456m45s88s6s", [pong("9m")], void="p", ruleset=rules(menqing_zhongzhang=True))
    assert "menqing" not in ponged.fans and "zhongzhang" not in ponged.fans


def test_jiangdui_and_daiyaojiu_options():
    hand = "222m555m888m555s22s"
    assert "jiangdui" in sc(hand, void="p").fans
    assert "jiangdui" not in sc(hand, void="p", ruleset=rules(yaojiu_jiangdui=False)).fans
    assert "jiangdui" not in sc("222m555m888m555s66s", void="p").fans  # near miss: a 6
    assert "daiyaojiu" not in sc("123m789m111p789p99m", void="s", ruleset=rules(yaojiu_jiangdui=False)).fans
    assert "daiyaojiu" not in sc("123m789m123p789p55m", void="s").fans  # near miss: the pair


def test_jiang_qidui_option():
    assert "jiangdui" in sc("22m55m88m22s55s88s88m", void="p", ruleset=rules(jiang_qidui=True)).fans
    assert "jiangdui" not in sc("22m55m88m22s55s88s88m", void="p").fans


def test_void_gate():
    s = sc("123m456m789m45s88s6s", void="s")
    assert s.complete and not s.wins
    assert F.is_legal_shape(counts("123m456m789m45s88s6s"), [], VOID["p"], SC)
    none = rules(dingque="none")
    assert not F.is_legal_shape(counts("123m456p789s45s88s6s"), [], -1, none)
    assert F.is_legal_shape(counts("123m456p789p45p88p6p"), [], -1, none)


def test_highest_reading_is_scored():
    # 111222333m: three pongs or three chows; with 444m 55m both are complete
    s = sc("111m222m333m444p55p", void="s")
    assert "duidui" in s.fans


def test_best_hand_and_waits_example_4_and_7():
    d = F.best_hand(SC, counts("222m555p66p99p"), [kong("8m")], VOID["s"])
    assert d is not None and d[0] == 2
    d = F.best_hand(SC, counts("345p678p99p11p"), [kong("2p")], VOID["m"])
    assert d is not None and d[0] == 3
    assert F.best_hand(SC, counts("123p456p789p11s23s"), [], VOID["m"])[0] == 0
    assert F.best_hand(SC, counts("123p456p789p11s25s"), [], VOID["m"]) is None  # near miss


def test_dead_wait_option():
    hand, melds = counts("123p456p789p11s23s"), []
    seen = [0] * 34
    seen[18 + 0] = 4
    seen[18 + 3] = 4
    assert F.waits_on(SC, hand, melds, VOID["m"], seen) == [18, 21]
    assert F.waits_on(rules(dead_wait_counts=False), hand, melds, VOID["m"], seen) == []


def test_huazhu():
    assert F.is_huazhu(SC, counts("123p456p789p11s2m"), [], VOID["m"])
    assert not F.is_huazhu(SC, counts("123p456p789p11s23s"), [], VOID["m"])
    none = rules(dingque="none")
    assert F.is_huazhu(none, counts("123p456p789s11s2m"), [], -1)
