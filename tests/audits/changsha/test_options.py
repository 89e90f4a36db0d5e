"""The Changsha presets and every option of changsha.md §11 (with the shared names of
shared/design/new-families.md §3), each value accepted, the values the family refuses."""

from __future__ import annotations

import pytest

from schema.ruleset import RulesetError, resolve


def test_the_presets_play_the_specs_defaults():
    r = resolve("changsha")
    assert r.tile_count == 108 and r.hand_size == 13 and r.chow and r.wilds == () and r.draw_reserve == 0
    assert (r.qishou_value, r.extra_qishou, r.qishou_repeat, r.qishou_birds) == (2, False, False, True)
    assert (r.kaigang_count, r.kaigang_source, r.kaigang_claims, r.shuang_gangkai, r.buzhang_kaihua) == \
        (2, "free", "win_only", "double", False)
    assert (r.jiajiang_hu, r.quanqiuren_self_draw, r.quanqiuren_258) == (False, True, False)
    assert (r.bird_count, r.bird_source, r.empty_wall_bird, r.bird_origin, r.bird_mode) == \
        (2, "head", "last_tile", "winner", "add_multiple")
    assert (r.guohu, r.dihe_scope, r.qianggang_bao, r.dahu_stack, r.dealer_bonus, r.multi_win) == \
        ("any_discard", "dealer_first_discard", False, "add", "plus_one", True)
    assert (r.tiandihu, r.kong_payments, r.first_dealer, r.base) == (True, "none", "any", 1)
    j = resolve("changsha-jiajiang")
    assert j.jiajiang_hu and j.extra_qishou and j.family == "changsha"


@pytest.mark.parametrize("key,values", [
    ("qishou_value", [1, 3]), ("extra_qishou", [True]), ("qishou_repeat", [True]), ("qishou_birds", [False]),
    ("kaigang_count", [4]), ("kaigang_source", ["tail"]), ("kaigang_claims", ["all"]),
    ("shuang_gangkai", ["single"]), ("buzhang_kaihua", [True]), ("jiajiang_hu", [True]),
    ("quanqiuren_self_draw", [False]), ("quanqiuren_258", [True]), ("bird_count", [0, 1, 4, 6]),
    ("bird_source", ["tail"]), ("empty_wall_bird", ["none"]), ("bird_origin", ["dealer"]),
    ("bird_mode", ["double", "plus_point"]), ("guohu", ["higher_value", "off"]), ("dihe_scope", ["first_draw"]),
    ("qianggang_bao", [True]), ("dahu_stack", ["double"]), ("dealer_bonus", ["per_unit", "none"]),
    ("multi_win", [False]), ("tiandihu", [False]), ("first_dealer", ["creator"]), ("base", [2]),
])
def test_every_listed_value_is_accepted(key, values):
    for v in values:
        assert getattr(resolve("changsha", {key: v}), key) == v


@pytest.mark.parametrize("key,value", [
    ("kaigang_count", 3), ("bird_count", 3), ("qishou_value", 0), ("guohu", "same_tile"),
    ("dihe_scope", "first_draw_or_dealer_discard"), ("dealer_bonus", "double"), ("players", 3),
    ("wilds", ["7z"]), ("chow", False), ("kong_payments", "on_win"), ("qianggang_bao", None),
    ("draw_reserve", 14), ("wild_from", "next"), ("luanpai", "shisanlan"),
])
def test_values_the_family_refuses(key, value):
    with pytest.raises(RulesetError):
        resolve("changsha", {key: value})


def test_other_families_keep_the_changsha_options_at_their_defaults():
    with pytest.raises(RulesetError):
        resolve("sichuan", {"bird_count": 4})
    with pytest.raises(RulesetError):
        resolve("qujing-xiaoji", {"kaigang_count": 4})
    with pytest.raises(RulesetError):
        resolve("sichuan", {"dihe_scope": "dealer_first_discard"})
