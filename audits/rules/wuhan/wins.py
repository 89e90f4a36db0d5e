"""Wuhan winning shapes (wuhan.md §7.2–§7.5): the standard four sets and a pair, 乱将 (将一色)
and 乱风 (风一色), with 癞子 standing in within their room (§3.2).

:func:`solve` is this family's own search (sets and a pair, with or without chows, over a
set of allowed kinds and pair kinds, 癞子 limited per kind by the max-four room).  The
shape facts a scoring needs (:class:`Shapes`) are read twice: soft (the 癞子 free) and hard
(every 癞子 read as itself, 硬胡).  The audit's hot path asks :func:`seat_waits` (a superset
test on suit keys, through the shared engine) and :func:`completes`; the exact legality of
a win is the scoring's (:mod:`.fans`).
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Sequence

from replay.melds import Meld
from replay.state import KEY_STEP, SUIT_OF
from schema.ruleset import Ruleset

from .. import hands
from . import laizi
from .laizi import JIANG_KINDS, NUM_KINDS

ALL_KINDS = frozenset(range(NUM_KINDS))
HONOURS = frozenset(range(27, NUM_KINDS))
SUITS = tuple(frozenset(range(9 * s, 9 * s + 9)) for s in range(3))


def _wild_only(w: int, room: list[int], need_pair: bool, pair_ok: frozenset, chows: bool, kinds: frozenset) -> bool:
    """Groups made of 癞子 alone: each stands for a kind with room (a pair, pongs, chows)."""
    if w == 0:
        return not need_pair
    if need_pair:
        for p in pair_ok:
            if p in kinds and room[p] >= 2:
                room[p] -= 2
                ok = _wild_only(w - 2, room, False, pair_ok, chows, kinds)
                room[p] += 2
                if ok:
                    return True
        return False
    if w % 3:
        return False
    for t in kinds:
        if room[t] >= 3:
            room[t] -= 3
            ok = _wild_only(w - 3, room, False, pair_ok, chows, kinds)
            room[t] += 3
            if ok:
                return True
    if chows:
        for t in kinds:
            if t < 27 and t % 9 <= 6 and t + 1 in kinds and t + 2 in kinds and min(room[t:t + 3]) >= 1:
                for x in (t, t + 1, t + 2):
                    room[x] -= 1
                ok = _wild_only(w - 3, room, False, pair_ok, chows, kinds)
                for x in (t, t + 1, t + 2):
                    room[x] += 1
                if ok:
                    return True
    return False


def _chow_options(k: int) -> tuple:
    """The chows holding kind ``k`` as their lowest natural tile: (run, natural kinds, kinds a
    癞子 supplies), every natural kind ≥ k (the kinds below k are spent, so a 癞子 stands there)."""
    if k >= 27:
        return ()
    out = []
    base = k - k % 9
    for s in range(max(base, k - 2), min(k, base + 6) + 1):
        run = (s, s + 1, s + 2)
        for mask in range(8):  # which of the run's tiles a 癞子 supplies
            ws = tuple(x for i, x in enumerate(run) if mask >> i & 1)
            nats = tuple(x for x in run if x not in ws)
            if k in nats and all(x >= k for x in nats):
                out.append((run, nats, ws))
    return tuple(out)


#: per kind, the chows :func:`_search` may make holding it as the lowest natural tile
_CHOWS = tuple(_chow_options(k) for k in range(NUM_KINDS))
#: the same, per set of allowed kinds, as (natural kinds, kinds a 癞子 supplies, 癞子 used)
#: for the runs wholly within the set (a handful of sets: all kinds, 2-5-8, a suit, winds)
_CHOWS_IN: dict = {}


def _chows_in(kinds: frozenset) -> tuple:
    got = _CHOWS_IN.get(kinds)
    if got is None:
        got = _CHOWS_IN[kinds] = tuple(tuple((nats, ws, len(ws)) for run, nats, ws in _CHOWS[k]
                                             if all(x in kinds for x in run)) for k in range(NUM_KINDS))
    return got


def _search(c: list[int], w: int, room: list[int], need_pair: bool, pair_ok: frozenset, chows: tuple,
            kinds: frozenset, k: int = 0) -> bool:
    """Sets (and the pair, while ``need_pair``) from the lowest kind left (at or after ``k``:
    tiles are only taken, so the lowest kind never moves back) with ``w`` 癞子 left;
    ``chows``: :func:`_chows_in` of ``kinds``, or () for no chow."""
    while k < NUM_KINDS and not c[k]:
        k += 1
    if k == NUM_KINDS:
        return _wild_only(w, room, need_pair, pair_ok, bool(chows), kinds)
    if k not in kinds:
        return False
    ck, rk = c[k], room[k]
    # the pair holding k: two naturals, or one and a 癞子
    if need_pair and k in pair_ok:
        if ck >= 2:
            c[k] = ck - 2
            ok = _search(c, w, room, False, pair_ok, chows, kinds, k)
            c[k] = ck
            if ok:
                return True
        if w >= 1 and rk >= 1:
            c[k] = ck - 1
            room[k] = rk - 1
            ok = _search(c, w - 1, room, False, pair_ok, chows, kinds, k)
            c[k] = ck
            room[k] = rk
            if ok:
                return True
    # a pong holding k: three naturals, or two or one and 癞子
    for nat in (3, 2, 1):
        wl = 3 - nat
        if ck >= nat and w >= wl and rk >= wl:
            c[k] = ck - nat
            room[k] = rk - wl
            ok = _search(c, w - wl, room, need_pair, pair_ok, chows, kinds, k)
            c[k] = ck
            room[k] = rk
            if ok:
                return True
    # a chow holding k as its lowest natural (kinds below k are 癞子)
    for nats, ws, nw in chows[k] if chows else ():
        if nw > w:
            continue
        usable = True
        for x in nats:
            if c[x] < 1:
                usable = False
                break
        if usable:
            for x in ws:
                if room[x] < 1:
                    usable = False
                    break
        if not usable:
            continue
        for x in nats:
            c[x] -= 1
        for x in ws:
            room[x] -= 1
        ok = _search(c, w - nw, room, need_pair, pair_ok, chows, kinds, k)
        for x in nats:
            c[x] += 1
        for x in ws:
            room[x] += 1
        if ok:
            return True
    return False


def solve(naturals: Sequence[int], wilds: int, room: Sequence[int], pair_ok: frozenset = ALL_KINDS,
          chows: bool = True, kinds: frozenset = ALL_KINDS) -> bool:
    """Do the concealed ``naturals`` and ``wilds`` 癞子 make sets and one pair (a pair kind in
    ``pair_ok``; chows only with ``chows``; every tile, stood-for kinds included, in
    ``kinds``), each 癞子 standing for a kind within ``room``?"""
    if (sum(naturals) + wilds) % 3 != 2:
        return False
    return _search(list(naturals), wilds, list(room), True, pair_ok, _chows_in(kinds) if chows else (), kinds)


def _standard_possible(ruleset: Ruleset, naturals: Sequence[int], wilds: int) -> bool:
    """A cheap superset of :func:`solve`'s standard shapes: the shared engine, whose 癞子 stand
    in wherever the concealed tiles leave room (the max-four room here is never larger), finds
    the hand complete.  Without ``wild_max_four`` (or on a count above four) nothing is ruled out."""
    if (sum(naturals) + wilds) % 3 != 2:
        return False
    if not ruleset.wild_max_four or max(naturals) > 4:
        return True
    return hands.is_complete_keys(*hands.hand_keys(naturals), wilds)


def _melds_within(melds: Sequence[Meld], kinds: frozenset, chows: bool) -> bool:
    return all((m.kind != "chow" or chows) and all(t in kinds for t in m.tiles) for m in melds)


def _loose(naturals: Sequence[int], wilds: int, room: Sequence[int], melds: Sequence[Meld], kinds: frozenset) -> bool:
    """乱将 / 乱风 (§7.2): every tile, melds included, of ``kinds`` (a 癞子 standing for one
    with room); no set-and-pair structure."""
    if not _melds_within(melds, kinds, False):
        return False
    if any(naturals[k] for k in range(NUM_KINDS) if k not in kinds):
        return False
    return sum(room[k] for k in kinds) >= wilds


class Shapes(NamedTuple):
    """What one reading mode (soft or hard) of a hand holds (§7.2, §7.3, §7.5)."""

    standard: bool      # four sets and a pair, any pair
    std258: bool        # ... with a 2-5-8 pair
    duidui: bool        # every set a pong or kong (碰碰胡)
    qingyise: bool      # one suit throughout (清一色)
    qys_duidui: bool    # both in one reading
    jiangyise: bool     # 乱将
    jys_duidui: bool    # 乱将 that is also 碰碰胡
    fengyise: bool      # 乱风
    fys_duidui: bool    # 乱风 that is also 碰碰胡


NONE = Shapes(*([False] * 9))


_SHAPES: dict = {}


def shapes(ruleset: Ruleset, naturals: Sequence[int], wilds: int, melds: Sequence[Meld],
           indicator: Optional[int]) -> Shapes:
    """The shapes a hand holds with its 癞子 free (``wilds`` of them) — call with ``wilds`` 0
    and the 癞子 counted among ``naturals`` for the hard reading.  Kept for the hand (a win is
    judged several times: the single-winner order, the score, the names)."""
    key = (ruleset, tuple(naturals), wilds, tuple(melds), indicator)
    got = _SHAPES.get(key)
    if got is None:
        if len(_SHAPES) > 2048:
            _SHAPES.clear()
        got = _SHAPES[key] = _shapes(ruleset, naturals, wilds, melds, indicator)
    return got


def _shapes(ruleset: Ruleset, naturals: Sequence[int], wilds: int, melds: Sequence[Meld],
            indicator: Optional[int]) -> Shapes:
    pis = laizi.pi_kinds(ruleset)
    kinds = ALL_KINDS - pis
    room = laizi.room(ruleset, naturals, melds, indicator)
    if any(naturals[k] for k in pis):
        return NONE
    # a 2-5-8 pair reading is a standard one: asked first, it often settles both
    possible = _standard_possible(ruleset, naturals, wilds)
    std258 = possible and solve(naturals, wilds, room, JIANG_KINDS, True, kinds)
    standard = std258 or (possible and solve(naturals, wilds, room, kinds, True, kinds))
    no_chow = not any(m.kind == "chow" for m in melds)
    duidui = standard and no_chow and solve(naturals, wilds, room, kinds, False, kinds)
    qys = qys_dd = False
    if standard:
        for suit in SUITS:
            if _melds_within(melds, suit, True) and not any(naturals[k] for k in kinds - suit):
                # with no 癞子 every tile is the suit's already: the standard readings are its own
                if not wilds or solve(naturals, wilds, room, suit, True, suit):
                    qys = True
                    qys_dd = qys_dd or (duidui and (not wilds or solve(naturals, wilds, room, suit, False, suit)))
    jys = _loose(naturals, wilds, room, melds, JIANG_KINDS)
    jys_dd = jys and duidui and solve(naturals, wilds, room, JIANG_KINDS, False, JIANG_KINDS)
    winds = HONOURS - pis
    fys = _loose(naturals, wilds, room, melds, winds)
    fys_dd = fys and duidui and solve(naturals, wilds, room, winds, False, winds)
    return Shapes(standard, std258, duidui, qys, qys_dd, jys, jys_dd, fys, fys_dd)


def opened(melds: Sequence[Meld]) -> bool:
    """开口 (§7.1): a call made — a meld claimed from another seat (an added kong's pong was)."""
    return any(m.from_seat is not None for m in melds)


def holds_pi(ruleset: Ruleset, counts: Sequence[int]) -> bool:
    """The hand holds a 痞 tile (it cannot win, §3.3)."""
    return any(counts[k] for k in laizi.pi_kinds(ruleset))


def could_win(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld], indicator: Optional[int] = None,
              big_by_moment: bool = True) -> bool:
    """A legal win for the shape alone (§7.1 (1)–(3), the 癞子 limit and the pair rule; no
    起胡): ``big_by_moment``: a 大胡 of the moment (杠开, 海底捞, 抢杠, 全求人) may hold, so a
    standard hand with a 2-5-8 pair may hold any number of 癞子.  The cheapest readings first
    (the audit asks it for every discard a waiting seat could take)."""
    if not opened(melds) or holds_pi(ruleset, counts):
        return False
    naturals, w = laizi.split(ruleset, counts)
    if indicator is None:
        indicator = laizi.default_indicator(ruleset, laizi.wild(ruleset))
    pis = laizi.pi_kinds(ruleset)
    kinds = ALL_KINDS - pis
    room = laizi.room(ruleset, naturals, melds, indicator)
    big_ok = ruleset.dahu_max_laizi is None or w <= ruleset.dahu_max_laizi
    # every standard reading (a 2-5-8 pair, 碰碰胡, 清一色) needs the shape the engine sees
    standard = _standard_possible(ruleset, naturals, w)
    std258 = standard and solve(naturals, w, room, JIANG_KINDS, True, kinds)
    if std258 and (w <= 1 or (big_by_moment and big_ok)):
        return True
    if not big_ok:
        return False
    if standard and ruleset.pengpenghu_dahu and not any(m.kind == "chow" for m in melds) \
            and solve(naturals, w, room, kinds, False, kinds):
        return True
    for suit in SUITS if standard else ():
        if _melds_within(melds, suit, True) and not any(naturals[k] for k in kinds - suit) \
                and solve(naturals, w, room, suit, True, suit):
            return True
    return _loose(naturals, w, room, melds, JIANG_KINDS) or _loose(naturals, w, room, melds, HONOURS - pis)


def is_winning(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = (),
               plain: Optional[int] = None) -> bool:
    """Concealed counts (the winning tile included) + melds: a legal shape (see
    :func:`could_win`; a 大胡 of the moment assumed possible)."""
    return could_win(ruleset, counts, melds)


def _natural_keys(ruleset: Ruleset, counts: Sequence[int], keys: Optional[Sequence[int]]) -> tuple[list[int], int]:
    k = list(keys) if keys is not None else list(hands.hand_keys(counts))
    w = laizi.wild(ruleset)
    n = counts[w] if w is not None else 0
    if n:
        k[SUIT_OF[w]] -= n * KEY_STEP[w]
    return k, n


def seat_waits(ruleset: Ruleset, counts: Sequence[int], keys: Sequence[int], held: int,
               melds: Sequence[Meld]) -> "list | bool":
    """The seat's wait entry when one tile could complete its hand, else False: a superset
    test (opened, no 痞 tile, complete with one more 癞子 through the shared engine, or every
    natural tile a 2-5-8 or an honour for 乱将 / 乱风).  The entry is ``[{tile: completes}]``."""
    if held % 3 != 1 or not opened(melds) or holds_pi(ruleset, counts):
        return False
    k, wilds = _natural_keys(ruleset, counts, keys)
    if hands.is_complete_keys(k[0], k[1], k[2], k[3], wilds + 1):
        return [{}]
    w = laizi.wild(ruleset)
    held_kinds = {t for t in range(NUM_KINDS) if counts[t] and t != w}
    if held_kinds <= JIANG_KINDS or held_kinds <= HONOURS:
        return [{}]
    return False


def completes(ruleset: Ruleset, entry: list, counts: Sequence[int], melds: Sequence[Meld], tile: int) -> bool:
    """Is the hand a legal shape with ``tile`` from another seat (:func:`could_win`)?  Cached."""
    cache = entry[0]
    got = cache.get(tile)
    if got is None:
        c = list(counts)
        c[tile] += 1
        got = cache[tile] = could_win(ruleset, c, melds)
    return got


def drawn_within_waits(ruleset: Ruleset, counts: Sequence[int]) -> bool:
    """A drawn tile completes the hand only where the entry before the draw allowed one (a
    drawn 癞子 is one more wild, which the superset test already grants)."""
    return True


def waits(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = ()) -> list[int]:
    """The tiles that complete a 3k+1 hand as a legal shape (a 癞子 and a 痞 tile never come
    from another seat; a kind whose four tiles the seat holds cannot come)."""
    w = laizi.wild(ruleset)
    held = list(counts)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    out = []
    for t in range(NUM_KINDS):
        if held[t] >= 4 or t == w or t in laizi.pi_kinds(ruleset):
            continue
        c = list(counts)
        c[t] += 1
        if could_win(ruleset, c, melds):
            out.append(t)
    return out


__all__ = ["ALL_KINDS", "HONOURS", "NONE", "Shapes", "completes", "could_win",
           "drawn_within_waits", "holds_pi", "is_winning", "opened", "seat_waits", "shapes", "solve", "waits"]
