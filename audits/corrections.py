"""Who owes whom: the corrected ledger against the logged scores, as pure arithmetic.

The audit keeps two score lines per settled hand (:class:`audits.ledger.GameAudit`):
``logged_scores[i]``, what the server reported, and ``ledger[i]``, what each
score should have been with every settlement recomputed and the corrections
carried forward.  Both start from the same opening scores, so their difference
after a hand (the *gap*) is what the server got wrong up to then:

* :func:`gaps` — per hand, ``ledger - logged`` for each seat (positive: the
  seat was shorted and is owed that much; negative: it holds too much);
* :func:`hand_deltas` — per hand, the money that hand alone moved wrongly
  (the change of the gap);
* :func:`net_corrections` — the gap after the last settled hand;
* :func:`who_owes_whom` — the net corrections settled between players as
  ``(debtor, creditor, amount)`` payments, largest first.

All functions take plain lists and return new ones; none reads a log.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence


class Payment(NamedTuple):
    """One correction between two seats: ``debtor`` pays ``creditor`` ``amount`` points."""

    debtor: int
    creditor: int
    amount: int


def gaps(logged: Sequence[Sequence[int]], ledger: Sequence[Sequence[int]]) -> list[list[int]]:
    """Per settled hand, each seat's corrected score minus its logged score."""
    return [[c - g for c, g in zip(cor, log)] for log, cor in zip(logged, ledger)]


def hand_deltas(logged: Sequence[Sequence[int]], ledger: Sequence[Sequence[int]]) -> list[list[int]]:
    """Per settled hand, what that hand alone got wrong for each seat (the change of
    the gap since the hand before; the first hand is measured from a zero gap)."""
    out: list[list[int]] = []
    before: list[int] = []
    for gap in gaps(logged, ledger):
        prev = before if len(before) == len(gap) else [0] * len(gap)
        out.append([g - p for g, p in zip(gap, prev)])
        before = gap
    return out


def net_corrections(logged: Sequence[Sequence[int]], ledger: Sequence[Sequence[int]]) -> list[int]:
    """Each seat's correction after the last settled hand (positive: owed to the seat).
    Empty when no hand was settled."""
    all_gaps = gaps(logged, ledger)
    return list(all_gaps[-1]) if all_gaps else []


def who_owes_whom(net: Sequence[int]) -> list[Payment]:
    """Settle ``net`` corrections between seats: seats holding too much (negative) pay
    seats that were shorted (positive).  Deterministic: the largest debt meets the
    largest claim first, ties by seat.  When the corrections do not add up to zero
    (the logged scores created or destroyed points), the part nobody holds is left
    unpaid: see :func:`unbalanced`."""
    debts = sorted(((-v, s) for s, v in enumerate(net) if v < 0), key=lambda x: (-x[0], x[1]))
    claims = sorted(((v, s) for s, v in enumerate(net) if v > 0), key=lambda x: (-x[0], x[1]))
    debts_l = [list(d) for d in debts]
    claims_l = [list(c) for c in claims]
    out: list[Payment] = []
    i = j = 0
    while i < len(debts_l) and j < len(claims_l):
        amount = min(debts_l[i][0], claims_l[j][0])
        out.append(Payment(debts_l[i][1], claims_l[j][1], amount))
        debts_l[i][0] -= amount
        claims_l[j][0] -= amount
        if debts_l[i][0] == 0:
            i += 1
        if claims_l[j][0] == 0:
            j += 1
    return out


def unbalanced(net: Sequence[int]) -> int:
    """How many points the corrections do not net out (0 when the logged transfers were
    zero-sum; positive when the logged scores lost points nobody received)."""
    return sum(net)


def _name(players: Sequence[str], seat: int) -> str:
    return players[seat] if 0 <= seat < len(players) else f"seat {seat}"


def hand_numbers(audit) -> list[int]:
    """The hand number of each ledger row (``ledger_hands``; 1, 2, … when the audit kept none)."""
    return list(audit.ledger_hands) or list(range(1, len(audit.ledger) + 1))


def summary_record(audit) -> dict:
    """One game's results as a JSON-ready record (``"record": "summary"``): complete or
    not, each settled hand's logged and corrected scores, each player's net
    correction and the payments that settle them.  ``audit`` is a
    :class:`audits.ledger.GameAudit`."""
    players = list(audit.players)
    net = net_corrections(audit.logged_scores, audit.ledger)
    hands = hand_numbers(audit)
    return {
        "record": "summary",
        "game": audit.game,
        "file": audit.file,
        "complete": audit.complete,
        "hands": audit.hands,
        "players": players,
        "server": audit.server,
        "build": audit.build,
        "findings": len(audit.findings),
        "errors": audit.errors,
        "ledger": [{"hand": h, "logged": list(log), "corrected": list(cor)}
                   for h, log, cor in zip(hands, audit.logged_scores, audit.ledger)],
        "corrections": [{"seat": s, "player": _name(players, s), "amount": v} for s, v in enumerate(net)],
        "owes": [{"from": _name(players, p.debtor), "from_seat": p.debtor, "to": _name(players, p.creditor),
                  "to_seat": p.creditor, "amount": p.amount} for p in who_owes_whom(net)],
        "unbalanced": unbalanced(net),
    }


def is_summary(record: object) -> bool:
    """Whether a decoded JSON line is a game summary (not a finding)."""
    return isinstance(record, dict) and record.get("record") == "summary"


__all__ = ["Payment", "gaps", "hand_deltas", "is_summary", "net_corrections", "summary_record", "unbalanced",
           "who_owes_whom"]
