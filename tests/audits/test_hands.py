"""Winning-hand recognition (qujing.md §4–§5): holds / near miss per rule."""

from __future__ import annotations

from audits.rules.hands import (hand_keys, is_complete, is_one_from_complete, is_seven_pairs,
                          is_winning, meld_use_of, readings, split_wilds, suit_key, waits)
from replay.melds import Meld
from schema.tiles import counts_of, parse_hand, tile_index

C = lambda s: counts_of(parse_hand(s))  # noqa: E731
ONE_S = tile_index("1s")


def test_four_sets_and_pair_holds():
    assert is_complete(C("123m456p789s11122z"))


def test_four_sets_and_pair_near_miss():
    assert not is_complete(C("123m456p789s11123z"))


def test_melds_count_as_sets_holds():
    assert is_complete(C("123m44z"))  # 3 melds declared elsewhere


def test_melds_count_as_sets_near_miss_wrong_size():
    assert not is_complete(C("123m4z"))


def test_honours_never_run():
    assert not is_complete(C("123z55m"))


def test_wild_completes_any_tile_holds():
    assert is_complete(C("123m456p789s1z"), 1)
    assert is_complete(C("13m456p789s11z"), 1)


def test_wild_near_miss_two_gaps_one_wild():
    assert not is_complete(C("13m46p789s11z12m"), 1)


def test_eight_wilds():
    assert is_complete(C("123m456z"), 8)
    assert is_complete([0] * 34, 8)  # two sets and a pair of chickens alone
    assert not is_complete([0] * 34, 7)  # 7 tiles is not 3k+2
    assert is_complete(C("1z"), 7) and is_complete(C("1z"), 4)


def test_max_four_rule_holds_cap():
    # 1111z + wild: the wild would be a fifth 1z
    assert not is_complete(C("1111z"), 1)
    assert is_complete(C("111z"), 2)


def test_max_four_rule_counts_own_melds():
    use = meld_use_of([Meld("pong", 27, (27, 27, 27))])
    # 1z pair of one natural + wild would make five 1z with the pong
    assert not is_complete(C("1z123m"), 1, use)
    assert is_complete(C("1z123m"), 1)
    assert is_complete(C("2z123m"), 1, use)


def test_seven_pairs_holds():
    assert is_seven_pairs(C("1133m5577p2299s44z"))


def test_seven_pairs_four_equal_count_as_two():
    assert is_seven_pairs(C("1111m5577p2299s44z"))


def test_seven_pairs_near_miss_melds():
    assert not is_seven_pairs(C("1133m5577p22s"), 0, has_melds=True)


def test_seven_pairs_with_wilds():
    assert is_seven_pairs(C("123456m99p"), 6)
    assert not is_seven_pairs(C("12345678m9p"), 5)


def test_discarded_chicken_stays_plain():
    c, w, by = split_wilds(parse_hand("123m1s1s"), [ONE_S], plain=ONE_S)
    assert w == 1 and c[ONE_S] == 1 and by == {ONE_S: 1}


def test_waits():
    assert waits(C("1112345678999m")) == list(range(9))
    assert waits(C("123m456p789s1122z")) == [27, 28]
    assert waits(C("123m456p789s11z2z"), 1) == [27, 28] or waits(C("123m456p789s11z2z"), 1)


def test_waits_refuse_a_kind_whose_four_tiles_are_held():
    # naturals 123m 66z and two wilds wait on anything; the wilds' own kind (held four
    # times with the two in a kong) cannot be drawn
    c = C("123m66z")
    physical = list(C("123m66z11s"))
    physical[ONE_S] += 2
    physical[tile_index("6s")] += 2
    got = waits(c, 2, None, True, physical=physical)
    assert ONE_S not in got and tile_index("5z") in got
    assert ONE_S in waits(c, 2, None, True)  # near miss: without the physical count it is offered


def test_waits_near_miss_not_waiting():
    assert waits(C("13m58p789s11z2z46s")) == []


def test_one_from_complete_holds_and_near_miss():
    assert is_one_from_complete(C("123m456p789s11z22z"))
    assert not is_one_from_complete(C("13m58p789s11z2z46s"))
    assert is_one_from_complete(C("13m456p789s11z2z"), 2)


def test_suit_keys_base5():
    c = C("1m2m2m9m")
    assert suit_key(c, 0) == 1 * 5 ** 8 + 2 * 5 ** 7 + 1
    assert hand_keys(c)[0] == suit_key(c, 0)


def test_readings_enumerates_every_reading_with_wild_assignment():
    rs = list(readings(C("111222333m44z"), 0))
    shapes = {tuple(g.kind for g in r.groups) for r in rs}
    assert len(rs) == 2  # three pongs, or three chows 123m
    rs = list(readings(C("123m456p789s1z"), 1))
    assert all(r.wild_assignments == (27,) for r in rs)
    assert shapes


def test_readings_seven_pairs_and_standard():
    rs = list(readings(C("112233m445566p77z"), 0))
    assert any(r.seven_pairs for r in rs) and any(not r.seven_pairs for r in rs)


def test_readings_respect_max_four():
    for r in readings(C("111m"), 2):
        assert r.wild_assignments.count(0) <= 1


def test_is_winning_both_shapes():
    assert is_winning(C("1133m5577p2299s44z"))
    assert not is_winning(C("1133m5577p2299s4z5z"))
