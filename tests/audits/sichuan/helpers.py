"""Helpers for the Sichuan tests: hands from compact strings, melds, rulesets."""

from __future__ import annotations

from replay.melds import Meld
from schema.ruleset import resolve
from schema.tiles import counts_of, parse_hand, tile_index

SC = resolve("sichuan")
XZ = resolve("sichuan-xuezhan")


def rules(**over):
    """The ``sichuan`` preset with options overridden."""
    return resolve("sichuan", over)


def counts(text: str) -> list[int]:
    return counts_of(parse_hand(text))


def pong(t: str, frm: int = 0) -> Meld:
    k = tile_index(t)
    return Meld("pong", k, (k, k, k), 0, frm)


def kong(t: str, kind: str = "kong_concealed", frm=None) -> Meld:
    k = tile_index(t)
    return Meld(kind, k, (k,) * 4, 0, frm)


VOID = {"m": 0, "p": 1, "s": 2}
