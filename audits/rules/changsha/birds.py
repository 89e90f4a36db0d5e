"""扎鸟 (birds, changsha.md §10.3): how many, from where, the origin, the seats hit and a
pair's factor.  Birds exist only after a winning moment."""

from __future__ import annotations

from typing import Optional, Sequence

from schema.ruleset import Ruleset


def count_due(ruleset: Ruleset, remaining: int) -> tuple[int, str]:
    """(how many birds, source) after a win with ``remaining`` undrawn tiles (§10.3.1–2):
    ``bird_count`` or what remains; with none left, one repeat of the last tile
    (``empty_wall_bird = last_tile``) or none."""
    if ruleset.bird_count == 0:
        return 0, "wall"
    if remaining <= 0:
        return (1, "last") if ruleset.empty_wall_bird == "last_tile" else (0, "last")
    return min(ruleset.bird_count, remaining), "wall" if ruleset.bird_source == "head" else "tail"


def origin_of(ruleset: Ruleset, dealer: int, winners: Sequence[int], giver: Optional[int]) -> Optional[int]:
    """The seat birds count from (§10.3.3): the single legal winner, or the seat that gave
    the tile when several won (``winner``); the dealer (``dealer``).  None: no winner."""
    if not winners:
        return None
    if ruleset.bird_origin == "dealer":
        return dealer
    if len(set(winners)) == 1 or giver is None:
        return winners[0]
    return giver


def hit_seat(tile: int, origin: int, n: int = 4) -> int:
    """A bird of rank r hits seat origin + (r − 1) (§10.3.4): 1 5 9 the origin, 2 6 its 下家,
    3 7 对家, 4 8 上家."""
    return (origin + tile % 9) % n


def hits(tiles: Sequence[int], origin: Optional[int], n: int = 4) -> list[int]:
    """n(s): the birds hitting each seat."""
    out = [0] * n
    if origin is None:
        return out
    for t in tiles:
        out[hit_seat(t, origin, n)] += 1
    return out


def apply(ruleset: Ruleset, amount: int, m: int) -> int:
    """A pair's amount after m birds on its two seats (§10.3.5): × (1 + m), × 2^m or + m B;
    nothing for nothing."""
    if amount == 0:
        return 0
    if ruleset.bird_mode == "double":
        return amount << m
    if ruleset.bird_mode == "plus_point":
        return amount + m * ruleset.base
    return amount * (1 + m)


def describe(ruleset: Ruleset, m: int) -> str:
    """The factor in words, for ``--explain``."""
    if ruleset.bird_mode == "double":
        return f"× 2^{m}"
    if ruleset.bird_mode == "plus_point":
        return f"+ {m} × B"
    return f"× (1 + {m})"


__all__ = ["apply", "count_due", "describe", "hit_seat", "hits", "origin_of"]
