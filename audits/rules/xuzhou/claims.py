"""Xuzhou claims (xuzhou.md §3.3, §5): 吃 from the 上家, 碰 and 杠 from any seat, with
natural tiles only — a 配子 (a W tile) is in no meld, even as itself (CLAIM_SPECIAL_TILE),
and 白板 is a natural W while it stands in.  A discarded 配子 is dead or forbidden
(``wild_discard``: the shared :func:`audits.rules.wilds.default_discard_rule`).

The meld rules themselves are Qujing's (a chow is a run of three, a pong three equal
tiles, a kong four) judged with no wild kinds on the tiles as they play (白板 read as W):
they are reused by reference, not restated.
"""

from __future__ import annotations

from typing import Optional, Sequence

from replay.melds import Meld
from schema.ruleset import Ruleset
from schema.tiles import TILE_NAMES

from ..family import Violation
from ..qujing import claims as qujing
from ..wilds import plain_rules
from . import pei

#: 胡 > 杠 = 碰 > 吃 (two seats can never both pong or kong one discard); 一炮多响 by option
CLAIM_RANK = qujing.CLAIM_RANK


#: the last ruleset asked and its W (the audit asks on every discard a seat holds a pair of)
_LAST_WILD: list = [None, None]


def _wild(ruleset: Ruleset) -> Optional[int]:
    """The hand's W (the last ruleset's answer kept: every discard of a hand asks with one object)."""
    if _LAST_WILD[0] is not ruleset:
        _LAST_WILD[1] = pei.pei(ruleset).wild
        _LAST_WILD[0] = ruleset
    return _LAST_WILD[1]


def _special(ruleset: Ruleset, own: Sequence[int], what: str) -> list[Violation]:
    """A 配子 in a meld, even as itself (new-families.md §2, CLAIM_SPECIAL_TILE)."""
    w = _wild(ruleset)
    if w is not None and w in own:
        return [Violation("CLAIM_SPECIAL_TILE", f"a 配子 {TILE_NAMES[w]} in a {what}", "natural tiles only",
                          [TILE_NAMES[t] for t in own])]
    return []


def _as_played(ruleset: Ruleset, discard: int, own: Sequence[int]) -> tuple[int, Sequence[int]]:
    """The discard and the hand's tiles of a claim as they play (白板 is W while it stands in)."""
    white = pei.pei(ruleset).stand_in
    if white is None or (discard != white and white not in own):
        return discard, own
    return pei.fold(ruleset, discard), pei.fold_all(ruleset, own)


def check_chow(ruleset: Ruleset, n: int, seat: int, from_seat: int, discard: int,
               own: Sequence[int]) -> list[Violation]:
    """吃 from the 上家: a run of three natural tiles (白板 as W)."""
    bad = _special(ruleset, own, "chow")
    if bad:
        return bad
    discard, own = _as_played(ruleset, discard, own)
    return qujing.check_chow(plain_rules(ruleset), n, seat, from_seat, discard, own)


def check_pong(ruleset: Ruleset, seat: int, from_seat: int, discard: int, own: Sequence[int]) -> list[Violation]:
    """碰: two natural tiles of the discard's kind (白板 as W)."""
    bad = _special(ruleset, own, "pong")
    if bad:
        return bad
    discard, own = _as_played(ruleset, discard, own)
    return qujing.check_pong(plain_rules(ruleset), seat, from_seat, discard, own)


def check_exposed_kong(ruleset: Ruleset, seat: int, from_seat: int, kind: int, discard: int,
                       own: Sequence[int]) -> list[Violation]:
    """明杠 on a discard: three natural tiles of its kind."""
    bad = _special(ruleset, own, "kong")
    return bad or qujing.check_exposed_kong(plain_rules(ruleset), seat, from_seat, pei.fold(ruleset, kind),
                                            pei.fold(ruleset, discard), pei.fold_all(ruleset, own))


def check_added_kong(ruleset: Ruleset, kind: int, tile: int) -> list[Violation]:
    """补杠 onto one's own pong: the fourth tile natural, of the pong's kind."""
    bad = _special(ruleset, (tile,), "kong")
    return bad or qujing.check_added_kong(plain_rules(ruleset), pei.fold(ruleset, kind), pei.fold(ruleset, tile))


def check_concealed_kong(ruleset: Ruleset, kind: int, own: Sequence[int]) -> list[Violation]:
    """暗杠: four natural tiles of one kind."""
    bad = _special(ruleset, own, "kong")
    return bad or qujing.check_concealed_kong(plain_rules(ruleset), pei.fold(ruleset, kind), pei.fold_all(ruleset, own))


# --- what a hand could do (the audit's "who could take this discard", the bots) --------

def _natural(ruleset: Ruleset, counts: Sequence[int]) -> list[int]:
    """Natural counts (配子 out, 白板 folded into W)."""
    return pei.split(ruleset, counts)[0]


def could_pong(ruleset: Ruleset, counts: Sequence[int], discard: int) -> bool:
    """Two natural tiles of the discard's kind (a 白板 discard is a W, and the 白板 held are the
    natural Ws: the kind itself is counted either way); a 配子 discard opens no claim."""
    return counts[discard] >= 2 and discard != _wild(ruleset)


def could_kong(ruleset: Ruleset, counts: Sequence[int], discard: int) -> bool:
    """Three natural tiles of the discard's kind (as :func:`could_pong` counts them)."""
    return counts[discard] >= 3 and discard != _wild(ruleset)


def _physical(ruleset: Ruleset, kind: int) -> Optional[int]:
    """The physical tile that plays as natural ``kind`` (白板 for W), or None."""
    p = pei.pei(ruleset)
    if kind == p.wild:
        return p.stand_in
    if kind == p.stand_in:
        return None
    return kind


def chow_options(ruleset: Ruleset, counts: Sequence[int], discard: int, claimer: int,
                 discarder: int) -> list[tuple[int, int]]:
    """Every pair of hand tiles (as physical tiles) that chows ``discard`` from the 上家."""
    d = pei.fold(ruleset, discard)
    if pei.is_pei(ruleset, discard) or d >= 27 or not ruleset.chow \
            or discarder != qujing.shangjia(claimer, ruleset.players):
        return []
    out = []
    low = d - d % 9  # the suit's 1
    for start in range(max(low, d - 2), min(d, low + 6) + 1):
        a, b = (k for k in (start, start + 1, start + 2) if k != d)
        pa, pb = _physical(ruleset, a), _physical(ruleset, b)
        if pa is not None and pb is not None and counts[pa] >= 1 and counts[pb] >= 1:
            out.append((pa, pb))
    return out


def exposed_kong_options(ruleset: Ruleset, counts: Sequence[int], discard: int) -> list[tuple[int, ...]]:
    """The three natural tiles that kong ``discard``."""
    if pei.is_pei(ruleset, discard):
        return []
    t = _physical(ruleset, pei.fold(ruleset, discard))
    return [(t, t, t)] if t is not None and counts[t] >= 3 else []


def concealed_kong_options(ruleset: Ruleset, counts: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    """Every (kind, four natural tiles) concealed kong (白板 ×4 is a kong of W, logged as 白板)."""
    w = pei.pei(ruleset).wild
    return [(k, (k,) * 4) for k in range(34) if counts[k] >= 4 and k != w]


def added_kong_options(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld]) -> list[tuple[int, int]]:
    """Every (kind, tile) added kong onto the seat's pongs, with a natural tile."""
    w = pei.pei(ruleset).wild
    return [(m.of, m.of) for m in melds if m.kind == "pong" and m.of != w and counts[m.of] >= 1]


__all__ = ["CLAIM_RANK", "added_kong_options", "check_added_kong", "check_chow",
           "check_concealed_kong", "check_exposed_kong", "check_pong", "chow_options", "concealed_kong_options",
           "could_kong", "could_pong", "exposed_kong_options"]
