"""Wenzhou fault classes for the fault injector (``paipu mutate``): each plants one thing a
server could get wrong in a clean simulated Wenzhou room and names the one finding the
audit must give.  Fans, points and settlements written around a fault are the family's
(:mod:`audits.rules.wenzhou`), so only the planted step is wrong.
"""

from __future__ import annotations

import msgspec

from audits.rules.wenzhou import play
from schema import events as ev
from schema.tiles import NUM_KINDS, TILE_INDEX, TILE_NAMES

from ..fault_kit import Fault, FaultBench, NotApplicable, _Ctx, _cut, _mk, hand_ruleset
from ..guangdong.faults import _settle_after, _settlement

_T = TILE_INDEX


def _room(ctx: _Ctx):
    r = ctx.before(1).table.ruleset
    if r is None or r.family != "wenzhou":
        raise NotApplicable("not a Wenzhou room")
    return r


def _wins(ctx: _Ctx, test=lambda i, e, t: True) -> list[int]:
    """HandWon indexes passing ``test(i, event, table before it)``."""
    _room(ctx)
    return [i for i, e, r in ctx.walk() if type(e) is ev.HandWon and test(i, e, r.table)]


def _starts(ctx: _Ctx) -> list[int]:
    _room(ctx)
    return [i for i, e in enumerate(ctx.events) if type(e) is ev.HandStarted and e.hand > 1]


def f_level_not_raised(ctx: _Ctx):
    """The dealer dealt again (连庄) at the same level: the level rises by one."""
    i = ctx.pick([i for i in _starts(ctx) if ctx.before(i).table.dealer == ctx.events[i].dealer
                  and 1 < ctx.events[i].dealer_level])
    e = ctx.events[i]
    return _cut(ctx, i, [msgspec.structs.replace(e, dealer_level=e.dealer_level - 1)], i)


def f_dealer_kept_after_others_won(ctx: _Ctx):
    """The dealer dealt again after another seat won (the 下家 deals, at level 1)."""
    cands = []
    for i in _wins(ctx, lambda i, e, t: t.dealer not in [x.seat for x in e.winners] and t.dealer_level < 4):
        nxt = next((k for k in range(i, len(ctx.events)) if type(ctx.events[k]) is ev.HandStarted), None)
        if nxt is not None:
            cands.append((nxt, ctx.before(i).table.dealer))
    i, dealer = ctx.pick(cands)
    return _cut(ctx, i, [msgspec.structs.replace(ctx.events[i], dealer=dealer)], i)


def f_level_base_missing(ctx: _Ctx):
    """A dealer pair paid at B instead of the level base D_L (a dealer at level 2 or more)."""
    def dealer_pair(i, e, t):
        return t.dealer_level >= 2 and t.ruleset.discard_payers == "all"
    i = ctx.pick(_wins(ctx, dealer_pair))
    e = ctx.events[i]
    w = e.winners[0]
    transfers = [ev.Transfer(payer=p, payee=w.seat, amount=w.points, reason="win") for p in range(4) if p != w.seat]
    base, _ = _settlement(_after(ctx, i), e, None)
    return _settle_after(ctx, i, e, transfers + [x for x in base.transfers if x.reason != "win"])


def _after(ctx: _Ctx, i: int):
    """The table with HandWon ``i`` applied."""
    r = ctx.before(i)
    r.apply(msgspec.structs.replace(ctx.events[i], seq=r.table.seq + 1))
    return r.table


def f_discarder_pays_all(ctx: _Ctx):
    """A discard win paid by the discarder alone (every loser pays, discard_payers = all)."""
    i = ctx.pick(_wins(ctx, lambda i, e, t: e.how == "discard" and t.ruleset.discard_payers == "all"))
    e = ctx.events[i]
    s, _ = _settlement(_after(ctx, i), e, None)
    total = sum(x.amount for x in s.transfers if x.reason == "win")
    rest = [x for x in s.transfers if x.reason != "win"]
    return _settle_after(ctx, i, e, [ev.Transfer(payer=e.from_seat, payee=e.winners[0].seat, amount=total,
                                                 reason="win"), *rest])


def f_soft_as_hard(ctx: _Ctx):
    """A 软 win (a 财神 standing in) logged and paid as 硬 (×2)."""
    i = ctx.pick(_wins(ctx, lambda i, e, t: e.winners[0].fans == ["ruanhu"]))
    e = ctx.events[i]
    w = msgspec.structs.replace(e.winners[0], fans=["yinghu"], fan=1, points=2 * e.winners[0].points)
    return _settle_after(ctx, i, msgspec.structs.replace(e, winners=[w]))


def f_points_doubled(ctx: _Ctx):
    """A winner's points logged as 2 × B × M (the fan right), and paid so."""
    i = ctx.pick(_wins(ctx))
    e = ctx.events[i]
    w = msgspec.structs.replace(e.winners[0], points=2 * e.winners[0].points)
    return _settle_after(ctx, i, msgspec.structs.replace(e, winners=[w]))


def f_kong_paid(ctx: _Ctx):
    """A kong paid for in a room without 杠算分 (kong_payments = none)."""
    i = ctx.pick(_wins(ctx, lambda i, e, t: t.ruleset.kong_payments == "none"))
    e = ctx.events[i]
    s, _ = _settlement(_after(ctx, i), e, None)
    w = e.winners[0].seat
    payer = (w + 1 + ctx.rng.randrange(3)) % 4
    return _settle_after(ctx, i, e, [*s.transfers, ev.Transfer(payer=payer, payee=w, amount=1, reason="kong")])


def f_caishen_money_missing(ctx: _Ctx):
    """财神钱 left out for a seat holding 财神 (caishenqian)."""
    def held(i, e, t):
        return t.ruleset.caishenqian and t.wild is not None and any(t.hands[s][t.wild] for s in range(4))
    i = ctx.pick(_wins(ctx, held))
    e = ctx.events[i]
    s, _ = _settlement(_after(ctx, i), e, None)
    seats = sorted({x.payee for x in s.transfers if x.reason == "caishen"})
    if not seats:
        raise NotApplicable("no 财神钱 due")
    drop = ctx.rng.choice(seats)
    return _settle_after(ctx, i, e, [x for x in s.transfers if not (x.reason == "caishen" and x.payee == drop)])


def _indicators(ctx: _Ctx) -> list[int]:
    _room(ctx)
    return [i for i, e in enumerate(ctx.events) if type(e) is ev.IndicatorTurned]


def f_wild_kind_next(ctx: _Ctx):
    """The 财神 logged as the kind after the indicator (the rule: the indicator's own kind)."""
    from audits.rules.wilds import next_kind
    i = ctx.pick(_indicators(ctx))
    e = ctx.events[i]
    return _cut(ctx, i, [msgspec.structs.replace(e, wild=TILE_NAMES[next_kind(_T[e.tile])])], i)


def f_indicator_missing(ctx: _Ctx):
    """A hand played without its turned indicator."""
    def plain_first_discard(i: int) -> bool:
        # the dealer's first discard, read without a 财神, keeps the discard order (the one fault planted)
        nxt = ctx.events[i + 1]
        if type(nxt) is not ev.TileDiscarded:
            return True
        t = ctx.before(i).table
        return play.honour_violation(t.ruleset, t.hands[nxt.seat], nxt.seat, _T[nxt.tile], None) is None
    i = ctx.pick([i for i in _indicators(ctx) if plain_first_discard(i)])
    nxt = ctx.events[i + 1]
    return _cut(ctx, i, [msgspec.structs.replace(nxt, seq=i)], i)


def f_caishen_discarded(ctx: _Ctx):
    """A 财神 discarded (a 财神 is never discarded)."""
    _room(ctx)
    cands = [(i, TILE_NAMES[r.table.wild]) for i, e, r in ctx.walk()
             if type(e) is ev.TileDiscarded and r.table.wild is not None and r.table.wild < NUM_KINDS
             and r.table.hands[e.seat][r.table.wild] >= 1]
    i, w = ctx.pick(cands)
    return _cut(ctx, i, [msgspec.structs.replace(ctx.events[i], tile=w)], i)


def f_caishen_in_pong(ctx: _Ctx):
    """A pong made with a 财神 as one of its own tiles (a 财神 is in no meld)."""
    _room(ctx)
    cands = []
    for i, e, r in ctx.walk():
        t = r.table
        if type(e) is ev.Ponged and t.wild is not None and t.hands[e.seat][t.wild] >= 1 and _T[e.tile] != t.wild:
            cands.append((i, TILE_NAMES[t.wild]))
    i, w = ctx.pick(cands)
    e = ctx.events[i]
    return _cut(ctx, i, [msgspec.structs.replace(e, tiles=[e.tiles[0], w])], i)


def f_honour_order_broken(ctx: _Ctx):
    """A suited tile discarded while the seat holds a single honour (honours first)."""
    _room(ctx)
    cands = []
    for i, e, r in ctx.walk():
        t = r.table
        if type(e) is not ev.TileDiscarded or t.wild is None or not t.ruleset.honour_first:
            continue
        rules = hand_ruleset(r)
        hand = t.hands[e.seat]
        if play.single_honours(rules, hand):
            others = [k for k in range(27) if hand[k] and k != t.wild
                      and play.honour_violation(rules, hand, e.seat, k, t.latest_discard) is not None]
            if others:
                cands.append((i, TILE_NAMES[ctx.rng.choice(others)]))
    i, tile = ctx.pick(cands)
    return _cut(ctx, i, [msgspec.structs.replace(ctx.events[i], tile=tile)], i)


def f_bet_without_maidi(ctx: _Ctx):
    """A 买底 bet in a room that does not play 买底."""
    rules = _room(ctx)
    if rules.maidi:
        raise NotApplicable("the room plays 买底")
    i = ctx.pick([i for i, e in enumerate(ctx.events) if type(e) is ev.HandStarted])
    bet = _mk(ev.PigBetPlaced, ctx.events[i], seat=ctx.rng.randrange(4), bet=1)
    ctx.events = ctx.events[:i + 1] + [bet] + ctx.events[i + 1:]
    return ctx.events, i + 1


ROWS = [
    ("wz_level_not_raised", "DEALER_ROTATION", "table", f_level_not_raised),
    ("wz_dealer_kept_after_others_won", "DEALER_ROTATION", "table", f_dealer_kept_after_others_won),
    ("wz_level_base_missing", "TRANSFER_MISMATCH", "scoring", f_level_base_missing),
    ("wz_discarder_pays_all", "TRANSFER_MISMATCH", "scoring", f_discarder_pays_all),
    ("wz_soft_as_hard", "FAN_MISMATCH", "scoring", f_soft_as_hard),
    ("wz_points_doubled", "POINTS_MISMATCH", "scoring", f_points_doubled),
    ("wz_kong_paid", "KONG_PAYMENT_UNDUE", "scoring", f_kong_paid),
    ("wz_caishen_money_missing", "CAISHEN_MONEY_MISMATCH", "scoring", f_caishen_money_missing),
    ("wz_wild_kind_next", "WILD_KIND_MISMATCH", "table", f_wild_kind_next),
    ("wz_indicator_missing", "WILD_INDICATOR_MISSING", "table", f_indicator_missing),
    ("wz_caishen_discarded", "SPECIAL_TILE_DISCARDED", "claims", f_caishen_discarded),
    ("wz_caishen_in_pong", "CLAIM_SPECIAL_TILE", "claims", f_caishen_in_pong),
    ("wz_honour_order_broken", "HONOUR_DISCARD_ORDER", "claims", f_honour_order_broken),
    ("wz_bet_without_maidi", "YANGZHU_BET_INVALID", "scoring", f_bet_without_maidi),
]

#: The Wenzhou fault classes by name.
FAULTS: dict[str, Fault] = {
    name: Fault(name, code, group, (fn.__doc__ or name).strip().splitlines()[0], fn, ("wenzhou",))
    for name, code, group, fn in ROWS
}

_ROOM = dict(preset="wenzhou", max_hands=8, fee=0)
#: Where ``bench/faults.py --family wenzhou`` plants the classes: these rooms in turn (the
#: 财神钱 room for its class, a logged wall for the indicator's place).
FAULT_BENCH = FaultBench(seed=3900, max_games=4000, rooms=(
    dict(_ROOM, options={}, include_wall=False), dict(_ROOM, options={}, include_wall=True),
    dict(_ROOM, options={"caishenqian": True}, include_wall=False)))
