"""Tiles: one canonical spelling, compact hand strings, Chinese names, integer form.

Canonical spelling: ``1m``..``9m`` (万 characters), ``1p``..``9p`` (筒 dots),
``1s``..``9s`` (条 bamboo), ``1z``..``7z`` = 东 南 西 北 白 发 中, and the eight flowers
``1f``..``8f`` = 春 夏 秋 冬 梅 兰 菊 竹 (one copy each, in the 144-tile set only).

The engine works on integers 0..33: ``m`` 0-8, ``p`` 9-17, ``s`` 18-26, ``z`` 27-33; the
flowers are 34..41.  A hand is a list of 34 counts: flowers are held outside the counts
(a flower is set aside, never played).
"""

from __future__ import annotations

from typing import Iterable, Literal

SUITS = "mpsz"
#: The kinds a hand's counts hold (suits and honours; no flowers).
NUM_KINDS = 34
#: The flowers 1f..8f (春 夏 秋 冬 梅 兰 菊 竹) as integers, one copy of each in a set.
FLOWERS: tuple[int, ...] = tuple(range(NUM_KINDS, NUM_KINDS + 8))
#: Every tile integer: the 34 kinds, then the flowers.
ALL_KINDS = NUM_KINDS + len(FLOWERS)

#: Every tile spelling in integer order (the 34 kinds, then the flowers).
TILE_NAMES: tuple[str, ...] = tuple(
    f"{n}{s}" for s in SUITS for n in range(1, 10 if s != "z" else 8)
) + tuple(f"{n}f" for n in range(1, 9))

#: The msgspec-validated type of one tile in an event.
Tile = Literal[
    "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m",
    "1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p",
    "1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s",
    "1z", "2z", "3z", "4z", "5z", "6z", "7z",
    "1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f",
]

#: Spelling → integer.
TILE_INDEX: dict[str, int] = {name: i for i, name in enumerate(TILE_NAMES)}

_NUMERALS = "一二三四五六七八九"
_HONOURS = ("东风", "南风", "西风", "北风", "白板", "发财", "红中")
_SUIT_CN = {"m": "万", "p": "筒", "s": "条"}
_FLOWERS_CN = "春夏秋冬梅兰菊竹"


def _chinese(i: int) -> str:
    if i >= NUM_KINDS:
        return _FLOWERS_CN[i - NUM_KINDS]
    if i >= 27:
        return _HONOURS[i - 27]
    suit = SUITS[i // 9]
    if suit == "s" and i % 9 == 0:
        return "幺鸡"
    return _NUMERALS[i % 9] + _SUIT_CN[suit]


#: Integer → Chinese display name (一万, 幺鸡, 白板 …).
CHINESE_NAMES: tuple[str, ...] = tuple(_chinese(i) for i in range(ALL_KINDS))

EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)


class TileError(ValueError):
    """A tile or hand string that is not in canonical spelling."""


def tile_index(name: str) -> int:
    """Parse one tile spelling (``"5p"``) to its integer form."""
    try:
        return TILE_INDEX[name]
    except KeyError:
        raise TileError(f"not a tile: {name!r} (expected 1m..9m, 1p..9p, 1s..9s, 1z..7z, 1f..8f)") from None


def tile_name(i: int) -> str:
    """Format an integer tile as its canonical spelling."""
    return TILE_NAMES[i]


def suit_of(i: int) -> int:
    """0 = m, 1 = p, 2 = s, 3 = honours."""
    return i // 9


def is_honour(i: int) -> bool:
    """东 南 西 北 白 发 中 (not the flowers)."""
    return 27 <= i < NUM_KINDS


def is_flower(i: int) -> bool:
    """A flower 1f..8f (春夏秋冬梅兰菊竹): outside a hand's 34 counts."""
    return i >= NUM_KINDS


def copies_in_set(i: int) -> int:
    """How many copies of the tile a set holds: four of each kind, one of each flower."""
    return 1 if i >= NUM_KINDS else 4


def kinds_in_set(tile_count: int) -> frozenset[int]:
    """The tile integers a set of ``tile_count`` tiles holds: the 27 suited kinds (108),
    with the honours (136), with the flowers (144)."""
    return _SET_KINDS.get(tile_count, _SET_KINDS[136])


_SET_KINDS = {108: frozenset(range(27)), 136: frozenset(range(NUM_KINDS)), 144: frozenset(range(ALL_KINDS))}


def parse_hand(text: str) -> list[int]:
    """Parse a compact hand string (``"123m4p77z"``) into a sorted list of tiles.

    Digits accumulate until a suit letter closes them; spaces are ignored.
    """
    tiles: list[int] = []
    pending: list[str] = []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            pending.append(ch)
        elif ch in SUITS or ch == "f":
            if not pending:
                raise TileError(f"suit letter {ch!r} with no digits before it in {text!r}")
            for d in pending:
                tiles.append(tile_index(d + ch))
            pending = []
        else:
            raise TileError(f"unexpected character {ch!r} in hand {text!r}")
    if pending:
        raise TileError(f"digits {''.join(pending)!r} have no suit letter in {text!r}")
    tiles.sort()
    return tiles


def format_hand(tiles: Iterable[int]) -> str:
    """Format tiles as a compact hand string, sorted: ``[0,1,2,9]`` → ``"123m1p"``."""
    out: list[str] = []
    by_suit: dict[int, list[str]] = {}
    for t in sorted(tiles):
        if t >= NUM_KINDS:
            by_suit.setdefault(4, []).append(str(t - NUM_KINDS + 1))
        else:
            by_suit.setdefault(t // 9, []).append(str(t % 9 + 1))
    for s in sorted(by_suit):
        out.append("".join(by_suit[s]) + (SUITS + "f")[s])
    return "".join(out)


def counts_of(tiles: Iterable[int]) -> list[int]:
    """34 counts from a list of integer tiles."""
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return c


def tiles_of(counts: list[int]) -> list[int]:
    """Sorted integer tiles from 34 counts."""
    return [t for t in range(NUM_KINDS) for _ in range(counts[t])]


def full_set(tile_count: int = 136) -> list[int]:
    """The tiles of a set (136 without flowers; 108 suited; 144 with the flowers), in integer order."""
    return [t for t in sorted(kinds_in_set(tile_count)) for _ in range(copies_in_set(t))]
