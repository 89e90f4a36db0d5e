"""The Wuhan simulator (wuhan.md): the shared table driver with the family's own moves — 红中杠
and 癞子杠 (a 痞 tile always laid down while a kong is allowed, 癞子 beyond the first kept, now
and then that one too), the draw-only 海底 phase, and each winner logged with every paying
seat's share and settled as the family pays it (包 included).  Fans, shares and transfers come
from the family (:mod:`audits.rules.wuhan`), never from here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Optional

from audits.rules.wuhan import claims as wuhan_claims
from audits.rules.wuhan import laizi
from schema import events as ev
from schema.tiles import TILE_NAMES, tiles_of

from ..bot import SeatView
from ..simulate import _Game, _Hand, choose_discard, choose_kong, holds_out


class WuhanHand(_Hand):
    """One Wuhan hand on the shared driver."""

    def _special_to_set_aside(self, seat: int) -> Optional[int]:
        """The 痞 tile or 癞子 the bot lays down now (a single-tile kong), or None."""
        rules, table = self.rules, self.table
        if not self.can_kong_now() or wuhan_claims.in_haidi(rules, table):
            return None
        hand = table.hands[seat]
        for k in laizi.pi_kinds(rules):
            if hand[k]:
                return k
        w = laizi.wild(rules)
        if w is not None and (hand[w] >= 2 or (hand[w] == 1 and self.rng.random() < 0.15)):
            return w
        return None

    def _turn(self, seat: int, drew, after_call: bool):
        """Act until the seat discards (or the hand ends): win on the tile drawn, lay down
        single-tile kongs and kongs, then discard."""
        kong_this_turn = drew is not None and drew[1]
        table, rules = self.table, self.rules
        self.ask.fresh[seat] = False
        may_kong = not after_call or rules.kong_after_call
        while True:
            if drew is not None:
                win = self.ask.self_draw_win(seat, drew[0], drew[1])
                if win is not None and not holds_out(self, seat, win):
                    self._win([(seat, win)], "self_draw", drew[0], None)
            special = self._special_to_set_aside(seat) if may_kong else None
            if special is not None:
                self.book.clear(seat)
                self.emit(ev.TileSetAside, seat=seat, tile=TILE_NAMES[special])
                self.g.stats.bump(self.g.stats.claims, "hongzhong_gang" if special in laizi.pi_kinds(rules)
                                  else "laizi_gang")
                drew = self._replacement(seat)
                kong_this_turn = True
                continue
            view = SeatView(self.wild, table.hands[seat], table.melds[seat], table.keys[seat])
            kong = choose_kong(self, seat, view) if may_kong else None
            if kong is not None:
                kind, own, added = kong
                self.book.clear(seat)
                if added:
                    self.emit(ev.KongAdded, seat=seat, kind=TILE_NAMES[kind], tile=TILE_NAMES[own[0]])
                    self._robbing(seat, own[0])
                else:
                    self.emit(ev.KongConcealed, seat=seat, kind=TILE_NAMES[kind], tiles=[TILE_NAMES[x] for x in own])
                self.g.stats.bump(self.g.stats.claims, "kong_added" if added else "kong_concealed")
                drew = self._replacement(seat)
                kong_this_turn = True
                continue
            t = choose_discard(self, seat, view)
            t = self._judged_discard(seat, t)
            g = self.g
            g.r.discarded(g.b.add_values(ev.TileDiscarded, seat, TILE_NAMES[t]))
            return t, kong_this_turn

    def _loop(self) -> None:
        """The shared turn loop, with the 海底 phase (``haidi = last_four``): once a seat is due
        to draw with 1 ≤ D ≤ 4, each seat in turn draws, wins if it can, and keeps the tile."""
        n, rules, table = self.n, self.rules, self.table
        seat = self.dealer
        drew = None
        after_call = False
        while True:
            t, after_kong = self._turn(seat, drew, after_call)
            claim = self._claims(seat, t, after_kong)
            if claim is not None:
                seat, kind = claim
                drew = None
                after_call = True
                if kind == "kong":
                    drew = self._replacement(seat)
                continue
            nxt = (seat + 1) % n
            d = wuhan_claims.drawable(rules, table)
            if d <= 0:
                self.emit(ev.HandDrawn, remaining=self.ask.remaining())
                self._end(_drawn())
            if rules.haidi == "last_four" and d <= 4:
                self._haidi(nxt)
            tile = self.wall[self.head]
            self.head += 1
            self.book.clear(nxt)
            self.g.draw(nxt, tile, "wall")
            seat, drew, after_call = nxt, (tile, False), False

    def _haidi(self, seat: int) -> None:
        """海底: draws in turn, no discard, no kong, no claim; a win ends it, else 黄庄."""
        while wuhan_claims.drawable(self.rules, self.table) >= 1:
            tile = self.wall[self.head]
            self.head += 1
            self.book.clear(seat)
            self.g.draw(seat, tile, "wall")
            win = self.ask.self_draw_win(seat, tile, False)
            if win is not None:
                self.g.stats.bump(self.g.stats.claims, "haidi_win")
                self._win([(seat, win)], "self_draw", tile, None)
            seat = (seat + 1) % self.n
        self.emit(ev.HandDrawn, remaining=self.ask.remaining())
        self._end(_drawn())

    def _win(self, winners, how: str, tile: int, from_seat: Optional[int]) -> None:
        """Log each winner with its payers' shares and settle as the family pays (包 included)."""
        from ..simulate import HandResult
        stats = self.g.stats
        stats.bump(stats.claims, f"win_{how}")
        ws, transfers = [], []
        seats = {s for s, _ in winners}
        if len(winners) > 1 and how != "self_draw":
            winners = self._rescored_alone(winners, how, tile)
        for s, sc in winners:
            for f in sc.fans:
                stats.bump(stats.fans, f)
            if sc.cap_kind:
                stats.bump(stats.fans, f"cap:{sc.cap_kind}")
            if sc.liable is not None:
                stats.bump(stats.fans, f"bao:{sc.liable[1]}")
            ws.append(ev.Winner(seat=s, fans=list(sc.fans), fan=sc.fan, points=sc.points,
                                payers=[ev.PayerShare(seat=x.seat, fan=x.fan, multiple=x.multiple, amount=x.amount)
                                        for x in sc.shares]))
            from audits.rules.wuhan.settlement import transfers_of
            transfers += transfers_of(s, [(x.seat, x.amount) for x in sc.shares], sc.liable,
                                      [o for o in seats if o != s])
        self.g.last_won = self.emit(ev.HandWon, winners=ws, how=how, tile=TILE_NAMES[tile], from_seat=from_seat)
        scores = list(self.table.scores)
        for t in transfers:
            scores[t.payer] -= t.amount
            scores[t.payee] += t.amount
        self.emit(ev.HandSettled, transfers=transfers, scores=scores)
        stats.wins += 1
        stats.winners += len(winners)
        from ..simulate import _HandOver
        raise _HandOver(HandResult(winners=tuple(s for s, _ in winners), how=how, from_seat=from_seat))

    def _rescored_alone(self, winners, how: str, tile: int):
        """一炮多响 (``multi_win``, §10): each winner settled alone — the seats that won the same
        tile do not pay it, so each is scored again with the others as its co-winners (no 金顶
        with fewer than three paying seats, §9.3)."""
        seats = frozenset(s for s, _ in winners)
        table = self.table
        kong_discard = how == "discard" and bool(getattr(self, "_kong_discard", False))
        out = []
        for s, _sc in winners:
            ctx = replace(self.ask.context(s, how, tile, kong_discard=kong_discard, winners=len(winners)),
                          co_winners=seats - {s})
            out.append((s, self.family.scoring.score(self.rules, tiles_of(table.hands[s]) + [tile], table.melds[s],
                                                     ctx)))
        return out


def _drawn():
    from ..simulate import HandResult
    return HandResult(winners=(), how="drawn", from_seat=None)


class WuhanGame(_Game):
    """A Wuhan room on the shared table driver, its hands played by :class:`WuhanHand`."""

    hand_class = WuhanHand
