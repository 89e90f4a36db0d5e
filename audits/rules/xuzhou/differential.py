"""Xuzhou's win check against an independent brute force (issue 38): a reference that
shares no code with ``audits/rules/hands.py``, for the differential test and the bench
(``DEFAULT_HANDS``, ``main(n)``).

The reference decomposes the concealed tiles by hand: every way to take the lowest
natural tile into a pair, a pong or a run, each other member a natural tile or a 配子,
the 配子 only where its kind has room (max four counting the melds, the indicator, and
白板's room 0 while it stands in); then the 配子 left over into groups of their own.
七对 and 十三烂 (no melds) try every kind for every 配子 (hands with at most two 配子;
beyond that a hand that is not 平和 is not compared).  Random hands are drawn from the
physical tiles left after the indicator, with 0–2 natural melds, biased towards
near-complete ones; W runs over suited kinds, winds, dragons and 白板 itself.
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement
from typing import Optional

from replay.melds import Meld
from schema.ruleset import Ruleset

from . import pei, wins

DEFAULT_HANDS = 200_000
#: the hand's W for each quarter of the run: a suited kind (indicator 4p), 中 (indicator 白:
#: 白板 counts for itself), 白板 itself (no stand-in), a terminal
WILDS = ("5p", "7z", "5z", "1m")


def _room(naturals, use, extra, k):
    return 4 - naturals[k] - use[k] - extra[k]


def _groups_of(i):
    """The groups that can hold natural tile ``i``: (tiles, is the pair)."""
    out = [((i, i), True), ((i, i, i), False)]
    if i < 27:
        for start in (i - 2, i - 1, i):
            if start >= 9 * (i // 9) and start + 2 < 9 * (i // 9) + 9:
                out.append(((start, start + 1, start + 2), False))
    return out


def _standard(c, w, use, naturals, extra, pair_done) -> bool:
    i = next((k for k in range(34) if c[k]), None)
    if i is None:
        return _wild_groups(w, use, naturals, extra, pair_done)
    for group, is_pair in _groups_of(i):
        if is_pair and pair_done:
            continue
        slots = list(group)
        slots.remove(i)
        for mask in range(1 << len(slots)):
            took, as_wild, ok = [], [], True
            for j, k in enumerate(slots):
                if mask >> j & 1:
                    if _room(naturals, use, extra, k) <= 0:
                        ok = False
                        break
                    extra[k] += 1
                    as_wild.append(k)
                elif c[k] > 0:
                    c[k] -= 1
                    took.append(k)
                else:
                    ok = False
                    break
            found = False
            if ok and len(as_wild) <= w:
                c[i] -= 1
                found = _standard(c, w - len(as_wild), use, naturals, extra, pair_done or is_pair)
                c[i] += 1
            for k in took:
                c[k] += 1
            for k in as_wild:
                extra[k] -= 1
            if found:
                return True
    return False


def _wild_groups(w, use, naturals, extra, pair_done) -> bool:
    """The 配子 left form pongs (and the pair) of kinds with room."""
    if w == 0:
        return pair_done
    for k in range(34):
        r = _room(naturals, use, extra, k)
        for size, pair in ((2, True), (3, False)):
            if (pair and pair_done) or w < size or r < size:
                continue
            extra[k] += size
            got = _wild_groups(w - size, use, naturals, extra, pair_done or pair)
            extra[k] -= size
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


def _spaced(c) -> bool:
    if any(x > 1 for x in c):
        return False
    for s in range(3):
        ranks = [r for r in range(9) if c[9 * s + r]]
        if any(b - a < 3 for a, b in zip(ranks, ranks[1:])):
            return False
    return True


def reference(r: Ruleset, counts: list[int], melds=()) -> Optional[bool]:
    """Is it a Xuzhou win (平和, 七对, 十三烂)?  None: not decided (more than two 配子 and no 平和)."""
    naturals, w = pei.split(r, counts)
    use = pei.use_of(r, melds)
    if sum(naturals) + w + 3 * len(melds) != 14:
        return False
    if _standard(list(naturals), w, use, naturals, [0] * 34, False):
        return True
    if melds:
        return False
    if w > 2:
        return None
    cands = list(_assignments(naturals, w, use))
    return any(all(x in (0, 2, 4) for x in c) for c in cands) or any(_spaced(c) for c in cands)


def random_hand(rng: random.Random, r: Ruleset) -> Optional[tuple[list[int], list[Meld]]]:
    """Concealed counts and natural melds: groups and a pair from the wall (often a tile or
    two swapped), seven pairs, spaced tiles, or random tiles."""
    p = pei.pei(r)
    wall = [k for k in range(34) for _ in range(4)]
    wall.remove(p.indicator)
    rng.shuffle(wall)
    melds: list[Meld] = []
    for _ in range(rng.choice((0, 0, 0, 1, 2))):
        k = rng.randrange(34)
        if k == p.wild or wall.count(k) < 3:
            continue
        for _ in range(3):
            wall.remove(k)
        melds.append(Meld("pong", k, (k, k, k), 0, 1))
    size = 14 - 3 * len(melds)
    kind = rng.random()
    if kind < 0.6:
        hand: list[int] = []
        for _ in range((size - 2) // 3):
            t = rng.randrange(34)
            group = [t] * 3 if t >= 27 or t % 9 > 6 or rng.random() < 0.4 else [t, t + 1, t + 2]
            if all(wall.count(x) >= group.count(x) for x in group):
                for x in group:
                    wall.remove(x)
                hand += group
        while len(hand) < size:
            hand.append(wall.pop())
        for _ in range(rng.choice((0, 0, 1, 2))):
            hand[rng.randrange(size)] = wall.pop()
    elif kind < 0.7 and not melds:
        hand = [t for t in rng.sample(range(34), 7) for _ in (0, 1)]
        hand[rng.randrange(14)] = wall.pop()
    elif kind < 0.8 and not melds:
        hand = [9 * s + x for s in range(3) for x in rng.sample((0, 3, 6), 3)] + rng.sample(range(27, 34), 5)
        hand[rng.randrange(14)] = wall.pop()
    else:
        hand = wall[:size]
    c = [0] * 34
    for t in hand:
        c[t] += 1
    used = list(c)
    for m in melds:
        used[m.of] += 3
    if any(x + (k == p.indicator) > 4 for k, x in enumerate(used)):
        return None
    return c, melds


def run(n: int, rules_of, seed: int = 38) -> tuple[int, int, int]:
    """(hands compared, disagreements, wins) over ``n`` random hands, a quarter per W in
    :data:`WILDS`; ``rules_of(wild)`` is the hand's ruleset."""
    rng = random.Random(seed)
    done = bad = won = 0
    per = max(1, n // len(WILDS))
    for wild in WILDS:
        r = rules_of(wild)
        target = done + per
        while done < target:
            got = random_hand(rng, r)
            if got is None:
                continue
            c, melds = got
            want = reference(r, c, melds)
            if want is None:
                continue
            done += 1
            won += want
            if wins.is_winning(r, c, melds) != want:
                bad += 1
    return done, bad, won


def main(n: int = DEFAULT_HANDS) -> int:
    """Print the figures; exit status 1 on any disagreement."""
    import msgspec

    from schema.ruleset import resolve

    def rules_of(wild: str) -> Ruleset:
        return msgspec.structs.replace(resolve("xuzhou"), wilds=(wild,))
    done, bad, won = run(n, rules_of)
    print(f"xuzhou: {done} hands ({won} wins), {bad} disagreements")
    return 1 if bad else 0


__all__ = ["DEFAULT_HANDS", "WILDS", "main", "random_hand", "reference", "run"]
