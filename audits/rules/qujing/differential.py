"""The differential check of the shared win engine without wilds (the Qujing hand of
4 sets + a pair, :func:`audits.rules.hands.is_complete` and its key-based hot path)
against the ``mahjong`` package's ``Agari.is_agari``, shared by the test
(``tests/audits/test_differential.py``) and ``bench/differential.py --family qujing``.

``is_agari`` also accepts seven pairs and kokushi; to compare like with like, every
hand is given to it with an extra honour triplet on an honour it lacks, which leaves
"4 sets + pair" unchanged and rules both special shapes out.
"""

from __future__ import annotations

import random
from typing import Optional

from ..hands import hand_keys, is_complete, is_complete_keys

HONOURS = range(27, 34)
#: ``bench/differential.py --family qujing`` compares this many hands unless told
DEFAULT_HANDS = 100_000


def agari_standard(counts: list[int]) -> bool:
    """``is_agari`` restricted to 4 sets + pair (see module docstring)."""
    from mahjong.agari import Agari

    free = [h for h in HONOURS if counts[h] == 0]
    if not free:
        # all seven honours held in at most 14 tiles: at most one honour can be the
        # pair and every other needs a triplet (3 + 6·3 > 14) — never standard
        return False
    c = list(counts)
    c[free[0]] += 3
    return Agari.is_agari(c)


def random_set(rng: random.Random) -> list[int]:
    """A chow (half the time) or a pong of random tiles."""
    if rng.random() < 0.5:
        s = rng.randrange(3)
        r = rng.randrange(7)
        t = 9 * s + r
        return [t, t + 1, t + 2]
    t = rng.randrange(34)
    return [t, t, t]


def random_hand(rng: random.Random, size: int) -> Optional[list[int]]:
    """Biased generator: half built from sets + pair (often then perturbed); None when a
    kind would exceed four."""
    if rng.random() < 0.5:
        tiles = []
        for _ in range((size - 2) // 3):
            tiles += random_set(rng)
        p = rng.randrange(34)
        tiles += [p, p]
        if rng.random() < 0.4:
            tiles[rng.randrange(len(tiles))] = rng.randrange(34)
    else:
        tiles = [rng.randrange(34) for _ in range(size)]
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    if max(c) > 4:
        return None
    return c


def run(n: int, seed: int = 20240603) -> tuple[int, int, list]:
    """Compare ``n`` random hands of 14 − 3m tiles (m = 0..4 melds taken away): (hands,
    complete hands, disagreements as (counts, mine, reference, keys))."""
    rng = random.Random(seed)
    done = wins = 0
    bad: list = []
    while done < n:
        melds = rng.randrange(5)
        c = random_hand(rng, 14 - 3 * melds)
        if c is None:
            continue
        done += 1
        mine = is_complete(c, 0)
        ref = agari_standard(c)
        keys = is_complete_keys(*hand_keys(c), 0)
        wins += mine
        if mine != ref or keys != mine:
            bad.append((c, mine, ref, keys))
    return done, wins, bad


def main(n: int) -> int:
    """Print the comparison of ``n`` hands; the exit status (1 on a disagreement)."""
    done, wins, bad = run(n)
    print(f"qujing win check (no wilds) vs mahjong Agari: {done} hands, {len(bad)} disagreements, {wins} complete")
    for b in bad[:5]:
        print("  ", b)
    return 1 if bad else 0
