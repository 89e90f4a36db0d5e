"""Xuzhou winning shapes (xuzhou.md §7): 平和 with 配子, 七对, 乱牌, the 八枝 gate; waits."""

from replay.melds import Meld
from audits.rules.special_hands import is_shisanlan
from audits.rules.xuzhou import wins
from schema.tiles import TILE_INDEX as T

from .helpers import counts, rules


def test_paopei_hand_of_example_2():
    # W = 5p (indicator 4p): 4p 白(=5p) 配子(=6p) with 234m 567m 78s 99p, won on 9s
    r = rules("5p")
    assert wins.shapes(r, counts("234m 567m 78s 99p 4p 5z 5p 9s")) == ["jihu"]
    # near miss: without the 配子 the 4p 白 is no set
    assert wins.shapes(r, counts("234m 567m 78s 99p 4p 5z 1z 9s")) == []


def test_white_is_w_not_itself():
    # W = 5p: 白白白 is a pong of 5p; 4p 白 6p a run
    r = rules("5p")
    assert wins.is_winning(r, counts("4p 5z 6p 5z 5z 5z 123m 456m 99s"))
    # near miss: with W = 7p the 白板 are 7p and 4p 6p 白 is no run (no 配子 held)
    assert not wins.is_winning(rules("7p"), counts("4p 5z 6p 5z 5z 5z 123m 456m 99s"))


def test_no_pei_stands_for_white():
    # 十三幺 needs the kind 白; while 白板 reads as 5p no 配子 may be a 白板
    r = rules("5p", luanpai="shisanyao")
    assert wins.shapes(r, counts("19m 19p 19s 1234z 67z 1m 5p")) == []
    # near miss: W = 白板 (indicator 发): the 配子 is a 白板 and may be read as itself
    r = rules("5z", luanpai="shisanyao")
    assert wins.shapes(r, counts("19m 19p 19s 1234z 67z 1m 5z")) == ["shisanyao"]


def test_max_four_counts_the_indicator_in_qidui():
    # indicator 4p (W = 5p): 4p4p4p + the 配子 as 4p would be a fifth 4p
    assert "qidui" not in wins.shapes(rules("5p"), counts("11m 33m 55m 77m 99m 444p 5p"))
    # near miss: W = 6p (indicator 5p): the fourth 4p is free
    assert "qidui" in wins.shapes(rules("6p"), counts("11m 33m 55m 77m 99m 444p 6p"))


def test_white_indicator_counts_for_white_not_w():
    # W = 中 from a 白 indicator: three 白板 (= 中) and the 配子 as 中 share 中's four
    hand = "11m 33m 55m 77m 99m 555z 7z"
    assert "qidui" in wins.shapes(rules("7z"), counts(hand))
    # near miss: under same the indicator is a 中 and there is no room left
    assert "qidui" not in wins.shapes(rules("7z", wild_from="same"), counts(hand))


def test_qidui_needs_no_melds():
    r = rules("8s")
    assert wins.shapes(r, counts("11m 33m 55p 77p 99s 11z 8s 2s")) == ["qidui"]
    melds = [Meld("pong", T["3s"], (T["3s"],) * 3, 0, 1)]
    assert "qidui" not in wins.shapes(r, counts("11m 55p 77p 99s 11z 8s 2s"), melds)


def test_qidui_four_equal_tiles_are_two_pairs():
    r = rules("8s")
    assert "qidui" in wins.shapes(r, counts("1111m 33m 55p 77p 99s 11z"))
    # near miss: three equal tiles and no 配子
    assert "qidui" not in wins.shapes(r, counts("111m 33m 55p 77p 99s 11z 2z"))


def test_luanpai_shisanlan_example_7b():
    r = rules("5m")
    hand = counts("147m 258p 369s 1234z 7z")
    assert wins.shapes(r, hand) == ["shisanlan"]
    # near miss: 2p and 4p are one rank apart
    assert wins.shapes(r, counts("147m 248p 369s 1234z 7z")) == []
    # under guoshi (shisanyao) the same hand does not win; off: neither
    assert wins.shapes(rules("5m", luanpai="shisanyao"), hand) == []
    assert wins.shapes(rules("5m", luanpai="off"), hand) == []


def test_luanpai_with_pei():
    # the 配子 takes a kind that keeps the spacing (here 7m or 中)
    r = rules("5p")
    assert wins.shapes(r, counts("14m 28p 369s 1234z 67z 5p")) == ["shisanlan"]
    # near miss: a pair is no 乱牌
    assert wins.shapes(r, counts("14m 28p 369s 1234z 67z 7z")) == []


def test_shisanlan_predicate_room():
    # 13 spaced naturals: a wild takes 9s, 白 or 中
    c = counts("147m 258p 36s 1234z 6z")
    assert is_shisanlan(c, 1)
    # near miss: the three free kinds have no room (max four: melds, indicator, stand-in)
    full = [0] * 34
    for k in (T["9s"], T["5z"], T["7z"]):
        full[k] = 4
    assert not is_shisanlan(c, 1, full)
    # a suit's spacing limits its extras: 1m 5m leave only 8m or 9m
    assert is_shisanlan(counts("15m 258p 369s 1234z 6z"), 1, [4 if k >= 27 else 0 for k in range(34)])
    assert not is_shisanlan(counts("15m 258p 369s 1234z 6z"), 1,
                            [4 if k >= 27 or k in (T["8m"], T["9m"]) else 0 for k in range(34)])


def test_gate_bazhi_example_8():
    hand = counts("123m 456m 789p 345s 77s")
    assert wins.shapes(rules("1z"), hand) == ["jihu"]
    assert wins.shapes(rules("1z", shape_gate="bazhi"), hand) == []
    # near miss: eight 万 pass the gate
    assert wins.shapes(rules("1z", shape_gate="bazhi"), counts("123m 456m 789m 345s 77m")) == ["jihu"]


def test_gate_counts_melds_and_pei():
    r = rules("1z", shape_gate="bazhi")
    melds = [Meld("chow", T["1m"], (T["1m"], T["2m"], T["3m"]), 0, 3)]
    # 3 melded + 456m + 7m 8m 配子(=9m) = 9 万
    assert wins.is_winning(r, counts("456m 78m 1z 11p 345s"), melds)
    # near miss: 7m 8m 9p: the run is 筒-less and 万 holds 8 only with the 配子
    assert not wins.is_winning(r, counts("456m 78m 9p 11p 345s"), melds)
    # and without the meld's three 万 the gate fails
    assert not wins.is_winning(r, counts("123p 456m 78m 1z 11p 345s"), ())


def test_qidui_and_luanpai_never_gated():
    r = rules("8s", shape_gate="bazhi")
    assert wins.shapes(r, counts("11m 33m 55p 77p 99s 11z 8s 2s")) == ["qidui"]
    assert wins.shapes(rules("5m", shape_gate="bazhi"), counts("147m 258p 369s 1234z 7z")) == ["shisanlan"]


def test_waits_and_completes():
    r = rules("5p")
    c = counts("234m 567m 78s 99p 4p 5z 5p")
    assert T["9s"] in wins.waits(r, c)
    entry = wins.seat_waits(r, c, None, 13, ())
    assert entry
    assert wins.completes(r, entry, c, (), T["9s"])
    assert not wins.completes(r, entry, c, (), T["1z"])
    # a 配子 discard is dead: never a wait from another seat
    assert T["5p"] not in wins.waits(r, c)
    # near miss: a hand two tiles away waits on nothing
    assert not wins.seat_waits(r, counts("234m 567m 79s 19p 4p 1z 7z"), None, 13, ())


def test_completes_agrees_with_is_winning_on_every_tile():
    r = rules("5p")
    c = counts("234m 567m 78s 99p 4p 5z 5p")
    entry = wins.seat_waits(r, c, None, 13, ())
    for t in range(34):
        c2 = list(c)
        c2[t] += 1
        assert wins.completes(r, entry, c, (), t) == wins.is_winning(r, c2, (), plain=t), t


def test_wait_entry_is_a_superset_and_completes_is_exact():
    # every tile that completes a 13-tile hand is found through seat_waits + completes
    import random

    from audits.rules.xuzhou.differential import random_hand
    rng = random.Random(5)
    checked = found = 0
    for wild in ("5p", "7z", "5z", "1m"):
        r = rules(wild, luanpai="shisanlan")
        for _ in range(600):
            got = random_hand(rng, r)
            if got is None:
                continue
            c, melds = got
            drop = rng.choice([k for k in range(34) if c[k]])
            c[drop] -= 1
            entry = wins.seat_waits(r, c, None, sum(c), melds)
            held = list(c)
            for m in melds:
                held[m.of] += 3
            held[indicator_of(r)] += 1
            for t in range(34):
                if t == pei_of(r) or held[t] >= 4:
                    continue  # a dead 配子 discard; a fifth copy
                c2 = list(c)
                c2[t] += 1
                want = wins.is_winning(r, c2, melds, plain=t)
                checked += 1
                found += want
                assert (bool(entry) and wins.completes(r, entry, c, melds, t)) == want, (wild, c, t)
    assert found > 50


def pei_of(r):
    from audits.rules.xuzhou import pei
    return pei.pei(r).wild


def indicator_of(r):
    from audits.rules.xuzhou import pei
    return pei.pei(r).indicator


def test_melds_with_white_read_as_w():
    r = rules("5p")
    # a chow 4p 白 6p and a pong of 白 (= 5p): the meld use falls on 5p, not 白
    chow = Meld("chow", T["4p"], (T["4p"], T["6p"], T["5z"]), 0, 0)
    pong = Meld("pong", T["5z"], (T["5z"],) * 3, 0, 2)
    from audits.rules import wilds
    use = wilds.folded_meld_use([chow, pong], T["5p"], T["5z"])
    assert use[T["5p"]] == 4 and use[T["5z"]] == 0 and use[T["4p"]] == 1
    # 5p×4 in melds: no 配子 may read as 5p — 123m 456m + 配子 + 1z needs the 配子 as 1z
    assert wins.is_winning(r, counts("123m 456m 1z 5p"), [chow, pong])
    # near miss: a 配子 pair read as 5p is a fifth and sixth 5p; as another kind it is fine
    assert wins.is_winning(r, counts("123m 456m 5p 5p"), [chow, pong])
    assert not wins.is_winning(r, counts("123m 456m 1z 2z"), [chow, pong])


def test_shisanyao_with_pei():
    from audits.rules.special_hands import is_shisanyao
    c = counts("19m 19p 19s 1234z 56z")  # 12 orphans: 中 missing
    assert is_shisanyao(c, 2)            # one 配子 as 中, one doubling a kind
    assert not is_shisanyao(c, 1)        # 13 tiles
    c[T["1m"]] += 1
    assert is_shisanyao(c, 1)            # the pair is natural, the 配子 is 中
    # near miss: 中 has no room left (four seen elsewhere)
    assert not is_shisanyao(c, 1, [4 if k == T["7z"] else 0 for k in range(34)])
    # a non-orphan natural tile: never
    assert not is_shisanyao(counts("19m 19p 19s 1234z 567z 5m"), 0)
