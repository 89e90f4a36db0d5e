"""Waits of a family that plays no wild tile (Guangdong, Hainan), given its winning shapes.

Where no tile stands in for another, a tile drawn completes a hand exactly where the same
tile taken from another seat does, and a hand is complete when its family's ``is_winning``
says so.  The two hooks here take that ``is_winning`` first; a family binds it
(``functools.partial``) and wires the result as ``WinRules.waits`` and ``WinRules.completes``;
:func:`drawn_within_waits` vouches for its wait entry on a draw.

The wait entry is ``[keys, {tile: completes}]``, as the family's ``seat_waits`` makes it:
the reducer's base-5 suit keys of the hand, and the answers found so far (kept until the
seat's hand changes).
"""

from __future__ import annotations

from typing import Callable, Sequence

from replay.melds import Meld
from replay.state import KEY_STEP, SUIT_OF
from schema.ruleset import Ruleset

from . import hands
from .qujing.wins import physical_held  # the same fact: copies held, concealed and melded

#: (ruleset, concealed counts with the winning tile, melds) -> a winning shape.
IsWinning = Callable[..., bool]


def waits(is_winning: IsWinning, ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = ()) -> list[int]:
    """The tiles that complete a 13-tile (3k+1) hand; a kind whose four tiles the seat
    already holds (in hand or melded) cannot come."""
    held = physical_held(counts, melds)
    out = []
    c = list(counts)
    for t in range(34):
        if held[t] >= 4:
            continue
        c[t] += 1
        if is_winning(ruleset, c, melds):
            out.append(t)
        c[t] -= 1
    return out


def completes(is_winning: IsWinning, ruleset: Ruleset, entry: list, counts: Sequence[int],
              melds: Sequence[Meld], tile: int) -> bool:
    """Is the hand complete with ``tile`` (taken from another seat, or drawn: the same
    here)?  Exact, cached in the entry.

    4 sets + a pair is the suit tables' answer on the keys with the tile added (with no
    wilds it is exact, melds or not); the family's special shapes (七对, 十三幺, 十三烂),
    all fully concealed, are asked of ``is_winning`` only with no melds."""
    keys, cache = entry
    got = cache.get(tile)
    if got is None:
        k = list(keys)
        k[SUIT_OF[tile]] += KEY_STEP[tile]
        got = hands.is_complete_keys(k[0], k[1], k[2], k[3], 0)
        if not got and not melds:
            c = list(counts)
            c[tile] += 1
            got = is_winning(ruleset, c, melds)
        cache[tile] = got
    return got


def drawn_within_waits(ruleset: Ruleset, counts: Sequence[int]) -> bool:
    """``WinRules.drawn_within_waits``: with no wild tile and no shape won by self-draw only,
    no tile counts differently drawn than taken from another seat, so the wait entry of the
    hand before a draw and :func:`completes` on it answer the draw."""
    return True


__all__ = ["IsWinning", "completes", "drawn_within_waits", "waits"]
