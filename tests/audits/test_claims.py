"""Claims (qujing.md §3–§4) and the seed's chow+kong / pong+kong 杠上开花 examples."""

from __future__ import annotations

import pytest

from audits.rules.family import PassBook, WinContext
from audits.rules.qujing.claims import (CLAIM_RANK, TILE_PASSES, added_kong_options, can_rob, check_added_kong,
                                        check_chow, check_concealed_kong, check_exposed_kong, check_pong,
                                        chow_options, concealed_kong_options, could_kong, could_pong,
                                        exposed_kong_options, pass_violation, resolve_claims)
from audits.rules.qujing.fans import score_hand
from replay import ReplayError, Replayer
from replay.melds import Meld
from schema.builder import GameBuilder
from schema.ruleset import resolve
from schema.tiles import counts_of, parse_hand, tile_index as ti

XJ = resolve("qujing-xiaoji")
XJC = resolve("qujing-xiaoji", {"chow": True})
SG = resolve("qujing-shuanggui")
C = lambda s: counts_of(parse_hand(s))  # noqa: E731
T = parse_hand


def codes(violations) -> list[str]:
    return [v.code for v in violations]


def test_chow_from_shangjia_holds():
    assert codes(check_chow(XJC, 4, 1, 0, ti("5s"), T("67s"))) == []


def test_chow_near_miss_not_shangjia():
    assert codes(check_chow(XJC, 4, 1, 2, ti("5s"), T("67s"))) == ["CLAIM_CHOW_WRONG_SEAT"]


def test_chow_near_miss_disabled():
    assert codes(check_chow(XJ, 4, 1, 0, ti("5s"), T("67s"))) == ["CLAIM_CHOW_DISABLED"]


def test_chow_chicken_only_as_plain_1s():
    assert codes(check_chow(XJC, 4, 1, 0, ti("1s"), T("23s"))) == []
    assert codes(check_chow(XJC, 4, 1, 0, ti("2s"), T("1s3s"))) == []
    # 1s 4s 5s is not a run: the chicken would have to act as wild
    assert codes(check_chow(XJC, 4, 1, 0, ti("4s"), T("1s5s"))) == ["CLAIM_WILD_IN_CHOW"]


def test_chow_near_miss_honours():
    assert codes(check_chow(XJC, 4, 1, 0, ti("1z"), T("23z"))) == ["CLAIM_MELD_INVALID"]


def test_chow_of_own_discard_near_miss():
    assert codes(check_chow(XJC, 4, 1, 1, ti("5s"), T("67s"))) == ["CLAIM_OWN_DISCARD"]


def test_pong_holds():
    assert codes(check_pong(XJ, 2, 0, ti("5p"), T("55p"))) == []


def test_pong_near_miss_chicken_not_wild():
    assert codes(check_pong(XJ, 2, 0, ti("5p"), T("5p1s"))) == ["CLAIM_WILD_IN_PONG"]


def test_pong_near_miss_own_discard():
    assert codes(check_pong(XJ, 2, 2, ti("5p"), T("55p"))) == ["CLAIM_OWN_DISCARD"]


def test_pong_two_chickens_pong_discarded_chicken():
    assert codes(check_pong(XJ, 2, 0, ti("1s"), T("11s"))) == []
    assert could_pong(XJ, C("11s"), ti("1s"))
    assert not could_pong(XJ, C("1s5p"), ti("5p"))  # near miss: a chicken never pongs as wild


def test_exposed_kong_three_natural_holds():
    assert codes(check_exposed_kong(XJ, 1, 0, ti("2p"), ti("2p"), T("222p"))) == []


def test_exposed_kong_pair_plus_chicken_holds():
    assert codes(check_exposed_kong(XJ, 1, 0, ti("2p"), ti("2p"), T("22p1s"))) == []
    assert could_kong(XJ, C("22p1s"), ti("2p"))


def test_exposed_kong_near_miss_one_natural_two_chickens():
    assert codes(check_exposed_kong(XJ, 1, 0, ti("2p"), ti("2p"), T("2p11s"))) == ["KONG_ILLEGAL_CHICKENS"]
    assert not could_kong(XJ, C("2p11s"), ti("2p"))


def test_exposed_kong_near_miss_own_discard():
    assert codes(check_exposed_kong(XJ, 1, 1, ti("2p"), ti("2p"), T("222p"))) == ["CLAIM_OWN_DISCARD"]


def test_added_kong_natural_or_chicken_holds():
    assert codes(check_added_kong(XJ, ti("7z"), ti("7z"))) == []
    assert codes(check_added_kong(XJ, ti("7z"), ti("1s"))) == []


def test_added_kong_near_miss_other_tile():
    assert codes(check_added_kong(XJ, ti("7z"), ti("6z"))) == ["CLAIM_MELD_INVALID"]


def test_added_kong_near_miss_no_pong():
    # without a pong of the kind there is no added kong to offer, and the reducer refuses one
    assert added_kong_options(XJ, C("7z"), []) == []
    b = GameBuilder("g")
    b.open()
    b.hand(1, dealer=0)
    b.deal("7z" + "3333m4444m5555m", "1111z2222z333z", "9999m8888m777m", "4444s5555s666s")
    b.kong_added(0, "7z")
    r = Replayer()
    with pytest.raises(ReplayError) as e:
        for x in b.events:
            r.apply(x)
    assert e.value.kind == "no_pong"


def test_concealed_kong_all_mixes_hold():
    for hand in ("4444p", "444p1s", "44p11s", "4p111s"):
        assert codes(check_concealed_kong(XJ, ti("4p"), T(hand))) == [], hand


def test_concealed_kong_four_chickens_is_natural_kong_of_1s():
    assert codes(check_concealed_kong(XJ, ti("1s"), T("1111s"))) == []


def test_concealed_kong_near_miss_wrong_tile():
    assert codes(check_concealed_kong(XJ, ti("4p"), T("444p5p"))) == ["CLAIM_MELD_INVALID"]


def test_only_added_kong_can_be_robbed():
    assert can_rob("kong_added") and not can_rob("kong_exposed") and not can_rob("kong_concealed")


def test_priority_win_kong_pong_chow():
    assert CLAIM_RANK["win"] > CLAIM_RANK["kong"] > CLAIM_RANK["pong"] > CLAIM_RANK["chow"]
    assert resolve_claims({1: "chow", 2: "pong"}, 0, 4) == ("pong", [2])
    assert resolve_claims({1: "chow", 3: "kong"}, 0, 4) == ("kong", [3])
    assert resolve_claims({1: "win", 3: "win", 2: "kong"}, 2, 4) == ("win", [3, 1])


def _legal(seat, tile, kong_discard):
    return True


def test_pass_rules_guoshou_peng_gang_hu():
    book = PassBook(4, TILE_PASSES)
    for claim in ("pong", "kong", "win"):
        book.let_go(1, claim, ti("5p"))
    assert pass_violation(book, 1, "pong", ti("5p"), _legal) == "GUOSHOU_PENG"
    assert pass_violation(book, 1, "pong", ti("6p"), _legal) is None
    assert pass_violation(book, 1, "kong", ti("5p"), _legal) == "GUOSHOU_GANG"
    assert pass_violation(book, 1, "win", ti("9m"), _legal) == "WIN_DURING_GUOHU"
    assert pass_violation(book, 2, "win", ti("9m"), _legal) is None  # another seat passed nothing
    book.clear(1)
    assert pass_violation(book, 1, "win", ti("9m"), _legal) is None


def test_guohu_counts_only_a_legal_win_let_go():
    book = PassBook(4, TILE_PASSES)
    book.let_go(1, "win", ti("5p"), kong_discard=True)
    seen = []

    def judge(seat, tile, kong_discard):
        seen.append((seat, tile, kong_discard))
        return False  # e.g. a discard win without fan: not a win chance

    assert pass_violation(book, 1, "win", ti("9m"), judge) is None
    assert seen == [(1, ti("5p"), True)]


def test_guohu_after_a_rob_let_go_bars_every_win_and_rob():
    book = PassBook(4, TILE_PASSES)
    book.let_rob_go(3)
    assert pass_violation(book, 3, "win", ti("9m"), _legal) == "WIN_DURING_GUOHU"
    book.clear(3)
    assert pass_violation(book, 3, "win", ti("9m"), _legal) is None


def test_win_chances_let_go_are_kept_unjudged_until_asked_and_end_with_the_seat_s_draw():
    book = PassBook(4, TILE_PASSES)
    book.let_wins_go((1, 2, 3), (2,), ti("5p"), False)  # seat 2 took the discard
    assert book.win_chances(1) == book.win_chances(3) == [(ti("5p"), False)] and book.win_chances(2) == []
    assert book.win_chances(0) == []  # the discarder: not open to it
    assert not any(book.dirty)  # a win chance alone needs no other pass cleared
    asked = []

    def judge(seat, tile, kong_discard):
        asked.append((seat, tile))
        return tile == ti("5p")  # the chance was a legal win

    assert pass_violation(book, 1, "win", ti("9m"), judge) == "WIN_DURING_GUOHU"
    assert asked == [(1, ti("5p"))]
    # near miss: the chance a seat let go was no win (judged when asked): no bar
    assert pass_violation(book, 3, "win", ti("9m"), lambda *_: False) is None
    book.clear(1)  # the seat's own draw ends its chances, not the others'
    assert book.win_chances(1) == [] and pass_violation(book, 1, "win", ti("9m"), judge) is None
    assert book.win_chances(3) == [(ti("5p"), False)]
    book.let_wins_go((0, 1, 3), (), ti("7s"), True)
    assert book.win_chances(1) == [(ti("7s"), True)]
    assert book.win_chances(3) == [(ti("5p"), False), (ti("7s"), True)]


def test_enumerators():
    assert chow_options(XJC, C("3467s"), ti("5s"), 1, 0) == [(ti("3s"), ti("4s")), (ti("4s"), ti("6s")),
                                                            (ti("6s"), ti("7s"))]
    assert chow_options(XJC, C("3467s"), ti("5s"), 1, 2) == []
    assert chow_options(XJ, C("3467s"), ti("5s"), 1, 0) == []  # chow off
    assert exposed_kong_options(XJ, C("22p1s"), ti("2p")) == [(ti("2p"), ti("2p"), ti("1s"))]
    assert exposed_kong_options(XJ, C("2p11s"), ti("2p")) == []
    kinds = {k for k, _ in concealed_kong_options(XJ, C("4p111s"))}
    assert ti("4p") in kinds
    assert (ti("4p"), (ti("4p"), ti("5z"), ti("7z"), ti("7z"))) in concealed_kong_options(SG, C("4p5z77z"))
    melds = [Meld("pong", ti("7z"), tuple(T("777z")))]
    assert added_kong_options(XJ, C("7z1s"), melds) == [(ti("7z"), ti("7z")), (ti("7z"), ti("1s"))]


# seed: 尾部翻开为2万、4条 ---------------------------------------------------------
def test_seed_chow_then_kong_gangshang_kaihua():
    hand = C("34m4444p222p66p67s")
    for discard in ("5s", "8s"):
        pair = chow_options(XJC, hand, ti(discard), 1, 0)
        run = [p for p in pair if set(p) <= {ti("6s"), ti("7s")}][0]
        assert codes(check_chow(XJC, 4, 1, 0, ti(discard), run)) == []
        after = list(hand)
        for t in run:
            after[t] -= 1
        assert (ti("4p"), tuple(T("4444p"))) in concealed_kong_options(XJC, after)
        assert codes(check_concealed_kong(XJC, ti("4p"), T("4444p"))) == []
        lo = min(run + (ti(discard),))
        melds = [Meld("chow", lo, (lo, lo + 1, lo + 2), from_seat=0),
                 Meld("kong_concealed", ti("4p"), tuple(T("4444p")))]
        s = score_hand(T("34m222p66p") + [ti("2m")], melds, XJC,
                       WinContext("self_draw", ti("2m"), after_kong=True))
        assert s.wins and "gangshang_kaihua" in s.fans


def test_seed_pong_then_kong_gangshang_kaihua():
    hand = C("34m4444p22p66p567s")
    for pong, pair_left in (("2p", "66p"), ("6p", "22p")):
        assert could_pong(XJ, hand, ti(pong))
        assert codes(check_pong(XJ, 2, 0, ti(pong), [ti(pong)] * 2)) == []
        after = list(hand)
        after[ti(pong)] -= 2
        assert (ti("4p"), tuple(T("4444p"))) in concealed_kong_options(XJ, after)
        assert codes(check_concealed_kong(XJ, ti("4p"), T("4444p"))) == []
        melds = [Meld("pong", ti(pong), (ti(pong),) * 3, from_seat=0),
                 Meld("kong_concealed", ti("4p"), tuple(T("4444p")))]
        s = score_hand(T("34m" + pair_left + "567s") + [ti("2m")], melds, XJ,
                       WinContext("self_draw", ti("2m"), after_kong=True))
        assert s.wins and "gangshang_kaihua" in s.fans
