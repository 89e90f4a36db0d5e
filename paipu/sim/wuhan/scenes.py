"""Wuhan rooms written move by move (wuhan.md §11): the Guangdong scene writer with the hand's
turned indicator (``IndicatorTurned``) and single-tile kongs (红中杠 / 癞子杠, ``TileSetAside``
and a tail replacement).

Fillers never hand out a 痞 tile or a 癞子 (a filler seat would have to set them aside).  Fans,
points, shares and transfers are typed in from the rules text, never computed by paipu.
"""

from __future__ import annotations

from typing import Optional

from audits.rules.wuhan.laizi import wild_of
from schema.ruleset import resolve
from schema.tiles import TILE_INDEX, TILE_NAMES

from ..guangdong.scenes import FILL_ORDER, Scene, reopened, repaid, rescored  # noqa: F401  (re-exported)


def wild_after(indicator: str, pi_tiles=("7z",)) -> str:
    """The 癞子 a turned ``indicator`` names (§3.1)."""
    return TILE_NAMES[wild_of(resolve("wuhan-hzlzg", {"pi_tiles": list(pi_tiles)}), TILE_INDEX[indicator])]


class WuhanScene(Scene):
    """One Wuhan room (preset ``wuhan-hzlzg``), hand by hand."""

    def __init__(self, game: str, options: Optional[dict] = None, creator: int = 0):
        super().__init__(game, options, creator, preset="wuhan-hzlzg")
        self.pi = tuple((options or {}).get("pi_tiles", ("7z",)))

    def hand(self, dealer: int, hands: dict, indicator: str = "1z", reserve: str = "", avoid: str = "",
             wild: Optional[str] = None, **winds) -> None:
        """Start a hand: the deal, then the indicator turned from the wall (``wild``: the 癞子 as
        logged, by default the kind after the indicator)."""
        w = wild or wild_after(indicator, self.pi)
        super().hand(dealer, hands, reserve=f"{indicator} {reserve}", avoid=f"{avoid} {w} {' '.join(self.pi)}",
                     **winds)
        self.reserved[indicator] -= 1
        self._take(indicator)
        self.undrawn -= 1
        self.wild = w
        self.b.indicator(indicator, w)

    def filler(self, seat: Optional[int] = None, avoid=()) -> str:
        """An unreserved filler tile, never a 痞 tile or a 癞子 (late in a long hand, when the
        kinds to avoid are used up, any other ordinary kind)."""
        special = set(self.pi) | {getattr(self, "wild", "")}
        held = self.hands[seat] if seat is not None else {}
        for strict in (True, False):
            for name in FILL_ORDER:
                if name in special or self.pool[name] - self.reserved[name] <= 0:
                    continue
                if strict and (held.get(name, 0) or name in avoid or name in self.avoid):
                    continue
                return self._take(name)
        raise ValueError("no tile left")

    def set_aside(self, seat: int, tile: str, replacement: Optional[str] = None) -> str:
        """红中杠 / 癞子杠: ``seat`` sets ``tile`` aside and takes its tail replacement."""
        self.hands[seat][tile] -= 1
        self.b.set_aside(seat, tile)
        return self.replacement(seat, replacement)
