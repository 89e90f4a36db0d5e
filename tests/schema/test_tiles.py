import pytest

from schema.tiles import (CHINESE_NAMES, FLOWERS, NUM_KINDS, TILE_NAMES, TileError, copies_in_set, counts_of,
                          format_hand, full_set, is_flower, is_honour, kinds_in_set, parse_hand, tile_index,
                          tile_name, tiles_of)


def test_34_kinds_in_canonical_order_then_the_flowers():
    assert NUM_KINDS == 34 and len(TILE_NAMES) == 42
    assert TILE_NAMES[0] == "1m" and TILE_NAMES[9] == "1p" and TILE_NAMES[18] == "1s"
    assert TILE_NAMES[27:34] == ("1z", "2z", "3z", "4z", "5z", "6z", "7z")
    assert TILE_NAMES[34:] == ("1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f")


def test_flowers_are_34_to_41_outside_the_counts():
    assert FLOWERS == tuple(range(34, 42))
    assert [is_flower(t) for t in (33, 34, 41)] == [False, True, True]
    assert not is_honour(34) and is_honour(33)
    assert "".join(CHINESE_NAMES[t] for t in FLOWERS) == "春夏秋冬梅兰菊竹"
    assert (copies_in_set(34), copies_in_set(33)) == (1, 4)


def test_flowers_parse_and_format():
    assert parse_hand("18f5z1m") == [0, 31, 34, 41]
    assert format_hand([41, 34, 0, 31]) == "1m5z18f"
    assert tile_index("8f") == 41 and tile_name(34) == "1f"
    with pytest.raises(TileError, match="1f..8f"):
        tile_index("9f")
    with pytest.raises(TileError):
        parse_hand("0f")


@pytest.mark.parametrize("count, kinds", [(108, 27), (136, 34), (144, 42)])
def test_each_set_size_has_its_tiles(count, kinds):
    assert len(kinds_in_set(count)) == kinds
    tiles = full_set(count)
    assert len(tiles) == count and sorted(set(tiles)) == sorted(kinds_in_set(count))


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
