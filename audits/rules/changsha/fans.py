"""Changsha units and the hand base H (changsha.md §9.2–§9.4, §10.1).

A win is a 小胡 (``jihu``, U = 0) or carries U big units (大胡), each named once
(``haohua`` and a double ``gangshang_kaihua`` repeated).  H is what one paying seat owes the
winner before birds and the dealer bonus: small 2 B by self-draw and 1 B on a discard;
big 6 B × U (``dahu_stack = add``) or 6 B × 2^(U−1) (``double``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Sequence

from replay.melds import Meld
from schema.ruleset import Ruleset

from ..family import Score, WinContext, steps_when_read
from . import qishou, wins

#: Each unit's count (1 each; ``jihu`` is the small win, 0), and each opening win's (起手胡,
#: §4.2: one opening base each, worth ``qishou_value`` B from every other seat).
FAN_VALUES = {name: 1 for name in wins.SHAPE_UNITS + wins.EVENT_UNITS + ("haohua",)} | {"jihu": 0} \
    | {name: 1 for name in qishou.SEED_WINS + qishou.EXTRA_WINS}
#: The units' Chinese names (§9.3) and the opening wins' (§4.2).
CHINESE = {
    "jihu": "平胡", "duidui": "碰碰胡", "jiangyise": "将将胡", "qingyise": "清一色", "qidui": "七小对",
    "haohua": "豪华", "quanqiuren": "全求人", "haidi": "海底捞月", "haidi_pao": "海底炮",
    "gangshang_kaihua": "杠上开花", "gangshang_pao": "杠上炮", "qianggang": "抢杠胡", "tianhe": "天胡",
    "dihe": "地胡", "qs_sixi": "四喜", "qs_banban": "板板胡", "qs_queyise": "缺一色", "qs_liuliushun": "六六顺",
    "qs_bubugao": "步步高", "qs_jintongyunv": "金童玉女", "qs_yizhihua": "一枝花", "qs_santong": "三同",
}
#: The seed's tiers by U (§9.4, display only).
TIERS = {0: "小和", 1: "大和", 2: "超大和"}
_HOW_WORDS = {"self_draw": "won by self-draw", "discard": "won on a discard", "robbed_kong": "won by robbing a kong"}
_WORD_HOW = {v: k for k, v in _HOW_WORDS.items()}


def tier(units: int) -> str:
    """小和 / 大和 / 超大和 / 最大和 for U units."""
    return TIERS.get(units, "最大和")


def hand_base(ruleset: Ruleset, units: int, how: str) -> int:
    """H (§10.1): what one paying seat owes for a win of U units won ``how``."""
    b = ruleset.base
    if units == 0:
        return 2 * b if how == "self_draw" else b
    if ruleset.dahu_stack == "double":
        return 6 * b * (1 << (units - 1))
    return 6 * b * units


def points(fan: int, ruleset: Ruleset) -> int:
    """H of a discard win of ``fan`` units (the kind-free reading; see :func:`winner_points`)."""
    return hand_base(ruleset, fan, "discard")


def event_units(ruleset: Ruleset, ctx: WinContext) -> list[str]:
    """The event units of the moment (§9.3): 海底, 杠上开花 (twice with 双杠开花), 杠上炮, 抢杠,
    天胡 / 地胡."""
    out: list[str] = []
    if ctx.sea_bottom:
        out.append("haidi" if ctx.how == "self_draw" else "haidi_pao")
    if ctx.how == "self_draw" and (ctx.kong_reveal or (ctx.after_kong and ruleset.buzhang_kaihua)):
        times = 2 if ctx.kong_reveal >= 2 and ruleset.shuang_gangkai == "double" else 1
        out.extend(["gangshang_kaihua"] * times)
    if ctx.how == "discard" and ctx.kong_reveal:
        out.append("gangshang_pao")
    if ctx.how == "robbed_kong":
        out.append("qianggang")
    if ctx.tiandi and ruleset.tiandihu:
        out.append(ctx.tiandi)
    return out


def counts_of(tiles: Sequence[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


@dataclass
class ChangshaScore(Score):
    """A winning :class:`Score` whose ``steps`` (the units, U and H, for ``--explain``) are
    written when first read, not for every win the audit scores."""

    #: the arguments of :func:`explain_steps`
    derive: Optional[tuple] = field(default=None, repr=False, compare=False)


def explain_steps(ruleset: Ruleset, names: Sequence[str], units: int, h: int, how: str) -> list[str]:
    """A win's derivation: its units and U (with the tier), then H (§10.1)."""
    steps = [f"units: {', '.join(CHINESE[n] + ' ' + n for n in names) or '平胡 jihu (small win)'}; "
             f"U = {units} ({tier(units)})"]
    if units == 0:
        steps.append(f"H = {'2' if how == 'self_draw' else '1'} × B = {h} ({_HOW_WORDS[how]})")
    elif ruleset.dahu_stack == "double":
        steps.append(f"H = 6 × 2^({units}−1) × B = {h}")
    else:
        steps.append(f"H = 6 × {units} × B = {h}")
    return steps


steps_when_read(ChangshaScore, explain_steps)


def score_counts(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld], ctx: WinContext) -> Score:
    """The highest reading of a hand (concealed counts with the winning tile): legal or not
    (WIN_PAIR_NOT_258 / incomplete), its units, U and H, with the steps for ``--explain``
    (:func:`explain_steps`, written when read)."""
    sh = wins.shapes_of(counts, melds)
    how = ctx.how
    shape = wins.best_shape_units(ruleset, sh, how)
    if not shape and not wins.small_shape(ruleset, sh):
        if sh.readings:
            return Score(False, True, [], 0, 0, 0, reason="complete only with a pair that is not 2, 5 or 8",
                         code="WIN_PAIR_NOT_258")
        return Score(False, False, [], 0, 0, 0, reason="not a complete hand")
    names = shape + event_units(ruleset, ctx)
    units = len(names)
    h = hand_base(ruleset, units, how)
    return ChangshaScore(True, True, names or ["jihu"], units, units, h, None, _HOW_WORDS[how], [], "",
                         (ruleset, tuple(names), units, h, how))


def score_hand(ruleset: Ruleset, tiles: Sequence[int], melds: Sequence[Meld], ctx: WinContext,
               passed_win: bool = False) -> Score:
    """``ScoringRules.score``: the best reading of the concealed tiles (with the winning tile);
    ``passed_win`` is the walker's pass rule's (过胡), not the score's."""
    return score_counts(ruleset, counts_of(tiles), melds, ctx)


def reading_fans(ruleset: Ruleset, tiles: Sequence[int], melds: Sequence[Meld], ctx: WinContext):
    """Every reading with the most units, as (names, U, None): the standard and the seven-pairs
    readings of one hand may both reach the best U."""
    counts = counts_of(tiles)
    sh = wins.shapes_of(counts, melds)
    events = event_units(ruleset, ctx)
    sets = wins.shape_unit_sets(ruleset, sh, ctx.how) or [[]]
    out = []
    for shape in sets:
        names = shape + events
        out.append((names or ["jihu"], len(names), None))
    return out


def winner_points(ruleset: Ruleset, winner, score: Optional[Score]) -> int:
    """POINTS_MISMATCH is step-wise: H for the *logged* U and the win's kind (§10.1)."""
    how = _WORD_HOW.get(score.reason, "discard") if score is not None else "discard"
    return hand_base(ruleset, winner.fan, how)


def fan_finding(ruleset: Ruleset, winner, score: Score) -> Optional[str]:
    """Logged units that differ from the best reading: FAN_MISMATCH when U differs;
    FAN_NAMES_DIFFER (a warning) when only the names do (a tier name, 豪华 spelled once)."""
    if winner.fan != score.fan:
        return "FAN_MISMATCH"
    return "FAN_NAMES_DIFFER"


__all__ = ["CHINESE", "ChangshaScore", "FAN_VALUES", "counts_of", "event_units", "explain_steps", "fan_finding",
           "hand_base", "points", "reading_fans", "score_counts", "score_hand", "tier", "winner_points"]
