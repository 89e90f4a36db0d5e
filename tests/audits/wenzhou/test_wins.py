"""Wenzhou win shapes (wenzhou.md §6, §7), the multiple M (§8) and ``paipu hand``: each rule
holding and a near miss failing."""

import pytest

from audits.rules.wenzhou import caishen, fans, wins
from paipu.hand_cmd import evaluate
from schema.tiles import TILE_INDEX as T

from .helpers import counts, meld, rules, score


def test_seventeen_tiles_five_sets_and_a_pair():
    r = rules("9p")
    assert wins.is_winning(r, counts("123m 456m 789m 234s 678s 11z"))
    assert not wins.is_winning(r, counts("123m 456m 789m 234s 678s 12z"))  # near miss: no pair


def test_baiban_stands_in_for_w_and_no_caishen_stands_for_baiban():
    r = rules("3s")  # W = 3s: 白板 is a natural 3s
    assert wins.is_winning(r, counts("123m 456m 789m 456p 12s 5z 77z"))  # 12s + 白板(3s)
    sc = score(r, "123m 456m 789m 456p 12s 5z 77z", "discard", "7z")
    assert sc.fans == ["yinghu"]  # 白板 is natural: 硬
    # a 财神 cannot be 白板: 中中 + 财神 is fine as 中, but 白白 + 财神 is a 3s pong with the 财神 归位
    assert caishen.use_of(r)[T["5z"]] == 4


def test_shaozhongfa_bars_caishen_as_zhong():
    hand = counts("123m 456m 789m 456p 789p 7z 3s")  # 中 + 财神 as the pair
    assert wins.is_winning(rules("3s"), hand)
    assert not wins.is_winning(rules("3s", shaozhongfa=True), hand)


def test_hard_and_soft_readings():
    r = rules("9p")
    # the 财神 归位 (a 9p in 789p): 硬
    assert score(r, "123m 456m 789m 78p 9p 234s 11z", "discard", "1z").fans == ["yinghu"]
    # the 财神 must stand for another kind: 软
    assert score(r, "123m 456m 789m 46p 9p 234s 11z", "discard", "1z").fans == ["ruanhu"]
    # ying_scope = self_draw_only: a wild-free discard win is ×1, a self-draw ×2
    lit = rules("9p", ying_scope="self_draw_only")
    assert score(lit, "123m 456m 789m 78p 9p 234s 11z", "discard", "1z").points == 1
    assert score(lit, "123m 456m 789m 78p 9p 234s 11z", "self_draw", "1z").points == 2
    # a robbed kong is 硬 with a 财神 standing in
    assert score(r, "123m 456m 789m 46p 9p 234s 11z", "robbed_kong", "1z").fans == ["yinghu"]


def test_badui_hard_soft_and_the_option():
    r = rules("9p")
    hard = score(r, "11m 22m 33m 44p 55p 66s 77s 11z 5m", "self_draw", "5m")
    assert hard.fans == ["yinghu", "badui"] and hard.points == 4
    # four equal tiles are two pairs
    assert score(r, "1111m 33m 44p 55p 66s 77s 11z 5m", "self_draw", "5m").fans == ["yinghu", "badui"]
    soft = "11m 22m 33m 44p 55p 66s 7s 9p 11z 5m"  # the 财神 pairs 7s
    assert not score(r, soft, "self_draw", "5m").wins
    assert score(rules("9p", soft_badui=True), soft, "self_draw", "5m").points == 1
    # near miss: seven pairs and three singles
    assert not score(r, "11m 22m 33m 44p 55p 66s 11z 5m 7m 9m", "self_draw", "9m").wins
    # near miss: a meld, not fully concealed
    assert not fans.score_hand(r, [T[x] for x in "1m 1m 2m 2m 4p 4p 5p 5p 6s 6s 1z 1z 5m 7m".split()],
                               [meld("pong", "333m")], fans.WinContext(how="self_draw", win_tile=T["7m"])).wins


def test_caishen_dandiao_state():
    r = rules("2p")
    melds = [meld("pong", "111m"), meld("pong", "222m"), meld("pong", "333m"), meld("pong", "444m"),
             meld("pong", "555m")]
    assert wins.in_caishen_dandiao(r, counts("2p"), melds)
    assert not wins.in_caishen_dandiao(r, counts("7s"), melds)
    # two 财神 and a set: one 财神 set apart, the rest 123s + 财神 … not sets; 12s + 财神 is a set
    assert wins.in_caishen_dandiao(r, counts("12s 2p 2p"), melds[:4])
    assert not wins.in_caishen_dandiao(r, counts("15s 2p 2p"), melds[:4])


@pytest.mark.parametrize("option, hand, melds, how, name", [
    ("pengpeng", "111m 444p 777s 222z 99m 55s 5p", (), "self_draw", "duidui"),
    ("teshu", "123m 456m 789m 234m 678m 99m", (), "discard", "qingyise"),
    ("teshu", "123m 456m 789m 234m 111z 99m", (), "discard", "hunyise"),
])
def test_extra_shuangfan(option, hand, melds, how, name):
    plain = score(rules("5p"), hand, how, None)
    assert name not in plain.fans  # near miss: the default plays the seed's five 双翻 only
    got = score(rules("5p", extra_shuangfan=option), hand, how, None)
    assert name in got.fans and got.points == 4


def test_paipu_hand_wenzhou():
    got = evaluate({"preset": "wenzhou", "hand": "123m456m789m234s6p99s1z", "tile": "7p", "how": "discard",
                    "indicator": "1z", "seat": 2, "from_seat": 1, "dealer": 0})
    assert got["wins"] and got["fans"] == ["ruanhu"] and got["points"] == 1
    assert sorted((t["payer"], t["amount"]) for t in got["transfers"]) == [(0, 1), (1, 1), (3, 1)]
    lvl = evaluate({"preset": "wenzhou", "hand": "111m234m567p789p345s8s", "tile": "8s", "indicator": "4z",
                    "seat": 0, "dealer": 0, "dealer_level": 2})
    assert [t["amount"] for t in lvl["transfers"]] == [4, 4, 4]
    waits = evaluate({"preset": "wenzhou", "hand": "123m456m789m234s6p99s1z", "indicator": "4z"})
    assert "16-tile hand" in waits["reason"]


def test_paipu_hand_tells_a_bare_sancaishen_after_a_call_apart():
    # wenzhou.md §7.3: three 财神 and no shape win bare on a drawn turn, not after a chow or pong
    # (``--context after_call=true``)
    req = {"preset": "wenzhou", "hand": "1m4m7m2p5p8p3s6s9s2m5s5s5s", "melds": ["pong:7z"], "indicator": "5s",
           "tile": "1p"}
    drawn = evaluate(req)
    assert drawn["wins"] and drawn["fans"] == ["yinghu", "sancaishen_bare"] and drawn["points"] == 2
    called = evaluate({**req, "context": {"after_call": True}})
    assert not called["wins"] and not called["complete"]
    import pytest as _pytest
    from paipu.hand_cmd import InputError
    with _pytest.raises(InputError, match="after_call"):
        evaluate({**req, "how": "discard", "context": {"after_call": True}})
