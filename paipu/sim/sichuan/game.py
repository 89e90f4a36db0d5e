"""The Sichuan simulator (sichuan.md): bots play both presets legally and log them as a
correct server would, through :class:`paipu.sim.sichuan.script.Script` (so fans, points and every
transfer come from the family).

The bots: 换三张 (by option) of their shortest suit, 定缺 of their shortest suit (now and
then of another, which makes 花猪), void tiles first, then the shared bot's discard
(:func:`paipu.sim.bot.bot_discard`: keep 听牌, else the least useful tile, by a flavour
drawn per seat and hand), wins (always over the last four tiles,
otherwise nearly always; a declined discard win starts 过水), concealed, added and exposed
kongs, pongs, robbing an added kong, 一炮多响, 血战 seats leaving, exhaustive ends with
查花猪 / 查大叫 / 退税.  ``arrange`` (0..1) is the share of hands whose wall is arranged by
seeding so that a rare hand arises (天胡, 地胡, 将对); the coverage bench reports
how many.
"""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Optional

from audits.rules.sichuan import SICHUAN
from audits.rules.sichuan import fans as F
from audits.rules.sichuan import play
from audits.rules.sichuan.settlement import next_dealer
from schema import events as ev
from schema.builder import EPOCH
from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX, TILE_NAMES

from ..bot import SeatView, bot_discard
from ..kept_waits import kept_wait_entry, waited_before_draw
from .script import Script

SET = [k for k in range(27) for _ in range(4)]
#: per seat: the other three seats from its next
_AFTER = tuple(tuple((s + k) % 4 for k in range(1, 4)) for s in range(4))


class _End(Exception):
    """The hand is over."""


#: no wild tiles in a 108-tile set
_NO_WILDS: frozenset[int] = frozenset()


def _flavour(rng: random.Random) -> Optional[str]:
    """A seat's style for a hand (strategy): chase one suit (清一色), pairs (七对), pongs
    and kongs (大对子, 根), or none."""
    x = rng.random()
    return "suit" if x < 0.3 else "pairs" if x < 0.45 else "kongs" if x < 0.55 else None


# --- the deal: 换三张 and arranged walls (strategy and seeding, not rules) ---------------------

def _three(hand: list[int]) -> list[int]:
    """换三张: three tiles of the shortest suit holding at least three."""
    by = {u: [t for t in hand if t // 9 == u] for u in range(3)}
    u = min((u for u in range(3) if len(by[u]) >= 3), key=lambda u: len(by[u]))
    return sorted(by[u])[:3]

def _arranged(rng: random.Random, wall: list[int], kind: str) -> list[int]:
    """A wall whose deal (or last tile) makes a rare moment likely."""
    if kind == "jiangdui":  # the dealer is dealt 2/5/8 pongs and a pair (天胡 where it is on)
        a, b = rng.sample(range(3), 2)
        hand = [9 * a + 1] * 3 + [9 * a + 4] * 3 + [9 * a + 7] * 3 + [9 * b + 1] * 3 + [9 * b + 4] * 2
        rest = list(wall)
        for t in hand:
            rest.remove(t)
        return hand + rest
    if kind in ("tianhe", "dihe"):
        s = rng.randrange(3)
        base = [9 * s + r for r in (0, 1, 2, 3, 4, 5, 6, 7, 8)] + [9 * s + rng.randrange(9)] * 2
        r = rng.randrange(7)
        hand = base + [9 * s + r, 9 * s + r + 1, 9 * s + r + 2]
        counts = [hand.count(k) for k in range(27)]
        if max(counts) > 4:
            return wall
        rest = list(wall)
        for t in hand:
            rest.remove(t)
        if kind == "tianhe":
            return hand + rest
        # 地胡: the dealer's 下家 is dealt 13 of them and draws the 14th first
        last = hand.pop()
        out = rest[:14] + hand + rest[14:]
        out.insert(14 + 13 * 3, last)
        return out
    return wall


class SichuanGame:
    """One room of ``hands`` hands."""

    def __init__(self, config, rules: Ruleset, rng: random.Random, index: int, stats) -> None:
        self.cfg = config
        self.rules = rules
        self.rng = rng
        self.stats = stats
        self.arrange = float(getattr(config, "arrange", 0.0) or 0.0)
        start = EPOCH + timedelta(hours=index)
        # the players come from the simulator's pool (their own random stream, so the play of a
        # seed stays what it was); the build from --build, or one of the builds per room
        from ..simulate import seat_players

        seats = seat_players(config, random.Random(f"players-{config.seed}-{index}"))
        build = rng.choice(config.builds) if config.builds else config.build
        self.g = Script(f"{getattr(config, 'game_prefix', 'sim-')}{config.seed}-{index:05d}", preset=config.preset,
                        options=dict(config.options), server=config.server, start=start, build=build, seats=seats)
        #: the room's live table (the script's replayer keeps one table for the room)
        self.table = self.g.t
        self.arranged = 0
        #: per seat: (its hand's signature, the family's wait entry for it), kept until
        #: that seat's hand changes (see :meth:`_wait_entry`)
        self.waits: list = [None] * 4

    def play(self) -> list[ev.Event]:
        dealer = 0
        hands = self.cfg.max_hands or 8
        self.stats.games += 1
        for h in range(1, hands + 1):
            first = self.hand(h, dealer)
            dealer = next_dealer(self.rules, dealer, first)
        self.g.close()
        return list(self.g.b.events)

    # -- one hand -------------------------------------------------------------------------

    def hand(self, number: int, dealer: int):
        rng, g, rules = self.rng, self.g, self.rules
        wall = list(SET)
        rng.shuffle(wall)
        if self.cfg.biased_shuffle:
            from ..simulate import bias_wall

            bias_wall(wall, 4, rng, keep=4)  # the 108-tile wall has 31 tiles after the 24
        kind = None
        if self.arrange and rng.random() < self.arrange:
            kind = rng.choice(("tianhe", "dihe", "jiangdui"))
            wall = _arranged(self.rng, wall, kind)
            self.arranged += 1
        self.wall = wall
        order = [dealer] + [(dealer + k) % 4 for k in range(1, 4)]
        dealt = {dealer: wall[0:14]}
        pos = 14
        for s in order[1:]:
            dealt[s] = wall[pos:pos + 13]
            pos += 13
        self.head, self.tail = pos, 107
        exchange = None
        hands = {s: list(dealt[s]) for s in range(4)}
        if rules.huan_san_zhang:
            direction = rng.choice(("next", "prev", "across"))
            given = [_three(hands[s]) for s in range(4)]
            exchange = (direction, given)  # each seat's three tiles, sorted
            step = {"next": 1, "prev": 3, "across": 2}[direction]
            for s in range(4):
                for t in given[s]:
                    hands[s].remove(t)
            for s in range(4):
                hands[(s + step) % 4] += given[s]
        voids = ""
        for s in range(4):
            counts = [sum(1 for t in hands[s] if t // 9 == u) for u in range(3)]
            v = min(range(3), key=lambda u: (counts[u], u))
            if rng.random() < 0.08:
                v = rng.randrange(3)  # a bold (or careless) declaration: 花猪 may follow
            voids += "mps"[v]
        g.hand(number, dealer, {s: sorted(dealt[s]) for s in range(4)}, voids if rules.dingque == "declared" else "",
               exchange=exchange, wall=wall)
        self.stats.hands += 1
        self.passed: dict[int, list] = {s: [] for s in range(4)}
        self.waits = [None] * 4
        self.flavour = [_flavour(rng) for _ in range(4)]
        winners_before = self.stats.winners
        try:
            self.turn(dealer, drew=False)
        except _End:
            pass
        # a hand is won when anyone won it (血战到底: it may still end at the wall), else drawn
        if self.stats.winners > winners_before:
            self.stats.wins += 1
        else:
            self.stats.draws += 1
        g.settle()
        return g.book.first

    # -- moves ------------------------------------------------------------------------------

    def _still_in(self) -> list[int]:
        return [s for s in range(4) if s not in self.table.out]

    def _void(self, s: int) -> int:
        return self.table.voids[s]

    def _draw(self, seat: int, tail: bool = False) -> int:
        if tail and self.rules.kong_replacement == "tail":
            tile = self.wall[self.tail]
            self.tail -= 1
        else:
            tile = self.wall[self.head]
            self.head += 1
        if tail:
            return tile
        self.g.draw(seat, TILE_NAMES[tile])
        self._own_action(seat)
        return tile

    def _own_action(self, seat: int) -> None:
        self.passed[seat] = []

    def _wait_entry(self, seat: int):
        """The family's wait entry for the seat's hand (``seat_waits``: False when no tile
        can complete it legally), kept until that seat's hand changes (:mod:`.kept_waits`)."""
        return kept_wait_entry(self.waits, SICHUAN.wins.seat_waits, self.rules, self.table, seat)

    def _drawn_may_complete(self, seat: int) -> bool:
        """False when the seat's hand before the tile it just drew had no wait (the
        family's wait entry kept for that hand): no tile completes it legally, drawn
        or discarded (no wild tiles).  True: ask the family in full."""
        return waited_before_draw(self.waits, self.table, seat, TILE_INDEX[self.g.b.events[-1].tile])

    def _value(self, seat: int, tile: int, kd: bool, how: str = "discard") -> Optional[int]:
        """A legal win of ``seat`` on ``tile`` from another seat (capped fan; ``how``: a discard,
        or ``robbed_kong`` with its 抢杠 fan), or None: the family's wait entry and exact
        shape test, then the void-suit gate (§8.1, §8.2)."""
        entry = self._wait_entry(seat)
        if not entry:
            return None
        t = self.table
        counts, melds = t.hands[seat], t.melds[seat]
        if not SICHUAN.wins.completes(self.rules, entry, counts, melds, tile):
            return None
        c = list(counts)
        c[tile] += 1
        if not F.void_ok(c, melds, self._void(seat), self.rules):
            return None
        return self.g._score(seat, TILE_NAMES[tile], how).capped

    def _may(self, seat: int, v: Optional[int]) -> bool:
        return v is not None and play.guoshui_allows(self.rules, self.passed[seat], v)

    def _end_if_over(self) -> None:
        t = self.table
        if t.phase == "won":
            raise _End

    def turn(self, seat: int, drew: bool) -> None:
        """``seat`` acts: (after its draw) self-draw win, kongs, then a discard and the claims."""
        g, rules, rng, t = self.g, self.rules, self.rng, self.table
        while True:
            last_four = play.in_last_four(rules, t.undrawn)
            hand = t.hands[seat]
            if (not drew or self._drawn_may_complete(seat)) and \
                    F.is_legal_shape(hand, t.melds[seat], self._void(seat), rules) and (
                    last_four or rng.random() < 0.95 or not drew):
                tile = g.b.events[-1].tile if drew else TILE_NAMES[max(k for k in range(27) if hand[k])]
                if drew or (seat == t.dealer and g.first_turn):
                    g.win([seat], "self_draw", tile)
                    self.stats.winners += 1
                    self._end_if_over()
                    self._next_after(seat)
                    return
            kong = self._kong_choice(seat) if t.undrawn >= 1 else None
            if kong is None:
                break
            kind, k = kong
            if kind == "kong_concealed":
                g.kong(seat, "kong_concealed", TILE_NAMES[k])
            else:
                g._do(g.b.kong_added, seat, TILE_NAMES[k])
                g.kong_turn = (seat, "kong_added", None)
                if self._robbing(seat, k):
                    return
                g.book.kong(seat, "kong_added", None)
            rep = self._draw(seat, tail=True)
            g.draw(seat, TILE_NAMES[rep], tail=True)
            self._own_action(seat)
            drew = True
        self._discard(seat)

    def _kong_choice(self, seat: int):
        t, rules, rng = self.table, self.rules, self.rng
        hand = t.hands[seat]
        if 4 in hand:
            for k in range(27):
                if hand[k] == 4 and not play.meld_violations(rules, t, seat, k, "kong") and rng.random() < 0.8:
                    return ("kong_concealed", k)
        for m in t.melds[seat]:
            if m.kind == "pong" and hand[m.of] and not play.meld_violations(rules, t, seat, m.of, "kong") \
                    and rng.random() < 0.8:
                return ("kong_added", m.of)
        return None

    def _robbing(self, adder: int, tile: int) -> bool:
        g, t, rules = self.g, self.table, self.rules
        last_four = play.in_last_four(rules, t.undrawn)
        robbers = []
        for s in self._still_in():
            if s == adder:
                continue
            v = self._value(s, tile, False, "robbed_kong")
            if v is None:
                continue
            if self._may(s, v) and (last_four or self.rng.random() < 0.9):
                robbers.append(s)
            elif self._may(s, v):
                self.passed[s].append(v)  # a rob let go bars with its value (过水, §7.1)
        if not robbers:
            return False
        robbers.sort(key=lambda s: (s - adder - 1) % 4)
        g.win(robbers, "robbed_kong", TILE_NAMES[tile], adder)
        self.stats.winners += len(robbers)
        self._end_if_over()
        self._next_after(robbers[-1])
        return True

    def _pick_discard(self, seat: int) -> int:
        t, rng = self.table, self.rng
        hand = t.hands[seat]
        v = self._void(seat)
        # a hand holding its void suit cannot win: its tiles go first (a rule with void_first,
        # else nearly always)
        if play.holds_void(t, seat) and (self.rules.void_first or rng.random() < 0.75):
            return rng.choice([k for k in range(9 * v, 9 * v + 9) if hand[k]])
        return bot_discard(rng, SeatView(_NO_WILDS, hand, t.melds[seat], t.keys[seat]), self.flavour[seat])

    def _discard(self, seat: int) -> None:
        g, t, rules, rng = self.g, self.table, self.rules, self.rng
        tile = self._pick_discard(seat)
        g.discard(seat, TILE_NAMES[tile])
        kd = g.kong_discard
        last_four = play.in_last_four(rules, t.undrawn)
        winners = []
        # the other seats still in, from the discarder's next
        others = [s for s in _AFTER[seat] if s not in t.out]
        for s in others:
            v = self._value(s, tile, kd)
            if v is None:
                continue
            if self._may(s, v):
                if last_four or rng.random() < 0.92:
                    winners.append(s)
                else:
                    self.passed[s].append(v)
        if winners:
            g.win(winners, "discard", TILE_NAMES[tile], seat)
            self.stats.winners += len(winners)
            self._end_if_over()
            self._next_after(winners[-1])
            return
        # pong / exposed kong
        for s in others:
            if not SICHUAN.claims.could_pong(rules, t.hands[s], tile) or play.meld_violations(rules, t, s, tile, "pong"):
                continue
            if SICHUAN.claims.could_kong(rules, t.hands[s], tile) \
                    and not play.meld_violations(rules, t, s, tile, "kong_exposed") and rng.random() < 0.6:
                g.kong(s, "kong_exposed", TILE_NAMES[tile], frm=seat)
                self._own_action(s)
                rep = self._draw(s, tail=True)
                g.draw(s, TILE_NAMES[rep], tail=True)
                self.turn(s, drew=True)
                return
            if rng.random() < 0.5:
                g.pong(s, seat, TILE_NAMES[tile])
                g.kong_discard = False
                g.replacement = False
                self._own_action(s)
                self._discard(s)
                return
        self._next_draw(seat)

    def _next_after(self, last: int) -> None:
        """血战: the next still-in seat after ``last`` draws (or the wall is exhausted)."""
        nxt = (last + 1) % 4
        while nxt in self.table.out:
            nxt = (nxt + 1) % 4
        self._draw_for(nxt)

    def _next_draw(self, discarder: int) -> None:
        self._next_after(discarder)

    def _draw_for(self, seat: int) -> None:
        t = self.table
        if t.undrawn == 0:
            self.g.exhausted()
            raise _End
        self._draw(seat)
        self.turn(seat, drew=True)
