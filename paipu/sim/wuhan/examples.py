"""The worked examples of wuhan.md §12 as Wuhan rooms, with the text's money.

Each function returns the closed room (:class:`~schema.builder.GameBuilder`) with the names,
fan, H, each payer's share and the transfers typed in from the rules text, never computed
by paipu: a clean audit of these rooms checks paipu against the text.  ``EXAMPLES`` (clean),
``OPTION_ROOMS`` (an option value that changes the money) and ``NEAR_MISSES`` (one finding
each) are what ``sample_logs/wuhan`` writes and the tests audit.  B = 1, 开口番 and the
defaults unless stated.
"""

from __future__ import annotations

from typing import Callable

from schema.builder import GameBuilder

from .scenes import WuhanScene


def ex02_pihu_discard(options: dict | None = None, game: str = "wh-ex02") -> GameBuilder:
    """§12.2: indicator 4p (W 5p), dealer 0.  Seat 2 pongs 7s from seat 0; seat 3 chows 789p
    from seat 2 and lays a 红中杠; seat 1 pongs 东 from seat 0 and throws 5s; seat 2 wins a soft
    屁胡 (123m 456m 345s with the 5p as 5s... pair 8m + 5p): 8 + 4 + 8 = 20."""
    opts = options or {}
    s = WuhanScene(game, opts)
    s.hand(0, {0: "7s 1z", 1: "1z 1z 5s", 2: "123m 456m 34s 8m 5p 77s 9p", 3: "78p 7z"}, indicator="4p",
           avoid="6s 9s 2s 8m 5s 9p 6p 7p 2m 5m 3s 4s 1z")
    s.discard(0, "7s")
    s.pong(2, 0, "7s")
    s.discard(2, "9p")
    s.chow(3, 2, "9p", "78p")
    s.set_aside(3, "7z")
    s.discard(3)
    s.draw(0)
    s.discard(0, "1z")
    s.pong(1, 0, "1z")
    s.discard(1, "5s")
    if opts.get("discard_payers") == "discarder":
        s.win([(2, ["jihu"], 1, 1, [(1, 2, 8, 8)])], "discard", "5s", from_seat=1)
        s.settle([(1, 2, 8, "win")])
    else:
        s.win([(2, ["jihu"], 1, 1, [(3, 2, 8, 8), (0, 1, 4, 4), (1, 2, 8, 8)])], "discard", "5s", from_seat=1)
        s.settle([(3, 2, 8, "win"), (0, 2, 4, "win"), (1, 2, 8, "win")])
    return s.close()


def ex04_qingyise_self_draw(koukou: bool = False) -> GameBuilder:
    """§12.4: W 5p, dealer 0.  Seat 1 pongs 3m and chows 789m from seat 0 (its 上家); seat 0
    pongs 南 from seat 2; seat 2 lays a 癞子杠; seat 1 draws 4m: a soft 清一色 by self-draw,
    H 10, ×1.5: 60 + 120 + 30 = 210 (口口番: 160 + 300 + 80 = 540)."""
    s = WuhanScene("wh-ex04b" if koukou else "wh-ex04", {"fan_mode": "koukou"} if koukou else None)
    s.hand(0, {0: "3m 9m 2z 2z", 1: "123m 55m 6m 5p 33m 78m", 2: "2z 5p", 3: ""}, indicator="4p", reserve="4m",
           avoid="4m 7m 1m 2m 3m 5m 6m 8m 9m 2z")
    s.discard(0, "3m")
    s.pong(1, 0, "3m")
    s.discard(1)
    s.draw(2)
    s.discard(2, "2z")
    s.pong(0, 2, "2z")
    s.discard(0, "9m")
    s.chow(1, 0, "9m", "78m")
    s.discard(1)
    s.draw(2)
    s.set_aside(2, "5p")
    s.discard(2)
    s.draw(3)
    s.discard(3)
    s.draw(0)
    s.discard(0)
    s.draw(1, "4m")
    if koukou:
        s.win([(1, ["qingyise"], 3, 10, [(2, 4, 320, 300), (3, 0, 80, 80), (0, 1, 160, 160)])], "self_draw", "4m")
        s.settle([(2, 1, 300, "win"), (3, 1, 80, "win"), (0, 1, 160, "win")])
    else:
        s.win([(1, ["qingyise"], 1, 10, [(2, 2, 120, 120), (3, 0, 30, 30), (0, 1, 60, 60)])], "self_draw", "4m")
        s.settle([(2, 1, 120, "win"), (3, 1, 30, "win"), (0, 1, 60, "win")])
    return s.close()


EXAMPLES: dict[str, Callable[[], GameBuilder]] = {
    "ex02_pihu_discard": ex02_pihu_discard,
    "ex04_qingyise_self_draw": ex04_qingyise_self_draw,
}
OPTION_ROOMS: dict[str, Callable[[], GameBuilder]] = {
    "ex02_discarder_pays": lambda: ex02_pihu_discard({"discard_payers": "discarder"}, "wh-ex02b"),
    "ex04_koukou": lambda: ex04_qingyise_self_draw(True),
}
NEAR_MISSES: dict[str, tuple[Callable[[], GameBuilder], list[str]]] = {}
