"""The shared rule helpers of the new families (shared/design/new-families.md §1, §4 step 6):
the wild cycle and the default discard rule (audits/rules/wilds.py), one pass rule over the
``guohu`` option (passes.py) and the per-pair money options (money.py).  Each rule holds,
and a near miss fails."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from audits.rules import money, passes, wilds
from audits.rules.family import PassBook
from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX as I
from schema.tiles import TILE_NAMES as N


def room(**options) -> Ruleset:
    return Ruleset(family="toy-ground", **({"wilds": ()} | options))


# --- wilds.py ----------------------------------------------------------------------------------

@pytest.mark.parametrize("indicator, same, nxt", [
    ("4p", "4p", "5p"), ("9s", "9s", "1s"), ("9m", "9m", "1m"),
    ("1z", "1z", "2z"), ("4z", "4z", "1z"),              # 东 南 西 北 东
    ("7z", "7z", "6z"), ("6z", "6z", "5z"), ("5z", "5z", "7z"),  # 中 发 白 中
])
def test_the_default_cycles(indicator, same, nxt):
    assert N[wilds.default_wild_of(room(wild_from="same"), I[indicator])] == same
    assert N[wilds.default_wild_of(room(wild_from="next"), I[indicator])] == nxt


def test_a_family_ring_with_skipped_kinds():
    # one honour ring 东 南 西 北 中 发 白 with 中 skipped (a 痞 kind): 北 -> 发, 中 -> 发, 白 -> 东
    ring = (wilds.HONOUR_RING,)
    assert [N[wilds.next_kind(I[t], ring, skip=(I["7z"],))] for t in ("4z", "7z", "6z", "5z")] == \
        ["6z", "6z", "5z", "1z"]
    # near miss: without the skip, 北 -> 中
    assert N[wilds.next_kind(I["4z"], ring)] == "7z"


def test_the_hand_rules_swap_the_wild_only():
    r = room(wild_from="next", wild_discard="dead")
    hand = wilds.hand_rules(r, "5p")
    assert hand.wilds == ("5p",) and hand.wild_discard == "dead" and hand.family == r.family
    assert wilds.hand_rules(r, "5p") is hand and wilds.hand_rules(r, "6p") is not hand


def test_the_default_discard_rule():
    table = None
    plain = room(wilds=("5p",), wild_discard="plain")
    dead = room(wilds=("5p",), wild_discard="dead")
    forbidden = room(wilds=("5p",), wild_discard="forbidden")
    assert wilds.default_discard_rule(plain, table, 0, I["5p"])[:2] == (False, None)
    assert wilds.default_discard_rule(dead, table, 0, I["5p"])[:2] == (True, None)
    verdict = wilds.default_discard_rule(forbidden, table, 0, I["5p"])
    assert verdict.dead and verdict.violation.code == "SPECIAL_TILE_DISCARDED"
    # near miss: a tile that is no wild is plain under every mode
    assert all(wilds.default_discard_rule(r, table, 0, I["6p"])[:2] == (False, None) for r in (dead, forbidden))


# --- passes.py ---------------------------------------------------------------------------------

def book_with(passed: list[int], rob: int = -1) -> PassBook:
    book = PassBook(4, ())
    for t in passed:
        book.let_go(1, "win", t)
    if rob >= 0:
        book.let_rob_go(1, rob)
    return book


def legal(seat, tile, kd):
    return True


def never(seat, tile, kd):
    return False


@pytest.mark.parametrize("guohu, tile, want", [
    (None, I["3p"], None), ("off", I["3p"], None),
    ("same_tile", I["3p"], "WIN_DURING_LOUHE"), ("same_tile", I["4p"], None),
    ("any_discard", I["4p"], "WIN_DURING_GUOHU"),
])
def test_guohu_bars_by_the_option(guohu, tile, want):
    r = room(guohu=guohu) if guohu else room()
    assert passes.pass_violation(book_with([I["3p"]]), 1, "win", tile, legal, rules=r) == want


def test_guohu_counts_legal_passes_only_and_bars_no_pong():
    r = room(guohu="any_discard")
    assert passes.pass_violation(book_with([I["3p"]]), 1, "win", I["4p"], never, rules=r) is None
    assert passes.pass_violation(book_with([I["3p"]]), 1, "pong", I["3p"], legal, rules=r) is None
    # a robbing let go bars under any_discard, and the robbed kind under same_tile
    assert passes.pass_violation(book_with([], rob=I["5s"]), 1, "win", I["4p"], legal, rules=r) == "WIN_DURING_GUOHU"
    same = room(guohu="same_tile")
    assert passes.pass_violation(book_with([], rob=I["5s"]), 1, "win", I["5s"], legal, rules=same) == "WIN_DURING_LOUHE"
    assert passes.pass_violation(book_with([], rob=I["5s"]), 1, "win", I["4p"], legal, rules=same) is None


def test_guohu_higher_value_allows_only_a_better_win():
    r = room(guohu="higher_value")
    values = {I["3p"]: 2, I["4p"]: 3, I["5p"]: 2}

    def value(seat, tile, kd):
        return values[tile]
    book = book_with([I["3p"]])
    assert passes.pass_violation(book, 1, "win", I["4p"], legal, value=value, rules=r) is None
    assert passes.pass_violation(book, 1, "win", I["5p"], legal, value=value, rules=r) == "WIN_DURING_GUOSHUI"
    assert passes.pass_violation(book, 1, "win", I["3p"], legal, value=value, rules=r) == "WIN_DURING_GUOSHUI"
    # after the seat's own draw its passes end
    book.clear(1)
    assert passes.pass_violation(book, 1, "win", I["5p"], legal, value=value, rules=r) is None


# --- money.py ----------------------------------------------------------------------------------

@pytest.mark.parametrize("mode, bases", [
    ("none", [2, 2, 2, 2]), ("add", [2, 3, 4, 5]), ("multiply", [2, 4, 6, 8]),
    ("jinjie1", [4, 8, 12, 16]), ("jinjie2", [4, 8, 16, 32]),
])
def test_lianzhuang_dealer_pair_bases(mode, bases):
    r = room(base=2, lianzhuang=mode)
    assert [money.pair_base(r, level, True) for level in (1, 2, 3, 4)] == bases
    # near miss: two non-dealers pay on B whatever the level
    assert {money.pair_base(r, level, False) for level in (1, 2, 3, 4)} == {2}


def test_the_dealer_level_is_the_streak_and_this_hand():
    assert money.dealer_level(SimpleNamespace(dealer_streak=0)) == 1
    assert money.dealer_level(SimpleNamespace(dealer_streak=2)) == 3


@pytest.mark.parametrize("mode, want", [("none", 6), ("plus_one", 8), ("per_unit", 12), ("double", 12)])
def test_dealer_bonus(mode, want):
    r = room(base=2, dealer_bonus=mode)
    assert money.with_dealer_bonus(r, 6, True, units=3) == want
    assert money.with_dealer_bonus(r, 6, False, units=3) == 6


def test_payment_cap_in_units_of_base():
    assert money.capped(room(base=2, payment_cap=5), 14) == 10
    assert money.capped(room(base=2, payment_cap=5), 8) == 8
    assert money.capped(room(base=2), 1000) == 1000  # 0: no cap
