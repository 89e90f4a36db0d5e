"""The cached wait test of the families without wild tiles (``wins.seat_waits`` + the shared
``plain_wins.completes``, the audit's per-discard fast path on the suit keys) answers exactly
as the family's plain win check ``wins.is_winning`` on random hands, with and without melds,
十三幺, 十三烂 and 七对 included: Guangdong and Hainan."""

from __future__ import annotations

import random

import pytest

from audits.rules.guangdong import wins
from audits.rules.hainan import wins as hainan_wins
from audits.rules.hands import hand_keys
from audits.rules.special_hands import ORPHANS
from replay.melds import Meld
from schema.ruleset import resolve

GD = resolve("guangdong-jipinghu")
GD_QIDUI = resolve("guangdong-jipinghu", {"seven_pairs_fan": 4})
HAINAN = {mode: resolve("hainan", {"luanpai": mode}) for mode in ("shisanlan", "shisanyao", "both")}


def _random_13(rng: random.Random, n_melds: int) -> tuple[list[int], list[Meld]]:
    """A 13 − 3·n_melds tile concealed hand and n_melds pongs, often close to a win."""
    pool = [k for k in range(34) for _ in range(4)]
    rng.shuffle(pool)
    counts = [0] * 34
    melds = []
    for _ in range(n_melds):
        k = rng.randrange(34)
        while pool.count(k) < 3:
            k = rng.randrange(34)
        for _ in range(3):
            pool.remove(k)
        melds.append(Meld("pong", k, (k, k, k), 0, 1))
    # build from sets so that many hands wait
    need = 13 - 3 * n_melds
    while sum(counts) < need:
        left = need - sum(counts)
        k = rng.randrange(34)
        if left >= 3 and rng.random() < 0.6:
            shape = [k, k, k] if k >= 27 or k % 9 > 6 or rng.random() < 0.3 else [k, k + 1, k + 2]
        else:
            shape = [k]
        if all(pool.count(x) >= shape.count(x) and counts[x] + shape.count(x) <= 4 for x in shape) and len(shape) <= left:
            for x in shape:
                pool.remove(x)
                counts[x] += 1
    return counts, melds


def _special_13(rng: random.Random) -> list[int]:
    counts = [0] * 34
    roll = rng.random()
    if roll < 0.25:  # 十三烂 one short (or a tile off): 147 / 258 / 369 spacings and honours
        kinds = [9 * s + r for s in range(3) for r in rng.choice(((0, 3, 6), (1, 4, 7), (2, 5, 8)))] + list(range(27, 34))
        for k in rng.sample(kinds, 13):
            counts[k] = 1
        if rng.random() < 0.3:
            counts[rng.choice([k for k in range(34) if counts[k]])] -= 1
            counts[rng.randrange(34)] += 1
    elif roll < 0.6:  # 十三幺 one short (or a tile off)
        for k in ORPHANS:
            counts[k] = 1
        counts[rng.choice(ORPHANS)] -= 1
        counts[rng.choice(ORPHANS) if rng.random() < 0.7 else rng.randrange(34)] += 1
    else:  # seven pairs one short
        for k in rng.sample(range(34), 7):
            counts[k] = 2
        counts[[k for k in range(34) if counts[k] == 2][0]] -= 1
    return counts


@pytest.mark.parametrize("family,rules", [(wins, GD), (wins, GD_QIDUI), (hainan_wins, HAINAN["shisanlan"]),
                                          (hainan_wins, HAINAN["shisanyao"]), (hainan_wins, HAINAN["both"])])
def test_the_cached_wait_test_is_the_win_check(family, rules):
    rng = random.Random(11)
    checked = wins_seen = 0
    for i in range(1500):
        if i % 5 == 0:
            counts, melds = _special_13(rng), []
        else:
            counts, melds = _random_13(rng, rng.choice((0, 0, 1, 2, 3)))
        entry = family.seat_waits(rules, counts, hand_keys(counts), sum(counts), melds)
        held = [counts[k] + sum(m.tiles.count(k) for m in melds) for k in range(34)]
        for tile in range(34):
            if held[tile] >= 4:
                continue  # no fifth copy can come
            c = list(counts)
            c[tile] += 1
            want = family.is_winning(rules, c, melds)
            got = bool(entry) and family.completes(rules, entry, counts, melds, tile)
            assert got == want, (counts, melds, tile)
            # asked twice: the cached answer is the same
            assert (bool(entry) and family.completes(rules, entry, counts, melds, tile)) == want
            checked += 1
            wins_seen += want
        if not melds:
            # the waits are the tiles the check completes (no fifth copy)
            assert family.waits(rules, counts) == [t for t in range(34) if counts[t] < 4 and family.is_winning(
                rules, [n + (k == t) for k, n in enumerate(counts)], [])]
    assert wins_seen > 200 and checked > 1500 * 30


def test_a_hand_one_tile_from_nothing_has_no_wait_entry():
    counts = [0] * 34
    for k in (0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 29, 31, 33):
        counts[k] = 1
    assert wins.seat_waits(GD, counts, hand_keys(counts), 13, []) is False


def test_the_family_vouches_for_its_wait_entry_on_a_draw():
    # the cached test above answers a tile drawn too (the hand plus that tile, as from
    # another seat), so the family lets the simulator judge a draw by it
    counts = [0] * 34
    counts[0] = 4
    assert wins.drawn_within_waits(GD, counts) is True
    assert wins.drawn_within_waits(GD_QIDUI, counts) is True
