"""Structural breaks: events that cannot be applied to the table at all."""

from __future__ import annotations

from typing import Optional


class ReplayError(Exception):
    """An event that cannot be applied (a tile leaving a hand that does not hold
    it, a draw from an empty wall, a sequence gap or repeat, …).

    ``kind`` is a stable short name; ``summary`` a compact picture of the table
    just before the event.
    """

    def __init__(self, kind: str, message: str, *, game: str, hand: int, seq: int,
                 line: Optional[int] = None, seat: Optional[int] = None, summary: str = ""):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.game = game
        self.hand = hand
        self.seq = seq
        self.line = line
        self.seat = seat
        self.summary = summary

    def __str__(self) -> str:
        where = f"game {self.game} hand {self.hand} seq {self.seq}"
        if self.line is not None:
            where += f" (line {self.line})"
        return f"{where}: {self.message}"
