"""The Guangdong no-wild win check against the ``mahjong`` package's ``Agari.is_agari``
(the differential test and ``bench/differential.py --family guangdong`` share it).

``is_agari`` accepts 4 sets + a pair, seven pairs (七对, seven distinct pairs) and
kokushi (十三幺).  Guangdong by default wins with the first and the last, not with
seven pairs, so the reference is ``is_agari`` minus the hands that are seven
pairs and nothing else.
"""

from __future__ import annotations

import random
from typing import Optional

from schema.ruleset import resolve

from ..special_hands import ORPHANS
from .wins import is_winning

GD = resolve("guangdong-jipinghu")
#: ``bench/differential.py --family guangdong`` compares this many hands unless told
DEFAULT_HANDS = 200_000


def reference(counts: list[int]) -> bool:
    """``is_agari`` without the seven-pairs-only hands (no melds: a 14-tile hand), or the
    standard shape for a smaller 3k+2 hand (melds taken away)."""
    from mahjong.agari import Agari
    c = list(counts)
    if sum(c) != 14:
        free = [h for h in range(27, 34) if c[h] == 0]
        if not free:
            return False
        c[free[0]] += 3  # an extra honour triplet: kokushi and seven pairs are ruled out
        return bool(Agari.is_agari(c))
    if not Agari.is_agari(c):
        return False
    seven = sorted(x for x in c if x) == [2] * 7
    if not seven:
        return True
    # seven distinct pairs: a win here only if it is also 4 sets + a pair
    free = [h for h in range(27, 34) if c[h] == 0]
    c2 = list(c)
    c2[free[0]] += 3
    return bool(Agari.is_agari(c2)) if free else False


def random_hand(rng: random.Random) -> Optional[list[int]]:
    """Biased: sets + a pair (often perturbed), seven pairs, near-十三幺, or random tiles."""
    size = 14 - 3 * rng.randrange(5)
    r = rng.random()
    if r < 0.45:
        tiles: list[int] = []
        for _ in range((size - 2) // 3):
            if rng.random() < 0.5:
                t = 9 * rng.randrange(3) + rng.randrange(7)
                tiles += [t, t + 1, t + 2]
            else:
                t = rng.randrange(34)
                tiles += [t] * 3
        p = rng.randrange(34)
        tiles += [p, p]
        if rng.random() < 0.4:
            tiles[rng.randrange(len(tiles))] = rng.randrange(34)
    elif r < 0.6:
        size = 14
        tiles = [t for t in rng.sample(range(34), 7) for _ in (0, 1)]
    elif r < 0.75:
        size = 14
        tiles = list(ORPHANS) + [rng.choice(ORPHANS)]
        if rng.random() < 0.5:
            tiles[rng.randrange(14)] = rng.randrange(34)
    else:
        tiles = [rng.randrange(34) for _ in range(size)]
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return None if max(c) > 4 else c


def run(n: int, seed: int = 11) -> tuple[int, int, int]:
    """(hands compared, disagreements, wins) over ``n`` random hands."""
    rng = random.Random(seed)
    done = bad = wins = 0
    while done < n:
        c = random_hand(rng)
        if c is None:
            continue
        done += 1
        mine = is_winning(GD, c)
        wins += mine
        if mine != reference(c):
            bad += 1
    return done, bad, wins


def main(n: int) -> int:
    """Print the comparison of ``n`` hands; the exit status (1 on a disagreement)."""
    done, bad, wins = run(n)
    print(f"guangdong win check vs mahjong Agari: {done} hands, {bad} disagreements, {wins} wins")
    return 1 if bad else 0
