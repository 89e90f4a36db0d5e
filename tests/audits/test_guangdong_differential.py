"""Guangdong's no-wild win check (4 sets + a pair, 十三幺, no 七对) against the ``mahjong``
package's agari check; ``bench/differential.py --family guangdong`` runs ≥100,000 hands."""

from audits.rules.guangdong.differential import reference, run


def test_guangdong_win_check_agrees_with_mahjong_agari():
    done, bad, wins = run(20_000)
    assert done == 20_000 and bad == 0
    assert 2_000 < wins < 18_000  # both outcomes are well represented


def test_the_reference_refuses_plain_seven_pairs_and_takes_kokushi():
    seven = [0] * 34
    for t in (0, 2, 4, 9, 11, 20, 30):
        seven[t] = 2
    assert not reference(seven)
    kokushi = [0] * 34
    for t in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33):
        kokushi[t] = 1
    kokushi[0] = 2
    assert reference(kokushi)
