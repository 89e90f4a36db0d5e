"""Changsha fault classes for the fault injector (``paipu mutate``): each plants one thing a
server could get wrong in a clean simulated Changsha room and names the one finding the
audit must give.  Money written around a fault is the family's (:mod:`audits.rules.changsha`),
so only the planted step is wrong; the room closes (dissolved) after the planted hand.
"""

from __future__ import annotations

from typing import Optional

import msgspec

from audits.rules.changsha import settlement as cs
from audits.rules.changsha.settlement import ChangshaFacts
from schema import events as ev
from schema.tiles import TILE_INDEX, TILE_NAMES

from ..fault_kit import Fault, FaultBench, NotApplicable, _Ctx, _cut, _mk

_T = TILE_INDEX


def _room(ctx: _Ctx):
    r = ctx.before(1).table.ruleset
    if r is None or r.family != "changsha":
        raise NotApplicable("not a Changsha room")
    return r


def _hands(ctx: _Ctx) -> list[tuple[int, int]]:
    """(HandStarted index, HandSettled index) of every settled hand."""
    _room(ctx)
    out, start = [], None
    for i, e in enumerate(ctx.events):
        if type(e) is ev.HandStarted:
            start = i
        elif type(e) is ev.HandSettled and start is not None:
            out.append((start, i))
    return out


def _moment(ctx: _Ctx, a: int, j: int) -> tuple[list[tuple[int, int]], Optional[str], Optional[int]]:
    """The winners (seat, points), how and giver of the hand between ``a`` and ``j``."""
    winners, how, giver = [], None, None
    for e in ctx.events[a:j]:
        if type(e) is ev.HandWon:
            winners += [(x.seat, x.points) for x in e.winners]
            how, giver = e.how, e.from_seat
    return winners, how, giver


def _facts(table, **change) -> ChangshaFacts:
    openings = [0] * 4
    for seat, names, _tiles in table.opening_wins:
        openings[seat] += len(names)
    cf = ChangshaFacts(tuple(openings), tuple(table.birds), table.bird_origin)
    return cf._replace(**change)


def _paid(ctx: _Ctx, a: int, j: int, **change) -> list[ev.Transfer]:
    """The hand's transfers by the family with some facts changed (no birds, no openings …)."""
    table = ctx.before(j).table
    winners, how, giver = _moment(ctx, a, j)
    return cs.derive(table.ruleset, 4, table.dealer, _facts(table, **change), winners, how, giver, explain=False)[0]


def _repaid(ctx: _Ctx, j: int, transfers: list[ev.Transfer], at: Optional[int] = None):
    """HandSettled ``j`` paying ``transfers`` (the scores follow), then the room closes."""
    before = ctx.before(j).table
    scores = list(before.scores)
    for t in transfers:
        scores[t.payer] -= t.amount
        scores[t.payee] += t.amount
    e = msgspec.structs.replace(ctx.events[j], transfers=list(transfers), scores=scores)
    return _cut(ctx, j, [e], j if at is None else at, scores)


def _totals(transfers) -> dict:
    out: dict = {}
    for t in transfers:
        out[(t.payer, t.payee)] = out.get((t.payer, t.payee), 0) + t.amount
    return out


def _named(ctx: _Ctx, a: int, j: int, transfers) -> Optional[str]:
    """The code the family names for a settlement that pays ``transfers`` (None: agrees)."""
    table = ctx.before(j).table
    winners, how, giver = _moment(ctx, a, j)
    from audits.rules.family import HandFacts
    want = {(p, x, "win"): v for (p, x), v in _totals(_paid(ctx, a, j)).items()}
    have = {(p, x, "win"): v for (p, x), v in _totals(transfers).items()}
    if want == have:
        return None
    got = cs.explain_pair(table.ruleset, 4, how, winners, giver, HandFacts(None, None, _facts(table), table.dealer),
                          want, have)
    return got or "TRANSFER_MISMATCH"


def _money_fault(ctx: _Ctx, code: str, **change):
    """A settlement paid with some facts changed, where the family names it ``code``."""
    cands = []
    for a, j in _hands(ctx):
        paid = _paid(ctx, a, j, **change)
        if _named(ctx, a, j, paid) == code:
            cands.append((j, paid))
    j, paid = ctx.pick(cands)
    return _repaid(ctx, j, paid)


def f_birds_ignored(ctx: _Ctx):
    """A won hand paid as if no bird had been drawn (扎鸟 left out of the money)."""
    return _money_fault(ctx, "BIRD_MISMATCH", birds=())


def f_qishou_unpaid(ctx: _Ctx):
    """The opening wins (起手胡) declared in a drawn hand left unpaid."""
    cands = []
    for a, j in _hands(ctx):
        table = ctx.before(j).table
        if table.opening_wins and not _moment(ctx, a, j)[0]:
            cands.append((j, _paid(ctx, a, j, openings=(0, 0, 0, 0))))
    j, paid = ctx.pick(cands)
    return _repaid(ctx, j, paid)


def f_dealer_bonus_missing(ctx: _Ctx):
    """The 庄闲 point left out of a won hand's pairs with the dealer."""
    cands = []
    for a, j in _hands(ctx):
        table = ctx.before(j).table
        if not _moment(ctx, a, j)[0]:
            continue
        rules = table.ruleset
        paid = cs.derive(msgspec.structs.replace(rules, dealer_bonus="none"), 4, table.dealer, _facts(table),
                         *_moment(ctx, a, j), explain=False)[0]
        if _named(ctx, a, j, paid) == "TRANSFER_MISMATCH":
            cands.append((j, paid))
    j, paid = ctx.pick(cands)
    return _repaid(ctx, j, paid)


def f_kong_paid(ctx: _Ctx):
    """A kong paid for (Changsha pays nothing for kongs, changsha.md §5.2)."""
    cands = [(a, j) for a, j in _hands(ctx) if any(type(e) in (ev.KongExposed, ev.KongAdded, ev.KongConcealed)
                                                  for e in ctx.events[a:j])]
    a, j = ctx.pick(cands)
    kong = next(e for e in ctx.events[a:j] if type(e) in (ev.KongExposed, ev.KongAdded, ev.KongConcealed))
    payer = (kong.seat + 1) % 4
    return _repaid(ctx, j, list(ctx.events[j].transfers) + [
        ev.Transfer(payer=payer, payee=kong.seat, amount=1, reason="kong")])


def f_bird_origin_wrong(ctx: _Ctx):
    """Birds counted from the wrong seat (and paid so) after a single winner's win."""
    cands = []
    for a, j in _hands(ctx):
        for i in range(a, j):
            e = ctx.events[i]
            if type(e) is ev.BirdsDrawn and e.source != "last":
                cands.append((a, i, j))
    a, i, j = ctx.pick(cands)
    e = ctx.events[i]
    wrong = (e.origin + 1 + ctx.rng.randrange(3)) % 4
    ctx.events[i] = msgspec.structs.replace(e, origin=wrong)
    table = ctx.before(j).table
    paid = _paid(ctx, a, j, bird_origin=wrong)
    del table
    return _repaid(ctx, j, paid, at=i)


def f_bird_short(ctx: _Ctx):
    """One bird fewer than the rules draw (and paid so)."""
    cands = []
    for a, j in _hands(ctx):
        for i in range(a, j):
            e = ctx.events[i]
            if type(e) is ev.BirdsDrawn and len(e.tiles) >= 2:
                cands.append((a, i, j))
    a, i, j = ctx.pick(cands)
    e = ctx.events[i]
    ctx.events[i] = msgspec.structs.replace(e, tiles=list(e.tiles[:-1]))
    paid = _paid(ctx, a, j, birds=tuple(_T[x] for x in e.tiles[:-1]))
    return _repaid(ctx, j, paid, at=i)


def f_qishou_late(ctx: _Ctx):
    """An opening win declared after the dealer's first action (the server paid nothing for it)."""
    cands = []
    for a, j in _hands(ctx):
        first = next((i for i in range(a, j) if type(ctx.events[i]) is ev.TileDiscarded), None)
        if first is not None:
            cands.append(first)
    i = ctx.pick(cands)
    r = ctx.before(i + 1)
    seat = (ctx.events[i].seat + 1) % 4
    shown = [TILE_NAMES[k] for k in range(27) for _ in range(r.table.hands[seat][k])]
    late = _mk(ev.OpeningWinDeclared, ctx.events[i], seat=seat, names=["qs_queyise"], tiles=shown)
    ctx.events = ctx.events[:i + 1] + [late] + ctx.events[i + 1:]
    return ctx.events, i + 1


def f_locked_discard(ctx: _Ctx):
    """A hand locked by its 开杠 throws a tile other than the one it drew.

    Not the 海底 taker's throw, which must be the 海底 tile anyway (SEA_BOTTOM_ORDER too)."""
    _room(ctx)
    cands = []
    locked: set = set()
    drawn: dict = {}
    sea = False
    for i, e in enumerate(ctx.events):
        t = type(e)
        if t is ev.HandStarted:
            locked, drawn, sea = set(), {}, False
        elif t is ev.KongRevealed:
            locked.add(e.seat)
        elif t is ev.LastTileOffered:
            sea = True
        elif t is ev.TileDrawn:
            drawn[e.seat] = e.tile
        elif t is ev.TileDiscarded and e.seat in locked and not sea:
            cands.append(i)
    i = ctx.pick(cands)
    e = ctx.events[i]
    hand = ctx.before(i).table.hands[e.seat]
    other = [TILE_NAMES[k] for k in range(27) if hand[k] and TILE_NAMES[k] != e.tile]
    if not other:
        raise NotApplicable("the locked hand holds nothing else")
    return _cut(ctx, i, [msgspec.structs.replace(e, tile=ctx.rng.choice(other))], i)


def _sea_hands(ctx: _Ctx, first_accepted: bool) -> list[tuple[int, int, int]]:
    """(first offer index, its hand's start, settlement) of hands whose 海底 was taken and not
    won on, the first offer accepted (or declined)."""
    out = []
    for a, j in _hands(ctx):
        offers = [i for i in range(a, j) if type(ctx.events[i]) is ev.LastTileOffered]
        won = any(type(e) is ev.HandWon for e in ctx.events[a:j])
        if offers and not won and any(ctx.events[i].accepted for i in offers) \
                and ctx.events[offers[0]].accepted == first_accepted:
            out.append((offers[0], a, j))
    return out


def f_sea_no_offer(ctx: _Ctx):
    """The last tile (海底) drawn without offering it."""
    i, _a, j = ctx.pick(_sea_hands(ctx, True))
    events = ctx.events[:i] + ctx.events[i + 1:j + 1]
    ctx.events = events + ctx.events[j + 1:]
    return _cut(ctx, j, [], i)


def f_sea_out_of_order(ctx: _Ctx):
    """The 海底 offered first to another seat than the one due to draw."""
    i, _a, j = ctx.pick(_sea_hands(ctx, False))
    ctx.events = ctx.events[:i] + ctx.events[i + 1:]
    return _cut(ctx, j, [], i)


def f_haidi_not_counted(ctx: _Ctx):
    """A 海底捞月 / 海底炮 win logged (and paid) without its unit."""
    cands = []
    for a, j in _hands(ctx):
        for i in range(a, j):
            e = ctx.events[i]
            if type(e) is ev.HandWon and len(e.winners) == 1 and \
                    any(f in ("haidi", "haidi_pao") for f in e.winners[0].fans):
                cands.append((a, i, j))
    a, i, j = ctx.pick(cands)
    e = ctx.events[i]
    w = e.winners[0]
    fans = [f for f in w.fans if f not in ("haidi", "haidi_pao")] or ["jihu"]
    fan = w.fan - 1
    from audits.rules.changsha.fans import hand_base
    table = ctx.before(i).table
    w2 = msgspec.structs.replace(w, fans=fans, fan=fan, points=hand_base(table.ruleset, fan, e.how))
    ctx.events[i] = msgspec.structs.replace(e, winners=[w2])
    return _repaid(ctx, j, _paid(ctx, a, j), at=i)


def f_points_doubled(ctx: _Ctx):
    """A winner's points logged as twice H (and paid so)."""
    cands = [(a, i, j) for a, j in _hands(ctx) for i in range(a, j)
             if type(ctx.events[i]) is ev.HandWon and len(ctx.events[i].winners) == 1]
    a, i, j = ctx.pick(cands)
    e = ctx.events[i]
    w = msgspec.structs.replace(e.winners[0], points=2 * e.winners[0].points)
    ctx.events[i] = msgspec.structs.replace(e, winners=[w])
    return _repaid(ctx, j, _paid(ctx, a, j), at=i)


def f_dealer_kept_after_others_won(ctx: _Ctx):
    """The dealer dealt again after another seat alone won (the winner deals)."""
    cands = []
    for a, j in _hands(ctx):
        winners, _how, _giver = _moment(ctx, a, j)
        seats = {s for s, _ in winners}
        dealer = ctx.events[a].dealer
        nxt = next((k for k in range(j, len(ctx.events)) if type(ctx.events[k]) is ev.HandStarted), None)
        if len(seats) == 1 and dealer not in seats and nxt is not None:
            cands.append((nxt, dealer))
    i, dealer = ctx.pick(cands)
    return _cut(ctx, i, [msgspec.structs.replace(ctx.events[i], dealer=dealer)], i)


ROWS = [
    ("cs_birds_ignored", "BIRD_MISMATCH", "scoring", f_birds_ignored),
    ("cs_qishou_unpaid", "QISHOU_PAYMENT_MISMATCH", "scoring", f_qishou_unpaid),
    ("cs_dealer_bonus_missing", "TRANSFER_MISMATCH", "scoring", f_dealer_bonus_missing),
    ("cs_kong_paid", "KONG_PAYMENT_UNDUE", "scoring", f_kong_paid),
    ("cs_bird_origin_wrong", "BIRD_TILES_WRONG", "table", f_bird_origin_wrong),
    ("cs_bird_short", "BIRD_TILES_WRONG", "table", f_bird_short),
    ("cs_qishou_late", "QISHOU_INVALID", "wins", f_qishou_late),
    ("cs_locked_discard", "KAIGANG_HAND_LOCKED", "claims", f_locked_discard),
    ("cs_sea_no_offer", "SEA_BOTTOM_ORDER", "table", f_sea_no_offer),
    ("cs_sea_out_of_order", "SEA_BOTTOM_ORDER", "table", f_sea_out_of_order),
    ("cs_haidi_not_counted", "FAN_MISMATCH", "scoring", f_haidi_not_counted),
    ("cs_points_doubled", "POINTS_MISMATCH", "scoring", f_points_doubled),
    ("cs_dealer_kept_after_others_won", "DEALER_ROTATION", "table", f_dealer_kept_after_others_won),
]

#: The Changsha fault classes by name.
FAULTS: dict[str, Fault] = {
    name: Fault(name, code, group, (fn.__doc__ or name).strip().splitlines()[0], fn, ("changsha",))
    for name, code, group, fn in ROWS
}

_ROOM = dict(preset="changsha", max_hands=8, fee=0)
#: Where ``bench/faults.py --family changsha`` plants the classes: these rooms in turn.
FAULT_BENCH = FaultBench(seed=4200, max_games=4000, rooms=(
    dict(_ROOM, options={}, include_wall=False), dict(_ROOM, options={}, include_wall=True),
    dict(_ROOM, options={"bird_mode": "double"}, include_wall=False)))
