"""Xuzhou settlement (xuzhou.md §8), dealer rotation (§4) and 下嘴 bets (§8.3).

One payment from payer p to winner w (§8.4), in units of B:

* U: ``dianpao_units`` for a discard win or a rob (the discarder / adder pays each of
  its winners), ``zimo_units`` for a self-draw (each other seat pays) — one payer's
  ``points`` P = U × B, as logged;
* the 坐庄 bonus (``dealer_bonus``) when p or w is the dealer: ``plus_one`` +1 × B,
  ``double`` the payment doubled (2U), ``none``;
* 下嘴 (``xiazui``): (z_w + z_p) × B more, paid under reason ``yangzhu`` (the shared
  side-bet reason; the bets are ``PigBetPlaced``).

The win part is paid under reason ``win``.  Kongs pay nothing (§8.5) and a 流局 has no
transfers.  Transfers are compared per (payer, payee, reason); their order is no
finding.  :func:`derive` writes each payment step by step for ``--explain``.
"""

from __future__ import annotations

from typing import Optional, Sequence

from schema.events import Transfer
from schema.ruleset import Ruleset

from .. import money
from ..family import HandFacts, Settlement, Violation, WinHow

#: 下嘴: the most a seat may bet per hand, by option
XIAZUI_MAX = {"off": None, "max_one": 1, "max_two": 2}
LABELS = {"win": "pays", "yangzhu": "pays 下嘴"}


def seat_order_from(start: int, n: int) -> list[int]:
    """Seats ``start, start+1, …`` mod n."""
    return [(start + k) % n for k in range(n)]


def dealer_part(ruleset: Ruleset, points: int, involved: bool) -> tuple[int, str]:
    """The win part of one payment with the 坐庄 bonus (§8.2, the shared
    :func:`audits.rules.money.with_dealer_bonus`): (amount, how derived)."""
    amount = money.with_dealer_bonus(ruleset, points, involved)
    if amount == points:
        return points, f"{points}"
    if ruleset.dealer_bonus == "double":
        return amount, f"2 × {points} (坐庄 double)"
    return amount, f"{points} + {amount - points} (坐庄 +1 × B)"


def payers(how: WinHow, winner: int, from_seat: Optional[int], n: int) -> list[int]:
    """Who pays a winner: every other seat for a self-draw, else the discarder (adder)."""
    if how == "self_draw":
        return seat_order_from((winner + 1) % n, n)[:-1]
    return [from_seat]


def derive(ruleset: Ruleset, n: int, winners: Sequence[tuple[int, int]], how: Optional[WinHow],
           from_seat: Optional[int], dealer: int, bets: Optional[Sequence[int]] = None,
           explain: bool = True) -> tuple[list[Transfer], list[str]]:
    """The hand's transfers and their derivation, one line per payment.

    ``winners``: (seat, P) with P = U × B (the points one payer owes before the dealer
    bonus and bets).  Winners in seat order from the discarder's 下家 (一炮多响); a
    self-draw's payers in seat order from the winner's 下家.  ``explain`` False: no lines
    (the audit's settlements, three per hand)."""
    if not winners:
        return [], ["流局 or no legal win: no transfers"]
    if how is None:
        raise ValueError("winners given without how")
    if how != "self_draw" and from_seat is None:
        raise ValueError("a discard or robbed-kong win needs from_seat")
    by_seat = dict(winners)
    order = [winners[0][0]] if how == "self_draw" else \
        [s for s in seat_order_from((from_seat + 1) % n, n) if s in by_seat]
    b = ruleset.base
    out: list[Transfer] = []
    lines = []
    for w in order:
        p = by_seat[w]
        for payer in payers(how, w, from_seat, n):
            involved = dealer in (payer, w)
            amount, why = dealer_part(ruleset, p, involved)
            out.append(Transfer(payer=payer, payee=w, amount=amount, reason="win"))
            z = 0
            if bets is not None:
                z = (bets[w] + bets[payer]) * b
                out.append(Transfer(payer=payer, payee=w, amount=z, reason="yangzhu"))
            if explain:
                bet = f"; 下嘴 ({bets[w]} + {bets[payer]}) × {b} = {z}" if bets is not None else ""
                lines.append(f"seat {payer} → seat {w}: P {why}{bet} = {amount + z}")
    return [t for t in out if t.amount > 0], lines


def derivation(ruleset: Ruleset, n: int, winners: Sequence[tuple[int, int]], how: Optional[WinHow],
               from_seat: Optional[int], facts: HandFacts) -> list[str]:
    """``SettlementRules.derivation``: the corrected settlement, one line per payment (§8.4:
    P, the 坐庄 bonus, the 下嘴 bets)."""
    dealer = facts.dealer if facts.dealer is not None else -1
    head = [f"dealer seat {dealer}; 坐庄 {ruleset.dealer_bonus}; 下嘴 {ruleset.xiazui}"]
    return head + derive(ruleset, n, winners, how, from_seat, dealer, facts.bets)[1]


def settle(ruleset: Ruleset, scores: Sequence[int], winners: Sequence[tuple[int, int]] = (),
           how: Optional[WinHow] = None, from_seat: Optional[int] = None,
           facts: HandFacts = HandFacts(None, None), clamp: bool = True) -> Settlement:
    """Settle one hand (§8.4); no score floor (``clamp`` is accepted and ignored)."""
    dealer = facts.dealer if facts.dealer is not None else -1
    transfers, _ = derive(ruleset, len(scores), winners, how, from_seat, dealer, facts.bets, explain=False)
    after = list(scores)
    for t in transfers:
        after[t.payer] -= t.amount
        after[t.payee] += t.amount
    return Settlement(transfers, after, False)


def payer_points(ruleset: Ruleset, winner, score, facts: HandFacts) -> dict[int, int]:
    """``ScoringRules.payer_points``: what each payer the log lists (``Winner.payers``) owes
    the winner under reason ``win`` — P with the 坐庄 bonus where the dealer is the payer or
    the winner (the 下嘴 part is paid apart, under ``yangzhu``)."""
    p = score.points if score is not None else winner.points
    dealer = facts.dealer if facts.dealer is not None else -1
    return {x.seat: dealer_part(ruleset, p, dealer in (x.seat, winner.seat))[0]
            for x in (getattr(winner, "payers", None) or ())}


def transfer_code(how: Optional[str], code: str, expected=None, actual=None) -> str:
    """A kong transfer where none is due is KONG_PAYMENT_UNDUE (§8.5); other groups keep
    their code."""
    if code == "KONG_PAYMENT_MISMATCH":
        return "KONG_PAYMENT_UNDUE"
    return code


def hand_facts(ruleset: Ruleset, received, bets: Sequence[int]) -> HandFacts:
    """The 下嘴 bets when the room plays them (no tallies)."""
    return HandFacts(list(bets) if ruleset.xiazui != "off" else None, None)


def table_facts(ruleset: Ruleset, table, won=None) -> HandFacts:
    """The bets and the hand's dealer, from the table."""
    return HandFacts(list(table.bets) if ruleset.xiazui != "off" else None, None, None, table.dealer)


def check_bet(ruleset: Ruleset, bet: int, placed_before: bool, dealt: bool) -> Optional[Violation]:
    """下嘴 (§8.3): only in a room playing it, 0..max, once per hand, before the deal."""
    most = XIAZUI_MAX[ruleset.xiazui]
    if most is None:
        return Violation("YANGZHU_BET_INVALID", "a 下嘴 bet in a room that does not play 下嘴", "no bet", bet)
    if not 0 <= bet <= most:
        return Violation("YANGZHU_BET_INVALID", f"a 下嘴 bet of {bet}; bets are 0..{most}",
                         list(range(most + 1)), bet)
    if dealt:
        return Violation("YANGZHU_BET_INVALID", "a 下嘴 bet placed after the deal", "before the deal", "after")
    if placed_before:
        return Violation("YANGZHU_BET_INVALID", "a second 下嘴 bet in one hand", "one bet", "two")
    return None


def dealer_after(ruleset: Ruleset, dealer: int, first: Optional[tuple], n: int = 4) -> int:
    """坐庄 (§4): the dealer deals again when among the winners; the 下家 after others won;
    after 流局 the dealer stays (``draw_dealer = stay``) or passes (``next``)."""
    if first is None or not first[0]:
        return dealer if ruleset.draw_dealer == "stay" else (dealer + 1) % n
    return dealer if dealer in first[0] else (dealer + 1) % n


def game_over(ruleset: Ruleset, scores: Sequence[int]) -> bool:
    """No score floor: a game ends when the room closes."""
    return False


__all__ = ["LABELS", "XIAZUI_MAX", "check_bet", "dealer_after", "dealer_part", "derivation", "derive",
           "game_over", "hand_facts", "payer_points", "payers", "settle", "table_facts", "transfer_code"]
