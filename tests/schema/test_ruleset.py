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
