"""Hainan settlement (hainan.md §9): the win, kong money, 包牌, 跟牌, flower money; 黄庄.

A hand is settled only when it is won (跟牌 under ``genpai = always`` excepted).  Every step's
transfers are summed per (payer, payee, reason); their order is no finding.

* **Unit** u(a, b) (§9.1.2): B between two non-dealers; a pair with the dealer has the shared
  连庄 base (:func:`audits.rules.money.pair_base`, level n + 1) plus ``dealer_unit_bonus``.
* **The win** (§9.1): each other seat l owes s_l = u(w, l) × r × m = P × u(w, l) / B, with
  P = B × r × m as logged; on a discard win (a robbing) the discarder (adder) owes e = B more.
* **Liability** (§9.3): 无番抢杠 (the adder, ``qianggang``), 三道 (``bao_sandao``: three claims
  one way between the winner and the discarder), 四道 (a self-draw, four claims), 海底包牌
  (``bao_haidi``): the liable seat pays Σ s_l + e alone.
* **Kong money** (§9.2): every kong standing at the end of a won hand, u(g, l) × v from each
  other seat (``kong_values``); 包杠: a 直杠 on the dealer's first discard is the dealer's alone.
* **跟牌** (§9.4): the first four discards equal, in seat order from the dealer, unclaimed:
  the dealer pays each other seat u(dealer, l).
* **Flowers** (§9.5): with ``flower_money = sets`` a complete 春夏秋冬 or 梅兰菊竹 collects
  u × ``flower_set_value`` from each other seat.

The facts are read from the reducer's neutral table (:func:`table_facts`): ``fed`` (claims,
claimer and feeder), the per-seat ``discards`` with their claimers (the play order), the
melds (kongs standing), ``set_aside`` (flowers), ``undrawn``, ``dealer_streak``.
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Sequence

from schema.events import Transfer
from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX

from .. import money
from ..family import HandFacts, Settlement, WinHow
from ..guangdong.settlement import play_order
from . import fans

#: The liability reasons of the win group (§9.3) and how ``--explain`` words each reason.
BAO_REASONS = ("qianggang", "bao_sandao", "bao_haidi")
LABELS = {
    "win": "pays", "qianggang": "pays every share (无番抢杠: the adder)", "bao_sandao": "pays every share (三道 / 四道 包牌)",
    "bao_haidi": "pays every share (海底包牌)", "kong": "pays for a kong", "bao_gang": "pays the kong alone (包杠)",
    "genpai": "pays 跟牌", "flower": "pays flower money (真花)",
}
#: Kong money per kind: the index into ``kong_values`` (直杠, 补杠, 暗杠).
KONG_INDEX = {"kong_exposed": 0, "kong_added": 1, "kong_concealed": 2}


class Liability(NamedTuple):
    """A seat liable for a win (§9.3): who pays every share, the reason, and why, in words."""

    payer: int
    reason: str
    why: str


class HainanFacts(NamedTuple):
    """What the settlement reads from the table: the dealer and its streak n, each possible
    winner's liability (by seat), the kongs standing as (seat, meld kind, 包杠), whether 跟牌
    happened, and each seat's flowers set aside."""

    dealer: int
    streak: int
    #: winner seat -> its :class:`Liability` (named ``bao``, not ``liable``: the family's own
    #: derivation words each liability; the shared --explain line is Guangdong's 3·P wording)
    bao: dict
    kongs: list
    genpai: bool
    flowers: list


NO_FACTS = HainanFacts(-1, 0, {}, [], False, [])


def unit(ruleset: Ruleset, facts: HainanFacts, a: int, b: int) -> int:
    """u(a, b) (§9.1.2): B, or for a dealer pair the 连庄 base (level n + 1) + ``dealer_unit_bonus``."""
    if facts.dealer in (a, b):
        return money.pair_base(ruleset, facts.streak + 1, True) + ruleset.dealer_unit_bonus
    return ruleset.base


def others(seat: int, n: int) -> list[int]:
    """The other seats, in order from the seat's 下家."""
    return [(seat + k) % n for k in range(1, n)]


# --- the facts ---------------------------------------------------------------------------

def dao_counts(fed) -> dict[tuple[int, int], int]:
    """道 (§9.3): per (claimer, feeder), the chows and pongs the claimer made on the feeder's
    discards (a 直杠 is no claim here; a pong later upgraded to a 补杠 still counts: ``fed``
    keeps the claim)."""
    out: dict[tuple[int, int], int] = {}
    for c, f, kind, _ in fed:
        if kind == "chow" or kind == "pong":
            out[c, f] = out.get((c, f), 0) + 1
    return out


def claims_on(fed, claimer: int, feeder: int) -> int:
    """道 (§9.3): the chows and pongs ``claimer`` made on ``feeder``'s discards (:func:`dao_counts`)."""
    return dao_counts(fed).get((claimer, feeder), 0)


def claims_between(fed, a: int, b: int, counts: Optional[dict] = None) -> tuple[int, int, int]:
    """The 道 that decide a 三道 / 四道 liability between a and b (§9.3), as (count, claimer,
    feeder): a's claims on b's discards or b's on a's, whichever direction holds more — each
    direction counts on its own ("吃上家三道牌，或碰任意一家三道牌…反之…"): two one way and one
    the other are no 三道.  ``counts``: ``fed``'s :func:`dao_counts`, when already made."""
    if counts is None:
        counts = dao_counts(fed)
    ab, ba = counts.get((a, b), 0), counts.get((b, a), 0)
    return (ab, a, b) if ab >= ba else (ba, b, a)


def rob_without_fan(score) -> bool:
    """无番抢杠 (§7, §9.3 a): a robbing whose scored reading holds no 番 source but 抢杠 itself;
    the adder then pays every share ("无番抢杠算包杠的人")."""
    return score.complete and score.fan <= 1


def _rob_without_fan(ruleset: Ruleset, table, seat: int, tile: int) -> bool:
    """:func:`rob_without_fan` for the robber's hand on the table."""
    from . import table as hn_table  # the win context is the family's table reading
    concealed = [k for k in range(34) for _ in range(table.hands[seat][k])] + [tile]
    ctx = hn_table.win_context(ruleset, table, seat, "robbed_kong", tile, False, False)
    return rob_without_fan(fans.score_hand(ruleset, concealed, table.melds[seat], ctx))


def qianggang_liability(winner: int, adder: int) -> Liability:
    """无番抢杠's liability: the adder pays all (reason ``qianggang``)."""
    return Liability(adder, "qianggang", f"无番抢杠: seat {winner} robs with no 番 but 抢杠; the adder pays all")


def request_facts(ruleset: Ruleset, score, how: str, winner: int, from_seat: Optional[int],
                  dealer: Optional[int]) -> HainanFacts:
    """``SettlementRules.request_facts`` (``paipu hand``): the facts a scored win is settled with
    outside a log — the dealer when named, and 无番抢杠's liability by :func:`rob_without_fan`
    (no kongs, 跟牌 or flower sets: a request names none)."""
    bao = {}
    if how == "robbed_kong" and from_seat is not None and rob_without_fan(score):
        bao[winner] = qianggang_liability(winner, from_seat)
    return NO_FACTS._replace(dealer=-1 if dealer is None else dealer, bao=bao)


def liabilities(ruleset: Ruleset, table, won) -> dict[int, Liability]:
    """Who pays every share for each seat the hand may be paid to (§9.3), the first case that
    applies: 无番抢杠, 三道, 四道, 海底包牌.  On a discard or a robbing every seat but the feeder
    is asked, not only the logged winner: under 截胡 the corrected ledger pays the first legal
    declarer (new-families.md §1b), whose liability is its own."""
    if won is None:
        return {}
    n = len(table.melds)
    how, frm = won.how, won.from_seat
    tile = TILE_INDEX[won.tile]
    out: dict[int, Liability] = {}
    seats = [x.seat for x in won.winners] if how == "self_draw" or frm is None else range(n)
    dao = dao_counts(table.fed)
    for w in seats:
        if w == frm or not 0 <= w < n:
            continue
        if how == "robbed_kong" and frm is not None:
            if _rob_without_fan(ruleset, table, w, tile):
                out[w] = qianggang_liability(w, frm)
            continue
        if how == "discard" and frm is not None:
            k, claimer, feeder = claims_between(table.fed, w, frm, dao)
            if k >= 3:
                out[w] = Liability(frm, "bao_sandao", f"三道: seat {claimer} made {k} claims on seat {feeder}'s discards")
                continue
            if ruleset.haidi_bao and table.undrawn <= ruleset.haidi_bao_from:
                out[w] = Liability(frm, "bao_haidi",
                                   f"海底包牌: the discard was made at R = {table.undrawn} <= {ruleset.haidi_bao_from}")
            continue
        if how == "self_draw" and ruleset.bao_sidao:
            for x in others(w, n):
                k, claimer, feeder = claims_between(table.fed, w, x, dao)
                if k >= 4:
                    out[w] = Liability(x, "bao_sandao", f"四道: seat {claimer} made {k} claims on seat {feeder}'s discards")
                    break
    return out


def genpai_happened(table) -> bool:
    """跟牌 (§9.4): the dealer's first discard followed by the 下家, 对家 and 上家 each
    discarding the same kind as their first discard, with no chow, pong or 直杠 in between."""
    n = len(table.discards)
    first = play_order(table, n)
    if len(first) < n:
        return False
    d = table.dealer
    tile = first[0][1]
    return all(seat == (d + i) % n and t == tile for i, (seat, t, _c) in enumerate(first)) and \
        all(claimer < 0 for _s, _t, claimer in first[:-1])


def kongs_standing(table) -> list[tuple[int, str, bool]]:
    """Every kong at the end of the hand as (seat, kind, 包杠): a 直杠 on the dealer's first
    discard is 包杠 (a robbed kong stands again as a pong and earns nothing)."""
    d = table.dealer
    first = table.discards[d][0] if 0 <= d < len(table.discards) and table.discards[d] else None
    out = []
    for s, melds in enumerate(table.melds):
        for m in melds:
            if m.is_kong:
                bao = m.kind == "kong_exposed" and m.from_seat == d and first is not None and \
                    first[0] == m.of and first[1] == s
                out.append((s, m.kind, bao))
    return out


def table_facts(ruleset: Ruleset, table, won=None) -> HandFacts:
    """The hand's facts for the settlement (the dealer is also ``HandFacts.dealer``)."""
    flowers = [tuple(f for f in got if f >= 34) for got in table.set_aside] or [() for _ in table.melds]
    extra = HainanFacts(table.dealer, table.dealer_streak, liabilities(ruleset, table, won), kongs_standing(table),
                        genpai_happened(table), flowers)
    return HandFacts(None, None, extra, table.dealer)


def hand_facts(ruleset: Ruleset, received, bets) -> HandFacts:
    """No bets or tallies in this ruleset (the table's facts are read by :func:`table_facts`)."""
    return HandFacts(None, None)


def _facts(facts: HandFacts) -> HainanFacts:
    """The Hainan facts of ``facts``; a dealer level L given with them (``paipu hand --level``)
    is the 连庄 count n = L − 1 the dealer's units are priced at (§3, §9.1.2)."""
    if isinstance(facts.extra, HainanFacts):
        got = facts.extra
    else:
        got = NO_FACTS._replace(dealer=facts.dealer if facts.dealer is not None else -1)
    if facts.dealer_level is not None:
        got = got._replace(streak=facts.dealer_level - 1)
    return got


# --- the settlement ------------------------------------------------------------------------
# Each step appends its transfers to ``out`` and, when ``lines`` is a list (``--explain``,
# ``paipu hand``), one line of derivation per payment; ``lines`` None: the amounts alone (the
# audit settles every hand, and explains only when asked).

def _win(ruleset: Ruleset, f: HainanFacts, n: int, w: int, p: int, how: str, frm: Optional[int],
         out: list, lines: Optional[list]) -> None:
    """The win (§9.1): shares s_l = P × u(w, l) / B, the feeder's e = B, or a liable seat."""
    b = ruleset.base
    payers = others(w, n)
    units = {l: unit(ruleset, f, w, l) for l in payers}
    shares = {l: p * units[l] // b for l in payers}
    e = b if how != "self_draw" else 0
    bao = f.bao.get(w)
    if bao is not None:
        total = sum(shares.values()) + e
        out.append(Transfer(payer=bao.payer, payee=w, amount=total, reason=bao.reason))
        if lines is not None:
            lines.append(f"{bao.why}: seat {bao.payer} → seat {w}: Σ s_l "
                         + " + ".join(str(shares[l]) for l in payers) + (f" + e {e}" if e else "") + f" = {total}")
        return
    for l in payers:
        extra = e if l == frm else 0
        out.append(Transfer(payer=l, payee=w, amount=shares[l] + extra, reason="win"))
        if lines is not None:
            lines.append(f"seat {l} → seat {w}: s = P {p} × u {units[l]} / B {b} = {shares[l]}"
                         + (f"; + e {e} (the feeder) = {shares[l] + extra}" if extra else ""))


def _kongs(ruleset: Ruleset, f: HainanFacts, n: int, out: list, lines: Optional[list]) -> None:
    """Kong money (§9.2) for every kong standing; 包杠 by the dealer alone."""
    for g, kind, bao in f.kongs:
        v = ruleset.kong_values[KONG_INDEX[kind]]
        if bao and ruleset.baogang:
            total = sum(unit(ruleset, f, g, l) * ruleset.kong_values[0] for l in others(g, n))
            out.append(Transfer(payer=f.dealer, payee=g, amount=total, reason="bao_gang"))
            if lines is not None:
                lines.append(f"包杠: seat {g}'s 直杠 on the dealer's first discard: seat {f.dealer} → seat {g}: {total}")
            continue
        for l in others(g, n):
            u = unit(ruleset, f, g, l)
            out.append(Transfer(payer=l, payee=g, amount=u * v, reason="kong"))
            if lines is not None:
                lines.append(f"kong ({kind}, v {v}): seat {l} → seat {g}: u {u} × {v} = {u * v}")


def _genpai(ruleset: Ruleset, f: HainanFacts, n: int, out: list, lines: Optional[list]) -> None:
    for l in others(f.dealer, n):
        amount = unit(ruleset, f, f.dealer, l)
        out.append(Transfer(payer=f.dealer, payee=l, amount=amount, reason="genpai"))
        if lines is not None:
            lines.append(f"跟牌: seat {f.dealer} (dealer) → seat {l}: u = {amount}")


def _flowers(ruleset: Ruleset, f: HainanFacts, n: int, out: list, lines: Optional[list]) -> None:
    for s, got in enumerate(f.flowers):
        have = set(got)
        sets = sum(1 for group in (range(34, 38), range(38, 42)) if have.issuperset(group))
        if not sets:
            continue
        for l in others(s, n):
            amount = unit(ruleset, f, s, l) * ruleset.flower_set_value * sets
            out.append(Transfer(payer=l, payee=s, amount=amount, reason="flower"))
            if lines is not None:
                lines.append(f"真花: seat {s} holds {sets} flower set(s): seat {l} → seat {s}: {amount}")


def derive(ruleset: Ruleset, n: int, winners: Sequence[tuple[int, int]], how: Optional[WinHow],
           from_seat: Optional[int], facts: HandFacts, explain: bool = True) -> tuple[list[Transfer], list[str]]:
    """The hand's transfers and their derivation, one line per payment (``explain`` False:
    the transfers alone, no lines).  ``how`` None: 黄庄; a logged win with no legal winner
    (``winners`` empty) is paid nothing."""
    f = _facts(facts)
    out: list[Transfer] = []
    lines: Optional[list[str]] = None
    if explain:
        lines = [f"dealer seat {f.dealer}, 连庄 n = {f.streak} ({ruleset.lianzhuang}), "
                 f"dealer_unit_bonus {ruleset.dealer_unit_bonus}, B = {ruleset.base}"]
    if how is None:
        genpai = ruleset.genpai == "always" and f.genpai
        if lines is not None:
            lines.append("黄庄: no transfers" + (" but 跟牌 (genpai = always)" if genpai else "")
                         + "; kong money cancelled")
        if genpai:
            _genpai(ruleset, f, n, out, lines)
        return out, lines or []
    if not winners:
        if lines is not None:
            lines.append("no legal win: no transfers")
        return [], lines or []
    if how != "self_draw" and from_seat is None:
        raise ValueError("a discard or robbed-kong win needs from_seat")
    w, p = winners[0]
    _win(ruleset, f, n, w, p, how, from_seat, out, lines)
    _kongs(ruleset, f, n, out, lines)
    if f.genpai and ruleset.genpai != "off":
        _genpai(ruleset, f, n, out, lines)
    if ruleset.flower_money == "sets":
        _flowers(ruleset, f, n, out, lines)
    return [t for t in out if t.amount > 0], lines or []


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


def derivation(ruleset: Ruleset, n: int, winners: Sequence[tuple[int, int]], how: Optional[WinHow],
               from_seat: Optional[int], facts: HandFacts) -> list[str]:
    """``SettlementRules.derivation``: the corrected settlement, one line per payment."""
    return derive(ruleset, n, winners, how, from_seat, facts)[1]


def payer_points(ruleset: Ruleset, winner, score, facts: HandFacts) -> dict[int, int]:
    """``ScoringRules.payer_points``: each listed payer's share s_l = P × u(w, l) / B (before
    the feeder's extra and liabilities)."""
    f = _facts(facts)
    p = score.points if score is not None and score.complete else winner.points
    return {x.seat: p * unit(ruleset, f, winner.seat, x.seat) // ruleset.base
            for x in (getattr(winner, "payers", None) or ())}


def transfer_code(how: Optional[str], code: str, expected=None, actual=None) -> str:
    """The code of a transfer mismatch in a group: a liability paid by the wrong seat or missing
    is BAO_PAYER (a robbing's QIANGGANG_PAYER), one with no liability BAO_UNDUE; kong money
    where none is due KONG_PAYMENT_UNDUE, 包杠 paid wrong BAO_PAYER / BAO_UNDUE."""
    expected = expected or {}
    actual = actual or {}
    want = {r for _, _, r in expected}
    got = {r for _, _, r in actual}
    if code == "KONG_PAYMENT_MISMATCH":
        if "bao_gang" in want and want != got:
            return "BAO_PAYER"
        if "bao_gang" in got and "bao_gang" not in want:
            return "BAO_UNDUE"
        return "KONG_PAYMENT_UNDUE" if not expected else code
    if code != "TRANSFER_MISMATCH":
        return code
    if how == "robbed_kong" and ("qianggang" in want or "qianggang" in got):
        return "QIANGGANG_PAYER"
    if want & set(BAO_REASONS):
        return "BAO_PAYER"
    if got & set(BAO_REASONS):
        return "BAO_UNDUE"
    return code


def game_over(ruleset: Ruleset, scores: Sequence[int]) -> bool:
    """No score floor: a game ends when the room closes."""
    return False


__all__ = ["BAO_REASONS", "HainanFacts", "LABELS", "Liability", "claims_between", "claims_on", "dao_counts", "derivation", "derive", "game_over",
           "genpai_happened", "hand_facts", "kongs_standing", "liabilities", "payer_points", "qianggang_liability", "request_facts", "rob_without_fan", "settle", "table_facts",
           "transfer_code", "unit"]
