"""The discard order (出牌顺序, wenzhou.md §5) as the audit asks it: ``play.discard_rule`` on
the live table answers each discard with its quick looks (no single honour held; a single
honour thrown with no other single of the discard just before) and must agree with the rule
itself (``play.honour_violation``) on every hand."""

import random

import pytest

from audits.rules.wenzhou import play
from schema.tiles import TILE_INDEX as T

from .helpers import counts, rules, table


def _verdict(r, held, seat, tile, previous):
    return play.discard_rule(r, table(hands=[held] * 4, latest_discard=previous), seat, T[tile])


def test_a_single_baiban_is_no_honour_while_w_is_suited():
    r = rules("9p")  # 白板 reads as 9p: a single 白板 is a suited tile
    held = counts("5z 1m 2m 3m 5m 6p 7p 8p 1s 2s 3s 4s 5s 6s 7s 8s 9s")
    assert _verdict(r, held, 2, "5m", (1, T["9m"])).violation is None
    # near miss: a single 东 beside it is an honour held once, so a suited discard breaks rule 2
    held = counts("5z 1z 2m 3m 5m 6p 7p 8p 1s 2s 3s 4s 5s 6s 7s 8s 9s")
    v = _verdict(r, held, 2, "5m", (1, T["9m"])).violation
    assert v is not None and v.code == "HONOUR_DISCARD_ORDER" and "rule 2" in v.message


def test_a_single_baiban_is_the_honour_w_while_w_is_an_honour():
    r = rules("1z")  # 白板 reads as 东
    held = counts("5z 1m 2m 3m 5m 6p 7p 8p 1s 2s 3s 4s 5s 6s 7s 8s 9s")
    v = _verdict(r, held, 2, "5m", (1, T["9m"])).violation
    assert v is not None and v.code == "HONOUR_DISCARD_ORDER" and v.expected == ["1z"]
    assert _verdict(r, held, 2, "5z", (1, T["9m"])).violation is None
    # near miss: two 白板 are a pair of 东, no single
    held = counts("5z 5z 2m 3m 5m 6p 7p 8p 1s 2s 3s 4s 5s 6s 7s 8s 9s")
    assert _verdict(r, held, 2, "5m", (1, T["9m"])).violation is None


def test_rule_3_the_honour_just_discarded_goes_first():
    r = rules("9p")
    held = counts("3z 4z 1m 2m 3m 5m 6p 7p 8p 1s 2s 3s 4s 5s 6s 7s 8s")
    assert _verdict(r, held, 2, "3z", (1, T["3z"])).violation is None
    v = _verdict(r, held, 2, "4z", (1, T["3z"])).violation
    assert v is not None and "rule 3" in v.message and v.expected == ["3z"]
    # near misses: the 西 was the seat's own discard, or the seat holds two 西: either single goes
    assert _verdict(r, held, 1, "4z", (1, T["3z"])).violation is None
    two = counts("3z 3z 4z 1m 2m 3m 5m 6p 7p 8p 1s 2s 3s 4s 5s 6s 7s")
    assert _verdict(r, two, 2, "4z", (1, T["3z"])).violation is None
    # a 白板 just discarded is W's: with W an honour and a single 白板 held, it goes first
    east = rules("1z")
    held = counts("5z 4z 1m 2m 3m 5m 6p 7p 8p 1s 2s 3s 4s 5s 6s 7s 8s")
    v = _verdict(east, held, 2, "4z", (1, T["5z"])).violation
    assert v is not None and "rule 3" in v.message and v.expected == ["1z"]


@pytest.mark.parametrize("wild", ["9p", "1z", "4z", "5z", "7z", None])
def test_the_table_answer_is_the_rule_on_random_hands(wild):
    r = rules(wild)
    w = T[wild] if wild else None
    rng = random.Random(f"wenzhou-order-{wild}")
    pool = [k for k in range(34) for _ in range(4)]
    # honours weighted up, so that singles, pairs and the 白板 / W cases all come often
    weights = [6 if k >= 27 else 1 for k in pool]
    broken = kept = 0
    for _ in range(4000):
        drawn = rng.choices(range(len(pool)), weights=weights, k=40)
        held = [0] * 34
        for i in drawn:
            if sum(held) == 17:
                break
            if held[pool[i]] < 4:
                held[pool[i]] += 1
        tile = rng.choice([k for k in range(34) if held[k] and k != w] or [0])
        if not held[tile]:
            continue
        previous = rng.choice([None, (rng.randrange(4), rng.randrange(34)), (1, rng.randrange(27, 34))])
        seat = rng.choice([1, 2])
        got = play.discard_rule(r, table(hands=[held] * 4, latest_discard=previous), seat, tile).violation
        want = play.honour_violation(r, held, seat, tile, previous)
        assert (got is None) == (want is None), (held, seat, tile, previous)
        if want is not None:
            assert got.message == want.message and got.expected == want.expected
            broken += 1
        else:
            kept += 1
    assert broken > 200 and kept > 200  # both answers arose
