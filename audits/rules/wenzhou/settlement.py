"""Wenzhou settlement (wenzhou.md §9), dealer levels and rotation (§4), 买底 bets (§9.3).

One win payment from payer p to winner w, in units of B (§9.1, §9.2):

* the **pair base**: between two non-dealers B; where w or p is the dealer, the level base
  D_L (``lianzhuang``: ``multiply`` L·B = the spec's ``linear`` 1, 2, 3, 4; ``jinjie1``
  2L·B; ``jinjie2`` 2^L·B, the shared :func:`audits.rules.money.pair_base`) times (1 + k),
  k the seats of the pair that bought 底 (``maidi``);
* times M (the hand multiple; one payer's logged ``points`` is B × M);
* every other seat pays (``discard_payers = all``), or on a discard or rob the discarder
  (adder) pays what all three would have (``discarder_for_all``).

At the end of every hand, won or drawn: 财神钱 (``caishenqian``, reason ``caishen``): each seat
collects n × B from each other seat for the n 财神 it holds, 6 × B for a winner holding all
three; 杠算分 (``kong_payments = at_end``, reason ``kong``): each exposed or added kong 1 × B
from each other seat, each concealed kong 2 × B.  Transfers compare as sums per (payer,
payee, reason); their order is no finding.
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Sequence

from schema.events import Transfer
from schema.ruleset import Ruleset

from .. import money
from ..family import HandFacts, Settlement, Violation, WinHow
from . import caishen

LABELS = {"win": "pays", "caishen": "pays 财神钱", "kong": "pays 杠算分"}
#: the highest dealer level: the dealership ends after a hand dealt at it (§4)
MAX_LEVEL = 4
#: 杠算分 per kong kind, in B (§9.5)
KONG_VALUES = {"kong_exposed": 1, "kong_added": 1, "kong_concealed": 2}
#: 财神钱 (§9.4): what a winner holding all three 财神 collects from each seat, in B
ALL_THREE = 6


class Facts(NamedTuple):
    """A hand's money facts from the table: the dealer's level L as logged (the audit prices at
    ``HandFacts.dealer_level``, the rotation's where they differ), each seat's 买底 (0/1; None
    without ``maidi``), the 财神 each holds at the end (None without ``caishenqian``), and each
    seat's kongs' kinds (None unless ``kong_payments = at_end``)."""

    level: int
    bought: Optional[list[int]]
    held: Optional[list[int]]
    kongs: Optional[list[list[str]]]


def level_of(table) -> int:
    """L (§4): the logged ``dealer_level``, else the hands the dealer has dealt in a row,
    counted from 1 again after a level-4 hand."""
    logged = table.dealer_level
    return logged if logged is not None else table.dealer_streak % MAX_LEVEL + 1


def table_facts(ruleset: Ruleset, table, won=None) -> HandFacts:
    """The hand's dealer and :class:`Facts`, read from the table."""
    n = len(table.hands)
    bought = None
    if ruleset.maidi:
        # §9.3: a 买底 / 顶底 choice stands for its own dealership only: a bet placed before the
        # dealer's present run of hands belongs to an earlier dealership, and a seat that logged
        # none at this one's start bought nothing (k counts 0 for it)
        start = table.hand - table.dealer_streak
        bought = [(b[1] if b is not None and b[0] >= start else 0)
                  for b in (list(table.last_bets) + [None] * n)[:n]]
    held = kongs = None  # read only where the room pays 财神钱 or 杠算分
    if ruleset.caishenqian:
        w = table.wild if table.wild is not None and table.wild < 34 else caishen.wild(ruleset)  # the logged W
        held = [table.hands[s][w] if w is not None else 0 for s in range(n)]
    if ruleset.kong_payments == "at_end":
        kongs = [[m.kind for m in table.melds[s] if m.kind in KONG_VALUES] for s in range(n)]
    level = level_of(table)
    return HandFacts(None, None, Facts(level, bought, held, kongs), table.dealer, level)


def hand_facts(ruleset: Ruleset, received, bets: Sequence[int]) -> HandFacts:
    """Without a table (``paipu hand``): level 1, no bets, no 财神 or kongs counted."""
    return HandFacts(None, None, None)


def _pair_terms(ruleset: Ruleset, facts: HandFacts, winner: int, payer: int) -> Optional[tuple[int, int, int]]:
    """(L, D_L, k) of a pair with the dealer in it (§9.1), None between two non-dealers."""
    dealer = facts.dealer
    if dealer is None or dealer not in (winner, payer):
        return None
    f: Optional[Facts] = facts.extra
    # the hand's level: ``HandFacts.dealer_level`` (the rotation's where the log names a wrong one)
    level = facts.dealer_level or (f.level if f is not None else 1)
    k = (f.bought[winner] + f.bought[payer]) if f is not None and f.bought is not None else 0
    return level, money.pair_base(ruleset, level, True), k


def _base_of(ruleset: Ruleset, facts: HandFacts, winner: int, payer: int) -> int:
    """The pair base of (winner, payer) in points (§9.1): B between two non-dealers, else
    D_L × (1 + k), k the seats of the pair that bought 底."""
    terms = _pair_terms(ruleset, facts, winner, payer)
    return ruleset.base if terms is None else terms[1] * (1 + terms[2])


def pair_base(ruleset: Ruleset, facts: HandFacts, winner: int, payer: int) -> tuple[int, str]:
    """The pair base of (winner, payer) in points, and how it was derived (§9.1)."""
    terms = _pair_terms(ruleset, facts, winner, payer)
    if terms is None:
        return ruleset.base, f"B = {ruleset.base}"
    level, d, k = terms
    if k:
        return d * (1 + k), f"D_{level} × (1 + {k} 买底) = {d} × {1 + k}"
    return d, f"D_{level} = {d} ({ruleset.lianzhuang})"


def _win(ruleset: Ruleset, n: int, winner: int, p: int, how: WinHow, from_seat: Optional[int],
         facts: HandFacts, lines: Optional[list[str]]) -> list[Transfer]:
    """The win payments of one winner with points P = B × M (§9.2); ``lines`` (None: not asked)
    gets the derivation."""
    m = p // ruleset.base
    dues = []
    for payer in ((winner + k) % n for k in range(1, n)):
        if lines is None:  # the transfers alone: no derivation written
            dues.append((payer, _base_of(ruleset, facts, winner, payer) * m))
            continue
        base, why = pair_base(ruleset, facts, winner, payer)
        dues.append((payer, base * m))
        lines.append(f"seat {payer} → seat {winner}: {why}; × M {m} = {base * m}")
    if how != "self_draw" and ruleset.discard_payers == "discarder_for_all":
        total = sum(a for _, a in dues)
        if lines is not None:
            lines.append(f"discarder_for_all: seat {from_seat} pays all three shares = {total}")
        return [Transfer(payer=from_seat, payee=winner, amount=total, reason="win")]
    return [Transfer(payer=s, payee=winner, amount=a, reason="win") for s, a in dues]


def _caishen_money(ruleset: Ruleset, n: int, winner: Optional[int], f: Facts,
                   lines: Optional[list[str]]) -> list[Transfer]:
    """财神钱 (§9.4): n × B from each other seat, 6 × B for a winner holding all three."""
    out = []
    b = ruleset.base
    for s in range(n):
        held = f.held[s]
        if not held:
            continue
        each = ALL_THREE * b if s == winner and held >= 3 else held * b
        if lines is not None:
            lines.append(f"财神钱: seat {s} holds {held} 财神, collects {each} from each other seat")
        out += [Transfer(payer=o, payee=s, amount=each, reason="caishen") for o in range(n) if o != s]
    return out


def _kong_money(ruleset: Ruleset, n: int, f: Facts, lines: Optional[list[str]]) -> list[Transfer]:
    """杠算分 (§9.5): per kong, 1 × B (exposed, added) or 2 × B (concealed) from each other seat."""
    out = []
    for s in range(n):
        for kind in f.kongs[s]:
            each = KONG_VALUES[kind] * ruleset.base
            if lines is not None:
                lines.append(f"杠算分: seat {s}'s {kind} collects {each} from each other seat")
            out += [Transfer(payer=o, payee=s, amount=each, reason="kong") for o in range(n) if o != s]
    return out


def derive(ruleset: Ruleset, n: int, winners: Sequence[tuple[int, int]], how: Optional[WinHow],
           from_seat: Optional[int], facts: HandFacts, explain: bool = True) -> tuple[list[Transfer], list[str]]:
    """The hand's transfers and their derivation, one line per payment (§9.2–§9.6; ``explain``
    False: the transfers alone, no lines)."""
    lines: Optional[list[str]] = [] if explain else None
    out: list[Transfer] = []
    winner = None
    if winners:
        if how is None:
            raise ValueError("winners given without how")
        if how != "self_draw" and from_seat is None:
            raise ValueError("a discard or robbed-kong win needs from_seat")
        winner, p = winners[0]
        out += _win(ruleset, n, winner, p, how, from_seat, facts, lines)
    elif lines is not None:
        lines.append("流局 or no legal win: no win payments")
    f: Optional[Facts] = facts.extra
    if f is not None:
        if ruleset.caishenqian:
            out += _caishen_money(ruleset, n, winner, f, lines)
        if ruleset.kong_payments == "at_end":
            out += _kong_money(ruleset, n, f, lines)
    return [t for t in out if t.amount > 0], lines or []


def derivation(ruleset: Ruleset, n: int, winners: Sequence[tuple[int, int]], how: Optional[WinHow],
               from_seat: Optional[int], facts: HandFacts) -> list[str]:
    """``SettlementRules.derivation``: the corrected settlement, one line per payment."""
    f: Optional[Facts] = facts.extra
    level = facts.dealer_level or (f.level if f is not None else 1)
    logged = f" (logged at level {f.level}: priced at the rotation's)" if f is not None and f.level != level else ""
    head = [f"dealer seat {facts.dealer} at level {level}{logged}; 进阶 {ruleset.lianzhuang}; "
            f"payers {ruleset.discard_payers}"]
    return head + derive(ruleset, n, winners, how, from_seat, facts)[1]


def settle(ruleset: Ruleset, scores: Sequence[int], winners: Sequence[tuple[int, int]] = (),
           how: Optional[WinHow] = None, from_seat: Optional[int] = None,
           facts: HandFacts = HandFacts(None, None), clamp: bool = True) -> Settlement:
    """Settle one hand (§9); no score floor (``clamp`` is accepted and ignored)."""
    transfers, _ = derive(ruleset, len(scores), winners, how, from_seat, facts, explain=False)
    after = list(scores)
    for t in transfers:
        after[t.payer] -= t.amount
        after[t.payee] += t.amount
    return Settlement(transfers, after, False)


def payer_points(ruleset: Ruleset, winner, score, facts: HandFacts) -> dict[int, int]:
    """``ScoringRules.payer_points``: what each payer the log lists owes the winner (pair base × M)."""
    p = score.points if score is not None else winner.points
    m = p // ruleset.base
    return {x.seat: _base_of(ruleset, facts, winner.seat, x.seat) * m
            for x in (getattr(winner, "payers", None) or ())}


def transfer_code(how: Optional[str], code: str, expected=None, actual=None) -> str:
    """Kong money where none is due is KONG_PAYMENT_UNDUE (§9.5); other groups keep their code."""
    if code == "KONG_PAYMENT_MISMATCH" and not expected:
        return "KONG_PAYMENT_UNDUE"
    return code


def check_bet(ruleset: Ruleset, bet: int, placed_before: bool, dealt: bool) -> Optional[Violation]:
    """买底 / 顶底 (§9.3, the side-bet event): only with ``maidi``, 0 or 1, once, before the deal
    (a bet in a hand that is not a dealership's first is the family's ``event_checks``)."""
    if not ruleset.maidi:
        return Violation("YANGZHU_BET_INVALID", "a 买底 bet in a room that does not play 买底", "no bet", bet)
    if bet not in (0, 1):
        return Violation("YANGZHU_BET_INVALID", f"a 买底 bet of {bet}; bets are 0 or 1", [0, 1], bet)
    if dealt:
        return Violation("YANGZHU_BET_INVALID", "a 买底 bet placed after the deal", "before the deal", "after")
    if placed_before:
        return Violation("YANGZHU_BET_INVALID", "a second 买底 bet in one hand", "one bet", "two")
    return None


def rotation(ruleset: Ruleset, table, first: Optional[tuple], n: int = 4) -> tuple[Optional[int], Optional[int]]:
    """The next hand's (dealer, level) after a hand dealt by d at level L (§4): after L = 4 the
    dealership ends (``after_fourth``: seats re-drawn, any dealer at 1, or the 下家 at 1); a
    winning dealer deals at L + 1, another winner passes the deal to the 下家 at 1; a drawn
    hand by ``draw_dealer`` (``stay`` L + 1, ``stay_same_level`` L, ``pass_if_kong`` the 下家
    at 1 after any kong else d at L, ``next`` the 下家 at 1)."""
    d = table.dealer
    level = level_of(table)
    nxt = (d + 1) % n
    if level >= MAX_LEVEL:
        return (None, 1) if ruleset.after_fourth == "redraw" else (nxt, 1)
    if first is not None and first[0]:
        return (d, level + 1) if d in first[0] else (nxt, 1)
    mode = ruleset.draw_dealer
    if mode == "stay":
        return d, level + 1
    if mode == "stay_same_level":
        return d, level
    if mode == "pass_if_kong":
        return (nxt, 1) if any(table.kongs) else (d, level)
    return nxt, 1


def next_dealer(dealer: int, winners, how, from_seat) -> int:
    """Asked only where ``rotation`` is not (never for this family): the dealer stays when it
    won, else the 下家."""
    return dealer if dealer in (winners or ()) else (dealer + 1) % 4


def game_over(ruleset: Ruleset, scores: Sequence[int]) -> bool:
    """No score floor: a game ends when the room closes."""
    return False


__all__ = ["ALL_THREE", "Facts", "KONG_VALUES", "LABELS", "MAX_LEVEL", "check_bet", "derivation", "derive",
           "game_over", "hand_facts", "level_of", "next_dealer", "pair_base", "payer_points", "rotation", "settle",
           "table_facts", "transfer_code"]
