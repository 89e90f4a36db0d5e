"""The ``xuzhou`` preset and its options (xuzhou.md §1, §9): defaults, and each value the
family refuses (``_check_xuzhou``)."""

import pytest

from schema.ruleset import RulesetError, resolve


def test_the_preset_plays_the_texts_defaults():
    r = resolve("xuzhou")
    assert (r.family, r.players, r.chow, r.draw_reserve, r.tile_count, r.hand_size) == ("xuzhou", 4, True, 0, 136, 13)
    assert (r.wild_from, r.indicator_from, r.wild_discard, r.wild_stand_in) == ("next", "head", "dead", "5z")
    assert (r.multi_win, r.guohu, r.luanpai, r.shape_gate) == (True, "any_discard", "shisanlan", "none")
    assert (r.base, r.dianpao_units, r.zimo_units, r.dealer_bonus, r.xiazui) == (1, 1, 1, "plus_one", "off")
    assert (r.draw_dealer, r.last_discard_claims) == ("stay", "all")
    assert r.wilds == ()  # the 配子 comes from each hand's indicator


@pytest.mark.parametrize("options", [
    {"wild_from": "same", "wild_discard": "forbidden", "luanpai": "shisanyao", "shape_gate": "bazhi",
     "dealer_bonus": "double", "xiazui": "max_two", "dianpao_units": 2, "zimo_units": 3, "multi_win": False,
     "draw_dealer": "next", "last_discard_claims": "win_only", "indicator_from": "tail", "base": 2},
    {"luanpai": "off", "dealer_bonus": "none", "xiazui": "max_one"},
])
def test_every_listed_value_is_accepted(options):
    r = resolve("xuzhou", options)
    assert all(getattr(r, k) == v for k, v in options.items())


@pytest.mark.parametrize("options, why", [
    ({"wild_from": "preset"}, "turned indicator"),
    ({"wild_discard": "plain"}, "dead or forbidden"),
    ({"guohu": "same_tile"}, "过胡"),
    ({"luanpai": "both"}, "luanpai"),
    ({"dealer_bonus": "per_unit"}, "dealer_bonus"),
    ({"dianpao_units": 0}, "units"),
    ({"players": 3}, "four seats"),
    ({"yangzhu": True}, "Qujing options"),
    ({"wild_stand_in": "7z"}, "白板"),
    ({"lianzhuang": "add"}, "not Xuzhou options"),
    ({"xiazui": "max_three"}, "xiazui"),
    # §9: base ≥ 1, draw_reserve ≥ 0, zimo_units ≥ 1 (near misses of the accepted values above)
    ({"base": 0}, "base must be at least 1"),
    ({"draw_reserve": -1}, "draw_reserve must be at least 0"),
    ({"zimo_units": 0}, "units"),
    ({"draw_dealer": "winner"}, "draw_dealer"),
])
def test_values_the_family_refuses(options, why):
    with pytest.raises(RulesetError, match=why):
        resolve("xuzhou", options)
