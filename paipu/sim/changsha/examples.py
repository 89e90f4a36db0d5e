"""The worked examples of changsha.md §13 as Changsha rooms, with the text's money.

Each function returns the closed room (:class:`~schema.builder.GameBuilder`) with the names,
points and transfers typed in from the rules text, never computed by paipu: a clean audit
of these rooms checks paipu against the text.  Defaults: B = 1, the dealer seat 0, two
birds from the head, 加倍, ``dealer_bonus = plus_one``.
"""

from __future__ import annotations

from typing import Callable, Optional

from schema.builder import GameBuilder

from .scenes import ChangshaScene, reopened, repaid, with_wall  # noqa: F401


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


def _room(make: Callable[[], GameBuilder], doc: str) -> Callable[[], GameBuilder]:
    """``make`` with its README line."""
    make.__doc__ = doc
    return make


EXAMPLES: dict[str, Callable[[], GameBuilder]] = {
    "ex01_small_discard_win": ex01_small_discard_win,
    "ex02_dealer_self_draw": ex02_dealer_self_draw,
    "ex10_classic_sheet": ex10_classic_sheet,
}
OPTION_ROOMS: dict[str, Callable[[], GameBuilder]] = {
    "ex02_bird_mode_double": _room(lambda: ex02_dealer_self_draw("double"),
                                   "§13.2 with bird_mode = double (翻倍): 1 → 0: 5, 2 → 0: 9, 3 → 0: 5."),
    "ex02_bird_mode_plus_point": _room(lambda: ex02_dealer_self_draw("plus_point"),
                                       "§13.2 with bird_mode = plus_point (中鸟 +1): 1 → 0: 4, 2 → 0: 5, 3 → 0: 4."),
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


def ex05_gangshang_kaihua(both: bool = False, single: bool = False) -> GameBuilder:
    """§13.5 开杠 and 杠上开花: seat 2 (5555s 234m 678p 45m 8m) draws 8m, makes a concealed
    kong of 5s in mode ``reveal``; the reveal 6m 1p (6m 3m with ``both``) completes its hand.
    Birds 2p 9s from seat 2: 0 → 2: 13, 1 → 2: 12, 3 → 2: 18 (twice as much with both
    tiles completing, unless ``single``)."""
    opts = {"shuang_gangkai": "single"} if single else {}
    s = ChangshaScene("cs-ex05" + ("-both" if both else "") + ("-single" if single else ""), opts)
    reveal = "6m 3m" if both else "6m 1p"
    s.hand(0, {2: "5555s 234m 678p 45m 8m"}, reserve=f"8m {reveal} 2p 9s", avoid="3m 6m 8m")
    s.discard(0)
    s.pass_turn(1)
    s.draw(2, "8m")
    s.kong_concealed(2, "5s")
    s.b.events[-1] = _with_mode(s.b.events[-1], "reveal")
    s.reveal(2, reveal)
    double = both and not single
    fans = ["gangshang_kaihua"] * (2 if double else 1)
    h = 12 if double else 6
    s.win([(2, fans, len(fans), h)], "self_draw", "6m")
    s.birds("2p 9s", 2)
    k = 2 if double else 1
    s.settle([(0, 2, 13 * k - (k - 1), "win"), (1, 2, 12 * k, "win"), (3, 2, 18 * k, "win")])
    return s.close()


def _with_mode(e, mode: str):
    import msgspec
    return msgspec.structs.replace(e, mode=mode)


def ex06_gangshang_pao() -> GameBuilder:
    """§13.6 a failed 开杠 and 杠上炮: seat 1 (777p 123s 456s 34m 88m) kongs seat 0's 7p in mode
    ``reveal``; the reveal 5s 8m completes nothing of seat 1's; seat 3 (234m 567m 456p 34s 88s)
    wins on 5s: 杠上炮, U = 1, H = 6.  Birds 4m 6p from seat 3: 1 → 3: 6."""
    s = ChangshaScene("cs-ex06")
    s.hand(0, {0: "7p", 1: "777p 123s 456s 34m 88m", 3: "234m 567m 456p 34s 88s"},
           reserve="5s 8m 4m 6p", avoid="2m 5m 2s 5s 7p")
    s.discard(0, "7p")
    s.kong_exposed(1, 0, "7p")
    s.b.events[-1] = _with_mode(s.b.events[-1], "reveal")
    s.reveal(1, "5s 8m")
    s.win([(3, ["gangshang_pao"], 1, 6)], "discard", "5s", from_seat=1)
    s.birds("4m 6p", 3)
    s.settle([(1, 3, 6, "win")])
    return s.close()


EXAMPLES.update({
    "ex05_gangshang_kaihua": ex05_gangshang_kaihua,
    "ex06_gangshang_pao": ex06_gangshang_pao,
})
OPTION_ROOMS.update({
    "ex05_shuang_gangkai_double": _room(lambda: ex05_gangshang_kaihua(both=True),
                                        "§13.5 with the reveal 6m 3m: both complete, 双杠开花 (U = 2): +85."),
    "ex05_shuang_gangkai_single": _room(lambda: ex05_gangshang_kaihua(both=True, single=True),
                                        "§13.5 with the reveal 6m 3m under shuang_gangkai = single: +43."),
})


def ex03_opening_wins_drawn() -> GameBuilder:
    """§13.3 opening wins, then a drawn hand: seat 3 declares 四喜 (1111m), seat 1 板板胡 (its
    whole hand, no 2 5 8).  At R = 1 the 海底 roams: seat 3, 0 and 1 decline, seat 2 takes
    it and throws it; nobody wins: 0 → 3: 3, 1 → 3: 2, 2 → 3: 2, 0 → 1: 3, 2 → 1: 2, 3 → 1: 2."""
    s = ChangshaScene("cs-ex03")
    s.hand(0, {1: "3m 4m 6m 7m 9m 1p 3p 4p 6p 7p 1s 7s 9s", 3: "1111m"})
    s.opening(3, ["qs_sixi"], "1111m")
    s.opening(1, ["qs_banban"], "3m 4m 6m 7m 9m 1p 3p 4p 6p 7p 1s 7s 9s")
    seat = s.until(s.opening_round(0), 1)
    for k in range(3):
        s.offer((seat + k) % 4, False)
    taker = (seat + 3) % 4
    s.offer(taker, True)
    t = s.draw(taker)
    s.discard(taker, t)
    s.b.exhausted(0)
    s.settle([(0, 3, 2, "qishou"), (0, 3, 1, "dealer"), (1, 3, 2, "qishou"), (2, 3, 2, "qishou"),
              (0, 1, 2, "qishou"), (0, 1, 1, "dealer"), (2, 1, 2, "qishou"), (3, 1, 2, "qishou")])
    return s.close()


def ex08_haidi_pao(missed: bool = False) -> GameBuilder:
    """§13.8 海底漫游 and 通炮 on the 海底: seat 3 declines, seat 0 takes 5p and throws it;
    seat 1 (234m 678m 345s 567s 5p) wins with 55p (海底炮, H = 6), seat 2 (11p 22p 33p 44p
    66p 77p 5p) with seven pairs all 筒 (七小对 + 清一色 + 海底炮, H = 18).  One bird, the
    海底 tile 5p, from the taker seat 0: 0 → 1: 13, 0 → 2: 37.  ``missed``: seat 2 declares
    its win but the log names seat 1 alone (birds from seat 1, 0 → 1: 13)."""
    if missed:
        s = ChangshaScene("cs-nm-haidi-missed")
        s.hand(0, {0: "5p", 1: "234m 678m 345s 567s 5p", 2: "11p 22p 33p 44p 66p 77p 5p"}, reserve="5p",
               avoid="5p")
        s.until(s.opening_round(0), 1)
        s.offer(3, False)
        s.offer(0, True)
        s.draw(0, "5p")
        s.discard(0, "5p")
        s.b.declare(2, "win")
        s.win([(1, ["haidi_pao"], 1, 6)], "discard", "5p", from_seat=0)
        s.birds("5p", 1, source="last")
        s.settle([(0, 1, 13, "win")])
        return s.close()
    s = ChangshaScene("cs-ex08")
    s.hand(0, {0: "5p", 1: "234m 678m 345s 567s 5p", 2: "11p 22p 33p 44p 66p 77p 5p"}, reserve="5p",
           avoid="5p")
    seat = s.until(s.opening_round(0), 1)
    assert seat == 3
    s.offer(3, False)
    s.offer(0, True)
    s.draw(0, "5p")
    s.discard(0, "5p")
    s.win([(1, ["haidi_pao"], 1, 6), (2, ["qidui", "qingyise", "haidi_pao"], 3, 18)], "discard", "5p",
          from_seat=0)
    s.birds("5p", 0, source="last")
    s.settle([(0, 1, 13, "win"), (0, 2, 37, "win")])
    return s.close()


EXAMPLES.update({
    "ex03_opening_wins_drawn": ex03_opening_wins_drawn,
    "ex08_haidi_pao": ex08_haidi_pao,
})


def ex04_duidui_qingyise(per_unit: bool = False) -> GameBuilder:
    """§13.4 碰碰胡 + 清一色 by self-draw: seat 1 pongs 2p (seat 0) and 7p (seat 3), holds 444p
    999p 6p and draws 6p: U = 2, H = 12.  Birds 1s 8m from seat 1 hit seats 1 and 0:
    0 → 1: 37, 2 → 1: 24, 3 → 1: 24 (``per_unit``: 0 → 1: 42)."""
    s = ChangshaScene("cs-ex04" + ("-per-unit" if per_unit else ""), {"dealer_bonus": "per_unit"} if per_unit else None)
    s.hand(0, {0: "2p", 1: "22p 77p 444p 999p 6p", 3: "7p"}, reserve="6p 1s 8m", avoid="2p 6p 7p")
    s.discard(0, "2p")
    s.pong(1, 0, "2p")
    s.discard(1)
    s.pass_turn(2)
    s.draw(3)
    s.discard(3, "7p")
    s.pong(1, 3, "7p")
    s.discard(1)
    s.go_around(2, 3)
    s.draw(1, "6p")
    s.win([(1, ["duidui", "qingyise"], 2, 12)], "self_draw", "6p")
    s.birds("1s 8m", 1)
    s.settle([(0, 1, 42 if per_unit else 37, "win"), (2, 1, 24, "win"), (3, 1, 24, "win")])
    return s.close()


def ex07_qianggang(bao: bool = False) -> GameBuilder:
    """§13.7 抢杠胡: seat 2 pongs seat 3's 2m, draws the fourth and adds it; seat 0 (13m 456p
    789p 345s 55s) robs it: U = 1, H = 6.  Birds 9m 3p from seat 0 hit seats 0 and 2:
    2 → 0: 19 (``bao``: the adder pays the three shares, 13 + 19 + 13 = 45)."""
    s = ChangshaScene("cs-ex07" + ("-bao" if bao else ""), {"qianggang_bao": True} if bao else None)
    s.hand(0, {0: "13m 456p 789p 345s 55s", 2: "22m", 3: "2m"}, reserve="2m 9m 3p", avoid="2m 5s")
    s.discard(0)
    s.go_around(1, 2)
    s.draw(3)
    s.discard(3, "2m")
    s.pong(2, 3, "2m")
    s.discard(2)
    s.go_around(3, 3)
    s.draw(2, "2m")
    s.kong_added(2, "2m")
    s.win([(0, ["qianggang"], 1, 6)], "robbed_kong", "2m", from_seat=2)
    s.birds("9m 3p", 0)
    s.settle([(2, 0, 45, "qianggang")] if bao else [(2, 0, 19, "win")])
    return s.close()


def ex09_jiangjiang() -> GameBuilder:
    """§13.9 将将胡 without a shape: seat 3 pongs 2m, 5p, 8s, holds 2s 5m 8p 8p and wins seat
    1's 2p: U = 1, H = 6.  Birds 1m 7p from seat 3 hit seats 3 and 1: 1 → 3: 18."""
    s = ChangshaScene("cs-ex09")
    s.hand(0, {0: "2m", 1: "5p", 2: "8s", 3: "22m 55p 88s 2s 5m 88p"}, reserve="2p 1m 7p",
           avoid="2m 5m 8m 2p 5p 8p 2s 5s 8s")
    s.discard(0, "2m")
    s.pong(3, 0, "2m")
    s.discard(3)
    s.pass_turn(0)
    s.draw(1)
    s.discard(1, "5p")
    s.pong(3, 1, "5p")
    s.discard(3)
    s.go_around(0, 2)
    s.draw(2)
    s.discard(2, "8s")
    s.pong(3, 2, "8s")
    s.discard(3)
    s.pass_turn(0)
    s.draw(1, "2p")
    s.discard(1, "2p")
    s.win([(3, ["jiangyise"], 1, 6)], "discard", "2p", from_seat=1)
    s.birds("1m 7p", 3)
    s.settle([(1, 3, 18, "win")])
    return s.close()


def ex11_guohu(after_own_draw: bool = False) -> GameBuilder:
    """§13.11 过胡: seat 3 (234m 567m 456p 34s 88s) lets seat 0's 2s go; seat 1 then discards
    5s and seat 3 wins on it: WIN_DURING_GUOHU.  ``after_own_draw``: seat 3 draws and throws
    first, so its win on seat 1's next 5s is legal (1 → 3: 1 + birds 1m 1m on seat 3: 3)."""
    s = ChangshaScene("cs-ex11" + ("-later" if after_own_draw else ""))
    s.hand(0, {0: "2s", 1: "5s", 3: "234m 567m 456p 34s 88s"}, reserve="1m 1m 5s", avoid="2s 5s")
    s.discard(0)
    s.go_around(1, 3)
    s.draw(0)
    s.discard(0, "2s")
    if after_own_draw:
        s.go_around(1, 3)
        s.pass_turn(0)
        s.draw(1, "5s")
        s.discard(1, "5s")
    else:
        s.draw(1)
        s.discard(1, "5s")
    s.win([(3, ["jihu"], 0, 1)], "discard", "5s", from_seat=1)
    s.birds("1m 1m", 3)
    s.settle([(1, 3, 3, "win")])
    return s.close()


EXAMPLES.update({
    "ex04_duidui_qingyise": ex04_duidui_qingyise,
    "ex07_qianggang": ex07_qianggang,
    "ex09_jiangjiang": ex09_jiangjiang,
    "ex11_guohu_after_own_draw": _room(lambda: ex11_guohu(True),
                                       "§13.11 after seat 3's own draw its win on seat 1's 5s is legal: 1 → 3: 3."),
})
OPTION_ROOMS.update({
    "ex04_dealer_bonus_per_unit": _room(lambda: ex04_duidui_qingyise(True),
                                        "§13.4 with dealer_bonus = per_unit: 0 → 1: (6 + 1) × 2 × 3 = 42."),
    "ex07_qianggang_bao": _room(lambda: ex07_qianggang(True),
                                "§13.7 with qianggang_bao (包): the adder pays the three shares, 2 → 0: 45."),
})
NEAR_MISSES["nm_guohu"] = (ex11_guohu, ["WIN_DURING_GUOHU"])


def ex06_variant(seat1: str = "777p 123s 456s 34m 88m", reveal: str = "5s 8m", locked_discard: str = "") -> GameBuilder:
    """§13.6 with changes: seat 1's hand, the revealed tiles; ``locked_discard``: nobody wins on
    the reveal (1p 9s) and seat 1 later throws a 5s: the 5s it drew (``"5s"``, legal), or the
    5s of its 456s after drawing another tile (``"held"``: KAIGANG_HAND_LOCKED); seat 3 wins on
    the 5s (small win, 1 → 3: 1, birds 1m 1m on seat 3: 3)."""
    s = ChangshaScene("cs-ex06v")
    s.hand(0, {0: "7p", 1: seat1, 3: "234m 567m 456p 34s 88s"},
           reserve=f"{reveal} 4m 6p 5s 1m 1m", avoid="2m 5m 2s 5s 7p")
    s.discard(0, "7p")
    s.kong_exposed(1, 0, "7p")
    s.b.events[-1] = _with_mode(s.b.events[-1], "reveal")
    s.reveal(1, reveal)
    if not locked_discard:
        s.win([(3, ["gangshang_pao"], 1, 6)], "discard", "5s", from_seat=1)
        s.birds("4m 6p", 3)
        s.settle([(1, 3, 6, "win")])
        return s.close()
    s.go_around(2, 3)
    s.draw(1, "5s" if locked_discard == "5s" else None)
    s.discard(1, "5s")
    s.win([(3, ["jihu"], 0, 1)], "discard", "5s", from_seat=1)
    s.birds("1m 1m", 3)
    s.settle([(1, 3, 3, "win")])
    return s.close()


def nm_wrong_bird_origin() -> GameBuilder:
    """§13.1 with the birds counted from seat 1 (the discarder) and paid so: 1 → 2: 1
    (BIRD_TILES_WRONG; the corrected ledger counts from the winner: 2)."""
    b = ex01_small_discard_win()
    import msgspec
    from schema import events as ev
    b.events = [msgspec.structs.replace(e, origin=1) if type(e) is ev.BirdsDrawn else e for e in b.events]
    return repaid(b, [(1, 2, 1, "win")])


def nm_sea_out_of_order() -> GameBuilder:
    """§13.3 with the 海底 offered first to seat 0, not to seat 3 whose draw it is."""
    b = ex03_opening_wins_drawn()
    import msgspec
    from schema import events as ev
    offers = [i for i, e in enumerate(b.events) if type(e) is ev.LastTileOffered]
    del b.events[offers[0]]  # seat 3, whose draw it is, is never offered it
    b.events = [msgspec.structs.replace(e, seq=i) for i, e in enumerate(b.events)]
    return b


EXAMPLES.update({
    "ex06_locked_discards_the_drawn_tile": _room(
        lambda: ex06_variant(reveal="1p 9s", locked_discard="5s"),
        "§13.6 with the reveal 1p 9s won by nobody: seat 1 is locked, later draws 5s and throws it; seat 3 "
        "wins on it: 1 → 3: 3."),
})
NEAR_MISSES.update({
    "nm_kaigang_not_ready": (_room(lambda: ex06_variant(seat1="777p 123s 456s 34m 89m"),
                                   "§13.6 with 89m for 88m: seat 1 is not ready after its kong, no 开杠."),
                             ["KAIGANG_NOT_READY"]),
    "nm_kaigang_three_revealed": (_room(lambda: ex06_variant(reveal="5s 8m 1p"),
                                        "§13.6 with three tiles revealed (kaigang_count = 2)."),
                                  ["KAIGANG_REVEAL_WRONG"]),
    "nm_kaigang_hand_locked": (_room(lambda: ex06_variant(reveal="1p 9s", locked_discard="held"),
                                     "§13.6, nobody wins the reveal 1p 9s; locked seat 1 later throws the 5s "
                                     "it held, not the tile it drew."),
                               ["KAIGANG_HAND_LOCKED"]),
    "nm_wrong_bird_origin": (nm_wrong_bird_origin, ["BIRD_TILES_WRONG"]),
    "nm_sea_out_of_order": (nm_sea_out_of_order, ["SEA_BOTTOM_ORDER"]),
})


def ex12_tianhe_haohua() -> GameBuilder:
    """天胡 with 豪华七小对 (§9.3): the dealer's dealt 1111p 22p 33p 55p 66p 88m win at once: 天胡 +
    七小对 + 豪华, U = 3, H = 18 from each.  Birds 3s 9m from seat 0 hit seats 2 and 0:
    1 → 0: 37, 2 → 0: 55, 3 → 0: 37."""
    s = ChangshaScene("cs-ex12")
    s.hand(0, {0: "1111p 22p 33p 55p 66p 88m"}, reserve="3s 9m")
    s.win([(0, ["tianhe", "qidui", "haohua"], 3, 18)], "self_draw", "8m")
    s.birds("3s 9m", 0)
    s.settle([(1, 0, 37, "win"), (2, 0, 55, "win"), (3, 0, 37, "win")])
    return s.close()


def ex13_dihe() -> GameBuilder:
    """地胡 (``dihe_scope = dealer_first_discard``): seat 1 (123m 456m 789p 34s 55s) wins the
    dealer's first discard 2s: U = 1, H = 6.  Birds 1m 1m from seat 1 hit it twice:
    0 → 1: 6 × 3 + 1 = 19."""
    s = ChangshaScene("cs-ex13")
    s.hand(0, {0: "2s", 1: "123m 456m 789p 34s 55s"}, reserve="1m 1m", avoid="2s 5s")
    s.discard(0, "2s")
    s.win([(1, ["dihe"], 1, 6)], "discard", "2s", from_seat=0)
    s.birds("1m 1m", 1)
    s.settle([(0, 1, 19, "win")])
    return s.close()


EXAMPLES.update({"ex12_tianhe_haohua": ex12_tianhe_haohua, "ex13_dihe": ex13_dihe})


def ex03_sea_declined_by_all() -> GameBuilder:
    """§13.3's aside: every seat declines the 海底: the hand is drawn with the tile undrawn
    (``remaining 1``) and the opening wins are paid as in §13.3; seat 3, the first offered,
    deals next."""
    s = ChangshaScene("cs-ex03-declined")
    s.hand(0, {1: "3m 4m 6m 7m 9m 1p 3p 4p 6p 7p 1s 7s 9s", 3: "1111m"})
    s.opening(3, ["qs_sixi"], "1111m")
    s.opening(1, ["qs_banban"], "3m 4m 6m 7m 9m 1p 3p 4p 6p 7p 1s 7s 9s")
    seat = s.until(s.opening_round(0), 1)
    for k in range(4):
        s.offer((seat + k) % 4, False)
    s.b.exhausted(1)
    s.settle([(0, 3, 2, "qishou"), (0, 3, 1, "dealer"), (1, 3, 2, "qishou"), (2, 3, 2, "qishou"),
              (0, 1, 2, "qishou"), (0, 1, 1, "dealer"), (2, 1, 2, "qishou"), (3, 1, 2, "qishou")])
    return s.close()


EXAMPLES["ex03_sea_declined_by_all"] = ex03_sea_declined_by_all


def nm_kaigang_replaced() -> GameBuilder:
    """§13.5 with a 补张 replacement drawn after the 开杠 kong instead of the reveal (the 6m drawn
    from the tail completes the hand: an ordinary self-draw, as logged here)."""
    s = ChangshaScene("cs-nm-kaigang-replaced")
    s.hand(0, {2: "5555s 234m 678p 45m 8m"}, reserve="8m 6m 2p 9s", avoid="3m 6m 8m")
    s.discard(0)
    s.pass_turn(1)
    s.draw(2, "8m")
    s.kong_concealed(2, "5s")
    s.b.events[-1] = _with_mode(s.b.events[-1], "reveal")
    s.replacement(2, "6m")
    s.win([(2, ["jihu"], 0, 2)], "self_draw", "6m")
    s.birds("2p 9s", 2)
    s.settle([(0, 2, 5, "win"), (1, 2, 4, "win"), (3, 2, 6, "win")])
    return s.close()


NEAR_MISSES["nm_kaigang_replaced"] = (nm_kaigang_replaced, ["KAIGANG_REVEAL_WRONG"])


def ex06_two_winners(missed: bool = False) -> GameBuilder:
    """§6.2.3 several winners on one 开杠 reveal (一炮多响): §13.6 with seat 2 holding 123p 456p
    789s 67m 55m.  The reveal 5s 8m completes nothing of seat 1's; seat 3 wins on 5s and seat
    2 on 8m (each 杠上炮, U = 1, H = 6), one HandWon per tile.  Two winners: the birds 4m 6p
    count from the konger seat 1 (4 → seat 0, 6 → seat 2): 1 → 3: 6, 1 → 2: 6 × 2 = 12.
    ``missed``: seat 2 declares its win but the log names seat 3 alone (birds from seat 3:
    1 → 3: 6)."""
    s = ChangshaScene("cs-ex06-two" + ("-missed" if missed else ""))
    s.hand(0, {0: "7p", 1: "777p 123s 456s 34m 88m", 2: "123p 456p 789s 67m 55m",
               3: "234m 567m 456p 34s 88s"}, reserve="5s 8m 4m 6p", avoid="2m 5m 8m 2s 5s 7p")
    s.discard(0, "7p")
    s.kong_exposed(1, 0, "7p")
    s.b.events[-1] = _with_mode(s.b.events[-1], "reveal")
    s.reveal(1, "5s 8m")
    if missed:
        s.b.declare(2, "win")
        s.win([(3, ["gangshang_pao"], 1, 6)], "discard", "5s", from_seat=1)
        s.birds("4m 6p", 3)
        s.settle([(1, 3, 6, "win")])
        return s.close()
    s.b.declare(3, "win")
    s.b.declare(2, "win")
    s.win([(3, ["gangshang_pao"], 1, 6)], "discard", "5s", from_seat=1, declare=False)
    s.win([(2, ["gangshang_pao"], 1, 6)], "discard", "8m", from_seat=1, declare=False)
    s.birds("4m 6p", 1)
    s.settle([(1, 3, 6, "win"), (1, 2, 6, "win"), (1, 2, 6, "bird")])
    return s.close()


EXAMPLES["ex06_two_winners_on_the_reveal"] = ex06_two_winners
NEAR_MISSES.update({
    "nm_reveal_win_missed": (_room(lambda: ex06_two_winners(missed=True),
                                   "§6.2.3: seat 2 declares its win on the revealed 8m, the log names seat 3 "
                                   "alone."), ["WIN_MISSED_MULTI"]),
    "nm_haidi_win_missed": (_room(lambda: ex08_haidi_pao(missed=True),
                                  "§13.8: seat 2 declares its win on the 海底 tile, the log names seat 1 "
                                  "alone."), ["WIN_MISSED_MULTI"]),
})


def nm_win_after_kaihua(others_first: bool = False) -> GameBuilder:
    """§6.2.2: §13.5's 杠上开花 on 6m, and seat 3 (23p 123s 789s 456p 88s) also logged as winning
    on the other revealed tile 1p (杠上炮 from seat 2), paid 2 → 3: 6 × 3 = 18 beside §13.5's
    money.  The konger's win ends the hand: seat 3's is HAND_END_WRONG and is paid nothing.
    ``others_first``: seat 3's HandWon is logged before the konger's."""
    s = ChangshaScene("cs-nm-win-after-kaihua" + ("-first" if others_first else ""))
    s.hand(0, {2: "5555s 234m 678p 45m 8m", 3: "23p 123s 789s 456p 88s"}, reserve="8m 6m 1p 2p 9s",
           avoid="1p 3m 6m 8m")
    s.discard(0)
    s.pass_turn(1)
    s.draw(2, "8m")
    s.kong_concealed(2, "5s")
    s.b.events[-1] = _with_mode(s.b.events[-1], "reveal")
    s.reveal(2, "6m 1p")
    wins = [lambda: s.win([(2, ["gangshang_kaihua"], 1, 6)], "self_draw", "6m"),
            lambda: s.win([(3, ["gangshang_pao"], 1, 6)], "discard", "1p", from_seat=2, declare=False)]
    if others_first:
        wins.reverse()
    if others_first:
        s.b.declare(3, "win")
    for w in wins:
        w()
    s.birds("2p 9s", 2)
    s.settle([(0, 2, 13, "win"), (1, 2, 12, "win"), (3, 2, 18, "win"), (2, 3, 6, "win"), (2, 3, 12, "bird")])
    return s.close()


NEAR_MISSES["nm_win_after_kaihua"] = (nm_win_after_kaihua, ["HAND_END_WRONG"])


def ex06_jiehu_on_the_reveal(taker: int = 2, both: bool = False, first_declares: bool = True) -> GameBuilder:
    """§5.1 截胡 (``multi_win = false``) on a 开杠 reveal (§6.2.3): §13.6's 开杠 by seat 1, the
    reveal 5s 8m; seat 3 (234m 567m 456p 34s 88s) can win on 5s and seat 2 (123p 456p 789s
    67m 55m) on 8m, and both declare.  Only the first from the konger's 下家 wins: seat 2, on
    8m (杠上炮, U = 1, H = 6); birds 4m 6p from seat 2 (4 → seat 1, 6 → seat 3): 1 → 2: 6 × 2
    = 12.  ``taker = 3``: the log gives the reveal to seat 3 instead (on 5s, birds from seat 3:
    1 → 3: 6); ``both``: it pays both winners as 一炮多响 (birds from the konger);
    ``first_declares`` False: seat 2 lets its win go (no declaration), so seat 3 is the first
    declarer and wins."""
    s = ChangshaScene(f"cs-ex06-jiehu-{taker}" + ("-both" if both else "") + ("" if first_declares else "-passed"),
                      {"multi_win": False})
    s.hand(0, {0: "7p", 1: "777p 123s 456s 34m 88m", 2: "123p 456p 789s 67m 55m",
               3: "234m 567m 456p 34s 88s"}, reserve="5s 8m 4m 6p", avoid="2m 5m 8m 2s 5s 7p")
    s.discard(0, "7p")
    s.kong_exposed(1, 0, "7p")
    s.b.events[-1] = _with_mode(s.b.events[-1], "reveal")
    s.reveal(1, "5s 8m")
    s.b.declare(3, "win")
    if first_declares:
        s.b.declare(2, "win")
    if both:
        s.win([(3, ["gangshang_pao"], 1, 6)], "discard", "5s", from_seat=1, declare=False)
        s.win([(2, ["gangshang_pao"], 1, 6)], "discard", "8m", from_seat=1, declare=False)
        s.birds("4m 6p", 1)
        s.settle([(1, 3, 6, "win"), (1, 2, 6, "win"), (1, 2, 6, "bird")])
    elif taker == 3:
        s.win([(3, ["gangshang_pao"], 1, 6)], "discard", "5s", from_seat=1, declare=False)
        s.birds("4m 6p", 3)
        s.settle([(1, 3, 6, "win")])
    else:
        s.win([(2, ["gangshang_pao"], 1, 6)], "discard", "8m", from_seat=1, declare=False)
        s.birds("4m 6p", 2)
        s.settle([(1, 2, 6, "win"), (1, 2, 6, "bird")])
    return s.close()


OPTION_ROOMS["ex06_jiehu_on_the_reveal"] = _room(
    ex06_jiehu_on_the_reveal, "§5.1 截胡 (multi_win = false) on a 开杠 reveal: seats 2 and 3 both declare a win on "
    "seat 1's reveal 5s 8m; seat 2, first from the konger's 下家, wins alone on 8m: 1 → 2: 12.")
NEAR_MISSES.update({
    "nm_reveal_jiehu_wrong_seat": (_room(lambda: ex06_jiehu_on_the_reveal(3),
                                         "截胡 on a 开杠 reveal (multi_win = false): the log gives the reveal to seat "
                                         "3 although seat 2, first from the konger's 下家, declared its win; its "
                                         "birds count from seat 3, not from the legal winner."),
                                   ["CLAIM_PRIORITY", "BIRD_TILES_WRONG"]),
})


def ex06_reveal_claimed(claim: str = "pong", seat: int = 2, claims: str = "all", over_win: bool = False) -> GameBuilder:
    """§6.2.3 ``kaigang_claims = all``: §13.6's 开杠 by seat 1, the reveal 1p 9s completes no
    hand; seat ``seat`` claims one revealed tile as seat 1's discard (``pong``: 1p with 11p;
    ``chow``: 9s with 78s, for seat 1's 下家 only) and throws 2s; the dealer seat 0 (7p 234m
    567m 456p 13s 88s) wins on it: 小胡, H = 1; birds 1m 1m on seat 0: × 3, + 1 庄闲 = 4.
    ``over_win``: seat 3 (234m 567m 456p 34s 88s) could win on the revealed 5s and declares it
    (the reveal is 1p 5s): the claim is taken over a declared win."""
    s = ChangshaScene(f"cs-reveal-{claim}-{seat}-{claims}" + ("-over-win" if over_win else ""),
                      {"kaigang_claims": claims})
    own = {"pong": "11p", "chow": "78s"}[claim]
    hands = {0: "7p 234m 567m 456p 13s 88s", 1: "777p 123s 456s 34m 88m", seat: f"{own} 2s"}
    if over_win:
        hands[3] = "234m 567m 456p 34s 88s"
    s.hand(0, hands, reserve="1p 9s 1m 1m", avoid="1p 9s 2m 5m 2s 5s 7p 7s 8s")
    s.discard(0, "7p")
    s.kong_exposed(1, 0, "7p")
    s.b.events[-1] = _with_mode(s.b.events[-1], "reveal")
    s.reveal(1, "1p 5s" if over_win else "1p 9s")
    if over_win:
        s.b.declare(3, "win")
    s.b.declare(seat, claim)
    if claim == "pong":
        s.pong(seat, 1, "1p")
    else:
        s.chow(seat, 1, "9s", own)
    s.discard(seat, "2s")
    s.win([(0, ["jihu"], 0, 1)], "discard", "2s", from_seat=seat)
    s.birds("1m 1m", 0)
    s.settle([(seat, 0, 1, "win"), (seat, 0, 2, "bird"), (seat, 0, 1, "dealer")])
    return s.close()


OPTION_ROOMS.update({
    "ex06_kaigang_claims_all_pong": _room(lambda: ex06_reveal_claimed("pong", 2),
                                          "§6.2.3 kaigang_claims = all: seat 2 pongs the revealed 1p as seat 1's "
                                          "discard, throws 2s, the dealer wins it: 2 → 0: 4."),
    "ex06_kaigang_claims_all_chow": _room(lambda: ex06_reveal_claimed("chow", 2),
                                          "§6.2.3 kaigang_claims = all: seat 2, the konger's 下家, chows the "
                                          "revealed 9s with 78s: 2 → 0: 4."),
})
NEAR_MISSES.update({
    "nm_reveal_ponged_win_only": (_room(lambda: ex06_reveal_claimed("pong", 2, "win_only"),
                                        "kaigang_claims = win_only: seat 2 pongs the revealed 1p."),
                                  ["CLAIM_ON_KONG_REVEAL"]),
    "nm_reveal_chow_wrong_seat": (_room(lambda: ex06_reveal_claimed("chow", 3),
                                        "kaigang_claims = all: seat 3, not the konger's 下家, chows the revealed "
                                        "9s."), ["CLAIM_CHOW_WRONG_SEAT"]),
    "nm_reveal_claim_over_win": (_room(lambda: ex06_reveal_claimed("pong", 2, over_win=True),
                                       "kaigang_claims = all: seat 2 pongs the revealed 1p although seat 3 declared "
                                       "its win on the revealed 5s."), ["CLAIM_PRIORITY"]),
})


def ex06_reveal_passed(reveal: str = "1p 9s", options: Optional[dict] = None) -> GameBuilder:
    """§8 过胡 after a reveal: §13.6's 开杠 by seat 1, the reveal ``reveal`` is won by nobody; seat
    2 draws and throws 2s, and seat 3 (234m 567m 456p 34s 88s) wins on it: 小胡, H = 1, birds
    1m 1m on seat 3: 2 → 3: 3.  With the reveal 5s 8m seat 3 let 杠上炮 on 5s go, and has not
    drawn since: its win on 2s is barred (WIN_DURING_GUOHU)."""
    s = ChangshaScene("cs-reveal-passed-" + reveal.replace(" ", ""), options)
    s.hand(0, {0: "7p", 1: "777p 123s 456s 34m 88m", 2: "2s", 3: "234m 567m 456p 34s 88s"},
           reserve=f"{reveal} 9m 1m 1m", avoid="2m 5m 2s 5s 7p")
    s.discard(0, "7p")
    s.kong_exposed(1, 0, "7p")
    s.b.events[-1] = _with_mode(s.b.events[-1], "reveal")
    s.reveal(1, reveal)
    s.draw(2, "9m")
    s.discard(2, "2s")
    s.win([(3, ["jihu"], 0, 1)], "discard", "2s", from_seat=2)
    s.birds("1m 1m", 3)
    s.settle([(2, 3, 1, "win"), (2, 3, 2, "bird")])
    return s.close()


EXAMPLES["ex06_reveal_nobody_could_win"] = _room(
    ex06_reveal_passed, "§8: the reveal 1p 9s is won by nobody and nobody could win on it; seat 3 wins on seat "
    "2's 2s: 2 → 3: 3.")
NEAR_MISSES["nm_guohu_after_reveal"] = (_room(lambda: ex06_reveal_passed("5s 8m"),
                                              "§8: seat 3 lets 杠上炮 on the revealed 5s go, then wins on seat 2's "
                                              "2s before drawing."), ["WIN_DURING_GUOHU"])


def ex06_free_reveal_inside_the_wall(free_at: int = 10) -> GameBuilder:
    """§2, §6.2.1 ``kaigang_source = free`` against a logged wall: §13.6's 开杠 by seat 1 turns
    1p 9s from stacks inside the wall (``free_at`` tiles past the head's, as dice pick them), won
    by nobody; seat 2 draws 9m and throws 2s, seat 3 (234m 567m 456p 34s 88s) wins on it: 小胡,
    H = 1; the birds 1m 5m come from the wall's end (``bird_source = tail``), the last undrawn
    tiles, last first, which the reveal did not take: both on seat 3: 2 → 3: 3."""
    s = ChangshaScene(f"cs-free-reveal-{free_at}", {"bird_source": "tail"})
    s.hand(0, {0: "7p", 1: "777p 123s 456s 34m 88m", 2: "2s", 3: "234m 567m 456p 34s 88s"},
           reserve="1p 9s 9m 1m 5m", avoid="2m 5m 2s 5s 7p")
    s.discard(0, "7p")
    s.kong_exposed(1, 0, "7p")
    s.b.events[-1] = _with_mode(s.b.events[-1], "reveal")
    s.reveal(1, "1p 9s", source="free")
    s.draw(2, "9m")
    s.discard(2, "2s")
    s.win([(3, ["jihu"], 0, 1)], "discard", "2s", from_seat=2)
    s.birds("1m 5m", 3, source="tail")
    s.settle([(2, 3, 1, "win"), (2, 3, 2, "bird")])
    return with_wall(s.close(), free_at=free_at)


OPTION_ROOMS["ex06_free_reveal_inside_the_wall"] = ex06_free_reveal_inside_the_wall
NEAR_MISSES["nm_tail_birds_after_a_free_reveal"] = (
    _room(lambda: _logged_as(ex06_free_reveal_inside_the_wall(), _events().BirdsDrawn, "5m 1m"),
          "§2, §6.2.1 a free reveal inside the logged wall, then birds from the tail logged 5m 1m: the wall's last "
          "undrawn tiles, last first, are 1m 5m (the money is the same)."), ["BIRD_TILES_WRONG"])


def ex14_wall_out_through_a_kong(next_dealer: int = 2) -> GameBuilder:
    """§3 rule 5: seat 2 draws the second-last tile (5s, holding 555s), kongs it concealed in
    mode ``replace`` and its 补张 takes the wall's last tile; nobody wins its discard and the
    hand is drawn (``remaining 0``): seat 2, the konger, deals next.  In that hand its dealt
    1111p 22p 33p 55p 66p 88m win at once (天胡 + 七小对 + 豪华, H = 18; birds 3s 9m from seat 2
    hit seats 0 and 2): 0 → 2: 55, 1 → 2: 37, 3 → 2: 37."""
    s = ChangshaScene(f"cs-ex14-{next_dealer}")
    s.hand(0, {2: "555s"}, reserve="5s", avoid="5s")
    seat = s.until(s.opening_round(0), 2)
    assert seat == 2
    s.draw(2, "5s")
    s.kong_concealed(2, "5s")
    s.replacement(2)
    s.discard(2)
    s.drawn()
    d = next_dealer
    s.hand(d, {d: "1111p 22p 33p 55p 66p 88m"}, reserve="3s 9m")
    s.win([(d, ["tianhe", "qidui", "haohua"], 3, 18)], "self_draw", "8m")
    s.birds("3s 9m", d)
    hit_twice = (d + 2) % 4  # 3 → origin + 2
    s.settle([(p, d, 55 if p == hit_twice else 37, "win") for p in range(4) if p != d])
    return s.close()


EXAMPLES["ex14_wall_out_through_a_kong"] = ex14_wall_out_through_a_kong
NEAR_MISSES["nm_dealer_after_wall_out_through_a_kong"] = (
    _room(lambda: ex14_wall_out_through_a_kong(0),
          "§3 rule 5: the wall ran out through seat 2's 补张, yet seat 0 deals the next hand."), ["DEALER_ROTATION"])


def _logged_as(b: GameBuilder, kind, tiles: str) -> GameBuilder:
    """``b`` with its (first) event of type ``kind`` logging ``tiles`` (in this order) instead."""
    import msgspec
    i = next(i for i, e in enumerate(b.events) if type(e) is kind)
    b.events[i] = msgspec.structs.replace(b.events[i], tiles=tiles.split())
    return b


def _events():
    from schema import events as ev
    return ev


NEAR_MISSES.update({
    "nm_birds_not_off_the_wall": (_room(lambda: _logged_as(with_wall(ex01_small_discard_win()), _events().BirdsDrawn,
                                                           "4p 7m"),
                                        "§13.1 with its wall logged: the birds are logged 4p 7m, the wall's next "
                                        "tiles are 7m 4p (the money is the same)."), ["BIRD_TILES_WRONG"]),
    "nm_reveal_not_off_the_wall": (_room(lambda: _logged_as(with_wall(ex06_gangshang_pao()), _events().KongRevealed,
                                                            "5s 8m"),
                                         "§13.6 with its wall logged: the reveal is logged 5s 8m, the wall's next "
                                         "tiles are 8m 5s."), ["KAIGANG_REVEAL_WRONG"]),
})


def created_by(b: GameBuilder, seat: int, first_dealer: str = "creator") -> GameBuilder:
    """The room ``b`` created by ``seat``, under ``first_dealer``."""
    import msgspec
    b = reopened(b, first_dealer=first_dealer)
    b.events[0] = msgspec.structs.replace(b.events[0], creator=seat)
    return b


OPTION_ROOMS["ex14_first_dealer_creator"] = _room(
    lambda: created_by(ex14_wall_out_through_a_kong(), 0),
    "first_dealer = creator: seat 0 created the room and deals the first hand; seat 2 deals the second (§3 rule 5).")
NEAR_MISSES["nm_first_dealer_not_creator"] = (
    _room(lambda: created_by(ex01_small_discard_win(), 1),
          "first_dealer = creator: seat 1 created the room, seat 0 deals the first hand."), ["DEALER_ROTATION"])


def ex06_better_revealed_tile(tile: str = "5s") -> GameBuilder:
    """§6.2.3 a seat that could win on two revealed tiles wins once, on the one that scores more:
    §13.6's 开杠 by seat 1 turns 2s 5s; seat 3 (22m 55m 88m 22p 55p 88p 5s, every tile a 将 tile)
    wins on 5s with 七小对 + 将将胡 + 杠上炮 (U = 3, H = 18), on 2s with 将将胡 + 杠上炮 only
    (U = 2, H = 12).  Birds 1m 9m from seat 3 both hit it (f = 3).  ``tile``: the tile the log
    names, its units and money typed from the text: 5s: 1 → 3: 54; 2s: 1 → 3: 36."""
    fans, fan, h = {"5s": (["qidui", "jiangyise", "gangshang_pao"], 3, 18),
                    "2s": (["jiangyise", "gangshang_pao"], 2, 12)}[tile]
    s = ChangshaScene(f"cs-ex06-better-{tile}")
    s.hand(0, {0: "7p", 1: "777p 123s 456s 34m 88m", 3: "22m 55m 88m 22p 55p 88p 5s"},
           reserve="2s 5s 1m 9m", avoid="2m 5m 2s 5s 7p")
    s.discard(0, "7p")
    s.kong_exposed(1, 0, "7p")
    s.b.events[-1] = _with_mode(s.b.events[-1], "reveal")
    s.reveal(1, "2s 5s")
    s.win([(3, fans, fan, h)], "discard", tile, from_seat=1)
    s.birds("1m 9m", 3)
    s.settle([(1, 3, 3 * h, "win")])
    return s.close()


def ex05_best_completing_tile(tile: str = "2p") -> GameBuilder:
    """§6.2.2 the konger's 杠上开花 is scored on its best completing tile: seat 2 (5555s 222m 555m
    22p 8p) draws 8p and makes a concealed kong of 5s in mode ``reveal`` (every tile a 将 tile:
    ready); the reveal 5p 2p both complete (双杠开花): on 2p 222m 555m 222p 88p is 碰碰胡 + 将将胡
    (U = 4 with the two 杠上开花, H = 24), on 5p only 将将胡, which needs no shape (U = 3,
    H = 18).  Birds 1m 9m from seat 2 both hit it (f = 3).  ``tile``: the tile the log names,
    its money typed from the text: 2p: 0 → 2: 73, 1 → 2: 72, 3 → 2: 72; 5p: 55, 54, 54."""
    fans, fan, h = {"2p": (["duidui", "jiangyise", "gangshang_kaihua", "gangshang_kaihua"], 4, 24),
                    "5p": (["jiangyise", "gangshang_kaihua", "gangshang_kaihua"], 3, 18)}[tile]
    s = ChangshaScene(f"cs-ex05-best-{tile}")
    s.hand(0, {2: "5555s 222m 555m 22p 8p"}, reserve="8p 5p 2p 1m 9m", avoid="2p 5p 8p 2m 5m 8m 2s 5s 8s")
    s.discard(0)
    s.pass_turn(1)
    s.draw(2, "8p")
    s.kong_concealed(2, "5s")
    s.b.events[-1] = _with_mode(s.b.events[-1], "reveal")
    s.reveal(2, "5p 2p")
    s.win([(2, fans, fan, h)], "self_draw", tile)
    s.birds("1m 9m", 2)
    s.settle([(0, 2, 3 * h + 1, "win"), (1, 2, 3 * h, "win"), (3, 2, 3 * h, "win")])
    return s.close()
