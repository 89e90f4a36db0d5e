"""Wuhan settlement (wuhan.md §9.2–§9.7), the win context read from the table, and dealer
rotation (§4).

The money of a win is the score's (:mod:`.fans`, :mod:`.money`): each paying seat's share
after the cap, and the 包 liability.  The family keeps a small memory of the hand
(:class:`Book`, ``OwnRules.hand_book``): at the HandWon it records the logged winners and
the scores the audit made, so that :func:`settle` can pay

* the **logged** settlement (step-wise: the transfers against the amounts the log states
  per payer, ``Winner.payers``, with the liable seat the rules name), and
* the **corrected** one (the family's own shares for every legal winner).

Transfers go under reason ``win``, or the 包 case's (``bao_sanpu``, ``bao_quanqiuren``,
``qianggang``) from the liable seat for the whole sum.  A drawn hand has none.
"""

from __future__ import annotations

from typing import Optional, Sequence

from schema import events as ev
from schema.events import Transfer
from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX

from ..family import HandFacts, Settlement, Violation, WinHow
from . import claims, laizi, money, wins
from .fans import WuhanContext
from .money import BAO_REASONS, SeatFan, Win

LABELS = {"win": "pays", "bao_sanpu": "pays all (放三铺 包)", "bao_quanqiuren": "pays all (全求人 包)",
          "qianggang": "pays all (抢杠 包)"}


class Book:
    """The family's memory of one hand: the logged HandWon and each winner's score."""

    __slots__ = ("won", "scores", "lines", "true")

    def __init__(self) -> None:
        self.won: Optional[ev.HandWon] = None
        self.scores: dict = {}
        self.lines: list[str] = []
        #: the legal winners of the hand's winning moment (the corrected ledger's), or None
        #: before a HandWon
        self.true: Optional[list[tuple[int, int]]] = None


def hand_book(ruleset: Ruleset, n: int, dealer: int) -> Book:
    return Book()


def observe(ruleset: Ruleset, table, event, book: Book, ctx, after: bool) -> list:
    """Before a HandWon of several winners whose 起胡 rests on the paying seats: settle who
    wins legally (:func:`legal_winners`).  After it: keep the logged winners and the audit's
    scores (the corrected ledger's winner under 一炮单响 may be a declarer the log did not
    pay: scored here)."""
    if type(event) is not ev.HandWon or book is None or not after:
        return []
    book.won = event
    if book.true is None:
        book.true = list(ctx.true_winners)
    for x, sc in zip(event.winners, ctx.won_scores):
        if sc is not None:
            book.scores[x.seat] = sc
            if x.payers and getattr(sc, "wins", False):
                _check_breakdown(ruleset, ctx, event, x, sc)
    for seat, _p in ctx.true_winners:
        if seat not in book.scores:
            book.scores[seat] = ctx.score(seat, ev_tile(event), event.how)
    if ctx.explained is not None:
        # --explain and the report: each logged winner's derivation is printed under that winner;
        # the settlement adds only a corrected winner the log did not name (一炮单响), or that
        # no win was legal
        logged = {x.seat for x in event.winners}
        book.lines = [f"seat {seat}: {line}" for seat, _ in ctx.true_winners if seat not in logged
                      for line in getattr(book.scores.get(seat), "steps", [])]
        if not ctx.true_winners:
            book.lines = ["no legal win: no transfers"]
    return []


def _named_shares(ruleset: Ruleset, winner, sc) -> Optional[list]:
    """The shares of the legal reading the log names (§9.6: readings that tie give the same
    money, and the names may follow any of them; a 屁胡 and a 大胡 reading differ in the dealer
    fan and the 放冲 fan), or None when the named reading pays otherwise (the names' own
    finding, FAN_MISMATCH / FAN_NAMES_DIFFER, is the one error)."""
    named = set(winner.fans)
    if named == set(sc.fans):
        return list(sc.shares)
    if sc.derive is None or sc.win is None:
        return None
    _rules, best, fans_of, dealer = sc.derive[:4]
    big = tuple(n for n in winner.fans if n not in ("jihu", "yinghu"))
    moment = next((n for n in big if n in money.MOMENTS), None)
    win = Win(best.seat, best.how, best.from_seat, len(big), big, "yinghu" in named, moment)
    paying = {x.seat for x in sc.shares}
    others = frozenset(s for s in range(len(fans_of)) if s != best.seat and s not in paying)
    out, _fw, _cap = money.shares(ruleset, win, fans_of, dealer, others)
    return out if sum(x.amount for x in out) == sc.total else None


def _check_breakdown(ruleset: Ruleset, ctx, event: ev.HandWon, winner, sc) -> None:
    """§13: each paying seat's logged F_l (FAN_MISMATCH) and uncapped multiple M_l
    (POINTS_MISMATCH) are the rules', where its amount is right (a wrong amount is the
    shared per-payer POINTS_MISMATCH: one error, one finding)."""
    want = _named_shares(ruleset, winner, sc)
    if want is None:
        return
    by_seat = {x.seat: x for x in want}
    for p in winner.payers:
        w = by_seat.get(p.seat)
        if w is None or p.amount != w.amount:
            continue
        if p.fan != w.fan:
            ctx.find("FAN_MISMATCH", event, seat=winner.seat, expected=w.fan, actual=p.fan,
                     message=f"seat {p.seat} pays seat {winner.seat} with F_l = {w.fan}, not {p.fan} (§8)")
        elif p.multiple != w.multiple:
            ctx.find("POINTS_MISMATCH", event, seat=winner.seat, expected=w.multiple, actual=p.multiple,
                     message=f"seat {p.seat}'s multiple M_l is {w.multiple}, not {p.multiple} (§9.1)")


def ev_tile(event) -> int:
    return TILE_INDEX[event.tile]


# --- 一炮多响 and 起胡 ---------------------------------------------------------------------

def co_winners_matter(ruleset: Ruleset, event: ev.HandWon) -> bool:
    """Whether a winner's money or legality depends on who else won the tile: several winners
    on one discard or robbed kong (一炮多响, ``multi_win``).  The seats that won do not pay it
    (§5.1, §10), so they are no basis of 起胡 under ``qihu_basis = min`` (§9.4), and with
    fewer than three paying seats there is no 金顶 / 哈顶 (§9.3): the cap applies."""
    return bool(ruleset.multi_win and event.how != "self_draw" and len(event.winners) > 1)


def legal_winners(ruleset: Ruleset, event: ev.HandWon, wins_alone) -> Optional[frozenset]:
    """``WinRules.legal_winners``: the declarers of a 一炮多响 that win legally (§5.1, §9.4),
    each judged alone (``wins_alone(seat, co_winners)``) against the room's 起胡 on the seats
    that pay it; None where the others do not matter (:func:`co_winners_matter`).  A declarer
    whose win fails is no winner and pays the others like any seat, so its multiple joins
    their basis (and its seat their count for 金顶): judged again until none more fails
    (each round only removes winners)."""
    if not co_winners_matter(ruleset, event):
        return None
    legal = frozenset(x.seat for x in event.winners if 0 <= x.seat < ruleset.players)
    while True:
        now = frozenset(s for s in legal if wins_alone(s, legal - {s}))
        if now == legal:
            return legal
        legal = now


# --- the win context: what a score needs from the table -----------------------------------

#: the last table moment asked and its fans: (ruleset, table, game, hand, seq, robbed, fans) — a
#: win is scored several times at one moment (the single-winner order, the score, the names)
_LAST_FANS: list = [None, None, None, None, None, None, ()]


def seat_fans(ruleset: Ruleset, table, robbed: Optional[tuple[int, int]] = None) -> tuple[SeatFan, ...]:
    """Every seat's fan sources (§8.1): calls, 明杠, 暗杠, 痞 tiles and 癞子 set aside (or
    wrongly discarded: the one finding keeps its 番, §5.3).  ``robbed``: (adder, tile) of a
    robbed added kong, which stays a pong (no 明杠).  Kept for the table's moment (its seq)."""
    last = _LAST_FANS
    if last[1] is table and last[0] is ruleset and last[4] == table.seq and last[5] == robbed \
            and last[2] == table.game and last[3] == table.hand:
        return last[6]
    got = _seat_fans(ruleset, table, robbed)
    last[:] = (ruleset, table, table.game, table.hand, table.seq, robbed, got)
    return got


def _seat_fans(ruleset: Ruleset, table, robbed: Optional[tuple[int, int]]) -> tuple[SeatFan, ...]:
    pis = laizi.pi_kinds(ruleset)
    w = laizi.wild(ruleset)
    out = []
    for s in range(len(table.players)):
        calls = mg = ag = 0
        for m in table.melds[s]:
            if m.from_seat is not None:
                calls += 1
            if m.kind in ("kong_exposed", "kong_added"):
                mg += 1
            elif m.kind == "kong_concealed":
                ag += 1
        if robbed is not None and robbed[0] == s and any(m.kind == "kong_added" and m.of == robbed[1]
                                                         for m in table.melds[s]):
            mg -= 1
        gone = list(table.set_aside[s]) + [d[0] for d in table.discards[s] if d[0] in pis or d[0] == w]
        out.append(SeatFan(calls, mg, ag, sum(1 for t in gone if t in pis), sum(1 for t in gone if t == w)))
    return tuple(out)


def third_feeder(table, seat: int) -> Optional[int]:
    """The seat whose discard ``seat`` claimed in its third call (放三铺), or None."""
    fed = [f for c, f, _k, _t in table.fed if c == seat]
    return fed[2] if len(fed) >= 3 else None


_READY: dict = {}


def ready(ruleset: Ruleset, table, seat: int) -> bool:
    """全求人 包's ready test (§9.5 b): some non-痞 kind t would make the seat's hand a legal
    self-draw win (§7, no 起胡).  A hand the superset test (:func:`.wins.seat_waits`) finds
    waiting on nothing is not ready; the answer is kept per hand (a win is scored several
    times: the single-winner order, the score, the names)."""
    hand = table.hands[seat]
    melds = table.melds[seat]
    key = (id(ruleset), tuple(hand), tuple(melds), table.indicator)
    got = _READY.get(key)
    if got is not None and got[0] is ruleset:
        return got[1]
    answer = _ready(ruleset, hand, melds, table.indicator, table.held[seat])
    if len(_READY) > 1024:
        _READY.clear()
    _READY[key] = (ruleset, answer)
    return answer


def _ready(ruleset: Ruleset, hand, melds, indicator, held: int) -> bool:
    if not wins.seat_waits(ruleset, hand, None, held, melds):
        return False
    pis = laizi.pi_kinds(ruleset)
    for t in range(laizi.NUM_KINDS):
        if t in pis:
            continue
        c = list(hand)
        c[t] += 1
        if wins.could_win(ruleset, c, melds, indicator, big_by_moment=False):
            return True
    return False


#: the last context made: (key, table, ruleset, context) — a win is scored several times at one
#: moment of the table (the single-winner order, the score, the names)
_LAST_CONTEXT: list = [None, None, None, None]


def win_context(ruleset: Ruleset, table, seat: int, how: str, tile: Optional[int], after_kong: bool,
                kong_discard: bool, winners: int = 1) -> WuhanContext:
    """``WinRules.win_context``: the table facts of a Wuhan score (the table before the win);
    kept for the table's moment (its seq)."""
    key = (table.game, table.hand, table.seq, seat, how, tile, after_kong, kong_discard, winners)
    last = _LAST_CONTEXT
    if last[1] is table and last[2] is ruleset and last[0] == key:
        return last[3]
    got = _win_context(ruleset, table, seat, how, tile, after_kong, kong_discard, winners)
    last[:] = (key, table, ruleset, got)
    return got


def _win_context(ruleset: Ruleset, table, seat: int, how: str, tile: Optional[int], after_kong: bool,
                 kong_discard: bool, winners: int) -> WuhanContext:
    from_seat = None
    if how == "discard" and table.last_discard is not None:
        from_seat = table.last_discard[0]
    elif how == "discard" and table.last_won is not None and table.last_won[0] == "discard":
        # asked once the win has taken the discard (a declarer the log left out of the winners)
        from_seat = table.last_won[1]
    elif how == "robbed_kong":
        from_seat = table.pending_kong if table.pending_kong is not None else table.turn
    robbed = (from_seat, tile) if how == "robbed_kong" and from_seat is not None else None
    d_before = claims.drawable(ruleset, table) + 1
    if ruleset.haidi == "last_four":
        haidi = how == "self_draw" and not after_kong and 1 <= d_before <= 4
    else:
        haidi = how == "self_draw" and not after_kong and d_before == 1
    melds = table.melds[seat]
    ready_ = None
    if how == "discard" and from_seat is not None and ruleset.quanqiuren_bao == "if_not_ready" \
            and table.held[seat] == 1 and sum(1 for m in melds if m.from_seat is not None) >= 4:
        ready_ = ready(ruleset, table, from_seat)
    return WuhanContext(how=how, win_tile=tile, after_kong=after_kong, kong_discard=kong_discard, winners=winners,
                        seat=seat, from_seat=from_seat, dealer=table.dealer, indicator=table.indicator,
                        seat_fans=seat_fans(ruleset, table, robbed), haidi_draw=haidi,
                        third_feeder=third_feeder(table, seat), feeder_ready=ready_)


def request_context(ruleset: Ruleset, ctx, req) -> WuhanContext:
    """``WinRules.request_context`` (``paipu hand``): the request's ``seat`` (default 0),
    ``from_seat`` (default the seat before it), ``dealer``, ``indicator``, and its ``context``:
    ``seat_fans`` (per seat [calls, 明杠, 暗杠, 红中杠, 癞子杠]; without it the winner's from its
    melds and the others none), ``haidi``, ``third_feeder``, ``feeder_ready``."""
    from dataclasses import asdict
    extra = dict(req.get("context") or {})
    unknown = set(extra) - {"seat_fans", "haidi", "third_feeder", "feeder_ready"}
    if unknown:
        raise ValueError(f"unknown context {', '.join(sorted(unknown))}")
    seat = int(req.get("seat") or 0)
    frm = req.get("from_seat")
    if ctx.how != "self_draw" and frm is None:
        frm = (seat - 1) % ruleset.players
    fans = extra.get("seat_fans")
    seat_fans_ = tuple(SeatFan(*[int(x) for x in f]) for f in fans) if fans else ()
    indicator = req.get("indicator")
    base = asdict(ctx)
    return WuhanContext(**base, seat=seat, from_seat=None if frm is None else int(frm),
                        dealer=int(req["dealer"]) if req.get("dealer") is not None else -1,
                        indicator=TILE_INDEX[indicator] if indicator else None, seat_fans=seat_fans_,
                        haidi_draw=bool(extra.get("haidi")), third_feeder=extra.get("third_feeder"),
                        feeder_ready=extra.get("feeder_ready"))


def request_of(ruleset: Ruleset, ctx) -> dict:
    """``WinRules.request_of``: the request facts ``request_context`` reads back into ``ctx``
    (the winner's ``seat``, ``from_seat``, ``dealer`` and the ``context`` table facts); the
    hand's indicator is the neutral request's."""
    if not isinstance(ctx, WuhanContext):
        return {}
    out: dict = {"seat": ctx.seat}
    if ctx.from_seat is not None:
        out["from_seat"] = ctx.from_seat
    if ctx.dealer >= 0:
        out["dealer"] = ctx.dealer
    extra: dict = {}
    if ctx.seat_fans:
        extra["seat_fans"] = [list(f) for f in ctx.seat_fans]
    if ctx.haidi_draw:
        extra["haidi"] = True
    if ctx.third_feeder is not None:
        extra["third_feeder"] = ctx.third_feeder
    if ctx.feeder_ready is not None:
        extra["feeder_ready"] = ctx.feeder_ready
    if extra:
        out["context"] = extra
    return out


def score_transfers(ruleset: Ruleset, score) -> list[Transfer]:
    """``SettlementRules.score_transfers``: a scored win's transfers (each share, or the liable
    seat for all)."""
    if not getattr(score, "wins", False) or score.win is None:
        return []
    return transfers_of(score.win.seat, [(x.seat, x.amount) for x in score.shares], score.liable)


# --- the settlement ------------------------------------------------------------------------

def transfers_of(winner: int, amounts: Sequence[tuple[int, int]], liable: Optional[tuple[int, str]],
                 skip: Sequence[int] = ()) -> list[Transfer]:
    """One winner's transfers: each payer's amount under ``win``, or the liable seat paying the
    sum under its case's reason (§9.5, §9.7).  ``skip``: seats that won the same tile."""
    amounts = [(s, a) for s, a in amounts if s not in skip and s != winner]
    if liable is not None:
        total = sum(a for _, a in amounts)
        return [Transfer(payer=liable[0], payee=winner, amount=total, reason=liable[1])] if total else []
    return [Transfer(payer=s, payee=winner, amount=a, reason="win") for s, a in amounts if a]


def _logged_amounts(winner) -> Optional[list[tuple[int, int]]]:
    payers = getattr(winner, "payers", None)
    if not payers:
        return None
    return [(p.seat, p.amount) for p in payers]


def settle(ruleset: Ruleset, scores: Sequence[int], winners: Sequence[tuple[int, int]] = (),
           how: Optional[WinHow] = None, from_seat: Optional[int] = None,
           facts: HandFacts = HandFacts(None, None), clamp: bool = True) -> Settlement:
    """Settle one hand (§9): ``facts.extra`` = (:class:`Book`, corrected).  The logged
    settlement pays the amounts the log states per payer; the corrected one the family's."""
    book, corrected = facts.extra if isinstance(facts.extra, tuple) else (None, True)
    out: list[Transfer] = []
    seats = [s for s, _ in winners]
    logged = {x.seat: x for x in book.won.winners} if book is not None and book.won is not None else {}
    for seat, _p in winners:
        sc = book.scores.get(seat) if book is not None else None
        legal = sc is not None and getattr(sc, "wins", False)
        amounts = [(x.seat, x.amount) for x in sc.shares] if legal else []
        if not corrected and seat in logged:
            # step-wise: the amounts the log states per payer, paid as the rules route them
            amounts = _logged_amounts(logged[seat]) or amounts
        elif not legal:
            continue
        out += transfers_of(seat, amounts, sc.liable if legal else None, [s for s in seats if s != seat])
    after = list(scores)
    for t in out:
        after[t.payer] -= t.amount
        after[t.payee] += t.amount
    return Settlement(out, after, False)


def derivation(ruleset: Ruleset, n: int, winners: Sequence[tuple[int, int]], how: Optional[WinHow],
               from_seat: Optional[int], facts: HandFacts) -> list[str]:
    """``SettlementRules.derivation``: each legal winner's derivation (the score's steps)."""
    book = facts.extra[0] if isinstance(facts.extra, tuple) else None
    if not winners or book is None:
        return ["黄庄 or no legal win: no transfers"]
    lines = []
    for seat, _ in winners:
        sc = book.scores.get(seat)
        if sc is not None:
            lines += [f"seat {seat}: {line}" for line in sc.steps]
    return lines


def payer_points(ruleset: Ruleset, winner, score, facts: HandFacts) -> dict[int, int]:
    """``ScoringRules.payer_points``: each logged payer's amount under the rules (§9.1, §9.3)."""
    if score is None or not getattr(score, "wins", False):
        return {}
    return {x.seat: x.amount for x in score.shares}


def transfer_code(how: Optional[str], code: str, expected=None, actual=None) -> str:
    """A wrong or missing liability is BAO_PAYER, a 包 transfer where none is due BAO_UNDUE, a
    robbing not paid wholly by the adder QIANGGANG_PAYER."""
    expected = expected or {}
    actual = actual or {}
    if any(r in BAO_REASONS for _, _, r in expected):
        return "BAO_PAYER"
    if any(r in BAO_REASONS for _, _, r in actual):
        return "BAO_UNDUE"
    if any(r == "qianggang" for _, _, r in expected):
        return "QIANGGANG_PAYER"
    return code


def hand_facts(ruleset: Ruleset, received, bets: Sequence[int]) -> HandFacts:
    return HandFacts(None, None)


def table_facts(ruleset: Ruleset, table, won=None) -> HandFacts:
    return HandFacts(None, None, None, table.dealer)


def dealer_after(ruleset: Ruleset, dealer: int, first: Optional[tuple], n: int = 4, table=None,
                 book: Optional[Book] = None) -> int:
    """坐庄 (§4): after 黄庄 the dealer stays; after a win, ``rotate``: the dealer stays when among
    the winners, else its 下家 deals; ``winner``: the first winner in turn order from the
    discarder's (adder's) 下家 deals.  The winners are the legal ones (the audit's ``book``):
    a hand ended by no legal win counts as 黄庄 (§4, §9.7), and under 一炮单响 the first legal
    declarer is the winner whichever declarer the log paid."""
    if book is not None and book.won is not None and first is not None:
        true = sorted({s for s, _ in book.true or ()})
        first = (true, book.won.how, book.won.from_seat) if true else None
    if first is None or not first[0]:
        return dealer
    seats, how, from_seat = first
    if ruleset.win_dealer == "winner":
        if how == "self_draw" or from_seat is None:
            return seats[0]
        return next(s for s in ((from_seat + k) % n for k in range(1, n)) if s in seats)
    return dealer if dealer in seats else (dealer + 1) % n


def check_bet(ruleset: Ruleset, bet: int, placed_before: bool, dealt: bool):
    return Violation("YANGZHU_BET_INVALID", "漂 bets are not part of this ruleset (§10)", "no bet", bet)


def game_over(ruleset: Ruleset, scores: Sequence[int]) -> bool:
    """No score floor: a game ends when the room closes."""
    return False


__all__ = ["Book", "LABELS", "check_bet", "co_winners_matter", "dealer_after", "derivation",
           "game_over", "hand_book", "hand_facts", "legal_winners", "observe", "payer_points", "ready",
           "request_context", "request_of", "score_transfers", "seat_fans", "settle", "table_facts",
           "third_feeder", "transfer_code", "transfers_of", "win_context"]
