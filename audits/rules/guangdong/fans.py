"""Guangdong 鸡平和 fans (番, guangdong.md §7): one small function per hand type, the
爆和 cap at 3, the special hands outside it, the 3-番 floors and 天和/地和/人和.

:func:`score_hand` follows §7.6 for each winner:

1. 天和 / 地和 / 人和: F = 6, nothing else;
2. per reading: a special hand scores its highest special value V; an ordinary
   hand V = min(base type + additional fans, 3);
3. H = the highest V over the readings;
4. an event of §7.4 (杠上开花, 海底捞月, 抢杠, 一炮三响) gives F = max(H, 3) to an
   ordinary hand; a special hand keeps its value;
5. P = B × 2^F.

The logged ``fan`` is the raw fan before the cap and floors: an ordinary hand's
uncapped base + additional fans, a special hand's value, 6 for 天/地/人和.

Readings chosen where guangdong.md is silent (docs/rule_coverage.md):

* the §7.4 event names are listed whenever the event happened, for special
  hands too (they change nothing there);
* with ``seven_pairs_fan`` set, a seven-pairs reading may also score the special
  hands that depend on tiles alone (清一色, 字一色, 清幺九, 混幺九); never the
  set-based ones (混碰, 大三元, …), which need pong-type sets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Optional, Sequence

from replay.melds import Meld
from schema.ruleset import Ruleset

from .. import hands
from ..family import Score, WinContext, computed_once, steps_when_read
from ..hands import Reading
from ..special_hands import ORPHANS
from .wins import is_thirteen_orphans, seven_pairs_allowed

WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)
TERMINALS = frozenset((0, 8, 9, 17, 18, 26))

#: The 爆和 cap (guangdong.md §7.2): ordinary hands never exceed it.
CAP = 3
#: The value of 天和 / 地和 / 人和 (§7.5).
HEAVENLY_FAN = 6

#: Fan values as logged (§7.1–§7.5); ``qidui`` takes the room's ``seven_pairs_fan``.
FAN_VALUES: dict[str, int] = {
    "jihu": 0, "pinghu": 1, "duidui": 2, "hunyise": 2,
    "zimo": 1, "menfeng": 1, "quanfeng": 1, "sanyuan": 1,
    "qingyise": 4, "hunpeng": 4, "qingpeng": 5, "hunyaojiu": 5, "xiaosanyuan": 5, "xiaosixi": 5,
    "ziyise": 6, "qingyaojiu": 6, "dasanyuan": 6, "dasixi": 6, "jiulian": 6, "shisanyao": 6,
    "qidui": 4,
    "gangshang_kaihua": 0, "haidi": 0, "qianggang": 0, "yipao_sanxiang": 0,
    "tianhe": HEAVENLY_FAN, "dihe": HEAVENLY_FAN, "renhe": HEAVENLY_FAN,
}

CHINESE: dict[str, str] = {
    "jihu": "鸡和", "pinghu": "平和", "duidui": "碰碰和", "hunyise": "混一色",
    "zimo": "自摸", "menfeng": "门风", "quanfeng": "圈风", "sanyuan": "三元",
    "qingyise": "清一色", "hunpeng": "混碰", "qingpeng": "清碰", "hunyaojiu": "混幺九",
    "xiaosanyuan": "小三元", "xiaosixi": "小四喜", "ziyise": "字一色", "qingyaojiu": "清幺九",
    "dasanyuan": "大三元", "dasixi": "大四喜", "jiulian": "九莲宝灯", "shisanyao": "十三幺",
    "qidui": "七对", "gangshang_kaihua": "杠上开花", "haidi": "海底捞月", "qianggang": "抢杠",
    "yipao_sanxiang": "一炮三响", "tianhe": "天和", "dihe": "地和", "renhe": "人和",
}

#: The special hands outside 爆和 (§7.3), highest first among equals as listed.
SPECIALS = ("ziyise", "qingyaojiu", "dasanyuan", "dasixi", "jiulian", "shisanyao",
            "qingpeng", "hunyaojiu", "xiaosanyuan", "xiaosixi", "qingyise", "hunpeng", "qidui")
#: The events with a 3-番 floor (§7.4).
FLOOR_EVENTS = ("gangshang_kaihua", "haidi", "qianggang", "yipao_sanxiang")
HEAVENLY = ("tianhe", "dihe", "renhe")


@dataclass
class Hand:
    """One reading of a winning hand: its concealed groups and the declared melds."""

    reading: Optional[Reading]
    melds: tuple[Meld, ...]
    concealed: tuple[int, ...]
    ctx: WinContext
    ruleset: Ruleset
    thirteen: bool = False

    @computed_once
    def sets(self) -> list[tuple[str, int]]:
        """Every set as (chow | pong, lowest tile); kongs count as pong-type."""
        out: list[tuple[str, int]] = []
        if self.reading is not None:
            out = [(g.kind, g.tiles[0]) for g in self.reading.groups if g.kind != "pair"]
        for m in self.melds:
            out.append(("chow" if m.kind == "chow" else "pong", m.of))
        return out

    @computed_once
    def pair(self) -> Optional[int]:
        if self.reading is None or self.reading.seven_pairs:
            return None
        ps = [g.tiles[0] for g in self.reading.groups if g.kind == "pair"]
        return ps[0] if len(ps) == 1 else None

    @computed_once
    def tiles(self) -> list[int]:
        """Every tile of the hand, melds included (a kong as four)."""
        out = list(self.concealed)
        for m in self.melds:
            out.extend(m.tiles)
        return out

    @computed_once
    def kinds(self) -> set[int]:
        return set(self.tiles)

    @property
    def seven_pairs(self) -> bool:
        return self.reading is not None and self.reading.seven_pairs

    @computed_once
    def pong_tiles(self) -> tuple[int, ...]:
        """The kind of each pong-type set (kongs included)."""
        return tuple(t for k, t in self.sets if k == "pong")

    def pongs_of(self, kinds: Sequence[int]) -> int:
        """How many pong-type sets of these kinds the reading has."""
        return sum(1 for t in self.pong_tiles if t in kinds)

    @computed_once
    def suits(self) -> set[int]:
        return {t // 9 for t in self.kinds if t < 27}

    @computed_once
    def honours(self) -> bool:
        return any(t >= 27 for t in self.kinds)


# --- base types (§7.1) -------------------------------------------------------------

def pinghu(h: Hand) -> bool:
    """平和: all four sets are chows (the pair can be anything)."""
    return len(h.sets) == 4 and all(k == "chow" for k, _ in h.sets)


def duidui(h: Hand) -> bool:
    """碰碰和: all four sets are pong-type."""
    return len(h.sets) == 4 and all(k == "pong" for k, _ in h.sets)


def hunyise(h: Hand) -> bool:
    """混一色: one suit plus honours, with at least one tile of each."""
    return len(h.suits) == 1 and h.honours


# --- additional fans (§7.2) -------------------------------------------------------------

def zimo(h: Hand) -> bool:
    """自摸: a self-draw (杠上开花 and 海底 included); a robbing counts as one (§8.3)."""
    return h.ctx.how in ("self_draw", "robbed_kong")


def menfeng(h: Hand) -> bool:
    """门风: a pong-type set of the winner's seat wind."""
    return h.ctx.seat_wind >= 0 and h.pongs_of((27 + h.ctx.seat_wind,)) > 0


def quanfeng(h: Hand) -> bool:
    """圈风: a pong-type set of the round wind."""
    return h.ctx.round_wind >= 0 and h.pongs_of((27 + h.ctx.round_wind,)) > 0


def sanyuan(h: Hand) -> int:
    """三元: +1 for each pong-type set of 中, 发 or 白 (at most two: three is 大三元)."""
    return min(2, h.pongs_of(DRAGONS))


# --- special hands (§7.3) ------------------------------------------------------------------

def qingyise(h: Hand) -> bool:
    """清一色: every tile from one suit, no honours."""
    return len(h.suits) == 1 and not h.honours


def hunpeng(h: Hand) -> bool:
    """混碰: 混一色 and 碰碰和 together."""
    return hunyise(h) and duidui(h)


def qingpeng(h: Hand) -> bool:
    """清碰: 清一色 and 碰碰和 together."""
    return qingyise(h) and duidui(h)


def hunyaojiu(h: Hand) -> bool:
    """混幺九: every tile a terminal or an honour, with at least one of each."""
    return all(t >= 27 or t in TERMINALS for t in h.kinds) and h.honours and any(t in TERMINALS for t in h.kinds)


def xiaosanyuan(h: Hand) -> bool:
    """小三元: two dragon pong-type sets and a dragon pair."""
    return h.pongs_of(DRAGONS) == 2 and h.pair in DRAGONS


def xiaosixi(h: Hand) -> bool:
    """小四喜: three wind pong-type sets and a wind pair."""
    return h.pongs_of(WINDS) == 3 and h.pair in WINDS


def ziyise(h: Hand) -> bool:
    """字一色: honours only."""
    return not h.suits


def qingyaojiu(h: Hand) -> bool:
    """清幺九: terminals only (no honours), any suits."""
    return all(t in TERMINALS for t in h.kinds)


def dasanyuan(h: Hand) -> bool:
    """大三元: three dragon pong-type sets."""
    return h.pongs_of(DRAGONS) == 3


def dasixi(h: Hand) -> bool:
    """大四喜: four wind pong-type sets."""
    return h.pongs_of(WINDS) == 4


def jiulian(h: Hand) -> bool:
    """九莲宝灯: fully concealed, one suit, 1112345678999 plus one more of the suit; with
    ``jiulian_strict`` the 13 tiles before the winning tile are exactly that shape."""
    if h.melds or len(h.suits) != 1 or h.honours or len(h.concealed) != 14:
        return False
    base = 9 * next(iter(h.suits))
    counts = [0] * 9
    for t in h.concealed:
        counts[t - base] += 1
    shape = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    if h.ruleset.jiulian_strict:
        win = h.ctx.win_tile
        if win is None or not base <= win < base + 9:
            return False
        counts[win - base] -= 1
        return counts == shape
    return all(c >= s for c, s in zip(counts, shape))


def shisanyao(h: Hand) -> bool:
    """十三幺: one of each terminal and honour plus one more, fully concealed."""
    return h.thirteen


def qidui(h: Hand) -> bool:
    """七对: seven pairs, fully concealed, only with option ``seven_pairs_fan``."""
    return h.seven_pairs and seven_pairs_allowed(h.ruleset)


#: Special hands by name, each with its test.
SPECIAL_TESTS = {
    "ziyise": ziyise, "qingyaojiu": qingyaojiu, "dasanyuan": dasanyuan, "dasixi": dasixi,
    "jiulian": jiulian, "shisanyao": shisanyao, "qingpeng": qingpeng, "hunyaojiu": hunyaojiu,
    "xiaosanyuan": xiaosanyuan, "xiaosixi": xiaosixi, "qingyise": qingyise, "hunpeng": hunpeng,
    "qidui": qidui,
}
#: The special hands a seven-pairs or 十三幺 reading may also hold (tiles alone decide them).
TILE_SPECIALS = frozenset({"ziyise", "qingyaojiu", "hunyaojiu", "qingyise", "qidui", "jiulian", "shisanyao"})


def special_value(ruleset: Ruleset, name: str) -> int:
    """A special hand's fan (七对: the room's ``seven_pairs_fan``)."""
    if name == "qidui":
        return ruleset.seven_pairs_fan or FAN_VALUES["qidui"]
    return FAN_VALUES[name]


def best_special(h: Hand) -> Optional[str]:
    """The highest special hand this reading holds (special hands never add up), or None."""
    standard = not h.seven_pairs and not h.thirteen
    best: Optional[str] = None
    for name in SPECIALS:
        if not standard and name not in TILE_SPECIALS:
            continue
        if SPECIAL_TESTS[name](h) and (best is None or special_value(h.ruleset, name) > special_value(h.ruleset, best)):
            best = name
    return best


def ordinary_fans(h: Hand) -> list[str]:
    """An ordinary reading's names: one base type (the highest that holds; 平和 + 混一色
    only with ``base_types_stack``), then the additional fans."""
    if duidui(h):
        base = ["duidui"]
    elif hunyise(h):
        base = ["pinghu", "hunyise"] if pinghu(h) and h.ruleset.base_types_stack else ["hunyise"]
    elif pinghu(h):
        base = ["pinghu"]
    else:
        base = ["jihu"]
    extra = []
    if zimo(h):
        extra.append("zimo")
    if menfeng(h):
        extra.append("menfeng")
    if quanfeng(h):
        extra.append("quanfeng")
    extra += ["sanyuan"] * sanyuan(h)
    return base + extra


def floor_events(ctx: WinContext, with_multi: bool = True) -> list[str]:
    """The §7.4 events of this win (each floors an ordinary hand at 3)."""
    out = []
    if ctx.how == "self_draw" and ctx.after_kong:
        out.append("gangshang_kaihua")
    if ctx.how == "self_draw" and ctx.last_tile:
        out.append("haidi")
    if ctx.how == "robbed_kong":
        out.append("qianggang")
    if with_multi and ctx.how == "discard" and ctx.winners >= 3:
        out.append("yipao_sanxiang")
    return out


def _readings(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld],
              ctx: WinContext) -> Iterator[tuple[list[str], int, int, Optional[str], Optional[Reading]]]:
    """Every reading of a complete hand as (names without events, raw fan, V, special, reading)."""
    counts = [0] * 34
    for t in concealed:
        counts[t] += 1
    melds = tuple(melds)
    conc = tuple(concealed)
    if not melds and is_thirteen_orphans(counts):
        h = Hand(None, melds, conc, ctx, ruleset, thirteen=True)
        name = best_special(h) or "shisanyao"
        v = special_value(ruleset, name)
        yield [name], v, v, name, None
    use = hands.meld_use_of(melds) if melds else None
    for r in hands.readings(counts, 0, use, bool(melds), exhaustive=False):
        if r.seven_pairs and not seven_pairs_allowed(ruleset):
            continue
        h = Hand(r, melds, conc, ctx, ruleset)
        name = best_special(h)
        if name is not None:
            v = special_value(ruleset, name)
            yield [name], v, v, name, r
        else:
            names = ordinary_fans(h)
            raw = sum(FAN_VALUES[n] for n in names)
            yield names, raw, min(raw, CAP), None, r


def reading_fans(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld],
                 ctx: WinContext) -> Iterator[tuple[list[str], int, Optional[Reading]]]:
    """Every reading with its logged names (events included) and raw fan; a hand read two
    ways may be logged with either reading of the highest value."""
    if ctx.heavenly:
        yield [ctx.heavenly], HEAVENLY_FAN, None
        return
    events = floor_events(ctx)
    for names, raw, _v, _special, r in _readings(ruleset, concealed, melds, ctx):
        yield names + events, raw, r


def final_fan(value: int, special: bool, events: Sequence[str]) -> int:
    """§7.6 step 4: an event floors an ordinary hand at 3; a special hand keeps its value."""
    return value if special or not events else max(value, CAP)


def points(fan: int, ruleset: Ruleset) -> int:
    """P = B × 2^F for a final fan F (cap and floors already applied)."""
    return ruleset.base * (2 ** fan)


def fan_enough(ruleset: Ruleset, how: str, fan: int) -> bool:
    """起和番: a win needs F ≥ ``min_fan`` (F without the 一炮三响 floor), any kind of win."""
    return fan >= ruleset.min_fan


@dataclass
class GuangdongScore(Score):
    """A :class:`Score` whose §7.6 derivation (``steps``) is written when first read
    (``--explain``, the report, ``paipu hand``), not for every win the audit scores."""

    #: (ruleset, every reading's (names, raw, V, special), the chosen one, floor events, F)
    derive: Optional[tuple] = field(default=None, repr=False, compare=False)


def _steps(ruleset: Ruleset, readings: Sequence[tuple], chosen: tuple, events: Sequence[str], f_all: int) -> list[str]:
    """§7.6 step by step for an ordinary or special hand: each reading's V, H, the floor, P."""
    steps = ["1. not 天和 / 地和 / 人和"]
    for names, raw, v, special in readings:
        label = " + ".join(f"{CHINESE[n]} {FAN_VALUES[n] if n != 'qidui' else v}" for n in names)
        steps.append(f"2. reading: {label} -> " + (f"special, V = {v}" if special else
                                                    f"V = min({raw}, {CAP}) = {v}"))
    _names, _raw, v, special = chosen
    steps.append(f"3. H = {v} (the highest reading)")
    if events:
        what = ", ".join(CHINESE[x] for x in events)
        steps.append(f"4. {what}: " + (f"a special hand keeps F = {f_all}" if special else
                                       f"F = max({v}, {CAP}) = {f_all}"))
    else:
        steps.append(f"4. no floor event: F = {f_all}")
    steps.append(f"5. P = {ruleset.base} × 2^{f_all} = {points(f_all, ruleset)}")
    return steps


steps_when_read(GuangdongScore, _steps)


def score_hand(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext,
               passed_win: bool = False) -> Score:
    """Score ``concealed`` (the winning tile included) + ``melds`` by §7.6.

    ``Score.fan`` is the raw fan as logged, ``capped`` F without the 一炮三响 floor (what
    ``min_fan`` is judged on), ``points`` P = B × 2^F with every floor, and ``steps``
    the derivation for ``--explain`` (written when read).
    """
    counts = [0] * 34
    for t in concealed:
        counts[t] += 1
    from .wins import is_winning
    if not is_winning(ruleset, counts, melds):
        return Score(False, False, [], 0, 0, 0, None, "not a complete hand (4 sets + a pair, 十三幺"
                     + (", 七对" if seven_pairs_allowed(ruleset) else "") + ")")
    if ctx.heavenly:
        name = ctx.heavenly
        f = HEAVENLY_FAN
        return Score(fan_enough(ruleset, ctx.how, f), True, [name], f, f, points(f, ruleset), None, "",
                     [f"1. {CHINESE[name]} {name}: F = {f}, nothing else counts", f"5. P = {ruleset.base} × 2^{f} = "
                      f"{points(f, ruleset)}"])
    best = None
    readings = []
    for names, raw, v, special, r in _readings(ruleset, concealed, melds, ctx):
        readings.append((names, raw, v, special))
        key = (v, raw)
        if best is None or key > best[0]:
            best = (key, names, raw, v, special, r)
    assert best is not None
    _, names, raw, v, special, r = best
    events = floor_events(ctx)
    events_min = floor_events(ctx, with_multi=False)
    f_all = final_fan(v, special is not None, events)
    f_min = final_fan(v, special is not None, events_min)
    p = points(f_all, ruleset)
    ok = fan_enough(ruleset, ctx.how, f_min)
    reason = "" if ok else f"起和番: F = {f_min} < min_fan {ruleset.min_fan}"
    return GuangdongScore(ok, True, names + events, raw, f_min, p, r, reason, [],
                          derive=(ruleset, readings, (names, raw, v, special), events, f_all))


def logged_final_fan(ruleset: Ruleset, fans: Sequence[str], fan: int, score: Optional[Score]) -> int:
    """F as the log's own ``fan`` gives it: 6 for 天/地/人和, a special hand's value, else
    min(fan, 3) raised to 3 by a floor event (the events as the tiles show them when
    known, else as logged)."""
    names = set(fans)
    truth = set(score.fans) if score is not None and score.complete else names
    if (names | truth) & set(HEAVENLY):
        return fan
    if truth & set(SPECIALS):
        return fan
    f = min(fan, CAP)
    if truth & set(FLOOR_EVENTS):
        f = max(f, CAP)
    return f


def winner_points(ruleset: Ruleset, winner, score: Optional[Score] = None) -> int:
    """What one payer owes for a winner as logged: B × 2^F of the logged fan."""
    return points(logged_final_fan(ruleset, winner.fans, winner.fan, score), ruleset)


def fan_finding(ruleset: Ruleset, winner, score: Score) -> Optional[str]:
    """FAN_NAMES_DIFFER (a warning) when the logged fan and points are right and the names
    only omit fans that hold; FAN_MISMATCH otherwise."""
    if winner.fan == score.fan and winner.points == score.points:
        missing = list(score.fans)
        for n in winner.fans:
            if n in missing:
                missing.remove(n)
            else:
                return "FAN_MISMATCH"
        return "FAN_NAMES_DIFFER"
    return "FAN_MISMATCH"


__all__ = ["CHINESE", "FAN_VALUES", "FLOOR_EVENTS", "HEAVENLY", "ORPHANS", "SPECIALS", "fan_enough", "fan_finding",
           "floor_events", "points", "reading_fans", "score_hand", "winner_points"]
