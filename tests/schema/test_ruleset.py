import pytest

from schema.ruleset import PRESETS, Ruleset, RulesetError, parse_option, resolve


def test_presets_name_their_wild_tiles():
    assert PRESETS["qujing-xiaoji"].wilds == ("1s",)
    assert PRESETS["qujing-baiban"].wilds == ("5z",)
    assert PRESETS["qujing-shuanggui"].wilds == ("5z", "7z")


def test_defaults_follow_the_rules_document():
    r = PRESETS["qujing-xiaoji"]
    assert (r.chow, r.fan_cap, r.base, r.draw_reserve, r.draw_reserve_counts_tail) == (False, 3, 1, 20, True)


def test_overrides_apply_on_the_preset():
    r = resolve("qujing-baiban", {"chow": True, "fan_cap": 5})
    assert r.chow and r.fan_cap == 5 and r.wilds == ("5z",)


def test_unknown_preset_and_bad_option_are_clear_errors():
    with pytest.raises(RulesetError, match="unknown preset"):
        resolve("qujing-nope")
    with pytest.raises(RulesetError, match="fan_cap"):
        resolve("qujing-xiaoji", {"fan_cap": 9})
    with pytest.raises(RulesetError, match="chow"):
        resolve("qujing-xiaoji", {"chow": "yes"})


def test_dianji_and_yangzhu_are_mutually_exclusive():
    with pytest.raises(ValueError, match="点鸡"):
        Ruleset(dianji=True, yangzhu=True)
    assert Ruleset(dianji=True).dianji and Ruleset(yangzhu=True).yangzhu


def test_reserve_by_kong_count_option():
    assert Ruleset().reserve_for(3) == 20
    r = Ruleset(draw_reserve_by_kongs=(20, 14, 16))
    assert [r.reserve_for(k) for k in range(4)] == [20, 14, 16, 16]


def test_parse_option_reads_json_values():
    assert parse_option("chow=true") == ("chow", True)
    assert parse_option("fan_cap=4") == ("fan_cap", 4)
    assert parse_option("wilds=5z,7z") == ("wilds", ["5z", "7z"])
    with pytest.raises(RulesetError, match="unknown option"):
        parse_option("chwo=true")
    with pytest.raises(RulesetError, match="key=value"):
        parse_option("chow")


# --- the shared ground of the new families (shared/design/new-families.md §1) ------------

@pytest.mark.parametrize("family, tiles", [("qujing", 136), ("guangdong", 136), ("sichuan", 108),
                                           ("changsha", 108), ("hainan", 144), ("wuhan", 136)])
def test_tile_count_is_the_family_set(family, tiles):
    rules = Ruleset(family=family, wilds=()) if family != "wuhan" else PRESETS["wuhan-hzlzg"]
    assert rules.tile_count == tiles


@pytest.mark.parametrize("family, size", [("qujing", 13), ("sichuan", 13), ("wenzhou", 16), ("xuzhou", 13)])
def test_hand_size_is_16_only_for_the_16_tile_families(family, size):
    # a family with its own checks is built from its preset
    rules = PRESETS[family] if family in PRESETS else Ruleset(family=family, wilds=())
    assert rules.hand_size == size


def test_fan_cap_is_each_familys_own_check():
    with pytest.raises(ValueError, match="fan_cap must be 3, 4, 5 or 6"):
        Ruleset(fan_cap=2)  # Qujing: 3..6
    assert resolve("sichuan", {"fan_cap": 2}).fan_cap == 2  # Sichuan allows 2
    with pytest.raises(RulesetError, match="fan_cap must be 2, 3, 4, 5 or 6"):
        resolve("sichuan", {"fan_cap": 7})
    with pytest.raises(ValueError, match="爆和"):
        Ruleset(family="guangdong", wilds=(), fan_cap=4)
    # a family without a fan cap (a new family) is not held to 3..6
    assert resolve("wuhan-hzlzg", {"fan_cap": 0}).fan_cap == 0


def test_shared_options_default_to_todays_play():
    r = PRESETS["qujing-xiaoji"]
    assert (r.wild_from, r.indicator_from, r.wild_discard, r.wild_stand_in, r.guohu, r.payment_cap,
            r.lianzhuang, r.dealer_bonus, r.luanpai) == ("preset", "head", "plain", None, None, 0,
                                                         "none", "none", "off")


@pytest.mark.parametrize("preset", ["qujing-xiaoji", "guangdong-jipinghu", "sichuan"])
@pytest.mark.parametrize("option, value", [("wild_from", "next"), ("wild_discard", "dead"),
                                           ("wild_stand_in", "5z"), ("guohu", "off"), ("payment_cap", 8),
                                           ("lianzhuang", "add"), ("luanpai", "both")])
def test_the_three_families_refuse_a_shared_option_they_do_not_play(preset, option, value):
    with pytest.raises(RulesetError, match=f"{option} is not an option of"):
        resolve(preset, {option: value})


def test_a_new_family_takes_the_shared_options():
    # a family without a check of its own (xuzhou has one: tests/audits/xuzhou/test_options.py)
    r = Ruleset(family="a-new-family", wilds=(), wild_from="next", indicator_from="tail", wild_discard="dead",
                wild_stand_in="5z", guohu="any_discard", lianzhuang="jinjie2", payment_cap=10)
    assert (r.wild_from, r.indicator_from, r.wild_stand_in, r.payment_cap) == ("next", "tail", "5z", 10)
    with pytest.raises(ValueError, match="payment_cap"):
        Ruleset(family="wuhan", wilds=(), payment_cap=-1)


def test_shared_options_refuse_values_outside_their_union():
    with pytest.raises(RulesetError, match="wild_from"):
        resolve("qujing-xiaoji", {"wild_from": "previous"})
    with pytest.raises(RulesetError, match="guohu"):
        resolve("qujing-xiaoji", {"guohu": "none"})  # the design's name is ``off``
