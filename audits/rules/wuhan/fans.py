"""Wuhan scoring (wuhan.md §7.1, §7.3–§7.7, §8, §9.6): the legal readings of a win, the 大胡
they hold, and the reading that pays the winner most.

A win is legal when some reading meets every condition of §7.1; an illegal one gets the code
of the first condition no reading meets with every condition before it: WIN_NOT_OPENED,
WIN_HOLDING_PI, WIN_INCOMPLETE, WIN_LAIZI_LIMIT, WIN_PAIR_NOT_258, WIN_BELOW_MIN_FAN (起胡).

The score's ``points`` is H (one payer's base before pair factors), ``fan`` F_w; each paying
seat's share, the 包 liability and the derivation ride on :class:`WuhanScore`.  What a score
needs from the table (every seat's personal fan, the dealer, the indicator, the 海底 draw,
the third call's feeder, the discarder's readiness) rides on :class:`WuhanContext`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Optional, Sequence

from replay.melds import Meld
from schema.ruleset import Ruleset

from ..family import Score, WinContext, steps_when_read
from . import laizi, money, wins
from .money import SeatFan, Win

#: every name a Wuhan win carries; the value is the 大胡 count it adds (屁胡 and 硬胡: 0)
FAN_VALUES = {"jihu": 0, "yinghu": 0, "duidui": 1, "qingyise": 1, "jiangyise": 1, "fengyise": 1,
              "quanqiuren": 1, "gangshang_kaihua": 1, "haidi": 1, "qianggang": 1}
CHINESE = {"jihu": "屁胡", "yinghu": "硬胡", "duidui": "碰碰胡", "qingyise": "清一色", "jiangyise": "将一色",
           "fengyise": "风一色", "quanqiuren": "全求人", "gangshang_kaihua": "杠开", "haidi": "海底捞",
           "qianggang": "抢杠"}


@dataclass(frozen=True)
class WuhanContext(WinContext):
    """The table facts a Wuhan score needs besides the winner's tiles (read by the family's
    ``win_context``; a bare :class:`WinContext` scores the winner alone, as ``paipu hand``)."""

    seat: int = -1
    from_seat: Optional[int] = None
    dealer: int = -1
    indicator: Optional[int] = None
    #: every seat's fan sources (§8.1), the robbed adder's kong read as the pong it stays
    seat_fans: tuple = ()
    #: the win is a 海底 draw (§6)
    haidi_draw: bool = False
    #: the seat whose discard the winner claimed in its third call (放三铺), or None
    third_feeder: Optional[int] = None
    #: the discarder was ready after its discard (全求人 包 ``if_not_ready``); None: not asked
    feeder_ready: Optional[bool] = None


@dataclass
class WuhanScore(Score):
    """A :class:`Score` with each paying seat's share, the cap applied and the 包 liability."""

    shares: list = field(default_factory=list)
    cap_kind: str = ""
    liable: Optional[tuple] = None
    win: Optional[Win] = None
    total: int = 0
    #: the arguments of :func:`explain_steps`: the derivation is written when ``steps`` is
    #: first read (``--explain``, the report), not for every score the audit makes
    derive: Optional[tuple] = field(default=None, repr=False, compare=False)




def _counts(tiles: Sequence[int]) -> list[int]:
    c = [0] * laizi.NUM_KINDS
    for t in tiles:
        c[t] += 1
    return c


def moment(ruleset: Ruleset, melds: Sequence[Meld], concealed_n: int, ctx: WinContext) -> Optional[str]:
    """The 大胡 of how the last tile came (§7.3; they exclude each other): 抢杠, 杠开, 海底捞,
    or 全求人 (four calls, no concealed kong, one concealed tile, won on a discard)."""
    if ctx.how == "robbed_kong":
        return "qianggang"
    if ctx.how == "self_draw":
        if ctx.after_kong:
            return "gangshang_kaihua"
        return "haidi" if getattr(ctx, "haidi_draw", False) or ctx.last_tile else None
    calls = sum(1 for m in melds if m.from_seat is not None)
    if calls >= 4 and concealed_n == 2 and not any(m.kind == "kong_concealed" for m in melds):
        return "quanqiuren"
    return None


def _structures(ruleset: Ruleset, sh: wins.Shapes) -> Iterator[tuple[list[str], bool]]:
    """(大胡 names of the shape, pair rule met) per shape the reading mode holds (§7.3, §7.5;
    清一色 / 将一色 / 风一色 are one 大胡)."""
    dd = ruleset.pengpenghu_dahu
    if sh.standard:
        yield [], sh.std258
    if sh.duidui and dd:
        yield ["duidui"], True
    for one, has, both in (("qingyise", sh.qingyise, sh.qys_duidui), ("jiangyise", sh.jiangyise, sh.jys_duidui),
                           ("fengyise", sh.fengyise, sh.fys_duidui)):
        if has:
            yield [one], True
            if both and dd:
                yield [one, "duidui"], True


def _candidates(ruleset: Ruleset, counts: list[int], melds: Sequence[Meld], ctx: WinContext, indicator):
    naturals, w = laizi.split(ruleset, counts)
    soft = wins.shapes(ruleset, naturals, w, melds, indicator)
    modes = [(False, soft)]
    if w:
        hard_n = list(naturals)
        hard_n[laizi.wild(ruleset)] += w
        modes.insert(0, (True, wins.shapes(ruleset, hard_n, 0, melds, indicator)))
    else:
        modes = [(True, soft)]
    mo = moment(ruleset, melds, sum(counts), ctx)
    out = []
    for hard, sh in modes:
        for names, pair_ok in _structures(ruleset, sh):
            full = names + ([mo] if mo else [])
            out.append((full, hard, pair_ok))
    return out, soft, w


def _laizi_ok(ruleset: Ruleset, big: bool, w: int) -> bool:
    """§7.4: a 屁胡 holds at most one 癞子; a 大胡 any number, or ``dahu_max_laizi``."""
    if big:
        return ruleset.dahu_max_laizi is None or w <= ruleset.dahu_max_laizi
    return w <= 1


def _seat_fans(ctx: WinContext, seat: int, melds: Sequence[Meld]) -> list[SeatFan]:
    """Every seat's fan sources; without the table (a bare context) the winner's from its melds."""
    got = getattr(ctx, "seat_fans", ())
    if got:
        return list(got)
    calls = sum(1 for m in melds if m.from_seat is not None)
    mg = sum(1 for m in melds if m.kind in ("kong_exposed", "kong_added"))
    ag = sum(1 for m in melds if m.kind == "kong_concealed")
    out = [SeatFan() for _ in range(4)]
    out[seat if 0 <= seat < 4 else 0] = SeatFan(calls, mg, ag)
    return out


def _fail(code: str, reason: str, complete: bool = True) -> WuhanScore:
    return WuhanScore(False, complete, [], 0, 0, 0, None, reason, [], code)


_SCORES: dict = {}


def score_hand(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext,
               passed_win: bool = False) -> WuhanScore:
    """Score ``concealed`` (the winning tile included) + ``melds`` (§7, §8, §9.6): the legal
    reading that pays the winner most, or the code of the first condition failed.  Kept per
    (hand, context): a win is scored several times over (a score is never changed)."""
    hand = tuple(sorted(concealed))
    melds = tuple(melds)
    last = _LAST_SCORE
    if last[0] is ctx and last[1] is ruleset and last[2] == hand and last[3] == melds:
        return last[4]  # the same moment asked again (its context is kept: the same object)
    key = (ruleset, hand, melds, ctx)
    got = _SCORES.get(key)
    if got is None:
        if len(_SCORES) > 1024:
            _SCORES.clear()
        got = _SCORES[key] = _score_hand(ruleset, concealed, melds, ctx)
    last[:] = (ctx, ruleset, hand, melds, got)
    return got


#: the last score made or found: (context, ruleset, hand, melds, score)
_LAST_SCORE: list = [None, None, None, None, None]


def _score_hand(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext) -> WuhanScore:
    counts = _counts(concealed)
    if not wins.opened(melds):
        return _fail("WIN_NOT_OPENED", "the winner has made no call (开口, §7.1)")
    if wins.holds_pi(ruleset, counts):
        return _fail("WIN_HOLDING_PI", "the winner holds a 痞 tile (红中, §3.3)")
    seat = getattr(ctx, "seat", -1)
    seat = seat if seat >= 0 else 0
    indicator = getattr(ctx, "indicator", None)
    if indicator is None:
        indicator = laizi.default_indicator(ruleset, laizi.wild(ruleset))
    cands, soft, w = _candidates(ruleset, counts, melds, ctx, indicator)
    if not (soft.standard or soft.jiangyise or soft.fengyise):
        return _fail("", "not a complete hand (four sets and a pair, 乱将 or 乱风)", complete=False)
    cands = [c for c in cands if _laizi_ok(ruleset, bool(c[0]), w)]
    if not cands:
        return _fail("WIN_LAIZI_LIMIT", f"a 屁胡 holding {w} 癞子 (at most 1, §7.4)" if ruleset.dahu_max_laizi is None
                     else f"{w} 癞子: a 屁胡 holds at most 1, a 大胡 at most {ruleset.dahu_max_laizi}")
    cands = [c for c in cands if c[2]]
    if not cands:
        return _fail("WIN_PAIR_NOT_258", "the pair is not a 2, 5 or 8 and no 大胡 excuses it (§7.5)")
    fans_of = _seat_fans(ctx, seat, melds)
    dealer = getattr(ctx, "dealer", -1)
    from_seat = getattr(ctx, "from_seat", None)
    # the other legal winners of the tile do not pay, so they are no basis of 起胡 (§9.4)
    co_winners = ctx.co_winners
    best = None
    for names, hard, _ in cands:
        mo = names[-1] if names and names[-1] in money.MOMENTS else None
        win = Win(seat, ctx.how, from_seat, len(names), tuple(names), hard, mo)
        out, fw, cap_kind = money.shares(ruleset, win, fans_of, dealer, co_winners)
        if not money.qihu_met(ruleset, win, out, co_winners):
            continue
        # the most money; among ties the fullest reading (the larger uncapped multiples)
        rank = (sum(x.amount for x in out), sum(x.multiple for x in out))
        if best is None or rank > best[0]:
            best = (rank, win, out, fw, cap_kind)
    if best is None:
        return _fail("WIN_BELOW_MIN_FAN", f"a 屁胡 below 起胡 {ruleset.qihu} (§9.4)")
    (total, _), win, out, fw, cap_kind = best
    names = list(win.names) if win.big else ["jihu"]
    if win.hard:
        names.append("yinghu")
    liable = money.liability(ruleset, win, getattr(ctx, "third_feeder", None), getattr(ctx, "feeder_ready", None))
    h = money.hand_base(ruleset, win.big)
    derive = (ruleset, win, fans_of, dealer, out, fw, cap_kind, liable, indicator)
    return WuhanScore(True, True, names, fw, fw, h, None, "", [], "", out, cap_kind, liable, win, total, derive)


def explain_steps(ruleset: Ruleset, win: Win, fans_of, dealer: int, out, fw: int, cap_kind: str, liable,
                  indicator) -> list[str]:
    """The derivation of one win, step by step (``--explain``)."""
    h = money.hand_base(ruleset, win.big)
    w = laizi.wild(ruleset)
    kind = " + ".join(CHINESE[n] for n in win.names) if win.big else "屁胡"
    _, parts = money.winner_fan(ruleset, win, fans_of[win.seat], dealer)
    lines = [f"1. 癞子 W = {laizi.name(w)} (indicator {laizi.name(indicator)}); {kind}, "
             f"{'硬胡' if win.hard else '软胡'}; H = {h}",
             f"2. F_w = " + " + ".join(parts) + f" = {fw}"]
    factor = money.bonus_is_factor(ruleset, win.big)
    for x in out:
        m = " × 1.5" if x.factor2 == 3 else ""
        dealer_word = " + dealer 1" if not win.big and ruleset.dealer_fan and x.seat == dealer else ""
        lines.append(f"3. seat {x.seat}: F_l = {x.fan} ({money.personal_words(ruleset, fans_of[x.seat])}{dealer_word}"
                     f"{'; 放冲' if x.seat == win.from_seat and win.how != 'self_draw' and not factor else ''}"
                     f"), M = {h}{m} × 2^({fw}+{x.fan}) = {x.multiple} → pays {x.amount}")
    if cap_kind:
        j, g = money.jinding_amounts(ruleset)
        lines.append({"cap": f"4. cap {ruleset.payment_cap}: multiples above it pay {ruleset.payment_cap}",
                      "jinding": f"4. 金顶: all three reach {ruleset.payment_cap}: opened seats pay {j}, "
                                 f"unopened seats {g} (阳光顶)",
                      "hading": f"4. 哈顶: no paying seat opened: each pays {ruleset.hading}"}[cap_kind])
    if liable is not None:
        lines.append(f"5. 包 ({liable[1]}): seat {liable[0]} pays all {sum(x.amount for x in out)}")
    return lines


def reading_fans(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld],
                 ctx: WinContext) -> Iterator[tuple[list[str], int, None]]:
    """Every legal reading whose money ties the best, as (names, F_w): a log may name any."""
    best = score_hand(ruleset, concealed, melds, ctx)
    if not best.wins:
        return
    counts = _counts(concealed)
    seat = max(getattr(ctx, "seat", -1), 0)
    indicator = getattr(ctx, "indicator", None)
    if indicator is None:
        indicator = laizi.default_indicator(ruleset, laizi.wild(ruleset))
    cands, _soft, w = _candidates(ruleset, counts, melds, ctx, indicator)
    fans_of = _seat_fans(ctx, seat, melds)
    for names, hard, pair_ok in cands:
        if not pair_ok or not _laizi_ok(ruleset, bool(names), w):
            continue
        mo = names[-1] if names and names[-1] in money.MOMENTS else None
        win = Win(seat, ctx.how, getattr(ctx, "from_seat", None), len(names), tuple(names), hard, mo)
        out, fw, _ = money.shares(ruleset, win, fans_of, getattr(ctx, "dealer", -1), ctx.co_winners)
        if sum(x.amount for x in out) == best.total and money.qihu_met(ruleset, win, out, ctx.co_winners):
            yield (list(names) if names else ["jihu"]) + (["yinghu"] if hard else []), fw, None


def points(fan: int, ruleset: Ruleset) -> int:
    """Without a score: a 屁胡's H (1); the score gives H (``winner_points``)."""
    return 1


def fan_enough(ruleset: Ruleset, how: str, fan: int) -> bool:
    """No fan minimum: 起胡 is judged in the score (WIN_BELOW_MIN_FAN as its code)."""
    return True


def winner_points(ruleset: Ruleset, winner, score: Optional[Score] = None) -> int:
    """The logged ``points`` is H, the hand base (new-families.md §3)."""
    return score.points if score is not None and score.wins else winner.points


def fan_finding(ruleset: Ruleset, winner, score: Score) -> Optional[str]:
    """FAN_MISMATCH when the logged F_w differs; a name list that differs while F_w and H agree
    is FAN_NAMES_DIFFER (a warning: the money is right)."""
    if winner.fan != score.fan:
        return "FAN_MISMATCH"
    return "FAN_NAMES_DIFFER"



steps_when_read(WuhanScore, explain_steps)

__all__ = ["CHINESE", "FAN_VALUES", "WuhanContext", "WuhanScore", "explain_steps", "fan_enough", "fan_finding",
           "moment", "points", "reading_fans", "score_hand", "winner_points"]
