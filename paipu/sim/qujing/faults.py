"""The Qujing fault classes (qujing.md): each plants exactly one fault of its class in a
clean Qujing game log (:func:`paipu.sim.mutate.mutate` applies them).

Each fault class knows the situation it needs (a pong, an added kong that was
robbed, a 20分敲锣 knock-out …), finds the places in a game where it arises,
picks one with the caller's ``random.Random`` and rewrites the events there.
It returns the new events and where the finding the audit must report lands;
the codes are those of :data:`audits.catalogue.CATALOGUE`.

So that one fault gives one finding, a fault that changes what follows in the
hand ends the game right after it: the rest of the log is cut and the room is
closed as ``dissolved`` with the scores as they then stand (a dissolved room is
legal at any moment).  Fans, points and settlements written around a planted
fault are computed by the ruleset's family (:func:`audits.rules.family_of`), and
so is every judgement of where a fault fits (what a hand could claim, whether it
wins, what a claim breaks), so only the planted step is wrong.

A fault class whose situation the game lacks raises :class:`NotApplicable`
(``mutate`` then answers ``None``).
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import msgspec

from audits.catalogue import CATALOGUE
from audits.rules import RuleFamily, family_of
from audits.rules.family import PassBook, Score, WinContext
from replay import Replayer
from schema import events as ev
from schema.ruleset import Ruleset
from schema.tiles import NUM_KINDS, TILE_INDEX, TILE_NAMES, tiles_of

from ..fault_kit import (Events, Fault, FaultBench, NotApplicable, _close, _Ctx, _cut, _fees_after, _first_fee,
                         _mk, _renumber, _scores_now)

__all__ = ["FAULTS", "FAULT_BENCH"]

_T = TILE_INDEX
_N = TILE_NAMES


def _family(r: Replayer) -> RuleFamily:
    """The rule family of the game being replayed."""
    return family_of(r.table.ruleset)


def _settle_events(r: Replayer, like: ev.Event, winners: list[tuple[int, int]], how: Optional[str],
                   from_seat: Optional[int]) -> tuple[ev.Event, list[int]]:
    """The hand's settlement as the family makes it from the table (bets, 点鸡 tallies)."""
    table = r.table
    family = _family(r)
    facts = family.settlement.hand_facts(table.ruleset, table.received, table.bets)
    settled = family.settlement.settle(table.ruleset, list(table.scores), winners, how, from_seat, facts)
    return _mk(ev.HandSettled, like, transfers=settled.transfers, scores=settled.scores), settled.scores


def _win_at(ctx: _Ctx, i: int, seat: int, fans: list[str], fan: int, points: Optional[int] = None
            ) -> tuple[Events, int]:
    """Rewrite: after discard i, ``seat`` declares and wins on it; settle; close."""
    d = ctx.events[i]
    r = ctx.before(i + 1)
    pts = _family(r).scoring.points(fan, r.table.ruleset) if points is None else points
    decl = _mk(ev.ClaimDeclared, d, seat=seat, claim="win")
    won = _mk(ev.HandWon, d, winners=[ev.Winner(seat=seat, fans=fans, fan=fan, points=pts)], how="discard",
              tile=d.tile, from_seat=d.seat)
    r.apply(msgspec.structs.replace(decl, seq=r.table.seq + 1))
    r.apply(msgspec.structs.replace(won, seq=r.table.seq + 1))
    settled, scores = _settle_events(r, d, [(seat, pts)], "discard", d.seat)
    fees = _first_fee(ctx, i)
    return _cut(ctx, i + 1, [decl, won, settled, *fees], i + 2, scores)


def _discards(ctx: _Ctx):
    """(index, event, replayer-after-discard) for every discard."""
    for i, e, r in ctx.walk():
        if type(e) is ev.TileDiscarded:
            yield i, e, r


def _counts(r: Replayer, s: int) -> list[int]:
    return r.table.hands[s]


def _wild(r: Replayer) -> frozenset[int]:
    return _family(r).table.wild_kinds(r.table.ruleset)


def _score(r: Replayer, s: int, t: int, how: str, kong_discard: bool = False) -> Score:
    """The family's score of seat ``s`` winning on ``t`` now (``t`` joins the hand unless
    it was self-drawn, when it is already there)."""
    table = r.table
    tiles = tiles_of(table.hands[s])
    if how != "self_draw":
        tiles.append(t)
    return _family(r).scoring.score(table.ruleset, tiles, table.melds[s], WinContext(how, t, kong_discard=kong_discard))


def _quick_complete(r: Replayer, s: int, t: int) -> bool:
    """The family's fast structural check: seat ``s``'s hand is complete with ``t`` taken
    from another seat (no fan)."""
    table = r.table
    counts = list(table.hands[s])
    counts[t] += 1
    return _family(r).wins.is_winning(table.ruleset, counts, table.melds[s], t)


# ---------------------------------------------------------------------------
# claims


def _claim_sites(ctx: _Ctx, want: Callable[[Replayer, int, int, int], Optional[list[ev.Event]]],
                 own_discard: bool = False) -> tuple[Events, int]:
    """Discards where some seat's extra claim ``want(r, d, t, s)`` can be inserted after the
    discard (the claiming seats are the others, or the discarder itself with ``own_discard``)."""
    cands = []
    for i, e in enumerate(ctx.events):
        if type(e) is not ev.TileDiscarded:
            continue
        cands.append(i)
    ctx.rng.shuffle(cands)
    for i in cands[:60]:
        r = ctx.before(i + 1)
        d, t = ctx.events[i].seat, _T[ctx.events[i].tile]
        seats = [d] if own_discard else [s for s in range(len(r.table.players)) if s != d]
        ctx.rng.shuffle(seats)
        for s in seats:
            extra = want(r, d, t, s)
            if extra:
                # the window's own claims are dropped: the planted claim answers the discard
                return _cut(ctx, i + 1, [_mk(type(x), ctx.events[i], **_fields(x)) for x in extra], i + 1)
    raise NotApplicable("no discard where this claim can be planted")


def _fields(e: ev.Event) -> dict:
    return {f: getattr(e, f) for f in e.__struct_fields__ if f not in ("game", "seq", "at")}


def _proto(cls: type, **fields) -> ev.Event:
    from schema.builder import EPOCH
    return cls("x", 0, EPOCH, **fields)


def _claim_codes(r: Replayer, e: ev.Event, rules: Optional[Ruleset] = None) -> list[str]:
    """The catalogue codes the family's claim checks give the claim event ``e`` on the
    table ``r`` (under ``rules`` instead of the room's when given; whether the tiles are
    held is the reducer's business, not checked here)."""
    rules = rules or r.table.ruleset
    family = family_of(rules)
    t = _T[e.tile]
    own = [_T[x] for x in e.tiles]
    if type(e) is ev.Chowed:
        found = family.claims.check_chow(rules, len(r.table.players), e.seat, e.from_seat, t, own)
    elif type(e) is ev.Ponged:
        found = family.claims.check_pong(rules, e.seat, e.from_seat, t, own)
    else:
        found = family.claims.check_exposed_kong(rules, e.seat, e.from_seat, _T[e.kind], t, own)
    return [v.code for v in found]


def _breaking(r: Replayer, e: ev.Event, code: Optional[str]) -> Optional[list[ev.Event]]:
    """``[e]`` when the family finds exactly ``code`` wrong with the claim (nothing, for
    ``None``), else None."""
    return [e] if _claim_codes(r, e) == ([code] if code else []) else None


def f_tiles_not_in_hand(ctx: _Ctx):
    """A pong with two tiles the player does not hold."""
    def want(r, d, t, s):
        if _counts(r, s)[t] < 2:
            return _breaking(r, _proto(ev.Ponged, seat=s, from_seat=d, tile=_N[t], tiles=[_N[t], _N[t]]), None)
    return _claim_sites(ctx, want)


def f_wild_in_pong(ctx: _Ctx):
    """A pong made of one natural tile and a chicken acting as wild."""
    def want(r, d, t, s):
        c = _counts(r, s)
        wild = [k for k in sorted(_wild(r)) if c[k] and k != t]
        if c[t] == 1 and wild:
            return _breaking(r, _proto(ev.Ponged, seat=s, from_seat=d, tile=_N[t], tiles=[_N[t], _N[wild[0]]]),
                             "CLAIM_WILD_IN_PONG")
    return _claim_sites(ctx, want)


def _run_pair(c: list[int], t: int) -> Optional[list[int]]:
    """Two tiles held that make a run with ``t`` (a candidate chow; the family judges it)."""
    if t >= 27:
        return None
    r = t % 9
    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        if 0 <= r + a and r + b <= 8 and c[t + a] and c[t + b]:
            return [t + a, t + b]
    return None


def _illegal_chow(ctx: _Ctx, code: str, chow_on: Optional[bool] = None):
    """A chow of a run held in hand that the family finds breaking exactly ``code``; with
    ``chow_on`` given, the same chow would be legal in a room with that ``chow`` option."""
    def want(r, d, t, s):
        p = _run_pair(_counts(r, s), t)
        if not p:
            return None
        chow = _proto(ev.Chowed, seat=s, from_seat=d, tile=_N[t], tiles=[_N[x] for x in p])
        if chow_on is not None and _claim_codes(r, chow, msgspec.structs.replace(r.table.ruleset, chow=chow_on)):
            return None
        return _breaking(r, chow, code)
    return _claim_sites(ctx, want)


def f_chow_disabled(ctx: _Ctx):
    """A chow in a room that did not enable 吃 (from 上家: legal had the room enabled it)."""
    return _illegal_chow(ctx, "CLAIM_CHOW_DISABLED", chow_on=True)


def f_chow_wrong_seat(ctx: _Ctx):
    """A chow of a discard that did not come from 上家."""
    return _illegal_chow(ctx, "CLAIM_CHOW_WRONG_SEAT")


def f_illegal_kong(ctx: _Ctx):
    """An exposed kong of one natural tile and two chickens (only a natural pair + 1 chicken may)."""
    def want(r, d, t, s):
        c = _counts(r, s)
        chickens = [k for k in sorted(_wild(r)) for _ in range(c[k]) if k != t]
        if c[t] == 1 and len(chickens) >= 2:
            return _breaking(r, _proto(ev.KongExposed, seat=s, from_seat=d, kind=_N[t], tile=_N[t],
                                       tiles=[_N[t], _N[chickens[0]], _N[chickens[1]]]), "KONG_ILLEGAL_CHICKENS")
    return _claim_sites(ctx, want)


def f_claim_own_discard(ctx: _Ctx):
    """A seat pongs (or konges) its own discard.

    The discard is rewritten to a tile of a triplet the seat holds, so that it still
    holds the pair (or the three) to claim with.
    """
    cands = []
    for i, e, r in ctx.walk():
        if type(e) is ev.TileDiscarded:
            c = _counts(r, e.seat)
            wild = _wild(r)
            kinds = [k for k in range(NUM_KINDS) if c[k] >= 3 and k not in wild]
            if kinds:
                cands.append((i, e.seat, kinds))
    ctx.rng.shuffle(cands)
    for i, d, kinds in cands[:40]:
        t = ctx.rng.choice(kinds)
        disc = _mk(ev.TileDiscarded, ctx.events[i], seat=d, tile=_N[t])
        r = ctx.before(i)
        r.apply(msgspec.structs.replace(disc, seq=r.table.seq + 1))
        family, rules = _family(r), r.table.ruleset
        left = _counts(r, d)
        kongs = family.claims.exposed_kong_options(rules, left, t)
        if kongs and ctx.rng.random() < 0.5:
            claim = _proto(ev.KongExposed, seat=d, from_seat=d, kind=_N[t], tile=_N[t],
                           tiles=[_N[x] for x in kongs[0]])
        elif family.claims.could_pong(rules, left, t):
            claim = _proto(ev.Ponged, seat=d, from_seat=d, tile=_N[t], tiles=[_N[t], _N[t]])
        else:
            continue
        if _breaking(r, claim, "CLAIM_OWN_DISCARD"):
            return _cut(ctx, i, [disc, _mk(type(claim), ctx.events[i], **_fields(claim))], i + 1)
    raise NotApplicable("no seat discards from a triplet")


def f_priority(ctx: _Ctx):
    """A seat passed a higher claim it could make; the log says it declared it, yet the lower claim won."""
    rank = _family(ctx.before(1)).claims.claim_rank
    cands = []
    for i, e in enumerate(ctx.events):
        if type(e) in (ev.Ponged, ev.Chowed, ev.KongExposed):
            took = {ev.Ponged: "pong", ev.Chowed: "chow", ev.KongExposed: "kong"}[type(e)]
            j = i - 1
            while j >= 0 and type(ctx.events[j]) in (ev.ClaimDeclared, ev.ClaimPassed):
                p = ctx.events[j]
                if type(p) is ev.ClaimPassed and p.seat != e.seat:
                    higher = [c for c in p.claims if rank[c] > rank[took]]
                    if higher:
                        cands.append((i, j, higher[0]))
                j -= 1
    i, j, claim = ctx.pick(cands)
    new = list(ctx.events)
    p = new[j]
    new[j] = ev.ClaimDeclared(p.game, p.seq, p.at, seat=p.seat, claim=claim)
    ctx.events = new
    return _cut(ctx, i + 1, [], i)


def _guoshou(ctx: _Ctx, kind: str) -> tuple[Events, int]:
    """过手碰 / 过手杠: a seat could pong (kong) discard i and did not; the next seat discards the
    same tile before the seat's own next draw, and the seat pongs (kongs) it."""
    cands = []
    for i, e, r in ctx.walk():
        if type(e) is not ev.TileDrawn or e.source != "wall":
            continue
        # the discard this draw resolved
        k = i - 1
        while k >= 0 and type(ctx.events[k]) in (ev.ClaimDeclared, ev.ClaimPassed):
            k -= 1
        if type(ctx.events[k]) is not ev.TileDiscarded:
            continue
        d, t = ctx.events[k].seat, _T[ctx.events[k].tile]
        drawer = e.seat
        family, rules, wild = _family(r), r.table.ruleset, _wild(r)
        could = family.claims.could_pong if kind == "pong" else family.claims.could_kong
        for s in range(len(r.table.players)):
            if s in (d, drawer):
                continue
            held = r.table.hands[drawer][t] + (1 if _T[e.tile] == t else 0)
            if could(rules, r.table.hands[s], t) and held >= 1 and t not in wild:
                cands.append((i, drawer, s, t))
    i, drawer, s, t = ctx.pick(cands)
    e = ctx.events[i]
    r = ctx.before(i + 1)
    disc = _mk(ev.TileDiscarded, e, seat=drawer, tile=_N[t])
    if kind == "pong":
        claim = _mk(ev.Ponged, e, seat=s, from_seat=drawer, tile=_N[t], tiles=[_N[t], _N[t]])
    else:
        own = _family(r).claims.exposed_kong_options(r.table.ruleset, r.table.hands[s], t)[0]
        claim = _mk(ev.KongExposed, e, seat=s, from_seat=drawer, kind=_N[t], tile=_N[t], tiles=[_N[x] for x in own])
    return _cut(ctx, i + 1, [disc, claim], i + 2)


def f_guoshou_peng(ctx: _Ctx):
    """过手碰: a seat could pong a tile and passed; before its own next draw it pongs that tile."""
    return _guoshou(ctx, "pong")


def f_guoshou_gang(ctx: _Ctx):
    """过手杠: a seat could kong a discard and passed; before its own next draw it konges that tile."""
    return _guoshou(ctx, "kong")


# ---------------------------------------------------------------------------
# wins


#: The events by which a seat acts itself (its own draw, chow, pong or kong): they end
#: what it let go (``PassBook.clear``).
_OWN_ACTIONS = (ev.TileDrawn, ev.Chowed, ev.Ponged, ev.KongExposed, ev.KongAdded, ev.KongConcealed)


def _logged_passes(ctx: _Ctx, upto: int) -> PassBook:
    """The pass book of the hand holding event ``upto``, from the passes the log records
    before it (a ``ClaimPassed`` after a discard, or after an added kong for a rob)."""
    start = max(k for k in range(upto + 1) if type(ctx.events[k]) is ev.HandStarted)
    r = ctx.before(1)
    book = PassBook(len(ctx.before(start + 1).table.players), _family(r).claims.tile_passes)
    open_to: Optional[tuple[int, bool]] = None  # (tile, kong_discard) open to claims
    robbable = False
    for k in range(start, upto):
        e = ctx.events[k]
        kind = type(e)
        if kind is ev.ClaimPassed:
            if robbable and "win" in e.claims:
                book.let_rob_go(e.seat)
            elif open_to is not None:
                for claim in e.claims:
                    book.let_go(e.seat, claim, open_to[0], open_to[1])
            continue
        if kind is ev.ClaimDeclared:
            continue
        open_to, robbable = None, False
        if kind is ev.TileDiscarded:
            open_to = (_T[e.tile], ctx.kong_discard(k))
        elif kind in _OWN_ACTIONS:
            book.clear(e.seat)
            robbable = kind is ev.KongAdded
    return book


def _pass_code(r: Replayer, book: PassBook, seat: int, tile: int) -> Optional[str]:
    """The family's verdict on ``seat`` winning on ``tile`` now, given what it let go
    (a win chance counts when the family scores it a legal discard win)."""
    def judge(s: int, t: int, kong_discard: bool) -> bool:
        return _score(r, s, t, "discard", kong_discard).wins
    return _family(r).claims.pass_violation(book, seat, "win", tile, judge)


def f_incomplete_win(ctx: _Ctx):
    """A discard win with a hand that is not complete."""
    cands = []
    for i, e in enumerate(ctx.events):
        if type(e) is ev.TileDiscarded:
            cands.append(i)
    ctx.rng.shuffle(cands)
    for i in cands[:40]:
        r = ctx.before(i + 1)
        d, t = ctx.events[i].seat, _T[ctx.events[i].tile]
        for s in range(len(r.table.players)):
            if s != d and not _score(r, s, t, "discard").complete:
                return _win_at(ctx, i, s, ["wuji"], 1)
    raise NotApplicable("no discard")


def f_zero_fan_discard(ctx: _Ctx):
    """A discard win with 0 fan (底和 wins by self-draw only)."""
    cands = []
    for i, e, r in _discards(ctx):
        cands.append(i)
    ctx.rng.shuffle(cands)
    for i in cands:
        r = ctx.before(i + 1)
        d, t = ctx.events[i].seat, _T[ctx.events[i].tile]
        for s in range(len(r.table.players)):
            if s == d or not _quick_complete(r, s, t):
                continue
            sc = _score(r, s, t, "discard", ctx.kong_discard(i))
            if sc.complete and sc.fan == 0 and _pass_code(r, _logged_passes(ctx, i + 1), s, t) is None:
                return _win_at(ctx, i, s, list(sc.fans), 0)
    raise NotApplicable("no discard that completes a hand without fan")


def f_win_during_guohu(ctx: _Ctx):
    """A seat passed a win (过胡); on a later discard before its own next draw it wins."""
    ev_ = ctx.events
    cands = []
    for i, e in enumerate(ev_):
        if type(e) is ev.ClaimPassed and "win" in e.claims:
            cands.append(i)
    ctx.rng.shuffle(cands)
    for i in cands:
        s = ev_[i].seat
        # walk forward to the next wall draws by other seats before s acts itself
        j = i + 1
        while j < len(ev_):
            e = ev_[j]
            if type(e) in (ev.HandWon, ev.HandDrawn, ev.HandSettled) or (type(e) in _OWN_ACTIONS and e.seat == s):
                break
            if type(e) is ev.TileDrawn and e.source == "wall":
                r = ctx.before(j + 1)
                hand = r.table.hands[e.seat]
                wild = _wild(r)
                book = None
                for u in range(NUM_KINDS):
                    if hand[u] and u not in wild and _quick_complete(r, s, u):
                        sc = _score(r, s, u, "discard", False)
                        if not (sc.complete and sc.fan >= 1):
                            continue
                        book = book or _logged_passes(ctx, j + 1)
                        if _pass_code(r, book, s, u) == "WIN_DURING_GUOHU":
                            disc = _mk(ev.TileDiscarded, e, seat=e.seat, tile=_N[u])
                            ctx.events = ev_[:j + 1] + [disc]
                            return _win_at(ctx, j + 1, s, list(sc.fans), sc.fan)
            j += 1
    raise NotApplicable("no passed win (过胡) followed by a winnable discard")


class _Redraw:
    """A hand's events up to some point, with wall draws and discards rewritten.

    A wall draw rewritten to another tile swaps that tile into the draw's place in the
    logged wall (``HandStarted.wall``), taking it from a place no draw before the cut
    reaches, so the draws still follow the wall; without a logged wall the tile only
    needs a copy nobody has seen yet.
    """

    def __init__(self, ctx: _Ctx, upto: int):
        self.events = list(ctx.events[:upto])
        self.start = _hand_start(self.events)
        started = self.events[self.start]
        self.wall = [_T[x] for x in started.wall] if started.wall is not None else None
        r = ctx.before(upto)
        #: wall places drawn or turned up to the cut: a swap takes a tile from beyond them
        self.reach = (r.table.wall_head, r.table.wall_tail)
        #: copies of each kind the table has seen (hands, melds, discards, face-up tail)
        self.seen = [0] * NUM_KINDS
        for seat in range(len(r.table.players)):
            for k in range(NUM_KINDS):
                self.seen[k] += r.table.hands[seat][k]
            for m in r.table.melds[seat]:
                for t in m.tiles:
                    self.seen[t] += 1
            for t, claimer in r.table.discards[seat]:
                if claimer < 0:
                    self.seen[t] += 1
        for t in r.table.tail:
            self.seen[t] += 1

    def append_draw(self, e: ev.TileDrawn) -> int:
        """Keep the wall draw ``e`` (the event at the cut); its index."""
        self.events.append(e)
        self.seen[_T[e.tile]] += 1
        return len(self.events) - 1

    def redraw(self, i: int, tile: int, head: int) -> bool:
        """Make the wall draw at event ``i`` (from wall place ``head``) draw ``tile``."""
        e = self.events[i]
        old = _T[e.tile]
        if old != tile:
            if self.wall is not None:
                # beyond every wall place the kept events (and the draw at the cut) use
                lo, hi = self.reach
                q = next((q for q in range(lo + 1, hi) if self.wall[q] == tile), None)
                if q is None:
                    return False
                self.wall[head], self.wall[q] = self.wall[q], self.wall[head]
            elif self.seen[tile] >= 4:
                return False
            self.seen[tile] += 1
            self.seen[old] -= 1
            self.events[i] = msgspec.structs.replace(e, tile=_N[tile])
        return True

    def done(self) -> Events:
        """The rewritten events (the logged wall updated)."""
        if self.wall is not None:
            started = self.events[self.start]
            self.events[self.start] = msgspec.structs.replace(started, wall=[_N[t] for t in self.wall])
        return self.events


def _rob_sites(ctx: _Ctx) -> list[tuple[int, int, int, list[int]]]:
    """Wall draws after which the drawer could add a kong that another seat could rob, the
    draw rewritten to the fourth tile of one of the drawer's pongs where that tile is still
    in the wall: (index of the draw, adder, kind, robbing seats).  A kong must be allowed
    then (the reserve, a face-up tail tile), and each robber completes its hand with the
    added tile (a 抢杠 counts as a self-draw: 底和 is enough)."""
    out = []
    for i, e, r in ctx.walk():
        if type(e) is not ev.TileDrawn or e.source != "wall":
            continue
        table = r.table
        family, rules = _family(r), table.ruleset
        x = e.seat
        if not family.claims.can_rob("kong_added") or not table.tail or \
                family.table.remaining(rules, table.undrawn - 1, len(table.tail)) < family.table.reserve(rules, sum(table.kongs)):
            continue
        wild = _wild(r)
        for m in table.melds[x]:
            kind = m.of
            if m.kind != "pong" or kind in wild:
                continue
            robbers = [s for s in range(len(table.players))
                       if s != x and _quick_complete(r, s, kind) and _score(r, s, kind, "robbed_kong").wins]
            if robbers:
                out.append((i, x, kind, robbers))
    return out


def _rob(ctx: _Ctx, i: int, redraw: _Redraw, robber: int, adder: int, kind: int, late: bool = False
         ) -> Optional[tuple[Events, int]]:
    """The game up to the adder's wall draw at ``i`` (``redraw`` holds the events before it,
    perhaps rewritten), the draw made the fourth tile of its pong, the added kong (+ with
    ``late`` the adder's replacement from the tail and the next tail tile turned), then the
    robber's declared win, settled; the room then closes.  None when the draw cannot be
    rewritten or the family refuses the kong."""
    draw = ctx.events[i]
    if not redraw.redraw(redraw.append_draw(draw), kind, ctx.before(i).table.wall_head):
        return None
    body = redraw.done()
    r = Replayer()
    for e in _renumber(body):
        r.apply(e)
    family, rules = _family(r), r.table.ruleset
    if (kind, kind) not in family.claims.added_kong_options(rules, r.table.hands[adder], r.table.melds[adder]):
        return None
    body.append(_mk(ev.KongAdded, draw, seat=adder, kind=_N[kind], tile=_N[kind]))
    r.apply(msgspec.structs.replace(body[-1], seq=r.table.seq + 1))
    if late:
        # the adder takes a face-up tail tile and the next tail tile is turned
        table = r.table
        took = table.tail[0]
        if table.wall is not None:
            turned = table.wall[table.wall_tail]
        else:
            turned = next(k for k in range(NUM_KINDS) if redraw.seen[k] < 4 and k != kind)
        for e in (_mk(ev.TileDrawn, draw, seat=adder, tile=_N[took], source="tail"),
                  _mk(ev.TailTurned, draw, tiles=[_N[turned]])):
            body.append(e)
            r.apply(msgspec.structs.replace(e, seq=r.table.seq + 1))
    decl = _mk(ev.ClaimDeclared, draw, seat=robber, claim="win")
    r.apply(msgspec.structs.replace(decl, seq=r.table.seq + 1))
    sc = _score(r, robber, kind, "robbed_kong")
    if not sc.wins:
        return None
    won = _mk(ev.HandWon, draw, winners=[ev.Winner(seat=robber, fans=list(sc.fans), fan=sc.fan, points=sc.points)],
              how="robbed_kong", tile=_N[kind], from_seat=adder)
    r.apply(msgspec.structs.replace(won, seq=r.table.seq + 1))
    settled, scores = _settle_events(r, draw, [(robber, sc.points)], "robbed_kong", adder)
    at = len(body) + 1
    new = body + [decl, won, settled, *_first_fee(ctx, i)]
    new.append(_close(new, scores))
    return new, at


def f_rob_during_guohu(ctx: _Ctx):
    """抢杠 by a seat in 过胡 (it let a legal discard win go and has not drawn or claimed since).

    The added kong is planted at a wall draw of a seat holding a pong (the draw made
    the fourth tile, taken from further down the wall).  The pass is the log's own, or
    planted: a discard since the robber's last own action is rewritten (to a tile the
    discarder holds, or a draw and discard of a wall tile) so the robber could win on
    it with fan, and the robber passes it.
    """
    sites = _rob_sites(ctx)
    ctx.rng.shuffle(sites)
    for i, x, kind, robbers in sites[:30]:
        r = ctx.before(i)
        book = _logged_passes(ctx, i)
        for s in robbers:
            if _pass_code(r, book, s, kind) == "WIN_DURING_GUOHU":
                done = _rob(ctx, i, _Redraw(ctx, i), s, x, kind)
                if done is not None:
                    return done
        for s in robbers:
            redraw = _plant_passed_win(ctx, i, s, x, kind)
            if redraw is not None:
                done = _rob(ctx, i, redraw, s, x, kind)
                if done is not None:
                    return done
    raise NotApplicable("no robbable added kong after a win the robber could pass")


def _plant_passed_win(ctx: _Ctx, i: int, s: int, x: int, kind: int) -> Optional[_Redraw]:
    """The events before ``i`` with one discard since seat ``s``'s last own action rewritten
    so that ``s`` could win on it (≥ 1 fan) and passes it; None when no discard fits.

    The rewritten discard was not claimed, no claim follows it before ``i``, and its
    discarder is neither ``s`` nor the adder ``x`` (so nobody's later play depends on it).
    The discard is a tile the discarder holds, or, right after its wall draw, the drawn
    tile rewritten (摸打).
    """
    events = ctx.events
    last_own = max(k for k in range(i) if type(events[k]) in _OWN_ACTIONS and events[k].seat == s
                   or type(events[k]) is ev.HandStarted)
    if any(type(events[k]) in (ev.Chowed, ev.Ponged, ev.KongExposed) for k in range(last_own, i)):
        return None
    r_now = ctx.before(i)
    wild = _wild(r_now)
    wins = []
    for u in range(NUM_KINDS):
        if u not in wild and u != kind and _quick_complete(r_now, s, u):
            wins.append(u)
    for j in range(i - 1, last_own, -1):
        e = events[j]
        if type(e) is not ev.TileDiscarded or e.seat in (s, x):
            continue
        after = j + 1  # the first event after the discard's claim window
        while type(events[after]) in (ev.ClaimPassed, ev.ClaimDeclared):
            after += 1
        if type(events[after]) is not ev.TileDrawn or events[after].source != "wall":
            continue
        kong_discard = ctx.kong_discard(j)
        held = ctx.before(j).table.hands[e.seat]
        drew = events[j - 1] if type(events[j - 1]) is ev.TileDrawn and events[j - 1].source == "wall" \
            and events[j - 1].seat == e.seat else None
        for u in wins:
            if not held[u] and drew is None:
                continue
            sc = _score(r_now, s, u, "discard", kong_discard)
            if not (sc.wins and sc.fan >= 1):
                continue
            redraw = _Redraw(ctx, i)
            if not held[u] and not redraw.redraw(j - 1, u, ctx.before(j - 1).table.wall_head):
                continue
            disc = msgspec.structs.replace(e, tile=_N[u])
            passed = _mk(ev.ClaimPassed, e, seat=s, claims=["win"])
            redraw.events[j:after] = [disc, passed]
            return redraw
    return None


def f_rob_late(ctx: _Ctx):
    """抢杠 logged after the adder took its replacement from the tail (play moved on).

    The added kong is planted as for ``rob_during_guohu``, by a robber not in 过胡.
    """
    sites = _rob_sites(ctx)
    ctx.rng.shuffle(sites)
    for i, x, kind, robbers in sites[:30]:
        r = ctx.before(i)
        book = _logged_passes(ctx, i)
        robbers = [s for s in robbers if _pass_code(r, book, s, kind) is None]
        if robbers:
            done = _rob(ctx, i, _Redraw(ctx, i), ctx.rng.choice(robbers), x, kind, late=True)
            if done is not None:
                return done
    raise NotApplicable("no added kong another seat could rob")


# ---------------------------------------------------------------------------
# scoring: rewrite one settled hand, then close the room


def _won_hands(ctx: _Ctx, pred: Callable[[ev.HandWon, Replayer], bool]) -> list[int]:
    out = []
    for i, e, r in ctx.walk():
        if type(e) is ev.HandWon and pred(e, r):
            out.append(i)
    return out


def _settled_as(settled: ev.Event, before: list[int], transfers: list[ev.Transfer],
                scores: Optional[list[int]] = None) -> tuple[ev.Event, list[int]]:
    """``settled`` rewritten with ``transfers``; scores follow them from ``before`` unless given."""
    sc = list(scores) if scores is not None else list(before)
    if scores is None:
        for t in transfers:
            sc[t.payer] -= t.amount
            sc[t.payee] += t.amount
    return msgspec.structs.replace(settled, transfers=transfers, scores=sc), sc


def _resettle(ctx: _Ctx, i: int, won: ev.HandWon, transfers: Optional[list[ev.Transfer]] = None,
              planted: str = "won", scores: Optional[list[int]] = None) -> tuple[Events, int]:
    """Replace HandWon at i (and its settlement) and close the room after the settlement."""
    j = ctx.hand_end(i)
    r = ctx.before(i)
    r.apply(won)
    if transfers is None:
        settled, sc = _settle_events(r, ctx.events[j], [(x.seat, x.points) for x in won.winners], won.how,
                                     won.from_seat)
    else:
        settled, sc = _settled_as(ctx.events[j], r.table.scores, transfers, scores)
    new = ctx.events[:i] + [won] + ctx.events[i + 1:j] + [settled]
    k = _fees_after(ctx, j)
    new += ctx.events[j + 1:k]
    new.append(_close(new, sc))
    return new, (i if planted == "won" else j)


def f_wrong_fan(ctx: _Ctx):
    """A winner's fans and fan total one more than the hand's highest reading."""
    i = ctx.pick(_won_hands(ctx, lambda e, r: not r.table.ruleset.qiaoluo))
    won = ctx.events[i]
    w0 = won.winners[0]
    extra = next(f for f in ("duidui", "hunyise", "wuji", "shuanggang") if f not in w0.fans)
    fans = [f for f in w0.fans if f != "dihu"] + [extra]
    fan = w0.fan + 1
    rules = ctx.before(1).table.ruleset
    w1 = ev.Winner(seat=w0.seat, fans=fans, fan=fan, points=_family(ctx.before(1)).scoring.points(fan, rules))
    return _resettle(ctx, i, msgspec.structs.replace(won, winners=[w1, *won.winners[1:]]))


def f_cap_not_applied(ctx: _Ctx):
    """Points of a hand over the fan cap paid without the cap (满牌)."""
    def pred(e, r):
        return not r.table.ruleset.qiaoluo and any(x.fan > r.table.ruleset.fan_cap for x in e.winners)
    i = ctx.pick(_won_hands(ctx, pred))
    won = ctx.events[i]
    rules = ctx.before(1).table.ruleset
    # the fault: the server forgot the cap (base × 2^fan for the whole fan)
    ws = [msgspec.structs.replace(x, points=rules.base * 2 ** x.fan) if x.fan > rules.fan_cap else x
          for x in won.winners]
    return _resettle(ctx, i, msgspec.structs.replace(won, winners=ws))


def _settled_of(ctx: _Ctx, i: int) -> ev.HandSettled:
    return ctx.events[ctx.hand_end(i)]


def f_qianggang_payer(ctx: _Ctx):
    """抢杠 paid by every other player instead of the kong adder alone (包三家)."""
    i = ctx.pick(_won_hands(ctx, lambda e, r: e.how == "robbed_kong" and not r.table.ruleset.qiaoluo))
    won = ctx.events[i]
    n = len(ctx.before(i).table.players)
    out = []
    for t in _settled_of(ctx, i).transfers:
        if t.reason == "qianggang":
            # wrong: every other player pays its own share instead of the adder paying all three
            share = t.amount // (n - 1)
            for p in range(n):
                if p != t.payee:
                    out.append(ev.Transfer(payer=p, payee=t.payee, amount=share, reason="qianggang"))
        else:
            out.append(t)
    return _resettle(ctx, i, won, out, planted="settled")


def f_multi_win_order(ctx: _Ctx):
    """一炮多响 paid in the wrong order (not seat order from the discarder's next seat).

    A logged 一炮多响 is paid again in reverse order.  一炮多响 is rare in play: where the
    game has none, one is planted, a discard rewritten (to a tile the discarder holds,
    or a draw and discard of a wall tile) so that two seats or more win on it legally.
    """
    natural = _won_hands(ctx, lambda e, r: e.how == "discard" and len(e.winners) > 1
                         and not r.table.ruleset.qiaoluo)
    if not natural:
        return _planted_multi_win(ctx)
    i = ctx.pick(natural)
    won = ctx.events[i]
    return _resettle(ctx, i, won, _winners_reversed(_settled_of(ctx, i).transfers), planted="settled")


def _winners_reversed(transfers: Sequence[ev.Transfer]) -> list[ev.Transfer]:
    """The win (and 养猪) transfers grouped by winner, the winners in reverse order; the
    other transfers after them as they were."""
    wins = [t for t in transfers if t.reason in ("win", "yangzhu")]
    rest = [t for t in transfers if t.reason not in ("win", "yangzhu")]
    groups: dict[int, list[ev.Transfer]] = {}
    for t in wins:
        groups.setdefault(t.payee, []).append(t)
    return [t for p in list(groups)[::-1] for t in groups[p]] + rest


def _planted_multi_win(ctx: _Ctx) -> tuple[Events, int]:
    """A discard rewritten so that several seats win on it (each legally: complete, ≥ 1 fan,
    no pass barring it), the win declared and settled with the winners paid in reverse."""
    if ctx.before(1).table.ruleset.qiaoluo:
        raise NotApplicable("20分敲锣 clamps payments: a wrong order may change the amounts")
    cands = [j for j, e in enumerate(ctx.events) if type(e) is ev.TileDiscarded]
    ctx.rng.shuffle(cands)
    for j in cands[:40]:
        e = ctx.events[j]
        d = e.seat
        r = ctx.before(j)
        table = r.table
        family, rules, wild = _family(r), table.ruleset, _wild(r)
        n = len(table.players)
        order = [(d + k) % n for k in range(1, n)]
        waits = {s: set(family.wins.waits(rules, table.hands[s], table.melds[s])) for s in order}
        shared = sorted(u for u in range(NUM_KINDS) if u not in wild and sum(u in waits[s] for s in order) >= 2)
        prev = ctx.events[j - 1]
        drew = type(prev) is ev.TileDrawn and prev.source == "wall" and prev.seat == d
        book = None
        for u in shared:
            holds = table.hands[d][u] > 0
            if not holds and not drew:
                continue
            kong_discard = ctx.kong_discard(j) if holds else False
            book = book or _logged_passes(ctx, j)
            scores = {s: _score(r, s, u, "discard", kong_discard) for s in order if u in waits[s]}
            winners = [s for s in order if s in scores and scores[s].wins and scores[s].fan >= 1
                       and _pass_code(r, book, s, u) is None]
            if len(winners) < 2:
                continue
            redraw = _Redraw(ctx, j)
            if not holds and not redraw.redraw(j - 1, u, ctx.before(j - 1).table.wall_head):
                continue
            body = redraw.done() + [msgspec.structs.replace(e, tile=_N[u])]
            replayed = Replayer()
            for x in _renumber(body):
                replayed.apply(x)
            for s in winners:
                body.append(_mk(ev.ClaimDeclared, e, seat=s, claim="win"))
                replayed.apply(msgspec.structs.replace(body[-1], seq=replayed.table.seq + 1))
            won = _mk(ev.HandWon, e, winners=[ev.Winner(seat=s, fans=list(scores[s].fans), fan=scores[s].fan,
                                                        points=scores[s].points) for s in winners],
                      how="discard", tile=_N[u], from_seat=d)
            body.append(won)
            replayed.apply(msgspec.structs.replace(won, seq=replayed.table.seq + 1))
            settled, _ = _settle_events(replayed, e, [(s, scores[s].points) for s in winners], "discard", d)
            wrong, after = _settled_as(settled, replayed.table.scores, _winners_reversed(settled.transfers))
            body.append(wrong)
            at = len(body) - 1
            body += _first_fee(ctx, j)
            body.append(_close(body, after))
            return body, at
    raise NotApplicable("no discard that several seats could win on")


def _settled_hands(ctx: _Ctx, pred: Callable[[ev.HandSettled, Replayer], bool]) -> list[int]:
    return [i for i, e, r in ctx.walk() if type(e) is ev.HandSettled and pred(e, r)]


def _retransfer(ctx: _Ctx, j: int, transfers: list[ev.Transfer], scores: Optional[list[int]] = None
                ) -> tuple[Events, int]:
    settled, sc = _settled_as(ctx.events[j], ctx.before(j).table.scores, transfers, scores)
    new = ctx.events[:j] + [settled]
    k = _fees_after(ctx, j)
    new += ctx.events[j + 1:k]
    new.append(_close(new, sc))
    return new, j


def _bump(ctx: _Ctx, reason: str, delta: int) -> tuple[Events, int]:
    j = ctx.pick(_settled_hands(ctx, lambda e, r: not r.table.ruleset.qiaoluo
                                and any(t.reason == reason and t.amount + delta > 0 for t in e.transfers)))
    trs = list(ctx.events[j].transfers)
    k = next(x for x, t in enumerate(trs) if t.reason == reason and t.amount + delta > 0)
    trs[k] = msgspec.structs.replace(trs[k], amount=trs[k].amount + delta)
    return _retransfer(ctx, j, trs)


def f_dianji_amount(ctx: _Ctx):
    """点鸡 transfer one point short."""
    return _bump(ctx, "dianji", -1)


def f_yangzhu_amount(ctx: _Ctx):
    """养猪 bet part of a payment one point too high."""
    return _bump(ctx, "yangzhu", +1)


def f_below_zero(ctx: _Ctx):
    """20分敲锣: the server pays the full amounts, ignoring the floor at 0 (a score goes below 0)."""
    cands = []
    for j, e, r in ctx.walk():
        if type(e) is not ev.HandSettled or not r.table.ruleset.qiaoluo:
            continue
        won = next((x for x in reversed(ctx.events[:j]) if type(x) in (ev.HandWon, ev.HandDrawn)), None)
        table = r.table
        family, rules = _family(r), table.ruleset
        facts = family.settlement.hand_facts(rules, table.received, table.bets)
        if type(won) is ev.HandWon:
            winners, how, from_seat = [(x.seat, x.points) for x in won.winners], won.how, won.from_seat
        else:
            winners, how, from_seat = [], None, None
        # the amounts as due, without the floor at 0
        full = family.settlement.settle(rules, list(table.scores), winners, how, from_seat, facts, clamp=False)
        if min(full.scores) < 0:
            cands.append((j, full.transfers, full.scores))
    j, full, sc = ctx.pick(cands)
    return _retransfer(ctx, j, full, sc)


def f_not_ended_at_zero(ctx: _Ctx):
    """20分敲锣: a player reached 0, yet another hand starts."""
    def pred(e, r):
        return _family(r).settlement.game_over(r.table.ruleset, e.scores)
    j = ctx.pick(_settled_hands(ctx, pred))
    k = _fees_after(ctx, j)
    r = ctx.before(j + 1)
    won = next((e for e in reversed(ctx.events[:j]) if type(e) in (ev.HandWon, ev.HandDrawn)), None)
    prev = next(e for e in reversed(ctx.events[:j]) if type(e) is ev.HandStarted)
    if type(won) is ev.HandWon:
        dealer = _family(r).table.next_dealer(prev.dealer, [x.seat for x in won.winners], won.how, won.from_seat)
    else:
        dealer = _family(r).table.next_dealer(prev.dealer, [])
    start = _mk(ev.HandStarted, ctx.events[k - 1], hand=prev.hand + 1, dealer=dealer, wall=None, dice=None)
    new = ctx.events[:k] + [start]
    new.append(_close(new, r.table.scores))
    return new, k


# ---------------------------------------------------------------------------
# the table


def f_tile_duplicated(ctx: _Ctx):
    """A wall draw that is a fifth copy of a tile (the hand's logged wall is dropped)."""
    cands = []
    seen: list[int] = [0] * NUM_KINDS
    start = 0
    for i, e in enumerate(ctx.events):
        if type(e) is ev.HandStarted:
            seen = [0] * NUM_KINDS
            start = i
        elif type(e) is ev.TilesDealt:
            for h in e.hands:
                for x in h:
                    seen[_T[x]] += 1
        elif type(e) is ev.TailTurned:
            for x in e.tiles:
                seen[_T[x]] += 1
        elif type(e) is ev.TileDrawn:
            if e.source == "wall":
                full = [k for k in range(NUM_KINDS) if seen[k] == 4 and k != _T[e.tile]]
                if full:
                    cands.append((i, start, full[0]))
                seen[_T[e.tile]] += 1
    i, start, k = ctx.pick(cands)
    new = list(ctx.events)
    new[start] = msgspec.structs.replace(new[start], wall=None)
    new[i] = msgspec.structs.replace(new[i], tile=_N[k])
    ctx.events = new
    return _cut(ctx, i + 1, [], i)


def f_draw_out_of_order(ctx: _Ctx):
    """The logged wall says one tile, the draw is another (two undrawn wall places swapped)."""
    cands = []
    for i, e, r in ctx.walk():
        if type(e) is ev.TileDrawn and e.source == "wall" and r.table.wall is not None:
            table = r.table
            h = table.wall_head
            lo = h + 1
            hi = table.wall_tail - 4
            if lo < hi and any(table.wall[x] != table.wall[h] for x in range(hi - 3, hi)):
                cands.append((i, h, hi))
    i, h, hi = ctx.pick(cands)
    start = max(x for x in range(i) if type(ctx.events[x]) is ev.HandStarted)
    wall = list(ctx.events[start].wall)
    x = next(x for x in range(hi - 1, h, -1) if wall[x] != wall[h])
    wall[h], wall[x] = wall[x], wall[h]
    new = list(ctx.events)
    new[start] = msgspec.structs.replace(new[start], wall=wall)
    ctx.events = new
    return _cut(ctx, i + 1, [], i)


def f_tail_not_face_up(ctx: _Ctx):
    """After a kong the player takes a tile that is not one of the face-up tail tiles."""
    cands = [(i, tuple(r.table.tail)) for i, e, r in ctx.walk() if type(e) is ev.TileDrawn and e.source == "tail"]
    i, tail = ctx.pick(cands)
    e = ctx.events[i]
    other = next(k for k in range(NUM_KINDS) if k not in tail)
    new = list(ctx.events)
    new[i] = msgspec.structs.replace(e, tile=_N[other])
    ctx.events = new
    return _cut(ctx, i + 1, [], i)


def f_tail_not_refilled(ctx: _Ctx):
    """After a kong replacement no new tail tile is turned: the next discard sees one face-up tile."""
    cands = []
    for i, e in enumerate(ctx.events):
        if type(e) is ev.TailTurned and i > 0 and type(ctx.events[i - 1]) is ev.TileDrawn \
                and ctx.events[i - 1].source == "tail" and i + 1 < len(ctx.events) \
                and type(ctx.events[i + 1]) is ev.TileDiscarded:
            cands.append(i)
    i = ctx.pick(cands)
    ctx.events = ctx.events[:i] + ctx.events[i + 1:]
    return _cut(ctx, i + 1, [], i)


def f_no_exhaustive_draw(ctx: _Ctx):
    """黄庄 missed: at the reserve the next seat still draws from the wall."""
    cands = [i for i, e in enumerate(ctx.events) if type(e) is ev.HandDrawn]
    i = ctx.pick(cands)
    r = ctx.before(i)
    table = r.table
    d = next(e for e in reversed(ctx.events[:i]) if type(e) is ev.TileDiscarded)
    seat = (d.seat + 1) % len(table.players)
    tile = table.wall[table.wall_head] if table.wall is not None else \
        next(k for k in range(NUM_KINDS) if table.hands[seat][k] < 4)
    drawn = _mk(ev.TileDrawn, ctx.events[i - 1], seat=seat, tile=_N[tile], source="wall")
    return _cut(ctx, i, [drawn], i)


def f_early_exhaustive_draw(ctx: _Ctx):
    """黄庄 declared while more than the reserve remains."""
    cands = []
    for i, e, r in ctx.walk():
        if type(e) is ev.TileDrawn and e.source == "wall":
            table = r.table
            family, rules = _family(r), table.ruleset
            remaining = family.table.remaining(rules, table.undrawn, len(table.tail))
            if remaining > family.table.reserve(rules, sum(table.kongs)) + 1:
                cands.append((i, remaining))
    i, remaining = ctx.pick(cands)
    r = ctx.before(i)
    drawn_ev = _mk(ev.HandDrawn, ctx.events[i - 1], remaining=remaining)
    r.apply(msgspec.structs.replace(drawn_ev, seq=r.table.seq + 1))
    settled, scores = _settle_events(r, drawn_ev, [], None, None)
    fees = _first_fee(ctx, i)
    return _cut(ctx, i, [drawn_ev, settled, *fees], i, scores)


def f_remaining_misreported(ctx: _Ctx):
    """黄庄 reports more tiles remaining than the table has."""
    i = ctx.pick([i for i, e in enumerate(ctx.events) if type(e) is ev.HandDrawn])
    e = ctx.events[i]
    wrong = msgspec.structs.replace(e, remaining=e.remaining + ctx.pick([1, 2, 5]))
    return ctx.events[:i] + [wrong] + ctx.events[i + 1:], i


def f_wrong_dealer(ctx: _Ctx):
    """A hand dealt by the wrong seat (not the winner / the same dealer after 黄庄 / the discarder)."""
    cands = [i for i, e in enumerate(ctx.events) if type(e) is ev.HandStarted and e.hand > 1]
    i = ctx.pick(cands)
    e = ctx.events[i]
    n = len(ctx.before(i).table.players)
    wrong = (e.dealer + 1 + ctx.rng.randrange(n - 1)) % n
    return _cut(ctx, i, [msgspec.structs.replace(e, dealer=wrong)], i)


# ---------------------------------------------------------------------------
# the stream


def f_seq_gap(ctx: _Ctx):
    """One sequence number skipped."""
    i = ctx.rng.randrange(1, len(ctx.events))
    new = [e if k < i else msgspec.structs.replace(e, seq=e.seq + 1) for k, e in enumerate(ctx.events)]
    return new, -(i + 1)  # negative: already numbered; the seq is i + 1


def f_repeated_event(ctx: _Ctx):
    """One event written twice (same seq)."""
    i = ctx.rng.randrange(1, len(ctx.events) - 1)
    new = ctx.events[:i + 1] + [ctx.events[i]] + ctx.events[i + 1:]
    return new, -(i + 0) - 1000000  # special: seq i repeats


# ---------------------------------------------------------------------------
# the room as opened, and 养猪 bets: planted, then the room closes at once


def _opened_ruleset(e: ev.GameOpened):
    """The ruleset as the opening event states it (preset + options, before any
    correction to the seats actually named)."""
    from schema.ruleset import resolve
    opts = {k: v for k, v in msgspec.structs.asdict(e.options).items() if v is not None}
    return resolve(e.preset, opts or None)


def _room_codes(e: ev.GameOpened) -> list[str]:
    """The catalogue codes the family finds wrong with the room as opened."""
    rules = _opened_ruleset(e)
    return [v.code for v in family_of(rules).settlement.check_room(rules, e.seats, e.start_points)]


def _opened_only(ctx: _Ctx, opened: ev.GameOpened) -> tuple[Events, int]:
    """The room opens as ``opened`` and is dissolved at once (nothing settled, nothing charged)."""
    return [opened, _close([opened], [opened.start_points] * len(opened.seats))], 0


def f_room_seats_mismatch(ctx: _Ctx):
    """The seats a room names do not match its players option.

    Four seats with ``players`` 3, or three seats with ``players`` 4; the room is then
    dissolved at once.
    """
    opened = ctx.events[0]
    if len(opened.seats) == 4 and ctx.rng.random() < 0.5:
        wrong = msgspec.structs.replace(opened, options=msgspec.structs.replace(opened.options, players=3))
    else:
        options = msgspec.structs.replace(opened.options, players=None)
        wrong = msgspec.structs.replace(opened, seats=list(opened.seats[:3]), options=options,
                                        creator=min(opened.creator, 2))
    if _room_codes(wrong) != ["ROOM_SEATS_MISMATCH"]:
        raise NotApplicable("the room's seats cannot be made to disagree with its players option alone")
    return _opened_only(ctx, wrong)


def f_qiaoluo_start_points(ctx: _Ctx):
    """20分敲锣: the room opens with start points other than the rule's.

    The room is then dissolved at once.
    """
    opened = ctx.events[0]
    if not _opened_ruleset(opened).qiaoluo:
        raise NotApplicable("the room does not play 20分敲锣")
    delta = ctx.rng.choice((-3, -2, -1, 1, 2, 5))
    wrong = msgspec.structs.replace(opened, start_points=max(1, opened.start_points + delta))
    if _room_codes(wrong) != ["QIAOLUO_START_POINTS"]:
        raise NotApplicable("no other start points to plant")
    return _opened_only(ctx, wrong)


def _bet_code(ctx: _Ctx, i: int, bet: ev.PigBetPlaced, placed_before: bool, dealt: bool) -> Optional[str]:
    """The family's verdict on the bet ``bet`` placed at event ``i``."""
    r = ctx.before(i)
    found = _family(r).settlement.check_bet(r.table.ruleset, bet.bet, placed_before, dealt)
    return found.code if found is not None else None


def _bad_bet(ctx: _Ctx, prefix: Events, bet: ev.PigBetPlaced, i: int) -> tuple[Events, int]:
    """``prefix`` + the bad bet; the room then closes with the scores as they stand."""
    if _bet_code(ctx, i, bet, any(type(e) is ev.PigBetPlaced and e.seat == bet.seat
                                   for e in prefix[_hand_start(prefix):]),
                 any(type(e) is ev.TilesDealt for e in prefix[_hand_start(prefix):])) != "YANGZHU_BET_INVALID":
        raise NotApplicable("the family finds nothing wrong with this bet")
    new = prefix + [bet]
    new.append(_close(new, _scores_now(new)))
    return new, len(prefix)


def _hand_start(events: Events) -> int:
    return max((k for k, e in enumerate(events) if type(e) is ev.HandStarted), default=0)


def f_pig_bet_out_of_range(ctx: _Ctx):
    """养猪: a pig bet of 3 (each player bets 0, 1 or 2)."""
    i = ctx.pick([i for i, e in enumerate(ctx.events) if type(e) is ev.PigBetPlaced])
    return _bad_bet(ctx, ctx.events[:i], msgspec.structs.replace(ctx.events[i], bet=3), i)


def f_pig_bet_twice(ctx: _Ctx):
    """养猪: a player bets a second time in one hand (before the deal)."""
    i = ctx.pick([i for i, e in enumerate(ctx.events) if type(e) is ev.PigBetPlaced])
    again = _mk(ev.PigBetPlaced, ctx.events[i], seat=ctx.events[i].seat, bet=ctx.rng.choice((0, 1, 2)))
    return _bad_bet(ctx, ctx.events[:i + 1], again, i + 1)


def f_pig_bet_after_deal(ctx: _Ctx):
    """养猪: a player's only bet of the hand is placed after the deal."""
    i = ctx.pick([i for i, e in enumerate(ctx.events) if type(e) is ev.TilesDealt
                  and any(type(x) is ev.PigBetPlaced for x in ctx.events[_hand_start(ctx.events[:i + 1]):i])])
    start = _hand_start(ctx.events[:i + 1])
    bets = [e for e in ctx.events[start:i] if type(e) is ev.PigBetPlaced]
    seat = ctx.rng.choice(bets).seat
    prefix = [e for k, e in enumerate(ctx.events[:i + 1])
              if not (k >= start and type(e) is ev.PigBetPlaced and e.seat == seat)]
    late = _mk(ev.PigBetPlaced, ctx.events[i], seat=seat, bet=ctx.rng.choice((0, 1, 2)))
    return _bad_bet(ctx, prefix, late, i + 1)


def f_pig_bet_without_yangzhu(ctx: _Ctx):
    """养猪: a pig bet in a room that does not play 养猪."""
    i = ctx.pick([i for i, e in enumerate(ctx.events) if type(e) is ev.HandStarted])
    n = len(ctx.before(i + 1).table.players)
    bet = _mk(ev.PigBetPlaced, ctx.events[i], seat=ctx.rng.randrange(n), bet=ctx.rng.choice((1, 2)))
    return _bad_bet(ctx, ctx.events[:i + 1], bet, i + 1)


def f_birds_in_a_room_without(ctx: _Ctx):
    """Birds (扎鸟, 长沙's) drawn after a win in a room whose rules draw none."""
    i = ctx.pick([i for i, e in enumerate(ctx.events) if type(e) is ev.HandWon and e.winners])
    won = ctx.events[i]
    # ``last``: the winning tile repeated, so no tile leaves the wall and the rest of the log holds
    birds = _mk(ev.BirdsDrawn, won, tiles=[won.tile], origin=won.winners[0].seat, source="last")
    return ctx.events[:i + 1] + [birds] + ctx.events[i + 1:], i + 1


# ---------------------------------------------------------------------------
# billing


def f_fee_not_charged(ctx: _Ctx):
    """The room's fee is not charged at the first settlement."""
    i = ctx.pick([i for i, e in enumerate(ctx.events) if type(e) is ev.FeeCharged])
    # every fee event of the first settlement goes; the room then closes
    k = i
    while k < len(ctx.events) and type(ctx.events[k]) in (ev.FeeCharged, ev.FeeRefunded):
        k += 1
    ctx.events = ctx.events[:i] + ctx.events[k:]
    return _cut(ctx, i, [], i)


def _table() -> dict[str, Fault]:
    rows = [
        # name, code, group, function
        ("tiles_not_in_hand", "CLAIM_TILES_NOT_IN_HAND", "claims", f_tiles_not_in_hand),
        ("chicken_wild_in_pong", "CLAIM_WILD_IN_PONG", "claims", f_wild_in_pong),
        ("chow_when_disabled", "CLAIM_CHOW_DISABLED", "claims", f_chow_disabled),
        ("chow_wrong_seat", "CLAIM_CHOW_WRONG_SEAT", "claims", f_chow_wrong_seat),
        ("illegal_kong_chickens", "KONG_ILLEGAL_CHICKENS", "claims", f_illegal_kong),
        ("claim_own_discard", "CLAIM_OWN_DISCARD", "claims", f_claim_own_discard),
        ("priority_inversion", "CLAIM_PRIORITY", "claims", f_priority),
        ("guoshou_peng", "GUOSHOU_PENG", "claims", f_guoshou_peng),
        ("guoshou_gang", "GUOSHOU_GANG", "claims", f_guoshou_gang),
        ("incomplete_win", "WIN_INCOMPLETE", "wins", f_incomplete_win),
        ("zero_fan_discard_win", "WIN_ZERO_FAN_DISCARD", "wins", f_zero_fan_discard),
        ("win_during_guohu", "WIN_DURING_GUOHU", "wins", f_win_during_guohu),
        ("rob_during_guohu", "WIN_DURING_GUOHU", "wins", f_rob_during_guohu),
        ("rob_late", "ROB_LATE", "wins", f_rob_late),
        ("wrong_fan", "FAN_MISMATCH", "scoring", f_wrong_fan),
        ("cap_not_applied", "POINTS_MISMATCH", "scoring", f_cap_not_applied),
        ("qianggang_wrong_payer", "QIANGGANG_PAYER", "scoring", f_qianggang_payer),
        ("multi_win_wrong_order", "MULTI_WIN_ORDER", "scoring", f_multi_win_order),
        ("dianji_wrong_amount", "DIANJI_MISMATCH", "scoring", f_dianji_amount),
        ("yangzhu_wrong_amount", "YANGZHU_MISMATCH", "scoring", f_yangzhu_amount),
        ("pig_bet_out_of_range", "YANGZHU_BET_INVALID", "scoring", f_pig_bet_out_of_range),
        ("pig_bet_twice", "YANGZHU_BET_INVALID", "scoring", f_pig_bet_twice),
        ("pig_bet_after_deal", "YANGZHU_BET_INVALID", "scoring", f_pig_bet_after_deal),
        ("pig_bet_without_yangzhu", "YANGZHU_BET_INVALID", "scoring", f_pig_bet_without_yangzhu),
        ("qiaoluo_start_points", "QIAOLUO_START_POINTS", "scoring", f_qiaoluo_start_points),
        ("score_below_zero", "SCORE_BELOW_ZERO", "scoring", f_below_zero),
        ("game_not_ended_at_zero", "GAME_NOT_ENDED_AT_ZERO", "scoring", f_not_ended_at_zero),
        ("room_seats_mismatch", "ROOM_SEATS_MISMATCH", "table", f_room_seats_mismatch),
        ("birds_in_a_room_without", "EVENT_NOT_IN_RULESET", "table", f_birds_in_a_room_without),
        ("tile_duplicated", "TILE_OVERCOUNT", "table", f_tile_duplicated),
        ("draw_out_of_wall_order", "DRAW_NOT_WALL_ORDER", "table", f_draw_out_of_order),
        ("tail_replacement_not_face_up", "KONG_REPLACEMENT_NOT_FROM_TAIL", "table", f_tail_not_face_up),
        ("tail_not_refilled", "TAIL_REFILL_WRONG", "table", f_tail_not_refilled),
        ("no_exhaustive_draw", "EXHAUSTIVE_DRAW_MISSED", "table", f_no_exhaustive_draw),
        ("early_exhaustive_draw", "EXHAUSTIVE_DRAW_EARLY", "table", f_early_exhaustive_draw),
        ("remaining_misreported", "REMAINING_MISMATCH", "table", f_remaining_misreported),
        ("wrong_dealer", "DEALER_ROTATION", "table", f_wrong_dealer),
        ("sequence_gap", "STREAM_SEQ_GAP", "stream", f_seq_gap),
        ("repeated_event", "STREAM_SEQ_REPEAT", "stream", f_repeated_event),
        ("fee_not_charged", "FEE_NOT_CHARGED", "billing", f_fee_not_charged),
    ]
    out = {}
    for name, code, group, fn in rows:
        assert code in CATALOGUE, code
        out[name] = Fault(name, code, group, (fn.__doc__ or name).strip().splitlines()[0], fn, ("qujing",))
    return out


#: The Qujing fault classes by name.
FAULTS: dict[str, Fault] = _table()


#: Where ``bench/faults.py --family qujing`` plants the classes: these rooms in turn, each
#: worker on its own seeds (the presets and options each class needs somewhere).
FAULT_BENCH = FaultBench(seed=8000, max_games=3000, rooms=(
    dict(preset="qujing-xiaoji", options={"chow": True, "dianji": True}, max_hands=4),
    dict(preset="qujing-baiban", options={"yangzhu": True}, max_hands=4),
    dict(preset="qujing-shuanggui", options={"qiaoluo": True, "qiaoluo_points": 8}, max_hands=None),
    dict(preset="qujing-xiaoji", options={"dianji": True}, players=3, max_hands=4),
    dict(preset="qujing-shuanggui", options={"chow": True, "yangzhu": True}, max_hands=4),
    dict(preset="qujing-xiaoji", options={"qiaoluo": True, "qiaoluo_points": 8, "yangzhu": True}, max_hands=None)))
