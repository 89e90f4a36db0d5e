"""Wenzhou rooms written move by move (wenzhou.md §12): the shared scene writer with 16 + 1
tiles (the preset's hand size), the hand's turned indicator (``IndicatorTurned``, W = its
own kind), the dealer's level on ``HandStarted`` and the 买底 bets before the deal.

The named tiles are dealt where they matter and filler tiles everywhere else; fillers are
suited tiles other than W (no honour: a filler hand keeps the discard order with any
discard).  Fans, points and transfers are typed in from the rules text, never computed.
"""

from __future__ import annotations

from typing import Optional, Sequence

from schema import events as ev

from ..guangdong.scenes import Scene, reopened, repaid, rescored  # noqa: F401  (re-exported)

HONOURS = "1z 2z 3z 4z 5z 6z 7z"


class WenzhouScene(Scene):
    """One Wenzhou room (preset ``wenzhou``), hand by hand."""

    def __init__(self, game: str, options: Optional[dict] = None, creator: int = 0):
        super().__init__(game, options, creator, preset="wenzhou")

    def hand(self, dealer: int, hands: dict, indicator: str = "9p", level: int = 1, reserve: str = "",
             avoid: str = "", bets: Optional[Sequence[int]] = None, wild: Optional[str] = None) -> None:
        """Start a hand at dealer level ``level``: the 买底 ``bets`` (seat order) before the deal,
        the indicator turned from the wall after it (``wild``: the 财神 as logged, by default
        the indicator's own kind)."""
        w = wild or indicator
        super().hand(dealer, hands, reserve=f"{indicator} {reserve}", avoid=f"{avoid} {w} {HONOURS}",
                     dealer_level=level)
        if bets is not None:
            deal = self.b.events.pop()
            for seat, z in enumerate(bets):
                self.b.bet(seat, z)
            self.b.add(ev.TilesDealt, hands=deal.hands)
        self.reserved[indicator] -= 1
        self._take(indicator)
        self.undrawn -= 1
        self.b.indicator(indicator, w)

    def drawn(self) -> None:
        """流局: ``draw_reserve`` (16) undrawn tiles are left; no transfers."""
        self.b.exhausted(self.undrawn)
        self.settle([])


__all__ = ["WenzhouScene", "reopened", "repaid", "rescored"]
