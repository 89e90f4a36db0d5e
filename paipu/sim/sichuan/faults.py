"""Sichuan fault classes for ``paipu mutate`` (sichuan.md §14): each plants exactly one
fault in a clean simulated Sichuan room and names the one finding the audit must report.

As in :mod:`paipu.sim.mutate`, a fault that changes what follows ends the room right
after it (closed as ``dissolved`` with the scores as they then stand).  Money faults
rewrite one hand's ``HandSettled``: the transfers the Sichuan family makes from the
hand's logged moments (the audit's own hand book), with one planted change.
"""

from __future__ import annotations

from typing import Optional

import msgspec

from audits.ledger import net_of
from audits.rules.family import HandFacts
from schema import events as ev
from schema.tiles import TILE_INDEX, TILE_NAMES

from ..fault_kit import Fault, FaultBench, NotApplicable, _close, _Ctx, _mk, _renumber

Events = list[ev.Event]


def _sichuan(ctx: _Ctx) -> None:
    if not ctx.events[0].preset.startswith("sichuan"):
        raise NotApplicable("not a Sichuan room")


def _hand_spans(ctx: _Ctx) -> list[tuple[int, int]]:
    """(HandStarted index, HandSettled index) of every hand."""
    out, start = [], None
    for i, e in enumerate(ctx.events):
        if type(e) is ev.HandStarted:
            start = i
        elif type(e) is ev.HandSettled and start is not None:
            out.append((start, i))
    return out


def _end(ctx: _Ctx, new: Events, scores) -> Events:
    new = list(new)
    new.append(_close(new, scores))
    return new


def _scores_before(events: Events) -> list[int]:
    for e in reversed(events):
        if type(e) is ev.HandSettled:
            return list(e.scores)
    return [events[0].start_points] * len(events[0].seats)


def _book_of(events: Events):
    """The audit's hand book after ``events`` (a prefix ending inside a hand)."""
    from audits.audit import walk
    from audits.context import AuditContext
    from schema.reader import GameLog
    log = GameLog(events[0].game, "x", list(events), list(range(1, len(events) + 1)), None, False)
    ctx = AuditContext(log)
    walk(ctx)
    return ctx


def _resettle(ctx: _Ctx, j: int, change) -> tuple[Events, int]:
    """Hand settled at j: its transfers from the logged moments, ``change``d; the room closes."""
    prefix = ctx.events[:j]
    a = _book_of(prefix)
    fam, rules = a.family, a.rules
    before = _scores_before(prefix)
    settled = fam.settlement.settle(rules, before, [], None, None, HandFacts(None, None, (a.hand_book, False)))
    transfers = change(list(settled.transfers))
    if transfers is None:
        raise NotApplicable("nothing to change")
    scores = [b + d for b, d in zip(before, net_of(transfers, len(before)))]
    hs = msgspec.structs.replace(ctx.events[j], transfers=transfers, scores=scores)
    return _end(ctx, prefix + [hs], scores), j


def _money(reason: str, how: str):
    """A money fault: the transfers of ``reason`` dropped (``drop``) or one made 1 B larger."""
    def apply(ctx: _Ctx) -> tuple[Events, int]:
        _sichuan(ctx)
        spans = [(a, b) for a, b in _hand_spans(ctx) if any(t.reason == reason for t in ctx.events[b].transfers)]
        _, j = ctx.pick(spans)

        def change(ts):
            mine = [t for t in ts if t.reason == reason]
            if not mine:
                return None
            if how == "drop":
                return [t for t in ts if t.reason != reason]
            k = ts.index(mine[0])
            return ts[:k] + [msgspec.structs.replace(ts[k], amount=ts[k].amount + 1)] + ts[k + 1:]
        return _resettle(ctx, j, change)
    return apply


def _fan_gen(ctx: _Ctx) -> tuple[Events, int]:
    """A winner's 根 left out: fans and fan one short, points from that fan, the hand
    settled on the logged points."""
    _sichuan(ctx)
    cands = []
    for a, b in _hand_spans(ctx):
        for i in range(a, b):
            e = ctx.events[i]
            if type(e) is ev.HandWon and len(e.winners) == 1 and "gen" in e.winners[0].fans \
                    and not {"tianhe", "dihe"} & set(e.winners[0].fans):
                if not any(type(x) is ev.HandWon for x in ctx.events[i + 1:b]):
                    cands.append((i, b))
    i, b = ctx.pick(cands)
    e = ctx.events[i]
    w = e.winners[0]
    fans = list(w.fans)
    fans.remove("gen")
    r = ctx.before(i)
    base, cap = r.table.ruleset.base, r.table.ruleset.fan_cap
    nw = msgspec.structs.replace(w, fans=fans, fan=w.fan - 1, points=base << min(w.fan - 1, cap))
    ctx.events[i] = msgspec.structs.replace(e, winners=[nw])
    new, _ = _resettle(ctx, b, lambda ts: ts)
    return new, i


def _first_action(ctx: _Ctx, a: int, b: int) -> Optional[int]:
    for i in range(a, b):
        if type(ctx.events[i]) in (ev.TileDiscarded, ev.KongConcealed, ev.HandWon):
            return i
    return None


def _insert_after(ctx: _Ctx, i: int, cls: type, **fields) -> tuple[Events, int]:
    """Event i, then one planted event of ``cls`` (by the seat in ``fields``); the room closes."""
    new = ctx.events[:i + 1] + [_mk(cls, ctx.events[i], **fields)]
    return _end(ctx, new, _scores_before(new)), i + 1


def _pong_of(ctx: _Ctx, cands: list) -> tuple[Events, int]:
    """One of ``cands`` (discard index, seat): that seat pongs that discard."""
    i, s = ctx.pick(cands)
    d = ctx.events[i]
    return _insert_after(ctx, i, ev.Ponged, seat=s, from_seat=d.seat, tile=d.tile, tiles=[d.tile, d.tile])


def _void_missing(ctx: _Ctx) -> tuple[Events, int]:
    """One seat's 定缺 left out; the room closes after the dealer's first action."""
    _sichuan(ctx)
    a, b = ctx.pick(_hand_spans(ctx))
    decl = [i for i in range(a, b) if type(ctx.events[i]) is ev.VoidDeclared]
    first = _first_action(ctx, a, b)
    if not decl or first is None or type(ctx.events[first]) is ev.HandWon:
        raise NotApplicable("no declaration")
    drop = ctx.rng.choice(decl)
    new = ctx.events[:drop] + ctx.events[drop + 1:first + 1]
    return _end(ctx, new, _scores_before(new)), first - 1


def _discard_swaps(ctx: _Ctx, want):
    """Discards (index, replayer before, seat, tile) in play outside the last four tiles."""
    out = []
    for i, e, r in ctx.walk():
        if type(e) is ev.TileDiscarded and r.table.undrawn > 8:
            got = want(r.table, e)
            if got is not None:
                out.append((i, got))
    return out


def _void_discard(ctx: _Ctx) -> tuple[Events, int]:
    """A seat holding its void suit throws another suit."""
    _sichuan(ctx)

    def want(t, e):
        s, v = e.seat, t.voids[e.seat]
        if v < 0 or not any(t.hands[s][9 * v:9 * v + 9]):
            return None
        others = [k for k in range(27) if t.hands[s][k] and k // 9 != v]
        return others[0] if others else None
    i, k = ctx.pick(_discard_swaps(ctx, want))
    d = ctx.events[i]
    new = ctx.events[:i] + [msgspec.structs.replace(d, tile=TILE_NAMES[k])]
    return _end(ctx, new, _scores_before(new)), i


def _pong_void(ctx: _Ctx) -> tuple[Events, int]:
    """A seat pongs a discard of its own void suit (holding two of it)."""
    _sichuan(ctx)
    cands = []
    for i, e, r in ctx.walk():
        if type(e) is ev.TileDiscarded and r.table.undrawn > 8:
            t = r.table
            k = TILE_INDEX[e.tile]
            for s in range(4):
                if s != e.seat and s not in t.out and t.voids[s] == k // 9 and t.hands[s][k] >= 2:
                    cands.append((i, s))
    return _pong_of(ctx, cands)


def _chow(ctx: _Ctx) -> tuple[Events, int]:
    """A chow (no chow, ever)."""
    _sichuan(ctx)
    cands = []
    for i, e, r in ctx.walk():
        if type(e) is ev.TileDiscarded and r.table.undrawn > 8:
            t = r.table
            s = (e.seat + 1) % 4
            k = TILE_INDEX[e.tile]
            if s in t.out or k % 9 > 6 or t.voids[s] == k // 9:
                continue
            if t.hands[s][k + 1] and t.hands[s][k + 2]:
                cands.append((i, s, k))
    i, s, k = ctx.pick(cands)
    d = ctx.events[i]
    return _insert_after(ctx, i, ev.Chowed, seat=s, from_seat=d.seat, tile=d.tile,
                         tiles=[TILE_NAMES[k + 1], TILE_NAMES[k + 2]])


def _play_after_win(ctx: _Ctx) -> tuple[Events, int]:
    """``sichuan``: a seat declares a claim after the first winning moment (the hand had ended)."""
    _sichuan(ctx)
    if ctx.events[0].preset != "sichuan":
        raise NotApplicable("first_win only")
    i = ctx.pick([i for i, e in enumerate(ctx.events) if type(e) is ev.HandWon])
    e = ctx.events[i]
    seat = ((e.from_seat if e.from_seat is not None else e.winners[0].seat) + 1) % 4
    return _insert_after(ctx, i, ev.ClaimDeclared, seat=seat, claim="pong")


def _xuezhan_early(ctx: _Ctx) -> tuple[Events, int]:
    """血战: the hand is settled after its first winning moment, with tiles left."""
    _sichuan(ctx)
    if ctx.events[0].preset != "sichuan-xuezhan":
        raise NotApplicable("血战 only")
    cands = []
    for a, b in _hand_spans(ctx):
        wins = [i for i in range(a, b) if type(ctx.events[i]) is ev.HandWon]
        if wins and sum(len(ctx.events[k].winners) for k in wins[:1]) < 3:
            cands.append(wins[0])
    i = ctx.pick(cands)
    prefix = ctx.events[:i + 1]
    a = _book_of(prefix)
    before = _scores_before(prefix)
    settled = a.family.settlement.settle(a.rules, before, [], None, None, HandFacts(None, None, (a.hand_book, False)))
    scores = [x + d for x, d in zip(before, net_of(settled.transfers, 4))]
    hs = _mk(ev.HandSettled, ctx.events[i], transfers=list(settled.transfers), scores=scores)
    return _end(ctx, prefix + [hs], scores), i + 1


def _action_after_win(ctx: _Ctx) -> tuple[Events, int]:
    """血战: a seat that has won declares a claim on a later discard."""
    _sichuan(ctx)
    cands = []
    for i, e, r in ctx.walk():
        if type(e) is ev.TileDiscarded and r.table.out:
            cands.append((i, r.table.out[0]))
    i, s = ctx.pick(cands)
    return _insert_after(ctx, i, ev.ClaimDeclared, seat=s, claim="pong")


def _last_four(ctx: _Ctx) -> tuple[Events, int]:
    """最后四张: a discard win over the last four tiles is not taken; the next seat draws."""
    _sichuan(ctx)
    from audits.rules.sichuan.play import in_last_four
    cands = []
    for i, e, r in ctx.walk():
        if type(e) is ev.HandWon and e.how == "discard" and len(e.winners) == 1 \
                and in_last_four(r.table.ruleset, r.table.undrawn) and r.table.undrawn > 0 \
                and r.table.wall is not None:
            cands.append(i)
    i = ctx.pick(cands)
    r = ctx.before(i)
    t = r.table
    e = ctx.events[i]
    seat = (e.from_seat + 1) % 4
    while seat in t.out:
        seat = (seat + 1) % 4
    draw = _mk(ev.TileDrawn, e, seat=seat, tile=TILE_NAMES[t.wall[t.wall_head]], source="wall")
    new = ctx.events[:i] + [draw]
    return _end(ctx, new, _scores_before(new)), i


def _tile_not_in_set(ctx: _Ctx) -> tuple[Events, int]:
    """A dealt tile outside the 108 (an honour); the room closes after the deal."""
    _sichuan(ctx)
    a, b = ctx.pick(_hand_spans(ctx))
    deal = next(i for i in range(a, b) if type(ctx.events[i]) is ev.TilesDealt)
    d = ctx.events[deal]
    s = ctx.rng.randrange(4)
    hands = [list(h) for h in d.hands]
    hands[s][ctx.rng.randrange(len(hands[s]))] = "1z"
    start = msgspec.structs.replace(ctx.events[a], wall=None)
    new = ctx.events[:a] + [start] + ctx.events[a + 1:deal] + [msgspec.structs.replace(d, hands=hands)]
    return _end(ctx, new, _scores_before(new)), deal


def _could_win_on(t, seat: int, k: int) -> bool:
    """Seat ``seat`` holds a void-gated winning hand with kind ``k`` added (§8.1, §8.2)."""
    from audits.rules.sichuan.fans import is_legal_shape
    c = list(t.hands[seat])
    c[k] += 1
    return is_legal_shape(c, t.melds[seat], t.voids[seat], t.ruleset)


def _kong_final(ctx: _Ctx) -> tuple[Events, int]:
    """A pong of the final discard (only 胡 may claim it), on a final discard nobody still in
    could win on: otherwise the pong also leaves a 最后四张 win untaken (§6.4)."""
    _sichuan(ctx)
    cands = []
    for i, e, r in ctx.walk():
        if type(e) is ev.TileDiscarded and r.table.undrawn == 0:
            t = r.table
            k = TILE_INDEX[e.tile]
            if any(_could_win_on(t, s, k) for s in range(4) if s != e.seat and s not in t.out):
                continue
            for s in range(4):
                if s != e.seat and s not in t.out and t.hands[s][k] >= 2 and t.voids[s] != k // 9:
                    cands.append((i, s))
    return _pong_of(ctx, cands)


def _win_value(t, seat: int, k: int, kong_discard: bool = False) -> Optional[int]:
    """V (the capped fan) of ``seat``'s void-gated discard win on kind ``k`` now, or None."""
    from audits.rules.sichuan import fans as F
    c = list(t.hands[seat])
    c[k] += 1
    sc = F.score(t.ruleset, c, t.melds[seat], t.voids[seat], F.Moment("discard", kong_discard=kong_discard))
    return sc.capped if sc.wins else None


def _settled_after(prefix: Events) -> tuple[Events, list[int]]:
    """``prefix`` (ending with a hand's last winning moment) and its settlement as the family
    makes it from the logged moments; the room closes."""
    prefix = _renumber(prefix)
    a = _book_of(prefix)
    before = _scores_before(prefix)
    settled = a.family.settlement.settle(a.rules, before, [], None, None, HandFacts(None, None, (a.hand_book, False)))
    scores = [x + d for x, d in zip(before, net_of(settled.transfers, 4))]
    hs = _mk(ev.HandSettled, prefix[-1], transfers=list(settled.transfers), scores=scores)
    new = prefix + [hs]
    new.append(_close(new, scores))
    return new, scores


def _win_not_void(ctx: _Ctx) -> tuple[Events, int]:
    """缺门 (§4.1 rule 4, §8.2): a winner's 定缺 rewritten to a suit its winning hand holds
    concealed (no meld of it), so the logged win holds the void suit.  Planted in rooms
    with ``void_first`` off, where holding that suit all hand breaks no discard rule."""
    _sichuan(ctx)
    if ctx.events[0].preset != "sichuan" or ctx.before(1).table.ruleset.void_first:
        raise NotApplicable("first_win rooms with void_first off only")
    cands = []
    for a, b in _hand_spans(ctx):
        wins = [i for i in range(a, b) if type(ctx.events[i]) is ev.HandWon]
        if len(wins) != 1 or len(ctx.events[wins[0]].winners) != 1:
            continue
        i = wins[0]
        e = ctx.events[i]
        s = e.winners[0].seat
        t = ctx.before(i).table
        counts = list(t.hands[s])
        if e.how != "self_draw":
            counts[TILE_INDEX[e.tile]] += 1
        melded = {m.of // 9 for m in t.melds[s]}
        suits = [v for v in range(3) if any(counts[9 * v:9 * v + 9]) and v not in melded]
        decl = [k for k in range(a, i) if type(ctx.events[k]) is ev.VoidDeclared and ctx.events[k].seat == s]
        if suits and len(decl) == 1:
            cands.append((decl[0], i, b, suits))
    k, i, b, suits = ctx.pick(cands)
    d = ctx.events[k]
    ctx.events[k] = msgspec.structs.replace(d, suit="mps"[ctx.rng.choice(suits)])
    new = ctx.events[:b + 1]
    return _end(ctx, new, list(ctx.events[b].scores)), i


def _win_during_guoshui(ctx: _Ctx) -> tuple[Events, int]:
    """过水 (§7.1): a seat lets a legal discard win go; before its own next action the next
    seat draws and throws a tile the seat then wins on at a capped fan V no higher than the
    one it passed (barred under ``higher_fan``).  Outside the last four tiles, so passing
    the first win breaks nothing."""
    _sichuan(ctx)
    from audits.rules.sichuan.play import guoshui_allows, in_last_four
    if ctx.events[0].preset != "sichuan":
        raise NotApplicable("first_win only")
    cands = []
    for i, e, r in ctx.walk():
        if type(e) is not ev.HandWon or e.how != "discard" or len(e.winners) != 1:
            continue
        t = r.table
        s, x = e.winners[0].seat, e.from_seat
        y = (x + 1) % 4
        if y == s or t.wall is None or in_last_four(t.ruleset, t.undrawn - 1):
            continue
        d = max(k for k in range(i) if type(ctx.events[k]) is ev.TileDiscarded)
        m = _win_value(t, s, TILE_INDEX[e.tile], ctx.kong_discard(d))
        if m is not None:
            cands.append((d, s, x, y, m))
    ctx.rng.shuffle(cands)
    for d, s, x, y, m in cands:
        r = ctx.before(d + 1)
        t = r.table
        rules = t.ruleset
        drawn = t.wall[t.wall_head]
        draw = _mk(ev.TileDrawn, ctx.events[d], seat=y, tile=TILE_NAMES[drawn], source="wall")
        r.apply(msgspec.structs.replace(draw, seq=t.seq + 1))
        hand = t.hands[y]
        if _holds_win(t, y):
            continue  # keep the drawer from a self-draw it lets go
        vy = t.voids[y]
        holds = vy >= 0 and any(hand[9 * vy:9 * vy + 9])
        for u in range(27):
            if not hand[u] or (rules.void_first and holds and u // 9 != vy):
                continue
            v = _win_value(t, s, u)
            if v is None or guoshui_allows(rules, [m], v):
                continue
            disc = _mk(ev.TileDiscarded, draw, seat=y, tile=TILE_NAMES[u])
            r.apply(msgspec.structs.replace(disc, seq=t.seq + 1))
            c = list(t.hands[s])
            c[u] += 1
            from audits.rules.sichuan import fans as F
            sc = F.score(rules, c, t.melds[s], t.voids[s], F.Moment("discard"))
            decl = _mk(ev.ClaimDeclared, disc, seat=s, claim="win")
            won = _mk(ev.HandWon, decl, winners=[ev.Winner(seat=s, fans=list(sc.fans), fan=sc.fan,
                                                            points=sc.points)],
                      how="discard", tile=TILE_NAMES[u], from_seat=y)
            new, _ = _settled_after(ctx.events[:d + 1] + [draw, disc, decl, won])
            return new, d + 4
    raise NotApplicable("no passed win followed by a barred one")


def _holds_win(t, seat: int) -> bool:
    """The seat's own tiles now form a void-gated winning hand."""
    from audits.rules.sichuan.fans import is_legal_shape
    return is_legal_shape(t.hands[seat], t.melds[seat], t.voids[seat], t.ruleset)


_RAW = [
    ("sichuan_missing_gen", "FAN_MISMATCH", "A winner's 根 left out of the fans (fan one short, paid on it).", _fan_gen),
    ("sichuan_kong_payment_wrong", "KONG_PAYMENT_MISMATCH", "One 刮风下雨 payment 1 B too large.",
     _money("kong", "plus")),
    ("sichuan_zhuanyi_missing", "ZHUANYI_MISMATCH", "呼叫转移 after a 杠上炮 not made.", _money("zhuanyi", "drop")),
    ("sichuan_huazhu_not_charged", "END_CHECK_MISMATCH", "查花猪 not charged at an exhaustive end.",
     _money("huazhu", "drop")),
    ("sichuan_dajiao_missed", "END_CHECK_MISMATCH", "查大叫 not paid at an exhaustive end.", _money("dajiao", "drop")),
    ("sichuan_tuishui_missed", "END_CHECK_MISMATCH", "退税 not refunded at an exhaustive end.",
     _money("tuishui", "drop")),
    ("sichuan_win_payment_wrong", "TRANSFER_MISMATCH", "One win payment 1 B too large.", _money("win", "plus")),
    ("sichuan_void_missing", "VOID_NOT_DECLARED", "A seat's 定缺 missing before the dealer's first action.",
     _void_missing),
    ("sichuan_void_discard", "VOID_DISCARD_ORDER", "A seat holding its void suit throws another suit.",
     _void_discard),
    ("sichuan_pong_void", "CLAIM_VOID_SUIT", "A pong of one's own void suit.", _pong_void),
    ("sichuan_chow", "CLAIM_CHOW_DISABLED", "A chow (不可以吃).", _chow),
    ("sichuan_play_after_win", "HAND_END_WRONG", "sichuan: a claim after the first winning moment.",
     _play_after_win),
    ("sichuan_xuezhan_ended_early", "HAND_END_WRONG", "血战: the hand settled after its first win, tiles left.",
     _xuezhan_early),
    ("sichuan_action_after_win", "ACTION_AFTER_WIN", "血战: a seat that has won claims again.", _action_after_win),
    ("sichuan_last_four_not_taken", "LAST_FOUR_WIN_NOT_TAKEN", "A discard win over the last four tiles not taken.",
     _last_four),
    ("sichuan_tile_not_in_set", "TILE_NOT_IN_SET", "An honour tile dealt in a 108-tile room.", _tile_not_in_set),
    ("sichuan_pong_final_discard", "CLAIM_ON_LAST_DISCARD", "A pong of the final discard.", _kong_final),
    ("sichuan_win_not_void", "WIN_NOT_VOID", "A win holding the winner's void suit (定缺 rewritten).", _win_not_void),
    ("sichuan_win_during_guoshui", "WIN_DURING_GUOSHUI", "A discard win during 过水, no higher than the win passed.",
     _win_during_guoshui),
]

#: The Sichuan fault classes by name (also in :data:`paipu.sim.mutate.FAULTS`).
SICHUAN_FAULTS: dict[str, Fault] = {
    name: Fault(name, code, "sichuan", desc, fn, ("sichuan",)) for name, code, desc, fn in _RAW
}

#: The simulated room each class is planted in, (preset, options) (``bench/faults.py``,
#: the samples): 血战 for the 血战 classes; void_first off makes 花猪 common.
SOURCES: dict[str, tuple[str, dict]] = {name: ("sichuan", {}) for name in SICHUAN_FAULTS}
SOURCES.update({"sichuan_xuezhan_ended_early": ("sichuan-xuezhan", {}),
                "sichuan_action_after_win": ("sichuan-xuezhan", {}),
                "sichuan_tuishui_missed": ("sichuan-xuezhan", {}),
                # the wall's end (查花猪, the final discard) comes in most 血战 hands
                "sichuan_huazhu_not_charged": ("sichuan-xuezhan", {"void_first": False}),
                "sichuan_pong_final_discard": ("sichuan-xuezhan", {}),
                "sichuan_win_not_void": ("sichuan", {"void_first": False})})

#: The Sichuan fault classes by name (the registry's name for them).
FAULTS = SICHUAN_FAULTS


def _bench_room(name: str) -> dict:
    preset, options = SOURCES[name]
    return dict(preset=preset, options=options, max_hands=4, arrange=0.0)


#: Where ``bench/faults.py --family sichuan`` plants each class: its own source room.
FAULT_BENCH = FaultBench(seed=4242, max_games=1500, room_of=_bench_room)

__all__ = ["FAULTS", "FAULT_BENCH", "SICHUAN_FAULTS", "SOURCES"]
