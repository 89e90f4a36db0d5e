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

from typing import Optional, Sequence

from schema.events import Transfer
from schema.ruleset import Ruleset

from ..family import BillingRules, FeeEvent, HandFacts, Settlement, Violation, WinHow, ruleset_with
from .claims import wild_kinds


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
           facts: HandFacts = HandFacts(None, None), clamp: bool = True) -> Settlement:
    """Settle one hand.

    ``scores``: each seat's points before the hand.  ``winners``: (seat, P) pairs
    (empty for a drawn hand).  ``how``/``from_seat``: how it was won and the
    discarder / kong adder.  ``facts``: 养猪 bets and 点鸡 tallies by seat.
    ``clamp``: apply the 敲锣 floor at 0 (off: the amounts as due, unclamped).

    Returns the transfers in the order paid, the scores after, and whether the
    game ends (敲锣: someone holds 0).
    """
    if len(scores) != ruleset.players:
        raise ValueError(f"{len(scores)} scores for {ruleset.players} players")
    transfers: list[Transfer] = []
    if winners:
        if how is None:
            raise ValueError("winners given without how")
        transfers += win_transfers(ruleset, winners, how, from_seat, facts.bets)
    if ruleset.dianji and facts.tallies is not None:
        transfers += dianji_transfers(ruleset, facts.tallies)
    paid, after, knocked = apply_transfers(ruleset if clamp else _unclamped(ruleset), scores, transfers)
    return Settlement(paid, after, knocked)


def _unclamped(ruleset: Ruleset) -> Ruleset:
    """The room's ruleset without the 敲锣 floor (the amounts as due): the store's 点鸡 due
    amounts and the audit's unfloored comparison ask at every hand."""
    return ruleset_with(ruleset, qiaoluo=False) if ruleset.qiaoluo else ruleset


def hand_facts(ruleset: Ruleset, received: Sequence[Sequence[int]], bets: Sequence[int]) -> HandFacts:
    """养猪 bets and 点鸡 tallies from the table's neutral facts.

    点鸡 tally: every chicken a seat answers for — in hand, in its own kongs and
    every one it discarded — is every chicken that reached its hand from the wall
    (deal and draws): a discarded chicken stays the discarder's even when someone
    pongs or konges it, and a chicken claimed from a discard is not the claimer's.
    """
    tallies = None
    if ruleset.dianji:
        wild = wild_kinds(ruleset)
        tallies = [sum(got[k] for k in wild) for got in received]
    return HandFacts(list(bets) if ruleset.yangzhu else None, tallies)


def game_over(ruleset: Ruleset, scores: Sequence[int]) -> bool:
    """20分敲锣: the game ends as soon as a player reaches 0."""
    return ruleset.qiaoluo and any(x <= 0 for x in scores)


#: 养猪: the bets a player may place.
PIG_BETS = (0, 1, 2)


def check_bet(ruleset: Ruleset, bet: int, placed_before: bool, dealt: bool) -> Optional[Violation]:
    """养猪: each player bets 0, 1 or 2, once per hand, before the deal, and only in a room
    playing 养猪."""
    if not ruleset.yangzhu:
        return Violation("YANGZHU_BET_INVALID", "a pig bet in a room that does not play 养猪", "no bet", bet)
    if bet not in PIG_BETS:
        return Violation("YANGZHU_BET_INVALID", f"a pig bet of {bet}; bets are 0, 1 or 2", list(PIG_BETS), bet)
    if dealt:
        return Violation("YANGZHU_BET_INVALID", "a pig bet placed after the deal", "before the deal", "after")
    if placed_before:
        return Violation("YANGZHU_BET_INVALID", "a second pig bet in one hand", "one bet", "two")
    return None


def start_points(ruleset: Ruleset) -> int:
    """20分敲锣: every player starts with ``qiaoluo_points`` (20); otherwise at 0."""
    return ruleset.qiaoluo_points if ruleset.qiaoluo else 0


def check_room(ruleset: Ruleset, seats: Sequence[str], start: int) -> list[Violation]:
    """The room as opened: as many seats as its ``players`` option (§2), and under
    20分敲锣 every player starts with ``qiaoluo_points`` (20)."""
    out = []
    if len(seats) != ruleset.players:
        out.append(Violation("ROOM_SEATS_MISMATCH", f"{len(seats)} seats in a room of {ruleset.players} players",
                             ruleset.players, len(seats)))
    if ruleset.qiaoluo and start != start_points(ruleset):
        out.append(Violation("QIAOLUO_START_POINTS",
                             f"20分敲锣 starts every player at {start_points(ruleset)}, not {start}",
                             start_points(ruleset), start))
    return out


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


def tail_pool(ruleset: Ruleset) -> int:
    """翻屁股: two tail tiles are kept face up as the kong-replacement pool."""
    return 2


def remaining(ruleset: Ruleset, undrawn: int, face_up: int) -> int:
    """Tiles counted as remaining for 黄庄: the undrawn wall, with the face-up tail
    tiles when ``draw_reserve_counts_tail`` (default)."""
    return undrawn - (0 if ruleset.draw_reserve_counts_tail else face_up)


def reserve(ruleset: Ruleset, kongs: int) -> int:
    """黄庄: the hand is drawn once the remaining tiles are down to this reserve (20, or
    the by-kongs table); a kong is still allowed at exactly the reserve."""
    return ruleset.reserve_for(kongs)


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


#: The room's fee (钻石, diamonds) as every family bills it: the server charges it at the
#: first settlement and refunds a quarter at a 4→3 change (``RuleFamily.billing``).
ROOM_FEES = BillingRules(fees_at_first_settlement=fees_at_first_settlement, fees_at_resize=fees_at_resize)
