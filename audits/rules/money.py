"""Per-pair money the new families share (shared/design/new-families.md §1): the dealer
pair's base under 连庄 (``lianzhuang``), the dealer's bonus (``dealer_bonus``) and the cap on
what one payer pays (``payment_cap``); and :func:`no_side_bets`, the bet rule of a family
whose rooms play none.  Amounts are integers in points; B is ``ruleset.base``.

The dealer level L counts the hands the dealer has dealt in a row, this one included (1 in a
first hand): :func:`dealer_level` reads it from the table (``Table.dealer_streak`` + 1).
"""

from __future__ import annotations

from schema.ruleset import Ruleset

from .family import Violation


def dealer_level(table) -> int:
    """L: the hands in a row the current dealer has dealt, this one included."""
    return table.dealer_streak + 1


def pair_base(ruleset: Ruleset, level: int, dealer_pair: bool) -> int:
    """The base B' of one winner–payer pair: B between two non-dealers; for a pair with the
    dealer at level L, by ``lianzhuang``: B (``none``), B + L − 1 (``add``), B·L
    (``multiply``), 2L·B (``jinjie1``), 2^L·B (``jinjie2``)."""
    b = ruleset.base
    if not dealer_pair:
        return b
    mode = ruleset.lianzhuang
    if mode == "add":
        return b + level - 1
    if mode == "multiply":
        return b * level
    if mode == "jinjie1":
        return 2 * level * b
    if mode == "jinjie2":
        return 2 ** level * b
    return b


def with_dealer_bonus(ruleset: Ruleset, amount: int, dealer_pair: bool, units: int = 1) -> int:
    """A dealer pair's amount with the dealer's bonus (``dealer_bonus``): unchanged
    (``none``, or no dealer in the pair), one more B (``plus_one``), one B per unit the
    amount counts (``per_unit``; the family counts ``units``), or doubled (``double``)."""
    mode = ruleset.dealer_bonus
    if not dealer_pair or mode == "none":
        return amount
    if mode == "plus_one":
        return amount + ruleset.base
    if mode == "per_unit":
        return amount + units * ruleset.base
    return 2 * amount


def capped(ruleset: Ruleset, amount: int) -> int:
    """What one payer pays one winner at most: ``payment_cap`` × B (0: no cap)."""
    cap = ruleset.payment_cap
    return min(amount, cap * ruleset.base) if cap else amount


__all__ = ["capped", "dealer_level", "no_side_bets", "pair_base", "with_dealer_bonus"]


def no_side_bets(ruleset: Ruleset, bet: int, placed_before: bool, dealt: bool) -> Violation:
    """``SettlementRules.check_bet`` of a family whose rooms play no side bet (no 养猪, 下嘴 or
    买底): every PigBetPlaced is YANGZHU_BET_INVALID."""
    return Violation("YANGZHU_BET_INVALID", f"a {ruleset.family} room plays no side bets", "no bet", bet)
