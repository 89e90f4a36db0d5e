"""Xuzhou's win check against an independent brute force (issue 38: a reference written
for the test, sharing no code with ``audits/rules/hands.py``).

The reference decomposes the hand by hand: every way to take the lowest natural tile
into a pair, a pong or a run (each other member a natural tile or a 配子, the 配子
only where its kind has room: max four counting the melds, the indicator, and 白板's
room 0 while it stands in), then the 配子 left over into groups of their own.  七对
and 十三烂 try every kind for every 配子.  Random hands are drawn from the physical
tiles left after the indicator, biased towards near-complete ones.
"""

from __future__ import annotations

import os
import random
from itertools import combinations_with_replacement

import pytest

from audits.rules.xuzhou import pei, wins

from .helpers import rules

#: hands compared per run (``XUZHOU_DIFF_HANDS=200000`` for the issue's full run)
HANDS = int(os.environ.get("XUZHOU_DIFF_HANDS", "6000"))


def _room(naturals, use, extra, k):
    return 4 - naturals[k] - use[k] - extra[k]


def _standard(c, w, use, naturals, extra, pair_done):
    i = next((k for k in range(34) if c[k]), None)
    if i is None:
        return _wild_groups(w, use, naturals, extra, pair_done)
    shapes = []
    if not pair_done:
        shapes.append(((i, i), True))
    shapes.append(((i, i, i), False))
    if i < 27:
        for start in (i - 2, i - 1, i):
            if start >= 0 and start // 9 == i // 9 and (start + 2) // 9 == i // 9 and start + 2 < 27:
                shapes.append(((start, start + 1, start + 2), False))
    for group, is_pair in shapes:
        # the first member that is i must be natural; each other member natural or a 配子
        slots = list(group)
        slots.remove(i)
        for mask in range(1 << len(slots)):
            need_w = 0
            took = []
            used_w = []
            ok = True
            for j, k in enumerate(slots):
                if mask >> j & 1:
                    if _room(naturals, use, extra, k) <= 0:
                        ok = False
                        break
                    extra[k] += 1
                    used_w.append(k)
                    need_w += 1
                else:
                    if c[k] <= 0:
                        ok = False
                        break
                    c[k] -= 1
                    took.append(k)
            if ok and need_w <= w:
                c[i] -= 1
                if _standard(c, w - need_w, use, naturals, extra, pair_done or is_pair):
                    c[i] += 1
                    for k in took:
                        c[k] += 1
                    for k in used_w:
                        extra[k] -= 1
                    return True
                c[i] += 1
            for k in took:
                c[k] += 1
            for k in used_w:
                extra[k] -= 1
    return False


def _wild_groups(w, use, naturals, extra, pair_done):
    """The 配子 left form pongs (and the pair) of kinds with room."""
    if w == 0:
        return pair_done
    for k in range(34):
        r = _room(naturals, use, extra, k)
        if not pair_done and w >= 2 and r >= 2:
            extra[k] += 2
            got = _wild_groups(w - 2, use, naturals, extra, True)
            extra[k] -= 2
            if got:
                return True
        if w >= 3 and r >= 3:
            extra[k] += 3
            got = _wild_groups(w - 3, use, naturals, extra, pair_done)
            extra[k] -= 3
            if got:
                return True
    return False


def _assignments(naturals, w, use):
    for combo in combinations_with_replacement(range(34), w):
        c = list(naturals)
        for k in combo:
            c[k] += 1
        if all(c[k] + use[k] <= 4 for k in combo):
            yield c


def _qidui(naturals, w, use):
    return any(all(x in (0, 2, 4) for x in c) for c in _assignments(naturals, w, use))


def _spaced(c):
    if any(x > 1 for x in c):
        return False
    for s in range(3):
        ranks = [r for r in range(9) if c[9 * s + r]]
        if any(b - a < 3 for a, b in zip(ranks, ranks[1:])):
            return False
    return True


def _shisanlan(naturals, w, use):
    return any(_spaced(c) for c in _assignments(naturals, w, use))


def reference(r, counts):
    p = pei.pei(r)
    naturals, w = pei.split(r, counts)
    use = pei.use_of(r, ())
    if sum(naturals) + w != 14:
        return False
    if _standard(list(naturals), w, use, naturals, [0] * 34, False):
        return True
    if w <= 2:
        return _qidui(naturals, w, use) or _shisanlan(naturals, w, use)
    return None  # the special hands' enumeration is too slow beyond two 配子: not compared


def _random_hand(rng, r):
    p = pei.pei(r)
    wall = [k for k in range(34) for _ in range(4)]
    wall.remove(p.indicator)
    rng.shuffle(wall)
    if rng.random() < 0.6:
        # near-complete: four groups and a pair from the wall, then a tile or two swapped
        hand = []
        pool = list(wall)
        for _ in range(4):
            start = rng.randrange(34)
            group = [start] * 3 if start >= 27 or start % 9 > 6 or rng.random() < 0.4 else [start, start + 1, start + 2]
            if all(pool.count(t) >= group.count(t) for t in group):
                for t in group:
                    pool.remove(t)
                hand += group
        while len(hand) < 14:
            hand.append(pool.pop())
        for _ in range(rng.choice((0, 0, 1, 2))):
            hand[rng.randrange(14)] = pool.pop()
    else:
        hand = wall[:14]
    c = [0] * 34
    for t in hand:
        c[t] += 1
    if any(x + (k == p.indicator) > 4 for k, x in enumerate(c)):
        return None
    return c


@pytest.mark.parametrize("wild", ["5p", "7z", "5z", "1m"])
def test_against_brute_force(wild):
    r = rules(wild)
    rng = random.Random(38 + len(wild) + ord(wild[0]))
    compared = wins_seen = 0
    for _ in range(HANDS // 4):
        c = _random_hand(rng, r)
        if c is None:
            continue
        want = reference(r, c)
        if want is None:
            continue
        got = wins.is_winning(r, c)
        assert got == want, (wild, [k for k in range(34) for _ in range(c[k])])
        compared += 1
        wins_seen += want
    print(f"W={wild}: {compared} hands compared, {wins_seen} wins, 0 disagreements")
    assert compared > HANDS // 8 and wins_seen > HANDS // 200
