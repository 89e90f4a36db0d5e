"""The simulator's bots: one seat's view of its tiles (naturals and chickens) and the
discard choice every family's bots make with it.

A bot's choices are strategy, not rules: whether a move is legal is always the
family's call (:mod:`audits.rules`).  :mod:`paipu.sim.simulate` (Qujing and
Guangdong) and :mod:`paipu.sim.sichuan.game` both play with these bots.
"""

from __future__ import annotations

import random
from operator import add
from typing import Optional, Sequence

from audits.rules import hands as shapes
from replay import Meld
from replay.state import KEY_STEP, SUIT_OF
from schema.tiles import NUM_KINDS

__all__ = ["SeatView", "bot_discard"]


class SeatView:
    """One seat's concealed tiles and melds, split into naturals and chickens (a bot's view)."""

    __slots__ = ("counts", "melds", "nat", "wilds", "wild_tiles", "keys")

    def __init__(self, wild: frozenset[int], counts: list[int], melds: list[Meld], keys: Sequence[int]):
        self.counts = counts
        self.melds = melds
        for k in wild:
            if counts[k]:
                break
        else:
            # no chicken held: the naturals are the hand as it stands (read only)
            self.nat = counts
            self.keys = keys
            self.wilds = 0
            self.wild_tiles = []
            return
        nat = list(counts)
        nat_keys = list(keys)
        wilds = 0
        wild_tiles: list[int] = []
        for k in wild:
            c = nat[k]
            if c:
                wilds += c
                wild_tiles.extend([k] * c)
                nat[k] = 0
                nat_keys[SUIT_OF[k]] -= c * KEY_STEP[k]
        #: the naturals (chickens removed), their suit keys, and how many chickens are held
        self.nat = nat
        self.keys = nat_keys
        self.wilds = wilds
        self.wild_tiles = sorted(wild_tiles)

    def natural_kong_possible(self) -> bool:
        """Cheap pre-check: four natural of a kind, or the fourth natural tile of one's own pong."""
        nat = self.nat
        if 4 in nat:  # (a count is at most 4)
            return True
        for m in self.melds:
            if m.kind == "pong" and nat[m.of]:
                return True
        return False


def bot_discard(rng: random.Random, view: SeatView, flavour: Optional[str]) -> int:
    """A simple bot: keep 听牌 if it can, else throw the least useful tile; keep chickens.
    Every family's bots discard with it (the Sichuan bots once their void suit is gone).

    The bot's own estimate of 听牌 after each discard (a strategy, not a rule: one
    more chicken completes the naturals, ignoring the melds' max-four headroom; a
    "pairs" bot also counts 七对 shapes), on the shape engine's suit keys updated
    in place.  Whether a move is legal is always the family's call.
    """
    nat = view.nat
    keys = view.keys
    if not (keys[0] or keys[1] or keys[2] or keys[3]):  # no naturals held
        return view.wild_tiles[-1]
    if view.wild_tiles and rng.random() < 0.03:
        return view.wild_tiles[-1]  # now and then a chicken goes (plain 1s for everyone)
    w1 = view.wilds + 1
    # the discards after which one more chicken would complete the naturals
    tenpai = shapes.complete_without(keys, w1)
    if flavour == "pairs" and not view.melds and not tenpai:
        tenpai = shapes.seven_pairs_without(nat, w1)
    # the keep score of each tile (the lowest goes): its count, its neighbours, the flavour
    # (whole per suit, by the suit's naturals: see :func:`_base`)
    memo = _BASE[flavour]
    if flavour == "suit":
        # a "suit" bot throws the other suits than its main (the first of the longest) first
        c0, c1, c2 = sum(nat[0:9]), sum(nat[9:18]), sum(nat[18:27])
        main = 0 if c0 >= c1 and c0 >= c2 else 1 if c1 >= c2 else 2
        s0, s1, s2 = 3 if main else 0, 1 if main == 1 else 4, 2 if main == 2 else 5
    else:
        s0, s1, s2 = 0, 1, 2
    k0, k1, k2, k3 = keys[0], keys[1], keys[2], keys[3]
    b0 = memo[s0].get(k0) or _base(flavour, s0, k0)
    b1 = memo[s1].get(k1) or _base(flavour, s1, k1)
    b2 = memo[s2].get(k2) or _base(flavour, s2, k2)
    b3 = memo[6].get(k3) or _base(flavour, 6, k3)
    # the score is whole until the random part is added, so the sum's order does not matter
    rand = rng.random
    if tenpai:
        pool = tenpai
        whole = b0[0] + b1[0] + b2[0] + b3[0]
        scores = [whole[t] + rand() for t in pool]
    else:
        # the kinds held as naturals, in kind order
        pool = b0[1] + b1[1] + b2[1] + b3[1]
        scores = [x + rand() for x in b0[2] + b1[2] + b2[2] + b3[2]]
    return pool[scores.index(min(scores))]  # the first lowest


def _keep_score(flavour: Optional[str], t: int, c: int) -> int:
    """The part of a tile's keep score that depends only on the tile, how many the
    bot holds and its flavour (not on the neighbours nor on a "suit" bot's main suit)."""
    v = c * c * 3
    if t < 27:
        if t % 9 in (0, 8):
            v -= 1
        if flavour in ("honours", "winds"):
            v -= 4
    elif flavour == "suit":
        v += 2
    elif flavour == "honours":
        v += 8 + 4 * c
    elif flavour == "winds" and t < 31:
        v += 12 + 6 * c
    if flavour == "pairs":
        v += 4 * (c >= 2)
    elif flavour == "kongs":
        v += 10 * (c >= 2) + 10 * (c >= 3)
    return v


#: per flavour: the keep score part of (tile, count) at ``5 * tile + count``
_KEEP = {f: tuple(_keep_score(f, t, c) for t in range(NUM_KINDS) for c in range(5))
         for f in (None, "suit", "pairs", "honours", "winds", "kongs")}


def _near_of_held(held: int) -> tuple[int, ...]:
    """Per rank, the keep score the held ranks (bit ``r`` for rank ``r``) give it as
    neighbours: held within one rank 3 each, within two 1 each."""
    return tuple(sum(wgt for d, wgt in ((-2, 1), (-1, 3), (1, 3), (2, 1)) if 0 <= r + d <= 8 and held >> (r + d) & 1)
                 for r in range(9))


#: the neighbour scores of each of the 512 sets of held ranks; the same less 8 (a "suit"
#: bot's other suits); none for the honours (128 sets of seven)
_NEAR_OF_HELD = tuple(_near_of_held(h) for h in range(512))
_NEAR_OF_HELD_OFF = tuple(tuple(x - 8 for x in near) for near in _NEAR_OF_HELD)
_NO_NEAR = ((0,) * 7,) * 128


def _digit_groups(digits: int, first_rank: int) -> tuple[tuple[tuple[int, ...], int], ...]:
    """Per value of a ``digits``-digit base-5 group of a suit key (ranks ``first_rank``
    on, the first the most significant): its counts and its held ranks as bits."""
    groups = []
    for value in range(5 ** digits):
        counts = shapes.key_counts(value, digits)
        groups.append((counts, sum(1 << (first_rank + i) for i, c in enumerate(counts) if c)))
    return tuple(groups)


#: a suit key splits as ``divmod(key, 625)``: five high digits and four low ones for a
#: suit, three and four for the honours
_HIGH_SUIT, _LOW_SUIT = _digit_groups(5, 0), _digit_groups(4, 5)
_HIGH_HONOURS, _LOW_HONOURS = _digit_groups(3, 0), _digit_groups(4, 3)
#: each rank's first index in a suit's slice of :data:`_KEEP` (five counts per kind)
_RANK_OFFSETS = tuple(range(0, 45, 5))
#: per set of held ranks: the ranks; per suit, the kinds
_RANKS_HELD = tuple(tuple(r for r in range(9) if held >> r & 1) for held in range(512))
_KINDS_HELD = tuple(tuple(tuple(9 * su + r for r in ranks) for ranks in _RANKS_HELD)
                    for su in range(4))
#: per flavour, per suit: that suit's slice of :data:`_KEEP`
_KEEP_OF_SUIT = {f: tuple(keep[45 * su: 45 * su + (35 if su == 3 else 45)] for su in range(4))
                 for f, keep in _KEEP.items()}


#: per flavour, per slot (the three suits; the same suits as a "suit" bot's other suits;
#: the honours): suit key (naturals) -> (the whole part of the keep score of each kind of
#: that suit (:func:`_keep_score` of its count, plus its held neighbours' score, less 8
#: in another suit than a "suit" bot's main); the kinds held; their whole parts)
_BASE: dict[Optional[str], tuple[dict[int, tuple[tuple[int, ...], ...]], ...]] = {
    f: tuple({} for _ in range(7)) for f in _KEEP}


def _base(flavour: Optional[str], slot: int, key: int) -> tuple[tuple[int, ...], ...]:
    high, low = divmod(key, 625)
    if slot == 6:
        su = 3
        (hc, hh), (lc, lh) = _HIGH_HONOURS[high], _LOW_HONOURS[low]
        near_of = _NO_NEAR
    else:
        su = slot % 3
        (hc, hh), (lc, lh) = _HIGH_SUIT[high], _LOW_SUIT[low]
        near_of = _NEAR_OF_HELD_OFF if slot >= 3 else _NEAR_OF_HELD
    held = hh | lh
    scores = _KEEP_OF_SUIT[flavour][su]
    whole = tuple(map(add, map(scores.__getitem__, map(add, _RANK_OFFSETS, hc + lc)), near_of[held]))
    got = (whole, _KINDS_HELD[su][held], tuple(map(whole.__getitem__, _RANKS_HELD[held])))
    memo = _BASE[flavour][slot]
    if len(memo) > 100_000:
        memo.clear()
    memo[key] = got
    return got


