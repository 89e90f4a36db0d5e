"""The Hainan win check (``wins.is_winning`` under the preset: 4 sets + a pair, 七对 with four
equal tiles as two pairs, the seed's 十三幺 of unconnected tiles) against an independent
reference: the ``mahjong`` package's ``Agari.is_agari`` for the standard shape, with 七对 and
十三烂 written here from the rules text (no code shared with ``audits/rules/hands.py`` or
``special_hands.py``).  The differential test and ``bench/differential.py --family hainan``
share it.
"""

from __future__ import annotations

import random
from typing import Optional

from schema.ruleset import resolve

from .wins import is_winning

HN = resolve("hainan")
#: ``bench/differential.py --family hainan`` compares this many hands unless told
DEFAULT_HANDS = 200_000


def standard(counts: list[int]) -> bool:
    """4 sets + a pair (fewer sets with melds taken away), by ``is_agari`` on the hand with an
    extra honour triplet: seven pairs and kokushi can then never answer for it."""
    from mahjong.agari import Agari
    free = [h for h in range(27, 34) if counts[h] == 0]
    if not free:
        return False  # every honour held once or more: no 3k+2 standard hand of <= 14 tiles
    c = list(counts)
    c[free[0]] += 3
    return bool(Agari.is_agari(c))


def pairs_of_seven(counts: list[int]) -> bool:
    """七对 (hainan.md §5): 14 tiles, every kind held 0, 2 or 4 times (four as two pairs)."""
    return sum(counts) == 14 and all(x in (0, 2, 4) for x in counts)


def unconnected(counts: list[int]) -> bool:
    """十三幺 as the seed defines it (§5): 14 different tiles, and within a suit any two
    differ by at least 3 in rank."""
    if sum(counts) != 14 or any(x > 1 for x in counts):
        return False
    for suit in range(3):
        ranks = [r for r in range(9) if counts[9 * suit + r]]
        if any(b - a < 3 for a, b in zip(ranks, ranks[1:])):
            return False
    return True


def reference(counts: list[int]) -> bool:
    """The reference answer: standard, or (14 concealed tiles) 七对 or 十三烂."""
    if standard(counts):
        return True
    return sum(counts) == 14 and (pairs_of_seven(counts) or unconnected(counts))


def random_hand(rng: random.Random) -> Optional[list[int]]:
    """Biased: sets + a pair (often perturbed), seven pairs (some with four equal tiles),
    spaced tiles (some one step too close), or random tiles."""
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
        kinds = rng.sample(range(34), 7)
        if rng.random() < 0.3:
            kinds[1] = kinds[0]  # four equal tiles
        tiles = [t for t in kinds for _ in (0, 1)]
        if rng.random() < 0.3:
            tiles[rng.randrange(14)] = rng.randrange(34)
    elif r < 0.8:
        size = 14
        tiles = []
        for suit in range(3):
            start = rng.randrange(3)
            tiles += [9 * suit + k for k in range(start, 9, 3)]
        tiles += list(range(27, 34))
        rng.shuffle(tiles)
        tiles = tiles[:14]
        while len(tiles) < 14:
            tiles.append(rng.randrange(34))
        if rng.random() < 0.4:
            tiles[rng.randrange(14)] = rng.randrange(34)
    else:
        tiles = [rng.randrange(34) for _ in range(size)]
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return None if max(c) > 4 else c


def run(n: int, seed: int = 41) -> tuple[int, int, int]:
    """(hands compared, disagreements, wins) over ``n`` random hands (a hand smaller than 14
    stands for one with melds: only the standard shape can win it)."""
    from replay.melds import Meld
    rng = random.Random(seed)
    done = bad = wins = 0
    while done < n:
        c = random_hand(rng)
        if c is None:
            continue
        done += 1
        melds = [Meld("pong", 33, (33,) * 3)] * ((14 - sum(c)) // 3)
        if melds and c[33]:
            melds = [Meld("chow", 0, (0, 1, 2))] * len(melds)
        mine = is_winning(HN, c, melds)
        wins += mine
        if mine != reference(c):
            bad += 1
    return done, bad, wins


def main(n: int) -> int:
    """Print the comparison of ``n`` hands; the exit status (1 on a disagreement)."""
    done, bad, wins = run(n)
    print(f"hainan win check vs mahjong Agari (+ 七对, 十三烂 from the text): {done} hands, {bad} disagreements, "
          f"{wins} wins")
    return 1 if bad else 0
