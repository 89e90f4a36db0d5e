"""Wuhan claims and special tiles (wuhan.md §3.2, §3.3, §5): 吃 from the 上家 (``chow``), 碰 and
杠 from any seat, with natural tiles only — no meld ever holds a 痞 tile or a tile of kind W
(CLAIM_SPECIAL_TILE).  A 痞 tile or a 癞子 leaves a hand only as a single-tile kong (红中杠,
癞子杠: ``TileSetAside``); discarded, it is SPECIAL_TILE_DISCARDED and dead — except the dead
discard of a hand holding nothing else when no kong is allowed (§5.3).

The meld rules themselves are Qujing's, judged with no wild kinds: reused by reference.
"""

from __future__ import annotations

from typing import Sequence

from replay.melds import Meld
from schema import events as ev
from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX, TILE_NAMES

from ..family import PLAIN_DISCARD, DiscardVerdict, Violation
from ..guangdong import table as guangdong_table
from ..qujing import claims as qujing
from ..wilds import plain_rules
from . import laizi

#: 胡 > 杠 = 碰 > 吃 (§5.1)
CLAIM_RANK = qujing.CLAIM_RANK

#: the last ruleset asked and its special kinds (a hand asks with one ruleset throughout)
_LAST_SPECIAL: list = [None, frozenset()]


_SPECIAL: dict[int, tuple[Ruleset, frozenset[int]]] = {}


def special_kinds(ruleset: Ruleset) -> frozenset[int]:
    """The kinds never melded or discarded: the 痞 kinds and W (kept per ruleset object: the
    audit asks at every discard)."""
    if ruleset is _LAST_SPECIAL[0]:
        return _LAST_SPECIAL[1]
    got = _SPECIAL.get(id(ruleset))
    if got is not None and got[0] is ruleset:
        _LAST_SPECIAL[:] = got
        return got[1]
    w = laizi.wild(ruleset)
    pis = laizi.pi_kinds(ruleset)
    kinds = pis if w is None else pis | {w}
    if len(_SPECIAL) > 4096:
        _SPECIAL.clear()
    _SPECIAL[id(ruleset)] = _LAST_SPECIAL[:] = (ruleset, kinds)
    return kinds


def _special(ruleset: Ruleset, tiles: Sequence[int], what: str) -> list[Violation]:
    """A 痞 tile or a 癞子 in a meld (§3.2, §3.3: CLAIM_SPECIAL_TILE)."""
    special = special_kinds(ruleset)
    if special.isdisjoint(tiles):
        return []
    bad = [t for t in tiles if t in special]
    if bad:
        return [Violation("CLAIM_SPECIAL_TILE", f"a 痞 tile or 癞子 ({TILE_NAMES[bad[0]]}) in a {what}",
                          "natural tiles of no special kind", [TILE_NAMES[t] for t in tiles])]
    return []


def check_chow(ruleset: Ruleset, n: int, seat: int, from_seat: int, discard: int, own: Sequence[int]) -> list[Violation]:
    """吃 from the 上家, a run of three natural tiles of no special kind."""
    return _special(ruleset, (discard, *own), "chow") or qujing.check_chow(plain_rules(ruleset), n, seat, from_seat,
                                                                           discard, own)


def check_pong(ruleset: Ruleset, seat: int, from_seat: int, discard: int, own: Sequence[int]) -> list[Violation]:
    """碰 with two natural tiles of the discard's kind."""
    return _special(ruleset, (discard, *own), "pong") or qujing.check_pong(plain_rules(ruleset), seat, from_seat,
                                                                           discard, own)


def check_exposed_kong(ruleset: Ruleset, seat: int, from_seat: int, kind: int, discard: int,
                       own: Sequence[int]) -> list[Violation]:
    """直杠 on a discard with three natural tiles."""
    return _special(ruleset, (discard, *own), "kong") or qujing.check_exposed_kong(
        plain_rules(ruleset), seat, from_seat, kind, discard, own)


def check_added_kong(ruleset: Ruleset, kind: int, tile: int) -> list[Violation]:
    """补杠: the fourth natural tile onto one's own pong."""
    return _special(ruleset, (tile,), "kong") or qujing.check_added_kong(plain_rules(ruleset), kind, tile)


def check_concealed_kong(ruleset: Ruleset, kind: int, own: Sequence[int]) -> list[Violation]:
    """暗杠: four natural tiles of a kind that is not special (红中 is never kong'd, §3.3)."""
    return _special(ruleset, own, "kong") or qujing.check_concealed_kong(plain_rules(ruleset), kind, own)


def could_pong(ruleset: Ruleset, counts: Sequence[int], discard: int) -> bool:
    return counts[discard] >= 2 and discard not in special_kinds(ruleset)


def could_kong(ruleset: Ruleset, counts: Sequence[int], discard: int) -> bool:
    return counts[discard] >= 3 and discard not in special_kinds(ruleset)


def chow_options(ruleset: Ruleset, counts: Sequence[int], discard: int, claimer: int,
                 discarder: int) -> list[tuple[int, int]]:
    """Every pair of natural hand tiles that chows ``discard`` from the 上家."""
    special = special_kinds(ruleset)
    if discard >= 27 or discard in special or not ruleset.chow or discarder != qujing.shangjia(claimer, ruleset.players):
        return []
    out = []
    low = discard - discard % 9
    for start in range(max(low, discard - 2), min(discard, low + 6) + 1):
        a, b = (k for k in (start, start + 1, start + 2) if k != discard)
        if a not in special and b not in special and counts[a] >= 1 and counts[b] >= 1:
            out.append((a, b))
    return out


def exposed_kong_options(ruleset: Ruleset, counts: Sequence[int], discard: int) -> list[tuple[int, ...]]:
    return [(discard,) * 3] if could_kong(ruleset, counts, discard) else []


def concealed_kong_options(ruleset: Ruleset, counts: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    special = special_kinds(ruleset)
    return [(k, (k,) * 4) for k in range(34) if counts[k] >= 4 and k not in special]


def added_kong_options(ruleset: Ruleset, counts: Sequence[int], melds: Sequence[Meld]) -> list[tuple[int, int]]:
    return [(m.of, m.of) for m in melds if m.kind == "pong" and counts[m.of] >= 1]


def can_rob(kind: str) -> bool:
    """Only an added kong (补杠) is robbed (§7.6); a single-tile kong never is."""
    return kind == "kong_added"


# --- the end of the wall: 海底 (§6) and when a kong is allowed (§5.4) ---------------------

def drawable(ruleset: Ruleset, table) -> int:
    """D: the undrawn tiles less the reserve."""
    return table.undrawn - ruleset.draw_reserve


def in_haidi(ruleset: Ruleset, table) -> bool:
    """The 海底 phase has begun (``haidi = last_four``): the seat on turn made an ordinary draw
    with D ≤ 4 before it (D ≤ 3 after: the phase begins at such a draw and lasts to the end)."""
    return ruleset.haidi == "last_four" and table.phase == "discard" and table.turn_draw == "wall" \
        and drawable(ruleset, table) <= 3


def next_drawer(ruleset: Ruleset, table):
    """``TableRules.next_drawer``: in the 海底 phase each seat draws in turn with no discard —
    after a seat's 海底 draw the next seat draws; otherwise the usual turn (None)."""
    # (asked at every wall draw: the table's phase, which rules out most, first)
    if table.phase == "discard" and table.turn_draw is not None and ruleset.haidi == "last_four" \
            and 1 <= table.undrawn - ruleset.draw_reserve <= 3:
        # (a replacement taken in the phase is the kong's one error: the turns go on as drawn)
        return (table.turn + 1) % len(table.players)
    return None


def discard_rule(ruleset: Ruleset, table, seat: int, tile: int) -> DiscardVerdict:
    """§6: no discard in the 海底 phase (SEA_BOTTOM_ORDER, dead; a claim or a win on it is a claim
    in the phase: SEA_BOTTOM_ORDER).  §5.3: a 痞 tile or a 癞子 is never discarded (SPECIAL_TILE_DISCARDED; the discard is dead
    so one error gives one finding) — unless every concealed tile is one and no kong is allowed
    (D = 0): a dead discard, no finding."""
    last = _LAST_SPECIAL
    special = last[1] if ruleset is last[0] else special_kinds(ruleset)
    if tile not in special:
        if table.undrawn - ruleset.draw_reserve <= 3 and in_haidi(ruleset, table):
            # a claim or a win on it is a claim in the 海底 phase: SEA_BOTTOM_ORDER too
            return DiscardVerdict(True, Violation("SEA_BOTTOM_ORDER", f"seat {seat} discarded in the 海底 phase "
                                                  "(draw-only: the next seat draws)", "the next seat's draw",
                                                  "TileDiscarded"), "SEA_BOTTOM_ORDER")
        return PLAIN_DISCARD
    hand = table.hands[seat]
    if drawable(ruleset, table) < 1 and all(hand[k] == 0 for k in range(34) if k not in special):
        return _DEAD
    what = "痞 tile" if tile in laizi.pi_kinds(ruleset) else "癞子"
    return DiscardVerdict(True, Violation("SPECIAL_TILE_DISCARDED", f"seat {seat} discarded the {what} "
                                          f"{TILE_NAMES[tile]} (it leaves a hand only as a single-tile kong)",
                                          "TileSetAside", TILE_NAMES[tile]))


_DEAD = DiscardVerdict(True, None)

_NO_KONG = ("KONG_WITHOUT_REPLACEMENT", "a kong with no drawable tile for its replacement, or in the 海底 phase")


def event_checks(ruleset: Ruleset, table, event) -> list[Violation]:
    """Before a kong, a claim or a tile set aside (§5.3, §5.4, §6): a single-tile kong sets aside
    a 痞 tile or a 癞子 the seat holds, on its own turn (SET_ASIDE_INVALID); no kong of any kind
    when D = 0 or in the 海底 phase (KONG_WITHOUT_REPLACEMENT); no claim in the 海底 phase
    (SEA_BOTTOM_ORDER)."""
    t = type(event)
    if t in _CLAIMS:
        # a claim: only on the last discard (D = 0) has the shared rule anything to say
        if table.undrawn - ruleset.draw_reserve > 0:
            return []
        return guangdong_table.event_checks(ruleset, table, event)
    if t is ev.TileSetAside:
        tile = TILE_INDEX[event.tile]
        # with no indicator turned (WILD_INDICATOR_MISSING, the one error) the hand's 癞子 is
        # unknown: a tile set aside may be it, so only a 痞 tile's set-aside is judged then
        if tile not in special_kinds(ruleset) and (table.indicator is not None or ruleset.wild_from == "preset"):
            return [Violation("SET_ASIDE_INVALID", f"seat {event.seat} set aside {event.tile}: only a 痞 tile or a "
                              "癞子 is a single-tile kong", "a 痞 tile or a 癞子", event.tile)]
        if table.phase != "discard" or table.turn != event.seat:
            return [Violation("SET_ASIDE_INVALID", f"seat {event.seat} set a tile aside out of its turn",
                              "its own turn", table.phase)]
        if drawable(ruleset, table) < 1 or in_haidi(ruleset, table):
            return [Violation(*_NO_KONG, ">= 1 drawable tile, before the 海底 phase", drawable(ruleset, table))]
        return []
    if t in (ev.KongAdded, ev.KongConcealed):
        if drawable(ruleset, table) < 1 or in_haidi(ruleset, table):
            return [Violation(*_NO_KONG, ">= 1 drawable tile, before the 海底 phase", drawable(ruleset, table))]
        return []
    return []


_CLAIMS = frozenset({ev.Chowed, ev.Ponged, ev.KongExposed})


__all__ = ["CLAIM_RANK", "added_kong_options", "can_rob", "check_added_kong", "check_chow", "check_concealed_kong",
           "check_exposed_kong", "check_pong", "chow_options", "concealed_kong_options", "could_kong", "could_pong",
           "discard_rule", "drawable", "event_checks", "exposed_kong_options", "in_haidi", "next_drawer",
           "special_kinds"]
