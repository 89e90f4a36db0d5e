"""Sichuan winning hands and 成都计番 (sichuan.md §8, §9): the void-suit gate, the win
check, every fan with 根, the best reading, the cap, and the best hand of a ready
seat (§9.6, used by 查大叫).

Tiles are integers 0..26 (``m`` 0-8, ``p`` 9-17, ``s`` 18-26); a hand is 34 counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from replay.melds import Meld
from schema.ruleset import Ruleset

from ..family import Score, WinContext
from replay.state import KEY_STEP as _KEY_STEP, SUIT_OF as _SUIT_OF

from ..hands import hand_keys as _hand_keys, is_complete_keys as _complete_keys, is_seven_pairs as _seven_pairs
from ..hands import is_winning as _shape, meld_use_of, suit_adds, suit_code

#: Fan name -> value (§9.1).  ``longqidui`` is 3 (4 with ``longqidui_fan = 4``); 天胡 / 地胡 are 5.
FAN_VALUES: dict[str, int] = {
    "jihu": 0, "duidui": 1, "jingoudiao": 1, "jiangdui": 2, "daiyaojiu": 2, "xiaoqidui": 2,
    "longqidui": 3, "qingyise": 2, "gen": 1, "gangshang_kaihua": 1, "gangshang_pao": 1,
    "qianggang": 1, "haidi": 1, "haidi_pao": 1, "zimo": 1, "menqing": 1, "zhongzhang": 1,
    "tianhe": 5, "dihe": 5,
}

#: Fan name -> its Chinese name (README glossary).
CHINESE: dict[str, str] = {
    "jihu": "平胡", "duidui": "大对子", "jingoudiao": "金钩钓", "jiangdui": "将对", "daiyaojiu": "带幺九",
    "xiaoqidui": "七对", "longqidui": "龙七对", "qingyise": "清一色", "gen": "根",
    "gangshang_kaihua": "杠上开花", "gangshang_pao": "杠上炮", "qianggang": "抢杠", "haidi": "海底捞月",
    "haidi_pao": "海底炮", "zimo": "自摸", "menqing": "门清", "zhongzhang": "中张", "tianhe": "天胡",
    "dihe": "地胡",
}

#: The suits as logs spell them (定缺).
SUIT_NAMES = "mps"
_JIANG = frozenset(t for t in range(27) if t % 9 in (1, 4, 7))     # 2, 5, 8 of each suit
_YAOJIU = frozenset(t for t in range(27) if t % 9 in (0, 8))       # 1 and 9 of each suit


def fan_value(name: str, ruleset: Ruleset) -> int:
    """The value of one fan name under the room's options (龙七对 3 or 4)."""
    if name == "longqidui":
        return ruleset.longqidui_fan
    return FAN_VALUES[name]


def fan_total(names: Sequence[str], ruleset: Ruleset) -> int:
    """F: the sum of the fans' values (they add up, §9)."""
    return sum(fan_value(n, ruleset) for n in names)


def points(fan: int, ruleset: Ruleset) -> int:
    """One share P = B × 2^min(F, C) (§9.5)."""
    return ruleset.base * (1 << min(fan, ruleset.fan_cap))


def suits_of(counts: Sequence[int], melds: Sequence[Meld]) -> set[int]:
    """The suits (0 m, 1 p, 2 s) present among the concealed tiles and the melds."""
    out = {su for su in range(3) if any(counts[9 * su:9 * su + 9])}
    out.update(m.of // 9 for m in melds)
    return out


def void_ok(counts: Sequence[int], melds: Sequence[Meld], void: int, ruleset: Ruleset) -> bool:
    """缺门 (§4.1, §8.2): no tile of the declared void suit (``void`` 0..2); with
    ``dingque = none`` (or no declaration) at most two suits."""
    if ruleset.dingque == "declared" and void >= 0:
        lo = 9 * void
        return not any(counts[lo:lo + 9]) and all(m.of // 9 != void for m in melds)
    return len(suits_of(counts, melds)) <= 2


def is_shape(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """§8.1: four sets and a pair (melds count as sets), or seven pairs with no meld.

    With no wild tiles the melds matter only as "no seven pairs": the shared engine's
    max-four headroom limits what a wild may stand for, so the concealed counts go to
    its table look-up alone (the fast path)."""
    if any(counts[27:]):
        return False
    return _shape(counts, 0, None, bool(melds), True)


def is_legal_shape(counts: Sequence[int], melds: Sequence[Meld], void: int, ruleset: Ruleset) -> bool:
    """A complete hand (§8.1) that respects the void suit (§8.2): the void-gated win check."""
    return void_ok(counts, melds, void, ruleset) and is_shape(counts, melds)


def seat_waits(ruleset: Ruleset, counts: Sequence[int], keys: Sequence[int], held: int,
               melds: Sequence[Meld]) -> "list | bool":
    """``RuleFamily.wins.seat_waits``: the seat's wait entry ``[{tile: completes}, suit keys]``
    when one tile could complete its hand legally (a superset: one free tile in the suit
    tables, or seven pairs one short with no meld, and at most two suits held), else
    False.  No wilds, so no wild bookkeeping."""
    if held % 3 != 1 or (keys[0] and keys[1] and keys[2]):
        # a hand holding all three suits holds its void suit (or breaks the two-suit rule
        # of dingque = none): no tile makes it a legal win (§8.2), so nothing is waited on
        return False
    if _complete_keys(keys[0], keys[1], keys[2], keys[3], 1) or \
            (not melds and counts.count(1) + counts.count(3) <= 1):
        return [{}, tuple(keys)]
    return False


def completes(ruleset: Ruleset, entry: list, counts: Sequence[int], melds: Sequence[Meld], tile: int) -> bool:
    """``RuleFamily.wins.completes``: is the shape complete with ``tile`` from another seat (§8.1;
    the void suit is judged per seat by the score)?  Exact, cached in the entry."""
    cache = entry[0]
    got = cache.get(tile)
    if got is None:
        k = list(entry[1])
        k[_SUIT_OF[tile]] += _KEY_STEP[tile]
        got = _complete_keys(k[0], k[1], k[2], k[3], 0)
        if not got and not melds and counts[tile] & 1:
            c = list(counts)
            c[tile] += 1
            got = _seven_pairs(c, 0, False)
        cache[tile] = got
    return got


def gen_count(counts: Sequence[int], melds: Sequence[Meld]) -> int:
    """根: the kinds of which all four copies are the winner's, concealed tiles and melds
    together (a kong is one 根; so is a pong plus the fourth tile in hand)."""
    have = list(counts[:27])
    for m in melds:
        # a meld said to be of an honour (no tile of the 108, reported where it was made) is no 根
        if m.of < 27:
            have[m.of] += 4 if m.is_kong else 3
    return sum(1 for c in have if c >= 4)


@dataclass(frozen=True)
class Moment:
    """The facts of one win the event fans need (§9.3, §9.4), beyond the tiles."""

    how: str = "self_draw"
    #: self-draw on the replacement after one's own kong (杠上开花)
    after_kong: bool = False
    #: a discard made in the turn its maker drew a kong replacement (杠上炮)
    kong_discard: bool = False
    #: self-draw of the last tile (海底捞月) or a win on the final discard (海底炮)
    sea_bottom: bool = False
    #: ``tianhe`` / ``dihe`` when the win is one of them
    heavenly: str = ""
    #: 点杠花: the replacement came after an exposed kong on another seat's discard (§10.4)
    dianganghua: bool = False


def moment_of(ctx: WinContext) -> Moment:
    """The moment facts of a shared :class:`WinContext` (Sichuan's fields included)."""
    return Moment(ctx.how, ctx.after_kong, ctx.kong_discard, ctx.sea_bottom, ctx.tiandi,
                  ctx.how == "self_draw" and ctx.after_kong and ctx.dianganghua)


def paid_as_self_draw(ruleset: Ruleset, m: Moment) -> bool:
    """A self-draw paid as one (§10.1): every self-draw, except 点杠花 settled as a discard
    (``dianganghua = dianpao``, §10.4), which the feeder alone pays."""
    return m.how == "self_draw" and not (m.dianganghua and ruleset.dianganghua == "dianpao")


def plain_readings(counts: Sequence[int], has_melds: bool) -> list[tuple[bool, bool, bool]]:
    """The readings of a complete concealed part with no wild tile, as (seven pairs, no chow
    among the sets, every group holds a 1 or a 9), in the order :func:`..hands.readings`
    yields them (the fans need nothing else of a reading; seven pairs come last).

    Each kind's groups are chosen at once, pongs and the pair before chows (the first
    reading of each set of groups in that search), so no reading comes twice."""
    c = list(counts[:27])
    out: list[tuple[bool, bool, bool]] = []
    if sum(c) % 3 == 2:
        _plain(c, 0, False, True, True, out)
    if _seven_pairs(counts, 0, has_melds):
        out.append((True, False, False))  # (the fans of seven pairs read no groups)
    return out


def _plain(c: list[int], i: int, pair_used: bool, no_chow: bool, yaojiu: bool, out: list) -> None:
    while i < 27 and not c[i]:
        i += 1
    if i == 27:
        if pair_used:
            out.append((False, no_chow, yaojiu))
        return
    n = c[i]
    r9 = i % 9
    end = r9 in (0, 8)  # a pong or pair of i holds a 1 or a 9
    run_end = r9 in (0, 6)  # so does the chow from i
    for p in range(n // 3, -1, -1):
        for q in ((0,) if pair_used else (1, 0)):
            r = n - 3 * p - 2 * q
            if r < 0 or (r and (r9 > 6 or c[i + 1] < r or c[i + 2] < r)):
                continue
            c[i] = 0
            if r:
                c[i + 1] -= r
                c[i + 2] -= r
            _plain(c, i + 1, pair_used or q == 1, no_chow and not r,
                   yaojiu and (end or not (p or q)) and (run_end or not r), out)
            c[i] = n
            if r:
                c[i + 1] += r
                c[i + 2] += r


def _only_pinghu(counts: Sequence[int], melds: Sequence[Meld], ruleset: Ruleset) -> bool:
    """Is 平胡 the only shape fan any reading of this complete hand could earn (§9.2)?

    A reading earns a shape fan only as seven pairs (no meld, every count even), with no
    chow (大对子: every concealed kind a pong or the one pair, so counts of 2 and 3 only,
    one 2) or with a 1 or a 9 in every group (带幺九: a 4, 5 or 6 is in no such group);
    将对 needs one of the first two."""
    if counts.count(1) == 0 and (counts.count(3) == 0 and not melds
                                 or counts.count(4) == 0 and counts.count(2) == 1):
        return False
    if ruleset.yaojiu_jiangdui and not (any(counts[3:6]) or any(counts[12:15]) or any(counts[21:24])) \
            and all(m.of in _YAOJIU for m in melds):
        return False
    return True


def _shape_readings(counts: Sequence[int], melds: Sequence[Meld], ruleset: Ruleset) -> list[tuple[list[str], int]]:
    """Every reading's shape fans (§9.5 step 2) as (names, value)."""
    out: list[tuple[list[str], int]] = []
    use = meld_use_of(melds)
    all_tiles = [t for t in range(27) if counts[t] or use[t]]
    jiang_all = all(t in _JIANG for t in all_tiles)
    melds_yaojiu = all(m.of in _YAOJIU for m in melds)
    for seven, no_chow, yaojiu in plain_readings(counts, bool(melds)):
        if seven:
            names = ["xiaoqidui"]
            if ruleset.jiang_qidui and jiang_all:
                names.append("jiangdui")
            out.append((names, fan_total(names, ruleset)))
            continue
        names = []
        if no_chow:  # no chow melds exist: melds are pong-type
            names.append("duidui")
            if len(melds) == 4:
                names.append("jingoudiao")
            if ruleset.yaojiu_jiangdui and jiang_all:
                names.append("jiangdui")
        if ruleset.yaojiu_jiangdui and yaojiu and melds_yaojiu:
            names.append("daiyaojiu")
        out.append((names or ["jihu"], fan_total(names, ruleset)))
    return out


def _with_gen(shape: Sequence[str], gens: int) -> list[str]:
    """A reading's shape fans with the hand's 根 (§9.5 step 3): a 七对 with a 根 is 龙七对,
    which replaces ``xiaoqidui`` and one ``gen``."""
    names = list(shape)
    if gens and "xiaoqidui" in names:
        names[names.index("xiaoqidui")] = "longqidui"
        gens -= 1
    return names + ["gen"] * gens


def score(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld], void: int,
          moment: Moment = Moment(), events: bool = True) -> Score:
    """The best reading of a winning hand (§9.5): shape fans, 清一色, 根, then the event
    fans (``events`` False for the best hand of 查大叫, §9.6); F, V = min(F, C), P."""
    if not is_shape(counts, melds):
        return Score(False, False, [], 0, 0, 0, reason="not a complete hand")
    if not void_ok(counts, melds, void, ruleset):
        declared = ruleset.dingque == "declared" and void >= 0
        return Score(False, True, [], 0, 0, 0, reason="holds its void suit" if declared else
                     "holds three suits (a win holds at most two)")
    if events and moment.heavenly and ruleset.tiandihu:
        names = [moment.heavenly]
    else:
        gens = gen_count(counts, melds)
        if _only_pinghu(counts, melds, ruleset):
            names = ["jihu"] + ["gen"] * gens
        else:
            # the highest reading with its 根 (a 七对's first 根 is its 龙, worth more with
            # longqidui_fan = 4); the first of equal readings
            names = max((_with_gen(shape, gens) for shape, _ in _shape_readings(counts, melds, ruleset)),
                        key=lambda x: fan_total(x, ruleset))
        if len(suits_of(counts, melds)) == 1:
            names.insert(len(names) - names.count("gen"), "qingyise")
        if events:
            names += event_fans(ruleset, moment)
        if ruleset.menqing_zhongzhang:
            if all(m.kind == "kong_concealed" for m in melds):
                names.append("menqing")
            use = meld_use_of(melds)
            if not any(counts[t] or use[t] for t in _YAOJIU):
                names.append("zhongzhang")
    f = fan_total(names, ruleset)
    v = min(f, ruleset.fan_cap)
    return Score(True, True, names, f, v, ruleset.base << v)


def event_fans(ruleset: Ruleset, m: Moment) -> list[str]:
    """The event fans of §9.3 (and 自摸 under 加番) that the moment earns."""
    out = []
    if m.how == "self_draw":
        if m.after_kong:
            out.append("gangshang_kaihua")
        if m.sea_bottom:
            out.append("haidi")
        if ruleset.zimo_bonus == "jiafan" and paid_as_self_draw(ruleset, m):  # 自摸加番 (§10.1, §10.4)
            out.append("zimo")
    elif m.how == "discard":
        if m.kong_discard:
            out.append("gangshang_pao")
        if m.sea_bottom:
            out.append("haidi_pao")
    elif m.how == "robbed_kong":
        out.append("qianggang")
    return out


def waits_on(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld], void: int,
             visible: Optional[Sequence[int]] = None) -> list[int]:
    """§9.6: the kinds t that complete the 3k+1 hand legally (void suit respected), that the
    seat does not itself hold four of; with ``dead_wait_counts`` off, ``visible`` (34 counts
    of the copies seen) must leave one unseen copy.

    The candidates are read suit by suit from the shared suit tables
    (:func:`..hands.suit_adds`: the kinds that complete one suit, by the codes of the
    others); seven pairs (no meld) adds the one kind held an odd number of times."""
    if not void_ok(counts, melds, void, ruleset):
        return []  # holding the void suit, no tile makes a legal hand
    if any(counts[27:]):
        return []
    keys = _hand_keys(counts)
    codes = (suit_code(keys[0]), suit_code(keys[1]), suit_code(keys[2]))
    total = codes[0] + codes[1] + codes[2]
    cand = 0  # bit t: kind t completes the hand
    for su in range(3):
        rest = total - codes[su]
        if rest <= 1:
            cand |= suit_adds(keys[su])[1 - rest] << (9 * su)
    if not melds and sum(counts) == 13 and counts.count(1) + counts.count(3) == 1:
        # seven pairs: the single odd kind pairs with itself
        cand |= 1 << next(t for t in range(27) if counts[t] & 1)
    if not cand:
        return []
    use = meld_use_of(melds)
    declared = ruleset.dingque == "declared" and void >= 0
    suits = None if declared else suits_of(counts, melds)
    out = []
    t = 0
    while cand:
        if cand & 1 and counts[t] + use[t] < 4 and not (declared and t // 9 == void) \
                and (ruleset.dead_wait_counts or visible is None or visible[t] < 4) \
                and (suits is None or len(suits | {t // 9}) <= 2):  # dingque = none: two suits (§4.1)
            out.append(t)
        cand >>= 1
        t += 1
    return out


#: 查大叫 scores each wait as a discard win (§9.6)
_AS_DISCARD = Moment(how="discard")


def best_hand(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld], void: int,
              visible: Optional[Sequence[int]] = None,
              waits: Optional[Sequence[int]] = None) -> Optional[tuple[int, int, list[str]]]:
    """A ready seat's best hand D (§9.6): the largest F over its waits, scored as a discard
    win with no event fans, as (D, wait kind, fans); None when the seat is not ready.
    ``waits``: the seat's :func:`waits_on`, when the caller has them."""
    best = None
    c = list(counts)
    for t in waits if waits is not None else waits_on(ruleset, counts, melds, void, visible):
        c[t] += 1
        sc = score(ruleset, c, melds, void, _AS_DISCARD, events=False)
        c[t] -= 1
        if best is None or sc.fan > best[0]:
            best = (sc.fan, t, sc.fans)
    return best


def is_huazhu(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld], void: int) -> bool:
    """花猪 (§4.1 rule 5): holds a tile of its void suit; with ``dingque = none``, its
    concealed tiles and melds hold all three suits."""
    if ruleset.dingque == "declared" and void >= 0:
        return not void_ok(counts, melds, void, ruleset)
    return len(suits_of(counts, melds)) == 3


# --- the family interface (``RuleFamily.scoring.score`` / ``reading_fans``) -------------------------

def fan_finding(ruleset: Ruleset, winner, score: Score) -> Optional[str]:
    """``RuleFamily.scoring.fan_finding`` (§9.2, §14): the audit compares F and P, so a logged fan list
    whose names add up to the right F, with the right F and P, only names the win otherwise
    (龙七对 as 七对 + 根, a combination spelt out): FAN_NAMES_DIFFER, a warning.  Any other
    difference is FAN_MISMATCH."""
    names = list(winner.fans)
    if winner.fan == score.fan and winner.points == score.points and all(n in FAN_VALUES for n in names) \
            and fan_total(names, ruleset) == score.fan:
        return "FAN_NAMES_DIFFER"
    return "FAN_MISMATCH"


def _counts(tiles: Sequence[int]) -> list[int]:
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def score_tiles(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext,
                passed_win: bool = False) -> Score:
    """``RuleFamily.scoring.score``: the concealed tiles (the winning tile included), the melds and
    the win context (its ``void``, ``sea_bottom`` and ``tiandi``).  A complete hand that
    holds its void suit does not win (``code`` WIN_NOT_VOID).  ``passed_win`` is not used:
    过水 is judged by the pass rule, which knows the values of the wins passed."""
    sc = score(ruleset, _counts(concealed), melds, ctx.void, moment_of(ctx))
    if sc.complete and not sc.wins:
        sc.code = "WIN_NOT_VOID"
    return sc


def reading_fans(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext):
    """``RuleFamily.scoring.reading_fans``: every reading as (fan names, total, None)."""
    best = score_tiles(ruleset, concealed, melds, ctx)
    if not best.wins:
        return
    if ctx.tiandi and ruleset.tiandihu:
        yield best.fans, best.fan, None
        return
    counts = _counts(concealed)
    common = [n for n in best.fans if n not in ("jihu", "duidui", "jingoudiao", "jiangdui", "daiyaojiu",
                                                 "xiaoqidui", "longqidui")]
    for names, _v in _shape_readings(counts, melds, ruleset):
        names = list(names)
        extra = list(common)
        if "xiaoqidui" in names and "gen" in extra:
            names[names.index("xiaoqidui")] = "longqidui"
            extra.remove("gen")
        allnames = names + extra
        yield allnames, fan_total(allnames, ruleset), None
