"""The differential check of Changsha's win test by its tiles (changsha.md §9.1 item 2) against
a reference built on the ``mahjong`` package's hand divider, shared by the test (a modest
count) and ``bench/differential.py --family changsha`` (≥200,000 hands).

The reference, written apart from :mod:`.wins`: a hand is a legal win when
* every tile, concealed and melded, is of rank 2, 5 or 8 (将将胡, no shape needed); or
* the concealed part with one honour triplet per meld is a standard hand by
  ``HandDivider.divide_hand`` and some division has a 2/5/8 pair (the small win), or only
  triplets with only pong-type melds (碰碰胡), or the tiles are of one suit (清一色), or the
  hand has four melds (全求人); or
* it has no meld and fourteen tiles that are seven pairs, four equal tiles counting two (七小对).
"""

from __future__ import annotations

import random

from replay.melds import Meld
from schema.ruleset import resolve

from .wins import is_winning

#: ``bench/differential.py --family changsha`` compares this many hands unless told
DEFAULT_HANDS = 200_000
_HONOURS = (27, 28, 29, 30)


def _reference(c: list[int], melds: list[tuple[str, int]]) -> bool:
    from mahjong.hand_calculating.divider import HandDivider
    ranks = [t % 9 for t in range(27) for _ in range(c[t])]
    for kind, low in melds:
        ranks += [low % 9] * 3 if kind == "pong" else [low % 9, low % 9 + 1, low % 9 + 2]
    if sum(c) % 3 == 2 and all(r in (1, 4, 7) for r in ranks):
        return True
    suits = {t // 9 for t in range(27) if c[t]} | {low // 9 for _k, low in melds}
    if not melds and sum(c) == 14 and all(x % 2 == 0 for x in c):
        return True
    hand = list(c) + [0] * (34 - len(c))
    for k in range(len(melds)):
        hand[_HONOURS[k]] += 3
    if sum(hand) != 14:
        return False
    divisions = HandDivider().divide_hand(hand)
    standard = [d for d in divisions if len(d) == 5]
    if not standard:
        return False
    if len(melds) == 4 or len(suits) == 1:
        return True
    for d in standard:
        pair = next(g for g in d if len(g) == 2)
        if pair[0] < 27 and pair[0] % 9 in (1, 4, 7):
            return True
        if all(kind == "pong" for kind, _ in melds) and all(len(g) == 2 or g[0] == g[1] for g in d):
            return True
    return False


def _hand(rng: random.Random, size: int, jiang: bool) -> list[int]:
    pick = (lambda: 9 * rng.randrange(3) + rng.choice((1, 4, 7))) if jiang else \
        (lambda: 9 * rng.randrange(3) + rng.randrange(9))
    tiles: list[int] = []
    style = rng.random()
    if style < 0.55:
        while len(tiles) < size - 2:
            if rng.random() < 0.5 and not jiang:
                s, r = rng.randrange(3), rng.randrange(7)
                tiles += [9 * s + r, 9 * s + r + 1, 9 * s + r + 2]
            else:
                tiles += [pick()] * 3
        tiles += [pick()] * 2
        if rng.random() < 0.3:
            tiles[rng.randrange(len(tiles))] = pick()
    elif style < 0.75 and size == 14:
        for _ in range(7):
            tiles += [pick()] * 2
    else:
        tiles = [pick() for _ in range(size)]
    if rng.random() < 0.2:  # one suit
        s = rng.randrange(3)
        tiles = [9 * s + t % 9 for t in tiles]
    c = [0] * 27
    for t in tiles:
        c[t] += 1
    return c


def run(n: int, seed: int = 42) -> tuple[int, int, list]:
    """Compare ``n`` random hands: (hands, winning hands, disagreements)."""
    rng = random.Random(seed)
    rules = resolve("changsha")
    done = wins = 0
    bad = []
    while done < n:
        m = rng.choice((0, 0, 0, 1, 2, 3, 4))
        jiang = rng.random() < 0.15
        c = _hand(rng, 14 - 3 * m, jiang)
        melds: list[tuple[str, int]] = []
        for _ in range(m):
            if rng.random() < 0.5 or jiang:
                t = 9 * rng.randrange(3) + (rng.choice((1, 4, 7)) if jiang else rng.randrange(9))
                melds.append(("pong", t))
            else:
                melds.append(("chow", 9 * rng.randrange(3) + rng.randrange(7)))
        use = list(c)
        for kind, low in melds:
            for t in ((low,) * 3 if kind == "pong" else (low, low + 1, low + 2)):
                use[t] += 1
        if max(use) > 4:
            continue
        mine_melds = [Meld(kind, low, (low,) * 3 if kind == "pong" else (low, low + 1, low + 2)) for kind, low in melds]
        mine = is_winning(rules, c + [0] * 7, mine_melds)
        ref = _reference(c, melds)
        done += 1
        wins += ref
        if mine != ref:
            bad.append((c, melds, mine, ref))
    return done, wins, bad


def main(n: int) -> int:
    """Print the comparison of ``n`` hands; the exit status (1 on a disagreement)."""
    done, wins, bad = run(n)
    print(f"changsha differential: {done} hands, {wins} winning, {len(bad)} disagreements")
    for b in bad[:5]:
        print("  ", b)
    return 1 if bad else 0


__all__ = ["DEFAULT_HANDS", "main", "run"]
