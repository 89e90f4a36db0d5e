"""Qujing fans (番), one small function per fan, and the scorer of a winning hand.

Each fan function takes a :class:`FanInput` (one reading of the concealed tiles,
the declared melds, how the hand was won, the ruleset) and returns whether the
fan holds.  :func:`score_hand` enumerates every reading, applies the
replacement rules (qujing.md §5) and keeps the **highest** reading.

Interpretations where qujing.md is silent (see docs/rule_coverage.md):

* 抢杠 counts as a self-draw for the win condition and payment (底和 is enough),
  but 门清自摸 needs a real self-draw; the robbed tile is a plain tile (it was
  exposed by another player, like a discard).
* 双杠 holds with two or three kongs; four kongs score 四杠 instead.
* 全求人 "not if the last tile is a wild chicken": no chicken acts as wild in the
  concealed part (the single tile left to pair with the discard).
* 四小鸡: four (or more) wild tiles held concealed, of any wild kind.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Collection, Iterable, Iterator, Optional, Sequence

from replay.melds import Meld
from schema.ruleset import Ruleset
from schema.tiles import DRAGONS, TILE_INDEX, WINDS

from .. import hands
from ..family import Score, WinContext, WinHow, computed_once
from ..hands import Reading

FIVE_P = TILE_INDEX["5p"]

#: Fan values (qujing.md §5).
FAN_VALUES: dict[str, int] = {
    "dihu": 0,
    "wuji": 1, "menqing_zimo": 1, "gangshang_kaihua": 1, "gangshang_pao": 1, "shuanggang": 1,
    "hunyise": 1, "duidui": 1, "quanqiuren": 1, "xiaosanyuan": 1,
    "wumeihua": 2, "qingyise": 2, "ziyise": 2, "xiaoqidui": 2, "dasanyuan": 2, "xiaosixi": 2,
    "longzhuabei": 3, "sigang": 3, "dasixi": 3, "sixiaoji": 3,
}

#: A fan that contains another replaces it (§5).
REPLACES: dict[str, tuple[str, ...]] = {
    "qingyise": ("hunyise",),
    "ziyise": ("hunyise", "qingyise"),
    "dasanyuan": ("xiaosanyuan",),
    "dasixi": ("xiaosixi",),
    "wumeihua": ("gangshang_kaihua",),
    "longzhuabei": ("xiaoqidui",),
    "sigang": ("shuanggang",),
}

CHINESE: dict[str, str] = {
    "dihu": "底和", "wuji": "无鸡", "menqing_zimo": "门清自摸", "gangshang_kaihua": "杠上开花",
    "gangshang_pao": "杠上炮", "shuanggang": "双杠", "hunyise": "混一色", "duidui": "大对",
    "quanqiuren": "全求人", "xiaosanyuan": "小三元", "wumeihua": "五梅花", "qingyise": "清一色",
    "ziyise": "字一色", "xiaoqidui": "小七对", "dasanyuan": "大三元", "xiaosixi": "小四喜",
    "longzhuabei": "龙爪背", "sigang": "四杠", "dasixi": "大四喜", "sixiaoji": "四小鸡",
}


@dataclass
class FanInput:
    """One reading of a winning hand, with everything a fan function needs."""

    reading: Reading
    melds: tuple[Meld, ...]
    ctx: WinContext
    ruleset: Ruleset
    #: the chickens held concealed acting as wild, by physical kind
    wilds_by_kind: dict[int, int] = field(default_factory=dict)

    @computed_once
    def wild_kinds(self) -> frozenset[int]:
        return frozenset(TILE_INDEX[t] for t in self.ruleset.wilds)

    @computed_once
    def sets(self) -> list[tuple[str, int]]:
        """Every set as (chow|pong|kong, lowest represented tile), melds included."""
        out = [(g.kind, g.tiles[0]) for g in self.reading.groups if g.kind != "pair"]
        for m in self.melds:
            out.append(("chow" if m.kind == "chow" else "pong" if m.kind == "pong" else "kong", m.of))
        return out

    @computed_once
    def pair(self) -> Optional[int]:
        ps = [g.tiles[0] for g in self.reading.groups if g.kind == "pair"]
        return ps[0] if len(ps) == 1 else None

    @computed_once
    def suits(self) -> set[int]:
        """The suits of the represented tiles (3: honours; chickens as what they stand
        for).  A group's or a meld's tiles are all of one suit: its first tile's."""
        out = {g.tiles[0] // 9 for g in self.reading.groups}
        for m in self.melds:
            out.add(m.of // 9)
        return out

    @computed_once
    def triplets(self) -> list[int]:
        """The kind of each pong or kong, melds included (四喜 and 三元 count them)."""
        return [t for k, t in self.sets if k != "chow"]

    def triplets_of(self, kinds: Collection[int]) -> int:
        return sum(1 for t in self.triplets if t in kinds)

    @computed_once
    def kongs(self) -> int:
        return sum(1 for m in self.melds if m.is_kong)


# --- the fans ----------------------------------------------------------------

def dihu(h: FanInput) -> bool:
    """底和 (0 fan): a plain winning hand; self-draw only (抢杠 counts as self-draw).

    Awarded only when no other fan applies."""
    return h.ctx.how in ("self_draw", "robbed_kong")


def _concealed_chickens_plain(h: FanInput) -> bool:
    # every concealed chicken stands for its own kind (acts as a plain tile); the
    # assignments are sorted, so equal multisets are equal sorted tuples
    held = h.wilds_by_kind
    if not held:
        return not h.reading.wild_assignments
    return h.reading.wild_assignments == tuple(sorted(k for k, n in held.items() for _ in range(n)))


def wuji(h: FanInput) -> bool:
    """无鸡 (1): no chicken acts as wild anywhere, kongs included — none held, or each
    chicken stands for its own kind (a plain 1s in 飞小鸡)."""
    if any(m.wilds for m in h.melds):
        return False
    return _concealed_chickens_plain(h)


def menqing_zimo(h: FanInput) -> bool:
    """门清自摸 (1): no chow, pong or exposed/added kong (concealed kongs allowed), won by
    self-draw; not with 小七对."""
    return (h.ctx.how == "self_draw" and not h.reading.seven_pairs
            and all(m.kind == "kong_concealed" for m in h.melds))


def gangshang_kaihua(h: FanInput) -> bool:
    """杠上开花 (1): won on the tile taken from the tail pool after one's own kong."""
    return h.ctx.after_kong and h.ctx.how == "self_draw"


def gangshang_pao(h: FanInput) -> bool:
    """杠上炮 (1): won on the discard a player made right after their kong replacement."""
    return h.ctx.kong_discard and h.ctx.how == "discard"


def shuanggang(h: FanInput) -> bool:
    """双杠 (1): the winner declared (at least) two kongs this hand (四杠 replaces it)."""
    return h.kongs >= 2


def hunyise(h: FanInput) -> bool:
    """混一色 (1): one suit plus honours (chickens count as the tile they stand for)."""
    s = h.suits
    return 3 in s and len(s) == 2


def duidui(h: FanInput) -> bool:
    """大对 (1): all four sets are pongs/kongs (碰碰胡)."""
    return not h.reading.seven_pairs and all(k != "chow" for k, _ in h.sets)


def quanqiuren(h: FanInput) -> bool:
    """全求人 (1): four called sets (chow, pong, exposed or added kong), won on a discard;
    not when the tile left in hand is a chicken acting as wild."""
    called = sum(1 for m in h.melds if m.kind != "kong_concealed")
    return called == 4 and h.ctx.how == "discard" and _concealed_chickens_plain(h)


def xiaosanyuan(h: FanInput) -> bool:
    """小三元 (1): two dragon pongs (or kongs) and a dragon pair."""
    return h.triplets_of(DRAGONS) == 2 and h.pair in DRAGONS


def wumeihua(h: FanInput) -> bool:
    """五梅花 (2): 杠上开花 on 5p (replaces 杠上开花).  A chicken standing for 5p counts only
    with option ``wumeihua_wild_5p``."""
    if not gangshang_kaihua(h) or h.ctx.win_tile is None:
        return False
    if h.ctx.win_tile in h.wild_kinds:
        return h.ruleset.wumeihua_wild_5p and FIVE_P in h.reading.wild_assignments
    return h.ctx.win_tile == FIVE_P


def qingyise(h: FanInput) -> bool:
    """清一色 (2): one suit only, no honours (replaces 混一色)."""
    s = h.suits
    return len(s) == 1 and 3 not in s


def ziyise(h: FanInput) -> bool:
    """字一色 (2): honours only (replaces 混一色 and 清一色)."""
    return h.suits == {3}


def xiaoqidui(h: FanInput) -> bool:
    """小七对 (2): seven pairs, concealed (no melds); four equal tiles count as two pairs."""
    return h.reading.seven_pairs and not h.melds


def dasanyuan(h: FanInput) -> bool:
    """大三元 (2): three dragon pongs/kongs (replaces 小三元)."""
    return h.triplets_of(DRAGONS) == 3


def xiaosixi(h: FanInput) -> bool:
    """小四喜 (2): three wind pongs/kongs and a wind pair."""
    return h.triplets_of(WINDS) == 3 and h.pair in WINDS


def longzhuabei(h: FanInput) -> bool:
    """龙爪背 (3): 小七对 holding four equal tiles (replaces 小七对)."""
    if not xiaoqidui(h):
        return False
    return any(n >= 2 for n in Counter(g.tiles[0] for g in h.reading.groups).values())


def sigang(h: FanInput) -> bool:
    """四杠 (3): four kongs (replaces 双杠)."""
    return h.kongs == 4


def dasixi(h: FanInput) -> bool:
    """大四喜 (3): four wind pongs/kongs (replaces 小四喜)."""
    return h.triplets_of(WINDS) == 4


def sixiaoji(wilds_held: int) -> bool:
    """四小鸡 (3): four chickens in the concealed hand — an immediate win, no other fan."""
    return wilds_held >= 4


#: Fan functions evaluated on a reading, in display order (dihu and sixiaoji apart).
FAN_FUNCTIONS: tuple[tuple[str, Callable[[FanInput], bool]], ...] = (
    ("wuji", wuji), ("menqing_zimo", menqing_zimo), ("gangshang_kaihua", gangshang_kaihua),
    ("gangshang_pao", gangshang_pao), ("shuanggang", shuanggang), ("hunyise", hunyise),
    ("duidui", duidui), ("quanqiuren", quanqiuren), ("xiaosanyuan", xiaosanyuan),
    ("wumeihua", wumeihua), ("qingyise", qingyise), ("ziyise", ziyise), ("xiaoqidui", xiaoqidui),
    ("dasanyuan", dasanyuan), ("xiaosixi", xiaosixi), ("longzhuabei", longzhuabei),
    ("sigang", sigang), ("dasixi", dasixi),
)


def fans_of(h: FanInput) -> list[str]:
    """The fans of one reading after replacement; ``dihu`` when none applies."""
    got = [name for name, fn in FAN_FUNCTIONS if fn(h)]
    drop = {r for name in got for r in REPLACES.get(name, ())}
    got = [n for n in got if n not in drop]
    if not got and dihu(h):
        got = ["dihu"]
    return got


def fan_total(names: Iterable[str]) -> int:
    """Fans add up."""
    return sum(FAN_VALUES[n] for n in names)


def points(fan: int, ruleset: Ruleset) -> int:
    """P = base × 2^min(fan, fan_cap) (满牌 at the cap)."""
    return ruleset.base * (2 ** min(fan, ruleset.fan_cap))


def fan_enough(ruleset: Ruleset, how: str, fan: int) -> bool:
    """A discard win (点炮) needs at least 1 fan; a self-draw or a 抢杠 (which counts as a
    self-draw) wins with 底和 (§5)."""
    return fan >= 1 or how != "discard"


def may_win(how: WinHow, fan: int, passed_win: bool = False, ruleset: Optional[Ruleset] = None) -> bool:
    """Win condition (§3, §5): enough fan for the kind of win, and no 过胡 (``passed_win``:
    the player let a legal win go and has not drawn or claimed since), which bars
    every win on a discard and every rob; self-draw stays allowed."""
    if passed_win and how != "self_draw":
        return False
    return fan >= 1 or how != "discard"


def sixiaoji_counts(ruleset: Ruleset, how: str) -> bool:
    """四小鸡 wins on one's own turn (a self-draw); on a discard only with option
    ``sixiaoji_on_discard``; never by robbing a kong."""
    return how == "self_draw" or (how == "discard" and ruleset.sixiaoji_on_discard)


def reading_fans(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld],
                 ctx: WinContext) -> Iterator[tuple[list[str], int, Optional[Reading]]]:
    """Every reading of the hand with its fans and total: 四小鸡 first where it counts,
    then each ordinary reading (chickens standing for what they may)."""
    wild_kinds = [TILE_INDEX[t] for t in ruleset.wilds]
    counts, w, by_kind = hands.split_wilds(concealed, wild_kinds, ctx.plain_tile)
    melds = tuple(melds)
    if sixiaoji(w) and sixiaoji_counts(ruleset, ctx.how):
        yield ["sixiaoji"], FAN_VALUES["sixiaoji"], None
    for r in hands.readings(counts, w, hands.meld_use_of(melds), bool(melds), extra_kinds=wild_kinds):
        names = fans_of(FanInput(r, melds, ctx, ruleset, by_kind))
        yield names, fan_total(names), r


def score_hand(concealed: Sequence[int], melds: Sequence[Meld], ruleset: Ruleset,
               ctx: WinContext, passed_win: bool = False) -> Score:
    """Score the hand ``concealed`` (physical tiles, the winning tile included) + ``melds``.

    Returns the highest reading's fans and whether it is a legal win.  A hand with
    four chickens concealed (四小鸡, where it counts) scores the better of 四小鸡 and
    its best ordinary reading (四小鸡 on a tie).
    """
    best: Optional[tuple[list[str], int, Optional[Reading]]] = None
    for names, total, r in reading_fans(ruleset, concealed, melds, ctx):
        if best is None or total > best[1]:
            best = (names, total, r)
    if best is None:
        return Score(False, False, [], 0, 0, 0, None, "not a complete hand")
    names, total, r = best
    capped = min(total, ruleset.fan_cap)
    ok = may_win(ctx.how, total, passed_win)
    reason = "四小鸡" if names == ["sixiaoji"] else ""
    if not ok:
        reason = "过胡: passed a win since own last action" if passed_win \
            else "a discard win needs at least 1 fan (底和 wins by self-draw only)"
    return Score(ok, True, names, total, capped, points(total, ruleset), r, reason)
