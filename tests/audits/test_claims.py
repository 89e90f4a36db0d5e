"""Claims (qujing.md §3–§4) and the seed's chow+kong / pong+kong 杠上开花 examples."""

from __future__ import annotations

from audits.claims import (PassState, added_kong_options, can_rob, check_added_kong, check_chow,
                           check_concealed_kong, check_exposed_kong, check_pong, chow_options,
                           concealed_kong_options, exposed_kong_options, pong_possible, resolve_claims)
from audits.fans import WinContext, score_hand
from replay.melds import Meld
from schema.ruleset import resolve
from schema.tiles import counts_of, parse_hand, tile_index as ti

XJ = resolve("qujing-xiaoji")
XJC = resolve("qujing-xiaoji", {"chow": True})
SG = resolve("qujing-shuanggui")
C = lambda s: counts_of(parse_hand(s))  # noqa: E731
T = parse_hand


def test_chow_from_shangjia_holds():
    assert check_chow(C("67s"), T("67s"), ti("5s"), 1, 0, XJC) is None


def test_chow_near_miss_not_shangjia():
    assert check_chow(C("67s"), T("67s"), ti("5s"), 1, 2, XJC) == "chow_not_from_shangjia"


def test_chow_near_miss_disabled():
    assert check_chow(C("67s"), T("67s"), ti("5s"), 1, 0, XJ) == "chow_disabled"


def test_chow_chicken_only_as_plain_1s():
    assert check_chow(C("23s"), T("23s"), ti("1s"), 1, 0, XJC) is None
    assert check_chow(C("1s3s"), T("1s3s"), ti("2s"), 1, 0, XJC) is None
    assert check_chow(C("1s5s"), T("1s5s"), ti("4s"), 1, 0, XJC) == "chow_not_a_run"


def test_chow_near_miss_honours():
    assert check_chow(C("23z"), T("23z"), ti("1z"), 1, 0, XJC) == "chow_not_a_run"


def test_pong_holds():
    assert check_pong(C("55p"), T("55p"), ti("5p"), 2, 0, XJ) is None


def test_pong_near_miss_chicken_not_wild():
    assert check_pong(C("5p1s"), T("5p1s"), ti("5p"), 2, 0, XJ) == "pong_tiles_mismatch"


def test_pong_two_chickens_pong_discarded_chicken():
    assert check_pong(C("11s"), T("11s"), ti("1s"), 2, 0, XJ) is None
    assert pong_possible(C("11s"), ti("1s"))


def test_exposed_kong_three_natural_holds():
    assert check_exposed_kong(C("222p"), ti("2p"), T("222p"), ti("2p"), 1, 0, XJ) is None


def test_exposed_kong_pair_plus_chicken_holds():
    assert check_exposed_kong(C("22p1s"), ti("2p"), T("22p1s"), ti("2p"), 1, 0, XJ) is None


def test_exposed_kong_near_miss_one_natural_two_chickens():
    assert check_exposed_kong(C("2p11s"), ti("2p"), T("2p11s"), ti("2p"), 1, 0, XJ) \
        == "kong_exposed_one_natural_two_chickens"


def test_added_kong_natural_or_chicken_holds():
    melds = [Meld("pong", ti("7z"), tuple(T("777z")))]
    assert check_added_kong(C("7z"), melds, ti("7z"), ti("7z"), XJ) is None
    assert check_added_kong(C("1s"), melds, ti("7z"), ti("1s"), XJ) is None


def test_added_kong_near_miss_no_pong():
    assert check_added_kong(C("7z"), [], ti("7z"), ti("7z"), XJ) == "added_kong_without_pong"


def test_concealed_kong_all_mixes_hold():
    for hand in ("4444p", "444p1s", "44p11s", "4p111s"):
        assert check_concealed_kong(C(hand), ti("4p"), T(hand), XJ) is None, hand


def test_concealed_kong_four_chickens_is_natural_kong_of_1s():
    assert check_concealed_kong(C("1111s"), ti("1s"), T("1111s"), XJ) is None


def test_concealed_kong_near_miss_wrong_tile():
    assert check_concealed_kong(C("444p5p"), ti("4p"), T("444p5p"), XJ) == "kong_tiles_mismatch"


def test_only_added_kong_can_be_robbed():
    assert can_rob("kong_added") and not can_rob("kong_exposed") and not can_rob("kong_concealed")


def test_priority_win_kong_pong_chow():
    assert resolve_claims({1: "chow", 2: "pong"}, 0, 4) == ("pong", [2])
    assert resolve_claims({1: "chow", 3: "kong"}, 0, 4) == ("kong", [3])
    assert resolve_claims({1: "win", 3: "win", 2: "kong"}, 2, 4) == ("win", [3, 1])


def test_pass_rules_guoshou_peng_gang_hu():
    p = PassState()
    p.passed(["pong", "kong", "win"], ti("5p"))
    assert p.violation("pong", ti("5p")) == "guoshou_peng"
    assert p.violation("pong", ti("6p")) is None
    assert p.violation("kong", ti("5p")) == "guoshou_gang"
    assert p.violation("win", ti("9m")) == "guohu"
    p.acted()
    assert p.violation("win", ti("9m")) is None


def test_enumerators():
    assert chow_options(C("3467s"), ti("5s"), 1, 0, XJC) == [(ti("3s"), ti("4s")), (ti("4s"), ti("6s")),
                                                            (ti("6s"), ti("7s"))]
    assert chow_options(C("3467s"), ti("5s"), 1, 2, XJC) == []
    assert exposed_kong_options(C("22p1s"), ti("2p"), XJ) == [(ti("2p"), ti("2p"), ti("1s"))]
    assert exposed_kong_options(C("2p11s"), ti("2p"), XJ) == []
    kinds = {k for k, _ in concealed_kong_options(C("4p111s"), XJ)}
    assert ti("4p") in kinds
    assert (ti("4p"), (ti("4p"), ti("5z"), ti("7z"), ti("7z"))) in concealed_kong_options(C("4p5z77z"), SG)
    melds = [Meld("pong", ti("7z"), tuple(T("777z")))]
    assert added_kong_options(C("7z1s"), melds, XJ) == [(ti("7z"), ti("7z")), (ti("7z"), ti("1s"))]


# seed: 尾部翻开为2万、4条 ---------------------------------------------------------
def test_seed_chow_then_kong_gangshang_kaihua():
    hand = C("34m4444p222p66p67s")
    for discard in ("5s", "8s"):
        pair = chow_options(hand, ti(discard), 1, 0, XJC)
        run = [p for p in pair if set(p) <= {ti("6s"), ti("7s")}][0]
        assert check_chow(hand, run, ti(discard), 1, 0, XJC) is None
        after = list(hand)
        for t in run:
            after[t] -= 1
        assert check_concealed_kong(after, ti("4p"), T("4444p"), XJC) is None
        lo = min(run + (ti(discard),))
        melds = [Meld("chow", lo, (lo, lo + 1, lo + 2), from_seat=0),
                 Meld("kong_concealed", ti("4p"), tuple(T("4444p")))]
        s = score_hand(T("34m222p66p") + [ti("2m")], melds, XJC,
                       WinContext("self_draw", ti("2m"), after_kong=True))
        assert s.wins and "gangshang_kaihua" in s.fans


def test_seed_pong_then_kong_gangshang_kaihua():
    hand = C("34m4444p22p66p567s")
    for pong, pair_left in (("2p", "66p"), ("6p", "22p")):
        assert check_pong(hand, [ti(pong)] * 2, ti(pong), 2, 0, XJ) is None
        after = list(hand)
        after[ti(pong)] -= 2
        assert check_concealed_kong(after, ti("4p"), T("4444p"), XJ) is None
        melds = [Meld("pong", ti(pong), (ti(pong),) * 3, from_seat=0),
                 Meld("kong_concealed", ti("4p"), tuple(T("4444p")))]
        s = score_hand(T("34m" + pair_left + "567s") + [ti("2m")], melds, XJ,
                       WinContext("self_draw", ti("2m"), after_kong=True))
        assert s.wins and "gangshang_kaihua" in s.fans
