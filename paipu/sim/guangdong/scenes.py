"""Guangdong 鸡平和 rooms written move by move: the worked examples of guangdong.md §11
and the near misses the tests and sample logs need.

:class:`Scene` writes one room with the named tiles where they matter and ordinary
filler tiles everywhere else (each hand's 136 tiles are accounted for, so no kind
appears five times).  The fans, points and transfers of the examples are typed
in from the rules text (the money of §11, never computed by paipu), so a clean
audit of these logs checks paipu against the text.
"""

from __future__ import annotations

from collections import Counter
from typing import Optional, Sequence

from schema import events as ev
from schema.builder import GameBuilder
from schema.tiles import TILE_NAMES, parse_hand

#: Filler tiles in the order they are handed out: spread out, so a filler hand holds
#: no pair, run or wait of its own.
FILL_ORDER = ("1m 4m 7m 2p 5p 8p 3s 6s 9s 1z 2z 3z 4z 5z 6z 7z 2m 5m 8m 3p 6p 9p 1s 4s 7s "
              "3m 6m 9m 1p 4p 7p 2s 5s 8s").split()


def tiles_of(text: str) -> list[str]:
    """``"123m 4p"`` -> ``["1m", "2m", "3m", "4p"]``."""
    return [TILE_NAMES[t] for t in parse_hand(text.replace(" ", ""))] if text.strip() else []


class Scene:
    """One Guangdong room, hand by hand (no logged wall: the deal and draws are as written);
    ``preset``: another family's room written the same way (Xuzhou's scenes)."""

    def __init__(self, game: str, options: Optional[dict] = None, creator: int = 0,
                 preset: str = "guangdong-jipinghu"):
        self.b = GameBuilder(game, preset=preset, options=options or {}, creator=creator,
                             server="paipu-samples", build="1.0", fee=0)
        self.b.open()
        from schema.ruleset import resolve
        rules = resolve(preset, options or None)
        #: tiles a hand holds between turns (13, or 16) and in the set, from the room's ruleset
        self.size = rules.hand_size
        self.tile_count = rules.tile_count
        self.scores = [0, 0, 0, 0]
        self.number = 0
        self.pool: Counter = Counter()
        self.hands: list[Counter] = []
        self.reserved: Counter = Counter()
        self.avoid: set = set()

    # -- tiles ------------------------------------------------------------------------

    def _take(self, tile: str) -> str:
        if self.pool[tile] <= 0:
            raise ValueError(f"no {tile} left in this hand's tiles")
        self.pool[tile] -= 1
        return tile

    def filler(self, seat: Optional[int] = None, avoid: Sequence[str] = ()) -> str:
        """An unreserved tile of a kind the seat does not hold (spread out)."""
        held = self.hands[seat] if seat is not None else Counter()
        for name in FILL_ORDER:
            if self.pool[name] - self.reserved[name] > 0 and not held[name] and name not in avoid \
                    and name not in self.avoid:
                return self._take(name)
        for name in FILL_ORDER:
            if self.pool[name] - self.reserved[name] > 0:
                return self._take(name)
        raise ValueError("no tile left")

    def reserve(self, text: str) -> None:
        """Keep these tiles back for later draws (fillers never use them)."""
        for t in tiles_of(text):
            self.reserved[t] += 1

    # -- a hand -------------------------------------------------------------------------

    def hand(self, dealer: int, hands: dict, reserve: str = "", avoid: str = "", **winds) -> None:
        """Start a hand: ``hands`` names some seats' dealt tiles (the rest filled);
        ``avoid``: kinds never handed out as fillers while others remain."""
        self.number += 1
        self.avoid = set(tiles_of(avoid))
        self.pool = Counter({t: 4 for t in TILE_NAMES})
        self.reserved = Counter()
        self.hands = [Counter() for _ in range(4)]
        self.fill: list[list[str]] = [[] for _ in range(4)]
        dealt: list[list[str]] = [[] for _ in range(4)]
        for s, text in hands.items():
            for t in tiles_of(text):
                dealt[s].append(self._take(t))
                self.hands[s][t] += 1
        self.reserve(reserve)
        for s in range(4):
            want = self.size + 1 if s == dealer else self.size
            if len(dealt[s]) > want:
                raise ValueError(f"seat {s} dealt {len(dealt[s])} tiles")
            while len(dealt[s]) < want:
                t = self.filler(s)
                dealt[s].append(t)
                self.fill[s].append(t)
                self.hands[s][t] += 1
        e = self.b.hand(self.number, dealer)
        if winds:
            import msgspec
            self.b.events[-1] = msgspec.structs.replace(e, **winds)
        self.b.deal(*[sorted(d, key=TILE_NAMES.index) for d in dealt])
        self.dealer = dealer
        self.undrawn = self.tile_count - (4 * self.size + 1)

    def draw(self, seat: int, tile: Optional[str] = None, source: str = "wall") -> str:
        """``seat`` draws ``tile`` (a reserved or named tile) or a filler."""
        if tile is None:
            tile = self.filler(seat)
        else:
            if self.reserved[tile] > 0:
                self.reserved[tile] -= 1
            self._take(tile)
        self.hands[seat][tile] += 1
        self.undrawn -= 1
        self.b.draw(seat, tile, source)
        return tile

    def discard(self, seat: int, tile: Optional[str] = None) -> str:
        """``seat`` throws ``tile``, or one of the filler tiles it was dealt."""
        if tile is None:
            tile = self.fill[seat].pop()
        elif tile in self.fill[seat]:
            self.fill[seat].remove(tile)
        self.hands[seat][tile] -= 1
        self.b.discard(seat, tile)
        return tile

    def opening_round(self, dealer: int) -> int:
        """The dealer throws a filler and every seat takes one 摸切 turn (so no 天/地/人和
        follows); returns the seat whose turn is next (the dealer's next seat)."""
        self.discard(dealer)
        return self.go_around((dealer + 1) % 4, 4)

    def pass_turn(self, seat: int, tile: Optional[str] = None) -> int:
        """摸切: ``seat`` draws (a filler or ``tile``) and throws it; returns the next seat."""
        t = self.draw(seat, tile)
        self.discard(seat, t)
        return (seat + 1) % 4

    def go_around(self, start: int, seats: int = 4) -> int:
        """``seats`` turns of 摸切 from ``start``; returns the next seat."""
        s = start
        for _ in range(seats):
            s = self.pass_turn(s)
        return s

    def until(self, start: int, remaining: int) -> int:
        """摸切 from ``start`` until ``remaining`` undrawn tiles are left; returns the next seat."""
        s = start
        while self.undrawn > remaining:
            s = self.pass_turn(s)
        return s

    def pong(self, seat: int, from_seat: int, tile: str) -> None:
        self.hands[seat][tile] -= 2
        self.b.pong(seat, from_seat, tile)

    def chow(self, seat: int, from_seat: int, tile: str, own: str) -> None:
        for t in tiles_of(own):
            self.hands[seat][t] -= 1
        self.b.chow(seat, from_seat, tile, tiles_of(own))

    def kong_exposed(self, seat: int, from_seat: int, tile: str) -> None:
        self.hands[seat][tile] -= 3
        self.b.kong_exposed(seat, from_seat, tile)

    def kong_added(self, seat: int, tile: str) -> None:
        self.hands[seat][tile] -= 1
        self.b.kong_added(seat, tile)

    def kong_concealed(self, seat: int, tile: str) -> None:
        self.hands[seat][tile] -= 4
        self.b.kong_concealed(seat, tile)

    def replacement(self, seat: int, tile: Optional[str] = None, source: str = "tail") -> str:
        """The kong replacement: the wall's last tile (``tail``), logged as a tail draw."""
        return self.draw(seat, tile, source)

    # -- the end of a hand ------------------------------------------------------------------

    def win(self, winners: Sequence[tuple], how: str, tile: str, from_seat: Optional[int] = None,
            declare: bool = True) -> None:
        """``winners``: (seat, fans, fan, points); a discard or robbed win is declared first."""
        if how != "self_draw" and declare:
            for w in winners:
                self.b.declare(w[0], "win")
        self.b.win(list(winners), how, tile, from_seat)

    def settle(self, transfers: Sequence[tuple]) -> None:
        """Pay ``transfers`` (payer, payee, amount, reason); the scores follow them."""
        for payer, payee, amount, _ in transfers:
            self.scores[payer] -= amount
            self.scores[payee] += amount
        self.b.settle(list(transfers), list(self.scores))

    def drawn(self) -> None:
        """流局: no drawable tile is left; no transfers."""
        self.b.exhausted(self.undrawn)
        self.settle([])

    def close(self) -> GameBuilder:
        self.b.close("hands_done", list(self.scores))
        return self.b


def reopened(b: GameBuilder, **options) -> GameBuilder:
    """The same room under other options (a near miss or a planted fault)."""
    import msgspec
    opened = b.events[0]
    merged = msgspec.structs.asdict(opened.options) | options
    b.events[0] = msgspec.structs.replace(opened, options=msgspec.convert(merged, ev.RulesetOverrides))
    return b


def repaid(b: GameBuilder, transfers: Sequence[tuple]) -> GameBuilder:
    """The room's (single) hand paid with ``transfers`` instead; the scores follow them."""
    import msgspec
    scores = [0, 0, 0, 0]
    for payer, payee, amount, _ in transfers:
        scores[payer] -= amount
        scores[payee] += amount
    out = []
    for e in b.events:
        if type(e) is ev.HandSettled:
            e = msgspec.structs.replace(e, transfers=[ev.Transfer(payer=p, payee=q, amount=a, reason=r)
                                                      for p, q, a, r in transfers], scores=scores)
        elif type(e) is ev.GameClosed:
            e = msgspec.structs.replace(e, scores=scores)
        out.append(e)
    b.events = out
    return b


def rescored(b: GameBuilder, fans: Sequence[str], fan: int, points: int) -> GameBuilder:
    """The room's first winner logged with other fans, fan and points."""
    import msgspec
    for i, e in enumerate(b.events):
        if type(e) is ev.HandWon:
            w = msgspec.structs.replace(e.winners[0], fans=list(fans), fan=fan, points=points)
            b.events[i] = msgspec.structs.replace(e, winners=[w, *e.winners[1:]])
    return b


def jsonl(*builders: GameBuilder) -> bytes:
    """Several rooms as one log."""
    return b"".join(b.jsonl() for b in builders)


__all__ = ["FILL_ORDER", "Scene", "jsonl", "reopened", "repaid", "rescored", "tiles_of"]
