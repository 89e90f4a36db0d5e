"""``paipu hand --preset changsha``: the win context (开杠 reveals, 海底, 天胡 / 地胡), the 将 pair,
and the transfers with birds and the dealer (changsha.md §9, §10, §13)."""

from __future__ import annotations

import pytest

from paipu.hand_cmd import InputError, evaluate


def ask(**req):
    return evaluate({"preset": "changsha", **req})


def pairs(res):
    out = {}
    for t in res["transfers"]:
        out[(t["payer"], t["payee"])] = out.get((t["payer"], t["payee"]), 0) + t["amount"]
    return out


def test_small_win_with_birds_example_1():
    res = ask(hand="123m456m789p34s55s", tile="2s", how="discard", seat=2, from_seat=1, dealer=0,
              birds="7m4p", bird_origin=2)
    assert res["wins"] and res["fans"] == ["jihu"] and res["points"] == 1
    assert pairs(res) == {(1, 2): 2}


def test_pair_not_258_near_miss():
    res = ask(hand="123m456m789p34s33s", tile="2s", how="discard")
    assert not res["wins"] and res["complete"]
    assert ask(hand="123m456m789p34s33s", tile="2s", how="discard", options={"jiajiang_hu": True})["wins"]


def test_kaigang_reveal_example_5():
    res = ask(hand="234m678p45m88m", melds="ckong:5s", tile="6m", reveal=1, seat=2, dealer=0,
              birds="2p9s", bird_origin=2)
    assert res["fans"] == ["gangshang_kaihua"] and res["points"] == 6
    assert pairs(res) == {(0, 2): 13, (1, 2): 12, (3, 2): 18}
    both = ask(hand="234m678p45m88m", melds="ckong:5s", tile="6m", reveal=2)
    assert both["fans"] == ["gangshang_kaihua"] * 2 and both["points"] == 12
    # near miss: no reveal, an ordinary self-draw
    assert ask(hand="234m678p45m88m", melds="ckong:5s", tile="6m")["fans"] == ["jihu"]


def test_gangshang_pao_and_sea_bottom():
    assert ask(hand="234m567m456p34s88s", tile="5s", how="discard", reveal=1)["fans"] == ["gangshang_pao"]
    assert ask(hand="234m567m456p34s88s", tile="5s", how="discard", last_tile=True)["fans"] == ["haidi_pao"]
    assert ask(hand="234m567m456p34s88s", tile="5s", last_tile=True)["fans"] == ["haidi"]
    with pytest.raises(InputError):
        ask(hand="234m567m456p34s88s", tile="5s", how="discard", reveal=2)


def test_waits_and_the_classic_sheet_with_its_opening_base():
    assert ask(hand="234m678p45m88m", melds="ckong:5s")["waits"] == ["3m", "6m"]
    res = ask(hand="11p22p33p55p66p77p9p", tile="9p", how="discard", seat=0, from_seat=2, dealer=0,
              birds="4s7m", bird_origin=0, openings={"0": 1})
    assert sorted(res["fans"]) == ["qidui", "qingyise"] and res["points"] == 12
    assert pairs(res) == {(2, 0): 29, (3, 0): 5, (1, 0): 3}
