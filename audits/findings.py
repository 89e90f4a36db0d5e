"""Findings: what the audit reports, as data.

Every finding carries a stable ``code`` from :data:`audits.catalogue.CATALOGUE`
(which states the rule in one line and its severity), where it happened
(game, hand, seq, seat) and the expected versus actual values in fields.
"""

from __future__ import annotations

from typing import Any, Literal, Optional

import msgspec

Severity = Literal["error", "warning", "info"]


class Finding(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One deviation from the rules, found at one event."""

    code: str
    severity: Severity
    game: str
    hand: int
    seq: int
    seat: Optional[int] = None
    rule: str = ""
    expected: Any = None
    actual: Any = None
    message: str = ""
    file: Optional[str] = None
    line: Optional[int] = None
