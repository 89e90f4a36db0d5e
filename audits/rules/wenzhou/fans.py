"""Wenzhou scoring (wenzhou.md §7, §8): the hand multiple M — 软 ×1, 硬 ×2, 双翻 ×4
(辣子辣 ×8) — logged as ``fan`` = log2 M and ``points`` = B × M.

* **软胡** ``ruanhu`` (the spec's 软牌): in the chosen reading a 财神 stands for another kind;
* **硬胡** ``yinghu`` (硬牌): no 财神 stands for another kind (none held, or all 归位) — on a
  self-draw only under ``ying_scope = self_draw_only`` —, or the win robs an added kong, or
  the bare 三财神 win (§8.1);
* **双翻** (§8.2): 硬八对 ``badui``, 三财神 ``sancaishen`` (all three held and a shape), 天和
  ``tianhe``, 地和 ``dihe`` (``dihe_scope``), 单吊 ``quanqiuren`` (all five sets melds);
  ``extra_shuangfan`` adds 碰碰和 ``duidui`` (``pengpeng``) or the 特殊双翻 set (``teshu``);
* **辣子辣** ``sancai_guiwei`` (``lazila``): three 财神 held, all 归位: ×8.

M is the largest over the hand's readings; 双翻 does not stack (§8.3).  A win on a discard
(or a rob) by a seat in 财神单钓 is barred under ``caishen_dandiao = self_draw_only``
(WIN_CAISHEN_DANDIAO_DISCARD, §6).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Optional, Sequence

from replay.melds import Meld
from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX, TILE_NAMES

from ..family import Score, WinContext, steps_when_read
from . import caishen, wins

#: M by name: the multiple each name sets (the hand's M is the largest, §8.3); fan = log2 M
MULTIPLE = {"ruanhu": 1, "yinghu": 2, "sancaishen_bare": 2, "badui": 4, "sancaishen": 4, "tianhe": 4,
            "dihe": 4, "quanqiuren": 4, "duidui": 4, "gangshang_kaihua": 4, "qingyise": 4, "hunyise": 4,
            "zhongfabai": 4, "caishen_niudui": 4, "shuangcai_guiwei": 4, "sancai_guiwei": 8}
#: fan values (log2 of each name's multiple), for the glossary and ``paipu hand``
FAN_VALUES = {name: m.bit_length() - 1 for name, m in MULTIPLE.items()}
CHINESE = {"ruanhu": "软牌", "yinghu": "硬牌", "sancaishen_bare": "三财神 (不须牌型)", "badui": "硬八对",
           "sancaishen": "三财神", "tianhe": "天和", "dihe": "地和", "quanqiuren": "单吊", "duidui": "碰碰和",
           "gangshang_kaihua": "杠上开花", "qingyise": "清一色", "hunyise": "混一色", "zhongfabai": "中发白",
           "caishen_niudui": "财神牛对", "shuangcai_guiwei": "双财归位", "sancai_guiwei": "辣子辣 (三财归位)"}
#: the order names are logged in
ORDER = tuple(CHINESE)
#: the 双翻 names each ``extra_shuangfan`` value adds to the seed's five
EXTRA = {"none": frozenset(), "pengpeng": frozenset({"duidui"}),
         "teshu": frozenset({"duidui", "gangshang_kaihua", "qingyise", "hunyise", "zhongfabai", "caishen_niudui",
                             "shuangcai_guiwei"})}

WHITE, GREEN, RED = TILE_INDEX["5z"], TILE_INDEX["6z"], TILE_INDEX["7z"]


def points(fan: int, ruleset: Ruleset) -> int:
    """One payer's points before the pair base: B × M, M = 2^fan."""
    return ruleset.base << fan


def fan_enough(ruleset: Ruleset, how: str, fan: int) -> bool:
    """There is no minimum (the shape decides, §7)."""
    return True


def _counts(tiles: Sequence[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def pongs_and_pair(naturals: Sequence[int], wilds: int) -> bool:
    """碰碰和's concealed part: pong-type sets and one pair, 财神 filling in.  Each natural kind
    of c tiles needs 3 − c 财神 as a pong; taking one kind of 1 or 2 as the pair saves one
    (else the pair is two 财神); four of a kind is never a pong and a pair."""
    need, pair_kind = 0, False
    for c in naturals:
        if not c:
            continue
        if c == 4:
            return False
        need += 3 - c
        pair_kind = pair_kind or c <= 2
    total = need - 1 if pair_kind else need + 2
    return total <= wilds and (wilds - total) % 3 == 0


def _suits(ruleset: Ruleset, naturals: Sequence[int], melds: Sequence[Meld]) -> set:
    """The suits (0 m, 1 p, 2 s, 3 honours) of the natural tiles and the melds, 白板 as W."""
    kinds = [k for k, c in enumerate(naturals) if c]
    kinds += [caishen.fold(ruleset, t) for m in melds for t in m.tiles]
    return {min(k // 9, 3) for k in kinds}


def extra_names(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld], ctx: WinContext,
                sh: wins.Shape, naturals: Sequence[int]) -> list[str]:
    """The ``extra_shuangfan`` 双翻 names the hand holds (§8.2)."""
    allowed = EXTRA[ruleset.extra_shuangfan]
    if not allowed:
        return []
    out = []
    w = sh.wilds
    if "duidui" in allowed and sh.standard and all(m.kind != "chow" for m in melds) \
            and pongs_and_pair(naturals, w):
        out.append("duidui")
    if "gangshang_kaihua" in allowed and ctx.how == "self_draw" and ctx.after_kong:
        out.append("gangshang_kaihua")
    suits = _suits(ruleset, naturals, melds)
    if "qingyise" in allowed and len(suits) == 1 and 3 not in suits:
        out.append("qingyise")
    if "hunyise" in allowed and len(suits) == 2 and 3 in suits:
        out.append("hunyise")
    if "zhongfabai" in allowed:
        held = list(counts)
        for m in melds:
            for t in m.tiles:
                held[t] += 1
        if held[WHITE] >= 2 and held[GREEN] >= 2 and held[RED] >= 2:
            out.append("zhongfabai")
    if "caishen_niudui" in allowed and w >= 2 and wins.sets_only(naturals, w - 2):
        out.append("caishen_niudui")
    if "shuangcai_guiwei" in allowed and w == 2 and (sh.hard or sh.badui == "hard"):
        out.append("shuangcai_guiwei")
    return out


def _moment_names(ruleset: Ruleset, melds: Sequence[Meld], ctx: WinContext) -> list[str]:
    """The 双翻 names of the moment: 天和, 地和 (the win context says), 单吊 (five melds)."""
    out = []
    if ctx.heavenly in ("tianhe", "dihe"):
        out.append(ctx.heavenly)
    if len(melds) == 5:
        out.append("quanqiuren")
    return out


def _ordered(names) -> list[str]:
    return sorted(set(names), key=ORDER.index)


def bare_moment(ruleset: Ruleset, ctx: WinContext) -> bool:
    """A moment the bare 三财神 wins at (§7.3): one's own turn come with a draw (a wall draw, a
    kong replacement, the dealer's dealt 17; not a turn reached by a chow or a pong), or under
    ``sancaishen_on_discard`` a discard (or a robbed kong)."""
    if ctx.how == "self_draw":
        return getattr(ctx, "turn_drawn", True)  # a bare WinContext (``paipu hand``): a drawn turn
    return ruleset.sancaishen_on_discard


def _judge(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext):
    """(legal shape or bare win, barred code or "", M, names, why) of a win (§6–§8.3); ``why``
    holds what the derivation (:func:`_steps`) is written from, None for no win."""
    counts = _counts(concealed)
    plain = ctx.plain_tile
    naturals, wilds = caishen.split(ruleset, counts, plain)
    sh = wins.shape_of(ruleset, naturals, wilds, melds)
    bare = sh.wilds >= 3 and bare_moment(ruleset, ctx)
    legal = sh.legal(ruleset)
    if not legal and not bare:
        return False, "", 0, [], None
    w = caishen.wild(ruleset)
    # 财神单钓 needs a 财神 held (the tile won from another seat is plain: the held count is sh.wilds)
    if sh.wilds and ctx.how in ("discard", "robbed_kong") and ruleset.caishen_dandiao == "self_draw_only" \
            and ctx.win_tile is not None:
        # the tiles before the winning tile: the winning tile is plain (``plain``), so they
        # are the split naturals less its kind, with the same 财神 held
        k = caishen.fold(ruleset, ctx.win_tile)
        naturals[k] -= 1
        try:
            dandiao = wins.caishen_dandiao(naturals, wilds)
        finally:
            naturals[k] += 1
        if dandiao:
            return True, "WIN_CAISHEN_DANDIAO_DISCARD", 0, [], (w, sh, False, False, False, False)
    moment = _moment_names(ruleset, melds, ctx)
    best_m, best = 0, []
    ying = hard_shape = False
    if legal:
        hard_shape = sh.hard or sh.badui == "hard"
        ying = ctx.how == "robbed_kong" or (hard_shape and (ruleset.ying_scope == "any_win"
                                                            or ctx.how == "self_draw"))
        double = list(moment)
        if sh.badui == "hard":
            double.append("badui")
        if sh.wilds >= 3:
            double.append("sancaishen")
        double += extra_names(ruleset, counts, melds, ctx, sh, naturals)
        names = ["yinghu" if ying else "ruanhu"] + double
        m = 4 if double else (2 if ying else 1)
        if ruleset.lazila and sh.wilds >= 3 and hard_shape:
            names.append("sancai_guiwei")
            m = 8
        best_m, best = m, names
    bare_won = bare and best_m < 2
    if bare_won:
        m = 4 if moment else 2
        best_m, best = m, ["yinghu", "sancaishen_bare"] + moment
    return True, "", best_m, _ordered(best), (w, sh, legal, ying, hard_shape, bare_won)


def _steps(ruleset: Ruleset, judged) -> list[str]:
    """The derivation of a judged win (:func:`_judge`), step by step, for ``--explain``."""
    _complete, code, best_m, best, why = judged
    if why is None:
        return []
    w, sh, legal, ying, hard_shape, bare_won = why
    steps = [f"1. 财神 W = {TILE_NAMES[w] if w is not None else '-'}, {sh.wilds} held"
             + (f"; 白板 reads as {TILE_NAMES[w]}" if w is not None and w != WHITE else "")]
    if code:
        return steps + ["2. 财神单钓: the seat waited with a 财神 alone; it wins by self-draw only (caishen_dandiao)"]
    if legal:
        steps.append(f"2. shape: {'standard (5 sets + 牛)' if sh.standard else ''}"
                     f"{' and ' if sh.standard and sh.badui else ''}{'八对 (' + sh.badui + ')' if sh.badui else ''}"
                     f"; {'硬' if ying else '软'}: " + ("a 财神 stands for another kind" if not hard_shape
                                                      else "no 财神 stands for another kind"))
    if bare_won:
        steps.append("2. three 财神 held: the bare 三财神 win (算硬牌)")
    steps.append("3. M = " + " / ".join(f"{CHINESE[n]} {n} ×{MULTIPLE[n]}" for n in best)
                 + f" → the largest, ×{best_m} (双翻 does not stack)")
    steps.append(f"4. fan = log2 M = {best_m.bit_length() - 1}; points = B × M = {ruleset.base} × {best_m}"
                 f" = {ruleset.base * best_m}")
    return steps


def evaluate(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext):
    """(legal shape or bare win, barred code or "", M, names, steps) of a win (§6–§8.3)."""
    judged = _judge(ruleset, concealed, melds, ctx)
    return judged[:4] + (_steps(ruleset, judged),)


@dataclass
class WenzhouScore(Score):
    """A :class:`Score` whose derivation (``steps``) is written when first read (``--explain``,
    the report, ``paipu hand``), not for every win the audit scores."""

    #: (ruleset, the judged win) the steps are written from
    derive: Optional[tuple] = field(default=None, repr=False, compare=False)


steps_when_read(WenzhouScore, _steps)


def score_hand(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext,
               passed_win: bool = False) -> Score:
    """Score ``concealed`` (the winning tile included) + ``melds``: the names of the chosen
    reading, fan = log2 M, points = B × M, and the derivation (``steps``, written when read)."""
    judged = _judge(ruleset, concealed, melds, ctx)
    complete, code, m, names, _ = judged
    if not complete:
        return Score(False, False, [], 0, 0, 0, None, "not a winning hand (5 sets + 牛, 硬八对"
                     + (", 软八对" if ruleset.soft_badui else "") + ", or three 财神 at one's own turn)")
    if code:
        return WenzhouScore(False, True, [], 0, 0, 0, None, "财神单钓 wins by self-draw only", [], code,
                            derive=(ruleset, judged))
    fan = m.bit_length() - 1
    return WenzhouScore(True, True, list(names), fan, fan, ruleset.base * m, None, "", [], derive=(ruleset, judged))


def reading_fans(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld],
                 ctx: WinContext) -> Iterator[tuple[list[str], int, None]]:
    """The chosen reading's names and fan (every reading of the highest M carries them)."""
    complete, code, m, names, _ = _judge(ruleset, concealed, melds, ctx)
    if complete and not code:
        yield list(names), m.bit_length() - 1, None


def winner_points(ruleset: Ruleset, winner, score: Optional[Score] = None) -> int:
    """What one payer owes for a winner as logged, before the pair base: B × 2^fan."""
    return points(max(0, min(winner.fan, 3)), ruleset)


def fan_finding(ruleset: Ruleset, winner, score: Score) -> Optional[str]:
    """FAN_MISMATCH when the logged fan is not log2 M; the same M under other names is
    FAN_NAMES_DIFFER (which of several equal-M readings a server names, §13)."""
    if winner.fan != score.fan:
        return "FAN_MISMATCH"
    if sorted(winner.fans) == sorted(score.fans):
        return None
    return "FAN_NAMES_DIFFER"


__all__ = ["CHINESE", "EXTRA", "FAN_VALUES", "MULTIPLE", "WenzhouScore", "bare_moment", "evaluate", "extra_names", "fan_enough", "fan_finding",
           "points", "pongs_and_pair", "reading_fans", "score_hand", "winner_points"]
