"""Hainan at the table (hainan.md §2–§4, §11): flowers (补花), the end of the wall, the 令 and
seat winds, the win context, and the family's own checks of rare events.

* **Flowers**: a flower is never discarded, claimed, melded or in a win; a seat holding one
  sets it aside before its next action (FLOWER_NOT_SET_ASIDE); only a flower is set aside,
  held, on one's own turn or in the opening 补花 (SET_ASIDE_INVALID); the opening goes in
  turn from the dealer, by seat or by round (OPENING_BUHUA_ORDER); each set-aside is
  replaced from the tail (the walker's KONG_REPLACEMENT_NOT_FROM_TAIL).
* **The wall**: ordinary draws stop at R = ``draw_reserve`` (黄庄, the walker's
  EXHAUSTIVE_DRAW_*); replacements go on below it while a tile is undrawn, so a kong needs
  R ≥ 1 (KONG_WITHOUT_REPLACEMENT); the discard after the last ordinary draw is only won
  on under ``last_discard_claims = win_only`` (CLAIM_ON_LAST_DISCARD).
* **Winds**: the seat wind by position from the dealer, the 令 wind by the passes of the
  deal (Guangdong's 圈风 count, reused): ROUND_WIND_MISMATCH when logged otherwise.
"""

from __future__ import annotations

from typing import Optional

from schema import events as ev
from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX

from ..family import Violation, WinContext
from ..guangdong import table as guangdong_table

FLOWER_KINDS = range(34, 42)


def tail_pool(ruleset: Ruleset) -> int:
    """No face-up tail: a replacement is the wall's last undrawn tile (§2.1)."""
    return 0


def replacement_source(ruleset: Ruleset) -> str:
    """Every replacement (补花 or kong) is logged as a ``tail`` draw (§11)."""
    return "tail"


def remaining(ruleset: Ruleset, undrawn: int, face_up: int) -> int:
    """R: every undrawn tile, head and tail together."""
    return undrawn


def reserve(ruleset: Ruleset, kongs: int) -> int:
    """黄庄 once an ordinary draw is due at R <= ``draw_reserve`` (七墩半: 15)."""
    return ruleset.draw_reserve


def win_context(ruleset: Ruleset, table, seat: int, how: str, tile: Optional[int], after_kong: bool,
                kong_discard: bool, winners: int = 1) -> WinContext:
    """The winner's position (seat wind), the 令 wind and its flowers set aside (§3, §6); a
    dealer's self-draw before any discard or meld is a 天胡 (``heavenly``), which this preset
    scores as an ordinary self-draw (§8): its opening 补花 is no in-play 补花 (§9.1.1)."""
    got = table.set_aside[seat] if 0 <= seat < len(table.set_aside) else ()
    tianhu = how == "self_draw" and seat == table.dealer and in_opening(table)
    return WinContext(how=how, win_tile=tile, after_kong=after_kong, kong_discard=kong_discard,
                      seat_wind=guangdong_table.seat_wind(seat, table.dealer),
                      round_wind=guangdong_table.round_wind(table.dealer_changes),
                      heavenly="tianhe" if tianhu else "",
                      flowers=tuple(f for f in got if f >= 34), winners=winners)


def in_opening(table) -> bool:
    """The opening 补花: after the deal, before any discard or meld."""
    return not any(table.discards) and not any(table.melds)


def _flower_kept(table, seat: int, what: str) -> list[Violation]:
    """A seat acting while it holds a flower it has not set aside."""
    if 0 <= seat < len(table.flowers_held) and table.flowers_held[seat]:
        return [Violation("FLOWER_NOT_SET_ASIDE", f"seat {seat} {what} while holding a flower it did not set aside",
                          "TileSetAside", what)]
    return []


def _opening_missed(table, seat: int) -> list[Violation]:
    """The dealer's first action: every seat has set its dealt flowers aside (opening 补花)."""
    if not in_opening(table):
        return []
    return [Violation("FLOWER_NOT_SET_ASIDE", f"seat {s} kept a dealt flower past the opening 补花",
                      "TileSetAside before the dealer's first action", "kept")
            for s in range(len(table.flowers_held)) if s != seat and table.flowers_held[s]]


def opening_seat(ruleset: Ruleset, table) -> Optional[int]:
    """The seat whose opening 补花 is due (§2.2), or None when no seat holds a flower: the seats
    in turn from the dealer — ``by_seat``: every flower of a seat, a replacement flower too,
    before the next seat begins (the first seat from the dealer still holding one);
    ``by_round``: one flower per seat per round (of the seats still holding one, the first from
    the dealer among those that have set aside the fewest so far in this opening)."""
    n = len(table.flowers_held)
    holders = [(table.dealer + k) % n for k in range(n) if table.flowers_held[(table.dealer + k) % n]]
    if not holders:
        return None
    if ruleset.opening_buhua != "by_round":
        return holders[0]
    fewest = min(len(table.set_aside[s]) for s in holders)
    return next(s for s in holders if len(table.set_aside[s]) == fewest)


def _opening_order(ruleset: Ruleset, table, e: ev.TileSetAside) -> list[Violation]:
    """The opening 补花 goes in the seat order §2.2 prescribes (OPENING_BUHUA_ORDER)."""
    due = opening_seat(ruleset, table)
    if due is None or due == e.seat:
        return []
    how = "every flower of a seat before the next" if ruleset.opening_buhua != "by_round" else \
        "one flower per seat per round"
    return [Violation("OPENING_BUHUA_ORDER", f"seat {e.seat} sets {e.tile} aside in the opening 补花 before "
                      f"seat {due} ({how}, in turn from the dealer, seat {table.dealer})", due, e.seat)]


def _set_aside(ruleset: Ruleset, table, e: ev.TileSetAside) -> list[Violation]:
    """Only a flower, held, on one's own turn or in the opening (SET_ASIDE_INVALID), and the
    opening's flowers in seat order (OPENING_BUHUA_ORDER)."""
    t = TILE_INDEX.get(e.tile, -1)
    if t not in FLOWER_KINDS:
        return [Violation("SET_ASIDE_INVALID", f"{e.tile} is not a flower: only flowers are set aside (补花)",
                          "a flower", e.tile)]
    if 0 <= e.seat < len(table.flowers_held) and t not in table.flowers_held[e.seat]:
        return [Violation("SET_ASIDE_INVALID", f"seat {e.seat} sets aside {e.tile}, which it does not hold",
                          "a flower held", e.tile)]
    if in_opening(table):
        return _opening_order(ruleset, table, e)
    if e.seat != table.turn:
        return [Violation("SET_ASIDE_INVALID", f"seat {e.seat} sets a flower aside out of turn",
                          table.turn, e.seat)]
    return []


def _claimed(ruleset: Ruleset, table, event) -> list[Violation]:
    """A chow, pong or 直杠: no flower kept, the last discard only won on (``last_discard_claims
    = win_only``), and a 直杠 only while a replacement is left."""
    out = _flower_kept(table, event.seat, "claims a discard")
    if table.undrawn <= ruleset.draw_reserve and ruleset.last_discard_claims == "win_only":
        out.append(Violation("CLAIM_ON_LAST_DISCARD", f"seat {event.seat} claimed the last discard "
                             "(only 胡 is allowed on it)", "win", type(event).__name__))
    elif type(event) is ev.KongExposed:
        out += _no_replacement(table)
    return out


def _kong_from_hand(ruleset: Ruleset, table, event) -> list[Violation]:
    """A 补杠 or 暗杠: no flower kept (the dealer's first action: none left in any hand), and a
    replacement left."""
    return _flower_kept(table, event.seat, "declares a kong") + _opening_missed(table, event.seat) \
        + _no_replacement(table)


def _no_replacement(table) -> list[Violation]:
    """A kong needs an undrawn tile left for its replacement (R ≥ 1)."""
    if table.undrawn < 1:
        return [Violation("KONG_WITHOUT_REPLACEMENT", "a kong with no tile left for its replacement",
                          ">= 1 undrawn tile", 0)]
    return []


def _won(ruleset: Ruleset, table, event) -> list[Violation]:
    """A self-draw: the winner keeps no flower."""
    if event.how == "self_draw" and event.winners:
        return _flower_kept(table, event.winners[0].seat, "declares a win")
    return []


#: The family's checks by event type (the other types have none here).
_EVENT_CHECKS = {
    ev.HandStarted: guangdong_table.event_checks,  # the logged 令 and seat winds (Guangdong's rule)
    ev.TileSetAside: _set_aside,
    ev.Chowed: _claimed, ev.Ponged: _claimed, ev.KongExposed: _claimed,
    ev.KongAdded: _kong_from_hand, ev.KongConcealed: _kong_from_hand,
    ev.HandWon: _won,
}


def event_checks(ruleset: Ruleset, table, event) -> list[Violation]:
    """The family's rules on rare events, on the table before the event applies."""
    check = _EVENT_CHECKS.get(type(event))
    return check(ruleset, table, event) if check is not None else []


def discard_observer(handler, report):
    """The walker's discard handler with the family's flower checks in front, asked only when
    the discarder holds a flower or it is the dealer's first discard (the hot path pays two
    look-ups)."""
    def watched(ctx, e):
        t = ctx.table
        s = e.seat
        if 0 <= s < len(t.flowers_held) and (t.flowers_held[s] or (s == t.dealer and not t.discards[s])):
            report(ctx, e, observe(ctx.rules, t, e, None, ctx, False))
        handler(ctx, e)
    return watched


def observe(ruleset: Ruleset, table, event, book, ctx, after) -> list:
    """A discard (the one watched event): the discarder holds no flower, and at the dealer's
    first action every seat has set its dealt flowers aside."""
    seat = event.seat
    out = [(seat, v) for v in _flower_kept(table, seat, "discards")]
    if table.dealer == seat and not table.discards[seat] and not any(table.melds):
        out += [(None, v) for v in _opening_missed(table, seat)]
    return out


def particulars(ruleset: Ruleset) -> list[str]:
    """What the report page states as particular to a Hainan room (``RuleFamily.data``)."""
    b = ruleset.base
    gate = "有番才能胡: a discard win needs a 番 source; a self-draw needs none" if ruleset.min_fan else \
        "无番 room (min_fan 0): any complete hand may win"
    dealer = {"none": "B", "add": "B + n (连庄 n)", "multiply": "B × (n + 1)"}[ruleset.lianzhuang]
    kv = ruleset.kong_values
    return [
        f"144 tiles: 8 flowers 春夏秋冬梅兰菊竹, each set aside and replaced from the {ruleset.kong_replacement} "
        f"(补花; opening {ruleset.opening_buhua.replace('_', ' ')})",
        "seat flowers (位置花, a 番): dealer 春 梅, 下家 夏 兰, 对家 秋 菊, 上家 冬 竹",
        gate,
        f"rates r: 1 on a discard or robbing, 2 自摸, 3 杠上开花 / 花上开花; each other seat pays u × r × m, "
        f"the discarder {b} more",
        f"unit u = {b}; with the dealer {dealer}"
        + (f" + {ruleset.dealer_unit_bonus}" if ruleset.dealer_unit_bonus else "")
        + f"; hand multiplier m: {ruleset.hand_multiplier}",
        f"kong money u × {kv[0]} / {kv[1]} / {kv[2]} (直 / 补 / 暗) on won hands"
        + ("; 包杠 on the dealer's first discard" if ruleset.baogang else ""),
        "包牌: 三道" + (" / 四道" if ruleset.bao_sidao else "") + ", 无番抢杠"
        + (f", 海底 at R <= {ruleset.haidi_bao_from}" if ruleset.haidi_bao else "")
        + f"; 跟牌 {ruleset.genpai.replace('_', ' ')}; flower money {ruleset.flower_money}",
        f"黄庄 at {ruleset.draw_reserve} tiles left: no payments, the dealer deals again",
    ]


__all__ = ["discard_observer", "particulars", "event_checks", "in_opening", "observe", "opening_seat", "remaining", "replacement_source", "reserve", "tail_pool",
           "win_context"]
