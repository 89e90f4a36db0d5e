"""Wenzhou rulesets and tables for the family's unit tests."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Optional

import msgspec

from audits.rules.family import HandFacts, WinContext
from audits.rules.wenzhou import fans, settlement
from audits.rules.wenzhou.settlement import Facts
from replay.melds import Meld
from replay.table import KEY_STEP, SUIT_OF
from schema import ruleset as rs
from schema.tiles import TILE_INDEX as T
from schema.tiles import parse_hand


def rules(wild: Optional[str] = "1z", **opts):
    """The ``wenzhou`` preset with ``opts`` and the hand's W swapped in (as the walker plays it)."""
    return msgspec.structs.replace(rs.resolve("wenzhou", opts), wilds=(wild,) if wild else ())


def counts(text: str) -> list[int]:
    c = [0] * 34
    for t in parse_hand(text):
        c[t] += 1
    return c


def tiles(text: str) -> list[int]:
    return parse_hand(text)


def meld(kind: str, text: str, from_seat: int = -1) -> Meld:
    """A meld as the reducer keeps it (``pong`` / ``chow`` / ``kong_*``)."""
    ts = tuple(parse_hand(text))
    of = min(ts) if kind == "chow" else ts[0]
    return Meld(kind, of, ts, 0, from_seat)


def score(r, hand, how, tile, melds=(), heavenly="", after_kong=False):
    return fans.score_hand(r, tiles(hand), list(melds),
                           WinContext(how=how, win_tile=T[tile] if tile else None, heavenly=heavenly,
                                      after_kong=after_kong))


def facts(dealer, level=1, bought=None, held=(0, 0, 0, 0), kongs=((), (), (), ())):
    return HandFacts(None, None, Facts(level, list(bought) if bought is not None else None, list(held),
                                       [list(k) for k in kongs]), dealer)


def settle(r, winners, how, from_seat=None, f=None):
    return settlement.settle(r, [0, 0, 0, 0], winners, how, from_seat, f if f is not None else facts(0))


def pays(result):
    return sorted((t.payer, t.payee, t.amount, t.reason) for t in result.transfers)


def table(dealer=0, level=None, streak=0, kongs=(0, 0, 0, 0), **extra):
    """A table-like object for the rotation and the moment rules; given ``hands``, it keeps
    each seat's base-5 suit keys beside them as the reducer's table does (``Table.keys``)."""
    if "hands" in extra and "keys" not in extra:
        extra["keys"] = [suit_keys(h) for h in extra["hands"]]
    return SimpleNamespace(dealer=dealer, dealer_level=level, dealer_streak=streak, kongs=list(kongs), **extra)


def suit_keys(counts) -> list[int]:
    """The four base-5 suit keys of 34 counts, as the reducer keeps them (``replay.table.KEY_STEP``)."""
    keys = [0, 0, 0, 0]
    for k, c in enumerate(counts[:34]):
        keys[SUIT_OF[k]] += c * KEY_STEP[k]
    return keys
