"""Guangdong 鸡平和 fault classes for the fault injector (:mod:`paipu.sim.mutate`).

Each class plants one fault in a clean simulated Guangdong room and names the one
finding the audit must give.  Fans, points and settlements written around a fault
are the family's (:mod:`audits.rules.guangdong`), so only the planted step is
wrong.  They are registered in :data:`paipu.sim.mutate.FAULTS` under ``gd_*`` names.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Optional

import msgspec

from audits.rules import family_of
from schema import events as ev
from schema.tiles import TILE_INDEX, TILE_NAMES

from ..fault_kit import Fault, FaultBench, NotApplicable, _Ctx, _cut, _first_fee, _mk

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
    r = ctx.before(i)
    r.apply(msgspec.structs.replace(won, seq=r.table.seq + 1))
    s, scores = _settlement(r.table, won, transfers)
    return _cut(ctx, i, [won, s, *_first_fee(ctx, i)], i if transfers is None else i + 1, scores)


def _settlement(table, won: ev.HandWon, transfers: Optional[list]) -> tuple[ev.HandSettled, list[int]]:
    """The HandSettled of ``won`` on ``table``: the family's settlement of the logged
    points, or ``transfers`` paid as given; with the scores after it."""
    if transfers is None:
        fam = family_of(table.ruleset)
        facts = fam.settlement.table_facts(table.ruleset, table, won)
        settled = fam.settlement.settle(table.ruleset, list(table.scores), [(x.seat, x.points) for x in won.winners],
                                        won.how, won.from_seat, facts)
        transfers, scores = settled.transfers, settled.scores
    else:
        scores = list(table.scores)
        for t in transfers:
            scores[t.payer] -= t.amount
            scores[t.payee] += t.amount
    return _mk(ev.HandSettled, won, transfers=list(transfers), scores=list(scores)), scores


def _score_of(ctx: _Ctx, i: int, seat: int):
    """The family's score of winner ``seat`` of HandWon ``i`` (the table before it)."""
    e = ctx.events[i]
    r = ctx.before(i)
    t = r.table
    fam = family_of(t.ruleset)
    tile = _T[e.tile]
    tiles = [k for k in range(34) for _ in range(t.hands[seat][k])] + ([tile] if e.how != "self_draw" else [])
    after_kong = e.how == "self_draw" and bool(t.turn_kongs)
    wc = fam.wins.win_context(t.ruleset, t, seat, e.how, tile, after_kong, False, len(e.winners))
    return fam.scoring.score(t.ruleset, tiles, t.melds[seat], wc)


def _rewinner(ctx: _Ctx, i: int, fans: list, fan: int) -> tuple[list, int]:
    """The first winner of HandWon ``i`` logged with ``fans`` and ``fan`` and the points
    that follow from them; the settlement follows the logged points."""
    e = ctx.events[i]
    fam = family_of(ctx.before(1).table.ruleset)
    rules = ctx.before(1).table.ruleset
    w = e.winners[0]
    sc = _score_of(ctx, i, w.seat)
    new = msgspec.structs.replace(w, fans=fans, fan=fan)
    new = msgspec.structs.replace(new, points=fam.scoring.winner_points(rules, new, sc))
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
    facts = fam.settlement.table_facts(table.ruleset, table, e)
    due = fam.settlement.settle(table.ruleset, list(table.scores), [(x.seat, x.points) for x in e.winners], e.how,
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
            chows = fam.claims.chow_options(table.ruleset, table.hands[s], t, s, d.seat)
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
            waits = [w for w in fam.wins.waits(table.ruleset, table.hands[s], table.melds[s]) if _unseen(table, w) >= 2]
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
    wc = fam.wins.win_context(table.ruleset, table, s, "discard", w, False, False, 1)
    sc = fam.scoring.score(table.ruleset, tiles, table.melds[s], wc)
    if not (sc.complete and fam.wins.fan_enough(table.ruleset, "discard", sc.capped)):
        raise NotApplicable("the win let go would not be legal (起和番)")
    decl = _mk(ev.ClaimDeclared, x2, seat=s, claim="win")
    won = _mk(ev.HandWon, decl, winners=[ev.Winner(seat=s, fans=sc.fans, fan=sc.fan, points=sc.points)],
              how="discard", tile=tile, from_seat=c.seat)
    r.apply(msgspec.structs.replace(decl, seq=r.table.seq + 1))
    r.apply(msgspec.structs.replace(won, seq=r.table.seq + 1))
    facts = fam.settlement.table_facts(table.ruleset, table, won)
    settled = fam.settlement.settle(table.ruleset, list(table.scores), [(s, sc.points)], "discard", c.seat, facts)
    st = _mk(ev.HandSettled, won, transfers=settled.transfers, scores=settled.scores)
    return _cut(ctx, i, [d1, x1, d2, x2, decl, won, st, *_first_fee(ctx, i)], i + 5, settled.scores)


# --- wins made at a chosen draw (rooms that log no wall) -----------------------------------

def _drawn_win(ctx: _Ctx, test) -> tuple[int, "ev.TileDrawn", ev.HandWon, object]:
    """A seat's draw (from the wall, or a kong replacement) rewritten to one of its waits
    (a copy still unseen), and its self-draw win on it, scored by the family.
    ``test(table, seat)`` picks the draws (the table before the draw).  Returns (index of the draw, the new draw, the HandWon,
    the replayer after the win)."""
    _guangdong(ctx)
    cands = []
    for i, e, r in ctx.walk():
        if type(e) is not ev.TileDrawn:
            continue
        table = r.table
        if table.wall is not None or table.phase not in ("draw", "replacement") or not test(table, e.seat):
            continue
        fam = family_of(table.ruleset)
        waits = [w for w in fam.wins.waits(table.ruleset, table.hands[e.seat], table.melds[e.seat])
                 if _unseen(table, w) >= 1]
        if waits:
            cands.append((i, e.seat, waits))
    if not cands:
        raise NotApplicable("no seat draws while waiting")
    i, seat, waits = ctx.pick(cands)
    w = ctx.rng.choice(waits)
    r = ctx.before(i)
    d = msgspec.structs.replace(ctx.events[i], tile=TILE_NAMES[w])
    r.apply(msgspec.structs.replace(d, seq=r.table.seq + 1))
    table = r.table
    fam = family_of(table.ruleset)
    tiles = [k for k in range(34) for _ in range(table.hands[seat][k])]
    wc = fam.wins.win_context(table.ruleset, table, seat, "self_draw", w, bool(table.turn_kongs), False, 1)
    sc = fam.scoring.score(table.ruleset, tiles, table.melds[seat], wc)
    if not (sc.complete and fam.wins.fan_enough(table.ruleset, "self_draw", sc.capped)):
        raise NotApplicable("the win would not be legal")
    won = _mk(ev.HandWon, d, winners=[ev.Winner(seat=seat, fans=sc.fans, fan=sc.fan, points=sc.points)],
              how="self_draw", tile=TILE_NAMES[w], from_seat=None)
    r.apply(msgspec.structs.replace(won, seq=r.table.seq + 1))
    return i, d, won, r


def _paid(ctx: _Ctx, i: int, d, won: ev.HandWon, r, transfers: Optional[list] = None) -> tuple[list, int]:
    """The room cut after draw ``d`` and ``won`` (at index i, i + 1), settled by the
    family from the logged points, or paid ``transfers`` (the fault is then at the
    settlement, index i + 2); then the room closes."""
    st, scores = _settlement(r.table, won, transfers)
    return _cut(ctx, i, [d, won, st, *_first_fee(ctx, i)], i + 1 if transfers is None else i + 2, scores)


def _exposed(melds) -> int:
    """Exposed sets (12张落地 counts chows, pongs, exposed and added kongs)."""
    return sum(1 for m in melds if m.kind != "kong_concealed")


def f_floor_missing(ctx: _Ctx):
    """The 3-番 floor missing: 杠上开花 or 海底捞月 on an ordinary hand of under 3 fan paid B × 2^fan."""
    def floor_draw(table, seat):
        return table.phase == "replacement" or table.undrawn - table.ruleset.draw_reserve == 1
    i, d, won, r = _drawn_win(ctx, floor_draw)
    w = won.winners[0]
    rules = r.table.ruleset
    if not {"haidi", "gangshang_kaihua"} & set(w.fans) or w.fan >= 3 or set(w.fans) & SPECIAL:
        raise NotApplicable("no floor to miss")
    bad = msgspec.structs.replace(w, points=rules.base * 2 ** w.fan)
    return _paid(ctx, i, d, msgspec.structs.replace(won, winners=[bad]), r)


def _liable(r, won):
    fam = family_of(r.table.ruleset)
    return fam.settlement.table_facts(r.table.ruleset, r.table, won).extra.liable.get(won.winners[0].seat)


def f_bao_wrong_payer(ctx: _Ctx):
    """A wrong 包 payer: a 12张落地 self-draw paid 3·P by a seat that is not liable."""
    from audits.rules.guangdong.settlement import _luodi

    def luodi(table, seat):
        return _exposed(table.melds[seat]) == 4 and seat in _luodi(table.fed)
    i, d, won, r = _drawn_win(ctx, luodi)
    bao = _liable(r, won)
    if bao is None:
        raise NotApplicable("no liability")
    w = won.winners[0]
    wrong = [s for s in range(4) if s not in (w.seat, bao.payer)]
    payer = ctx.rng.choice(wrong)
    return _paid(ctx, i, d, won, r, [ev.Transfer(payer=payer, payee=w.seat, amount=3 * w.points, reason=bao.reason)])


def f_luodi_second_feed_billed(ctx: _Ctx):
    """包先不包后 broken: a feeder's second 12张落地 feed billed to it (bao_luodi) on a self-draw.

    Bots rarely feed two fourth sets in one hand, so a hand dealt by seat 0 (no logged
    wall) is replaced by the play of guangdong.md §11.9 (b): seat 0 feeds seat 1's and then
    seat 2's fourth set; seat 2 self-draws, and seat 0 is billed 3·P as if liable."""
    from .examples import ex09_luodi

    _guangdong(ctx)
    starts = [i for i, e in enumerate(ctx.events) if type(e) is ev.HandStarted and e.dealer == 0 and e.wall is None]
    i = ctx.pick(starts)
    r = ctx.before(i)
    rules = r.table.ruleset
    if not rules.chow or rules.min_fan > 0 or rules.base != 1 or rules.draw_reserve > 40:
        raise NotApplicable("the scripted hand needs chows, no 起和番 and base 1")
    scene = ex09_luodi("b").events
    first = next(k for k, e in enumerate(scene) if type(e) is ev.HandStarted)
    last = next(k for k, e in enumerate(scene) if type(e) is ev.HandSettled)
    like = ctx.events[i]
    out = []
    for k, e in enumerate(scene[first:last]):
        fields = {"game": like.game, "at": like.at + timedelta(milliseconds=k)}
        if type(e) is ev.HandStarted:
            fields["hand"] = like.hand
        out.append(msgspec.structs.replace(e, **fields))
    won = out[-1]
    w = won.winners[0]
    if (w.seat, w.points) != (2, 2):
        raise NotApplicable("the scripted hand changed")
    scores = list(r.table.scores)
    scores[0] -= 3 * w.points
    scores[2] += 3 * w.points
    st = _mk(ev.HandSettled, won, transfers=[ev.Transfer(payer=0, payee=2, amount=3 * w.points, reason="bao_luodi")],
             scores=scores)
    extra = [*out, st, *_first_fee(ctx, i)]
    return _cut(ctx, i, extra, i + len(out), scores)


def f_tianhe_after_concealed_kong(ctx: _Ctx):
    """天和 logged after the dealer's concealed kong (any kong, concealed ones included, ends 天和)."""
    _guangdong(ctx)
    starts = [i for i, e in enumerate(ctx.events) if type(e) is ev.TilesDealt
              and type(ctx.events[i - 1]) is ev.HandStarted and ctx.events[i - 1].wall is None]
    i = ctx.pick(starts)
    r = ctx.before(i)
    table = r.table
    dealer = ctx.events[i - 1].dealer
    rng = ctx.rng
    # the dealer: a quad, three sets and a pair, less the replacement it will draw
    left = [4] * 34
    quad = rng.randrange(34)
    left[quad] = 0
    final: list[int] = []
    while len(final) < 9:
        k = rng.randrange(34)
        group = [k, k, k] if k >= 27 or k % 9 > 6 or rng.random() < 0.4 else [k, k + 1, k + 2]
        if all(left[x] >= group.count(x) for x in group):
            for x in group:
                left[x] -= 1
            final += group
    pair = rng.choice([k for k in range(34) if left[k] >= 2])
    left[pair] -= 2
    final += [pair, pair]
    repl = rng.choice(final)
    final.remove(repl)
    left[repl] += 1  # the replacement stays in the wall until drawn
    rest = [k for k in range(34) for _ in range(left[k])]
    rest.remove(repl)
    rng.shuffle(rest)
    hands = []
    for s in range(4):
        if s == dealer:
            hands.append(sorted([quad] * 4 + final))
        else:
            hands.append(sorted(rest[:13]))
            rest = rest[13:]
    dealt = msgspec.structs.replace(ctx.events[i], hands=[[TILE_NAMES[k] for k in h] for h in hands])
    kong = _mk(ev.KongConcealed, dealt, seat=dealer, kind=TILE_NAMES[quad], tiles=[TILE_NAMES[quad]] * 4)
    repl_draw = _mk(ev.TileDrawn, kong, seat=dealer, tile=TILE_NAMES[repl], source="tail")
    for x in (dealt, kong, repl_draw):
        r.apply(msgspec.structs.replace(x, seq=r.table.seq + 1))
    table = r.table
    fam = family_of(table.ruleset)
    tiles = [k for k in range(34) for _ in range(table.hands[dealer][k])]
    wc = fam.wins.win_context(table.ruleset, table, dealer, "self_draw", repl, True, False, 1)
    sc = fam.scoring.score(table.ruleset, tiles, table.melds[dealer], wc)
    if not (sc.complete and fam.wins.fan_enough(table.ruleset, "self_draw", sc.capped)) or "tianhe" in sc.fans:
        raise NotApplicable("the arranged hand does not win")
    points = fam.scoring.points(6, table.ruleset)
    won = _mk(ev.HandWon, repl_draw, winners=[ev.Winner(seat=dealer, fans=["tianhe"], fan=6, points=points)],
              how="self_draw", tile=TILE_NAMES[repl], from_seat=None)
    r.apply(msgspec.structs.replace(won, seq=r.table.seq + 1))
    facts = fam.settlement.table_facts(table.ruleset, table, won)
    settled = fam.settlement.settle(table.ruleset, list(table.scores), [(dealer, points)], "self_draw", None, facts)
    st = _mk(ev.HandSettled, won, transfers=settled.transfers, scores=settled.scores)
    return _cut(ctx, i, [dealt, kong, repl_draw, won, st, *_first_fee(ctx, i)], i + 3, settled.scores)


def _natural_multi_wins(ctx: _Ctx) -> list[int]:
    """The next HandStarted after each played 一炮多响 the dealer was among the winners of."""
    out = []
    dealer = None
    for i, e in enumerate(ctx.events):
        if type(e) is ev.HandStarted:
            if dealer is not None:
                out.append(i)
                dealer = None
            current = e.dealer
        elif type(e) is ev.HandWon and len(e.winners) > 1 and current in [x.seat for x in e.winners]:
            dealer = current
    return out


_OWN_MOVES = (ev.TileDrawn, ev.Chowed, ev.Ponged, ev.KongExposed, ev.KongAdded, ev.KongConcealed)


def _thrown_since(events, i: int, seats) -> set:
    """The tiles discarded before event ``i`` since the earliest of ``seats``' own last
    draw or call (漏和 ends at a seat's own 动牌, §5)."""
    out: set = set()
    waiting = set(seats)
    k = i - 1
    while k >= 0 and waiting:
        e = events[k]
        t = type(e)
        if t is ev.TileDiscarded:
            out.add(e.tile)
        elif t in _OWN_MOVES and e.seat in waiting:
            waiting.discard(e.seat)
        elif t is ev.HandStarted:
            break
        k -= 1
    return out


def f_dealer_passed_after_multi_win(ctx: _Ctx):
    """一炮多响 with the dealer among the winners, and the deal passed anyway (the dealer stays)."""
    _guangdong(ctx)
    cands = []
    ev_ = ctx.events
    for i, a, r in ctx.walk():
        if i + 2 > len(ev_):
            break
        b = ev_[i + 1]
        if not (type(a) is ev.TileDrawn and a.source == "wall" and type(b) is ev.TileDiscarded and b.seat == a.seat):
            continue
        table = r.table
        if table.wall is not None or not table.ruleset.multi_win:
            continue
        fam = family_of(table.ruleset)
        dealer = table.dealer
        if a.seat == dealer:
            continue
        mine = set(fam.wins.waits(table.ruleset, table.hands[dealer], table.melds[dealer]))
        if not mine:
            continue
        any_discard = table.ruleset.louhe_scope == "any_discard"
        for k in range(1, 4):
            s = (a.seat + k) % 4
            if s == dealer:
                continue
            theirs = fam.wins.waits(table.ruleset, table.hands[s], table.melds[s])
            # no 漏和: nothing either winner waits on (under same_tile: the tile) was thrown
            # since its own last draw or call
            thrown = {TILE_INDEX[x] for x in _thrown_since(ev_, i, (dealer, s))}
            if any_discard and thrown & (mine | set(theirs)):
                continue
            both = [w for w in theirs if w in mine and _unseen(table, w) >= 1 and w not in thrown]
            if both:
                cands.append((i, s, both))
    # 一炮多响 the bots played with the dealer among the winners: only the next deal is wrong
    natural = _natural_multi_wins(ctx)
    if not cands and not natural:
        raise NotApplicable("no discard two seats with the dealer wait on")
    if natural and (not cands or ctx.rng.random() < 0.5):
        i = ctx.pick(natural)
        e = ctx.events[i]
        return _cut(ctx, i, [msgspec.structs.replace(e, dealer=(e.dealer + 1) % 4)], i)
    i, other, both = ctx.pick(cands)
    a = ev_[i]
    w = ctx.rng.choice(both)
    tile = TILE_NAMES[w]
    d1 = msgspec.structs.replace(a, tile=tile)
    x1 = _mk(ev.TileDiscarded, d1, seat=a.seat, tile=tile)
    r = ctx.before(i)
    for x in (d1, x1):
        r.apply(msgspec.structs.replace(x, seq=r.table.seq + 1))
    table = r.table
    fam = family_of(table.ruleset)
    dealer = table.dealer
    order = [s for s in ((a.seat + k) % 4 for k in range(1, 4)) if s in (dealer, other)]
    winners = []
    for s in order:
        tiles = [k for k in range(34) for _ in range(table.hands[s][k])] + [w]
        wc = fam.wins.win_context(table.ruleset, table, s, "discard", w, False, False, 2)
        sc = fam.scoring.score(table.ruleset, tiles, table.melds[s], wc)
        if not (sc.complete and fam.wins.fan_enough(table.ruleset, "discard", sc.capped)):
            raise NotApplicable("a win would not be legal")
        winners.append(ev.Winner(seat=s, fans=sc.fans, fan=sc.fan, points=sc.points))
    decls = [_mk(ev.ClaimDeclared, x1, seat=s, claim="win") for s in order]
    won = _mk(ev.HandWon, x1, winners=winners, how="discard", tile=tile, from_seat=a.seat)
    for x in (*decls, won):
        r.apply(msgspec.structs.replace(x, seq=r.table.seq + 1))
    facts = fam.settlement.table_facts(table.ruleset, table, won)
    settled = fam.settlement.settle(table.ruleset, list(table.scores), [(x.seat, x.points) for x in winners],
                                    "discard", a.seat, facts)
    st = _mk(ev.HandSettled, won, transfers=settled.transfers, scores=settled.scores)
    fees = _first_fee(ctx, i)
    start = _mk(ev.HandStarted, st, hand=table.hand + 1, dealer=(dealer + 1) % 4)
    extra = [d1, x1, *decls, won, st, *fees, start]
    return _cut(ctx, i, extra, i + len(extra) - 1, settled.scores)


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
    ("gd_floor_missing", "POINTS_MISMATCH", "scoring", f_floor_missing),
    ("gd_bao_wrong_payer", "BAO_PAYER", "scoring", f_bao_wrong_payer),
    ("gd_luodi_second_feed_billed", "BAO_UNDUE", "scoring", f_luodi_second_feed_billed),
    ("gd_tianhe_after_concealed_kong", "FAN_MISMATCH", "scoring", f_tianhe_after_concealed_kong),
    ("gd_dealer_passed_after_multi_win", "DEALER_ROTATION", "table", f_dealer_passed_after_multi_win),
]

#: The Guangdong fault classes by name (also in :data:`paipu.sim.mutate.FAULTS`).
GUANGDONG_FAULT_CLASSES: dict[str, Fault] = {
    name: Fault(name, code, group, (fn.__doc__ or name).strip().splitlines()[0], fn, ("guangdong",))
    for name, code, group, fn in ROWS
}

#: The Guangdong fault classes by name.
GUANGDONG_FAULTS = [r[0] for r in ROWS]

#: The Guangdong fault classes by name (the registry's name for them).
FAULTS = GUANGDONG_FAULT_CLASSES

_ROOM = dict(preset="guangdong-jipinghu", max_hands=6, fee=0, rare_hands=0.05)
#: Where ``bench/faults.py --family guangdong`` plants the classes: these rooms in turn.
FAULT_BENCH = FaultBench(seed=9000, max_games=4000, rooms=(
    dict(_ROOM, options={}, include_wall=False), dict(_ROOM, options={"kong_payments": "none"}, include_wall=True),
    dict(_ROOM, options={"louhe_scope": "any_discard"}, include_wall=False),
    # few wins, many 流局: the last discard is there to be claimed
    dict(_ROOM, options={"min_fan": 3}, include_wall=False)))
