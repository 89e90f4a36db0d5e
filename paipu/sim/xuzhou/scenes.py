"""Xuzhou rooms written move by move (xuzhou.md §11): the Guangdong scene writer with the
hand's turned indicator (``IndicatorTurned``) and the 下嘴 bets before the deal.

The named tiles are dealt where they matter and filler tiles everywhere else; each
hand's 136 tiles are accounted for (the indicator is one of them).  Fans, points and
transfers are typed in from the rules text, never computed by paipu.
"""

from __future__ import annotations

from typing import Optional, Sequence

from schema import events as ev
from schema.tiles import TILE_INDEX, TILE_NAMES

from ..guangdong.scenes import Scene, reopened, repaid  # noqa: F401  (re-exported for the examples)

#: xuzhou.md §3.1: the kind after the indicator (suits 9 → 1, 北 → 东, 中 → 发 → 白 → 中)
from audits.rules.xuzhou.pei import next_kind


def wild_after(indicator: str) -> str:
    """The 配子 a turned ``indicator`` names under ``wild_from = next``."""
    return TILE_NAMES[next_kind(TILE_INDEX[indicator])]


class XuzhouScene(Scene):
    """One Xuzhou room (preset ``xuzhou``), hand by hand."""

    def __init__(self, game: str, options: Optional[dict] = None, creator: int = 0):
        super().__init__(game, options, creator, preset="xuzhou")

    def hand(self, dealer: int, hands: dict, indicator: str = "1z", reserve: str = "", avoid: str = "",
             bets: Optional[Sequence[int]] = None, wild: Optional[str] = None, **winds) -> None:
        """Start a hand: the deal, the 下嘴 ``bets`` placed before it (seat order), and the
        indicator turned from the wall after it (``wild``: the 配子 as logged, by default
        the kind after the indicator)."""
        w = wild or wild_after(indicator)
        # fillers avoid the 配子 and 白板 (no accidental wild in a filler hand)
        super().hand(dealer, hands, reserve=f"{indicator} {reserve}", avoid=f"{avoid} {w} 5z", **winds)
        if bets is not None:
            deal = self.b.events.pop()
            for seat, z in enumerate(bets):
                self.b.bet(seat, z)
            self.b.add(ev.TilesDealt, hands=deal.hands)
        self.reserved[indicator] -= 1
        self._take(indicator)
        self.undrawn -= 1
        self.b.indicator(indicator, w)
