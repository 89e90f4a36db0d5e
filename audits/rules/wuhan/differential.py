"""Wuhan's win shapes against an independent brute force (issue 40): a reference that shares no
code with ``audits/rules/hands.py`` nor with this family's search (:func:`.wins.solve`), for the
differential test and the bench (``DEFAULT_HANDS``, ``main(n)``).

The reference tries every assignment of the 癞子 to kinds (any non-痞 kind with room: four less
the kind's natural tiles held, melded and turned), then reads the plain hand that results with
a textbook decomposition (a pair, then pongs and runs from the lowest tile), once per question:
any pair, a 2-5-8 pair, pongs only, one suit, 乱将, 乱风 (wuhan.md §7.2–§7.5).  It compares the
nine facts of :class:`.wins.Shapes` for the soft reading.  Random hands are drawn from the tiles
left after the indicator, with 0–3 natural melds, biased towards near-complete ones, holding
0–3 癞子 (four only now and then: the enumeration grows fast).
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


@lru_cache(maxsize=200_000)
def _decomposes(counts: tuple, pair_kinds: frozenset, runs: bool) -> bool:
    """Plain tiles as sets and one pair (the pair of ``pair_kinds``; runs only with ``runs``)."""
    if sum(counts) % 3 != 2:
        return False
    for p in pair_kinds:
        if counts[p] >= 2:
            c = list(counts)
            c[p] -= 2
            if _sets(tuple(c), runs):
                return True
    return False


@lru_cache(maxsize=400_000)
def _sets(counts: tuple, runs: bool) -> bool:
    i = next((k for k in range(34) if counts[k]), None)
    if i is None:
        return True
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        if _sets(tuple(c), runs):
            return True
        c[i] += 3
    if runs and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        return _sets(tuple(c), runs)
    return False


def _assignments(w: int, room: list[int], kinds):
    """Every multiset of ``w`` kinds from ``kinds`` within ``room``."""
    for combo in combinations_with_replacement(sorted(kinds), w):
        if all(combo.count(k) <= room[k] for k in set(combo)):
            yield combo


def reference(ruleset: Ruleset, naturals, w: int, melds, indicator: Optional[int]) -> wins.Shapes:
    """The nine shape facts by brute force."""
    pis = laizi.pi_kinds(ruleset)
    allowed = [k for k in range(34) if k not in pis]
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
    all_pairs = frozenset(allowed)
    std = std258 = dd = False
    for combo in _assignments(w, room, _candidates(naturals, allowed)):
        t = _with(naturals, combo)
        if not std and _decomposes(t, all_pairs, True):
            std = True
        if std and not std258 and _decomposes(t, _258, True):
            std258 = True
        if not dd and not chow_meld and _decomposes(t, all_pairs, False):
            dd = True
        if std and std258 and (dd or chow_meld):
            break
    qys = qys_dd = False
    for suit in range(3):
        kinds = [k for k in allowed if suit * 9 <= k < suit * 9 + 9]
        if any(naturals[k] for k in allowed if k not in kinds) or any(k not in kinds for k in meld_tiles):
            continue
        for combo in _assignments(w, room, kinds):
            t = _with(naturals, combo)
            qys = qys or _decomposes(t, frozenset(kinds), True)
            qys_dd = qys_dd or (not chow_meld and _decomposes(t, frozenset(kinds), False))
    loose = []
    for kinds in (sorted(_258), [k for k in range(27, 34) if k not in pis]):
        inside = not chow_meld and not any(naturals[k] for k in allowed if k not in kinds) \
            and all(k in kinds for k in meld_tiles)
        has = has_dd = False
        if inside:
            for combo in _assignments(w, room, kinds):
                has = True
                if _decomposes(_with(naturals, combo), frozenset(kinds), False):
                    has_dd = True
                    break
        loose += [has, has_dd]
    return wins.Shapes(std, std258, dd, qys, qys_dd, loose[0], loose[1], loose[2], loose[3])


def _with(naturals, combo) -> tuple:
    c = list(naturals)
    for k in combo:
        c[k] += 1
    return tuple(c)


#: one kind for each role a 癞子 standing alone can play: the 2-5-8 of each suit, every honour
_REPRESENTATIVES = frozenset(k for k in range(27) if k % 9 in (1, 4, 7)) | frozenset(range(27, 34))


def _candidates(naturals, allowed) -> list[int]:
    """The kinds a 癞子 is tried as: within two of a natural suited tile of its suit, a natural
    honour, and the representatives (a 癞子 in a group of 癞子 alone plays the same for any kind
    of its suit and class)."""
    near = set()
    for k in range(34):
        if naturals[k]:
            if k < 27:
                base = k - k % 9
                near.update(x for x in range(k - 2, k + 3) if base <= x < base + 9)
            else:
                near.add(k)
    return [k for k in allowed if k in near or k in _REPRESENTATIVES]


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
