"""Xuzhou rulesets for the family's unit tests.

Until the shared options land in ``schema/ruleset.py`` (new-families.md §1), the
options this family reads are declared here on a ``Ruleset`` subtype, with the
defaults of xuzhou.md §9 (names as new-families.md §3 gives them); once the preset
exists, :func:`rules` resolves it instead, so the same tests pin both.
"""

from __future__ import annotations

from typing import Literal, Optional

from schema import ruleset as rs
from schema.tiles import Tile, parse_hand

#: The Xuzhou options (name, default) this family reads besides the shared ones.
OPTIONS = {
    "wild_from": "next", "indicator_from": "head", "wild_discard": "dead", "wild_stand_in": "5z",
    "multi_win": True, "guohu": "any_discard", "luanpai": "shisanlan", "shape_gate": "none",
    "dianpao_units": 1, "zimo_units": 1, "dealer_bonus": "plus_one", "xiazui": "off",
    "draw_dealer": "stay", "last_discard_claims": "all",
}

if "xuzhou" in rs.PRESETS:
    def rules(wild: Optional[str] = "5p", **opts):
        """The ``xuzhou`` preset with the hand's W swapped in (as the walker plays it)."""
        r = rs.resolve("xuzhou", opts)
        import msgspec
        return msgspec.structs.replace(r, wilds=(wild,) if wild else ())
else:
    class XuzhouRules(rs.Ruleset, frozen=True, kw_only=True):
        """The room's options with Xuzhou's, until the schema declares them."""

        wild_from: Literal["next", "same"] = "next"
        indicator_from: Literal["head", "tail"] = "head"
        wild_discard: Literal["dead", "forbidden"] = "dead"
        wild_stand_in: Optional[Tile] = "5z"
        guohu: str = "any_discard"
        luanpai: Literal["shisanlan", "shisanyao", "off"] = "shisanlan"
        shape_gate: Literal["none", "bazhi"] = "none"
        dianpao_units: int = 1
        zimo_units: int = 1
        dealer_bonus: Literal["plus_one", "double", "none"] = "plus_one"
        xiazui: Literal["off", "max_one", "max_two"] = "off"

    def rules(wild: Optional[str] = "5p", **opts):
        """Xuzhou's defaults (xuzhou.md §9) with ``opts``, the hand's W swapped in."""
        base = dict(family="xuzhou", chow=True, draw_reserve=0, draw_dealer="stay", last_discard_claims="all")
        return XuzhouRules(wilds=(wild,) if wild else (), **(base | opts))


def counts(text: str) -> list[int]:
    """34 counts of a hand written like ``234m 567m 78s``."""
    c = [0] * 34
    for t in parse_hand(text):
        c[t] += 1
    return c


def tiles(text: str) -> list[int]:
    return parse_hand(text)
