"""The ``wenzhou`` preset (wenzhou.md §1, §10): the text's defaults, every listed value accepted,
values the family refuses; the claims with natural tiles only (§3.3, §5) and the hand size (§2)."""

import pytest

from audits import audit_game
from audits.rules.wenzhou import WENZHOU
from schema.builder import GameBuilder
from schema.ruleset import resolve
from schema.tiles import TILE_INDEX as T

from ..helpers import log_of
from .helpers import rules


def test_the_preset_plays_the_texts_defaults():
    r = resolve("wenzhou")
    assert (r.hand_size, r.tile_count, r.draw_reserve, r.base) == (16, 136, 16, 1)
    assert (r.wild_from, r.indicator_from, r.wild_discard, r.wild_stand_in) == ("same", "head", "forbidden", "5z")
    assert (r.multi_win, r.chow, r.honour_first, r.caishen_dandiao) == (False, True, True, "self_draw_only")
    assert (r.lianzhuang, r.discard_payers, r.kong_payments, r.draw_dealer, r.after_fourth) == \
        ("multiply", "all", "none", "stay", "redraw")
    assert (r.dihe_scope, r.ying_scope, r.extra_shuangfan) == ("dealer_first_discard", "any_win", "none")
    assert not (r.shaozhongfa or r.soft_badui or r.sancaishen_on_discard or r.lazila or r.maidi or r.caishenqian)


@pytest.mark.parametrize("option, values", [
    ("indicator_from", ["head", "tail"]), ("lianzhuang", ["multiply", "jinjie1", "jinjie2"]),
    ("discard_payers", ["all", "discarder_for_all"]), ("kong_payments", ["none", "at_end"]),
    ("draw_dealer", ["stay", "stay_same_level", "pass_if_kong", "next"]), ("after_fourth", ["redraw", "pass"]),
    ("dihe_scope", ["dealer_first_discard", "first_round_shangjia"]), ("ying_scope", ["any_win", "self_draw_only"]),
    ("extra_shuangfan", ["none", "pengpeng", "teshu"]), ("caishen_dandiao", ["self_draw_only", "free"]),
    ("draw_reserve", [0, 16, 20]), ("base", [1, 5]),
])
def test_every_listed_value_is_accepted(option, values):
    for v in values:
        assert getattr(resolve("wenzhou", {option: v}), option) == v


@pytest.mark.parametrize("option, value", [
    ("players", 3), ("wild_from", "next"), ("wild_discard", "dead"), ("wild_stand_in", None), ("multi_win", True),
    ("chow", False), ("lianzhuang", "none"), ("discard_payers", "discarder"), ("kong_payments", "on_win"),
    ("dihe_scope", "first_draw"), ("guohu", "any_discard"), ("dealer_bonus", "plus_one"), ("yangzhu", True),
])
def test_values_the_family_refuses(option, value):
    with pytest.raises(ValueError):
        resolve("wenzhou", {option: value})


def test_other_families_refuse_wenzhous_values():
    with pytest.raises(ValueError):
        resolve("sichuan", {"draw_dealer": "stay_same_level"})
    with pytest.raises(ValueError):
        resolve("guangdong-jipinghu", {"kong_payments": "at_end"})
    with pytest.raises(ValueError):
        resolve("xuzhou", {"draw_dealer": "pass_if_kong"})


def test_claims_take_natural_tiles_only():
    r = rules("9p")
    c = WENZHOU.claims
    assert c.check_pong(r, 1, 0, T["3m"], [T["3m"], T["3m"]]) == []
    assert [v.code for v in c.check_pong(r, 1, 0, T["3m"], [T["3m"], T["9p"]])] == ["CLAIM_SPECIAL_TILE"]
    # 白板 is a natural 9p: a chow 78p + 白板 from the 上家 stands
    assert c.check_chow(r, 4, 1, 0, T["7p"], [T["8p"], T["5z"]]) == []
    assert [v.code for v in c.check_chow(r, 4, 1, 0, T["7p"], [T["8p"], T["9p"]])] == ["CLAIM_SPECIAL_TILE"]
    # near miss: a chow from another seat than the 上家
    assert c.check_chow(r, 4, 2, 0, T["7p"], [T["8p"], T["5z"]])
    # a 财神 discard opens no claim; a discarded 白板 is a natural 9p
    assert not c.could_pong(r, [0] * 34, T["9p"])
    counts = [0] * 34
    counts[T["5z"]] = 2
    assert c.could_pong(r, counts, T["5z"])


def test_a_thirteen_tile_deal_is_hand_size():
    b = GameBuilder("wz-size", preset="wenzhou", server="t", build="1", fee=0)
    b.open()
    b.hand(1, 0, dealer_level=1)
    b.deal("123456789m1234p5p", "123456789p1234s", "456789s1234567m", "1112223334445m")
    b.indicator("9s", "9s")
    b.close("dissolved", [0, 0, 0, 0])
    codes = [f.code for f in audit_game(log_of(b)).findings]
    assert codes.count("HAND_SIZE") == 4
