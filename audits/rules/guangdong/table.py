"""Guangdong 鸡平和 at the table (guangdong.md §2–§5): the wall with no face-up tail,
the exhaustive draw, the dealer and the winds, 漏和, the win context (winds, 海底,
天和 / 地和 / 人和) and the family's own checks of claims, kongs and a hand's start.

Everything is read from the reducer's neutral facts: ``Table.dealer_changes`` (the
passes of the deal), ``received`` (tiles from the wall), ``melds``, ``discards``,
``undrawn``.
"""

from __future__ import annotations

from typing import Optional, Sequence

from schema import events as ev
from schema.ruleset import Ruleset
from schema.tiles import TILE_NAMES

from ..family import PassBook, Violation, WinContext, WinHow, WinJudge

#: The winds' Chinese names, in the order of ``events.WINDS`` (0..3).
WIND_CHINESE = "东南西北"


# --- the wall (§2) ---------------------------------------------------------------

def tail_pool(ruleset: Ruleset) -> int:
    """No face-up tail tiles: a kong's replacement comes straight from the wall."""
    return 0


def replacement_source(ruleset: Ruleset) -> str:
    """A kong replacement is logged as a ``tail`` draw (§10): the last undrawn tile, or the
    next one with ``kong_replacement = head`` (the reducer takes it from that end)."""
    return "tail"


def remaining(ruleset: Ruleset, undrawn: int, face_up: int) -> int:
    """Every undrawn tile is drawable (no dead wall)."""
    return undrawn


def reserve(ruleset: Ruleset, kongs: int) -> int:
    """流局 once ``draw_reserve`` tiles remain undrawn (0: every tile is drawn)."""
    return ruleset.draw_reserve


def drawable(ruleset: Ruleset, table) -> int:
    """Tiles still drawable (a kong needs one for its replacement)."""
    return table.undrawn - ruleset.draw_reserve


# --- seats, dealer, winds (§3) --------------------------------------------------------

def first_dealer(creator: int) -> Optional[int]:
    """The first dealer is whoever the log names (drawn by lot): not checked."""
    return None


def next_dealer(dealer: int, winners: Sequence[int], how: Optional[WinHow] = None,
                from_seat: Optional[int] = None) -> int:
    """The dealer stays after a draw or when among the winners; otherwise the 下家 deals."""
    if not winners or dealer in winners:
        return dealer
    return (dealer + 1) % 4


def seat_wind(seat: int, dealer: int) -> int:
    """门风: (seat − dealer) mod 4, 0 = 东; the dealer is always 东."""
    return (seat - dealer) % 4


def round_wind(passes: int) -> int:
    """圈风: 东 for the first four passes of the deal, then 南, 西, 北, and 东 again."""
    return passes // 4 % 4


# --- 漏和 (§5) ------------------------------------------------------------------

def pass_violation(book: PassBook, seat: int, claim: str, tile: int, judge: WinJudge,
                   rules: Optional[Ruleset] = None, how: str = "discard") -> Optional[str]:
    """漏和: a legal win let go on kind t bars winning on t (``same_tile``) or on any
    discard (``any_discard``) until the seat's own next draw, chow, pong or kong.  With
    ``louhe_on_rob`` on, a 抢杠 chance let go counts and a bar forbids robbing (``how`` is
    ``robbed_kong``); off, robbing is outside 漏和 both ways (§5.5).  No pong or kong is
    ever barred."""
    if claim != "win":
        return None
    any_discard = rules is not None and rules.louhe_scope == "any_discard"
    on_rob = rules is None or rules.louhe_on_rob
    if not on_rob and how == "robbed_kong":
        return None
    if on_rob and (book.rob_tiles[seat] if any_discard else tile in book.rob_tiles[seat]):
        return "WIN_DURING_LOUHE"
    for t, kd in book.win_chances(seat):
        if (any_discard or t == tile) and judge(seat, t, kd):
            return "WIN_DURING_LOUHE"
    return None


# --- the win context (§7.2, §7.4, §7.5) --------------------------------------------------

def heavenly(ruleset: Ruleset, table, seat: int, how: str) -> str:
    """天和 / 地和 / 人和 from the table before the win: no chow, pong or kong by anyone
    (concealed kongs included), and the winner's first tiles."""
    if any(table.melds[s] for s in range(len(table.melds))):
        return ""
    dealer = table.dealer
    got = sum(table.received[seat])
    discards = sum(len(d) for d in table.discards)
    if how == "self_draw":
        if seat == dealer and discards == 0 and got == 14:
            return "tianhe"
        if seat != dealer and got == 14:
            return "dihe"
    elif how == "discard" and seat != dealer and got == 13:
        if ruleset.renhe_scope == "dealer_first_discard":
            last = table.last_discard
            if not (discards == 1 and last is not None and last[0] == dealer):
                return ""
        return "renhe"
    return ""


def win_context(ruleset: Ruleset, table, seat: int, how: str, tile: Optional[int], after_kong: bool,
                kong_discard: bool, winners: int = 1) -> WinContext:
    """The winner's seat and round winds, 海底, 天/地/人和 and the number of winners."""
    return WinContext(
        how=how, win_tile=tile, after_kong=after_kong, kong_discard=kong_discard,
        seat_wind=seat_wind(seat, table.dealer), round_wind=round_wind(table.dealer_changes),
        heavenly=heavenly(ruleset, table, seat, how),
        last_tile=how == "self_draw" and table.undrawn <= ruleset.draw_reserve,
        winners=winners)


# --- the family's own checks of rare events ----------------------------------------------

def event_checks(ruleset: Ruleset, table, event) -> list[Violation]:
    """Before a claim or kong: only 胡 on the last discard, no kong without a drawable
    tile.  After a hand starts: a logged round or seat wind matches §3."""
    t = type(event)
    if t is ev.HandStarted:
        return _winds(table, event)
    if t in (ev.Chowed, ev.Ponged, ev.KongExposed):
        if drawable(ruleset, table) <= 0:
            if ruleset.last_discard_claims == "win_only":
                return [Violation("CLAIM_ON_LAST_DISCARD", f"seat {event.seat} claimed the last discard "
                                  "(only 胡 is allowed on it)", "win", t.__name__)]
            if t is ev.KongExposed:
                return [Violation("KONG_WITHOUT_REPLACEMENT", "a kong with no drawable tile left for its replacement",
                                  ">= 1 drawable tile", 0)]
        return []
    if t in (ev.KongAdded, ev.KongConcealed) and drawable(ruleset, table) <= 0:
        return [Violation("KONG_WITHOUT_REPLACEMENT", "a kong with no drawable tile left for its replacement",
                          ">= 1 drawable tile", 0)]
    return []


def _winds(table, e: ev.HandStarted) -> list[Violation]:
    out = []
    want = ev.WINDS[round_wind(table.dealer_changes)]
    if e.round_wind is not ev.UNSET and e.round_wind != want:
        out.append(Violation("ROUND_WIND_MISMATCH", f"hand {e.hand} is played in the {want} round "
                             f"({WIND_CHINESE[ev.WINDS.index(want)]}风圈)", want, e.round_wind))
    if e.seat_winds is not ev.UNSET:
        seats = [ev.WINDS[seat_wind(s, e.dealer)] for s in range(len(e.seat_winds))]
        if list(e.seat_winds) != seats:
            out.append(Violation("ROUND_WIND_MISMATCH", "the seat winds (门风) follow the dealer: the dealer is east",
                                 seats, list(e.seat_winds)))
    return out


def describe_tile(t: int) -> str:
    return TILE_NAMES[t]
