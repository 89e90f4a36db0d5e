"""The 财神, Wenzhou's per-hand wild (wenzhou.md §3).

* **Which kind** (§3.1): W is the turned indicator's own kind (``wild_from = same``, the
  shared :func:`audits.rules.wilds.default_wild_of`); the three other tiles of kind W are
  the 财神, the indicator is the fourth.
* **白板 stands in** (§3.2, ``wild_stand_in = 5z``): while W ≠ 白板 each 白板 is a natural W
  everywhere, and no 财神 stands for 白板.
* **What a 财神 may do** (§3.3): in a win it stands for any kind with room (max four per
  kind: naturals, melds and the indicator counted) or is read as W itself (财神归位); with
  ``shaozhongfa`` it stands for neither 中 nor 发; it is never discarded (``wild_discard =
  forbidden``) nor in a meld.

The per-hand facts (W, the active stand-in, the indicator, the max-four room) are the same
rule as Xuzhou's 配子 with ``wild_from = same``: that module (:mod:`audits.rules.xuzhou.pei`)
is reused by reference, not restated; this one adds 烧中发.
"""

from __future__ import annotations

from typing import Optional, Sequence

from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX

from ..wilds import default_wild_of
from ..xuzhou import pei as facts

#: 中 and 发, which a 财神 does not stand for under ``shaozhongfa`` (烧中发)
ZHONG_FA = (TILE_INDEX["7z"], TILE_INDEX["6z"])
#: the honour kinds 1z..7z
HONOURS = range(27, 34)

#: ``TableRules.wild_of`` (§3.1): the indicator's own kind (``wild_from = same``)
wild_of = default_wild_of

split = facts.split
fold = facts.fold


def wild(ruleset: Ruleset) -> Optional[int]:
    """W, the hand's 财神 kind (None before the indicator)."""
    return facts.pei(ruleset).wild


def indicator(ruleset: Ruleset) -> Optional[int]:
    """The turned indicator's kind (W itself)."""
    return facts.pei(ruleset).indicator


def use_of(ruleset: Ruleset, melds: Sequence = ()) -> list[int]:
    """What limits a 财神 standing for a kind (max four): the melds (白板 read as W), the
    indicator, no room for 白板 while it stands in, and none for 中 / 发 under 烧中发."""
    use = facts.use_of(ruleset, melds)
    if ruleset.shaozhongfa:
        w = wild(ruleset)
        for k in ZHONG_FA:
            if k != w:
                use[k] = 4
    return use


def held(ruleset: Ruleset, counts: Sequence[int], plain: Optional[int] = None) -> int:
    """The 财神 among concealed counts (a W tile won from another seat is natural)."""
    w = wild(ruleset)
    if w is None:
        return 0
    return counts[w] - (1 if plain == w else 0)


__all__ = ["HONOURS", "ZHONG_FA", "fold", "held", "indicator", "split", "use_of", "wild", "wild_of"]
