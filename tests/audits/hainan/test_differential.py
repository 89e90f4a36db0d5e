"""The Hainan win check against the independent reference (audits/rules/hainan/differential.py:
the ``mahjong`` package's agari for the standard shape, 七对 and 十三烂 written from the text);
``bench/differential.py --family hainan`` runs 200,000 hands."""

from audits.rules.hainan import differential as d


def test_no_disagreement_on_random_hands():
    done, bad, wins = d.run(20_000, seed=5)
    assert done == 20_000 and bad == 0 and 0 < wins < done


def test_the_reference_is_no_copy_of_the_rule():
    c = [0] * 34
    for t in (0, 3, 6, 10, 13, 18, 21, 24, 27, 28, 29, 31, 32, 33):  # 147m 25p 147s 东南西白发中
        c[t] += 1
    assert d.reference(c) and d.unconnected(c)
    c[13] -= 1
    c[11] += 1  # 24p: one number apart
    assert not d.reference(c)
    four = [0] * 34
    for t, k in ((0, 4), (5, 2), (9, 2), (20, 2), (30, 2), (33, 2)):
        four[t] = k
    assert d.pairs_of_seven(four) and d.reference(four)
