"""Xuzhou fault classes for the fault injector (``paipu mutate``): each plants one thing a
server could get wrong in a clean simulated Xuzhou room and names the one finding the
audit must give.  Fans, points and settlements written around a fault are the family's
(:mod:`audits.rules.xuzhou`), so only the planted step is wrong.
"""

from __future__ import annotations

import msgspec

from audits.rules.xuzhou import pei, settlement
from schema import events as ev
from schema.tiles import TILE_INDEX, TILE_NAMES

from ..fault_kit import Fault, FaultBench, NotApplicable, _Ctx, _cut, _mk, hand_ruleset
from ..guangdong.faults import _settle_after, _settlement  # the same rewrites: a hand re-settled

_T = TILE_INDEX


def _room(ctx: _Ctx):
    r = ctx.before(1).table.ruleset
    if r is None or r.family != "xuzhou":
        raise NotApplicable("not a Xuzhou room")
    return r


def _wins(ctx: _Ctx, test=lambda i, e, t: True) -> list[int]:
    """HandWon indexes passing ``test(i, event, table before it)``."""
    _room(ctx)
    out = []
    for i, e in enumerate(ctx.events):
        if type(e) is ev.HandWon and test(i, e, ctx.before(i).table):
            out.append(i)
    return out


def _resettled(ctx: _Ctx, i: int, dealer: int) -> tuple[list, int]:
    """HandWon ``i`` paid as if ``dealer`` dealt the hand (a wrong 坐庄 bonus)."""
    e = ctx.events[i]
    table = ctx.before(i).table
    rules = table.ruleset
    bets = list(table.bets) if rules.xiazui != "off" else None
    transfers, _ = settlement.derive(rules, 4, [(x.seat, x.points) for x in e.winners], e.how, e.from_seat,
                                     dealer, bets)
    return _settle_after(ctx, i, e, transfers)


def f_dealer_bonus_missing(ctx: _Ctx):
    """The 坐庄 bonus left out of a payment the dealer makes or receives."""
    i = ctx.pick(_wins(ctx, lambda i, e, t: t.ruleset.dealer_bonus != "none" and (
        e.how == "self_draw" or t.dealer in [x.seat for x in e.winners] or e.from_seat == t.dealer)))
    return _resettled(ctx, i, -1)


def f_dealer_bonus_undue(ctx: _Ctx):
    """A 坐庄 bonus paid on a discard win neither made nor won by the dealer."""
    def plain(i, e, t):
        return t.ruleset.dealer_bonus != "none" and e.how != "self_draw" and e.from_seat != t.dealer \
            and t.dealer not in [x.seat for x in e.winners]
    i = ctx.pick(_wins(ctx, plain))
    return _resettled(ctx, i, ctx.events[i].from_seat)


def f_fan_counted(ctx: _Ctx):
    """A fan logged for a win (不计番: every win is worth 0 fan)."""
    i = ctx.pick(_wins(ctx, lambda i, e, t: len(e.winners) == 1))
    e = ctx.events[i]
    w = msgspec.structs.replace(e.winners[0], fan=2 if "qidui" in e.winners[0].fans else 1)
    return _settle_after(ctx, i, msgspec.structs.replace(e, winners=[w, *e.winners[1:]]))


def f_points_doubled(ctx: _Ctx):
    """A winner's points logged as 2 × U × B (and paid so)."""
    i = ctx.pick(_wins(ctx, lambda i, e, t: len(e.winners) == 1))
    e = ctx.events[i]
    w = msgspec.structs.replace(e.winners[0], points=2 * e.winners[0].points)
    return _settle_after(ctx, i, msgspec.structs.replace(e, winners=[w]))


def f_self_draw_one_payer(ctx: _Ctx):
    """A self-draw paid by one seat only (as if won on its discard)."""
    i = ctx.pick(_wins(ctx, lambda i, e, t: e.how == "self_draw"))
    e = ctx.events[i]
    table = ctx.before(i).table
    w = e.winners[0]
    payer = (w.seat + 1 + ctx.rng.randrange(3)) % 4
    amount, _ = settlement.dealer_part(table.ruleset, w.points, table.dealer in (payer, w.seat))
    return _settle_after(ctx, i, e, [ev.Transfer(payer=payer, payee=w.seat, amount=amount, reason="win")])


def f_kong_paid(ctx: _Ctx):
    """A kong paid for (kongs pay nothing, xuzhou.md §8.5)."""
    i = ctx.pick(_wins(ctx, lambda i, e, t: len(e.winners) == 1))
    e = ctx.events[i]
    r = ctx.before(i)
    table = r.table
    r.apply(msgspec.structs.replace(e, seq=table.seq + 1))
    s, _ = _settlement(table, e, None)
    w = e.winners[0].seat
    payer = (w + 1 + ctx.rng.randrange(3)) % 4
    return _settle_after(ctx, i, e, [*s.transfers, ev.Transfer(payer=payer, payee=w, amount=table.ruleset.base,
                                                                 reason="kong")])


def f_dealer_kept_after_others_won(ctx: _Ctx):
    """The dealer dealt again after only others won (the 下家 deals)."""
    cands = []
    for i in _wins(ctx, lambda i, e, t: t.dealer not in [x.seat for x in e.winners]):
        nxt = next((k for k in range(i, len(ctx.events)) if type(ctx.events[k]) is ev.HandStarted), None)
        if nxt is not None:
            cands.append((nxt, ctx.before(i).table.dealer))
    i, dealer = ctx.pick(cands)
    return _cut(ctx, i, [msgspec.structs.replace(ctx.events[i], dealer=dealer)], i)


def _indicators(ctx: _Ctx) -> list[int]:
    _room(ctx)
    return [i for i, e in enumerate(ctx.events) if type(e) is ev.IndicatorTurned]


def f_wild_kind_same(ctx: _Ctx):
    """The 配子 logged as the indicator's own kind (the rule: the kind after it)."""
    rules = _room(ctx)
    i = ctx.pick([i for i in _indicators(ctx) if rules.wild_from == "next"])
    e = ctx.events[i]
    return _cut(ctx, i, [msgspec.structs.replace(e, wild=e.tile)], i)


def f_indicator_missing(ctx: _Ctx):
    """A hand played without its turned indicator."""
    i = ctx.pick(_indicators(ctx))
    nxt = ctx.events[i + 1]
    return _cut(ctx, i, [msgspec.structs.replace(nxt, seq=i)], i)


def _pei_discards(ctx: _Ctx) -> list[tuple[int, list[int]]]:
    """(index, seats other than the discarder holding two 白板 that read as the 配子) of
    each discarded 配子, read on the table before it."""
    _room(ctx)
    out = []
    for i, e, r in ctx.walk():
        t = r.table
        if type(e) is ev.TileDiscarded and t.wild is not None and _T[e.tile] == t.wild:
            p = pei.pei(hand_ruleset(r))
            holders = [] if p.stand_in is None else \
                [s for s in range(4) if s != e.seat and t.hands[s][p.stand_in] >= 2]
            out.append((i, holders))
    return out


def f_pei_ponged(ctx: _Ctx):
    """A dead 配子 discard ponged with two 白板 (nobody may claim a discarded 配子)."""
    i, holders = ctx.pick([(i, h) for i, h in _pei_discards(ctx) if h])
    s = ctx.rng.choice(holders)
    e = ctx.events[i]
    white = TILE_NAMES[pei.pei(hand_ruleset(ctx.before(i))).stand_in]
    pong = _mk(ev.Ponged, e, seat=s, from_seat=e.seat, tile=e.tile, tiles=[white, white])
    return _cut(ctx, i + 1, [pong], i + 1)


def f_pei_in_pong(ctx: _Ctx):
    """A pong made with a 配子 as one of its own tiles (a 配子 is in no meld)."""
    _room(ctx)
    cands = []
    for i, e, r in ctx.walk():
        t = r.table
        if type(e) is ev.Ponged and t.wild is not None and t.hands[e.seat][t.wild] >= 1 \
                and _T[e.tile] != t.wild:
            cands.append((i, TILE_NAMES[t.wild]))
    i, w = ctx.pick(cands)
    e = ctx.events[i]
    return _cut(ctx, i, [msgspec.structs.replace(e, tiles=[e.tiles[0], w])], i)


def f_pei_discard_forbidden(ctx: _Ctx):
    """A 配子 discarded in a room that forbids it (``wild_discard = forbidden``)."""
    found = _pei_discards(ctx)
    if not found:
        raise NotApplicable("no 配子 was discarded")
    i = found[0][0]  # the room's first: the room closes right after it
    opened = ctx.events[0]
    merged = msgspec.structs.asdict(opened.options) | {"wild_discard": "forbidden"}
    ctx.events[0] = msgspec.structs.replace(opened, options=msgspec.convert(merged, ev.RulesetOverrides))
    return _cut(ctx, i + 1, [], i)


def f_bet_without_xiazui(ctx: _Ctx):
    """A 下嘴 bet in a room that does not play 下嘴."""
    rules = _room(ctx)
    if rules.xiazui != "off":
        raise NotApplicable("the room plays 下嘴")
    i = ctx.pick([i for i, e in enumerate(ctx.events) if type(e) is ev.HandStarted])
    e = ctx.events[i]
    bet = _mk(ev.PigBetPlaced, e, seat=ctx.rng.randrange(4), bet=1)
    ctx.events = ctx.events[:i + 1] + [bet] + ctx.events[i + 1:]
    return ctx.events, i + 1


ROWS = [
    ("xz_dealer_bonus_missing", "TRANSFER_MISMATCH", "scoring", f_dealer_bonus_missing),
    ("xz_dealer_bonus_undue", "TRANSFER_MISMATCH", "scoring", f_dealer_bonus_undue),
    ("xz_fan_counted", "FAN_MISMATCH", "scoring", f_fan_counted),
    ("xz_points_doubled", "POINTS_MISMATCH", "scoring", f_points_doubled),
    ("xz_self_draw_one_payer", "TRANSFER_MISMATCH", "scoring", f_self_draw_one_payer),
    ("xz_kong_paid", "KONG_PAYMENT_UNDUE", "scoring", f_kong_paid),
    ("xz_dealer_kept_after_others_won", "DEALER_ROTATION", "table", f_dealer_kept_after_others_won),
    ("xz_wild_kind_same", "WILD_KIND_MISMATCH", "table", f_wild_kind_same),
    ("xz_indicator_missing", "WILD_INDICATOR_MISSING", "table", f_indicator_missing),
    ("xz_pei_ponged", "CLAIM_ON_DEAD_DISCARD", "claims", f_pei_ponged),
    ("xz_pei_in_pong", "CLAIM_SPECIAL_TILE", "claims", f_pei_in_pong),
    ("xz_pei_discard_forbidden", "SPECIAL_TILE_DISCARDED", "table", f_pei_discard_forbidden),
    ("xz_bet_without_xiazui", "YANGZHU_BET_INVALID", "scoring", f_bet_without_xiazui),
]

#: The Xuzhou fault classes by name.
FAULTS: dict[str, Fault] = {
    name: Fault(name, code, group, (fn.__doc__ or name).strip().splitlines()[0], fn, ("xuzhou",))
    for name, code, group, fn in ROWS
}

_ROOM = dict(preset="xuzhou", max_hands=6, fee=0)
#: Where ``bench/faults.py --family xuzhou`` plants the classes: these rooms in turn (the
#: 下嘴 room for the bet classes' near misses, a logged wall for the indicator's place).
FAULT_BENCH = FaultBench(seed=9000, max_games=4000, rooms=(
    dict(_ROOM, options={}, include_wall=False), dict(_ROOM, options={}, include_wall=True),
    dict(_ROOM, options={"dealer_bonus": "double"}, include_wall=False)))
