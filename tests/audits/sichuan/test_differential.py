"""The void-gated win check against ``mahjong``'s agari check on two suits (a modest
count here; ``bench/differential.py --family sichuan`` runs ≥100,000)."""

from audits.rules.sichuan.differential import run


def test_void_gated_win_check_agrees_with_mahjong_agari():
    n, wins, bad = run(10_000)
    assert n == 10_000 and wins > 1_000
    assert bad == []
