"""The 番 gate and its sources (hainan.md §6), the rate (§9.1.1) and the hand multiplier
(§9.1.3): each source holding and a near miss that does not hold it."""

from dataclasses import replace

import pytest

from audits.rules.family import WinContext
from audits.rules.hainan import fans

from .helpers import chow, kong, pong, rules, score, tiles


def test_pinghu_all_chows_and_a_plain_pair():
    assert "pinghu" in score("123m 456m 789p 345s 99s", [], "discard").fans


@pytest.mark.parametrize("pair", ["77z", "33z", "11z"])  # 中, the seat wind (西 for position 2), the 令 wind (东)
def test_pinghu_is_barred_by_a_scoring_pair(pair):
    assert "pinghu" not in score(f"123m 456m 789p 345s {pair}").fans


def test_pinghu_needs_no_pong():
    assert "pinghu" not in score("123m 456m 789p 99s", [pong("5s")]).fans


def test_menqing_and_concealed_kongs():
    assert "menqing" in score("123m 456m 789p 345s 99s").fans
    held = "123m 456m 345s 99s"
    assert "menqing" not in score(held, [kong("7p")]).fans
    assert "menqing" in score(held, [kong("7p")], r=rules(menqing_concealed_kong=True)).fans
    assert "menqing" not in score(held, [kong("7p", "kong_exposed", 1)], r=rules(menqing_concealed_kong=True)).fans


def test_duidui_four_pong_type_sets():
    assert "duidui" in score("111m 555p 99s", [pong("3s"), kong("7s")]).fans
    assert "duidui" not in score("123m 555p 99s", [pong("3s"), kong("7s")]).fans


def test_qingyise_and_hunyise():
    assert "qingyise" in score("123m 456m 789m 111m 99m").fans
    assert "hunyise" in score("123m 456m 789m 111z 99m").fans
    got = score("123m 456m 789p 111z 99m").fans
    assert "hunyise" not in got and "qingyise" not in got


def test_jiang258_pair():
    assert "jiang258" in score("123m 456m 789p 111z 55s").fans
    assert "jiang258" not in score("123m 456m 789p 111z 44s").fans


def test_sanyuan_once_per_dragon_set():
    sc = score("123m 555z 666z 22s", [pong("7z")])
    assert sc.fans.count("sanyuan") == 3
    assert "sanyuan" not in score("123m 456m 789p 123s 55z").fans  # a dragon pair is no set


def test_menfeng_and_quanfeng():
    assert score("123m 456m 789p 333z 22s", seat_wind=2).fans.count("menfeng") == 1
    assert "menfeng" not in score("123m 456m 789p 333z 22s", seat_wind=1).fans
    assert "quanfeng" in score("123m 456m 789p 222z 22s", round_wind=1).fans
    assert "quanfeng" not in score("123m 456m 789p 222z 22s", round_wind=0, seat_wind=0).fans


def test_zhenghua_the_seats_own_flowers():
    hand, melds = "456s 789s 33p", [pong("9p"), chow("1m")]
    assert score(hand, melds, seat_wind=1, flowers="6f").fans == ["zhenghua"]  # 兰 is the 下家's
    assert score(hand, melds, seat_wind=1, flowers="2f").fans == ["zhenghua"]  # 夏 too
    assert score(hand, melds, seat_wind=1, flowers="3f 7f").fans == []  # 秋 菊 are the 对家's
    assert score(hand, melds, seat_wind=2, flowers="3f 7f").fans == ["zhenghua"]


def test_qidui_and_four_as_two():
    assert "qidui" in score("11m 22m 33p 44p 55s 66s 77z").fans
    four = "11m 11m 33p 44p 55s 66s 77z"
    assert "qidui" in score(four).fans
    assert not score(four, r=rules(qidui_four_as_two=False)).complete


def test_shisanlan_and_the_orphans_option():
    assert "shisanlan" in score("147m 25p 369s 123567z").fans
    assert not score("147m 24p 369s 123567z").complete
    orphans = "19m 19p 19s 1234567z 1z"
    assert not score(orphans).complete
    assert "shisanyao" in score(orphans, r=rules(luanpai="shisanyao")).fans
    assert score(orphans, r=rules(luanpai="both")).complete and score("147m 25p 369s 123567z", r=rules(luanpai="both")).complete


def test_qianggang_is_a_source():
    sc = score("34s 678p 789p 33p 5s", [pong("9m")], how="robbed_kong")
    assert sc.fans == ["qianggang"] and sc.fan == 1 and sc.wins


def test_kong_fan_option():
    assert "gang" not in score("123m 456m 22s", [pong("3s"), kong("7s")], how="self_draw").fans
    assert score("123m 456m 22s", [pong("3s"), kong("7s")], how="self_draw", r=rules(kong_fan=True)).fans.count("gang") == 1


def test_the_gate_bars_a_discard_win_without_fan_and_not_a_self_draw():
    hand, melds = "456s 789s 33p", [pong("9p"), chow("1m")]
    assert not score(hand, melds, "discard", seat_wind=1).wins
    assert score(hand, melds, "discard", seat_wind=1, r=rules(min_fan=0)).wins  # 无番 rooms
    sd = score(hand, melds, "self_draw", seat_wind=1)
    assert sd.wins and sd.fans == ["zimo"] and sd.fan == 0 and sd.points == 2


def test_rates_one_two_three():
    hand, melds = "456s 789s 33p", [pong("9p"), chow("1m")]
    assert score(hand, melds, "discard", seat_wind=1, flowers="2f").points == 1
    assert score(hand, melds, "self_draw", seat_wind=1).points == 2
    gk = score(hand, melds, "self_draw", seat_wind=1, after_kong=True)
    assert gk.points == 3 and gk.fans == ["gangshang_kaihua"]
    hk = score(hand, melds, "self_draw", seat_wind=1, after_flower=True)
    assert hk.points == 3 and hk.fans == ["huashang_kaihua"]
    assert score(hand, melds, "self_draw", seat_wind=1, r=rules(base=3)).points == 6


def test_hand_multipliers():
    hand, melds = "111p 555p 777p 99p", [pong("3p")]
    assert score(hand, melds, "self_draw", seat_wind=0, r=rules(base=2)).points == 4
    assert score(hand, melds, "self_draw", seat_wind=0, r=rules(base=2, hand_multiplier="additive")).points == 28
    assert score(hand, melds, "self_draw", seat_wind=0, r=rules(base=2, hand_multiplier="multiplicative")).points == 16
    dragon = "11m 11m 33p 44p 55s 66s 77z"
    sc = score(dragon, how="self_draw", r=rules(hand_multiplier="additive"))
    assert "longqidui" in sc.fans and sc.points == 2 * 5  # 龙七对 replaces 七对
    assert score(dragon, how="self_draw", r=rules(hand_multiplier="multiplicative")).points == 2 * 3
    assert score("147m 25p 369s 123567z", how="self_draw", r=rules(hand_multiplier="multiplicative")).points == 26
    assert score("123m 456m 789p 345s 99s", r=rules(hand_multiplier="additive")).points == 1  # 平胡 1
    mixed = "123m 456m 789m 111z 99m"  # 混一色: 2 additive, no factor multiplicative
    assert score(mixed, r=rules(hand_multiplier="additive")).points == 2
    assert score(mixed, r=rules(hand_multiplier="multiplicative")).points == 1


def test_fan_finding_names():
    from schema.events import Winner
    from audits.rules.hainan.fans import fan_finding
    r = rules()
    sc = score("123m 456m 789p 345s 55s")  # pinghu menqing jiang258
    assert fan_finding(r, Winner(seat=2, fans=["pinghu", "jiang258"], fan=2, points=1), sc) == "FAN_NAMES_DIFFER"
    assert fan_finding(r, Winner(seat=2, fans=["pinghu", "jiang258"], fan=3, points=1), sc) == "FAN_MISMATCH"
    assert fan_finding(r, Winner(seat=2, fans=["duidui"], fan=1, points=1), sc) == "FAN_MISMATCH"
    hk = score("456s 789s 33p", [pong("9p"), chow("1m")], "self_draw", seat_wind=1, after_flower=True)
    assert fan_finding(r, Winner(seat=1, fans=["gangshang_kaihua"], fan=0, points=3), hk) == "FAN_NAMES_DIFFER"


def test_huashang_kaihua_only_after_an_in_play_buhua():
    # hainan.md §9.1.1: 花上开花 (r = 3) follows one's own in-play 补花; §8: a 天胡 (the dealer's
    # win before any discard, e.g. on its opening 补花's replacement) is an ordinary self-draw
    hand = "123m 456m 789p 234s 55s"
    in_play = score(hand, how="self_draw", seat_wind=0, flowers="1f", after_flower=True)
    assert in_play.points == 3 and "huashang_kaihua" in in_play.fans
    ctx = WinContext(how="self_draw", seat_wind=0, round_wind=0, flowers=(34,), after_flower=True,
                     heavenly="tianhe")
    opening = fans.score_hand(rules(), tiles(hand), [], ctx)
    assert opening.points == 2 and "zimo" in opening.fans and "huashang_kaihua" not in opening.fans
    assert fans.score_hand(rules(), tiles(hand), [], replace(ctx, heavenly="")).points == 3


def test_an_incomplete_hand_is_priced_at_its_ways_rate():
    # §11 points = B × r × m; with no reading (a 花胡, WIN_INCOMPLETE) m is 1 and r still the way's
    hand = "11m 22p 99s 34s 66z 7z 11p 8m"
    assert [score(hand, how=how, r=rules(base=2)).points for how in ("discard", "self_draw")] == [2, 4]
    assert score(hand, how="self_draw", after_flower=True).points == 3
    assert not score(hand, how="self_draw").complete


def test_any_reading_that_passes_the_gate_makes_the_discard_win_legal():
    # §5: 111222333m reads as three triplets (no 番 here) or three 123m chows (平胡 with the
    # 789p chow and a plain 9s pair): the win is legal, scored with the reading that has 番
    sc = score("111222333m 99s", [chow("7p")], "discard", seat_wind=1)
    assert sc.wins and sc.fans == ["pinghu"]
    # near miss: with the seat's own wind as the pair (南 for seat 南) neither reading has 番
    near = score("111222333m 22z", [chow("7p")], "discard", seat_wind=1)
    assert near.complete and not near.wins and near.fan == 0


def test_a_kong_is_a_pong_type_set_for_the_honour_sources():
    # §6 "碰或杠(包括明杠暗杠)": a dragon, seat-wind or 令-wind kong scores like its pong
    for kind in ("kong_exposed", "kong_added", "kong_concealed"):
        frm = None if kind == "kong_concealed" else 1
        assert score("123m 456m 789p 33s", [kong("5z", kind, frm)], seat_wind=3).fans == ["sanyuan"]
        assert score("123m 456m 789p 33s", [kong("4z", kind, frm)], seat_wind=3).fans == ["menfeng"]
        assert score("123m 456m 789p 33s", [kong("1z", kind, frm)], seat_wind=3).fans == ["quanfeng"]
    # near miss: a wind kong that is neither the seat's nor the 令's
    assert score("123m 456m 789p 33s", [kong("3z")], seat_wind=3).fans == []


def test_pinghu_holds_with_a_wind_pair_that_scores_nothing():
    # §6 平胡: only a pair whose pong would score bars it — 北 for seat 西 in the 东令 does not
    assert "pinghu" in score("123m 456m 789p 345s 44z", seat_wind=2, round_wind=0).fans
    assert "pinghu" not in score("123m 456m 789p 345s 44z", seat_wind=3, round_wind=0).fans  # 北 is seat 北's


def test_the_derivation_is_written_when_read():
    # the audit scores every win; the steps (--explain, the report, paipu hand) are written on reading
    sc = score("111p 555p 777p 99p", [pong("3p")], "self_draw", seat_wind=0, r=rules(base=2, hand_multiplier="additive"))
    assert not sc.__dict__.get("_steps")  # nothing written while scoring
    assert sc.steps == ["1. shape standard; 番 sources: 碰碰胡 duidui, 清一色 qingyise -> fan 2",
                        "2. gate: a self-draw needs no 番 (无番靠自摸)", "3. r = 2 (自摸)",
                        "4. m = 碰碰胡 3 + 清一色 4 = 7", "5. P = B × r × m = 2 × 2 × 7 = 28"]
    assert sc.steps is sc.steps  # written once, then kept
    gate = score("123m 456m 789p 99s", [pong("5s", 1)], "discard")  # near miss: no 番 on a discard
    assert not gate.wins and gate.steps[:2] == ["1. shape standard; 番 sources: none -> fan 0",
                                                "2. gate: a discard win needs 1 番: not met"]
