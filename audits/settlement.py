"""Settlement of one hand (qujing.md §6), dealer rotation, draws and billing (§7).

Payment order
-------------
1. Win payments.  Winners in seat order starting from the discarder's (or kong
   adder's) next seat (一炮多响); a self-draw has one winner.  Each winner's
   payers in seat order starting from the winner's next seat:

   * 自摸 self-draw: every other player pays P (reason ``win``);
   * 点炮 discard: the discarder alone pays P (``win``);
   * 抢杠: the adder alone pays (n−1) × P — 3 × P at four seats (``qianggang``,
     包三家).

   养猪: right after each win transfer comes a ``yangzhu`` transfer of
   (winner's bet + that loser's bet); under 包三家 the adder pays the bets of the
   three shares it covers, Σ over the other seats j of (bet_winner + bet_j).
2. 点鸡: pairwise nets, payer seats 0..n−1, payees 0..n−1: payer i pays payee j
   (c_j − c_i) × base when positive; so seat i nets (n·c_i − Σc) × base.

Zero transfers are omitted.  Kongs pay nothing.

20分敲锣 (``qiaoluo``): transfers are applied in that order; a payer pays at most
what it holds, the payee receives only what is paid; a transfer clamped to 0 is
omitted.  The hand's settlement is completed, then the game ends if anyone
holds 0 (``knocked_out``).

Billing model (钻石)
--------------------
``GameOpened.fee`` is the room's fee as opened.  Nothing is charged before the
first hand is settled; a room dissolved before that pays nothing.  At the first
settlement: creator billing → ``FeeCharged(creator, fee)``; AA billing → every
seat then at the table pays ``fee // seats_opened``.  A 4→3 change under
creator billing refunds the creator ``fee // 4`` (``FeeRefunded``): right after
the charge when the change came before the first settlement, or at the change
when the fee was already charged.  Under AA there is no refund (each player
paid their own share).
"""

from __future__ import annotations

from typing import Literal, NamedTuple, Optional, Sequence

from schema.events import Transfer
from schema.ruleset import Ruleset

WinHow = Literal["self_draw", "discard", "robbed_kong"]


def seat_order_from(start: int, n: int) -> list[int]:
    """Seats ``start, start+1, …`` mod n (all n seats)."""
    return [(start + k) % n for k in range(n)]


def win_transfers(ruleset: Ruleset, winners: Sequence[tuple[int, int]], how: WinHow,
                  from_seat: Optional[int] = None, bets: Optional[Sequence[int]] = None) -> list[Transfer]:
    """The win (and 养猪) transfers, unclamped, in payment order.

    ``winners``: (seat, P) pairs — P = base × 2^min(fan, cap) for that winner.
    """
    n = ruleset.players
    if how != "self_draw" and from_seat is None:
        raise ValueError("a discard or robbed-kong win needs from_seat")
    if how == "self_draw" and len(winners) != 1:
        raise ValueError("a self-draw has exactly one winner")
    pig = ruleset.yangzhu and bets is not None
    by_seat = dict(winners)
    if how == "self_draw":
        order = [winners[0][0]]
    else:
        # 一炮多响: in seat order starting from the discarder's next seat
        order = [s for s in seat_order_from((from_seat + 1) % n, n) if s in by_seat]
    out: list[Transfer] = []
    for w in order:
        p = by_seat[w]
        if how == "self_draw":
            for payer in seat_order_from((w + 1) % n, n)[:-1]:
                out.append(Transfer(payer=payer, payee=w, amount=p, reason="win"))
                if pig:
                    out.append(Transfer(payer=payer, payee=w, amount=bets[w] + bets[payer], reason="yangzhu"))
        elif how == "discard":
            out.append(Transfer(payer=from_seat, payee=w, amount=p, reason="win"))
            if pig:
                out.append(Transfer(payer=from_seat, payee=w, amount=bets[w] + bets[from_seat], reason="yangzhu"))
        else:
            # 抢杠 包三家: the adder pays the shares of every other player
            others = [s for s in range(n) if s != w]
            out.append(Transfer(payer=from_seat, payee=w, amount=p * len(others), reason="qianggang"))
            if pig:
                out.append(Transfer(payer=from_seat, payee=w,
                                    amount=sum(bets[w] + bets[j] for j in others), reason="yangzhu"))
    return [t for t in out if t.amount > 0]


def dianji_transfers(ruleset: Ruleset, chickens: Sequence[int]) -> list[Transfer]:
    """点鸡 pairwise net transfers: payer i pays payee j (c_j − c_i) × base when positive."""
    n = ruleset.players
    out = []
    for i in range(n):
        for j in range(n):
            d = chickens[j] - chickens[i]
            if d > 0:
                out.append(Transfer(payer=i, payee=j, amount=d * ruleset.base, reason="dianji"))
    return out


def dianji_nets(ruleset: Ruleset, chickens: Sequence[int]) -> list[int]:
    """Each seat's 点鸡 net: (n·c_i − Σc) × base."""
    n = ruleset.players
    total = sum(chickens)
    return [(n * c - total) * ruleset.base for c in chickens]


def apply_transfers(ruleset: Ruleset, scores: Sequence[int], transfers: Sequence[Transfer]
                    ) -> tuple[list[Transfer], list[int], bool]:
    """Apply transfers in order; under 敲锣 clamp each payer at 0 (the payee gets what is paid)."""
    s = list(scores)
    paid: list[Transfer] = []
    for t in transfers:
        amount = t.amount
        if ruleset.qiaoluo:
            amount = max(0, min(amount, s[t.payer]))
        if amount <= 0:
            continue
        s[t.payer] -= amount
        s[t.payee] += amount
        paid.append(t if amount == t.amount else
                    Transfer(payer=t.payer, payee=t.payee, amount=amount, reason=t.reason))
    knocked = ruleset.qiaoluo and any(x <= 0 for x in s)
    return paid, s, knocked


def settle(ruleset: Ruleset, scores: Sequence[int], winners: Sequence[tuple[int, int]] = (),
           how: Optional[WinHow] = None, from_seat: Optional[int] = None,
           bets: Optional[Sequence[int]] = None, chickens: Optional[Sequence[int]] = None
           ) -> tuple[list[Transfer], list[int], bool]:
    """Settle one hand.

    ``scores``: each seat's points before the hand.  ``winners``: (seat, P) pairs
    (empty for a drawn hand).  ``how``/``from_seat``: how it was won and the
    discarder / kong adder.  ``bets``: 养猪 bets by seat.  ``chickens``: 点鸡
    tallies c_i by seat (hand + own kongs/melds + every chicken discarded).

    Returns (transfers in the order paid, scores after, knocked_out).
    """
    if len(scores) != ruleset.players:
        raise ValueError(f"{len(scores)} scores for {ruleset.players} players")
    transfers: list[Transfer] = []
    if winners:
        if how is None:
            raise ValueError("winners given without how")
        transfers += win_transfers(ruleset, winners, how, from_seat, bets)
    if ruleset.dianji and chickens is not None:
        transfers += dianji_transfers(ruleset, chickens)
    return apply_transfers(ruleset, scores, transfers)


# --- between hands --------------------------------------------------------

def first_dealer(creator: int) -> int:
    """The room creator deals the first hand."""
    return creator


def next_dealer(dealer: int, winners: Sequence[int], how: Optional[WinHow] = None,
                from_seat: Optional[int] = None) -> int:
    """The next hand's dealer: the winner; the same dealer after a draw; after
    一炮多响 (several winners on one tile) the discarder (or kong adder)."""
    if not winners:
        return dealer
    if len(winners) > 1:
        if from_seat is None:
            raise ValueError("several winners need from_seat")
        return from_seat
    return winners[0]


def remaining_for_draw(ruleset: Ruleset, wall_left: int, tail_face_up: int = 2) -> int:
    """Tiles counted as remaining for 黄庄: the undrawn wall, plus the face-up tail
    tiles when ``draw_reserve_counts_tail``."""
    return wall_left + (tail_face_up if ruleset.draw_reserve_counts_tail else 0)


def is_exhausted(ruleset: Ruleset, remaining: int, kongs: int = 0) -> bool:
    """黄庄: the hand is drawn once ``remaining`` ≤ the reserve for this many kongs
    (``remaining`` as counted by :func:`remaining_for_draw`)."""
    return remaining <= ruleset.reserve_for(kongs)


def kong_allowed_at(ruleset: Ruleset, remaining: int, kongs: int = 0) -> bool:
    """A kong is still allowed when exactly the reserve remains (§2)."""
    return remaining >= ruleset.reserve_for(kongs)


class FeeEvent(NamedTuple):
    """An expected billing event: ``charged`` (FeeCharged) or ``refunded`` (FeeRefunded)."""

    kind: Literal["charged", "refunded"]
    seat: int
    amount: int


def fees_at_first_settlement(billing: str, creator: int, fee: int, seats_opened: int,
                             seats_now: int) -> list[FeeEvent]:
    """Billing events due when the first hand is settled (see the module docstring)."""
    if fee <= 0:
        return []
    if billing == "aa":
        share = fee // seats_opened
        return [FeeEvent("charged", s, share) for s in range(seats_now) if share > 0]
    out = [FeeEvent("charged", creator, fee)]
    if seats_opened == 4 and seats_now == 3 and fee // 4 > 0:
        out.append(FeeEvent("refunded", creator, fee // 4))
    return out


def fees_at_resize(billing: str, creator: int, fee: int, already_charged: bool) -> list[FeeEvent]:
    """Billing events due at a 4→3 change: a refund of fee // 4 to the creator if
    the fee was already charged (creator billing only)."""
    if billing == "aa" or not already_charged or fee // 4 <= 0:
        return []
    return [FeeEvent("refunded", creator, fee // 4)]


def fees_at_dissolve(settled_hands: int) -> list[FeeEvent]:
    """A room dissolved before any settlement pays nothing (and nothing more after)."""
    return []
