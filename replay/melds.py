"""Declared sets (melds) as the replay records them."""

from __future__ import annotations

from typing import Literal, Optional

import msgspec

MeldKind = Literal["chow", "pong", "kong_exposed", "kong_added", "kong_concealed"]
KONG_KINDS = frozenset({"kong_exposed", "kong_added", "kong_concealed"})


class Meld(msgspec.Struct, frozen=True, gc=False):
    """One declared set.

    ``kind`` is what was declared; ``of`` the tile the set stands for (for a chow,
    its lowest tile); ``tiles`` the physical tiles (integers) in it, the claimed
    one included; ``wilds`` how many of them are chickens acting as wild;
    ``from_seat`` the seat whose discard was claimed (``None`` if concealed).
    """

    kind: MeldKind
    of: int
    tiles: tuple[int, ...]
    wilds: int = 0
    from_seat: Optional[int] = None

    @property
    def is_kong(self) -> bool:
        return self.kind in KONG_KINDS

    @property
    def is_concealed(self) -> bool:
        """Concealed kongs keep a hand 门清 (closed)."""
        return self.kind == "kong_concealed"
