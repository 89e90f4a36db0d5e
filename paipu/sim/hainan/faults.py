"""Hainan fault classes for the fault injector (``paipu mutate``): each plants one thing a
server could get wrong in a clean simulated Hainan room and names the one finding the audit
must give.  Fans, points and settlements written around a fault are the family's
(:mod:`audits.rules.hainan`), so only the planted step is wrong.
"""

from __future__ import annotations

import msgspec

from audits.rules import family_of
from audits.rules.hainan import settlement
from schema import events as ev
from schema.tiles import TILE_INDEX

from ..fault_kit import Fault, FaultBench, NotApplicable, _Ctx, _cut, _first_fee, _mk
from ..guangdong.faults import _settle_after, _settlement  # the same rewrites: a hand re-settled

_T = TILE_INDEX


def _room(ctx: _Ctx):
    r = ctx.before(1).table.ruleset
    if r is None or r.family != "hainan":
        raise NotApplicable("not a Hainan room")
    return r


def _wins(ctx: _Ctx, test=lambda i, e, t: True) -> list[int]:
    """HandWon indexes passing ``test(i, event, table before it)``."""
    _room(ctx)
    return [i for i, e in enumerate(ctx.events) if type(e) is ev.HandWon and test(i, e, ctx.before(i).table)]


def _paid(ctx: _Ctx, i: int) -> list[ev.Transfer]:
    """The transfers the family pays for HandWon ``i`` as logged."""
    e = ctx.events[i]
    r = ctx.before(i)
    r.apply(msgspec.structs.replace(e, seq=r.table.seq + 1))
    s, _ = _settlement(r.table, e, None)
    return list(s.transfers)


def _reset_win(ctx: _Ctx, i: int, transfers: list) -> tuple[list, int]:
    return _settle_after(ctx, i, ctx.events[i], [t for t in transfers if t.amount > 0])


# --- 番, points ------------------------------------------------------------------------------

def f_gate_ignored(ctx: _Ctx):
    """A discard win with no 番 (有番才能胡: only a self-draw needs none)."""
    rules = _room(ctx)
    fam = family_of(rules)
    cands = []
    for i, e, r in ctx.walk():
        if type(e) is not ev.TileDiscarded or i + 1 >= len(ctx.events) or type(ctx.events[i + 1]) is ev.HandWon:
            continue
        t = r.table
        tile = _T[e.tile]
        for s in range(4):
            if s == e.seat:
                continue
            counts = list(t.hands[s])
            counts[tile] += 1
            if not fam.wins.is_winning(rules, counts, t.melds[s]):
                continue
            tiles = [k for k in range(34) for _ in range(counts[k])]
            wc = fam.wins.win_context(rules, t, s, "discard", tile, False, False)
            sc = fam.scoring.score(rules, tiles, t.melds[s], wc)
            if sc.complete and sc.fan == 0:
                cands.append((i, s, sc))
    i, s, sc = ctx.pick(cands)
    e = ctx.events[i]
    won = _mk(ev.HandWon, e, winners=[ev.Winner(seat=s, fans=list(sc.fans), fan=0, points=sc.points)],
              how="discard", tile=e.tile, from_seat=e.seat)
    r = ctx.before(i + 1)
    r.apply(msgspec.structs.replace(won, seq=r.table.seq + 1))
    paid, scores = _settlement(r.table, won, None)
    return _cut(ctx, i + 1, [won, paid, *_first_fee(ctx, i + 1)], i + 1, scores)


def f_fan_counted(ctx: _Ctx):
    """``fan`` logged as one more than the 番 sources the win names."""
    i = ctx.pick(_wins(ctx))
    e = ctx.events[i]
    w = msgspec.structs.replace(e.winners[0], fan=e.winners[0].fan + 1)
    return _settle_after(ctx, i, msgspec.structs.replace(e, winners=[w]))


def f_zimo_rate_one(ctx: _Ctx):
    """A self-draw paid at the discard rate (r = 1, not 2 or 3)."""
    i = ctx.pick(_wins(ctx, lambda i, e, t: e.how == "self_draw"))
    e = ctx.events[i]
    w = e.winners[0]
    rules = ctx.before(i).table.ruleset
    r = 3 if "gangshang_kaihua" in w.fans or "huashang_kaihua" in w.fans else 2
    w = msgspec.structs.replace(w, points=w.points // r)
    if w.points * r != e.winners[0].points or w.points < rules.base:
        raise NotApplicable("points not a multiple of the rate")
    return _settle_after(ctx, i, msgspec.structs.replace(e, winners=[w]))


# --- the settlement ---------------------------------------------------------------------------

def f_feeder_extra_missing(ctx: _Ctx):
    """A discard win paid without the discarder's extra e = B."""
    i = ctx.pick(_wins(ctx, lambda i, e, t: e.how == "discard"))
    e = ctx.events[i]
    b = ctx.before(i).table.ruleset.base
    paid = _paid(ctx, i)
    if not any(t.reason == "win" and t.payer == e.from_seat for t in paid):
        raise NotApplicable("the discarder pays under a liability")
    return _reset_win(ctx, i, [msgspec.structs.replace(t, amount=t.amount - b)
                               if t.reason == "win" and t.payer == e.from_seat else t for t in paid])


def f_bao_undue(ctx: _Ctx):
    """An ordinary discard win paid wholly by the discarder as 三道 包牌 (no three claims)."""
    i = ctx.pick(_wins(ctx, lambda i, e, t: e.how == "discard"))
    e = ctx.events[i]
    paid = _paid(ctx, i)
    win = [t for t in paid if t.reason == "win"]
    if len(win) != 3:
        raise NotApplicable("a liability already applies")
    bao = ev.Transfer(payer=e.from_seat, payee=e.winners[0].seat, amount=sum(t.amount for t in win),
                      reason="bao_sandao")
    return _reset_win(ctx, i, [t for t in paid if t.reason != "win"] + [bao])


def f_sandao_not_liable(ctx: _Ctx):
    """A 三道 / 四道 win paid by every seat as an ordinary win (the feeder owes every share)."""
    cands = []
    for i in _wins(ctx):
        paid = _paid(ctx, i)
        if any(t.reason == "bao_sandao" for t in paid):
            cands.append((i, paid))
    i, paid = ctx.pick(cands)
    e = ctx.events[i]
    w = e.winners[0]
    rules = ctx.before(i).table.ruleset
    f = settlement._facts(_facts_of(ctx, i))
    plain = f._replace(bao={})
    lines: list = []
    shares: list = []
    settlement._win(rules, plain, 4, w.seat, w.points, e.how, e.from_seat, shares, lines)
    return _reset_win(ctx, i, [t for t in paid if t.reason != "bao_sandao"] + shares)


def _facts_of(ctx: _Ctx, i: int):
    """The settlement facts of HandWon ``i`` (the table after it)."""
    e = ctx.events[i]
    r = ctx.before(i)
    r.apply(msgspec.structs.replace(e, seq=r.table.seq + 1))
    return family_of(r.table.ruleset).settlement.table_facts(r.table.ruleset, r.table, e)


def f_kong_money_missing(ctx: _Ctx):
    """A won hand's kong money left out (明杠暗杠都要钱)."""
    i = ctx.pick(_wins(ctx, lambda i, e, t: any(m.is_kong for ms in t.melds for m in ms)))
    paid = _paid(ctx, i)
    kongs = [k for k, t in enumerate(paid) if t.reason == "kong"]
    if not kongs:
        raise NotApplicable("no kong money but 包杠 (its omission is BAO_PAYER), or the kong was robbed")
    return _reset_win(ctx, i, [t for k, t in enumerate(paid) if k != kongs[-1]])


def f_kong_money_at_draw(ctx: _Ctx):
    """Kong money paid at 黄庄 (it is cancelled)."""
    _room(ctx)
    cands = []
    for i, e in enumerate(ctx.events):
        if type(e) is ev.HandDrawn:
            t = ctx.before(i).table
            kongs = [(s, m) for s, ms in enumerate(t.melds) for m in ms if m.is_kong]
            if kongs and i + 1 < len(ctx.events) and type(ctx.events[i + 1]) is ev.HandSettled:
                cands.append((i + 1, kongs[0]))
    j, (g, _m) = ctx.pick(cands)
    settled = ctx.events[j]
    extra = [ev.Transfer(payer=l, payee=g, amount=1, reason="kong") for l in range(4) if l != g]
    scores = list(settled.scores)
    for t in extra:
        scores[t.payer] -= t.amount
        scores[t.payee] += t.amount
    new = msgspec.structs.replace(settled, transfers=list(settled.transfers) + extra, scores=scores)
    return _cut(ctx, j, [new, *_first_fee(ctx, j)], j, scores)


def f_genpai_undue(ctx: _Ctx):
    """跟牌 paid on a won hand whose first four discards were not equal."""
    i = ctx.pick(_wins(ctx, lambda i, e, t: not settlement.genpai_happened(t)))
    t = ctx.before(i).table
    d = t.dealer
    u = ctx.before(i).table.ruleset.base
    extra = [ev.Transfer(payer=d, payee=l, amount=u, reason="genpai") for l in range(4) if l != d]
    return _reset_win(ctx, i, _paid(ctx, i) + extra)


def f_flower_money_undue(ctx: _Ctx):
    """Flower money paid for flowers set aside, in a room without flower money."""
    def flowers(i, e, t):
        return t.ruleset.flower_money == "none" and any(len(x) >= 2 for x in t.set_aside)
    i = ctx.pick(_wins(ctx, flowers))
    t = ctx.before(i).table
    s = max(range(4), key=lambda k: len(t.set_aside[k]))
    extra = [ev.Transfer(payer=l, payee=s, amount=t.ruleset.base, reason="flower") for l in range(4) if l != s]
    return _reset_win(ctx, i, _paid(ctx, i) + extra)


# --- the table -------------------------------------------------------------------------------

def f_flower_kept(ctx: _Ctx):
    """A non-dealer's dealt flower kept past the dealer's first action (its 补花 put off a turn)."""
    _room(ctx)
    cands = []
    for i, e, r in ctx.walk():
        t = r.table
        if type(e) is ev.TileSetAside and e.seat != t.dealer and not any(t.discards) and not any(t.melds) \
                and i + 1 < len(ctx.events) and type(ctx.events[i + 1]) is ev.TileDrawn:
            cands.append(i)
    i = ctx.pick(cands)
    e, repl = ctx.events[i], ctx.events[i + 1]
    # the seat's first wall draw: the set-aside and its replacement move right after it
    j = next((k for k in range(i + 2, len(ctx.events)) if type(ctx.events[k]) is ev.TileDrawn
              and ctx.events[k].seat == e.seat and ctx.events[k].source == "wall"), None)
    if j is None or any(type(x) not in (ev.TileDrawn, ev.TileDiscarded, ev.TileSetAside, ev.ClaimPassed,
                                        ev.ClaimDeclared) for x in ctx.events[i + 2:j]):
        raise NotApplicable("a claim or kong before the seat's first draw")
    if any(type(x) is ev.TileDrawn and x.source == "tail" for x in ctx.events[i + 2:j]):
        raise NotApplicable("another replacement in between (the tail order would change)")
    moved = ctx.events[:i] + ctx.events[i + 2:j + 1] + [e, repl] + ctx.events[j + 1:]
    k = ctx.hand_end(i)
    ctx.events = moved
    first = next(x for x in range(i, len(moved)) if type(moved[x]) is ev.TileDiscarded)
    return _cut(ctx, k + 1, [], first)


def f_opening_order(ctx: _Ctx):
    """Two seats' opening 补花 swapped: a seat sets a flower aside before the seat due before it
    (in turn from the dealer)."""
    from audits.rules.hainan.table import in_opening
    _room(ctx)
    cands = []
    walled = False
    for i, e, r in ctx.walk():
        t = r.table
        if type(e) is ev.HandStarted:
            # a logged wall: the swapped replacements would leave the tail out of order
            walled = bool(e.wall)
        if type(e) is not ev.TileSetAside or walled or not in_opening(t) or i + 3 >= len(ctx.events):
            continue
        repl, nxt, nxt_repl = ctx.events[i + 1:i + 4]
        if type(repl) is ev.TileDrawn and repl.source == "tail" and repl.seat == e.seat \
                and type(nxt) is ev.TileSetAside and nxt.seat != e.seat \
                and type(nxt_repl) is ev.TileDrawn and nxt_repl.source == "tail" and nxt_repl.seat == nxt.seat:
            cands.append(i)
    i = ctx.pick(cands)
    ctx.events = ctx.events[:i] + ctx.events[i + 2:i + 4] + ctx.events[i:i + 2] + ctx.events[i + 4:]
    return _cut(ctx, ctx.hand_end(i) + 1, [], i)


def f_dealer_passed_after_draw(ctx: _Ctx):
    """The deal passed to the 下家 after 黄庄 (the dealer keeps it)."""
    _room(ctx)
    cands = []
    for i, e in enumerate(ctx.events):
        if type(e) is ev.HandDrawn:
            nxt = next((k for k in range(i, len(ctx.events)) if type(ctx.events[k]) is ev.HandStarted), None)
            if nxt is not None:
                cands.append((nxt, (ctx.events[nxt].dealer + 1) % 4))
    i, dealer = ctx.pick(cands)
    return _cut(ctx, i, [msgspec.structs.replace(ctx.events[i], dealer=dealer)], i)


def f_drawn_early(ctx: _Ctx):
    """黄庄 declared with one ordinary draw still due (R = reserve + 1)."""
    rules = _room(ctx)
    cands = []
    for i, e, r in ctx.walk():
        if type(e) is ev.TileDrawn and e.source == "wall" and r.table.undrawn == rules.draw_reserve + 1 \
                and r.table.phase == "draw":
            cands.append((i, r.table.undrawn))
    i, left = ctx.pick(cands)
    e = ctx.events[i]
    drawn = _mk(ev.HandDrawn, e, remaining=left)
    settled = _mk(ev.HandSettled, e, transfers=[], scores=list(ctx.before(i).table.scores))
    return _cut(ctx, i, [drawn, settled, *_first_fee(ctx, i)], i)


ROWS = [
    ("hn_gate_ignored", "WIN_BELOW_MIN_FAN", "wins", f_gate_ignored),
    ("hn_fan_counted", "FAN_MISMATCH", "scoring", f_fan_counted),
    ("hn_zimo_rate_one", "POINTS_MISMATCH", "scoring", f_zimo_rate_one),
    ("hn_feeder_extra_missing", "TRANSFER_MISMATCH", "scoring", f_feeder_extra_missing),
    ("hn_bao_undue", "BAO_UNDUE", "scoring", f_bao_undue),
    ("hn_sandao_not_liable", "BAO_PAYER", "scoring", f_sandao_not_liable),
    ("hn_kong_money_missing", "KONG_PAYMENT_MISMATCH", "scoring", f_kong_money_missing),
    ("hn_kong_money_at_draw", "KONG_PAYMENT_UNDUE", "scoring", f_kong_money_at_draw),
    ("hn_genpai_undue", "GENPAI_MISMATCH", "scoring", f_genpai_undue),
    ("hn_flower_money_undue", "FLOWER_PAYMENT_MISMATCH", "scoring", f_flower_money_undue),
    ("hn_flower_kept", "FLOWER_NOT_SET_ASIDE", "table", f_flower_kept),
    ("hn_opening_order", "OPENING_BUHUA_ORDER", "table", f_opening_order),
    ("hn_dealer_passed_after_draw", "DEALER_ROTATION", "table", f_dealer_passed_after_draw),
    ("hn_drawn_early", "EXHAUSTIVE_DRAW_EARLY", "table", f_drawn_early),
]

#: The Hainan fault classes by name.
FAULTS: dict[str, Fault] = {
    name: Fault(name, code, group, (fn.__doc__ or name).strip().splitlines()[0], fn, ("hainan",))
    for name, code, group, fn in ROWS
}

_ROOM = dict(preset="hainan", max_hands=6, fee=0)
#: Where ``bench/faults.py --family hainan`` plants the classes: rooms with no logged wall (a
#: moved 补花 keeps its tiles) and rooms with one.
FAULT_BENCH = FaultBench(seed=4100, max_games=4000, rooms=(
    dict(_ROOM, options={}, include_wall=False), dict(_ROOM, options={"min_fan": 1}, include_wall=False)))

__all__ = ["FAULTS", "FAULT_BENCH"]
