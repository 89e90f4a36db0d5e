"""Xuzhou's win check against an independent brute force (issue 38): a reference that
shares no code with ``audits/rules/hands.py`` or :mod:`audits.rules.special_hands`, for
the differential test and the bench (``DEFAULT_HANDS``, ``main(n)``).

The reference decides each shape its own way:

* 平和: decompose by hand — every way to take the lowest natural tile into a pair, a
  pong or a run, each other member a natural tile or a 配子, the 配子 only where its kind
  has room (max four counting the melds, the indicator, and 白板's room 0 while it stands
  in); then the 配子 left over into groups of their own;
* 七对 and 乱牌 (十三烂 or 十三幺, no melds): an exhaustive placement of the 配子 kind by
  kind (:func:`_placements`): every number of 配子 each kind can take (room permitting),
  the shape's per-kind rule checked as each kind is closed, the reachable totals of 配子
  placed kept per state — every assignment of every 配子 is covered, for any number of
  配子 (the family counts odd kinds and free slots instead).

Random hands are drawn from the physical tiles left after the indicator, with 0–2
natural melds, biased towards near-complete ones and towards 七对 / 乱牌 shapes holding
several 配子; W runs over suited kinds, winds, dragons and 白板 itself, and each W is
played under ``luanpai = shisanlan`` and ``shisanyao``.
"""

from __future__ import annotations

import random
from typing import Callable, Optional

from replay.melds import Meld
from schema.ruleset import Ruleset

from . import pei, wins

DEFAULT_HANDS = 200_000
#: the hand's W for each quarter of the run: a suited kind (indicator 4p), 中 (indicator 白:
#: 白板 counts for itself), 白板 itself (no stand-in), a terminal
WILDS = ("5p", "7z", "5z", "1m")
#: the 乱牌 options each W is played under (half its hands each)
LUANPAI = ("shisanlan", "shisanyao")
#: the terminals and honours of 十三幺
ORPHAN_KINDS = frozenset((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))


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


# --- 七对 and 乱牌: every placement of the 配子, kind by kind ----------------------------
# A state is what the shape's rule must remember across kinds; ``step(k, count, state)``
# is the state after kind k ends with ``count`` tiles (naturals and 配子), or None when the
# rule forbids it.  The placement keeps, per state, the set of 配子 totals placed so far.

def _placements(naturals, w: int, use, start, step: Callable, done: Callable) -> bool:
    """Can exactly ``w`` 配子 be placed (kind k taking 0 up to its room, 4 − naturals −
    use) so that every kind passes ``step`` and the last state passes ``done``?"""
    reach = {start: {0}}
    for k in range(34):
        room = 4 - naturals[k] - use[k]
        nxt: dict = {}
        for state, placed in reach.items():
            for x in range(0, max(room, 0) + 1):
                after = step(k, naturals[k] + x, state)
                if after is None:
                    continue
                nxt.setdefault(after, set()).update(p + x for p in placed if p + x <= w)
        reach = nxt
    return any(w in placed for state, placed in reach.items() if done(state))


def _pairs_step(k, count, state):
    """七对: every kind holds 0, 2 or 4 tiles (four equal tiles are two pairs)."""
    return state if count in (0, 2, 4) else None


def _spaced_step(k, count, state):
    """十三烂: at most one tile a kind; within a suit two tiles differ in rank by 3 or more.
    The state is the rank of the suit's last tile (-1: none yet)."""
    if count > 1:
        return None
    if k % 9 == 0 or k >= 27:
        state = -1  # a new suit starts (honours are free)
    if not count or k >= 27:
        return state
    rank = k % 9
    if state >= 0 and rank - state < 3:
        return None
    return rank


def _orphans_step(k, count, state):
    """十三幺: each terminal and honour once, one of them twice, nothing else.  The state is
    whether the pair is taken."""
    if k not in ORPHAN_KINDS:
        return state if count == 0 else None
    if count == 1:
        return state
    if count == 2 and not state:
        return True
    return None


def _any(state) -> bool:
    return True


def special(r: Ruleset, naturals, w: int, use) -> bool:
    """七对 or the room's 乱牌 (a concealed hand of 14), by :func:`_placements`."""
    if _placements(naturals, w, use, 0, _pairs_step, _any):
        return True
    if r.luanpai in ("shisanlan", "both") and _placements(naturals, w, use, -1, _spaced_step, _any):
        return True
    return r.luanpai in ("shisanyao", "both") and _placements(naturals, w, use, False, _orphans_step, bool)


def reference(r: Ruleset, counts: list[int], melds=()) -> bool:
    """Is it a Xuzhou win (平和, 七对, the room's 乱牌)?"""
    naturals, w = pei.split(r, counts)
    use = pei.use_of(r, melds)
    if sum(naturals) + w + 3 * len(melds) != 14:
        return False
    if _standard(list(naturals), w, use, naturals, [0] * 34, False):
        return True
    return not melds and special(r, naturals, w, use)


def _special_shape(rng: random.Random, p) -> list[int]:
    """A concealed 七对, 十三烂 or 十三幺 of 14 kinds, then 1–4 of its tiles swapped for
    配子 (W tiles) and at times one for another tile: the hands with several 配子 the
    special shapes take."""
    shape = rng.random()
    if shape < 0.4:
        hand = [t for t in rng.sample(range(34), 7) for _ in (0, 1)]
    elif shape < 0.75:
        hand = [9 * s + x for s in range(3) for x in rng.choice(((0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
                                                                  (0, 3, 7), (1, 5, 8)))]
        hand = rng.sample(hand, rng.choice((7, 8, 9)))
        hand += rng.sample(range(27, 34), 14 - len(hand))
    else:
        orphans = sorted(ORPHAN_KINDS)
        hand = orphans + [rng.choice(orphans)]
    rng.shuffle(hand)
    for i in range(rng.choice((1, 2, 3, 3, 4, 4))):
        hand[i] = p.wild
    if rng.random() < 0.3:
        hand[-1] = rng.randrange(34)
    return hand


def random_hand(rng: random.Random, r: Ruleset) -> Optional[tuple[list[int], list[Meld]]]:
    """Concealed counts and natural melds: groups and a pair from the wall (often a tile or
    two swapped), seven pairs, spaced tiles, a special shape with several 配子, or random
    tiles; None when the tiles drawn are more than the set holds."""
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
    if kind < 0.5:
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
    elif kind < 0.58 and not melds:
        hand = [t for t in rng.sample(range(34), 7) for _ in (0, 1)]
        hand[rng.randrange(14)] = wall.pop()
    elif kind < 0.66 and not melds:
        hand = [9 * s + x for s in range(3) for x in rng.sample((0, 3, 6), 3)] + rng.sample(range(27, 34), 5)
        hand[rng.randrange(14)] = wall.pop()
    elif kind < 0.9 and not melds:
        hand = _special_shape(rng, p)
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


def run(n: int, rules_of, seed: int = 38) -> tuple[int, int, int, int, int]:
    """(hands compared, disagreements, wins, concealed hands with 3+ 配子 that are no 平和,
    how many of those win as 七对 / 乱牌) over ``n``
    random hands, an equal share per W in :data:`WILDS` and 乱牌 option in
    :data:`LUANPAI`; ``rules_of(wild, luanpai=…)`` is the hand's ruleset."""
    rng = random.Random(seed)
    done = bad = won = many = many_won = 0
    mixes = [(wild, luanpai) for wild in WILDS for luanpai in LUANPAI]
    per = max(1, n // len(mixes))
    for wild, luanpai in mixes:
        r = rules_of(wild, luanpai=luanpai)
        target = done + per
        while done < target:
            got = random_hand(rng, r)
            if got is None:
                continue
            c, melds = got
            want = reference(r, c, melds)
            done += 1
            won += want
            if not melds and c[pei.pei(r).wild] >= 3:
                naturals, w = pei.split(r, c)
                if not _standard(list(naturals), w, pei.use_of(r, melds), naturals, [0] * 34, False):
                    many += 1
                    many_won += want
            if wins.is_winning(r, c, melds) != want:
                bad += 1
    return done, bad, won, many, many_won


def main(n: int = DEFAULT_HANDS) -> int:
    """Print the figures; exit status 1 on any disagreement."""
    import msgspec

    from schema.ruleset import resolve

    def rules_of(wild: str, **options) -> Ruleset:
        return msgspec.structs.replace(resolve("xuzhou", options), wilds=(wild,))
    done, bad, won, many, many_won = run(n, rules_of)
    print(f"xuzhou: {done} hands ({won} wins; {many} concealed hands with 3+ 配子 and no 平和, decided by "
          f"the 七对 / 乱牌 placement, {many_won} of them wins), {bad} disagreements")
    return 1 if bad else 0


__all__ = ["DEFAULT_HANDS", "LUANPAI", "WILDS", "main", "random_hand", "reference", "run", "special"]
