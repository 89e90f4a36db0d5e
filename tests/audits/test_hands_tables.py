"""The prefilled and bytes-keyed win-check tables agree with the solver."""

import random

from audits.rules import hands as H


def test_prefilled_entries_equal_the_solver():
    H._prefill()
    rng = random.Random(11)
    for table, n, runs in ((H._SUIT_TABLE, 9, True), (H._HONOUR_TABLE, 7, False)):
        for key in rng.sample(sorted(table), 400):
            counts = H._decode(key, n)
            want = H._entry(*H._solve(counts, tuple(max(0, 4 - c) for c in counts), runs))
            assert table[key] == want, counts


def test_is_complete_from_counts_equals_the_key_path():
    rng = random.Random(12)
    pool = [t for t in range(34) for _ in range(4)]
    for _ in range(3000):
        wilds = rng.randrange(0, 4)
        c = [0] * 34
        for t in rng.sample(pool, 14 - wilds - 3 * rng.randrange(0, 3)):
            c[t] += 1
        want = (sum(c) + wilds) % 3 == 2 and H.is_complete_keys(*H.hand_keys(c), wilds)
        assert H.is_complete(c, wilds) == want
        assert H.is_complete(tuple(c), wilds) == want
