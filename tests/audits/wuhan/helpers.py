"""Shared builders for the Wuhan tests: a hand's ruleset with its 癞子, melds, contexts."""

from __future__ import annotations

import msgspec

from audits.rules.wuhan.fans import WuhanContext, score_hand
from audits.rules.wuhan.money import SeatFan
from replay.melds import Meld
from schema.ruleset import resolve
from schema.tiles import TILE_INDEX as T, parse_hand


def rules(wild: str, **options):
    """The wuhan-hzlzg room with ``options``, played with ``wild`` as the hand's 癞子."""
    return msgspec.structs.replace(resolve("wuhan-hzlzg", options), wilds=(wild,))


def pong(tile: str, frm) -> Meld:
    return Meld("pong", T[tile], (T[tile],) * 3, 0, frm)


def chow(low: str, frm) -> Meld:
    k = T[low]
    return Meld("chow", k, (k, k + 1, k + 2), 0, frm)


def kong(tile: str, frm=None, kind: str = "kong_exposed") -> Meld:
    return Meld(kind, T[tile], (T[tile],) * 4, 0, frm)


def fans(*seats) -> tuple:
    """SeatFan per seat from (calls, 明杠, 暗杠, 红中杠, 癞子杠) tuples."""
    return tuple(SeatFan(*s) for s in seats)


def score(wild: str, hand: str, melds, *, how: str, win: str, seat: int, dealer: int, seat_fans,
          from_seat=None, indicator=None, options=None, **ctx):
    ctx_ = WuhanContext(how=how, win_tile=T[win], seat=seat, from_seat=from_seat, dealer=dealer,
                        indicator=T[indicator] if indicator else None, seat_fans=seat_fans, **ctx)
    return score_hand(rules(wild, **(options or {})), parse_hand(hand), melds, ctx_)


def paid(sc) -> dict:
    """{payer: amount} of a score."""
    return {x.seat: x.amount for x in sc.shares}
