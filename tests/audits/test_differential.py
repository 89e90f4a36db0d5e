"""Differential tests of the fast completeness check.

* No wilds: against the ``mahjong`` package's ``Agari.is_agari`` on ≥100,000
  random hands of 14 − 3m tiles (m = 0..4 melds removed), the key-based hot path
  included (:mod:`audits.rules.qujing.differential`, shared with
  ``bench/differential.py --family qujing``).
* Wilds: against a brute-force substitution reference — every multiset of
  tiles for the wilds (respecting the max-four rule, melds included), each
  substituted hand checked by ``is_agari`` — on ≥20,000 hands.
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

from audits.rules.hands import is_complete
from audits.rules.qujing.differential import agari_standard, random_hand, random_set, run


def test_no_wilds_vs_mahjong_agari():
    done, positives, bad = run(100_000)
    assert done >= 100_000
    assert bad == []
    assert positives > 20_000  # the generator makes a good share complete


def _candidates(c: list[int], use: list[int], w: int) -> list[int]:
    """Kinds a wild can usefully stand for (exact for the reference):
    same kind or within two of a natural in its suit (a wild inside a set or pair
    with a natural), plus kinds free of naturals and melds, one per group that
    could be made of wilds only (such a group can always be moved onto a free
    kind: 2–4 wilds make at most one, 5–7 two, 8 three)."""
    cand = set()
    for t in range(34):
        if c[t]:
            if t >= 27:
                cand.add(t)
            else:
                base = t - t % 9
                cand.update(x for x in range(t - 2, t + 3) if base <= x < base + 9)
    need = 0 if w < 2 else 1 if w < 5 else 2 if w < 8 else 3
    free = [t for t in range(33, -1, -1) if c[t] == 0 and use[t] == 0 and t not in cand][:need]
    return sorted(cand | set(free))


def brute_force(c: list[int], w: int, use: list[int]) -> bool:
    if (sum(c) + w) % 3 != 2:
        return False
    head = [max(0, 4 - c[t] - use[t]) for t in range(34)]
    for combo in combinations_with_replacement(_candidates(c, use, w), w):
        d = list(c)
        ok = True
        for t in combo:
            d[t] += 1
            if d[t] - c[t] > head[t]:
                ok = False
                break
        if ok and agari_standard(d):
            return True
    return False


def random_melds(rng: random.Random, m: int) -> list[int]:
    use = [0] * 34
    for _ in range(m):
        for t in random_set(rng):
            use[t] += 1
    return use


#: (concealed size, wilds) -> hands; the reference enumerates every multiset of
#: candidate tiles, so the many-wild buckets of big hands stay small.
PLAN = {
    (14, 1): 4000, (14, 2): 3500, (14, 3): 1500, (14, 4): 100, (14, 5): 20, (14, 6): 5,
    (11, 1): 1500, (11, 2): 1500, (11, 3): 700, (11, 4): 150, (11, 5): 50, (11, 6): 30,
    (11, 7): 60, (11, 8): 100,
    **{(8, w): 700 for w in range(1, 9) if w != 4}, (8, 4): 300,
    **{(5, w): 500 for w in range(1, 6)},
    (2, 1): 300, (2, 2): 300,
}


def test_wilds_vs_substitution_reference():
    rng = random.Random(7)
    n = positives = 0
    for (size, w), count in PLAN.items():
        m = (14 - size) // 3
        k = 0
        while k < count:
            c = random_hand(rng, size)
            if c is None:
                continue
            use = random_melds(rng, m)
            if any(c[t] + use[t] > 4 for t in range(34)):
                continue
            # the wilds replace w random tiles of the hand
            tiles = [t for t in range(34) for _ in range(c[t])]
            rng.shuffle(tiles)
            nat = [0] * 34
            for t in tiles[w:]:
                nat[t] += 1
            k += 1
            mine = is_complete(nat, w, use)
            ref = brute_force(nat, w, use)
            assert mine == ref, (nat, w, use, mine, ref)
            positives += mine
        n += k
    assert n >= 20_000
    assert positives > 5_000
