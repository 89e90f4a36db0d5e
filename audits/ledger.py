"""The audit's results as data: :class:`GameAudit`, and the settlement arithmetic the
checks, the corrected ledger and ``--explain`` share.

The corrected ledger recomputes every hand from the tiles (the family's fans and
settlement) and carries the corrections forward: ``GameAudit.ledger[i]`` is what
each score should have been after hand ``i``, beside ``logged_scores[i]``.
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence

import msgspec

from schema import events as ev
from schema.ruleset import Ruleset

from .findings import Finding
from .rules import family_of
from .rules.family import HandFacts


class GameAudit(msgspec.Struct, kw_only=True):
    """The audit of one game.

    ``complete`` is False when a structural break or an unreadable line stopped
    the replay, or the log ended before ``GameClosed``.  ``logged_scores`` are
    the scores the server reported after each settled hand; ``ledger`` the
    scores each player *should* have had after each hand, every settlement
    recomputed and the corrections carried forward; ``ledger_hands`` the hand
    number of each of those rows.  ``audits.corrections`` turns the two into who
    owes whom.
    """

    game: str
    file: str
    findings: list[Finding] = []
    complete: bool = True
    hands: int = 0
    logged_scores: list[list[int]] = []
    ledger: list[list[int]] = []
    #: The hand number of each row of ``logged_scores`` and ``ledger``.
    ledger_hands: list[int] = []
    ruleset: Optional[Ruleset] = None
    players: list[str] = []
    server: str = ""
    build: str = ""

    @property
    def errors(self) -> int:
        """How many findings are at error severity."""
        return sum(1 for f in self.findings if f.severity == "error")

    @property
    def internal_error(self) -> bool:
        """paipu itself failed on this game (exit 3), as opposed to findings about the log."""
        return any(f.code == "INTERNAL_ERROR" for f in self.findings)


def expected_transfers(rules: Ruleset, n: int, how: Optional[str], winners: Sequence[tuple[int, int]],
                       from_seat: Optional[int], facts: HandFacts,
                       scores: Optional[Sequence[int]] = None) -> list[ev.Transfer]:
    """The transfers one hand should make, in the order they are paid (the family's
    settlement).  ``winners`` are (seat, P).  With ``scores`` a floor such as
    20分敲锣 applies; without, the amounts are as due."""
    if rules.players != n:
        rules = msgspec.structs.replace(rules, players=n)
    fam = family_of(rules)
    return fam.settlement.settle(rules, list(scores) if scores is not None else [0] * n, list(winners),
                                 how if winners else None, from_seat, facts, scores is not None).transfers


def net_of(transfers: Iterable[ev.Transfer], n: int) -> list[int]:
    """Each seat's net gain from ``transfers``."""
    net = [0] * n
    for t in transfers:
        if 0 <= t.payer < n and 0 <= t.payee < n:
            net[t.payer] -= t.amount
            net[t.payee] += t.amount
    return net


def sums_by_pair(transfers: Iterable[ev.Transfer], reasons: Optional[tuple[str, ...]] = None,
                 totals: bool = False) -> dict[tuple[int, int, str], int]:
    """Amounts per (payer, payee, reason) for the given reasons (all when None), zero sums dropped;
    ``totals``: one amount per (payer, payee), under the group's first reason."""
    out: dict[tuple[int, int, str], int] = {}
    for t in transfers:
        if reasons is None or t.reason in reasons:
            k = (t.payer, t.payee, reasons[0] if totals and reasons else t.reason)
            out[k] = out.get(k, 0) + t.amount
    return {k: v for k, v in out.items() if v}


def show_pairs(d: dict[tuple[int, int, str], int]) -> list[str]:
    """``payer->payee amount reason`` lines of :func:`sums_by_pair`."""
    return [f"{p}->{q} {a} {r}" for (p, q, r), a in sorted(d.items())]


__all__ = ["GameAudit", "expected_transfers", "net_of", "show_pairs", "sums_by_pair"]
