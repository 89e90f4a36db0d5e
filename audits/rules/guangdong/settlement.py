"""Guangdong 鸡平和 settlement (guangdong.md §8): 自摸, 点炮, 一炮多响 / 一炮三响, 抢杠,
the 包 liabilities (杠上开花包杠, 大四喜 / 大三元 包自摸, 12张落地 包自摸 with 包先不包后)
and the optional kong payments.

The liabilities are read from the reducer's neutral facts (:func:`liabilities`):
``Table.fed`` (each claim in order: claimer, feeder, meld kind, tile kind),
``Table.turn_kongs`` (the kongs of the turn the winner drew in), the melds, and for
``bao_special_trigger = discarded`` the discards in play order (:func:`play_order`).

Payment order: winners in seat order from the discarder's (kong adder's) next seat;
a self-draw's payers in seat order from the winner's next seat; kong payments last.
The order is not judged (§8.7); transfers compare as sums per (payer, payee, reason).
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Sequence

from schema.events import Transfer
from schema.ruleset import Ruleset

from ..family import HandFacts, Settlement, WinHow
from .fans import DRAGONS, WINDS

#: The 包 reasons (§8.4) and what ``--explain`` calls each.
BAO_REASONS = ("bao_gangkai", "bao_special", "bao_luodi")
LABELS = {
    "win": "pays", "qianggang": "pays (抢杠: the adder pays 3·P)", "bao_gangkai": "pays 3·P (杠上开花包杠)",
    "bao_special": "pays 3·P (大四喜/大三元 包自摸)", "bao_luodi": "pays 3·P (12张落地 包自摸)",
    "kong": "pays for a kong",
}


class Liability(NamedTuple):
    """A seat liable for a self-draw (§8.4): who pays, the reason, and why, in words."""

    payer: int
    reason: str
    why: str


class GuangdongFacts(NamedTuple):
    """What the settlement reads from the table: each self-drawer's liability (by seat)
    and the kongs standing at the end, as (seat, meld kind, feeder or None)."""

    liable: dict
    kongs: list


def _luodi(fed: Sequence[tuple[int, int, str, int]]) -> dict[int, int]:
    """12张落地: the feeder of each seat's fourth exposed set, first feed per feeder only
    (包先不包后: a feeder answers only for the first player it puts into 12张落地)."""
    sets: dict[int, int] = {}
    used: set[int] = set()
    out: dict[int, int] = {}
    for claimer, feeder, kind, _tile in fed:
        sets[claimer] = sets.get(claimer, 0) + 1
        if sets[claimer] == 4 and feeder not in used:
            used.add(feeder)
            out[claimer] = feeder
    return out


def _special(fed: Sequence[tuple[int, int, str, int]], seat: int, melds) -> Optional[tuple[int, str]]:
    """大四喜 / 大三元 包: the winner's wind (dragon) sets are all exposed, the last one made
    by claiming X's discard while the others were already exposed: (X, name)."""
    for group, name in ((WINDS, "大四喜"), (DRAGONS, "大三元")):
        exposed = {m.of for m in melds if m.kind != "kong_concealed" and m.kind != "chow" and m.of in group}
        if len(exposed) != len(group):
            continue
        claims = [(feeder, tile) for claimer, feeder, kind, tile in fed
                  if claimer == seat and kind in ("pong", "kong_exposed") and tile in group]
        if len(claims) == len(group):
            return claims[-1][0], name
    return None


def play_order(table, limit: Optional[int] = None) -> list[tuple[int, int, int]]:
    """The hand's discards in the order they were made, as (discarder, tile kind, claimer
    or -1), rebuilt from the reducer's per-seat discards: the dealer throws first; after
    an unclaimed discard the 下家 throws next, after a claimed one the claimer.  ``limit``:
    only the first ``limit`` of them."""
    discards = table.discards
    n = len(discards)
    at = [0] * n
    out: list[tuple[int, int, int]] = []
    seat = table.dealer
    if limit is None:
        limit = sum(map(len, discards))
    while len(out) < limit and 0 <= seat < n and at[seat] < len(discards[seat]):
        tile, claimer = discards[seat][at[seat]]
        at[seat] += 1
        out.append((seat, tile, claimer))
        seat = claimer if claimer >= 0 else (seat + 1) % n
    return out


def _special_discarded(table, seat: int) -> Optional[tuple[int, str]]:
    """``bao_special_trigger = discarded``: the winner finally holds every wind (dragon) as
    a pong-type set, and X threw the remaining wind (dragon) while the other three winds
    (two dragons) were the winner's exposed sets, claimed or not: (X, name) for the first
    such discard.  The winner's exposed honour sets are its claims of honour discards."""
    held = table.hands[seat]
    melds = table.melds[seat]
    for group, name in ((WINDS, "大四喜"), (DRAGONS, "大三元")):
        sets = {m.of for m in melds if m.kind != "chow" and m.of in group}
        if any(k not in sets and held[k] < 3 for k in group):
            continue  # the winner does not score it
        exposed: set[int] = set()
        for discarder, tile, claimer in play_order(table):
            if tile not in group:
                continue
            if discarder != seat and tile not in exposed and len(exposed) == len(group) - 1:
                return discarder, name
            if claimer == seat:
                exposed.add(tile)
    return None


def liabilities(ruleset: Ruleset, table, won) -> dict[int, Liability]:
    """Who is liable for each self-draw winner (§8.4), in the order of precedence:
    杠上开花包杠, then 大四喜/大三元 and 12张落地 (``bao_precedence``)."""
    if won is None or won.how != "self_draw":
        return {}
    out: dict[int, Liability] = {}
    luodi = _luodi(table.fed)
    for x in won.winners:
        seat = x.seat
        if not 0 <= seat < len(table.melds):
            continue
        found: list[Liability] = []
        kongs = table.turn_kongs
        if kongs and kongs[0][0] == "kong_exposed" and (ruleset.gangkai_bao_chain or len(kongs) == 1):
            feeder = kongs[0][1]
            found.append(Liability(feeder, "bao_gangkai",
                                   f"杠上开花 after an exposed kong on seat {feeder}'s discard: 点杠者包三家"))
        if ruleset.bao_special_trigger == "discarded":
            special = _special_discarded(table, seat)
            why = "threw the remaining tile of {} (bao_special_trigger = discarded)"
        else:
            special = _special(table.fed, seat, table.melds[seat])
            why = "fed the last set of {}"
        special_bao = [Liability(special[0], "bao_special",
                                 f"seat {special[0]} {why.format(special[1])}")] if special else []
        luodi_bao = []
        if seat in luodi and sum(1 for m in table.melds[seat] if m.kind != "kong_concealed") == 4:
            luodi_bao = [Liability(luodi[seat], "bao_luodi",
                                   f"seat {luodi[seat]} fed the fourth exposed set (12张落地, 包先不包后)")]
        found += (luodi_bao + special_bao) if ruleset.bao_precedence == "luodi_first" else (special_bao + luodi_bao)
        found = [f for f in found if f.payer != seat]
        if found:
            out[seat] = found[0]
    return out


def kongs_standing(table) -> list[tuple[int, str, Optional[int]]]:
    """Every kong at the end of the hand (a robbed kong stands again as a pong)."""
    return [(s, m.kind, m.from_seat) for s, melds in enumerate(table.melds) for m in melds if m.is_kong]


def table_facts(ruleset: Ruleset, table, won=None) -> HandFacts:
    """The liabilities and the kongs the settlement needs (no 养猪 or 点鸡 here)."""
    return HandFacts(None, None, GuangdongFacts(liabilities(ruleset, table, won), kongs_standing(table)))


def hand_facts(ruleset: Ruleset, received, bets) -> HandFacts:
    """No bets or tallies in this ruleset."""
    return HandFacts(None, None)


def seat_order_from(start: int, n: int) -> list[int]:
    return [(start + k) % n for k in range(n)]


def kong_transfers(ruleset: Ruleset, kongs: Sequence[tuple[int, str, Optional[int]]], n: int) -> list[Transfer]:
    """§8.5 ``on_win``: exposed kong 3·B from the feeder; added 1·B and concealed 2·B from each other seat."""
    out = []
    b = ruleset.base
    for seat, kind, feeder in kongs:
        if kind == "kong_exposed" and feeder is not None:
            out.append(Transfer(payer=feeder, payee=seat, amount=3 * b, reason="kong"))
        else:
            each = b if kind == "kong_added" else 2 * b
            for payer in seat_order_from((seat + 1) % n, n)[:-1]:
                out.append(Transfer(payer=payer, payee=seat, amount=each, reason="kong"))
    return out


def settle(ruleset: Ruleset, scores: Sequence[int], winners: Sequence[tuple[int, int]] = (),
           how: Optional[WinHow] = None, from_seat: Optional[int] = None,
           facts: HandFacts = HandFacts(None, None), clamp: bool = True) -> Settlement:
    """Settle one hand: each winner w is paid P_w on its own (§8).

    * 自摸: each other seat pays P, or the liable seat alone pays 3·P (``bao_*``);
    * 点炮: the discarder pays each winner P (一炮三响 with ``three_shares``: 3·P);
    * 抢杠: the seat that added the kong pays each robber 3·P (``qianggang``);
    * kong payments with ``kong_payments = on_win`` when the hand is won.

    There is no score floor; ``clamp`` is accepted for the interface and ignored.
    """
    n = len(scores)
    extra = facts.extra if isinstance(facts.extra, GuangdongFacts) else GuangdongFacts({}, [])
    out: list[Transfer] = []
    if winners:
        if how is None:
            raise ValueError("winners given without how")
        if how != "self_draw" and from_seat is None:
            raise ValueError("a discard or robbed-kong win needs from_seat")
        by_seat = dict(winners)
        order = [winners[0][0]] if how == "self_draw" else \
            [s for s in seat_order_from((from_seat + 1) % n, n) if s in by_seat]
        for w in order:
            p = by_seat[w]
            if how == "self_draw":
                bao = extra.liable.get(w)
                if bao is not None:
                    out.append(Transfer(payer=bao.payer, payee=w, amount=3 * p, reason=bao.reason))
                else:
                    for payer in seat_order_from((w + 1) % n, n)[:-1]:
                        out.append(Transfer(payer=payer, payee=w, amount=p, reason="win"))
            elif how == "discard":
                share = 3 if len(winners) == 3 and ruleset.yipao_sanxiang_pay == "three_shares" else 1
                out.append(Transfer(payer=from_seat, payee=w, amount=share * p, reason="win"))
            else:
                out.append(Transfer(payer=from_seat, payee=w, amount=3 * p, reason="qianggang"))
        if ruleset.kong_payments == "on_win":
            out += kong_transfers(ruleset, extra.kongs, n)
    out = [t for t in out if t.amount > 0]
    after = list(scores)
    for t in out:
        after[t.payer] -= t.amount
        after[t.payee] += t.amount
    return Settlement(out, after, False)


def transfer_code(how: Optional[str], code: str, expected=None, actual=None) -> str:
    """The code of a transfer mismatch: a wrong or missing liability is BAO_PAYER, a 包
    transfer where none is due BAO_UNDUE, a robbing paid wrong QIANGGANG_PAYER; a kong
    transfer where none is due KONG_PAYMENT_UNDUE."""
    expected = expected or {}
    actual = actual or {}
    if code == "KONG_PAYMENT_MISMATCH":
        return "KONG_PAYMENT_UNDUE" if not expected else code
    if any(r in BAO_REASONS for _, _, r in expected):
        return "BAO_PAYER"
    if any(r in BAO_REASONS for _, _, r in actual):
        return "BAO_UNDUE"
    if how == "robbed_kong":
        return "QIANGGANG_PAYER"
    return code


def game_over(ruleset: Ruleset, scores: Sequence[int]) -> bool:
    """No score floor: a game ends when the room closes."""
    return False
