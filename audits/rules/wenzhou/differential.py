"""Wenzhou's win check against an independent brute force (issue 39): a reference that shares
no code with ``audits/rules/hands.py`` or :mod:`audits.rules.wilds`, for the differential
test and the bench (``DEFAULT_HANDS``, ``main(n)``).

The reference folds 白板 into W itself, then decomposes the concealed tiles by hand (17 tiles
counting each meld as 3): every way to take the lowest natural tile into a pair, a pong or a
run, each other member a natural tile or a 财神, a 财神 only where its kind has room (max four
counting the naturals, the melds, the indicator, and 白板's room 0 while it stands in); the
财神 left over form groups of their own wherever a kind has room.  硬八对 reads every 财神 as W
(归位) and counts pairs; three 财神 win bare.  Random hands are drawn from the physical tiles
left after the indicator, with 0–2 natural melds, biased towards near-complete ones; W runs
over suited kinds, a wind, a dragon and 白板 itself.
"""

from __future__ import annotations

import random
from typing import Optional, Sequence

import msgspec

from replay.melds import Meld
from schema.ruleset import resolve
from schema.tiles import TILE_INDEX

from . import wins

DEFAULT_HANDS = 200_000
#: the hand's W for each quarter of the run
WILDS = ("5p", "1z", "5z", "9m")
WHITE = 31


def _fold(tile: int, w: int) -> int:
    return w if tile == WHITE and w != WHITE else tile


def _room_of(w: int, melds: Sequence[Meld]) -> list[int]:
    """What is left of each kind's four for a 财神 besides the naturals: melds, the indicator."""
    used = [0] * 34
    for m in melds:
        for t in m.tiles:
            used[_fold(t, w)] += 1
    used[w] += 1  # the indicator
    if w != WHITE:
        used[WHITE] = 4  # 白板 is W: no 财神 stands for it
    return [4 - u for u in used]


def _wild_only(w: int, room: list[int], pair_done: bool) -> bool:
    """Can ``w`` 财神 alone form the remaining groups (a pair if not yet made, then sets)?"""
    if w == 0:
        return pair_done
    if not pair_done:
        for k in range(34):
            if room[k] >= 2 and w >= 2:
                room[k] -= 2
                ok = _wild_only(w - 2, room, True)
                room[k] += 2
                if ok:
                    return True
        return False
    if w % 3:
        return False
    for k in range(34):
        if room[k] >= 3:
            room[k] -= 3
            ok = _wild_only(w - 3, room, True)
            room[k] += 3
            if ok:
                return True
    return False


def _groups(i: int):
    """Groups holding natural kind ``i`` (the lowest natural held): (kinds with ``i`` first, is
    the pair); a run may start below ``i`` (its lower members are then 财神)."""
    yield (i, i), True
    yield (i, i, i), False
    if i < 27:
        for start in (i - 2, i - 1, i):
            if start >= i - i % 9 and start + 2 <= i - i % 9 + 8:
                yield (i, *(k for k in (start, start + 1, start + 2) if k != i)), False


def _standard(c: list[int], w: int, room: list[int], pair_done: bool) -> bool:
    i = next((k for k in range(34) if c[k]), None)
    if i is None:
        return _wild_only(w, room, pair_done)
    for group, is_pair in _groups(i):
        if is_pair and pair_done:
            continue
        others = list(group[1:])
        # each other member: natural (if held) or a 财神 (if room)
        for mask in range(1 << len(others)):
            took, wild_as, ok = [], [], True
            for j, k in enumerate(others):
                if mask >> j & 1:
                    wild_as.append(k)
                else:
                    took.append(k)
            need = len(wild_as)
            if need > w:
                continue
            c[i] -= 1
            for k in took:
                c[k] -= 1
            for k in wild_as:
                room[k] -= 1
            ok = all(c[k] >= 0 for k in took) and all(room[k] >= 0 for k in wild_as)
            if ok and _standard(c, w - need, room, pair_done or is_pair):
                ok = True
            else:
                ok = False
            c[i] += 1
            for k in took:
                c[k] += 1
            for k in wild_as:
                room[k] += 1
            if ok:
                return True
    return False


def reference(w: int, counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """The brute-force answer: do ``counts`` (physical, the winning tile included) + ``melds``
    win with W = ``w`` (standard, 硬八对, or three 财神)?"""
    c = [0] * 34
    caishen = 0
    for k, n in enumerate(counts):
        if k == w:
            caishen += n
        else:
            c[_fold(k, w)] += n
    if caishen >= 3:
        return True
    room = _room_of(w, melds)
    for k in range(34):
        room[k] -= c[k]
    if (sum(c) + caishen) % 3 == 2 and _standard(list(c), caishen, list(room), False):
        return True
    if not melds and sum(c) + caishen == 17:
        hard = list(c)
        hard[w] += caishen
        if hard[w] + (4 - _room_of(w, ())[w]) <= 4 and sum(x // 2 for x in hard) >= 8:
            return True
    return False


def _random_hand(rng: random.Random, w: int) -> tuple[list[int], list[Meld]]:
    """A random 17-tile hand (melds as 3) from the tiles left after the indicator."""
    pool = [k for k in range(34) for _ in range(4)]
    pool.remove(w)
    rng.shuffle(pool)
    left = {k: 4 - (k == w) for k in range(34)}
    melds: list[Meld] = []
    for _ in range(rng.choice((0, 0, 1, 2))):
        k = rng.randrange(34)
        if k == w:
            continue
        if rng.random() < 0.5 and k < 27 and k % 9 <= 6 and all(left[k + j] and k + j != w for j in range(3)):
            for j in range(3):
                left[k + j] -= 1
            melds.append(Meld("chow", k, (k, k + 1, k + 2), 0, 0))
        elif left[k] >= 3:
            left[k] -= 3
            melds.append(Meld("pong", k, (k, k, k), 0, 0))
    need = 17 - 3 * len(melds)
    counts = [0] * 34
    if rng.random() < 0.6:
        # near-complete: sets and a pair from what is left, then one tile swapped
        kinds = [k for k in range(34) if left[k]]
        while sum(counts) < need - 2:
            k = rng.choice(kinds)
            if rng.random() < 0.5 and k < 27 and k % 9 <= 6 and all(left[k + j] - counts[k + j] > 0
                                                                     for j in range(3)):
                for j in range(3):
                    counts[k + j] += 1
            elif left[k] - counts[k] >= 3 and sum(counts) + 3 <= need - 2:
                counts[k] += 3
            if sum(counts) > need - 2:
                break
        while sum(counts) > need - 2:
            k = max(range(34), key=lambda x: counts[x])
            counts[k] -= 1
        k = rng.choice([x for x in kinds if left[x] - counts[x] >= 2])
        counts[k] += 2
        if rng.random() < 0.5:
            held = [x for x in range(34) if counts[x]]
            counts[rng.choice(held)] -= 1
            spare = [x for x in range(34) if left[x] - counts[x] > 0]
            counts[rng.choice(spare)] += 1
    else:
        rest = [k for k in range(34) for _ in range(left[k])]
        for k in rng.sample(rest, need):
            counts[k] += 1
    # a few 财神 more often than chance
    if rng.random() < 0.4 and left[w] - counts[w] > 0:
        held = [x for x in range(34) if counts[x] and x != w]
        if held:
            counts[rng.choice(held)] -= 1
            counts[w] += 1
    return counts, melds


def run(n: int = DEFAULT_HANDS, seed: int = 39) -> tuple[int, list]:
    """Compare :func:`wins.is_winning` with :func:`reference` on ``n`` random hands:
    (hands compared, the first disagreements)."""
    rng = random.Random(seed)
    bad: list = []
    room = resolve("wenzhou")
    for q, wild in enumerate(WILDS):
        rules = msgspec.structs.replace(room, wilds=(wild,))
        w = TILE_INDEX[wild]
        for _ in range(n // len(WILDS) + (q < n % len(WILDS))):
            counts, melds = _random_hand(rng, w)
            got = wins.is_winning(rules, counts, melds)
            want = reference(w, counts, melds)
            if got != want and len(bad) < 10:
                bad.append((wild, counts, [m.tiles for m in melds], got, want))
    return n, bad


def main(n: Optional[int] = None) -> int:
    """Run the differential; exit status 1 on a disagreement."""
    total, bad = run(n or DEFAULT_HANDS)
    print(f"wenzhou differential: {total} hands, {len(bad)} disagreements (first shown)")
    for b in bad:
        print("  ", b)
    return 1 if bad else 0


__all__ = ["DEFAULT_HANDS", "main", "reference", "run"]
