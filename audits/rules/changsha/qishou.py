"""起手胡 (opening small wins, changsha.md §4): what the dealt tiles hold and whether a
declaration is valid (QISHOU_INVALID).

Each predicate reads the dealt counts (27 suited kinds) and answers how many times the win
holds (0: not held); ``qishou_repeat`` decides whether more than once counts.  A
declaration shows tiles: they must be held and prove the claim (§4.2's "shown tiles").
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Optional, Sequence

from schema.ruleset import Ruleset

from ..family import Violation
from .wins import is_jiang

#: The four seed opening wins (§4.2) and the four card-room additions (``extra_qishou``).
SEED_WINS = ("qs_sixi", "qs_banban", "qs_queyise", "qs_liuliushun")
EXTRA_WINS = ("qs_bubugao", "qs_jintongyunv", "qs_yizhihua", "qs_santong")


def _suits(c: Sequence[int]) -> list[int]:
    return [s for s in range(3) if any(c[9 * s:9 * s + 9])]


def sixi(c: Sequence[int]) -> int:
    """四喜: kinds held four times."""
    return sum(1 for x in c[:27] if x >= 4)


def banban(c: Sequence[int]) -> int:
    """板板胡 (the seed's 无将和): no tile of rank 2, 5 or 8."""
    return int(not any(c[t] for t in range(27) if is_jiang(t)))


def queyise(c: Sequence[int]) -> int:
    """缺一色: suits missing (the tiles are of at most two suits)."""
    return 3 - len(_suits(c))


def liuliushun(c: Sequence[int]) -> int:
    """六六顺: pairs of triplets (kinds held three or more times, two per win)."""
    return sum(1 for x in c[:27] if x >= 3) // 2


def bubugao(c: Sequence[int]) -> int:
    """步步高: three pairs of consecutive ranks in one suit."""
    return int(any(c[t] >= 2 and c[t + 1] >= 2 and c[t + 2] >= 2 for t in range(27) if t % 9 <= 6))


def jintongyunv(c: Sequence[int]) -> int:
    """金童玉女: a pair of 2p and a pair of 2s."""
    return int(c[10] >= 2 and c[19] >= 2)


def yizhihua(c: Sequence[int]) -> int:
    """一枝花: a suit held with exactly one tile, a 5."""
    return int(any(sum(c[9 * s:9 * s + 9]) == 1 and c[9 * s + 4] == 1 for s in range(3)))


def santong(c: Sequence[int]) -> int:
    """三同: a pair of one rank in each of the three suits."""
    return int(any(all(c[9 * s + r] >= 2 for s in range(3)) for r in range(9)))


HOLDS: dict[str, Callable[[Sequence[int]], int]] = {
    "qs_sixi": sixi, "qs_banban": banban, "qs_queyise": queyise, "qs_liuliushun": liuliushun,
    "qs_bubugao": bubugao, "qs_jintongyunv": jintongyunv, "qs_yizhihua": yizhihua, "qs_santong": santong,
}


def enabled(ruleset: Ruleset) -> tuple[str, ...]:
    """The opening wins the room plays."""
    return SEED_WINS + (EXTRA_WINS if ruleset.extra_qishou else ())


def times(ruleset: Ruleset, name: str, counts: Sequence[int]) -> int:
    """How many times ``name`` counts for the dealt counts (once unless ``qishou_repeat``)."""
    n = HOLDS[name](counts)
    return n if ruleset.qishou_repeat else min(n, 1)


def held_wins(ruleset: Ruleset, counts: Sequence[int]) -> list[str]:
    """Every enabled opening win the dealt tiles hold, repeated per ``qishou_repeat``."""
    out: list[str] = []
    for name in enabled(ruleset):
        out.extend([name] * times(ruleset, name, counts))
    return out


#: the opening wins proved by the whole hand shown
_WHOLE_HAND = ("qs_banban", "qs_queyise", "qs_yizhihua")


def _proof(name: str, c: Sequence[int]) -> list[int]:
    """The fewest tiles that prove one holding of ``name`` (§4.2's shown tiles)."""
    if name == "qs_sixi":
        t = next(t for t in range(27) if c[t] >= 4)
        return [t] * 4
    if name == "qs_liuliushun":
        ts = [t for t in range(27) if c[t] >= 3][:2]
        return [t for t in ts for _ in range(3)]
    if name == "qs_bubugao":
        t = next(t for t in range(27) if t % 9 <= 6 and c[t] >= 2 and c[t + 1] >= 2 and c[t + 2] >= 2)
        return [t, t, t + 1, t + 1, t + 2, t + 2]
    if name == "qs_jintongyunv":
        return [10, 10, 19, 19]
    r = next(r for r in range(9) if all(c[9 * s + r] >= 2 for s in range(3)))
    return [9 * s + r for s in range(3) for _ in range(2)]


def declaration(ruleset: Ruleset, counts: Sequence[int]) -> Optional[tuple[list[str], list[int]]]:
    """Every opening win the dealt ``counts`` hold and the tiles that prove them: the whole
    hand when more than one is declared or one of them is judged on the whole hand, else the
    one win's proof.  None: the hand holds none."""
    names = held_wins(ruleset, counts)
    if not names:
        return None
    whole = [t for t in range(27) for _ in range(counts[t])]
    if len(names) > 1 or names[0] in _WHOLE_HAND:
        return names, whole
    return names, _proof(names[0], counts)


def _proves(name: str, shown: Counter, counts: Sequence[int], whole: bool, times_: int = 1) -> bool:
    """The shown tiles prove the win ``times_`` times (one declaration naming a win more than
    once under ``qishou_repeat``): the whole hand for 板板胡 / 缺一色 / 一枝花, else the sets
    that make it, each holding its own (§4.2's "shown tiles": two 四喜 show two quads)."""
    if name in ("qs_banban", "qs_queyise", "qs_yizhihua"):
        return whole
    sc = [0] * 27
    for t, k in shown.items():
        if t < 27:
            sc[t] = k
    return HOLDS[name](sc) >= times_


def check_declaration(ruleset: Ruleset, dealt: Optional[Sequence[int]], names: Sequence[str],
                      shown: Sequence[int], already: Sequence[str], dealer_acted: bool) -> Optional[Violation]:
    """QISHOU_INVALID (§4.1): late, not enabled, not held by the dealt tiles, not proved by
    the shown tiles, shown tiles not held, or a win declared twice."""
    if dealer_acted or dealt is None:
        return Violation("QISHOU_INVALID", "an opening win declared after the dealer's first action",
                         "before the dealer's first action", "after")
    allowed = enabled(ruleset)
    bad = [n for n in names if n not in allowed]
    if bad:
        return Violation("QISHOU_INVALID", f"{', '.join(bad)} is not an opening win of this room", list(allowed), bad)
    have = Counter(shown)
    if any(dealt[t] < k for t, k in have.items() if t < 27) or any(t >= 27 for t in have):
        return Violation("QISHOU_INVALID", "the shown tiles are not all held", "held tiles", sorted(shown))
    whole = sum(have.values()) == sum(dealt[:27])
    counted = Counter(already)
    for n in names:
        counted[n] += 1
        if counted[n] > times(ruleset, n, dealt):
            why = "not held by the dealt tiles" if times(ruleset, n, dealt) == 0 else "declared more often than held"
            return Violation("QISHOU_INVALID", f"{n}: {why}", times(ruleset, n, dealt), counted[n])
        if not _proves(n, have, dealt, whole, names.count(n)):
            return Violation("QISHOU_INVALID", f"{n}: the shown tiles do not prove it", "proving tiles", sorted(shown))
    return None


__all__ = ["EXTRA_WINS", "HOLDS", "SEED_WINS", "check_declaration", "declaration", "enabled", "held_wins", "times"]
