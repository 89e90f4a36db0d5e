"""The 配子 of a turned indicator and 白板 standing in (xuzhou.md §3, worked example 1)."""

import pytest

from audits.rules import wilds
from audits.rules.xuzhou import pei
from schema.tiles import TILE_INDEX as T
from schema.tiles import TILE_NAMES

from .helpers import counts, rules


@pytest.mark.parametrize("indicator, wild", [("4p", "5p"), ("9s", "1s"), ("4z", "1z"), ("5z", "7z"),
                                             ("7z", "6z"), ("6z", "5z"), ("1m", "2m"), ("1z", "2z")])
def test_next_cycle(indicator, wild):
    # example 1: 4p → 5p; 9s → 1s; 北 → 东; 白 → 中; 中 → 发; 发 → 白
    assert TILE_NAMES[pei.wild_of(rules(None), T[indicator])] == wild
    assert TILE_NAMES[pei.indicator_of(rules(None), T[wild])] == indicator


def test_same_is_the_indicator():
    r = rules(None, wild_from="same")
    assert pei.wild_of(r, T["4p"]) == T["4p"]
    # near miss: under next the same indicator gives the kind after it
    assert pei.wild_of(rules(None), T["4p"]) != T["4p"]


def test_cycle_is_one_to_one():
    assert sorted(pei.next_kind(k) for k in range(34)) == list(range(34))
    assert all(pei.previous_kind(pei.next_kind(k)) == k for k in range(34))


def test_white_folds_into_w_while_it_stands_in():
    r = rules("5p")
    naturals, w = pei.split(r, counts("4p 5z 5p 5p"))
    assert w == 2 and naturals[T["5p"]] == 1 and naturals[T["5z"]] == 0
    # near miss: W = 白板 (indicator 发): 白板 are the 配子 themselves, nothing folds
    naturals, w = pei.split(rules("5z"), counts("4p 5z 5p 5p"))
    assert w == 1 and naturals[T["5p"]] == 2


def test_use_counts_the_indicator_and_closes_white():
    r = rules("5p")  # indicator 4p
    use = pei.use_of(r, ())
    assert use[T["4p"]] == 1 and use[T["5z"]] == 4 and use[T["5p"]] == 0
    # a 白板 indicator counts for 白板, not for W (W = 中)
    use = pei.use_of(rules("7z"), ())
    assert use[T["7z"]] == 0 and use[T["5z"]] == 4
    # under same the indicator is a W tile and counts for W
    assert pei.use_of(rules("7z", wild_from="same"), ())[T["7z"]] == 1


def test_shared_fold_helpers():
    assert wilds.fold_stand_in(counts("5z 5z 1m"), T["5p"], T["5z"])[T["5p"]] == 2
    assert wilds.fold_stand_in(counts("5z 5z 1m"), T["5z"], T["5z"])[T["5z"]] == 2
    assert wilds.fold_tiles([T["5z"], T["1m"]], T["3s"], T["5z"]) == [T["3s"], T["1m"]]
    assert not wilds.stand_in_active(None, T["5z"])
