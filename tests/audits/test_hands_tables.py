"""The prefilled and bytes-keyed win-check tables agree with the solver."""

import random

from audits.rules import hands as H


def test_prefilled_entries_equal_the_solver():
    H._prefill()
    rng = random.Random(11)
    for table, n, runs in ((H._SUIT_TABLE, 9, True), (H._HONOUR_TABLE, 7, False)):
        for key in rng.sample(sorted(table), 400):
            counts = H.key_counts(key, n)
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


def test_no_wild_codes_sum_to_one_only_for_sets_and_one_pair():
    H._prefill()
    m = bytes([1, 1, 1, 0, 0, 0, 0, 0, 0])  # 123m: sets only
    pair = bytes([0, 2, 0, 0, 0, 0, 0, 0, 0])  # 22m: the pair
    assert H._SUIT_CODE_BYTES[m] == 0 and H._SUIT_CODE_BYTES[pair] == 1
    assert H._SUIT_CODE[H.suit_key(list(m), 0)] == 0
    assert bytes([1, 1, 0, 0, 0, 0, 0, 0, 0]) not in H._SUIT_CODE_BYTES  # 12m: neither
    c = [0] * 34
    c[0:3] = [1, 1, 1]
    c[10] = 2
    assert H.is_complete(c) and H.is_complete_keys(*H.hand_keys(c), 0)
    c[10] = 1
    c[11] = 1  # near miss: 123m 23p
    assert not H.is_complete(c) and not H.is_complete_keys(*H.hand_keys(c), 0)


def test_no_wilds_beyond_the_code_tables_takes_the_general_path():
    # one suit of 17 tiles (more than the code tables cover): 111 222 333 444 555 66m
    c = [3, 3, 3, 3, 3, 2] + [0] * 28
    assert H.is_complete(c)
    c[5], c[27] = 1, 1  # near miss: ... 6m 1z (a lone honour is in no set)
    assert not H.is_complete(c)


def test_without_wilds_melds_never_limit_naturals():
    # a pong of 1z and a natural 1z pair would be five 1z only with a wild standing for one
    use = [0] * 34
    use[27] = 3
    c = [0] * 34
    c[27] = 2
    c[0:3] = [1, 1, 1]
    assert H.is_complete(c, 0, use)
    c[27] = 1  # near miss: one 1z and no wild
    assert not H.is_complete(c, 0, use)


def _removals_that_complete(c: list, wilds: int) -> list:
    """By brute force: every kind held whose removal leaves a complete hand with ``wilds``."""
    want = []
    for t in range(34):
        if c[t]:
            c[t] -= 1
            if H.is_complete_keys(*H.hand_keys(c), wilds):
                want.append(t)
            c[t] += 1
    return want


def test_complete_without_equals_one_key_check_per_removal():
    rng = random.Random(14)
    pool = [t for t in range(34) for _ in range(4)]
    found = 0
    for _ in range(3000):
        wilds = rng.randrange(0, 4)
        c = [0] * 34
        for t in rng.sample(pool, 15 - wilds - 3 * rng.randrange(0, 3)):
            c[t] += 1
        keys = H.hand_keys(c)
        want = _removals_that_complete(c, wilds)
        assert H.complete_without(keys, wilds) == want, (c, wilds)
        found += bool(want)
    assert found > 50  # the sample holds hands one discard from complete


def test_complete_without_with_a_suit_that_cannot_be_sets_only():
    # Four of an honour (no sets-only reading: a wild would be its fifth) and a quad in a
    # suit: the quick rejection must not drop a removal that makes the hand complete.
    rng = random.Random(16)
    found = 0
    for _ in range(2000):
        wilds = rng.randrange(0, 4)
        c = [0] * 34
        c[rng.randrange(27, 34)] = 4
        if rng.random() < 0.5:
            c[rng.randrange(27)] = 4
        pool = [t for t in range(34) for _ in range(4 - c[t])]
        for t in rng.sample(pool, max(0, 15 - wilds - 3 * rng.randrange(0, 3) - sum(c))):
            c[t] += 1
        want = _removals_that_complete(c, wilds)
        assert H.complete_without(H.hand_keys(c), wilds) == want, (c, wilds)
        found += bool(want)
    assert found > 20
    # 77888899m holds its pair for free (789 789 88) but needs four wilds as sets only:
    # with one wild, taking the 9z leaves 45s + the wild, complete; a quick rejection that
    # priced the pair outside a suit at no less than one wild would miss it
    c = [0] * 34
    for t in (6, 6, 7, 7, 7, 7, 8, 8, 9, 10, 11, 21, 22, 33):
        c[t] += 1
    assert H.complete_without(H.hand_keys(c), 1) == [33]
    c[22], c[26] = 0, 1  # near miss: 4s 9s, which one wild cannot make a set
    assert H.complete_without(H.hand_keys(c), 1) == []


def test_seven_pairs_without_equals_one_check_per_removal():
    rng = random.Random(15)
    pool = [t for t in range(34) for _ in range(4)]
    found = 0
    for _ in range(3000):
        wilds = rng.randrange(0, 3)
        c = [0] * 34
        for t in rng.sample(pool, 15 - wilds):
            c[t] += 1
        if rng.random() < 0.5:  # pairs-heavy hands, so that some qualify
            c = [0] * 34
            for t in rng.sample(range(34), 7):
                c[t] = 2
            c[rng.randrange(34)] += 1
            wilds = 0
            for _ in range(rng.randrange(0, 3)):  # trade tiles for wilds
                t = rng.choice([k for k in range(34) if c[k]])
                c[t] -= 1
                wilds += 1
        want = []
        for t in range(34):
            if c[t]:
                c[t] -= 1
                if H.is_seven_pairs(c, wilds):
                    want.append(t)
                c[t] += 1
        assert H.seven_pairs_without(c, wilds) == want, (c, wilds)
        assert H.seven_pairs_without(c, wilds, has_melds=True) == []
        found += bool(want)
    assert found > 100


def _suit(text: str) -> list[int]:
    """Nine counts of one suit from its ranks, e.g. ``"1123"``."""
    c = [0] * 9
    for ch in text:
        c[int(ch) - 1] += 1
    return c


def test_suit_adds_are_the_kinds_that_complete_one_suit():
    # 12 waits on 3 for sets only (a near miss: nothing makes it sets + the pair);
    # 1 waits on 1 for the pair; 1112 waits on 2 (111 + 22) and on 3 (11 + 123) for the pair
    zero, one = H.suit_adds(H.suit_key(_suit("12"), 0))
    assert (zero, one) == (1 << 2, 0)
    assert H.suit_adds(H.suit_key(_suit("1"), 0)) == (0, 1 << 0)
    assert H.suit_adds(H.suit_key(_suit("1112"), 0)) == (0, 1 << 1 | 1 << 2)
    # a fifth copy is never a wait: 1111 + 1 is no hand
    assert H.suit_adds(H.suit_key(_suit("1111"), 0))[1] & 1 == 0
    assert H.suit_code(H.suit_key(_suit("123"), 0)) == 0 and H.suit_code(H.suit_key(_suit("12"), 0)) == 9


def test_suit_adds_equal_one_code_check_per_kind():
    rng = random.Random(13)
    pool = [i for i in range(9) for _ in range(4)]
    for _ in range(2000):
        c = [0] * 9
        for i in rng.sample(pool, rng.randrange(1, 14)):
            c[i] += 1
        zero, one = H.suit_adds(H.suit_key(c, 0))
        for i in range(9):
            if c[i] == 4:
                assert not (zero | one) >> i & 1
                continue
            c[i] += 1
            code = H.suit_code(H.suit_key(c, 0))
            c[i] -= 1
            assert (zero >> i & 1, one >> i & 1) == (code == 0, code == 1), (c, i)
