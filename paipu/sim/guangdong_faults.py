"""Guangdong 鸡平和 fault classes for the fault injector (:mod:`paipu.sim.mutate`).

Each class plants one fault in a clean simulated Guangdong room and names the one
finding the audit must give.  Fans, points and settlements written around a fault
are the family's (:mod:`audits.rules.guangdong`), so only the planted step is
wrong.  They register into :data:`paipu.sim.mutate.FAULTS` under ``gd_*`` names.
"""

from __future__ import annotations

from typing import Optional

import msgspec

from audits.rules import family_of
from schema import events as ev
from schema.tiles import TILE_INDEX, TILE_NAMES

from .mutate import FAULTS, Fault, NotApplicable, _Ctx, _cut, _first_fee, _mk

_T = TILE_INDEX
WINDS = ("east", "south", "west", "north")


def _guangdong(ctx: _Ctx) -> None:
    r = ctx.before(1).table.ruleset
    if r is None or r.family != "guangdong":
        raise NotApplicable("not a Guangdong room")


def _wins(ctx: _Ctx, test=lambda i, e: True) -> list[int]:
    _guangdong(ctx)
    return [i for i, e in enumerate(ctx.events) if type(e) is ev.HandWon and test(i, e)]


def _settle_after(ctx: _Ctx, i: int, won: ev.HandWon, transfers: Optional[list] = None) -> tuple[list, int]:
    """The hand of HandWon ``i`` won as ``won`` instead, settled by the family from the
    logged points (or paid ``transfers``: the fault is then at the settlement), then the
    room closes (dissolved)."""
    paid = transfers
    r = ctx.before(i)
    r.apply(msgspec.structs.replace(won, seq=r.table.seq + 1))
    table = r.table
    fam = family_of(table.ruleset)
    if transfers is None:
        facts = fam.table_facts(table.ruleset, table, won)
        settled = fam.settle(table.ruleset, list(table.scores), [(x.seat, x.points) for x in won.winners], won.how,
                             won.from_seat, facts)
        transfers, scores = settled.transfers, settled.scores
    else:
        scores = list(table.scores)
        for t in transfers:
            scores[t.payer] -= t.amount
            scores[t.payee] += t.amount
    s = _mk(ev.HandSettled, won, transfers=list(transfers), scores=list(scores))
    return _cut(ctx, i, [won, s, *_first_fee(ctx, i)], i if paid is None else i + 1, scores)


def _score_of(ctx: _Ctx, i: int, seat: int):
    """The family's score of winner ``seat`` of HandWon ``i`` (the table before it)."""
    e = ctx.events[i]
    r = ctx.before(i)
    t = r.table
    fam = family_of(t.ruleset)
    tile = _T[e.tile]
    tiles = [k for k in range(34) for _ in range(t.hands[seat][k])] + ([tile] if e.how != "self_draw" else [])
    after_kong = e.how == "self_draw" and bool(t.turn_kongs)
    wc = fam.win_context(t.ruleset, t, seat, e.how, tile, after_kong, False, len(e.winners))
    return fam.score(t.ruleset, tiles, t.melds[seat], wc)


def _rewinner(ctx: _Ctx, i: int, fans: list, fan: int) -> tuple[list, int]:
    """The first winner of HandWon ``i`` logged with ``fans`` and ``fan`` and the points
    that follow from them; the settlement follows the logged points."""
    e = ctx.events[i]
    fam = family_of(ctx.before(1).table.ruleset)
    rules = ctx.before(1).table.ruleset
    w = e.winners[0]
    sc = _score_of(ctx, i, w.seat)
    new = msgspec.structs.replace(w, fans=fans, fan=fan)
    new = msgspec.structs.replace(new, points=fam.winner_points(rules, new, sc))
    return _settle_after(ctx, i, msgspec.structs.replace(e, winners=[new, *e.winners[1:]]))


SPECIAL = {"qingyise", "hunpeng", "qingpeng", "hunyaojiu", "xiaosanyuan", "xiaosixi", "ziyise", "qingyaojiu",
           "dasanyuan", "dasixi", "jiulian", "shisanyao", "qidui"}


def f_cap_exceeded(ctx: _Ctx):
    """爆和 not applied: an ordinary hand of more than 3 fan paid B × 2^fan."""
    i = ctx.pick(_wins(ctx, lambda i, e: len(e.winners) == 1 and e.winners[0].fan > 3
                       and not set(e.winners[0].fans) & SPECIAL and "tianhe" not in e.winners[0].fans))
    e = ctx.events[i]
    rules = ctx.before(1).table.ruleset
    w = msgspec.structs.replace(e.winners[0], points=rules.base * 2 ** e.winners[0].fan)
    return _settle_after(ctx, i, msgspec.structs.replace(e, winners=[w]))


def f_zimo_on_special(ctx: _Ctx):
    """自摸 added to a special hand (爆和以外不加番)."""
    i = ctx.pick(_wins(ctx, lambda i, e: len(e.winners) == 1 and set(e.winners[0].fans) & SPECIAL))
    w = ctx.events[i].winners[0]
    return _rewinner(ctx, i, [*w.fans, "zimo"], w.fan + 1)


def f_specials_stacked(ctx: _Ctx):
    """Special hands added together (清一色 + 碰碰和 instead of 清碰, or a second special)."""
    i = ctx.pick(_wins(ctx, lambda i, e: len(e.winners) == 1 and set(e.winners[0].fans) & SPECIAL))
    w = ctx.events[i].winners[0]
    extra = "qingyise" if "qingyise" not in w.fans else "hunpeng"
    return _rewinner(ctx, i, [*w.fans, extra], w.fan + 4)


def f_wrong_menfeng(ctx: _Ctx):
    """门风 scored for a wind that is not the winner's seat wind (or with no wind pong)."""
    i = ctx.pick(_wins(ctx, lambda i, e: len(e.winners) == 1 and not set(e.winners[0].fans) & SPECIAL
                       and "menfeng" not in e.winners[0].fans and not {"tianhe", "dihe", "renhe"} & set(e.winners[0].fans)))
    w = ctx.events[i].winners[0]
    return _rewinner(ctx, i, [*w.fans, "menfeng"], w.fan + 1)


def f_haidi_on_discard(ctx: _Ctx):
    """海底 awarded on a discard win (河底 scores nothing in this ruleset)."""
    i = ctx.pick(_wins(ctx, lambda i, e: e.how == "discard" and len(e.winners) == 1
                       and "haidi" not in e.winners[0].fans and not {"renhe"} & set(e.winners[0].fans)))
    w = ctx.events[i].winners[0]
    return _rewinner(ctx, i, [*w.fans, "haidi"], w.fan)


def f_bao_undue(ctx: _Ctx):
    """包 where no liability exists: a plain self-draw paid 3·P by one seat as 12张落地."""
    def plain(i, e):
        if e.how != "self_draw":
            return False
        j = next(k for k in range(i, len(ctx.events)) if type(ctx.events[k]) is ev.HandSettled)
        return all(t.reason == "win" for t in ctx.events[j].transfers)
    i = ctx.pick(_wins(ctx, plain))
    e = ctx.events[i]
    w = e.winners[0]
    payer = (w.seat + 1 + ctx.rng.randrange(3)) % 4
    return _settle_after(ctx, i, e, [ev.Transfer(payer=payer, payee=w.seat, amount=3 * w.points, reason="bao_luodi")])


def f_kong_payment_undue(ctx: _Ctx):
    """A kong payment in a room with ``kong_payments = none``."""
    i = ctx.pick(_wins(ctx, lambda i, e: len(e.winners) == 1))
    e = ctx.events[i]
    r = ctx.before(i)
    table = r.table
    r.apply(msgspec.structs.replace(e, seq=table.seq + 1))
    fam = family_of(table.ruleset)
    facts = fam.table_facts(table.ruleset, table, e)
    due = fam.settle(table.ruleset, list(table.scores), [(x.seat, x.points) for x in e.winners], e.how,
                     e.from_seat, facts).transfers
    w = e.winners[0].seat
    payer = (w + 1 + ctx.rng.randrange(3)) % 4
    return _settle_after(ctx, i, e, [*due, ev.Transfer(payer=payer, payee=w, amount=table.ruleset.base, reason="kong")])


def _started(ctx: _Ctx) -> list[int]:
    _guangdong(ctx)
    return [i for i, e in enumerate(ctx.events) if type(e) is ev.HandStarted]


def f_wrong_round_wind(ctx: _Ctx):
    """The round wind (圈风) logged wrong for the dealer sequence."""
    i = ctx.pick(_started(ctx))
    e = ctx.events[i]
    passes = ctx.before(i + 1).table.dealer_changes
    right = passes // 4 % 4
    wrong = WINDS[(right + 1 + ctx.rng.randrange(3)) % 4]
    ctx.events[i] = msgspec.structs.replace(e, round_wind=wrong)
    return ctx.events, i


def f_wrong_seat_winds(ctx: _Ctx):
    """The seat winds (门风) logged as if seat 0 were always 东 (the dealer is 东)."""
    i = ctx.pick([i for i in _started(ctx) if ctx.events[i].dealer != 0])
    e = ctx.events[i]
    ctx.events[i] = msgspec.structs.replace(e, seat_winds=list(WINDS))
    return ctx.events, i


def f_dealer_passed_after_dealer_win(ctx: _Ctx):
    """The deal passed after the dealer won (the dealer stays, also among several winners)."""
    cands = []
    for i in _wins(ctx):
        e = ctx.events[i]
        r = ctx.before(i)
        if r.table.dealer in [x.seat for x in e.winners]:
            nxt = next((k for k in range(i, len(ctx.events)) if type(ctx.events[k]) is ev.HandStarted), None)
            if nxt is not None:
                cands.append(nxt)
    i = ctx.pick(cands)
    e = ctx.events[i]
    return _cut(ctx, i, [msgspec.structs.replace(e, dealer=(e.dealer + 1) % 4)], i)


def f_claim_on_last_discard(ctx: _Ctx):
    """A pong or chow of the last discard (only 胡 may claim it)."""
    _guangdong(ctx)
    cands = []
    for i, e in enumerate(ctx.events):
        if type(e) is not ev.HandDrawn:
            continue
        j = i - 1
        while j > 0 and type(ctx.events[j]) in (ev.ClaimPassed, ev.ClaimDeclared):
            j -= 1
        d = ctx.events[j]
        if type(d) is not ev.TileDiscarded:
            continue
        r = ctx.before(j + 1)
        table = r.table
        fam = family_of(table.ruleset)
        t = _T[d.tile]
        for k in range(1, 4):
            s = (d.seat + k) % 4
            if table.hands[s][t] >= 2:
                cands.append((j, _mk(ev.Ponged, d, seat=s, from_seat=d.seat, tile=d.tile, tiles=[d.tile, d.tile])))
                break
            chows = fam.chow_options(table.ruleset, table.hands[s], t, s, d.seat)
            if chows:
                own = [TILE_NAMES[x] for x in chows[0]]
                cands.append((j, _mk(ev.Chowed, d, seat=s, from_seat=d.seat, tile=d.tile, tiles=own)))
                break
    j, claim = ctx.pick(cands)
    return _cut(ctx, j + 1, [claim], j + 1)


def f_win_below_min_fan(ctx: _Ctx):
    """A 0-fan win in a room with 起和番 ``min_fan = 1`` (the room's first win)."""
    wins = _wins(ctx)
    if not wins:
        raise NotApplicable("no win")
    i = wins[0]
    e = ctx.events[i]
    if len(e.winners) != 1 or _score_of(ctx, i, e.winners[0].seat).capped != 0:
        raise NotApplicable("the first win has fan")
    opened = ctx.events[0]
    merged = msgspec.structs.asdict(opened.options) | {"min_fan": 1}
    ctx.events[0] = msgspec.structs.replace(opened, options=msgspec.convert(merged, ev.RulesetOverrides))
    j = next(k for k in range(i, len(ctx.events)) if type(ctx.events[k]) is ev.HandSettled)
    return _cut(ctx, j + 1 + len(_first_fee(ctx, i)), [], i)


def _unseen(table, t: int) -> int:
    """Copies of kind ``t`` not in any hand, meld or discard."""
    seen = sum(table.hands[s][t] for s in range(4)) + sum(1 for s in range(4) for x in table.discards[s] if x[0] == t)
    return 4 - seen - sum(m.tiles.count(t) for s in range(4) for m in table.melds[s])


def f_win_during_louhe(ctx: _Ctx):
    """漏和: a seat lets a win on a tile go, and the next discard of that tile (before the
    seat's own draw) is one it wins on."""
    _guangdong(ctx)
    cands = []
    ev_ = ctx.events
    for i, a, r in ctx.walk():  # one live replayer: r is the table before event i
        if i + 4 > len(ev_):
            break
        b, c, d = ev_[i + 1:i + 4]
        if not (type(a) is ev.TileDrawn and a.source == "wall" and type(b) is ev.TileDiscarded and b.seat == a.seat
                and type(c) is ev.TileDrawn and c.source == "wall" and c.seat == (a.seat + 1) % 4
                and type(d) is ev.TileDiscarded and d.seat == c.seat):
            continue
        table = r.table
        if table.wall is not None:
            continue  # the drawn tiles are rewritten: only in rooms that log no wall
        fam = family_of(table.ruleset)
        for k in (2, 3):
            s = (a.seat + k) % 4
            waits = [w for w in fam.waits(table.ruleset, table.hands[s], table.melds[s]) if _unseen(table, w) >= 2]
            if waits:
                cands.append((i, s, waits[0]))
                break
    i, s, w = ctx.pick(cands)
    a, c = ev_[i], ev_[i + 2]
    tile = TILE_NAMES[w]
    d1 = msgspec.structs.replace(a, tile=tile)
    x1 = _mk(ev.TileDiscarded, d1, seat=a.seat, tile=tile)
    d2 = _mk(ev.TileDrawn, x1, seat=c.seat, tile=tile, source="wall")
    x2 = _mk(ev.TileDiscarded, d2, seat=c.seat, tile=tile)
    r = ctx.before(i)
    for x in (d1, x1, d2, x2):
        r.apply(msgspec.structs.replace(x, seq=r.table.seq + 1))
    table = r.table
    fam = family_of(table.ruleset)
    tiles = [k for k in range(34) for _ in range(table.hands[s][k])] + [w]
    wc = fam.win_context(table.ruleset, table, s, "discard", w, False, False, 1)
    sc = fam.score(table.ruleset, tiles, table.melds[s], wc)
    if not (sc.complete and fam.fan_enough(table.ruleset, "discard", sc.capped)):
        raise NotApplicable("the win let go would not be legal (起和番)")
    decl = _mk(ev.ClaimDeclared, x2, seat=s, claim="win")
    won = _mk(ev.HandWon, decl, winners=[ev.Winner(seat=s, fans=sc.fans, fan=sc.fan, points=sc.points)],
              how="discard", tile=tile, from_seat=c.seat)
    r.apply(msgspec.structs.replace(decl, seq=r.table.seq + 1))
    r.apply(msgspec.structs.replace(won, seq=r.table.seq + 1))
    facts = fam.table_facts(table.ruleset, table, won)
    settled = fam.settle(table.ruleset, list(table.scores), [(s, sc.points)], "discard", c.seat, facts)
    st = _mk(ev.HandSettled, won, transfers=settled.transfers, scores=settled.scores)
    return _cut(ctx, i, [d1, x1, d2, x2, decl, won, st, *_first_fee(ctx, i)], i + 5, settled.scores)


ROWS = [
    ("gd_win_during_louhe", "WIN_DURING_LOUHE", "wins", f_win_during_louhe),
    ("gd_win_below_min_fan", "WIN_BELOW_MIN_FAN", "wins", f_win_below_min_fan),
    ("gd_cap_exceeded", "POINTS_MISMATCH", "scoring", f_cap_exceeded),
    ("gd_zimo_on_special", "FAN_MISMATCH", "scoring", f_zimo_on_special),
    ("gd_specials_stacked", "FAN_MISMATCH", "scoring", f_specials_stacked),
    ("gd_wrong_menfeng", "FAN_MISMATCH", "scoring", f_wrong_menfeng),
    ("gd_haidi_on_discard", "FAN_MISMATCH", "scoring", f_haidi_on_discard),
    ("gd_bao_undue", "BAO_UNDUE", "scoring", f_bao_undue),
    ("gd_kong_payment_undue", "KONG_PAYMENT_UNDUE", "scoring", f_kong_payment_undue),
    ("gd_wrong_round_wind", "ROUND_WIND_MISMATCH", "table", f_wrong_round_wind),
    ("gd_wrong_seat_winds", "ROUND_WIND_MISMATCH", "table", f_wrong_seat_winds),
    ("gd_dealer_passed_after_dealer_win", "DEALER_ROTATION", "table", f_dealer_passed_after_dealer_win),
    ("gd_claim_on_last_discard", "CLAIM_ON_LAST_DISCARD", "claims", f_claim_on_last_discard),
]

for _name, _code, _group, _fn in ROWS:
    FAULTS[_name] = Fault(_name, _code, _group, (_fn.__doc__ or _name).strip().splitlines()[0], _fn, ("guangdong",))

#: The Guangdong fault classes by name.
GUANGDONG_FAULTS = [r[0] for r in ROWS]
