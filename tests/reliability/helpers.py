"""Shared inputs for the reliability tests: a clean game's lines and ways to run paipu."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.audits.helpers import selfdraw_game

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def lines(game: str) -> list[bytes]:
    """The lines (with their newlines) of one clean, closed, one-hand game."""
    return selfdraw_game(game).jsonl().splitlines(keepends=True)


def paipu(*args: str, env: dict | None = None, timeout: float = 120, stdin: bytes | None = None
          ) -> subprocess.CompletedProcess:
    """Run the real ``paipu`` entry point in a subprocess (what a user sees, tracebacks included)."""
    code = "import sys; from paipu.cli import main; sys.argv = ['paipu'] + sys.argv[1:]; main()"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, timeout=timeout,
                          env={**os.environ, **(env or {})}, input=stdin)
