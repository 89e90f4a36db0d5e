"""The fault injector: plant exactly one fault of a named class in a clean game log.

Each fault class knows the situation it needs (a pong, an added kong that was
robbed, a 20分敲锣 knock-out …), finds the places in a game where it arises,
picks one with the caller's ``random.Random`` and rewrites the events there.
It returns the new events and the finding the audit must report:
``[(code, seq)]``, the codes being those of :data:`audits.catalogue.CATALOGUE`.

So that one fault gives one finding, a fault that changes what follows in the
hand ends the game right after it: the rest of the log is cut and the room is
closed as ``dissolved`` with the scores as they then stand (a dissolved room is
legal at any moment).  Fans, points and settlements written around a planted
fault are computed by the rules engine, so only the planted step is wrong.

A fault class whose situation the game lacks returns ``None`` ("not
applicable"); the command then tries the next game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta
from typing import Callable, Optional, Sequence

import msgspec

from audits import claims as C
from audits import fans as F
from audits import settlement as S
from audits.catalogue import CATALOGUE
from replay import ReplayError, Replayer
from schema import events as ev
from schema.tiles import NUM_KINDS, TILE_INDEX, TILE_NAMES

__all__ = ["Fault", "FAULTS", "mutate", "Expected", "NotApplicable"]

Events = list[ev.Event]
Expected = list[tuple[str, int]]
_T = TILE_INDEX
_N = TILE_NAMES


class NotApplicable(Exception):
    """The game has no place for this fault class."""


@dataclass(frozen=True)
class Fault:
    """One fault class: its name, the audit code it must raise, and what it does."""

    name: str
    code: str
    group: str
    description: str
    apply: Callable[["_Ctx"], tuple[Events, int]]


# ---------------------------------------------------------------------------
# helpers


class _Ctx:
    """A game being mutated: its events, and the table before each event (on demand)."""

    def __init__(self, events: Sequence[ev.Event], rng: random.Random):
        self.events = list(events)
        self.orig = list(events)
        self.rng = rng
        if not self.events or type(self.events[0]) is not ev.GameOpened:
            raise NotApplicable("the game does not start with GameOpened")

    def walk(self):
        """Yield (index, event, replayer-before-event) for every event (one live replayer)."""
        r = Replayer()
        for i, e in enumerate(self.events):
            yield i, e, r
            try:
                r.apply(e if e.seq == i else msgspec.structs.replace(e, seq=i))
            except ReplayError:
                return

    def before(self, i: int) -> Replayer:
        r = Replayer()
        for k, e in enumerate(self.events[:i]):
            r.apply(e if e.seq == k else msgspec.structs.replace(e, seq=k))
        return r

    def kong_discard(self, i: int) -> bool:
        """Discard i was made right after its maker's kong replacement (杠上炮 context)."""
        j = i - 1
        while j >= 0 and type(self.events[j]) is ev.TailTurned:
            j -= 1
        e = self.events[j]
        return type(e) is ev.TileDrawn and e.source == "tail" and e.seat == self.events[i].seat

    def pick(self, cands: list):
        if not cands:
            raise NotApplicable("no place for this fault in the game")
        return self.rng.choice(cands)

    def hand_end(self, i: int) -> int:
        """Index of the HandSettled that closes the hand containing event i."""
        for j in range(i, len(self.events)):
            if type(self.events[j]) is ev.HandSettled:
                return j
        raise NotApplicable("the hand never settles")


def _renumber(events: Events) -> Events:
    """Consecutive seq from 0; inserted events take the time of the event before."""
    out: Events = []
    prev_at = None
    for i, e in enumerate(events):
        at = e.at if prev_at is None or e.at >= prev_at else prev_at
        out.append(e if (e.seq == i and at is e.at) else msgspec.structs.replace(e, seq=i, at=at))
        prev_at = at
    return out


def _mk(cls: type, like: ev.Event, **fields) -> ev.Event:
    return cls(like.game, like.seq, like.at + timedelta(milliseconds=1), **fields)


def _close(prefix: Events, r_scores: Sequence[int]) -> ev.Event:
    return _mk(ev.GameClosed, prefix[-1], reason="dissolved", scores=list(r_scores))


def _cut(ctx: _Ctx, keep: int, extra: Events, planted_at: int, scores: Optional[Sequence[int]] = None
         ) -> tuple[Events, int]:
    """events[:keep] + extra, then the room closes (dissolved). Returns (events, planted index)."""
    new = ctx.events[:keep] + extra
    if scores is None:
        scores = _scores_now(new)
    new.append(_close(new, scores))
    return new, planted_at


def _scores_now(events: Events) -> list[int]:
    """The scores as they stand after ``events``: the last settlement's, else the start points."""
    for e in reversed(events):
        if type(e) is ev.HandSettled:
            return list(e.scores)
    opened = events[0]
    n = len(opened.seats)
    for e in events:
        if type(e) is ev.RoomResized:
            n = len(e.seats)
    return [opened.start_points] * n


def _fees_after(ctx: _Ctx, j: int) -> int:
    """Index just after the fee events that follow a settlement at j."""
    k = j + 1
    while k < len(ctx.events) and type(ctx.events[k]) in (ev.FeeCharged, ev.FeeRefunded):
        k += 1
    return k


def _settle_events(r: Replayer, like: ev.Event, winners: list[tuple[int, int]], how: Optional[str],
                   from_seat: Optional[int]) -> tuple[ev.Event, list[int]]:
    w = r.work
    rules = w.ruleset
    paid, scores, _ = S.settle(rules, list(w.scores), winners, how, from_seat,
                               list(w.bets) if rules.yangzhu else None,
                               list(w.chickens) if rules.dianji else None)
    return _mk(ev.HandSettled, like, transfers=paid, scores=scores), scores


def _first_fee(ctx: _Ctx, upto: int) -> list[ev.Event]:
    """The fee events due at the first settlement when none was settled before ``upto``."""
    if any(type(e) is ev.HandSettled for e in ctx.events[:upto]):
        return []
    return [e for e in ctx.orig if type(e) in (ev.FeeCharged, ev.FeeRefunded)][:2]


def _win_at(ctx: _Ctx, i: int, seat: int, fans: list[str], fan: int, points: Optional[int] = None
            ) -> tuple[Events, int]:
    """Rewrite: after discard i, ``seat`` declares and wins on it; settle; close."""
    d = ctx.events[i]
    r = ctx.before(i + 1)
    rules = r.work.ruleset
    pts = F.points(fan, rules) if points is None else points
    decl = _mk(ev.ClaimDeclared, d, seat=seat, claim="win")
    won = _mk(ev.HandWon, d, winners=[ev.Winner(seat=seat, fans=fans, fan=fan, points=pts)], how="discard",
              tile=d.tile, from_seat=d.seat)
    r.apply(msgspec.structs.replace(decl, seq=r.work.seq + 1))
    r.apply(msgspec.structs.replace(won, seq=r.work.seq + 1))
    settled, scores = _settle_events(r, d, [(seat, pts)], "discard", d.seat)
    fees = _first_fee(ctx, i)
    return _cut(ctx, i + 1, [decl, won, settled, *fees], i + 2, scores)


def _discards(ctx: _Ctx):
    """(index, event, replayer-after-discard) for every discard."""
    for i, e, r in ctx.walk():
        if type(e) is ev.TileDiscarded:
            yield i, e, r


def _counts(r: Replayer, s: int) -> list[int]:
    return r.work.hands[s]


def _wild(r: Replayer) -> frozenset[int]:
    return r.work.wild


def _score(r: Replayer, s: int, t: int, how: str, kong_discard: bool = False) -> F.Score:
    w = r.work
    tiles = [k for k in range(NUM_KINDS) for _ in range(w.hands[s][k])]
    if how != "self_draw":
        tiles.append(t)
    return F.score_hand(tiles, w.melds[s], w.ruleset, F.WinContext(how, t, kong_discard=kong_discard))


# ---------------------------------------------------------------------------
# claims


def _claim_sites(ctx: _Ctx, want: Callable[[Replayer, int, int, int], Optional[list[ev.Event]]]
                 ) -> tuple[Events, int]:
    """Discards where some seat's extra claim ``want(r, d, t, s)`` can be inserted after the claims."""
    cands = []
    for i, e in enumerate(ctx.events):
        if type(e) is not ev.TileDiscarded:
            continue
        cands.append(i)
    ctx.rng.shuffle(cands)
    for i in cands[:60]:
        r = ctx.before(i + 1)
        d, t = ctx.events[i].seat, _T[ctx.events[i].tile]
        seats = [s for s in range(len(r.work.players)) if s != d]
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


def f_tiles_not_in_hand(ctx: _Ctx):
    """A pong with two tiles the player does not hold."""
    def want(r, d, t, s):
        if _counts(r, s)[t] < 2 and _counts(r, s)[t] >= 0:
            return [_proto(ev.Ponged, seat=s, from_seat=d, tile=_N[t], tiles=[_N[t], _N[t]])]
    return _claim_sites(ctx, want)


def f_wild_in_pong(ctx: _Ctx):
    """A pong made of one natural tile and a chicken acting as wild."""
    def want(r, d, t, s):
        c = _counts(r, s)
        wild = [k for k in _wild(r) if c[k] and k != t]
        if t not in _wild(r) and c[t] == 1 and wild:
            return [_proto(ev.Ponged, seat=s, from_seat=d, tile=_N[t], tiles=[_N[t], _N[wild[0]]])]
    return _claim_sites(ctx, want)


def _run_pair(c: list[int], t: int) -> Optional[list[int]]:
    if t >= 27:
        return None
    r = t % 9
    for a, b in ((-2, -1), (-1, 1), (1, 2)):
        if 0 <= r + a and r + b <= 8 and c[t + a] and c[t + b]:
            return [t + a, t + b]
    return None


def _illegal_chow(ctx: _Ctx, chow_on: bool, from_shangjia: bool):
    """A chow planted where the room's chow option and the claimer's seat are as given."""
    def want(r, d, t, s):
        n = len(r.work.players)
        if r.work.ruleset.chow != chow_on or (s == (d + 1) % n) != from_shangjia:
            return None
        p = _run_pair(_counts(r, s), t)
        if p:
            return [_proto(ev.Chowed, seat=s, from_seat=d, tile=_N[t], tiles=[_N[x] for x in p])]
    return _claim_sites(ctx, want)


def f_chow_disabled(ctx: _Ctx):
    """A chow in a room that did not enable 吃."""
    return _illegal_chow(ctx, chow_on=False, from_shangjia=True)


def f_chow_wrong_seat(ctx: _Ctx):
    """A chow of a discard that did not come from 上家."""
    return _illegal_chow(ctx, chow_on=True, from_shangjia=False)


def f_illegal_kong(ctx: _Ctx):
    """An exposed kong of one natural tile and two chickens (only a natural pair + 1 chicken may)."""
    def want(r, d, t, s):
        c = _counts(r, s)
        wk = [k for k in _wild(r) for _ in range(c[k]) if k != t]
        if t not in _wild(r) and c[t] == 1 and len(wk) >= 2:
            # 直杠 with one natural and two chickens (only a natural pair + 1 chicken may)
            return [_proto(ev.KongExposed, seat=s, from_seat=d, kind=_N[t], tile=_N[t],
                           tiles=[_N[t], _N[wk[0]], _N[wk[1]]])]
    return _claim_sites(ctx, want)


def f_priority(ctx: _Ctx):
    """A seat passed a higher claim it could make; the log says it declared it, yet the lower claim won."""
    rank = C.PRIORITY
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
        n = len(r.work.players)
        for s in range(n):
            if s in (d, drawer):
                continue
            c = r.work.hands[s]
            if kind == "pong":
                ok = c[t] >= 2
            else:
                ok = c[t] == 2 and any(c[x] for x in r.work.wild if x != t) or c[t] == 3
            held = r.work.hands[drawer][t] + (1 if _T[e.tile] == t else 0)
            if ok and held >= 1 and t not in r.work.wild:
                cands.append((i, drawer, s, t))
    i, drawer, s, t = ctx.pick(cands)
    e = ctx.events[i]
    r = ctx.before(i + 1)
    c = r.work.hands[s]
    disc = _mk(ev.TileDiscarded, e, seat=drawer, tile=_N[t])
    if kind == "pong":
        claim = _mk(ev.Ponged, e, seat=s, from_seat=drawer, tile=_N[t], tiles=[_N[t], _N[t]])
    else:
        own = [t, t, t] if c[t] == 3 else [t, t, next(x for x in r.work.wild if c[x] and x != t)]
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
        for s in range(len(r.work.players)):
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
        for s in range(len(r.work.players)):
            if s == d or not _quick_complete(r, s, t):
                continue
            sc = _score(r, s, t, "discard", ctx.kong_discard(i))
            if sc.complete and sc.fan == 0:
                return _win_at(ctx, i, s, list(sc.fans), 0)
    raise NotApplicable("no discard that completes a hand without fan")


def _quick_complete(r: Replayer, s: int, t: int) -> bool:
    from audits import hands as H
    c = list(r.work.hands[s])
    w = 0
    for k in r.work.wild:
        w += c[k]
        c[k] = 0
    c[t] += 1
    melds = r.work.melds[s]
    return w >= 4 or H.is_winning(c, w, H.meld_use_of(melds) if melds else None, bool(melds))


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
        # walk forward to the next discards before s acts
        j = i + 1
        while j < len(ev_):
            e = ev_[j]
            if type(e) in (ev.HandWon, ev.HandDrawn, ev.HandSettled):
                break
            if type(e) in (ev.TileDrawn, ev.Chowed, ev.Ponged, ev.KongExposed, ev.KongAdded, ev.KongConcealed) \
                    and e.seat == s:
                break
            if type(e) is ev.TileDrawn and e.seat != s and e.source == "wall":
                r = ctx.before(j + 1)
                hand = r.work.hands[e.seat]
                for u in range(NUM_KINDS):
                    if hand[u] and u not in r.work.wild and _quick_complete(r, s, u):
                        sc = _score(r, s, u, "discard", False)
                        if sc.complete and sc.fan >= 1:
                            disc = _mk(ev.TileDiscarded, e, seat=e.seat, tile=_N[u])
                            ctx.events = ev_[:j + 1] + [disc]
                            return _win_at(ctx, j + 1, s, list(sc.fans), sc.fan)
            j += 1
    raise NotApplicable("no passed win (过胡) followed by a winnable discard")


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
        settled, sc = _settled_as(ctx.events[j], r.work.scores, transfers, scores)
    new = ctx.events[:i] + [won] + ctx.events[i + 1:j] + [settled]
    k = _fees_after(ctx, j)
    new += ctx.events[j + 1:k]
    new.append(_close(new, sc))
    return new, (i if planted == "won" else j)


def f_wrong_fan(ctx: _Ctx):
    """A winner's fans and fan total one more than the hand's highest reading."""
    i = ctx.pick(_won_hands(ctx, lambda e, r: not r.work.ruleset.qiaoluo))
    won = ctx.events[i]
    w0 = won.winners[0]
    extra = next(f for f in ("duidui", "hunyise", "wuji", "shuanggang") if f not in w0.fans)
    fans = [f for f in w0.fans if f != "dihu"] + [extra]
    fan = w0.fan + 1
    rules = ctx.before(1).work.ruleset
    w1 = ev.Winner(seat=w0.seat, fans=fans, fan=fan, points=F.points(fan, rules))
    return _resettle(ctx, i, msgspec.structs.replace(won, winners=[w1, *won.winners[1:]]))


def f_cap_not_applied(ctx: _Ctx):
    """Points of a hand over the fan cap paid without the cap (满牌)."""
    def pred(e, r):
        return not r.work.ruleset.qiaoluo and any(x.fan > r.work.ruleset.fan_cap for x in e.winners)
    i = ctx.pick(_won_hands(ctx, pred))
    won = ctx.events[i]
    rules = ctx.before(1).work.ruleset
    ws = [msgspec.structs.replace(x, points=rules.base * 2 ** x.fan) if x.fan > rules.fan_cap else x
          for x in won.winners]
    return _resettle(ctx, i, msgspec.structs.replace(won, winners=ws))


def _settled_of(ctx: _Ctx, i: int) -> ev.HandSettled:
    return ctx.events[ctx.hand_end(i)]


def f_qianggang_payer(ctx: _Ctx):
    """抢杠 paid by every other player instead of the kong adder alone (包三家)."""
    i = ctx.pick(_won_hands(ctx, lambda e, r: e.how == "robbed_kong" and not r.work.ruleset.qiaoluo))
    won = ctx.events[i]
    n = len(ctx.before(i).work.players)
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
    """一炮多响 paid in the wrong order (not seat order from the discarder's next seat)."""
    i = ctx.pick(_won_hands(ctx, lambda e, r: e.how == "discard" and len(e.winners) > 1
                            and not r.work.ruleset.qiaoluo))
    won = ctx.events[i]
    trs = _settled_of(ctx, i).transfers
    wins = [t for t in trs if t.reason in ("win", "yangzhu")]
    rest = [t for t in trs if t.reason not in ("win", "yangzhu")]
    groups: dict[int, list[ev.Transfer]] = {}
    for t in wins:
        groups.setdefault(t.payee, []).append(t)
    order = list(groups)[::-1]
    return _resettle(ctx, i, won, [t for p in order for t in groups[p]] + rest, planted="settled")


def _settled_hands(ctx: _Ctx, pred: Callable[[ev.HandSettled, Replayer], bool]) -> list[int]:
    return [i for i, e, r in ctx.walk() if type(e) is ev.HandSettled and pred(e, r)]


def _retransfer(ctx: _Ctx, j: int, transfers: list[ev.Transfer], scores: Optional[list[int]] = None
                ) -> tuple[Events, int]:
    settled, sc = _settled_as(ctx.events[j], ctx.before(j).work.scores, transfers, scores)
    new = ctx.events[:j] + [settled]
    k = _fees_after(ctx, j)
    new += ctx.events[j + 1:k]
    new.append(_close(new, sc))
    return new, j


def _bump(ctx: _Ctx, reason: str, delta: int) -> tuple[Events, int]:
    j = ctx.pick(_settled_hands(ctx, lambda e, r: not r.work.ruleset.qiaoluo
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
        if type(e) is not ev.HandSettled or not r.work.ruleset.qiaoluo:
            continue
        won = next((x for x in reversed(ctx.events[:j]) if type(x) in (ev.HandWon, ev.HandDrawn)), None)
        w = r.work
        rules = w.ruleset
        full: list[ev.Transfer] = []
        if type(won) is ev.HandWon:
            full += S.win_transfers(rules, [(x.seat, x.points) for x in won.winners], won.how, won.from_seat,
                                    list(w.bets) if rules.yangzhu else None)
        if rules.dianji:
            full += S.dianji_transfers(rules, list(w.chickens))
        sc = list(w.scores)
        for t in full:
            sc[t.payer] -= t.amount
            sc[t.payee] += t.amount
        if min(sc) < 0:
            cands.append((j, full, sc))
    j, full, sc = ctx.pick(cands)
    return _retransfer(ctx, j, full, sc)


def f_not_ended_at_zero(ctx: _Ctx):
    """20分敲锣: a player reached 0, yet another hand starts."""
    def pred(e, r):
        return r.work.ruleset.qiaoluo and any(x <= 0 for x in e.scores)
    j = ctx.pick(_settled_hands(ctx, pred))
    k = _fees_after(ctx, j)
    r = ctx.before(j + 1)
    won = next((e for e in reversed(ctx.events[:j]) if type(e) in (ev.HandWon, ev.HandDrawn)), None)
    prev = next(e for e in reversed(ctx.events[:j]) if type(e) is ev.HandStarted)
    if type(won) is ev.HandWon:
        dealer = S.next_dealer(prev.dealer, [x.seat for x in won.winners], won.how, won.from_seat)
    else:
        dealer = prev.dealer
    start = _mk(ev.HandStarted, ctx.events[k - 1], hand=prev.hand + 1, dealer=dealer, wall=None, dice=None)
    new = ctx.events[:k] + [start]
    new.append(_close(new, r.work.scores))
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
        if type(e) is ev.TileDrawn and e.source == "wall" and r.work.wall is not None:
            w = r.work
            h = w.wall_head
            lo = h + 1
            hi = w.wall_tail - 4
            if lo < hi and any(w.wall[x] != w.wall[h] for x in range(hi - 3, hi)):
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
    cands = [(i, tuple(r.work.tail)) for i, e, r in ctx.walk() if type(e) is ev.TileDrawn and e.source == "tail"]
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
    w = r.work
    d = next(e for e in reversed(ctx.events[:i]) if type(e) is ev.TileDiscarded)
    seat = (d.seat + 1) % len(w.players)
    tile = w.wall[w.wall_head] if w.wall is not None else next(k for k in range(NUM_KINDS) if w.hands[seat][k] < 4)
    drawn = _mk(ev.TileDrawn, ctx.events[i - 1], seat=seat, tile=_N[tile], source="wall")
    return _cut(ctx, i, [drawn], i)


def f_early_exhaustive_draw(ctx: _Ctx):
    """黄庄 declared while more than the reserve remains."""
    cands = []
    for i, e, r in ctx.walk():
        if type(e) is ev.TileDrawn and e.source == "wall":
            w = r.work
            remaining = w.undrawn - (0 if w.ruleset.draw_reserve_counts_tail else len(w.tail))
            if remaining > w.ruleset.reserve_for(sum(w.kongs)) + 1:
                cands.append((i, remaining))
    i, remaining = ctx.pick(cands)
    r = ctx.before(i)
    drawn_ev = _mk(ev.HandDrawn, ctx.events[i - 1], remaining=remaining)
    r.apply(msgspec.structs.replace(drawn_ev, seq=r.work.seq + 1))
    settled, scores = _settle_events(r, drawn_ev, [], None, None)
    fees = _first_fee(ctx, i)
    return _cut(ctx, i, [drawn_ev, settled, *fees], i, scores)


def f_wrong_dealer(ctx: _Ctx):
    """A hand dealt by the wrong seat (not the winner / the same dealer after 黄庄 / the discarder)."""
    cands = [i for i, e in enumerate(ctx.events) if type(e) is ev.HandStarted and e.hand > 1]
    i = ctx.pick(cands)
    e = ctx.events[i]
    n = len(ctx.before(i).work.players)
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
        ("priority_inversion", "CLAIM_PRIORITY", "claims", f_priority),
        ("guoshou_peng", "GUOSHOU_PENG", "claims", f_guoshou_peng),
        ("guoshou_gang", "GUOSHOU_GANG", "claims", f_guoshou_gang),
        ("incomplete_win", "WIN_INCOMPLETE", "wins", f_incomplete_win),
        ("zero_fan_discard_win", "WIN_ZERO_FAN_DISCARD", "wins", f_zero_fan_discard),
        ("win_during_guohu", "WIN_DURING_GUOHU", "wins", f_win_during_guohu),
        ("wrong_fan", "FAN_MISMATCH", "scoring", f_wrong_fan),
        ("cap_not_applied", "POINTS_MISMATCH", "scoring", f_cap_not_applied),
        ("qianggang_wrong_payer", "QIANGGANG_PAYER", "scoring", f_qianggang_payer),
        ("multi_win_wrong_order", "MULTI_WIN_ORDER", "scoring", f_multi_win_order),
        ("dianji_wrong_amount", "DIANJI_MISMATCH", "scoring", f_dianji_amount),
        ("yangzhu_wrong_amount", "YANGZHU_MISMATCH", "scoring", f_yangzhu_amount),
        ("score_below_zero", "SCORE_BELOW_ZERO", "scoring", f_below_zero),
        ("game_not_ended_at_zero", "GAME_NOT_ENDED_AT_ZERO", "scoring", f_not_ended_at_zero),
        ("tile_duplicated", "TILE_OVERCOUNT", "table", f_tile_duplicated),
        ("draw_out_of_wall_order", "DRAW_NOT_WALL_ORDER", "table", f_draw_out_of_order),
        ("tail_replacement_not_face_up", "KONG_REPLACEMENT_NOT_FROM_TAIL", "table", f_tail_not_face_up),
        ("tail_not_refilled", "TAIL_REFILL_WRONG", "table", f_tail_not_refilled),
        ("no_exhaustive_draw", "EXHAUSTIVE_DRAW_MISSED", "table", f_no_exhaustive_draw),
        ("early_exhaustive_draw", "EXHAUSTIVE_DRAW_EARLY", "table", f_early_exhaustive_draw),
        ("wrong_dealer", "DEALER_ROTATION", "table", f_wrong_dealer),
        ("sequence_gap", "STREAM_SEQ_GAP", "stream", f_seq_gap),
        ("repeated_event", "STREAM_SEQ_REPEAT", "stream", f_repeated_event),
        ("fee_not_charged", "FEE_NOT_CHARGED", "billing", f_fee_not_charged),
    ]
    out = {}
    for name, code, group, fn in rows:
        assert code in CATALOGUE, code
        out[name] = Fault(name, code, group, (fn.__doc__ or name).strip().splitlines()[0], fn)
    return out


#: Every fault class by name: the one mapping from fault to the audit's finding code.
FAULTS: dict[str, Fault] = _table()


def mutate(events: Sequence[ev.Event], fault: "Fault | str", rng: random.Random
           ) -> Optional[tuple[Events, Expected]]:
    """Plant one fault of class ``fault`` in one game's events.

    Returns ``(events, [(code, seq)])`` — the new events (renumbered) and the
    finding the audit must report — or ``None`` when the game has no place for
    this fault class.
    """
    f = FAULTS[fault] if isinstance(fault, str) else fault
    ctx = _Ctx(events, rng)
    try:
        new, at = f.apply(ctx)
    except (NotApplicable, StopIteration):
        return None
    if at <= -1000000:
        i = -(at + 1000000)
        return _renumber(new[:i + 1]) + [new[i + 1]] + _renumber_from(new[i + 2:], i + 1), [(f.code, i)]
    if at < 0:
        return new, [(f.code, -at)]
    return _renumber(new), [(f.code, at)]


def _renumber_from(events: Events, start: int) -> Events:
    return [msgspec.structs.replace(e, seq=start + k) if e.seq != start + k else e for k, e in enumerate(events)]
