"""Xuzhou's win check against the independent brute force of
``audits/rules/xuzhou/differential.py`` (no code shared with ``hands.py`` or
``special_hands.py``)."""

from __future__ import annotations

import os
import random
from itertools import combinations_with_replacement

from audits.rules.xuzhou import differential, pei

from .helpers import counts, rules

#: hands compared per run (``XUZHOU_DIFF_HANDS=200000`` for the issue's full run)
HANDS = int(os.environ.get("XUZHOU_DIFF_HANDS", "6000"))


def test_against_brute_force():
    done, bad, won, many, many_won = differential.run(HANDS, rules)
    print(f"{done} hands compared, {won} wins, {many} with 3+ 配子 and no 平和 ({many_won} wins), {bad} disagreements")
    assert bad == 0 and done == HANDS and won > HANDS // 20
    # the hands the old reference skipped (七对 / 乱牌 with three or four 配子) are compared, wins among them
    assert many > HANDS // 50 and 0 < many_won < many


def test_reference_is_not_vacuous():
    r = rules("5p")
    assert differential.reference(r, counts("234m 567m 78s 99p 4p 5z 5p 9s")) is True
    assert differential.reference(r, counts("234m 567m 78s 99p 4p 5z 1z 9s")) is False
    assert differential.reference(r, counts("11m 33m 55m 77m 99m 444p 5p")) is False  # fifth 4p
    assert differential.reference(rules("6p"), counts("11m 33m 55m 77m 99m 444p 6p")) is True


def test_reference_decides_qidui_with_three_and_four_pei():
    r = rules("5p")  # indicator 4p
    # three odd kinds, three 配子: each fills one
    assert differential.reference(r, counts("88m 44p 555p 6p 33s 8s 22z 4z")) is True
    # four odd kinds, three 配子: one kind stays odd
    assert differential.reference(r, counts("88m 44p 555p 6p 3s 1s 8s 22z 4z")) is False
    # four 配子, two odd kinds: two fill them, the other two pair as themselves
    assert differential.reference(r, counts("88m 6p 1s 33s 5555p 22z 44z")) is True
    # an odd 4p has no room: the indicator and three 4p in hand leave none for a 配子
    assert differential.reference(r, counts("444p 555p 1m 9s 11z 33z 77z")) is False
    assert differential.reference(r, counts("333p 555p 1m 9s 11z 33z 77z")) is True


def test_reference_decides_luanpai_with_several_pei():
    lan = rules("5p", luanpai="shisanlan")
    yao = rules("5p", luanpai="shisanyao")
    # 十三烂: 1 4 7 m, 2 8 s, five honours and four 配子 for 5 8 p and two more honours
    spaced = "147m 28s 12345z 5555p"
    assert differential.reference(lan, counts(spaced)) is True
    assert differential.reference(yao, counts(spaced)) is False
    # 3m and 1m are two ranks apart: no 配子 mends that
    assert differential.reference(lan, counts("137m 28s 12345z 5555p")) is False
    # 十三幺 under W = 白板 (indicator 发): three 配子 fill 1p, 9p and 白板 itself
    yao, lan = rules("5z", luanpai="shisanyao"), rules("5z", luanpai="shisanlan")
    assert differential.reference(yao, counts("19m 19s 1234z 67z 1m 555z")) is True
    assert differential.reference(lan, counts("19m 19s 1234z 67z 1m 555z")) is False
    assert differential.reference(yao, counts("19m 19s 1234z 67z 2m 555z")) is False  # 2m is no orphan
    # under W = 5p, 白板 stands in for it and has no room: a missing 白板 cannot be filled
    assert differential.reference(rules("5p", luanpai="shisanyao"), counts("19m 19s 1234z 67z 1m 555p")) is False


def _brute(r, naturals, w, use) -> bool:
    """Every multiset of kinds for the 配子, each checked as a whole hand (for small w)."""
    for combo in combinations_with_replacement(range(34), w):
        c = list(naturals)
        for k in combo:
            c[k] += 1
        if any(c[k] + use[k] > 4 for k in combo):
            continue
        if all(x in (0, 2, 4) for x in c):
            return True
        if r.luanpai == "shisanlan" and max(c) <= 1 and all(
                b - a >= 3 for s in range(3) for a, b in zip(*(lambda rs: (rs, rs[1:]))(
                    [x for x in range(9) if c[9 * s + x]]))):
            return True
        orphans = sorted(differential.ORPHAN_KINDS)
        if r.luanpai == "shisanyao" and all(c[k] >= 1 for k in orphans) and sum(c[k] for k in orphans) == 14:
            return True
    return False


def test_placement_agrees_with_a_plain_enumeration():
    """The kind-by-kind placement against every multiset of kinds, on hands with up to
    three 配子 (the plain enumeration is too slow beyond)."""
    rng = random.Random(5)
    checked = wins = 0
    for luanpai in differential.LUANPAI:
        r = rules("5p", luanpai=luanpai)
        while checked < 150 * (1 + differential.LUANPAI.index(luanpai)):
            got = differential.random_hand(rng, r)
            if got is None or got[1]:
                continue
            naturals, w = pei.split(r, got[0])
            if w > 3:
                continue
            use = pei.use_of(r, ())
            want = _brute(r, naturals, w, use)
            assert differential.special(r, naturals, w, use) == want, (luanpai, got[0])
            checked += 1
            wins += want
    assert wins > 10
