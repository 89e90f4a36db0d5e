"""Qujing's wait entry covers a draw (``wins.drawn_within_waits``): a hand holding
chickens whose wait entry is False is not completed by drawing a tile (a chicken
included), unless the chickens held are 四小鸡."""

from __future__ import annotations

import random

from audits.rules.hands import hand_keys
from audits.rules.qujing.wins import drawn_within_waits, is_winning, seat_waits
from schema.ruleset import resolve
from schema.tiles import counts_of, parse_hand, tile_index as ti

XJ = resolve("qujing-xiaoji")
SG = resolve("qujing-shuanggui")


def _random_hand(rng: random.Random, wild: list[int], n: int = 13) -> list[int]:
    """13 tiles with at least one chicken: one in four are chickens, the rest any kind."""
    counts = [0] * 34
    while sum(counts) < n:
        t = rng.choice(wild) if rng.random() < 0.25 or not any(counts[k] for k in wild) else rng.randrange(34)
        if counts[t] < 4:
            counts[t] += 1
    return counts


def test_a_hand_without_a_wait_entry_is_not_completed_by_a_draw():
    rng = random.Random(3)
    checked = 0
    for rules, wild in ((XJ, [ti("1s")]), (SG, [ti("5z"), ti("7z")])):
        for _ in range(3000):
            before = _random_hand(rng, wild)
            if seat_waits(rules, before, hand_keys(before), 13, []):
                continue
            for t in range(34):
                if before[t] == 4:
                    continue
                after = list(before)
                after[t] += 1
                if drawn_within_waits(rules, after):
                    checked += 1
                    assert not is_winning(rules, after), (before, t)
    assert checked > 10_000


def test_four_chickens_are_judged_in_full():
    # near miss of the test above: 四小鸡 wins a self-draw though no tile completes the
    # rest, so the family does not vouch for the wait entry
    before = counts_of(parse_hand("1111s1479m258p135z"))
    assert seat_waits(XJ, before, hand_keys(before), 13, []) is False
    after = list(before)
    after[ti("9p")] += 1
    assert is_winning(XJ, after)
    assert not drawn_within_waits(XJ, after)
    three = counts_of(parse_hand("111s1479m258p1357z"))
    three[ti("9p")] += 1
    assert drawn_within_waits(XJ, three)
