"""The differential check of the void-gated win check (sichuan.md §8) against the
``mahjong`` package's agari check restricted to two suits, shared by the test
(a modest count) and ``bench/differential.py --family sichuan`` (≥100,000 hands).

Each random hand draws its tiles from the two suits other than the void suit, and
sometimes gets a tile of the void suit; some hands have concealed kongs (of kinds
the concealed part lacks).  The reference: no tile of the void suit, and
``Agari.is_agari`` on the concealed part, where hands with melds get an extra
honour triplet (ruling seven pairs out, as §8.1 does once a meld exists) and a
meld-less hand of seven pairs may hold four equal tiles as two pairs (§8.1).
"""

from __future__ import annotations

import random

from replay.melds import Meld
from schema.ruleset import resolve

from .fans import is_legal_shape

#: ``bench/differential.py --family sichuan`` compares this many hands unless told
DEFAULT_HANDS = 100_000


def _reference(c: list[int], void: int, melds: int) -> bool:
    from mahjong.agari import Agari
    if any(c[9 * void:9 * void + 9]):
        return False
    if melds:
        c = list(c)
        c[27] += 3  # an honour triplet: standard shape only
        return Agari.is_agari(c)
    if sum(c) == 14 and all(x % 2 == 0 for x in c):
        return True
    return Agari.is_agari(c)


def _hand(rng: random.Random, suits: list[int], size: int) -> list[int] | None:
    tiles: list[int] = []
    if rng.random() < 0.6:
        while len(tiles) < size - 2:
            s = rng.choice(suits)
            if rng.random() < 0.5:
                r = rng.randrange(7)
                tiles += [9 * s + r, 9 * s + r + 1, 9 * s + r + 2]
            else:
                tiles += [9 * s + rng.randrange(9)] * 3
        p = 9 * rng.choice(suits) + rng.randrange(9)
        tiles += [p, p]
        if rng.random() < 0.4:
            tiles[rng.randrange(len(tiles))] = 9 * rng.choice(suits) + rng.randrange(9)
    elif rng.random() < 0.3 and size == 14:
        for _ in range(7):
            p = 9 * rng.choice(suits) + rng.randrange(9)
            tiles += [p, p]
    else:
        tiles = [9 * rng.choice(suits) + rng.randrange(9) for _ in range(size)]
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c if max(c) <= 4 else None


def run(n: int, seed: int = 17) -> tuple[int, int, list]:
    """Compare ``n`` random hands: (hands, winning hands, disagreements)."""
    rng = random.Random(seed)
    rules = resolve("sichuan")
    done = wins = 0
    bad = []
    while done < n:
        void = rng.randrange(3)
        suits = [s for s in range(3) if s != void]
        m = rng.choice((0, 0, 0, 1, 2, 4))
        c = _hand(rng, suits, 14 - 3 * m)
        if c is None:
            continue
        if rng.random() < 0.1:
            t = 9 * void + rng.randrange(9)
            c[rng.choice([k for k in range(27) if c[k]])] -= 1
            c[t] += 1
            if c[t] > 4:
                continue
        free = [k for k in range(27) if c[k] == 0 and k // 9 != void]
        melds = [Meld("kong_concealed", k, (k,) * 4) for k in rng.sample(free, m)]
        mine = is_legal_shape(c, melds, void, rules)
        ref = _reference(c, void, m)
        done += 1
        wins += ref
        if mine != ref:
            bad.append((c, void, m, mine, ref))
    return done, wins, bad


def main(n: int) -> int:
    """Print the comparison of ``n`` hands; the exit status (1 on a disagreement)."""
    done, wins, bad = run(n)
    print(f"sichuan differential: {done} hands, {wins} winning, {len(bad)} disagreements")
    for b in bad[:5]:
        print("  ", b)
    return 1 if bad else 0
