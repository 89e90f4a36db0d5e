"""Guangdong 鸡平和 fans (guangdong.md §6–§7): every hand type, additional fan, special
hand, floor and 天/地/人和 with a holding case and a near miss; the win check."""

from __future__ import annotations

import pytest

from audits.rules import family_of
from audits.rules.family import WinContext
from audits.rules.guangdong import wins
from replay.melds import Meld
from schema.ruleset import resolve
from schema.tiles import TILE_INDEX, parse_hand

GD = resolve("guangdong-jipinghu")
FAM = family_of(GD)


def ti(name: str) -> int:
    return TILE_INDEX[name]


def pong(name: str, kind: str = "pong") -> Meld:
    t = ti(name)
    return Meld(kind, t, (t,) * (3 if kind == "pong" else 4), 0, None if kind == "kong_concealed" else 1)


def chow(low: str) -> Meld:
    t = ti(low)
    return Meld("chow", t, (t, t + 1, t + 2), 0, 1)


def score(hand: str, melds=(), how="discard", win=None, rules=GD, **ctx):
    tiles = parse_hand(hand)
    win_tile = ti(win) if win else tiles[-1]
    return FAM.scoring.score(rules, tiles, list(melds), WinContext(how=how, win_tile=win_tile,
                                                                   seat_wind=ctx.pop("seat", 1),
                                                                   round_wind=ctx.pop("round", 0), **ctx))


# (concealed with the winning tile, melds, how, fans of the best reading, raw fan, P)
CASES = [
    # 鸡和 0 / near miss 平和 1
    ("234m567p345s99p", [pong("8s")], "discard", ["jihu"], 0, 1),
    ("123m456m789p234s55s", [], "discard", ["pinghu"], 1, 2),
    # 碰碰和 2 / near miss a chow makes it 鸡和
    ("222m888p55s", [pong("9s"), pong("3p")], "discard", ["duidui"], 2, 4),
    ("234m888p55s", [pong("9s"), pong("3p")], "discard", ["jihu"], 0, 1),
    # 混一色 2 / near miss: two suits
    ("123m456m789m11z", [pong("2m")], "discard", ["hunyise"], 2, 4),
    ("123m456m789p11z", [pong("2m")], "discard", ["jihu"], 0, 1),
    # 平和 + 混一色 scores the higher type only (2)
    ("123m456m789m234m1z1z", [], "discard", ["hunyise"], 2, 4),
    # 自摸 +1
    ("123m456m789p234s55s", [], "self_draw", ["pinghu", "zimo"], 2, 4),
    # 门风 (seat 1 = 南 = 2z) / near miss: a pong of another wind
    ("123m456m789p55s", [pong("2z")], "discard", ["jihu", "menfeng"], 1, 2),
    ("123m456m789p55s", [pong("3z")], "discard", ["jihu"], 0, 1),
    # 圈风 (东 round = 1z)
    ("123m456m789p55s", [pong("1z")], "discard", ["jihu", "quanfeng"], 1, 2),
    # 三元 ×2, capped at 3 with 混一色
    ("456m789m1m1m", [pong("7z"), pong("6z")], "discard", ["hunyise", "sanyuan", "sanyuan"], 4, 8),
    # specials
    ("12p345p567p789p99p3p", [], "discard", ["qingyise"], 4, 16),
    ("222m555m11z", [pong("9m"), pong("3z")], "discard", ["hunpeng"], 4, 16),
    ("222m555m88m", [pong("9m"), pong("3m")], "discard", ["qingpeng"], 5, 32),
    ("111m999p11z", [pong("9s"), pong("3z")], "discard", ["hunyaojiu"], 5, 32),
    ("123m456m66z", [pong("7z"), pong("5z")], "discard", ["xiaosanyuan"], 5, 32),
    ("123m44z", [pong("1z"), pong("2z"), pong("3z")], "discard", ["xiaosixi"], 5, 32),
    ("111z222z44z", [pong("5z"), pong("6z")], "discard", ["ziyise"], 6, 64),
    ("111m999p11s", [pong("9s"), pong("1p")], "discard", ["qingyaojiu"], 6, 64),
    ("234m77s", [pong("7z"), pong("6z"), pong("5z")], "discard", ["dasanyuan"], 6, 64),
    ("77s", [pong("1z"), pong("2z"), pong("3z"), pong("4z")], "discard", ["dasixi"], 6, 64),
    ("19m19p19s1234567z1z", [], "discard", ["shisanyao"], 6, 64),
    ("11123456789999m", [], "discard", ["jiulian"], 6, 64),
]


@pytest.mark.parametrize("hand,melds,how,names,raw,points", CASES, ids=[f"{c[3]}-{c[0]}" for c in CASES])
def test_fan_table(hand, melds, how, names, raw, points):
    sc = score(hand, melds, how)
    assert sc.complete
    assert (sorted(sc.fans), sc.fan, sc.points) == (sorted(names), raw, points)


def test_jiulian_strict_needs_the_waiting_shape():
    # 1112345678999m + 5m: the 13 before 5m are the shape
    assert score("11123455678999m", how="discard", win="5m").fans == ["jiulian"]
    # the 13 before the winning 1m are 1123455678999: not the shape; strict off, it is
    assert score("11123455678999m", how="discard", win="1m").fans == ["qingyise"]
    off = resolve("guangdong-jipinghu", {"jiulian_strict": False})
    assert score("11123455678999m", how="discard", win="1m", rules=off).fans == ["jiulian"]


def test_special_hands_get_no_additional_fan_and_no_floor():
    sc = score("12p345p567p789p99p3p", how="self_draw", after_kong=True)
    assert sc.fans == ["qingyise", "gangshang_kaihua"] and sc.points == 16
    sc = score("234m77s", [pong("7z"), pong("6z"), pong("5z")], how="self_draw")
    assert sc.fans == ["dasanyuan"] and sc.points == 64


def test_floors_raise_an_ordinary_hand_to_3_and_never_add_up():
    jihu = ("234m567p345s99p", [pong("8s")])
    assert score(*jihu, how="self_draw", after_kong=True).points == 8
    assert score(*jihu, how="self_draw", after_kong=True, last_tile=True).points == 8
    assert score(*jihu, how="self_draw", last_tile=True).fans == ["jihu", "zimo", "haidi"]
    assert score(*jihu, how="robbed_kong").fans == ["jihu", "zimo", "qianggang"]
    assert score(*jihu, how="discard", winners=3).points == 8
    # near misses: two winners, or a plain self-draw, have no floor
    assert score(*jihu, how="discard", winners=2).points == 1
    assert score(*jihu, how="self_draw").points == 2


def test_heavenly_hands_are_six_whatever_the_hand():
    for name in ("tianhe", "dihe"):
        sc = score("234m567p345s99p888s", how="self_draw", heavenly=name)
        assert (sc.fans, sc.fan, sc.points) == ([name], 6, 64)
    assert score("234m567p345s99p888s", how="discard", heavenly="renhe").points == 64


def test_seven_pairs_is_no_win_unless_the_room_gives_it_a_value():
    assert not score("1122m3344p5566s77z").complete
    seven = resolve("guangdong-jipinghu", {"seven_pairs_fan": 5})
    sc = score("1122m3344p5566s77z", rules=seven)
    assert sc.complete and sc.fans == ["qidui"] and sc.points == 32


def test_base_types_stack_by_option():
    stack = resolve("guangdong-jipinghu", {"base_types_stack": True})
    sc = score("123m456m789m234m1z1z", rules=stack)
    assert sorted(sc.fans) == ["hunyise", "pinghu"] and sc.fan == 3


def test_a_hand_read_two_ways_scores_its_highest_reading():
    # 111222333m as three pongs (碰碰和 + 混一色 = 混碰 4) beats three chows
    assert score("111222333m11z", [pong("5z")]).fans == ["hunpeng"]


def test_the_win_check():
    assert wins.is_winning(GD, [0] * 34) is False
    c = [0] * 34
    for t in parse_hand("19m19p19s1234567z7z"):
        c[t] += 1
    assert wins.is_thirteen_orphans(c)
    c[ti("7z")] -= 1
    c[ti("5m")] += 1
    assert not wins.is_winning(GD, c)  # near miss: 5m is not an orphan
    counts = [0] * 34
    for t in parse_hand("123m456m789p23s55s"):
        counts[t] += 1
    assert wins.waits(GD, counts) == [ti("1s"), ti("4s")]


def test_min_fan_is_judged_without_the_yipao_floor():
    r = resolve("guangdong-jipinghu", {"min_fan": 1})
    sc = score("234m567p345s99p", [pong("8s")], how="discard", winners=3, rules=r)
    assert sc.points == 8 and not FAM.wins.fan_enough(r, "discard", sc.capped)
    sc = score("234m567p345s99p", [pong("8s")], how="self_draw", after_kong=True, rules=r)
    assert FAM.wins.fan_enough(r, "self_draw", sc.capped)


def test_the_derivation_is_written_when_read_and_names_each_step():
    # 碰碰和 + 自摸 on a self-draw: V = min(3, 3); a 杠上开花 floors an ordinary hand at 3
    sc = score("111m 222p 333s 777s 55m", how="self_draw", win="5m", after_kong=True)
    assert not sc.__dict__.get("_steps")  # the audit scored it without writing the derivation
    assert sc.steps == ["1. not 天和 / 地和 / 人和",
                        "2. reading: 碰碰和 2 + 自摸 1 -> V = min(3, 3) = 3",
                        "3. H = 3 (the highest reading)",
                        "4. 杠上开花: F = max(3, 3) = 3",
                        f"5. P = {GD.base} × 2^3 = {GD.base * 8}"]
    # near miss: a discard win with no floor event says so at step 4
    plain = score("111m 222p 333s 777s 55m", how="discard", win="5m")
    assert plain.steps[3] == "4. no floor event: F = 2" and plain.steps[-1] == f"5. P = {GD.base} × 2^2 = {GD.base * 4}"
