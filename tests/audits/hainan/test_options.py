"""The hainan preset and its options (hainan.md §1, §10): defaults, and values the family rejects."""

import pytest

from schema.ruleset import RulesetError, resolve


def test_preset_defaults():
    r = resolve("hainan")
    assert (r.tile_count, r.players, r.chow, r.draw_reserve, r.draw_dealer, r.multi_win) == (144, 4, True, 15, "stay", False)
    assert (r.min_fan, r.guohu, r.luanpai, r.lianzhuang, r.dealer_unit_bonus, r.hand_multiplier) == \
        (1, "off", "shisanlan", "none", 0, "none")
    assert (r.kong_values, r.baogang, r.bao_sidao, r.haidi_bao, r.haidi_bao_from, r.genpai, r.flower_money) == \
        ((1, 1, 2), True, True, False, 19, "on_win", "none")
    assert (r.kong_replacement, r.opening_buhua, r.last_discard_claims, r.qidui_four_as_two) == \
        ("tail", "by_seat", "win_only", True)
    assert (r.menqing_concealed_kong, r.kong_fan, r.kong_payments) == (False, False, "on_win")


@pytest.mark.parametrize("opts", [
    {"min_fan": 0}, {"guohu": "same_tile"}, {"luanpai": "both"}, {"lianzhuang": "multiply"},
    {"dealer_unit_bonus": 2}, {"hand_multiplier": "additive"}, {"kong_values": [1, 2, 2]}, {"genpai": "always"},
    {"flower_money": "sets"}, {"haidi_bao": True}, {"kong_replacement": "head"}, {"opening_buhua": "by_round"},
])
def test_each_option_value_is_accepted(opts):
    assert resolve("hainan", opts)


@pytest.mark.parametrize("opts", [
    {"multi_win": True}, {"min_fan": 2}, {"guohu": "any_discard"}, {"luanpai": "off"}, {"lianzhuang": "jinjie1"},
    {"kong_payments": "none"}, {"draw_dealer": "next"}, {"players": 3}, {"wilds": ["5z"]}, {"kong_values": [1, -1, 2]},
    {"dealer_unit_bonus": -1}, {"dealer_bonus": "plus_one"}, {"yangzhu": True},
])
def test_values_outside_the_family_are_rejected(opts):
    with pytest.raises(RulesetError):
        resolve("hainan", opts)
