import pytest

from schema.tiles import (CHINESE_NAMES, TILE_NAMES, TileError, counts_of, format_hand, full_set, parse_hand,
                          tile_index, tile_name, tiles_of)


def test_34_kinds_in_canonical_order():
    assert len(TILE_NAMES) == 34
    assert TILE_NAMES[0] == "1m" and TILE_NAMES[9] == "1p" and TILE_NAMES[18] == "1s"
    assert TILE_NAMES[27:] == ("1z", "2z", "3z", "4z", "5z", "6z", "7z")


def test_parse_and_format_are_inverse_for_every_tile():
    for i in range(34):
        assert tile_index(tile_name(i)) == i
        assert parse_hand(tile_name(i)) == [i]


def test_compact_hand_round_trip():
    assert parse_hand("123m4p77z") == [0, 1, 2, 12, 33, 33]
    assert format_hand(parse_hand("77z4p321m")) == "123m4p77z"
    assert format_hand(parse_hand("1 1 1s 5z")) == "111s5z"


def test_chinese_names():
    assert CHINESE_NAMES[tile_index("1m")] == "一万"
    assert CHINESE_NAMES[tile_index("1s")] == "幺鸡"
    assert CHINESE_NAMES[tile_index("5p")] == "五筒"
    assert CHINESE_NAMES[tile_index("5z")] == "白板"
    assert CHINESE_NAMES[tile_index("7z")] == "红中"


@pytest.mark.parametrize("bad", ["0m", "8z", "m", "12", "1x", "1 2 m3"])
def test_bad_spellings_are_rejected_with_the_text(bad):
    with pytest.raises(TileError) as e:
        parse_hand(bad) if len(bad) != 2 else tile_index(bad)
    assert repr(bad.strip()) in str(e.value) or bad in str(e.value)


def test_counts_round_trip_and_full_set():
    tiles = parse_hand("112233m")
    assert tiles_of(counts_of(tiles)) == tiles
    assert len(full_set()) == 136 and counts_of(full_set()) == [4] * 34
