"""Wuhan's win shapes against an independent brute force (issue 40): a reference that shares no
code with ``audits/rules/hands.py`` nor with this family's search (:func:`.wins.solve`), for the
differential test and the bench (``DEFAULT_HANDS``, ``main(n)``).

The reference tries every assignment of the 癞子 to kinds (any kind the question allows, with
room: four less the kind's natural tiles held, melded and turned) and reads each plain hand that
results with a textbook decomposition (a pair, then pongs and runs from the lowest tile), once
per question: any pair, a 2-5-8 pair, pongs only, one suit, 乱将, 乱风 (wuhan.md §7.2–§7.5).
Since no set crosses a suit (and honours make pongs only), the assignments are enumerated group
by group — every filling of each suit and of the honours with k 癞子, memoised on the group's
counts and room — and joined over how many 癞子 each group takes and which group holds the pair:
the same verdict as trying the whole hand's assignments one by one, at a fraction of the cost.
It compares the nine facts of :class:`.wins.Shapes` for the soft reading.  Random hands are
drawn from the tiles left after the indicator, with 0–3 natural melds, biased towards
near-complete ones, holding 0–3 癞子 (four now and then).
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Optional

from replay.melds import Meld
from schema.ruleset import Ruleset

from . import laizi, wins

DEFAULT_HANDS = 200_000
#: the hand's W by quarter of the run: a suited kind, 发 (红中 skipped), 东, a terminal
WILDS = ("5p", "6z", "1z", "9s")
_258 = frozenset(k for k in range(27) if k % 9 in (1, 4, 7))


#: the four groups a hand's tiles fall into: sets never cross a group (runs stay in their
#: suit; honours form pongs only), so a hand is sets and one pair exactly when each group is
#: sets, one of them with the pair
GROUPS = (tuple(range(0, 9)), tuple(range(9, 18)), tuple(range(18, 27)), tuple(range(27, 34)))


@lru_cache(maxsize=None)
def _plain_sets(counts: tuple, runs: bool) -> bool:
    """One group's plain tiles (a count per kind, in order) as sets only: take the lowest
    tile as a pong, or as the start of a run (``runs``: a suit with runs allowed)."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return True
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        if _plain_sets(tuple(c), runs):
            return True
        c[i] += 3
    if runs and i + 2 < len(c) and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        return _plain_sets(tuple(c), runs)
    return False


@lru_cache(maxsize=None)
def _plain_pairs(counts: tuple, runs: bool) -> frozenset:
    """The positions of a group whose pair leaves the rest as sets only."""
    if sum(counts) % 3 != 2:
        return frozenset()
    out = []
    for p, n in enumerate(counts):
        if n >= 2:
            c = list(counts)
            c[p] -= 2
            if _plain_sets(tuple(c), runs):
                out.append(p)
    return frozenset(out)


def _fillings(naturals: tuple, room: tuple, allowed: tuple, k: int):
    """Every way to add ``k`` 癞子 to a group: a multiset of positions from ``allowed``, each
    within its room — the plain counts that result."""
    for combo in combinations_with_replacement(allowed, k):
        c = list(naturals)
        ok = True
        for x in combo:
            c[x] += 1
            if c[x] - naturals[x] > room[x]:
                ok = False
                break
        if ok:
            yield tuple(c)


@lru_cache(maxsize=1 << 18)
def _group_table(naturals: tuple, room: tuple, allowed: tuple, pair_ok: tuple, runs: bool,
                 w: int) -> tuple:
    """For k = 0..w 癞子 placed in the group (every filling tried): (some filling is sets only,
    some filling is sets and a pair of a ``pair_ok`` position)."""
    table = []
    for k in range(w + 1):
        sets = pair = False
        for c in _fillings(naturals, room, allowed, k):
            sets = sets or _plain_sets(c, runs)
            pair = pair or bool(_plain_pairs(c, runs) & frozenset(pair_ok))
            if sets and pair:
                break
        table.append((sets, pair))
    return tuple(table)


def _brute(naturals, w: int, room, kinds: frozenset, pair_kinds: frozenset, runs: bool) -> bool:
    """Some assignment of the ``w`` 癞子 to ``kinds`` (within ``room``) makes the plain hand sets
    and one pair of ``pair_kinds`` (runs only with ``runs``): each group's fillings enumerated,
    the groups joined over how many 癞子 each takes and which holds the pair."""
    reach = {(0, False)}
    for g, group in enumerate(GROUPS):
        nat = tuple(naturals[k] for k in group)
        rm = tuple(room[k] for k in group)
        allowed = tuple(i for i, k in enumerate(group) if k in kinds)
        pairs = tuple(i for i, k in enumerate(group) if k in pair_kinds)
        table = _group_table(nat, rm, allowed, pairs, runs and g < 3, w)
        nxt = set()
        for used, paired in reach:
            for k in range(w - used + 1):
                sets, pair = table[k]
                if sets:
                    nxt.add((used + k, paired))
                if pair and not paired:
                    nxt.add((used + k, True))
        reach = nxt
        if not reach:
            return False
    return (w, True) in reach


def _fits(w: int, room, kinds) -> bool:
    """Some multiset of ``w`` kinds from ``kinds`` fits their room."""
    return sum(min(room[k], w) for k in kinds) >= w


def reference(ruleset: Ruleset, naturals, w: int, melds, indicator: Optional[int]) -> wins.Shapes:
    """The nine shape facts by brute force."""
    pis = laizi.pi_kinds(ruleset)
    allowed = frozenset(k for k in range(34) if k not in pis)
    if any(naturals[k] for k in pis):
        return wins.NONE
    use = [0] * 34
    for m in melds:
        for t in m.tiles:
            use[t] += 1
    if indicator is not None:
        use[indicator] += 1
    room = [0 if k in pis else (max(0, 4 - naturals[k] - use[k]) if ruleset.wild_max_four else 14)
            for k in range(34)]
    meld_tiles = [t for m in melds for t in m.tiles]
    chow_meld = any(m.kind == "chow" for m in melds)
    std = _brute(naturals, w, room, allowed, allowed, True)
    std258 = std and _brute(naturals, w, room, allowed, _258, True)
    dd = std and not chow_meld and _brute(naturals, w, room, allowed, allowed, False)
    qys = qys_dd = False
    for suit in range(3):
        kinds = frozenset(k for k in allowed if suit * 9 <= k < suit * 9 + 9)
        if any(naturals[k] for k in allowed if k not in kinds) or any(k not in kinds for k in meld_tiles):
            continue
        qys = qys or _brute(naturals, w, room, kinds, kinds, True)
        qys_dd = qys_dd or (not chow_meld and _brute(naturals, w, room, kinds, kinds, False))
    loose = []
    for kinds in (_258, frozenset(k for k in range(27, 34) if k not in pis)):
        inside = not chow_meld and not any(naturals[k] for k in allowed if k not in kinds) \
            and all(k in kinds for k in meld_tiles)
        has = inside and _fits(w, room, kinds)
        loose += [has, has and _brute(naturals, w, room, kinds, kinds, False)]
    return wins.Shapes(std, std258, dd, qys, qys_dd, loose[0], loose[1], loose[2], loose[3])


_SUITED_SETS = [(k, k, k) for k in range(34)] + [(k, k + 1, k + 2) for k in range(27) if k % 9 <= 6]


def random_hand(rng: random.Random, ruleset: Ruleset, indicator: int):
    """(naturals, 癞子 held, melds) of a random hand near completion."""
    w = laizi.wild(ruleset)
    pis = laizi.pi_kinds(ruleset)
    pool = [k for k in range(34) for _ in range(4)]
    pool.remove(indicator)
    left = {k: pool.count(k) for k in range(34)}
    melds: list[Meld] = []
    for _ in range(rng.choice((0, 1, 1, 2, 3))):
        g = rng.choice(_SUITED_SETS)
        if any(k in pis or k == w for k in g) or any(left[k] < g.count(k) for k in set(g)):
            continue
        for k in g:
            left[k] -= 1
        kind = "chow" if g[0] != g[1] else "pong"
        melds.append(Meld(kind, g[0], g, 0, 1))
    size = 14 - 3 * len(melds)
    tiles: list[int] = []
    if rng.random() < 0.7:  # near-complete: sets and a pair, then a few tiles swapped
        while len(tiles) < size - 2:
            g = rng.choice(_SUITED_SETS)
            if all(left[k] >= g.count(k) for k in set(g)):
                for k in g:
                    left[k] -= 1
                tiles += list(g)
        tiles = tiles[:size - 2]
        p = rng.randrange(34)
        if left[p] >= 2:
            left[p] -= 2
            tiles += [p, p]
    avail = [k for k in range(34) for _ in range(left[k])]
    rng.shuffle(avail)
    while len(tiles) < size:
        tiles.append(avail.pop())
    for _ in range(rng.choice((0, 0, 1, 1, 2, 2, 2, 3))):  # swap tiles for 癞子
        if w is not None:
            j = rng.randrange(len(tiles))
            if tiles.count(w) < 4 and tiles[j] != w:
                tiles[j] = w
    if rng.random() < 0.005 and w is not None and tiles.count(w) < 4:
        tiles[rng.randrange(len(tiles))] = w
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    if any(c > 4 for c in counts):
        return None
    naturals, n_w = laizi.split(ruleset, counts)
    return naturals, n_w, melds


def run(n: int, rules_of) -> tuple[int, int, int]:
    """(hands compared, disagreements, standard wins) over ``n`` random hands."""
    rng = random.Random(40)
    done = bad = won = 0
    per = max(1, n // len(WILDS))
    for wild in WILDS:
        rules = rules_of(wild)
        indicator = laizi.default_indicator(rules, laizi.wild(rules))
        k = 0
        while k < per:
            got = random_hand(rng, rules, indicator)
            if got is None:
                continue
            naturals, w, melds = got
            k += 1
            mine = wins.shapes(rules, naturals, w, melds, indicator)
            ref = reference(rules, naturals, w, melds, indicator)
            done += 1
            won += mine.standard
            if mine != ref:
                bad += 1
                if bad <= 5:
                    print("disagree", wild, naturals, w, melds, mine, ref)
    return done, bad, won


def main(n: int = DEFAULT_HANDS) -> int:
    """Print the figures; exit status 1 on any disagreement."""
    import msgspec

    from schema.ruleset import resolve

    def rules_of(wild: str) -> Ruleset:
        return msgspec.structs.replace(resolve("wuhan-hzlzg"), wilds=(wild,))
    done, bad, won = run(n, rules_of)
    print(f"wuhan differential: {done} hands ({won} standard wins), {bad} disagreements")
    return 1 if bad else 0


__all__ = ["DEFAULT_HANDS", "WILDS", "main", "random_hand", "reference", "run"]
