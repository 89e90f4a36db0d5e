"""Winning-hand recognition (qujing.md §4–§5): holds / near miss per rule."""

from __future__ import annotations

import random
from functools import lru_cache

from audits.rules.hands import (hand_keys, is_complete, is_one_from_complete, is_seven_pairs,
                          is_winning, meld_use_of, readings, sets_need, split_wilds, suit_entry, suit_key,
                          waits)
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


@lru_cache(maxsize=None)
def _suit_groupings(left: tuple[int, ...], base: int, runs: bool) -> tuple[tuple, ...]:
    """Every way one suit's counts (the pair already out) are whole sets, found another way
    than the engine's search: choose how many runs start at each rank in turn (at most what
    the three ranks hold); what is left must be whole triplets."""
    found = []

    def choose(rank: int, rest: list[int], chows: list) -> None:
        if rank == len(rest):
            if all(x in (0, 3) for x in rest):
                pongs = [("pong", (base + i,) * 3) for i, x in enumerate(rest) if x == 3]
                found.append(tuple(chows + pongs))
            return
        most = min(rest[rank:rank + 3]) if runs and rank + 3 <= len(rest) else 0
        for r in range(most + 1):
            for j in range(3 if r else 0):
                rest[rank + j] -= r
            choose(rank + 1, rest, chows + [("chow", (base + rank, base + rank + 1, base + rank + 2))] * r)
            for j in range(3 if r else 0):
                rest[rank + j] += r

    choose(0, list(left), [])
    return tuple(found)


def _standard_readings_by_runs(counts: list[int]) -> set[tuple]:
    """Every standard reading of a wild-free hand: each pair, then each suit's groupings."""
    out = set()
    for p in range(34):
        if counts[p] < 2:
            continue
        c = list(counts)
        c[p] -= 2
        combos: list[tuple] = [()]
        for s in range(4):
            base, size = 9 * s, 9 if s < 3 else 7
            ways = _suit_groupings(tuple(c[base:base + size]), base, s < 3)
            combos = [done + way for done in combos for way in ways]
        out.update(tuple(sorted([("pair", (p, p)), *combo])) for combo in combos)
    return out


def _random_complete_hand(rng: random.Random, crowded: bool) -> list[int]:
    # a crowded hand has one run three times (three runs or three triplets: two readings
    # at least) and keeps its other runs near it
    suits, ranks = (1, 4) if crowded else (3, 7)
    c = [0] * 34
    sets = 4
    if crowded:
        r = rng.randrange(7)
        for k in range(3):
            c[r + k] += 3
        sets = 1
    for _ in range(sets):
        if rng.random() < 0.4:
            c[rng.randrange(34)] += 3
        else:
            s, r = rng.randrange(suits), rng.randrange(ranks)
            for k in range(3):
                c[s * 9 + r + k] += 1
    c[rng.randrange(34)] += 2
    return c


def test_wild_free_readings_are_every_standard_reading():
    # the search's path without chickens (most of its calls, :func:`hands._plain`) against
    # an enumeration by run counts: the same set of readings, hand by hand
    rng = random.Random(7)
    checked = several = 0
    for k in range(2000):
        c = _random_complete_hand(rng, k % 2 == 1)
        if max(c) > 4:
            continue
        got = {tuple(sorted((g.kind, g.tiles) for g in r.groups)) for r in readings(c, 0) if not r.seven_pairs}
        want = _standard_readings_by_runs(c)
        assert got == want, c
        checked += 1
        several += len(want) > 1
    assert checked > 1000 and several > 200  # hands with more than one reading (111222333m) among them


def test_wild_free_readings_near_miss():
    # one tile moved: the hand is no longer complete and neither way finds a reading
    c = C("123m456p789s111z22z")
    assert _standard_readings_by_runs(c) and list(readings(c, 0))
    c = C("123m456p789s111z23z")
    assert not _standard_readings_by_runs(c) and not list(readings(c, 0))


# --- 16+1 hands (Ruleset.hand_size = 16): five sets and a pair ---------------------------

def test_a_17_tile_hand_of_five_sets_and_a_pair_is_complete():
    assert is_complete(C("11122233344455567m"))  # 111 234 234 234 567 + 55
    assert is_complete(C("123m456m789m123p456p77z"))
    assert is_complete(C("123m456m789m123p456p7z"), 1)  # the wild makes the pair


def test_a_17_tile_near_miss_is_not_complete():
    assert not is_complete(C("11122233344455568m"))
    assert not is_complete(C("123m456m789m124p456p77z"))
    assert not is_complete(C("11122233344455m"), 2)  # 15 naturals and 2 wilds make no fifth set and pair


def test_a_16_tile_hand_waits_on_its_fifth_set_or_pair():
    assert waits(C("123m456m789m123p456p7z")) == [33]
    assert waits(C("123m456m789m123p45p77z")) == [11, 14]


def test_17_tile_wild_free_hands_agree_with_the_enumeration():
    # a hand of more tiles than the no-wild code tables cover (16+1) is judged from the exact
    # suit entries: complete exactly when the enumeration by run counts finds a reading;
    # half the hands have one tile moved (near misses, most of them incomplete)
    rng = random.Random(17)
    complete = incomplete = 0
    for k in range(3000):
        c = _random_complete_hand(rng, k % 3 == 0)
        c[rng.randrange(34)] += 3  # the fifth set, any kind
        if k % 2:
            c[rng.choice([i for i in range(34) if c[i]])] -= 1
            c[rng.randrange(34)] += 1
        if max(c) > 4:
            continue
        want = bool(_standard_readings_by_runs(c))
        assert is_complete(c) == want, c
        complete += want
        incomplete += not want
    assert complete > 500 and incomplete > 500


def test_sets_need_counts_the_wilds_that_make_sets_only():
    assert sets_need(C("123m456p777z")) == 0
    assert sets_need(C("12m456p777z")) == 1  # 3m
    assert sets_need(C("1m456p")) == 2
    assert sets_need(C("1m5p")) == 4
    assert sets_need(C("11m")) == 1
    assert sets_need(C("123m44z")) == 1  # 4z: a pair is no set


def test_sets_need_agrees_with_the_suit_key_tables():
    # the bytes-keyed tables against the base-5 suit tables, on complete hands with a few
    # tiles taken out or moved (17 tiles and more included)
    rng = random.Random(23)
    for k in range(3000):
        c = _random_complete_hand(rng, k % 3 == 0)
        c[rng.randrange(34)] += 3
        for _ in range(rng.randrange(4)):
            c[rng.choice([i for i in range(34) if c[i]])] -= 1
        if max(c) > 4:
            continue
        keys = hand_keys(c)
        assert sets_need(c) == sum(suit_entry(keys[i], i == 3)[0] for i in range(4)), c
