"""Sichuan rooms written move by move (sichuan.md): the helper the sample logs, the tests
and the fault injector share.  Fans, points and every transfer come from the Sichuan
family (:mod:`audits.rules.sichuan`), never typed in; between the moves a caller
states, *filler* turns draw a tile that completes nobody's hand and discard it (摸切).
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence, Union

from audits.ledger import net_of
from audits.rules.family import WinContext
from audits.rules.sichuan import fans as F
from audits.rules.sichuan import play
from audits.rules.sichuan.settlement import Book
from replay import Replayer
from schema import events as ev
from schema.builder import GameBuilder
from schema.reader import GameLog
from schema.tiles import TILE_INDEX, TILE_NAMES, parse_hand, tiles_of


class Script:
    """Writes one Sichuan room move by move; fans and money come from the family."""

    def __init__(self, game: str, preset: str = "sichuan", options: Optional[dict] = None, creator: int = 0,
                 server: str = "paipu-samples", start=None, build: str = "1.0",
                 seats: Sequence[str] = ("A", "B", "C", "D")):
        kw = {"start": start} if start is not None else {}
        self.b = GameBuilder(game, preset=preset, options=options or {}, creator=creator,
                             server=server, build=build, seats=seats, **kw)
        self.r = Replayer()
        self.scores = [0, 0, 0, 0]
        self.r.apply(self.b.open())

    def _do(self, method, *args, **kw) -> ev.Event:
        e = method(*args, **kw)
        self.r.advance(e)  # the builder numbered it as the table's next event
        return e

    @property
    def t(self):
        return self.r.table

    @property
    def rules(self):
        return self.t.ruleset

    # -- a hand ---------------------------------------------------------------------

    def hand(self, number: int, dealer: int, hands: dict[int, Union[str, Sequence[int]]], voids: str,
             exchange: Optional[tuple[str, Sequence[Union[str, Sequence[int]]]]] = None,
             wall: Optional[Sequence[int]] = None) -> None:
        """Deal ``hands`` (seat -> tiles: a compact string, or sorted tile numbers),
        optionally exchange (each seat's three tiles, spelt the same ways), and declare
        ``voids`` (one suit letter per seat); ``wall``: the hand's wall, logged (head first)."""
        self._do(self.b.hand, number, dealer, wall)
        self.book = Book(self.rules)
        self.seen = [0] * 34
        for s in range(4):
            h = hands[s]
            for k in parse_hand(h) if isinstance(h, str) else h:
                self.seen[k] += 1
        self._do(self.b.deal, *[hands[s] for s in range(4)])
        if exchange is not None:
            self._do(self.b.exchange, exchange[0], *exchange[1])
        for s, v in enumerate(voids):
            self._do(self.b.void, s, v)
        self.first_turn = True
        self.kong_turn: Optional[tuple[int, str, Optional[int]]] = None
        self.replacement = False
        self.kong_discard = False

    def _seen(self, tile: str) -> None:
        self.seen[TILE_INDEX[tile]] += 1

    def draw(self, seat: int, tile: str, tail: bool = False) -> None:
        self._seen(tile)
        self.replacement = tail
        self._do(self.b.draw, seat, tile, "tail" if tail else "wall")

    def discard(self, seat: int, tile: str) -> None:
        self._do(self.b.discard, seat, tile)
        self.first_turn = False
        self.kong_discard = self.replacement
        self.replacement = False
        self.kong_turn = None

    def pong(self, seat: int, frm: int, tile: str) -> None:
        self._do(self.b.pong, seat, frm, tile)

    def kong(self, seat: int, kind: str, tile: str, frm: Optional[int] = None, replacement: Optional[str] = None) -> None:
        """A kong of ``kind`` (kong_exposed / kong_added / kong_concealed), standing at once
        (an added kong stands when its replacement is drawn), then its replacement."""
        if kind == "kong_exposed":
            self._do(self.b.kong_exposed, seat, frm, tile)
        elif kind == "kong_added":
            self._do(self.b.kong_added, seat, tile)
        else:
            self._do(self.b.kong_concealed, seat, tile)
        self.kong_turn = (seat, kind, frm)
        if kind != "kong_added":
            self.book.kong(seat, kind, frm)
        if replacement is not None:
            if kind == "kong_added":
                self.book.kong(seat, kind, frm)
            self.draw(seat, replacement, tail=True)

    def _score(self, seat: int, tile: str, how: str):
        t = self.t
        counts = list(t.hands[seat])
        if how != "self_draw":
            counts[TILE_INDEX[tile]] += 1
        extra = play.win_extras(self.rules, t, seat, how, self.first_turn)
        ctx = WinContext(how=how, win_tile=TILE_INDEX[tile],
                         after_kong=how == "self_draw" and self.replacement,
                         kong_discard=how == "discard" and self.kong_discard, **extra)
        tiles = tiles_of(counts)
        return F.score_tiles(self.rules, tiles, t.melds[seat], ctx)

    def win(self, seats: Sequence[int], how: str, tile: str, frm: Optional[int] = None) -> list:
        """A winning moment: each winner scored by the family, the money in the book."""
        scores = [self._score(s, tile, how) for s in seats]
        for s, sc in zip(seats, scores):
            assert sc.wins, (s, tile, sc)
        dgh = None
        if how == "self_draw" and self.kong_turn and self.kong_turn[0] == seats[0] and \
                self.kong_turn[1] == "kong_exposed" and self.replacement:
            dgh = self.kong_turn[2]
        self.book.win([(s, sc.points) for s, sc in zip(seats, scores)], how, frm,
                      how == "discard" and self.kong_discard, dgh)
        self._do(self.b.win, [(s, sc.fans, sc.fan, sc.points) for s, sc in zip(seats, scores)], how, tile, frm)
        self.replacement = False
        self.kong_turn = None
        return scores

    def exhausted(self) -> None:
        assert self.t.undrawn == 0
        classes = play.classify(self.rules, self.t)
        self.book.exhausted(classes)
        self._do(self.b.exhausted, 0)

    def settle(self, change: Optional[Callable[[list], list]] = None) -> list[int]:
        """HandSettled with the book's transfers (``change``: a fault planted in them; the
        scores follow the transfers as logged)."""
        transfers = list(self.book.transfers)
        if change is not None:
            transfers = change(transfers)
        net = net_of(transfers, 4)
        self.scores = [a + d for a, d in zip(self.scores, net)]
        self._do(self.b.settle, transfers, self.scores)
        return net

    def close(self) -> None:
        self._do(self.b.close, "hands_done", self.scores)

    # -- filler turns -----------------------------------------------------------------

    def safe_tile(self, seat: int, avoid: Sequence[str] = (), eager: bool = False) -> str:
        """A tile ``seat`` may draw and discard at once: one left in the wall (no fifth copy),
        not one of ``avoid`` (the example's own later tiles), never completing the drawer's
        hand, and in the last four tiles completing nobody's (§6.4).  Before the last four,
        tiles another seat could win on go first (that seat passes: no finding), so the
        wall's end is left with tiles nobody wants."""
        t = self.t
        bad = {TILE_INDEX[x] for x in avoid}
        last_four = t.undrawn - 1 <= 4
        best = None
        v = t.voids[seat]
        holds_void = self.rules.void_first and v >= 0 and any(t.hands[seat][9 * v:9 * v + 9])
        for k in range(27):
            if k in bad or self.seen[k] >= 4 or (holds_void and k // 9 != v):
                continue  # void first: a seat holding its void suit discards only those
            c = list(t.hands[seat])
            c[k] += 1
            if F.is_shape(c, t.melds[seat]):
                continue
            others = 0
            for s in range(4):
                if s == seat or s in t.out:
                    continue
                c = list(t.hands[s])
                c[k] += 1
                others += F.is_shape(c, t.melds[s])
            if others and (last_four or not eager):
                continue
            # keep the void suit of a seat that must discard it (a 花猪 to be) for that seat
            reserved = any(t.voids[s] == k // 9 and any(t.hands[s][9 * t.voids[s]:9 * t.voids[s] + 9])
                           for s in range(4) if s != seat)
            rank = (others, not reserved, 4 - self.seen[k])
            if best is None or rank > best[0]:
                best = (rank, k)
        assert best is not None, f"no safe filler tile left for seat {seat} at R = {t.undrawn}"
        return TILE_NAMES[best[1]]

    def filler(self, seat: int, avoid: Sequence[str] = (), eager: bool = False) -> None:
        """One filler turn: draw a safe tile and discard it."""
        tile = self.safe_tile(seat, avoid, eager)
        self.draw(seat, tile)
        self.discard(seat, tile)

    def fill_to_end(self, start: int, avoid: Sequence[str] = (), to: int = 0) -> int:
        """Filler turns from ``start`` (skipping seats that have left) until ``to`` tiles are
        left in the wall; returns the seat whose turn it is then."""
        s = start
        while self.t.undrawn > to:
            if s not in self.t.out:
                self.filler(s, avoid, eager=True)
            s = (s + 1) % 4
        while s in self.t.out:
            s = (s + 1) % 4
        return s

    def jsonl(self) -> bytes:
        return self.b.jsonl()

    def log(self) -> GameLog:
        """The room as a log the audit reads (events and their line numbers)."""
        events = list(self.b.events)
        return GameLog(game=self.b.game, file="<script>", events=events, lines=list(range(1, len(events) + 1)),
                       closed=bool(events) and type(events[-1]) is ev.GameClosed)

