"""``paipu replay`` at a won hand says who won, on which tile and how."""

from __future__ import annotations

from pathlib import Path

from paipu.replay_view import run_replay

SAMPLE = Path(__file__).resolve().parents[2] / "sample_logs" / "faulty" / "wrong_fan.jsonl"


def test_replay_at_a_hand_won_shows_the_winner_the_tile_and_how(capsys):
    assert run_replay(str(SAMPLE), None, 78, False) == 0
    out = capsys.readouterr().out
    assert "won: P16 (seat 3) with 2 fan, 4 points — on 5m (五万) by 点炮 on a discard from P24 (seat 2)" in out


def test_replay_before_the_win_or_after_the_settlement_does_not(capsys):
    assert run_replay(str(SAMPLE), None, 77, False) == 0
    assert "won:" not in capsys.readouterr().out
    assert run_replay(str(SAMPLE), None, 79, False) == 0
    assert "won:" not in capsys.readouterr().out
