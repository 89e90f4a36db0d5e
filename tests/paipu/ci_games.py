"""Three one-hand games for the CI kit tests: clean, warning-only (FEE_AMOUNT), error (SCORE_MISMATCH)."""

from __future__ import annotations

from pathlib import Path

from tests.audits.helpers import selfdraw_game


def _plant(step_name, fn):
    def plant(b, step):
        if step == step_name:
            fn(b)
            return True
        return False
    return plant


def clean(game: str = "g-clean") -> bytes:
    return selfdraw_game(game).jsonl()


def warning_only(game: str = "g-warn") -> bytes:
    """The fee charged to seat 1 instead of the creator: FEE_AMOUNT (a warning) and nothing else."""
    return selfdraw_game(game, plant=_plant("fee", lambda b: b.fee(1, 4))).jsonl()


def error(game: str = "g-bad") -> bytes:
    """Final scores all 0 after a won hand: SCORE_MISMATCH (an error) and nothing else."""
    return selfdraw_game(game, plant=_plant("close", lambda b: b.close("hands_done", [0, 0, 0, 0]))).jsonl()


def write_logs(root: Path) -> Path:
    """``root/logs/`` with clean.jsonl (g-clean), warn.jsonl (g-warn) and bad.jsonl (g-bad)."""
    d = root / "logs"
    d.mkdir(parents=True, exist_ok=True)
    (d / "clean.jsonl").write_bytes(clean())
    (d / "warn.jsonl").write_bytes(warning_only())
    (d / "bad.jsonl").write_bytes(error())
    return d
