"""Changsha settlement (changsha.md §10) and the dealer rotation (§3).

For every ordered pair p → x (§10.5): A = Q(p→x) + H(p→x), where Q is ``qishou_value`` B per
valid opening win of x and H the hand base of x's win that p owes (every other seat on a
self-draw; the discarder, adder, konger or 海底 taker otherwise; under ``qianggang_bao`` the
adder pays the three self-draw shares).  If A > 0 the birds on the two seats (m = n(x) + n(p))
apply (:mod:`.birds`), then the dealer bonus: ``plus_one`` +1 B once per pair with the dealer,
after the birds; ``per_unit`` +1 B per unit before the birds; ``none``.

A pair's money is paid under reasons ``qishou`` (Q), ``win`` (H), ``bird`` (the birds'
extra), ``dealer`` (the bonus) and, for a bao share, ``qianggang``.  No kong money (§5.2).
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Sequence

from schema.events import Transfer
from schema.ruleset import Ruleset

from ..family import HandFacts, Settlement
from . import birds as bird_rules

LABELS = {"win": "pays", "qishou": "pays 起手胡", "bird": "pays 扎鸟", "dealer": "pays 庄闲",
          "qianggang": "pays (抢杠 包)"}
#: Every reason of a pair's money is compared as the pair's total (§10.6).
PAIR_REASONS = ("win", "qishou", "bird", "dealer", "qianggang")


class ChangshaFacts(NamedTuple):
    """What the money needs besides the winners: the valid opening wins per seat, the birds
    and the seat they count from (None: the rules' origin), and, when the moment had several
    HandWon (a 开杠 reveal), every winner of the moment as (seat, H); ``hows``: beside those
    winners, each one's (how, from_seat) (a moment may mix them: a seat's win after the
    konger's own on its reveal, §6.2.2), or None (the settlement's ``how`` for all)."""

    openings: tuple[int, ...] = (0, 0, 0, 0)
    birds: tuple[int, ...] = ()
    bird_origin: Optional[int] = None
    winners: Optional[tuple[tuple[int, int], ...]] = None
    hows: Optional[tuple[tuple[str, Optional[int]], ...]] = None


def units_of(ruleset: Ruleset, h: int) -> int:
    """The units in a hand base H (a small win counts one unit for ``per_unit``)."""
    b = ruleset.base
    if h < 6 * b:
        return 1 if h else 0
    q = h // (6 * b)
    if ruleset.dahu_stack == "double":
        return q.bit_length()
    return q


def _facts(facts: HandFacts) -> ChangshaFacts:
    extra = facts.extra
    if isinstance(extra, tuple) and len(extra) == 2 and hasattr(extra[0], "facts"):
        book, corrected = extra
        return book.facts(corrected)
    if isinstance(extra, ChangshaFacts):
        return extra
    if isinstance(extra, dict):  # ``paipu hand``'s request: birds, their origin, opening wins by seat
        openings = extra.get("openings") or {}
        return ChangshaFacts(tuple(openings.get(s, 0) for s in range(4)), tuple(extra.get("birds") or ()),
                             extra.get("bird_origin"))
    return ChangshaFacts()


def base_pairs(ruleset: Ruleset, n: int, openings: Sequence[int], winners: Sequence[tuple[int, int]],
               how: Optional[str], from_seat: Optional[int],
               hows: Optional[Sequence[tuple[str, Optional[int]]]] = None) -> dict[tuple[int, int], list[int]]:
    """(payer, payee) -> [Q, H, units of Q, units of H] before birds (§10.1); ``hows``: each
    winner's own (how, from_seat) where the moment mixes them."""
    out: dict[tuple[int, int], list[int]] = {}
    if any(openings):
        q = ruleset.qishou_value * ruleset.base
        for x in range(n):
            k = openings[x] if x < len(openings) else 0
            if k:
                for p in range(n):
                    if p != x:
                        out.setdefault((p, x), [0, 0, 0, 0])[0] += q * k
                        out[(p, x)][2] += k
    for k, (x, h) in enumerate(winners):
        w_how, w_from = hows[k] if hows is not None and k < len(hows) else (how, from_seat)
        units = units_of(ruleset, h)
        for p in (range(n) if w_how == "self_draw" else (w_from,)):
            if p is None or p == x:
                continue
            row = out.get((p, x))
            if row is None:
                out[(p, x)] = [0, h, 0, units]
            else:
                row[1] += h
                row[3] += units
    return out


def pair_amount(ruleset: Ruleset, q: int, h: int, units: int, m: int, dealer_pair: bool) -> tuple[int, int, int]:
    """One pair's (birds' extra, dealer bonus, total) from Q, H and its units (§10.3–§10.4)."""
    if q + h == 0:
        return 0, 0, 0
    b = ruleset.base
    birdable = q + h if ruleset.qishou_birds else h
    plain = 0 if ruleset.qishou_birds else q
    d_before = units * b if dealer_pair and ruleset.dealer_bonus == "per_unit" else 0
    with_birds = bird_rules.apply(ruleset, birdable, m)
    bird = with_birds - birdable
    total = (bird_rules.apply(ruleset, birdable + d_before, m) if d_before else with_birds) + plain
    if dealer_pair and ruleset.dealer_bonus == "plus_one":
        total += b
    return bird, total - q - h - bird, total


def derive(ruleset: Ruleset, n: int, dealer: int, cf: ChangshaFacts, winners: Sequence[tuple[int, int]],
           how: Optional[str], from_seat: Optional[int], explain: bool = True) -> tuple[list[Transfer], list[str]]:
    """The hand's transfers, by pair, and their derivation one line per pair (§10.5)."""
    if cf.winners is not None:
        winners = cf.winners
    seats = [s for s, _ in winners]
    origin = cf.bird_origin
    if origin is None and seats:
        origin = bird_rules.origin_of(ruleset, dealer, seats, from_seat)
    hows = cf.hows if cf.winners is not None else None
    if not explain:
        # the audit settles each hand twice, as logged and as corrected; when the log is right
        # both are the same hand (the last one settled), paid once
        key = (n, dealer, cf.openings, cf.birds, origin, tuple(winners), hows, how, from_seat)
        last = _last_derived
        if last is not None and last[0] is ruleset and last[1] == key:
            return list(last[2]), []
    hit = bird_rules.hits(cf.birds, origin, n) if seats else [0] * n
    bao = how == "robbed_kong" and bool(ruleset.qianggang_bao)
    pairs = base_pairs(ruleset, n, cf.openings, [] if bao else winners, how, from_seat, hows)
    out: list[Transfer] = []
    lines: list[str] = []
    if explain:
        lines.append(f"dealer seat {dealer}; birds {_names(cf.birds) or 'none'} from seat {origin}: "
                     f"n = {hit}; 庄闲 {ruleset.dealer_bonus}; bird mode {ruleset.bird_mode}")
    for (p, x), (q, h, uq, uh) in sorted(pairs.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        m = hit[p] + hit[x]
        bird, bonus, total = pair_amount(ruleset, q, h, uq + uh, m, dealer == p or dealer == x)
        # the pair's money by reason, in the order paid: 起手胡, the win, 扎鸟, 庄闲
        if q:
            out.append(Transfer(payer=p, payee=x, amount=q, reason="qishou"))
        if h:
            out.append(Transfer(payer=p, payee=x, amount=h, reason="win"))
        if bird:
            out.append(Transfer(payer=p, payee=x, amount=bird, reason="bird"))
        if bonus:
            out.append(Transfer(payer=p, payee=x, amount=bonus, reason="dealer"))
        if explain and total:
            lines.append(f"seat {p} → seat {x}: A = Q {q} + H {h} = {q + h}; m = n({x}) + n({p}) = {m}, "
                         f"{bird_rules.describe(ruleset, m)} → +{bird}; 庄闲 +{bonus}; = {total}")
    if bao:
        for x, h in winners:
            for s in range(n):
                if s == x:
                    continue
                m = hit[s] + hit[x]
                _bird, _bonus, total = pair_amount(ruleset, 0, h, units_of(ruleset, h), m, dealer in (s, x))
                if total:
                    out.append(Transfer(payer=from_seat, payee=x, amount=total, reason="qianggang"))
                if explain:
                    lines.append(f"抢杠 包: seat {from_seat} pays seat {s}'s share to seat {x}: H {h}, m = {m}, "
                                 f"= {total}")
    if not explain:
        _remember(ruleset, key, out)
    return out, lines


#: The last hand :func:`derive` settled without its lines: (ruleset, inputs, transfers).
_last_derived: Optional[tuple] = None


def _remember(ruleset: Ruleset, key: tuple, out: list[Transfer]) -> None:
    global _last_derived
    _last_derived = (ruleset, key, tuple(out))


def _names(tiles: Sequence[int]) -> str:
    from schema.tiles import TILE_NAMES
    return " ".join(TILE_NAMES[t] for t in tiles)


def settle(ruleset: Ruleset, scores: Sequence[int], winners: Sequence[tuple[int, int]] = (),
           how: Optional[str] = None, from_seat: Optional[int] = None,
           facts: HandFacts = HandFacts(None, None), clamp: bool = True) -> Settlement:
    """Settle one hand (§10.5); no score floor."""
    dealer = facts.dealer if facts.dealer is not None else -1
    cf = _facts(facts)
    transfers, _ = derive(ruleset, len(scores), dealer, cf, winners, how, from_seat, explain=False)
    after = list(scores)
    for t in transfers:
        after[t.payer] -= t.amount
        after[t.payee] += t.amount
    return Settlement(transfers, after, False)


def derivation(ruleset: Ruleset, n: int, winners: Sequence[tuple[int, int]], how: Optional[str],
               from_seat: Optional[int], facts: HandFacts) -> list[str]:
    """``SettlementRules.derivation``: the corrected settlement, one line per pair."""
    dealer = facts.dealer if facts.dealer is not None else -1
    return derive(ruleset, n, dealer, _facts(facts), winners, how, from_seat)[1]


def explain_pair(ruleset: Ruleset, n: int, how: Optional[str], winners: Sequence[tuple[int, int]],
                 from_seat: Optional[int], facts: HandFacts, want: dict, have: dict) -> Optional[str]:
    """§10.6: the code of a wrong pair total (``want``/``have``: (payer, payee, reason) -> total).
    BIRD_MISMATCH when another bird count on the pair explains every wrong total;
    QISHOU_PAYMENT_MISMATCH when leaving out (or adding) the opening base does; else None
    (TRANSFER_MISMATCH)."""
    cf = _facts(facts)
    if cf.winners is not None:
        winners = cf.winners
    dealer = facts.dealer if facts.dealer is not None else -1
    bao = how == "robbed_kong" and bool(ruleset.qianggang_bao)
    if bao or not winners and not any(cf.openings):
        return None
    if any(k[2] not in PAIR_REASONS for k in set(want) | set(have)):
        return None  # another group's money (kongs): its own code
    wrong = {(p, x): have.get(k, 0) for k in set(want) | set(have) for p, x, _r in [k]
             if want.get(k, 0) != have.get(k, 0)}
    pairs = base_pairs(ruleset, n, cf.openings, winners, how, from_seat, cf.hows if cf.winners is not None else None)
    top = 2 * max(len(cf.birds), 1) + 1

    def explained(alter) -> bool:
        for (p, x), got in wrong.items():
            q, h, uq, uh = pairs.get((p, x), [0, 0, 0, 0])
            if not any(got == v for v in alter(p, x, q, h, uq, uh)):
                return False
        return True
    if explained(lambda p, x, q, h, uq, uh: [pair_amount(ruleset, q, h, uq + uh, m, dealer in (p, x))[2]
                                             for m in range(top)]):
        return "BIRD_MISMATCH"
    seats = [s for s, _ in winners]
    origin = cf.bird_origin if cf.bird_origin is not None else \
        bird_rules.origin_of(ruleset, dealer, seats, from_seat)
    hit = bird_rules.hits(cf.birds, origin, n) if seats else [0] * n
    qv = ruleset.qishou_value * ruleset.base
    if explained(lambda p, x, q, h, uq, uh: [
            pair_amount(ruleset, q2, h, u2 + uh, hit[p] + hit[x], dealer in (p, x))[2]
            for q2, u2 in ((0, 0), (q + qv, uq + 1), (max(q - qv, 0), max(uq - 1, 0)))]):
        return "QISHOU_PAYMENT_MISMATCH"
    return None


def transfer_code(how: Optional[str], code: str, expected=None, actual=None) -> str:
    """A kong transfer is never due (KONG_PAYMENT_UNDUE); other groups keep their code."""
    if code == "KONG_PAYMENT_MISMATCH":
        return "KONG_PAYMENT_UNDUE"
    return code


def undrawn(table) -> int:
    """R: the undrawn wall tiles."""
    return table.undrawn - len(table.tail)


def kong_emptied_wall(table) -> Optional[int]:
    """§3 rule 5: the seat whose kong took the wall's last tile, for a hand that ended with
    none left and no 海底 offer: the konger whose 开杠 reveal is still face up (nobody drew
    after it), or the seat that threw the last discard after its 补张 replacement; else None."""
    if undrawn(table) > 0 or table.sea_offers:
        return None
    if table.revealed and table.revealed_by is not None:
        return table.revealed_by
    if table.turn_draw == "tail" and table.last_discard is not None:
        return table.last_discard[0]
    return None


def dealer_after(ruleset: Ruleset, dealer: int, first: Optional[tuple], n: int = 4, table=None,
                 book=None) -> int:
    """§3: one winner deals; several winners at one moment (a discard, a robbing, a 开杠 reveal,
    the 海底): the seat that gave the tile; no win: the 海底 taker, or the first seat offered
    it when all declined, or the seat whose kong took the wall's last tile (its 补张 or 开杠,
    ``kong_emptied_wall``); otherwise (the hand ended at an illegal win) the dealer stays."""
    if book is not None and book.true:
        seats = sorted({s for s, _ in book.true})
        first = (seats, book.how, book.giver)
    elif book is not None and (first is not None or book.logged):
        return dealer  # the log's wins were none of them legal (§3 rule 6)
    if first is None or not first[0]:
        offers = table.sea_offers if table is not None else ()
        for seat, accepted in offers:
            if accepted:
                return seat
        if offers:
            return offers[0][0]
        emptied = kong_emptied_wall(table) if table is not None else None
        return emptied if emptied is not None else dealer
    seats, _how, from_seat = first
    if len(set(seats)) == 1:
        return seats[0]
    return from_seat if from_seat is not None else dealer


def game_over(ruleset: Ruleset, scores: Sequence[int]) -> bool:
    """No score floor: a game ends when the room closes."""
    return False


__all__ = ["ChangshaFacts", "explain_pair", "LABELS", "PAIR_REASONS", "base_pairs", "dealer_after", "derivation", "derive",
           "game_over", "kong_emptied_wall", "pair_amount", "settle", "transfer_code", "undrawn", "units_of"]
