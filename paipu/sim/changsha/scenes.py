"""Changsha rooms written move by move (changsha.md §13): the Guangdong scene writer over
the 108 suited tiles, with the opening wins (``OpeningWinDeclared``), 开杠 reveals
(``KongRevealed``), the 海底 offers (``LastTileOffered``) and the birds (``BirdsDrawn``).

Fans, points and transfers are typed in from the rules text, never computed by paipu.
"""

from __future__ import annotations

from collections import Counter
from typing import Optional, Sequence

from ..guangdong.scenes import Scene, reopened, repaid, tiles_of  # noqa: F401  (re-exported)

#: Filler tiles, suited only, spread out (no pair, run or 将 wait of their own where possible).
SUITED_FILL = ("1m 4m 7m 3p 6p 9p 1s 4s 7s 9m 3m 6m 1p 4p 7p 3s 6s 9s "
               "2m 5m 8m 2p 5p 8p 2s 5s 8s").split()


class ChangshaScene(Scene):
    """One Changsha room (preset ``changsha`` unless named), hand by hand."""

    def __init__(self, game: str, options: Optional[dict] = None, creator: int = 0, preset: str = "changsha"):
        super().__init__(game, options, creator, preset=preset)

    def hand(self, dealer: int, hands: dict, reserve: str = "", avoid: str = "", **winds) -> None:
        """Start a hand over the 108 suited tiles (honours are taken out of the pool first)."""
        super().hand(dealer, hands, reserve=reserve, avoid=avoid, **winds)
        self.undrawn = 108 - 53

    def filler(self, seat: Optional[int] = None, avoid: Sequence[str] = ()) -> str:
        held = self.hands[seat] if seat is not None else Counter()
        for pass_ in (0, 1):
            for name in SUITED_FILL:
                if self.pool[name] - self.reserved[name] > 0 and (pass_ or (not held[name] and name not in avoid
                                                                             and name not in self.avoid)):
                    return self._take(name)
        raise ValueError("no tile left")

    def opening(self, seat: int, names: Sequence[str], tiles: str) -> None:
        """起手胡: ``seat`` declares ``names`` and shows ``tiles``."""
        self.b.opening_win(seat, list(names), tiles_of(tiles))

    def reveal(self, seat: int, tiles: str, source: str = "wall") -> None:
        """开杠: ``tiles`` turned face up for ``seat``'s kong."""
        got = tiles_of(tiles)
        for t in got:
            if self.reserved[t] > 0:
                self.reserved[t] -= 1
            self._take(t)
        self.undrawn -= len(got)
        self.b.reveal(seat, got, source)

    def offer(self, seat: int, accepted: bool) -> None:
        self.b.offer_last(seat, accepted)

    def birds(self, tiles: str, origin: int, source: str = "wall") -> None:
        """扎鸟: ``tiles`` turned after the win, counted from ``origin``."""
        got = tiles_of(tiles)
        if source != "last":
            for t in got:
                if self.reserved[t] > 0:
                    self.reserved[t] -= 1
                self._take(t)
            self.undrawn -= len(got)
        self.b.birds(got, origin, source)


def with_wall(b, hand: int = 1, free_at: Optional[int] = None):
    """The room ``b`` with hand ``hand``'s wall logged (``HandStarted.wall``, §2): the deal (the
    dealer's 14, then 13 each from its next seat), the wall draws, head reveals and head birds
    from the head in order; the 补张 replacements, tail (and ``free``) reveals and tail birds from
    the end, last first; the tiles nobody took in between.  ``free_at``: the ``free`` reveals lie
    instead among the tiles nobody took, that many positions after the head's (dice-picked
    stacks inside the wall, §6.2.1); a negative ``free_at`` puts them that many positions before
    the end of the head's tiles (ahead of the last draws from the head)."""
    import msgspec
    from schema import events as ev
    from schema.tiles import TILE_INDEX
    start = next(i for i, e in enumerate(b.events) if type(e) is ev.HandStarted and e.hand == hand)
    head: list[str] = []
    tail: list[str] = []
    inside: list[str] = []
    for e in b.events[start + 1:]:
        t = type(e)
        if t is ev.HandStarted:
            break
        if t is ev.TilesDealt:
            d = b.events[start].dealer
            for k in range(4):
                head.extend(e.hands[(d + k) % 4])
        elif t is ev.TileDrawn:
            (head if e.source == "wall" else tail).append(e.tile)
        elif t is ev.KongRevealed and e.source == "free" and free_at is not None:
            inside.extend(e.tiles)
        elif t in (ev.KongRevealed, ev.BirdsDrawn) and e.source != "last":
            (head if e.source == "wall" else tail).extend(e.tiles)
    left = Counter({name: 4 for name in TILE_INDEX if TILE_INDEX[name] < 27})
    left.subtract(head + tail + inside)
    middle = sorted(left.elements(), key=TILE_INDEX.__getitem__)
    if inside and free_at >= 0:
        middle[free_at:free_at] = inside
    elif inside:
        head[len(head) + free_at:len(head) + free_at] = inside
    b.events[start] = msgspec.structs.replace(b.events[start], wall=head + middle + tail[::-1])
    return b
