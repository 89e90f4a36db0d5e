"""Xuzhou winning hands (xuzhou.md §7): 平和 (four sets and a pair, melds as sets) with
配子 wilds, 七对 (fully concealed), 乱牌 by option ``luanpai``, and the optional shape
gate 八枝 (``shape_gate = bazhi``: a 平和 needs eight tiles of one suit).

Every check works on the natural counts (白板 folded into W, the 配子 taken out) and the
shared win engine (:mod:`audits.rules.hands`), with the max-four ``use`` of
:func:`.pei.use_of` (melds, the indicator, 白板's room 0).  The audit asks
:func:`seat_waits` and :func:`completes` for every discard: the first is a superset
test on suit keys, the second exact and cached in the seat's entry
``[naturals, wilds, use, {tile: completes}]``.
"""

from __future__ import annotations

from typing import Optional, Sequence

from replay.melds import Meld
from replay.state import KEY_STEP, SUIT_OF
from schema.ruleset import Ruleset

from .. import hands
from ..special_hands import is_shisanlan, is_shisanyao
from . import pei

#: 八枝: tiles of one suit a 平和 needs under ``shape_gate = bazhi``
BAZHI = 8


def is_qidui(naturals: Sequence[int], wilds: int, use: Sequence[int], has_melds: bool) -> bool:
    """七对: 14 concealed tiles in seven pairs (four equal tiles are two pairs); each odd
    natural kind takes one 配子, which needs room in that kind (max four with the
    indicator counted); spare 配子 pair among themselves."""
    if has_melds or sum(naturals) + wilds != 14:
        return False
    odd = 0
    for k in range(34):
        c = naturals[k]
        if c & 1:
            if c + 1 + use[k] > 4:
                return False
            odd += 1
    return odd <= wilds


def is_luanpai(ruleset: Ruleset, naturals: Sequence[int], wilds: int, use: Sequence[int], has_melds: bool) -> str:
    """乱牌 by option ``luanpai`` (§7.3), fully concealed: the fan name of the shape held
    (``shisanlan`` / ``shisanyao``), or "" (none, or ``off``)."""
    mode = ruleset.luanpai
    if has_melds or mode == "off":
        return ""
    if mode in ("shisanlan", "both") and is_shisanlan(naturals, wilds, use):
        return "shisanlan"
    if mode in ("shisanyao", "both") and is_shisanyao(naturals, wilds, use):
        return "shisanyao"
    return ""


def _suit_tiles(melds: Sequence[Meld], ruleset: Ruleset) -> list[int]:
    """Tiles of each suit in the melds, 白板 read as W, each meld counting as 3 (§7: a
    hand of 14 tiles counting each meld as 3)."""
    out = [0, 0, 0]
    for m in melds:
        t = min(pei.fold(ruleset, x) for x in m.tiles) if m.kind == "chow" else pei.fold(ruleset, m.of)
        if t < 27:
            out[t // 9] += 3
    return out


def passes_gate(ruleset: Ruleset, naturals: Sequence[int], wilds: int, use: Sequence[int],
                melds: Sequence[Meld]) -> bool:
    """八枝 (§7.4, ``shape_gate = bazhi``): some reading of the 平和 holds at least eight
    tiles of one suit, melds and 配子 as read included; ``none`` accepts every hand."""
    if ruleset.shape_gate != "bazhi":
        return True
    melded = _suit_tiles(melds, ruleset)
    held = [sum(naturals[9 * s:9 * s + 9]) + melded[s] for s in range(3)]
    if max(held) + wilds < BAZHI:
        return False
    if max(held) >= BAZHI:
        return True
    for r in hands.readings(naturals, wilds, use, bool(melds)):
        if r.seven_pairs:
            continue
        got = list(melded)
        for g in r.groups:
            for t in g.tiles:
                if t < 27:
                    got[t // 9] += 1
        if max(got) >= BAZHI:
            return True
    return False


def _binding_use(ruleset: Ruleset, naturals: Sequence[int], wilds: int, use: Sequence[int]):
    """The ``use`` that can change whether the hand is a 平和, or None when none can: a
    kind's room binds only where its naturals, melds and indicator with every 配子 held
    would pass four; 白板's room 0 never does (no natural 白板 is left to join, and a group
    of 配子 alone may take any other kind)."""
    if not wilds:
        return None
    white = pei.pei(ruleset).stand_in
    for k, x in enumerate(use):
        if x and k != white and naturals[k] + x + wilds > 4:
            if white is None:
                return use
            out = list(use)
            out[white] = 0
            return out
    return None


def four_sets_and_a_pair(ruleset: Ruleset, naturals: Sequence[int], wilds: int, use: Sequence[int]) -> bool:
    """The 平和 shape (§7.1): four sets and a pair (melds as sets), before the shape gate."""
    return hands.is_complete(naturals, wilds, _binding_use(ruleset, naturals, wilds, use))


def standard(ruleset: Ruleset, naturals: Sequence[int], wilds: int, use: Sequence[int],
             melds: Sequence[Meld]) -> bool:
    """平和: four sets and a pair (melds as sets), through the shape gate."""
    return four_sets_and_a_pair(ruleset, naturals, wilds, use) and passes_gate(ruleset, naturals, wilds, use, melds)


def shapes(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = (),
           plain: Optional[int] = None) -> list[str]:
    """The winning shapes the hand holds, in order: ``jihu`` (平和), ``qidui``, and the
    乱牌 name; empty when the hand is not a win (WIN_INCOMPLETE)."""
    naturals, wilds = pei.split(ruleset, counts, plain)
    return shapes_of(ruleset, naturals, wilds, pei.use_of(ruleset, melds), melds)


def shapes_of(ruleset: Ruleset, naturals: Sequence[int], wilds: int, use: Sequence[int],
              melds: Sequence[Meld]) -> list[str]:
    """:func:`shapes` of a hand already split into natural counts, 配子 held and ``use``
    (the scorer splits a hand once for its shapes, names and reading)."""
    out = []
    if standard(ruleset, naturals, wilds, use, melds):
        out.append("jihu")
    if is_qidui(naturals, wilds, use, bool(melds)):
        out.append("qidui")
    special = is_luanpai(ruleset, naturals, wilds, use, bool(melds))
    if special:
        out.append(special)
    return out


def _wins(ruleset: Ruleset, naturals: Sequence[int], wilds: int, use: Sequence[int], melds: Sequence[Meld]) -> bool:
    has = bool(melds)
    return standard(ruleset, naturals, wilds, use, melds) or is_qidui(naturals, wilds, use, has) \
        or bool(is_luanpai(ruleset, naturals, wilds, use, has))


def is_winning(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = (),
               plain: Optional[int] = None) -> bool:
    """Concealed counts (the winning tile included) + melds form a Xuzhou win (§7.1–§7.4)."""
    naturals, wilds = pei.split(ruleset, counts, plain)
    return _wins(ruleset, naturals, wilds, pei.use_of(ruleset, melds), melds)


def _natural_keys(ruleset: Ruleset, counts: Sequence[int], keys: Optional[Sequence[int]]) -> tuple[list[int], int]:
    """The reducer's base-5 suit keys of the natural tiles (配子 out, 白板 moved to W) and
    the 配子 held."""
    k = list(keys) if keys is not None else list(hands.hand_keys(counts))
    p = pei.pei(ruleset)
    w = p.wild
    wilds = 0
    if w is not None:
        wilds = counts[w]
        if wilds:
            k[SUIT_OF[w]] -= wilds * KEY_STEP[w]
        white = p.stand_in
        if white is not None and counts[white]:
            n = counts[white]
            k[3] -= n * KEY_STEP[white]
            k[SUIT_OF[w]] += n * KEY_STEP[w]
    return k, wilds


#: byte value -> 1 when odd (the odd counts of a counts bytearray, at C speed)
_ODD = bytes(x & 1 for x in range(256))


def seat_waits(ruleset: Ruleset, counts: Sequence[int], keys: Sequence[int], held: int,
               melds: Sequence[Meld]) -> "list | bool":
    """The seat's wait entry when one tile could complete its hand (听牌), else False.

    A superset test: the hand is complete with one more 配子 (a wild can stand for any
    tile that completes it), without the max-four room; 七对 by its odd counts, 乱牌 only
    when no natural kind is held twice.  :func:`completes` is exact.  The entry is
    ``[naturals or None, 配子 held, use or None, {tile: completes}]``."""
    if held % 3 != 1:
        return False
    k, wilds = _natural_keys(ruleset, counts, keys)
    if hands.is_complete_keys(k[0], k[1], k[2], k[3], wilds + 1):
        return [None, wilds, None, {}]
    if melds:
        return False
    w = pei.pei(ruleset).wild
    odd = bytearray(counts).translate(_ODD).count(1) - (counts[w] & 1 if w is not None else 0)
    if odd <= wilds + 1:
        return [None, wilds, None, {}]
    if ruleset.luanpai != "off" and (max(counts) <= 1 or (w is not None and counts[w] >= 2)):
        naturals, _ = pei.split(ruleset, counts)
        if is_luanpai(ruleset, naturals, wilds + 1, None, False):
            return [naturals, wilds, None, {}]
    return False


def completes(ruleset: Ruleset, entry: list, counts: Sequence[int], melds: Sequence[Meld], tile: int) -> bool:
    """Is the hand complete with ``tile`` taken from another seat (a plain tile; 白板 is
    W while it stands in)?  Exact, cached in the entry."""
    cache = entry[3]
    got = cache.get(tile)
    if got is None:
        naturals = entry[0]
        if naturals is None:
            naturals = entry[0] = pei.split(ruleset, counts)[0]
        use = entry[2]
        if use is None:
            use = entry[2] = pei.use_of(ruleset, melds)
        k = pei.fold(ruleset, tile)
        naturals[k] += 1
        try:
            got = _wins(ruleset, naturals, entry[1], use, melds)
        finally:
            naturals[k] -= 1
        cache[tile] = got
    return got


def drawn_within_waits(ruleset: Ruleset, counts: Sequence[int]) -> bool:
    """``RuleFamily.drawn_within_waits``: no Xuzhou shape wins on a draw that the wait
    entry of the hand before it would not allow (a drawn 配子 is one more wild, which the
    entry's superset test already grants)."""
    return True


def waits(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld] = ()) -> list[int]:
    """The plain tiles that complete a 13-tile (3k+1) hand, 白板 included while it stands
    in for W; a kind whose four physical tiles the seat holds (or three and the
    indicator) cannot come."""
    held = list(counts)
    for m in melds:
        for t in m.tiles:
            held[t] += 1
    naturals, wilds = pei.split(ruleset, counts)
    use = pei.use_of(ruleset, melds)
    p = pei.pei(ruleset)
    if p.indicator is not None:
        held[p.indicator] += 1  # the turned indicator is one of its kind's four
    out = []
    for t in range(34):
        if held[t] >= 4 or t == p.wild:
            continue  # a fifth copy cannot come; a 配子 from another seat is dead
        k = pei.fold(ruleset, t)
        naturals[k] += 1
        if _wins(ruleset, naturals, wilds, use, melds):
            out.append(t)
        naturals[k] -= 1
    return out


__all__ = ["BAZHI", "completes", "drawn_within_waits", "four_sets_and_a_pair", "is_luanpai", "is_qidui", "is_winning",
           "passes_gate", "seat_waits", "shapes", "shapes_of", "standard", "waits"]
