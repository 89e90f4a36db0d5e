"""Hainan rulesets and hands for the family's unit tests."""

from __future__ import annotations

from replay.melds import Meld
from schema import ruleset as rs
from schema.tiles import TILE_INDEX, parse_hand

from audits.rules.family import WinContext
from audits.rules.hainan import fans


def rules(**opts):
    """The ``hainan`` preset with ``opts``."""
    return rs.resolve("hainan", opts)


def tiles(text: str) -> list[int]:
    return parse_hand(text.replace(" ", ""))


def chow(low: str, frm: int = 0) -> Meld:
    t = TILE_INDEX[low]
    return Meld("chow", t, (t, t + 1, t + 2), 0, frm)


def pong(tile: str, frm: int = 0) -> Meld:
    t = TILE_INDEX[tile]
    return Meld("pong", t, (t,) * 3, 0, frm)


def kong(tile: str, kind: str = "kong_concealed", frm=None) -> Meld:
    t = TILE_INDEX[tile]
    return Meld(kind, t, (t,) * 4, 0, frm)


def score(hand: str, melds=(), how: str = "discard", seat_wind: int = 2, round_wind: int = 0, flowers: str = "",
          after_kong: bool = False, after_flower: bool = False, r=None):
    """Score ``hand`` (the winning tile included) for a seat at position ``seat_wind``."""
    ctx = WinContext(how=how, seat_wind=seat_wind, round_wind=round_wind,
                     flowers=tuple(tiles(flowers)) if flowers else (), after_kong=after_kong,
                     after_flower=after_flower)
    return fans.score_hand(r or rules(), tiles(hand), list(melds), ctx)
