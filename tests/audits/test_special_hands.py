"""The shared special hands' one-short tests (audits/rules/special_hands.py), the wait entries'
superset tests of the families without wild tiles (Guangdong, Hainan)."""

from __future__ import annotations

from audits.rules.special_hands import is_shisanlan, shisanlan_one_short, shisanyao_one_short, spaced
from replay.table import KEY_STEP, SUIT_OF
from schema.tiles import counts_of, parse_hand


def _counts(text: str) -> list[int]:
    return counts_of(parse_hand(text))


def _keys(counts: list[int]) -> list[int]:
    keys = [0, 0, 0, 0]
    for k, n in enumerate(counts):
        keys[SUIT_OF[k]] += n * KEY_STEP[k]
    return keys


def test_shisanyao_one_short_holds_for_twelve_orphans_and_a_pair_or_thirteen_alone():
    thirteen = _counts("19m19p19s1234567z")
    assert shisanyao_one_short(thirteen, _keys(thirteen))
    twelve_and_pair = _counts("119m19p19s123456z")
    assert shisanyao_one_short(twelve_and_pair, _keys(twelve_and_pair))
    # near misses: a middle rank held, or only eleven orphan kinds
    middle = _counts("129m19p19s123456z")
    assert not shisanyao_one_short(middle, _keys(middle))
    eleven = _counts("1199m19p19s12345z")
    assert not shisanyao_one_short(eleven, _keys(eleven))


def test_shisanlan_one_short_needs_thirteen_kinds_each_suit_spaced_by_three():
    assert shisanlan_one_short(_counts("147m258p369s1234z"))
    assert is_shisanlan(_counts("147m258p369s12345z"))  # the tile it waits on completes it
    # near misses: two ranks of a suit two apart, or a kind twice
    assert not shisanlan_one_short(_counts("146m258p369s1234z"))
    assert not shisanlan_one_short(_counts("147m258p369s1123z"))
    assert spaced(0b1001001) and not spaced(0b101)
