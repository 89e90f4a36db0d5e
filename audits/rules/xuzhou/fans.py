"""Xuzhou scoring (xuzhou.md §7, §8.1): 不计番 — no fan.

A win is named by its shape (``jihu`` 平和, ``qidui`` 七对, ``shisanlan`` / ``shisanyao``
乱牌), with ``paopei`` 跑配成牌 beside a 平和 that a 配子 completes standing for
another kind, and ``tianhe`` 天和 for the dealer's dealt 14.  Every name is worth 0:
``fan`` is 0 and one payer's ``points`` is U × B, U = ``zimo_units`` for a self-draw
(天和 and 杠上开花 included) and ``dianpao_units`` for a win on a discard or a robbed
kong.  The dealer bonus and the 下嘴 bets are the settlement's (§8.2–§8.4).
"""

from __future__ import annotations

from typing import Iterator, Optional, Sequence

from replay.melds import Meld
from schema.ruleset import Ruleset

from .. import hands
from ..family import PassBook, Score, WinContext
from ..passes import pass_violation
from . import pei, wins

#: Every name a Xuzhou win carries, each worth 0 (不计番).
FAN_VALUES = {"jihu": 0, "paopei": 0, "qidui": 0, "shisanlan": 0, "shisanyao": 0, "tianhe": 0}
CHINESE = {"jihu": "平和", "paopei": "跑配成牌", "qidui": "七对", "shisanlan": "乱牌 (十三烂)",
           "shisanyao": "乱牌 (十三幺)", "tianhe": "天和"}
#: names whose presence or absence is no finding (§12: which name a server gives a
#: wild-completed 平和)
OPTIONAL_NAMES = frozenset({"paopei"})


def unit(ruleset: Ruleset, how: str) -> int:
    """U (§8.1): ``zimo_units`` for a self-draw, ``dianpao_units`` for a discard or a rob."""
    return ruleset.zimo_units if how == "self_draw" else ruleset.dianpao_units


def points(fan: int, ruleset: Ruleset, how: str = "discard") -> int:
    """One payer's points before the dealer bonus and bets: U × B, whatever the fan."""
    return unit(ruleset, how) * ruleset.base


def fan_enough(ruleset: Ruleset, how: str, fan: int) -> bool:
    """There is no minimum (§7.6)."""
    return True


def is_paopei(ruleset: Ruleset, naturals: Sequence[int], wilds: int, use: Sequence[int],
              melds: Sequence[Meld]) -> bool:
    """跑配成牌 (§7.1): the 平和 holds only with a 配子 standing for another kind — read as
    W itself (a natural W tile, room permitting) the hand is not a 平和."""
    if not wilds:
        return False
    w = pei.pei(ruleset).wild
    natural = list(naturals)
    natural[w] += wilds
    if natural[w] + use[w] > 4:
        return True
    return not wins.standard(ruleset, natural, 0, use, melds)


def guohu_bar(ruleset: Ruleset, how: str, tile: Optional[int]) -> Optional[str]:
    """过胡 (§6) for a seat that let a legal win go since its own last draw or call (``paipu
    hand --passed-win``): the code of the shared pass rule (``guohu = any_discard``) that
    bars this win, or None.  A self-draw comes on the seat's own draw, which ends its passes
    (§6.2: "必须等到自己摸牌…才能继续和牌")."""
    if how == "self_draw":
        return None
    book = PassBook(ruleset.players, ())
    book.let_go(0, "win", tile if tile is not None else 0)  # the legal win the seat let go
    return pass_violation(book, 0, "win", tile, lambda seat, t, kd: True, rules=ruleset, how=how)


def _names(ruleset: Ruleset, naturals: Sequence[int], wilds: int, use: Sequence[int], melds: Sequence[Meld],
           ctx: WinContext) -> list[list[str]]:
    """Each shape the hand (split by :func:`.pei.split`) holds as its names (平和 first),
    天和 added to a self-draw."""
    # 天和 (§7.5) is the dealer's dealt 14: a self-draw, never a win on a discard or a rob
    tian = ["tianhe"] if ctx.heavenly == "tianhe" and ctx.how == "self_draw" else []
    out = []
    for shape in wins.shapes_of(ruleset, naturals, wilds, use, melds):
        names = [shape]
        if shape == "jihu" and is_paopei(ruleset, naturals, wilds, use, melds):
            names.append("paopei")
        out.append(names + tian)
    return out


def _counts(concealed: Sequence[int]) -> list[int]:
    c = [0] * 34
    for t in concealed:
        c[t] += 1
    return c


def reading_fans(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld],
                 ctx: WinContext) -> Iterator[tuple[list[str], int, None]]:
    """Every shape the hand holds with its names and fan 0; a 平和 is also read without
    ``paopei`` (naming it is no finding)."""
    naturals, wilds = pei.split(ruleset, _counts(concealed), ctx.plain_tile)
    for names in _names(ruleset, naturals, wilds, pei.use_of(ruleset, melds), melds, ctx):
        yield names, 0, None
        if "paopei" in names:
            yield [n for n in names if n != "paopei"], 0, None


def _reading(naturals: Sequence[int], wilds: int, melds: Sequence[Meld]):
    """A standard reading of a hand without 配子 (its groups, for ``paipu hand`` and
    ``--explain``).  With 配子 the names say how they ran (跑配成牌 or read as W): the
    search over what each 配子 stands for is left out of the audit's path (it would cost
    more than the whole win check)."""
    if wilds:
        return None
    for r in hands.readings(naturals, 0, None, bool(melds)):
        return r
    return None


def score_hand(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext,
               passed_win: bool = False) -> Score:
    """Score ``concealed`` (the winning tile included) + ``melds``: the shape names, fan 0,
    P = U × B, and the derivation (``steps``) for ``--explain``.  ``passed_win`` (the seat
    let a legal win go since its own last draw or call): a win on a discard or a rob is
    barred by 过胡 (§6, :func:`guohu_bar`); the audit's walker asks the pass rule itself."""
    naturals, wilds = pei.split(ruleset, _counts(concealed), ctx.plain_tile)
    u = unit(ruleset, ctx.how)
    p = u * ruleset.base
    use = pei.use_of(ruleset, melds)
    readings = _names(ruleset, naturals, wilds, use, melds, ctx)
    if not readings:
        why = "not a complete hand (平和, 七对" + ("" if ruleset.luanpai == "off" else ", 乱牌") + ")"
        if ruleset.shape_gate == "bazhi" and wins.four_sets_and_a_pair(ruleset, naturals, wilds, use):
            why = f"a 平和 without 八枝 (shape_gate = bazhi: {wins.BAZHI} tiles of one suit); " + why
        return Score(False, False, [], 0, 0, p, None, why)
    names = readings[0]
    hand_pei = pei.pei(ruleset)
    w = hand_pei.wild
    steps = [f"1. 配子 W = {pei.name(w)}" + (f", 白板 reads as {pei.name(w)}" if hand_pei.stand_in is not None
                                            else "") + f"; shape: " + " + ".join(f"{CHINESE[n]} {n}" for n in names),
             "2. 不计番: every name is worth 0, fan 0",
             f"3. P = U × B = {u} × {ruleset.base} = {p} (U = "
             + ("zimo_units, a self-draw)" if ctx.how == "self_draw" else "dianpao_units, a discard or rob)")]
    r = _reading(naturals, wilds, melds) if "jihu" in names else None
    barred = guohu_bar(ruleset, ctx.how, ctx.win_tile) if passed_win else None
    if barred:
        return Score(False, True, names, 0, 0, p, r, "过胡: passed a win since own last draw or call; "
                     "no win on a discard or rob until then", steps, barred)
    return Score(True, True, names, 0, 0, p, r, "", steps)


def winner_points(ruleset: Ruleset, winner, score: Optional[Score] = None) -> int:
    """What one payer owes for a winner as logged (before the dealer bonus and bets):
    U × B for how the hand was won (the score knows it); no fan changes it."""
    return score.points if score is not None else points(0, ruleset)


def fan_finding(ruleset: Ruleset, winner, score: Score) -> Optional[str]:
    """FAN_MISMATCH when the logged fan is not 0 (不计番); a name list that differs only by
    ``paopei`` is no finding; other name differences are FAN_NAMES_DIFFER (money right)."""
    if winner.fan != 0:
        return "FAN_MISMATCH"
    if sorted(n for n in winner.fans if n not in OPTIONAL_NAMES) == \
            sorted(n for n in score.fans if n not in OPTIONAL_NAMES):
        return None
    return "FAN_NAMES_DIFFER"


__all__ = ["CHINESE", "FAN_VALUES", "fan_enough", "fan_finding", "guohu_bar", "is_paopei", "points", "reading_fans",
           "score_hand", "unit", "winner_points"]
