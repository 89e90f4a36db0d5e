"""The rules engine facade and the registry of rule families.

Shared code (replay, audit, CLI) calls only this module.  It looks up
``ruleset.family`` in :data:`FAMILIES` and dispatches to that family's named
functions.  A new ruleset (e.g. Guangdong 鸡平和) is a new preset of data in
``schema/ruleset.py`` plus a :class:`RulesFamily` registered here with its own
scorer/settler; nothing Qujing-specific is hard-wired in the facade.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

from replay.melds import Meld
from schema.events import Transfer
from schema.ruleset import Ruleset

from . import claims, fans, hands, settlement
from .fans import Score, WinContext


@dataclass(frozen=True)
class RulesFamily:
    """The named functions one family of rules supplies."""

    name: str
    #: (naturals counts, wilds, meld_use, has_melds) -> bool
    is_winning: Callable[..., bool]
    #: (naturals counts, wilds, meld_use, has_melds) -> list of plain tiles
    waits: Callable[..., list[int]]
    #: (concealed tiles, melds, ruleset, ctx, passed_win) -> Score
    score_hand: Callable[..., Score]
    #: (ruleset, scores, winners, how, from_seat, bets, chickens) -> (transfers, scores, knocked_out)
    settle: Callable[..., tuple[list[Transfer], list[int], bool]]
    #: (dealer, winners, how, from_seat) -> seat
    next_dealer: Callable[..., int]
    #: claim name -> check function (see audits.claims)
    claim_checks: dict[str, Callable[..., Optional[str]]]


QUJING = RulesFamily(
    name="qujing",
    is_winning=hands.is_winning,
    waits=hands.waits,
    score_hand=fans.score_hand,
    settle=settlement.settle,
    next_dealer=settlement.next_dealer,
    claim_checks={
        "chow": claims.check_chow,
        "pong": claims.check_pong,
        "kong_exposed": claims.check_exposed_kong,
        "kong_added": claims.check_added_kong,
        "kong_concealed": claims.check_concealed_kong,
    },
)

#: ``Ruleset.family`` -> its functions.
FAMILIES: dict[str, RulesFamily] = {"qujing": QUJING}


def register_family(family: RulesFamily) -> None:
    """Add (or replace) a rule family."""
    FAMILIES[family.name] = family


def family_of(ruleset: Ruleset) -> RulesFamily:
    """The functions for ``ruleset.family``."""
    try:
        return FAMILIES[ruleset.family]
    except KeyError:
        raise ValueError(f"no rules engine for family {ruleset.family!r}") from None


def score(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld], ctx: WinContext,
          passed_win: bool = False) -> Score:
    """Whether ``concealed`` (physical tiles, the winning tile included) + ``melds`` wins,
    with its highest reading, fans and points."""
    return family_of(ruleset).score_hand(concealed, melds, ruleset, ctx, passed_win)


def is_winning(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld] = (),
               plain: Optional[int] = None) -> bool:
    """Fast structural check (no fan) of physical concealed tiles + melds."""
    wk = claims.wild_kinds(ruleset)
    counts, w, _ = hands.split_wilds(concealed, wk, plain)
    return family_of(ruleset).is_winning(counts, w, hands.meld_use_of(melds), bool(melds))


def waits(ruleset: Ruleset, concealed: Sequence[int], melds: Sequence[Meld] = ()) -> list[int]:
    """Plain tiles that would complete a 13-tile (3k+1) hand."""
    wk = claims.wild_kinds(ruleset)
    counts, w, _ = hands.split_wilds(concealed, wk)
    return family_of(ruleset).waits(counts, w, hands.meld_use_of(melds), bool(melds))


def settle(ruleset: Ruleset, scores: Sequence[int], winners: Sequence[tuple[int, int]] = (),
           how: Optional[str] = None, from_seat: Optional[int] = None,
           bets: Optional[Sequence[int]] = None, chickens: Optional[Sequence[int]] = None
           ) -> tuple[list[Transfer], list[int], bool]:
    """Settle one hand (see :func:`audits.settlement.settle`)."""
    return family_of(ruleset).settle(ruleset, scores, winners, how, from_seat, bets, chickens)


def next_dealer(ruleset: Ruleset, dealer: int, winners: Sequence[int], how: Optional[str] = None,
                from_seat: Optional[int] = None) -> int:
    """The next hand's dealer."""
    return family_of(ruleset).next_dealer(dealer, winners, how, from_seat)


def check_claim(ruleset: Ruleset, claim: str, *args, **kwargs) -> Optional[str]:
    """Violation code of a claim (``chow``, ``pong``, ``kong_exposed``, ``kong_added``,
    ``kong_concealed``) or None; arguments as the family's check function."""
    fn = family_of(ruleset).claim_checks.get(claim)
    if fn is None:
        return f"unknown_claim_{claim}"
    return fn(*args, ruleset=ruleset, **kwargs) if "ruleset" not in kwargs else fn(*args, **kwargs)


__all__ = [
    "RulesFamily", "FAMILIES", "QUJING", "register_family", "family_of", "score", "is_winning",
    "waits", "settle", "next_dealer", "check_claim", "WinContext", "Score",
]
