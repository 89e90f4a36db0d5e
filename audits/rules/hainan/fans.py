"""Hainan scoring (hainan.md §6, §9.1): 番 as the win gate, the rate and the hand multiplier.

"番是指胡牌的前提,而不是倍数": a 番 source is a reason a hand may win, not a doubling.  A
win on a discard (robbing included) needs at least ``min_fan`` (1; 0 = 无番 rooms) sources
in the reading; a self-draw needs none ("无番靠自摸").  ``fan`` is the number of sources the
reading holds (三元刻 once per dragon set); the way of winning is named beside them
(``zimo``, ``gangshang_kaihua`` 杠上开花, ``huashang_kaihua`` 花上开花) and not counted.

One payer's ``points`` P = B × r × m: the rate r is 1 for a discard win or a robbing, 2 for
a self-draw, 3 for a self-draw on the replacement after one's own kong or in-play 补花; the
hand multiplier m is 1 unless ``hand_multiplier`` is ``additive`` or ``multiplicative``.
The dealer's unit, the feeder's extra and the liabilities are the settlement's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, NamedTuple, Optional, Sequence

from replay.melds import Meld
from schema.ruleset import Ruleset

from .. import hands
from ..family import Score, WinContext, steps_when_read
from . import wins

#: The §6 番 sources a reading may hold (each counts 1 toward ``fan``; 三元刻 once per set).
SOURCES = ("pinghu", "menqing", "duidui", "qingyise", "hunyise", "jiang258", "sanyuan", "menfeng",
           "quanfeng", "zhenghua", "qidui", "shisanlan", "shisanyao", "qianggang", "gang")
#: The way of winning (§11): named, never counted.
WAYS = ("zimo", "gangshang_kaihua", "huashang_kaihua")
#: Names the hand multiplier adds (§9.1.3): 龙七对 (seven pairs with four equal tiles).
HANDS = ("longqidui",)
#: Every name a Hainan win carries; a source is worth one 番, the rest nothing.
FAN_VALUES = {**{n: 1 for n in SOURCES}, **{n: 0 for n in WAYS + HANDS}}
CHINESE = {
    "pinghu": "平胡", "menqing": "门清", "duidui": "碰碰胡", "qingyise": "清一色", "hunyise": "混一色",
    "jiang258": "二五八将", "sanyuan": "三元刻", "menfeng": "门风刻", "quanfeng": "令风刻",
    "zhenghua": "位置花", "qidui": "七对", "shisanlan": "十三幺 (十三烂)", "shisanyao": "十三幺 (幺九)",
    "qianggang": "抢杠", "gang": "杠", "zimo": "自摸", "gangshang_kaihua": "杠上开花",
    "huashang_kaihua": "花上开花", "longqidui": "龙七对",
}
DRAGONS = (31, 32, 33)
#: §9.1.3 ``additive``: the values of the hands that hold are added (平胡 1 when none holds).
ADDITIVE = {"duidui": 3, "hunyise": 2, "qingyise": 4, "qidui": 3, "longqidui": 5, "shisanlan": 13, "shisanyao": 13}
#: §9.1.3 ``multiplicative``: the factors of the hands that hold are multiplied (十三幺 alone).
MULTIPLICATIVE = {"duidui": 2, "qidui": 2, "longqidui": 3, "qingyise": 2}


class Shape(NamedTuple):
    """One reading of a complete hand: its shape (``standard``, ``qidui``, ``shisanlan`` or
    ``shisanyao``), every set as (``chow`` | ``pong``, kind) — melds included, a kong being
    pong-type — the pair's kind (standard only) and the concealed reading, if any."""

    shape: str
    sets: tuple[tuple[str, int], ...]
    pair: Optional[int]
    reading: Optional[hands.Reading]


def seat_flowers(position: int) -> tuple[int, int]:
    """位置花 (§2.2): a seat's own flowers by its position p from the dealer — (p+1)f and
    (p+5)f: the dealer 春 梅, the 下家 夏 兰, the 对家 秋 菊, the 上家 冬 竹 (as 34..41)."""
    return 34 + position, 38 + position


def _counts(tiles: Sequence[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def shapes(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld]) -> list[Shape]:
    """Every §5 reading of the hand (concealed tiles with the winning tile, and melds)."""
    counts = _counts(concealed)
    meld_sets = tuple(("chow" if m.kind == "chow" else "pong", m.of) for m in melds)
    out = []
    use = hands.meld_use_of(melds) if melds else None
    for r in hands.readings(counts, 0, use, bool(melds)):
        if r.seven_pairs:
            if wins.seven_pairs(ruleset, counts, melds):
                out.append(Shape("qidui", (), None, r))
            continue
        sets = tuple((g.kind, g.tiles[0]) for g in r.groups if g.kind != "pair") + meld_sets
        pairs = [g.tiles[0] for g in r.groups if g.kind == "pair"]
        out.append(Shape("standard", sets, pairs[0] if len(pairs) == 1 else None, r))
    for name in wins.luanpai_names(ruleset, counts, melds):
        out.append(Shape(name, (), None, None))
    return out


def sources(ruleset: Ruleset, sh: Shape, tiles: Sequence[int], melds: Sequence[Meld], ctx: WinContext) -> list[str]:
    """The §6 番 sources one reading holds, in table order (``sanyuan`` once per dragon set)."""
    out: list[str] = []
    seat_wind = 27 + ctx.seat_wind if ctx.seat_wind >= 0 else -1
    round_wind = 27 + ctx.round_wind if ctx.round_wind >= 0 else -1
    standard = sh.shape == "standard"
    pong_sets = [k for kind, k in sh.sets if kind == "pong"]  # every other set is a chow
    four_sets = standard and len(sh.sets) == 4
    if four_sets and not pong_sets and sh.pair not in DRAGONS and sh.pair != seat_wind and sh.pair != round_wind:
        out.append("pinghu")  # 只吃不碰: the pair is no tile whose pong would score
    if not melds or (ruleset.menqing_concealed_kong and all(m.kind == "kong_concealed" for m in melds)):
        out.append("menqing")
    if four_sets and len(pong_sets) == 4:
        out.append("duidui")
    kinds = set(tiles)
    if len({t // 9 for t in kinds if t < 27}) == 1:  # one suit, with honours or without
        out.append("hunyise" if any(t >= 27 for t in kinds) else "qingyise")
    if standard and sh.pair is not None and sh.pair < 27 and sh.pair % 9 in (1, 4, 7):
        out.append("jiang258")
    if pong_sets:
        pongs = set(pong_sets)
        out += ["sanyuan"] * sum(1 for d in DRAGONS if d in pongs)
        if seat_wind in pongs:
            out.append("menfeng")
        if round_wind in pongs:
            out.append("quanfeng")
    if ctx.flowers and ctx.seat_wind >= 0 and set(seat_flowers(ctx.seat_wind)) & set(ctx.flowers):
        out.append("zhenghua")
    if sh.shape != "standard":
        out.append(sh.shape)
    if ctx.how == "robbed_kong":
        out.append("qianggang")
    if ruleset.kong_fan:
        out += ["gang"] * sum(1 for m in melds if m.is_kong)
    return out


def is_longqidui(sh: Shape, counts: Sequence[int]) -> bool:
    """龙七对 / 豪华七对: seven pairs holding four equal tiles."""
    return sh.shape == "qidui" and max(counts) == 4


def multiplier(ruleset: Ruleset, names: Sequence[str]) -> tuple[int, str]:
    """m (§9.1.3) for a reading's names, with how it was derived."""
    mode = ruleset.hand_multiplier
    if mode == "none":
        return 1, "m = 1 (番 are no multiple)"
    held = [n for n in names if n in ADDITIVE]
    if "longqidui" in held and "qidui" in held:
        held.remove("qidui")  # 龙七对 replaces 七对
    if mode == "additive":
        if not held:
            return 1, "m = 1 (平胡: no counted hand)"
        m = sum(ADDITIVE[n] for n in held)
        return m, "m = " + " + ".join(f"{CHINESE[n]} {ADDITIVE[n]}" for n in held) + f" = {m}"
    if "shisanlan" in held or "shisanyao" in held:
        return 13, "m = 13 (十三幺 alone)"
    held = [n for n in held if n in MULTIPLICATIVE]  # 混一色 has no factor
    m = 1
    for n in held:
        m *= MULTIPLICATIVE[n]
    return m, ("m = " + " × ".join(f"{CHINESE[n]} {MULTIPLICATIVE[n]}" for n in held) + f" = {m}") if held \
        else "m = 1 (no counted hand)"


def rate(ctx: WinContext) -> tuple[int, str]:
    """r (§9.1.1) and the way's name: 1 a discard or a robbing; 2 自摸; 3 杠上开花 / 花上开花
    (a chain of replacements is named after the last set-aside: a flower's is 花上开花).  花上开花
    follows only an in-play 补花: the dealer's win on its opening 补花's replacement is a 天胡,
    scored as an ordinary self-draw (§8)."""
    if ctx.how != "self_draw":
        return 1, ""
    if ctx.after_flower and ctx.heavenly != "tianhe":
        return 3, "huashang_kaihua"
    if ctx.after_kong:
        return 3, "gangshang_kaihua"
    return 2, "zimo"


def fan_enough(ruleset: Ruleset, how: str, fan: int) -> bool:
    """有番才能胡 (§6): a discard win or a robbing needs ``min_fan`` sources; a self-draw none."""
    return how == "self_draw" or fan >= ruleset.min_fan


def _read(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext
          ) -> Iterator[tuple[list[str], int, int, Shape]]:
    """Every reading as (logged names, 番 count, m, shape)."""
    tiles = list(concealed) + [t for m in melds for t in m.tiles]
    counts = _counts(concealed)
    _r, way = rate(ctx)
    for sh in shapes(ruleset, concealed, melds):
        names = sources(ruleset, sh, tiles, melds, ctx)
        count = len(names)
        if ruleset.hand_multiplier != "none" and is_longqidui(sh, counts):
            names.append("longqidui")
        m, _ = multiplier(ruleset, names)
        yield names + ([way] if way else []), count, m, sh


def reading_fans(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld],
                 ctx: WinContext) -> Iterator[tuple[list[str], int, Optional[hands.Reading]]]:
    """Every reading with its logged names and 番 count (a hand read two ways may be logged
    with either reading of the same count)."""
    for names, count, _m, sh in _read(ruleset, concealed, melds, ctx):
        yield names, count, sh.reading


def points(fan: int, ruleset: Ruleset) -> int:
    """P for a plain discard win with m = 1: B (the rate and m come from the tiles; see
    :func:`score_hand`)."""
    return ruleset.base


def _steps(ruleset: Ruleset, names: Sequence[str], count: int, m: int, sh: Shape, ctx: WinContext) -> list[str]:
    """The derivation of a scored reading (``Score.steps``): its shape and 番 sources, the
    gate, r, m and P = B × r × m."""
    r, way = rate(ctx)
    b = ruleset.base
    ok = fan_enough(ruleset, ctx.how, count)
    srcs = [n for n in names if n in FAN_VALUES and FAN_VALUES[n]]
    return [
        f"1. shape {sh.shape}; 番 sources: " + (", ".join(f"{CHINESE[n]} {n}" for n in srcs) or "none")
        + f" -> fan {count}",
        "2. gate: " + ("a self-draw needs no 番 (无番靠自摸)" if ctx.how == "self_draw" else
                       f"a discard win needs {ruleset.min_fan} 番: " + ("passed" if ok else "not met")),
        f"3. r = {r} (" + ({"zimo": "自摸", "gangshang_kaihua": "杠上开花", "huashang_kaihua": "花上开花"}.get(way, "")
                          or "a discard or a robbing") + ")",
        "4. " + multiplier(ruleset, names)[1],
        f"5. P = B × r × m = {b} × {r} × {m} = {b * r * m}",
    ]


@dataclass
class HainanScore(Score):
    """A :class:`Score` whose derivation (``steps``) is written when first read (``--explain``,
    the report, ``paipu hand``), not for every win the audit scores."""

    #: (ruleset, names, 番 count, m, shape, win context) the steps are written from
    derive: Optional[tuple] = field(default=None, repr=False, compare=False)


steps_when_read(HainanScore, _steps)


def score_hand(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext,
               passed_win: bool = False) -> Score:
    """Score ``concealed`` (the winning tile included) + ``melds``: the reading with the
    largest m (then the most sources), the gate, P = B × r × m, and the derivation (``steps``,
    written when read)."""
    best = None
    for names, count, m, sh in _read(ruleset, concealed, melds, ctx):
        if best is None or (m, count) > (best[2], best[1]):
            best = (names, count, m, sh)
    if best is None:
        # no reading, so no hand multiplier: P = B × r still follows from the way of winning (§11)
        return Score(False, False, [], 0, 0, ruleset.base * rate(ctx)[0], None,
                     "not a complete hand (4 sets + a pair, 七对, 十三幺; no flower in hand)")
    names, count, m, sh = best
    p = ruleset.base * rate(ctx)[0] * m
    ok = fan_enough(ruleset, ctx.how, count)
    reason = "" if ok else f"有番才能胡: a discard win with {count} 番 (min_fan {ruleset.min_fan})"
    return HainanScore(ok, True, names, count, count, p, sh.reading, reason,
                       derive=(ruleset, names, count, m, sh, ctx))


def winner_points(ruleset: Ruleset, winner, score: Optional[Score] = None) -> int:
    """What one non-dealer payer owes as logged: B × r × m, read from the tiles (an incomplete
    hand, e.g. a 花胡, has no reading: B × r, its way of winning's rate)."""
    return score.points if score is not None and score.points else points(winner.fan, ruleset)


def fan_finding(ruleset: Ruleset, winner, score: Score) -> Optional[str]:
    """FAN_MISMATCH when the log names a source that does not hold or ``fan`` is not the count
    of the sources it names; FAN_NAMES_DIFFER (a warning: money right) when it only leaves out
    sources that hold, or names 杠上开花 for a chain the rules call 花上开花 (r is 3 either way)."""
    logged = list(winner.fans)
    if winner.fan != sum(1 for n in logged if FAN_VALUES.get(n, 0)):
        return "FAN_MISMATCH"
    swap = {"gangshang_kaihua": "huashang_kaihua", "huashang_kaihua": "gangshang_kaihua"}
    missing = list(score.fans)
    named_differently = False
    for n in logged:
        if n in missing:
            missing.remove(n)
        elif swap.get(n) in missing:
            missing.remove(swap[n])
            named_differently = True
        else:
            return "FAN_MISMATCH"
    if winner.points != score.points:
        return "FAN_MISMATCH"
    return "FAN_NAMES_DIFFER" if missing or named_differently else None


__all__ = ["CHINESE", "FAN_VALUES", "HANDS", "HainanScore", "SOURCES", "Shape", "WAYS", "fan_enough", "fan_finding", "multiplier",
           "points", "rate", "reading_fans", "score_hand", "seat_flowers", "shapes", "sources", "winner_points"]
