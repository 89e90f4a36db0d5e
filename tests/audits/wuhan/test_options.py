"""wuhan.md §10: the preset and every option, under the design's names (payment_cap, win_dealer,
guohu off); values outside the spec are refused."""

from __future__ import annotations

import pytest

from schema.ruleset import RulesetError, resolve


def test_the_preset():
    r = resolve("wuhan-hzlzg")
    assert (r.family, r.players, r.draw_reserve, r.payment_cap, r.fan_mode, r.pi_tiles, r.multi_win, r.guohu,
            r.win_dealer, r.discard_payers, r.qianggang_bao, r.dahu_stack, r.bao_precedence, r.dahu_base,
            r.jinding, r.qihu) == ("wuhan", 4, 10, 300, "kaikou", ("7z",), False, "off", "rotate", "all", True,
                                   "double", "sanpu_first", 10, None, 0)


@pytest.mark.parametrize("options", [
    {"fan_mode": "koukou"}, {"pi_tiles": ["7z", "6z"]}, {"guohu": "same_tile"}, {"win_dealer": "winner"},
    {"discard_payers": "discarder_pihu"}, {"dahu_max_laizi": 2}, {"laizi_gang_fan": 1}, {"dahu_yinghu_fan": 2},
    {"dahu_bonus": "x1.5"}, {"dahu_bonus": "fan"}, {"jinding": 0}, {"hading": 600}, {"qihu": 32},
    {"qihu_basis": "min"}, {"bao_sanpu": "qingyise_jiangyise"}, {"quanqiuren_bao": "always"},
    {"bao_precedence": "quanqiuren_first"}, {"haidi": "last_tile"}, {"multi_win": True}, {"payment_cap": 0},
    {"dahu_stack": "add"}, {"kong_after_call": False}, {"wild_max_four": False}, {"indicator_from": "tail"},
])
def test_each_option_value_is_taken(options):
    r = resolve("wuhan-hzlzg", options)
    assert all(getattr(r, k) == (tuple(v) if isinstance(v, list) else v) for k, v in options.items())


@pytest.mark.parametrize("options, match", [
    ({"players": 3}, "four seats"), ({"wild_from": "same"}, "next"), ({"wild_discard": "dead"}, "forbidden"),
    ({"pi_tiles": ["6z"]}, "pi_tiles"), ({"guohu": "any_discard"}, "guohu"), ({"discard_payers": "discarder_for_all"},
                                                                             "discard_payers"),
    ({"bao_precedence": "special_first"}, "bao_precedence"), ({"dahu_max_laizi": 3}, "dahu_max_laizi"),
    ({"laizi_gang_fan": 3}, "laizi_gang_fan"), ({"dahu_base": 0}, "dahu_base"), ({"yangzhu": True}, "not Wuhan"),
    ({"lianzhuang": "add"}, "not Wuhan"),
])
def test_values_outside_the_spec_are_refused(options, match):
    with pytest.raises(RulesetError, match=match):
        resolve("wuhan-hzlzg", options)


def test_guangdong_keeps_its_own_bao_precedence_values():
    with pytest.raises(RulesetError, match="bao_precedence"):
        resolve("guangdong-jipinghu", {"bao_precedence": "sanpu_first"})
    assert resolve("guangdong-jipinghu", {"bao_precedence": "luodi_first"}).bao_precedence == "luodi_first"
