"""Xuzhou claims (xuzhou.md §3.3, §5): natural tiles only, 白板 as W, the dead 配子."""

from replay.melds import Meld
from audits.rules.xuzhou import claims
from schema.tiles import TILE_INDEX as T

from .helpers import counts, rules


def codes(vs):
    return [v.code for v in vs]


def test_chow_with_white_as_w():
    r = rules("5p")  # 白 = 5p
    assert claims.check_chow(r, 4, 1, 0, T["4p"], [T["5z"], T["6p"]]) == []
    # near miss: the 配子 itself in the chow
    assert codes(claims.check_chow(r, 4, 1, 0, T["4p"], [T["5p"], T["6p"]])) == ["CLAIM_SPECIAL_TILE"]
    # white as itself makes no run once it reads as 5p
    assert codes(claims.check_chow(r, 4, 1, 0, T["6p"], [T["5z"], T["5p"] + 3])) == ["CLAIM_MELD_INVALID"]


def test_chow_only_from_shangjia():
    r = rules("5p")
    assert codes(claims.check_chow(r, 4, 1, 3, T["1m"], [T["2m"], T["3m"]])) == ["CLAIM_CHOW_WRONG_SEAT"]
    assert claims.check_chow(r, 4, 1, 0, T["1m"], [T["2m"], T["3m"]]) == []


def test_pong_and_kongs_natural_only():
    r = rules("5p")
    assert claims.check_pong(r, 1, 0, T["1z"], [T["1z"], T["1z"]]) == []
    assert codes(claims.check_pong(r, 1, 0, T["1z"], [T["1z"], T["5p"]])) == ["CLAIM_SPECIAL_TILE"]
    assert codes(claims.check_exposed_kong(r, 1, 0, T["1z"], T["1z"], [T["1z"], T["1z"], T["5p"]])) \
        == ["CLAIM_SPECIAL_TILE"]
    assert claims.check_exposed_kong(r, 1, 0, T["1z"], T["1z"], [T["1z"]] * 3) == []
    assert codes(claims.check_added_kong(r, T["1z"], T["5p"])) == ["CLAIM_SPECIAL_TILE"]
    assert claims.check_added_kong(r, T["1z"], T["1z"]) == []
    assert codes(claims.check_concealed_kong(r, T["1z"], [T["1z"]] * 3 + [T["5p"]])) == ["CLAIM_SPECIAL_TILE"]
    assert claims.check_concealed_kong(r, T["5z"], [T["5z"]] * 4) == []


def test_pong_of_white_with_w_face():
    r = rules("5p")
    # a discarded 白板 is a 5p: two more 白板 pong it
    assert claims.could_pong(r, counts("5z 5z 1m"), T["5z"])
    assert claims.check_pong(r, 1, 0, T["5z"], [T["5z"], T["5z"]]) == []


def test_dead_pei_opens_no_claim():
    r = rules("5p")
    c = counts("5z 5z 5z 46p")
    assert not claims.could_pong(r, c, T["5p"]) and not claims.could_kong(r, c, T["5p"])
    assert claims.chow_options(r, c, T["5p"], 1, 0) == []
    assert claims.exposed_kong_options(r, c, T["5p"]) == []
    # near miss: a discarded 白板 (a natural 5p) is open
    assert claims.could_kong(r, c, T["5z"])
    assert (T["4p"], T["6p"]) in claims.chow_options(r, c, T["5z"], 1, 0)


def test_chow_options_use_white_for_w():
    r = rules("5p")
    assert claims.chow_options(r, counts("5z 6p"), T["4p"], 1, 0) == [(T["5z"], T["6p"])]
    # the 配子 is never offered
    assert claims.chow_options(r, counts("5p 6p"), T["4p"], 1, 0) == []
    # not from the 上家
    assert claims.chow_options(r, counts("5z 6p"), T["4p"], 1, 2) == []


def test_kong_options_never_take_pei():
    r = rules("5p")
    assert claims.concealed_kong_options(r, counts("5555p 1111z")) == [(T["1z"], (T["1z"],) * 4)]
    melds = [Meld("pong", T["2z"], (T["2z"],) * 3, 0, 0)]
    assert claims.added_kong_options(r, counts("2z 5p"), melds) == [(T["2z"], T["2z"])]
    assert claims.added_kong_options(r, counts("5p"), melds) == []


def test_discard_rule():
    from audits.rules.xuzhou import XUZHOU
    discard_rule = XUZHOU.table.discard_rule
    assert discard_rule(rules("5p"), None, 1, T["5p"])[:2] == (True, None)
    v = discard_rule(rules("5p", wild_discard="forbidden"), None, 1, T["5p"])
    assert v.dead and v.violation.code == "SPECIAL_TILE_DISCARDED"
    # near miss: a 白板 is a natural tile, live
    assert discard_rule(rules("5p", wild_discard="forbidden"), None, 1, T["5z"])[:2] == (False, None)
    # before the indicator there is no 配子: every discard is live
    assert discard_rule(rules(None), None, 1, T["5p"])[:2] == (False, None)


def test_no_pass_bars_a_pong_or_kong():
    from audits.rules.family import PassBook
    from audits.rules.xuzhou import XUZHOU
    pass_violation = XUZHOU.claims.pass_violation
    book = PassBook(4, XUZHOU.claims.tile_passes)
    book.let_wins_go([1], [], T["3m"], False)
    r = rules("5p")
    assert pass_violation(book, 1, "pong", T["3m"], lambda s, t, kd: True, rules=r) is None
    assert pass_violation(book, 1, "win", T["3m"], lambda s, t, kd: True, rules=r) == "WIN_DURING_GUOHU"
