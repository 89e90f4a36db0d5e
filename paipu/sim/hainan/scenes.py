"""Hainan rooms written move by move (hainan.md §12): the Guangdong scene writer with the 144
tiles (one copy of each flower), flowers dealt and set aside (补花, each replaced from the
tail) and the 黄庄 at R = 15.

The named tiles are dealt where they matter and filler tiles (never a flower) everywhere
else.  Fans, points and transfers are typed in from the rules text, never computed by paipu.
"""

from __future__ import annotations

from typing import Optional

from schema.tiles import FLOWERS, TILE_NAMES

from ..guangdong.scenes import Scene, jsonl, reopened, repaid, rescored, tiles_of  # noqa: F401  (re-exported)

FLOWER_NAMES = tuple(TILE_NAMES[f] for f in FLOWERS)


class HainanScene(Scene):
    """One Hainan room (preset ``hainan``), hand by hand."""

    def __init__(self, game: str, options: Optional[dict] = None, creator: int = 0):
        super().__init__(game, options, creator, preset="hainan")

    def hand(self, dealer: int, hands: dict, reserve: str = "", avoid: str = "", **winds) -> None:
        """Start a hand (flowers may be dealt: ``"3f"``); one copy of each flower in the set."""
        super().hand(dealer, hands, reserve=reserve, avoid=avoid, **winds)
        for f in FLOWER_NAMES:
            self.pool[f] = 1 - sum(h[f] for h in self.hands)
        self.undrawn = 144 - 53

    def buhua(self, seat: int, flower: str, tile: Optional[str] = None) -> str:
        """补花: ``seat`` sets ``flower`` aside and takes its replacement (``tile`` or a filler)
        from the tail."""
        self.hands[seat][flower] -= 1
        self.b.set_aside(seat, flower)
        got = self.draw(seat, tile, "tail")
        if tile is None:
            self.fill[seat].append(got)  # a filler replacement is thrown later like a dealt one
        return got

    def drawn(self) -> None:
        """黄庄 at R = ``draw_reserve`` (15 by default): no transfers."""
        self.b.exhausted(self.undrawn)
        self.settle([])


__all__ = ["FLOWER_NAMES", "HainanScene", "jsonl", "reopened", "repaid", "rescored", "tiles_of"]
