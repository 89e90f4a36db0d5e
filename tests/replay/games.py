"""Small hand-built games for the schema and replay tests."""

from __future__ import annotations

import random

from schema.builder import GameBuilder
from schema.tiles import TILE_NAMES, full_set


def wall_for(seed: int) -> list[str]:
    tiles = full_set()
    random.Random(seed).shuffle(tiles)
    return [TILE_NAMES[t] for t in tiles]


def deal_from(wall: list[str], dealer: int, n: int = 4) -> tuple[list[list[str]], int]:
    """Dealer gets wall[0:14], then 13 each in seat order from the dealer's next seat."""
    hands: list[list[str]] = [[] for _ in range(n)]
    hands[dealer] = wall[0:14]
    pos = 14
    for k in range(1, n):
        hands[(dealer + k) % n] = wall[pos:pos + 13]
        pos += 13
    return hands, pos


def drawn_game(game: str = "g-drawn", seed: int = 7, reserve: int = 20, n: int = 4) -> GameBuilder:
    """A hand where every player discards what it draws until the exhaustive draw."""
    seats = ["A", "B", "C", "D"][:n]
    b = GameBuilder(game, seats=seats)
    b.open()
    wall = wall_for(seed)
    b.hand(1, dealer=0, wall=wall)
    hands, head = deal_from(wall, 0, n)
    b.deal(*hands)
    b.tail(wall[-1], wall[-2])
    b.discard(0, hands[0][-1])
    seat = 1
    undrawn = 136 - head
    while undrawn > reserve:
        tile = wall[head]
        head += 1
        undrawn -= 1
        b.draw(seat, tile)
        b.discard(seat, tile)
        seat = (seat + 1) % n
    b.exhausted(undrawn)
    b.settle([], [0] * n)
    b.close("hands_done", [0] * n)
    return b


def melds_game(game: str = "g-melds") -> GameBuilder:
    """A short hand with a pong, a concealed kong, an added kong and tail draws."""
    b = GameBuilder(game)
    b.open()                                             # 0
    b.hand(1, dealer=0)                                  # 1
    b.deal("11122233344456m", "556677889p1234z",         # 2
           "123456789s234p3z", "66778899s99p567z")
    b.tail("5z", "9m")                                   # 3
    b.discard(0, "5m")                                   # 4
    b.draw(1, "4z")                                      # 5
    b.discard(1, "9p")                                   # 6
    b.pong(3, 1, "9p", "9p9p")                           # 7
    b.discard(3, "5z")                                   # 8
    b.draw(0, "1m")                                      # 9
    b.kong_concealed(0, "1m")                            # 10
    b.draw(0, "9m", source="tail")                       # 11
    b.tail("2s")                                         # 12
    b.discard(0, "9m")                                   # 13
    b.draw(1, "3p")                                      # 14
    b.discard(1, "3p")                                   # 15
    b.draw(2, "1p")                                      # 16
    b.discard(2, "1p")                                   # 17
    b.draw(3, "9p")                                      # 18
    b.kong_added(3, "9p")                                # 19
    b.draw(3, "2s", source="tail")                       # 20
    b.tail("7p")                                         # 21
    b.discard(3, "2s")                                   # 22
    b.exhausted(90)                                      # 23
    b.settle([], [0, 0, 0, 0])                           # 24
    b.close("dissolved", [0, 0, 0, 0])                   # 25
    return b
