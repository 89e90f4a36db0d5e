"""The worked examples of changsha.md §13 as Changsha rooms, with the text's money.

Each function returns the closed room (:class:`~schema.builder.GameBuilder`) with the names,
points and transfers typed in from the rules text, never computed by paipu: a clean audit
of these rooms checks paipu against the text.  Defaults: B = 1, the dealer seat 0, two
birds from the head, 加倍, ``dealer_bonus = plus_one``.
"""

from __future__ import annotations

from typing import Callable

from schema.builder import GameBuilder

from .scenes import ChangshaScene, reopened, repaid  # noqa: F401


def ex01_small_discard_win(pair: str = "55s") -> GameBuilder:
    """§13.1 小胡 on a discard: seat 2 (123m 456m 789p 34s + ``pair``) wins seat 1's 2s;
    birds 7m 4p from seat 2 hit seats 0 and 1: 1 → 2: 2 (win 1, bird 1)."""
    s = ChangshaScene("cs-ex01")
    s.hand(0, {2: f"123m 456m 789p 34s {pair}"}, reserve="2s 7m 4p", avoid="2s 5s 3s")
    s.discard(0)
    s.draw(1, "2s")
    s.discard(1, "2s")
    s.win([(2, ["jihu"], 0, 1)], "discard", "2s", from_seat=1)
    s.birds("7m 4p", 2)
    s.settle([(1, 2, 1, "win"), (1, 2, 1, "bird")])
    return s.close()


def ex02_dealer_self_draw(mode: str = "add_multiple") -> GameBuilder:
    """§13.2 the dealer's small self-draw: 234m 567m 345p 678s 8s draws 8s; birds 5p 3s from
    seat 0 hit seats 0 and 2.  Money per ``bird_mode``."""
    money = {"add_multiple": (5, 7, 5), "double": (5, 9, 5), "plus_point": (4, 5, 4)}[mode]
    s = ChangshaScene(f"cs-ex02-{mode}", {"bird_mode": mode})
    s.hand(0, {0: "234m 567m 345p 678s 8s 9m"}, reserve="8s 5p 3s", avoid="8s")
    s.discard(0, "9m")
    s.go_around(1, 3)
    s.draw(0, "8s")
    s.win([(0, ["jihu"], 0, 2)], "self_draw", "8s")
    s.birds("5p 3s", 0)
    s.settle([(p, 0, a, "win") for p, a in zip((1, 2, 3), money)])
    return s.close()


def ex10_classic_sheet() -> GameBuilder:
    """§13.10 the classic sheet's example: seat 0 declares 六六顺 (333p 777p), later wins seat
    2's 9p with 11p 22p 33p 55p 66p 77p 9p (七小对 + 清一色, U = 2, H = 12); birds 4s 7m from
    seat 0: 2 → 0: 29, 3 → 0: 5, 1 → 0: 3."""
    s = ChangshaScene("cs-ex10")
    s.hand(0, {0: "333p 777p 11p 22p 55p 66p", 2: "9p"}, reserve="9p 4s 7m", avoid="1p 2p 3p 5p 6p 7p 9p")
    s.opening(0, ["qs_liuliushun"], "333p 777p")
    s.discard(0, "3p")
    s.go_around(1, 3)
    s.draw(0, "9p")
    s.discard(0, "7p")
    s.pass_turn(1)
    s.draw(2)
    s.discard(2, "9p")
    s.win([(0, ["qidui", "qingyise"], 2, 12)], "discard", "9p", from_seat=2)
    s.birds("4s 7m", 0)
    s.settle([(2, 0, 2, "qishou"), (2, 0, 12, "win"), (2, 0, 14, "bird"), (2, 0, 1, "dealer"),
              (3, 0, 2, "qishou"), (3, 0, 2, "bird"), (3, 0, 1, "dealer"),
              (1, 0, 2, "qishou"), (1, 0, 1, "dealer")])
    return s.close()


EXAMPLES: dict[str, Callable[[], GameBuilder]] = {
    "ex01_small_discard_win": ex01_small_discard_win,
    "ex02_dealer_self_draw": ex02_dealer_self_draw,
    "ex10_classic_sheet": ex10_classic_sheet,
}
OPTION_ROOMS: dict[str, Callable[[], GameBuilder]] = {
    "ex02_bird_mode_double": lambda: ex02_dealer_self_draw("double"),
    "ex02_bird_mode_plus_point": lambda: ex02_dealer_self_draw("plus_point"),
}


def nm_pair_not_258() -> GameBuilder:
    """§13.1's near miss: the pair 33s: the only reading has a non-将 pair."""
    return ex01_small_discard_win("33s")


def nm_birds_left_out() -> GameBuilder:
    """§13.10 paid without the birds: 2 → 0: 15, 3 → 0: 3, 1 → 0: 3."""
    return repaid(ex10_classic_sheet(), [(2, 0, 15, "win"), (3, 0, 3, "win"), (1, 0, 3, "win")])


def nm_opening_base_left_out() -> GameBuilder:
    """§13.10 paid without the 六六顺 base: 2 → 0: 12 × 2 + 1 = 25 (seats 3 and 1 owe nothing:
    a pair with A = 0 pays no bird and no dealer bonus)."""
    return repaid(ex10_classic_sheet(), [(2, 0, 25, "win")])


def nm_opening_not_held() -> GameBuilder:
    """§13.10 with 四喜 declared instead: no kind is held four times (QISHOU_INVALID); the
    money as logged pays the base, so the pairs are off by it too."""
    b = ex10_classic_sheet()
    import msgspec
    from schema import events as ev
    b.events = [msgspec.structs.replace(e, names=["qs_sixi"]) if type(e) is ev.OpeningWinDeclared else e
                for e in b.events]
    return b


NEAR_MISSES: dict[str, tuple[Callable[[], GameBuilder], list[str]]] = {
    "nm_pair_not_258": (nm_pair_not_258, ["WIN_PAIR_NOT_258"]),
    "nm_birds_left_out": (nm_birds_left_out, ["BIRD_MISMATCH"]),
    "nm_opening_base_left_out": (nm_opening_base_left_out, ["QISHOU_PAYMENT_MISMATCH"]),
    "nm_opening_not_held": (nm_opening_not_held, ["QISHOU_INVALID", "QISHOU_PAYMENT_MISMATCH"]),
}
