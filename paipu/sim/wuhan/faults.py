"""Wuhan fault classes for the fault injector (``paipu mutate``): each plants one thing a server
could get wrong in a clean simulated Wuhan room and names the one finding the audit must give.
Shares, fans and settlements around a fault are the family's (:mod:`audits.rules.wuhan`), so
only the planted step is wrong.
"""

from __future__ import annotations

import msgspec

from audits.rules.wuhan import laizi
from audits.rules.wuhan.money import jinding_amounts
from audits.rules.wuhan.settlement import transfers_of
from schema import events as ev
from schema.tiles import TILE_INDEX, TILE_NAMES

from ..fault_kit import Fault, FaultBench, NotApplicable, _Ctx, _cut, _first_fee, _mk, hand_ruleset

_T = TILE_INDEX


def _room(ctx: _Ctx):
    r = ctx.before(1).table.ruleset
    if r is None or r.family != "wuhan":
        raise NotApplicable("not a Wuhan room")
    return r


def _wins(ctx: _Ctx, test=lambda i, e: True) -> list[int]:
    """HandWon indexes (one winner, its shares logged) passing ``test(i, event)``."""
    _room(ctx)
    return [i for i, e in enumerate(ctx.events)
            if type(e) is ev.HandWon and len(e.winners) == 1 and e.winners[0].payers and test(i, e)]


def _paid_as(ctx: _Ctx, i: int, won: ev.HandWon, transfers, planted_at: int):
    """The hand of HandWon ``i`` won as ``won`` and paid ``transfers``; the room then closes."""
    scores = list(ctx.before(i).table.scores)
    for t in transfers:
        scores[t.payer] -= t.amount
        scores[t.payee] += t.amount
    settled = _mk(ev.HandSettled, won, transfers=list(transfers), scores=scores)
    return _cut(ctx, i, [won, settled, *_first_fee(ctx, i)], planted_at, scores)


def _liable(ctx: _Ctx, i: int):
    """The logged liability of HandWon ``i`` (from its settlement), or None."""
    for e in ctx.events[i + 1:]:
        if type(e) is ev.HandSettled:
            bao = [t for t in e.transfers if t.reason != "win"]
            return (bao[0].payer, bao[0].reason) if bao else None
    return None


def _with_shares(ctx: _Ctx, i: int, change) -> tuple:
    """HandWon ``i`` with its shares changed by ``change(shares) -> shares`` (logged and paid
    so, the liability kept): the fault is at the shares."""
    e = ctx.events[i]
    w = e.winners[0]
    shares = change(list(w.payers))
    won = msgspec.structs.replace(e, winners=[msgspec.structs.replace(w, payers=shares)])
    ts = transfers_of(w.seat, [(x.seat, x.amount) for x in shares], _liable(ctx, i))
    return _paid_as(ctx, i, won, ts, i)


def f_share_uncapped(ctx: _Ctx):
    """A share above the cap paid in full (封顶 not applied)."""
    def over(i, e):
        r = ctx.before(1).table.ruleset
        shares = e.winners[0].payers
        return r.payment_cap and any(x.amount < x.multiple * r.base for x in shares) \
            and not all(x.multiple >= r.payment_cap for x in shares)
    i = ctx.pick(_wins(ctx, over))
    base = ctx.before(1).table.ruleset.base
    return _with_shares(ctx, i, lambda ss: _first(ss, lambda x: x.amount < x.multiple * base,
                                                  lambda x: msgspec.structs.replace(x, amount=x.multiple * base)))


def _first(shares, test, change):
    """The shares with the first one passing ``test`` changed (one payer wrong)."""
    k = next(k for k, x in enumerate(shares) if test(x))
    return shares[:k] + [change(shares[k])] + shares[k + 1:]


def f_yangguangding_missed(ctx: _Ctx):
    """金顶 with an unopened paying seat charged J, not 阳光顶 G."""
    r = _room(ctx)
    j, g = jinding_amounts(r)
    i = ctx.pick(_wins(ctx, lambda i, e: any(x.amount == g * r.base for x in e.winners[0].payers) and j != g))
    return _with_shares(ctx, i, lambda ss: _first(ss, lambda x: x.amount == g * r.base,
                                                  lambda x: msgspec.structs.replace(x, amount=j * r.base)))


def f_dealer_fan_missing(ctx: _Ctx):
    """The dealer's fan left out of its share of a 屁胡 (half the multiple)."""
    def dealer_pays(i, e):
        t = ctx.before(i).table
        return "jihu" in e.winners[0].fans and t.ruleset.dealer_fan and any(
            x.seat == t.dealer and x.amount == x.multiple * t.ruleset.base and x.multiple >= 2
            for x in e.winners[0].payers)
    i = ctx.pick(_wins(ctx, dealer_pays))
    dealer = ctx.before(i).table.dealer
    base = ctx.before(i).table.ruleset.base
    return _with_shares(ctx, i, lambda ss: [msgspec.structs.replace(
        x, fan=x.fan - 1, multiple=x.multiple // 2, amount=x.multiple // 2 * base) if x.seat == dealer else x
        for x in ss])


def f_fan_short(ctx: _Ctx):
    """A winner's fan F_w logged one short (the shares as the rules pay them)."""
    i = ctx.pick(_wins(ctx, lambda i, e: e.winners[0].fan >= 2))
    e = ctx.events[i]
    w = msgspec.structs.replace(e.winners[0], fan=e.winners[0].fan - 1)
    won = msgspec.structs.replace(e, winners=[w])
    j = next(k for k in range(i, len(ctx.events)) if type(ctx.events[k]) is ev.HandSettled)
    return _cut(ctx, i, [won, *ctx.events[i + 1:j + 1], *_first_fee(ctx, i)], i, ctx.events[j].scores)


def f_hand_base_doubled(ctx: _Ctx):
    """A winner's hand base H logged doubled (the shares as the rules pay them)."""
    i = ctx.pick(_wins(ctx))
    e = ctx.events[i]
    w = msgspec.structs.replace(e.winners[0], points=2 * e.winners[0].points)
    won = msgspec.structs.replace(e, winners=[w])
    j = next(k for k in range(i, len(ctx.events)) if type(ctx.events[k]) is ev.HandSettled)
    return _cut(ctx, i, [won, *ctx.events[i + 1:j + 1], *_first_fee(ctx, i)], i, ctx.events[j].scores)


def f_bao_ignored(ctx: _Ctx):
    """A 放三铺 or 全求人 包 paid by each seat instead of the liable one."""
    i = ctx.pick(_wins(ctx, lambda i, e: (_liable(ctx, i) or (0, ""))[1].startswith("bao_")))
    e = ctx.events[i]
    w = e.winners[0]
    j = next(k for k in range(i, len(ctx.events)) if type(ctx.events[k]) is ev.HandSettled)
    return _paid_as(ctx, i, e, transfers_of(w.seat, [(x.seat, x.amount) for x in w.payers], None), j)


def f_rob_paid_by_each(ctx: _Ctx):
    """A robbed kong paid by each seat instead of the adder alone (抢杠 包)."""
    i = ctx.pick(_wins(ctx, lambda i, e: e.how == "robbed_kong" and _liable(ctx, i) is not None))
    e = ctx.events[i]
    w = e.winners[0]
    j = next(k for k in range(i, len(ctx.events)) if type(ctx.events[k]) is ev.HandSettled)
    return _paid_as(ctx, i, e, transfers_of(w.seat, [(x.seat, x.amount) for x in w.payers], None), j)


def f_pi_discarded(ctx: _Ctx):
    """A 红中 thrown as a discard instead of laid down as a 红中杠."""
    _room(ctx)
    cands = [i for i, e in enumerate(ctx.events) if type(e) is ev.TileSetAside and e.tile == "7z"]
    i = ctx.pick(cands)
    e = ctx.events[i]
    return _cut(ctx, i, [_mk(ev.TileDiscarded, e, seat=e.seat, tile=e.tile)], i)


def f_ordinary_set_aside(ctx: _Ctx):
    """An ordinary tile laid down as a single-tile kong (only a 痞 tile or a 癞子 is)."""
    _room(ctx)
    cands = []
    for i, e, r in ctx.walk():
        if type(e) is ev.TileSetAside:
            rules = hand_ruleset(r)
            special = laizi.pi_kinds(rules) | {laizi.wild(rules)}
            held = [k for k in range(34) if r.table.hands[e.seat][k] and k not in special]
            if held:
                cands.append((i, TILE_NAMES[held[0]]))
    i, tile = ctx.pick(cands)
    e = ctx.events[i]
    return _cut(ctx, i, [msgspec.structs.replace(e, tile=tile), ctx.events[i + 1]], i)


def f_laizi_in_pong(ctx: _Ctx):
    """A pong made with a 癞子 as one of its own tiles (no meld holds a 癞子)."""
    _room(ctx)
    cands = []
    for i, e, r in ctx.walk():
        t = r.table
        if type(e) is ev.Ponged and t.wild is not None and t.hands[e.seat][t.wild] >= 1:
            cands.append((i, TILE_NAMES[t.wild]))
    i, w = ctx.pick(cands)
    e = ctx.events[i]
    return _cut(ctx, i, [msgspec.structs.replace(e, tiles=[e.tiles[0], w])], i)


def f_wild_kind_same(ctx: _Ctx):
    """The 癞子 logged as the indicator's own kind (the rule: the kind after it)."""
    _room(ctx)
    i = ctx.pick([i for i, e in enumerate(ctx.events) if type(e) is ev.IndicatorTurned])
    e = ctx.events[i]
    return _cut(ctx, i, [msgspec.structs.replace(e, wild=e.tile)], i)


def f_indicator_missing(ctx: _Ctx):
    """A hand played without its turned indicator."""
    _room(ctx)
    i = ctx.pick([i for i, e in enumerate(ctx.events) if type(e) is ev.IndicatorTurned])
    nxt = ctx.events[i + 1]
    return _cut(ctx, i, [msgspec.structs.replace(nxt, seq=i)], i)


def f_dealer_kept_after_others_won(ctx: _Ctx):
    """The dealer dealt again after only others won (the 下家 deals)."""
    r = _room(ctx)
    if r.win_dealer != "rotate":
        raise NotApplicable("the winner deals next")
    cands = []
    for i, e in enumerate(ctx.events):
        if type(e) is ev.HandWon:
            t = ctx.before(i).table
            if t.dealer not in [x.seat for x in e.winners]:
                nxt = next((k for k in range(i, len(ctx.events)) if type(ctx.events[k]) is ev.HandStarted), None)
                if nxt is not None:
                    cands.append((nxt, t.dealer))
    i, dealer = ctx.pick(cands)
    return _cut(ctx, i, [msgspec.structs.replace(ctx.events[i], dealer=dealer)], i)


def f_discard_in_haidi(ctx: _Ctx):
    """A discard in the 海底 phase (draw-only: the next seat draws)."""
    _room(ctx)
    cands = []
    wild = None
    for i, e in enumerate(ctx.events[:-1]):
        if type(e) is ev.IndicatorTurned:
            wild = e.wild
        nxt = ctx.events[i + 1]
        if type(e) is ev.TileDrawn and type(nxt) is ev.TileDrawn and e.source == nxt.source == "wall" \
                and nxt.seat != e.seat and e.tile not in ("7z", "6z", wild):
            cands.append(i)  # a 海底 draw of an ordinary tile (a 痞 tile or 癞子 discarded is another rule)
    i = ctx.pick(cands)
    e = ctx.events[i]
    return _cut(ctx, i + 1, [_mk(ev.TileDiscarded, e, seat=e.seat, tile=e.tile)], i + 1)


ROWS = [
    ("wh_share_uncapped", "POINTS_MISMATCH", "scoring", f_share_uncapped),
    ("wh_yangguangding_missed", "POINTS_MISMATCH", "scoring", f_yangguangding_missed),
    ("wh_dealer_fan_missing", "POINTS_MISMATCH", "scoring", f_dealer_fan_missing),
    ("wh_fan_short", "FAN_MISMATCH", "scoring", f_fan_short),
    ("wh_hand_base_doubled", "POINTS_MISMATCH", "scoring", f_hand_base_doubled),
    ("wh_bao_ignored", "BAO_PAYER", "scoring", f_bao_ignored),
    ("wh_rob_paid_by_each", "QIANGGANG_PAYER", "scoring", f_rob_paid_by_each),
    ("wh_pi_discarded", "SPECIAL_TILE_DISCARDED", "claims", f_pi_discarded),
    ("wh_ordinary_set_aside", "SET_ASIDE_INVALID", "table", f_ordinary_set_aside),
    ("wh_laizi_in_pong", "CLAIM_SPECIAL_TILE", "claims", f_laizi_in_pong),
    ("wh_wild_kind_same", "WILD_KIND_MISMATCH", "table", f_wild_kind_same),
    ("wh_indicator_missing", "WILD_INDICATOR_MISSING", "table", f_indicator_missing),
    ("wh_dealer_kept_after_others_won", "DEALER_ROTATION", "table", f_dealer_kept_after_others_won),
    ("wh_discard_in_haidi", "SEA_BOTTOM_ORDER", "table", f_discard_in_haidi),
]

#: The Wuhan fault classes by name.
FAULTS: dict[str, Fault] = {
    name: Fault(name, code, group, (fn.__doc__ or name).strip().splitlines()[0], fn, ("wuhan",))
    for name, code, group, fn in ROWS
}

_ROOM = dict(preset="wuhan-hzlzg", max_hands=6, fee=0)
#: Where ``bench/faults.py --family wuhan`` plants the classes: these rooms in turn.  A robbed
#: added kong comes about once in 80–150 bot rooms (``wh_rob_paid_by_each``): a worker may
#: need some 10,000 rooms for its 100.
FAULT_BENCH = FaultBench(seed=9400, max_games=12000, rooms=(
    dict(_ROOM, options={}, include_wall=False), dict(_ROOM, options={}, include_wall=True),
    dict(_ROOM, options={"fan_mode": "koukou"}, include_wall=False)))
