"""The worked examples of xuzhou.md §11 as Xuzhou rooms, with the text's money.

Each function returns the closed room (:class:`~schema.builder.GameBuilder`) with the
names, points and transfers typed in from the rules text, never computed by paipu: a
clean audit of these rooms checks paipu against the text.  ``EXAMPLES`` (clean),
``OPTION_ROOMS`` (one per option value that changes the money) and ``NEAR_MISSES``
(one finding each) are what ``sample_logs/xuzhou`` writes and the tests audit.
Defaults: B = 1, U = 1, ``dealer_bonus = plus_one``; the dealer is seat 0.
"""

from __future__ import annotations

from typing import Callable

from schema.builder import GameBuilder

from .scenes import XuzhouScene, reopened, repaid


def ex01_indicators() -> GameBuilder:
    """§11.1 indicators: six drawn hands turning 4p, 9s, 北, 白, 中 and 发 (配子 5p, 1s, 东,
    中, 发 and 白板); the dealer stays after each 流局; no money."""
    s = XuzhouScene("xz-ex01")
    for indicator in ("4p", "9s", "4z", "5z", "7z", "6z"):
        s.hand(0, {}, indicator=indicator)
        s.until(s.opening_round(0), 0)
        s.drawn()
    return s.close()


def ex02_paopei(dealer_bonus: str = "plus_one") -> GameBuilder:
    """§11.2 跑配: indicator 4p (配子 5p); seat 2 (234m 567m 78s 99p 4p 白 配子) wins seat 3's
    9s as 平和 + 跑配成牌, fan 0, points 1; seat 3 pays 1 (no dealer involved)."""
    s = XuzhouScene("xz-ex02")
    s.hand(0, {2: "234m 567m 78s 99p 4p 5z 5p", 3: "9s"}, indicator="4p", avoid="3p 6p 6s 9s 9p")
    s.discard(0)
    s.pass_turn(1)
    s.pass_turn(2)
    s.draw(3)
    s.discard(3, "9s")
    s.win([(2, ["jihu", "paopei"], 0, 1)], "discard", "9s", from_seat=3)
    s.settle([(3, 2, 1, "win")])
    return s.close()


def ex03_dealer_self_draw() -> GameBuilder:
    """§11.3 the dealer self-draws a 平和 (白 as 5p): each other seat pays 1 + 1 = 2; +6."""
    s = XuzhouScene("xz-ex03")
    s.hand(0, {0: "234m 567m 789s 99p 46p 1z"}, indicator="4p", reserve="5z", avoid="3p 7p 9p")
    s.discard(0, "1z")
    s.go_around(1, 3)
    s.draw(0, "5z")
    s.win([(0, ["jihu"], 0, 1)], "self_draw", "5z")
    s.settle([(1, 0, 2, "win"), (2, 0, 2, "win"), (3, 0, 2, "win")])
    return s.close()


def ex04_multi_win(single: bool = False) -> GameBuilder:
    """§11.4 一炮多响: seat 1 throws 6m; seats 0 (the dealer) and 2 win: seat 1 pays seat 0
    2 and seat 2 1.  With ``single`` (``multi_win = off``, 截和) only seat 2, the first from
    seat 1's 下家, wins and is paid 1."""
    s = XuzhouScene("xz-ex04b" if single else "xz-ex04a", {"multi_win": False} if single else None)
    s.hand(0, {0: "123p 456p 789p 45m 99s 1z", 2: "234s 567s 789p 45m 11z", 1: "6m"}, indicator="9s",
           avoid="3m 6m")
    s.discard(0, "1z")
    s.draw(1)
    s.discard(1, "6m")
    if single:
        s.b.declare(0, "win")
        s.win([(2, ["jihu"], 0, 1)], "discard", "6m", from_seat=1)
        s.settle([(1, 2, 1, "win")])
    else:
        s.win([(0, ["jihu"], 0, 1), (2, ["jihu"], 0, 1)], "discard", "6m", from_seat=1)
        s.settle([(1, 0, 2, "win"), (1, 2, 1, "win")])
    return s.close()


def ex05_guohu(barred: bool = False) -> GameBuilder:
    """§11.5 过胡: seat 3 (123m 45m 456p 789p 11s) lets seat 1's 3m go; seat 2's 6m passes
    too; seat 3 draws 3m on its own turn and wins: seats 1, 2 pay 1, the dealer 2; +4.
    With ``barred`` seat 3 wins on seat 2's 6m instead (WIN_DURING_GUOHU)."""
    s = XuzhouScene("xz-ex05b" if barred else "xz-ex05a")
    s.hand(0, {3: "123m 45m 456p 789p 11s", 1: "3m", 2: "6m"}, indicator="1z", reserve="3m", avoid="1s")
    s.discard(0)
    s.draw(1)
    s.discard(1, "3m")
    s.draw(2)
    s.discard(2, "6m")
    if barred:
        s.win([(3, ["jihu"], 0, 1)], "discard", "6m", from_seat=2)
        s.settle([(2, 3, 1, "win")])
    else:
        s.draw(3, "3m")
        s.win([(3, ["jihu"], 0, 1)], "self_draw", "3m")
        s.settle([(0, 3, 2, "win"), (1, 3, 1, "win"), (2, 3, 1, "win")])
    return s.close()


def ex06_xiazui(on_discard: bool = False, bet: int = 2) -> GameBuilder:
    """§11.6 下嘴 (``xiazui = max_two``), bets 1, 0, 2, 1: seat 2 self-draws: seat 0 pays
    1 + 1 + 2 + 1 = 5, seat 1 3, seat 3 4; +12.  On seat 3's discard instead only seat 3
    pays: 4.  (The 下嘴 part is paid under reason ``yangzhu``; ``bet`` is seat 2's.)"""
    s = XuzhouScene("xz-ex06b" if on_discard else "xz-ex06a", {"xiazui": "max_two"})
    bets = (1, 0, bet, 1)
    s.hand(0, {2: "234m 567m 789s 99p 45p", 3: "3p" if on_discard else ""}, indicator="1z",
           reserve="" if on_discard else "3p", bets=bets, avoid="3p 6p")
    s.discard(0)
    s.pass_turn(1)
    if on_discard:
        s.pass_turn(2)
        s.draw(3)
        s.discard(3, "3p")
        s.win([(2, ["jihu"], 0, 1)], "discard", "3p", from_seat=3)
        s.settle([(3, 2, 1, "win"), (3, 2, bet + 1, "yangzhu")])
    else:
        s.draw(2, "3p")
        s.win([(2, ["jihu"], 0, 1)], "self_draw", "3p")
        s.settle([(3, 2, 1, "win"), (3, 2, bet + 1, "yangzhu"), (0, 2, 2, "win"), (0, 2, bet + 1, "yangzhu"),
                  (1, 2, 1, "win"), (1, 2, bet, "yangzhu")])
    return s.close()


def ex07a_qidui(fan: int = 0) -> GameBuilder:
    """§11.7a 七对: 配子 8s (indicator 7s); seat 1 (11m 33m 55p 77p 99s 东东 配子) wins the
    dealer's 2s with the 配子 as 2s: 七对 pays as 平和: the dealer pays 2."""
    s = XuzhouScene("xz-ex07a" if not fan else "xz-ex07a-fan")
    s.hand(0, {1: "11m 33m 55p 77p 99s 11z 8s", 0: "2s"}, indicator="7s")
    s.discard(0, "2s")
    s.win([(1, ["qidui"], fan, 1)], "discard", "2s", from_seat=0)
    s.settle([(0, 1, 2, "win")])
    return s.close()


def ex07b_luanpai(options: dict | None = None) -> GameBuilder:
    """§11.7b 乱牌: seat 3 (147m 258p 369s 东南西北) self-draws 中: 14 kinds, each suit spaced
    by 3: seats 1, 2 pay 1, the dealer 2; +4."""
    s = XuzhouScene("xz-ex07b", options)
    s.hand(0, {3: "147m 258p 369s 1234z"}, indicator="4m", reserve="7z")
    s.discard(0)
    s.pass_turn(1)
    s.pass_turn(2)
    s.draw(3, "7z")
    s.win([(3, ["shisanlan"], 0, 1)], "self_draw", "7z")
    s.settle([(0, 3, 2, "win"), (1, 3, 1, "win"), (2, 3, 1, "win")])
    return s.close()


def ex08_shape_gate(options: dict | None = None) -> GameBuilder:
    """§11.8 the shape gate: seat 2 wins a 平和 123m 456m 789p 345s 77s on seat 1's 7s: no
    suit holds eight tiles, so under ``shape_gate = bazhi`` it is WIN_INCOMPLETE; the
    default accepts it (seat 1 pays 1)."""
    s = XuzhouScene("xz-ex08", options)
    s.hand(0, {2: "123m 456m 789p 345s 7s", 1: "7s"}, indicator="1z", avoid="6s 2s")
    s.discard(0)
    s.draw(1)
    s.discard(1, "7s")
    s.win([(2, ["jihu"], 0, 1)], "discard", "7s", from_seat=1)
    s.settle([(1, 2, 1, "win")])
    return s.close()


def ex09_tianhe() -> GameBuilder:
    """天和 (§7.5): the dealer's dealt 14 win before any discard: paid as a self-draw, 2 each."""
    s = XuzhouScene("xz-ex09")
    s.hand(0, {0: "234m 567m 789s 99p 456p"}, indicator="1z")
    s.win([(0, ["jihu", "tianhe"], 0, 1)], "self_draw", "6p")
    s.settle([(1, 0, 2, "win"), (2, 0, 2, "win"), (3, 0, 2, "win")])
    return s.close()


def ex10_dead_pei() -> GameBuilder:
    """A dead 配子 (§3.3, ``wild_discard = dead``): seat 1 throws a 配子 5p that seats 2 and 3
    (each holding 白白 = 5p 5p) may not pong; the hand is drawn."""
    s = XuzhouScene("xz-ex10")
    s.hand(0, {1: "5p", 2: "5z 5z", 3: "5z 5z"}, indicator="4p")
    s.discard(0)
    s.draw(1)
    s.discard(1, "5p")
    s.until(2, 0)
    s.drawn()
    return s.close()


def ex12_last_discard(options: dict | None = None) -> GameBuilder:
    """§2 the last discard (no drawable tile left): seat 2 draws the last tile, 9m, and
    throws it; seat 3 pongs it and discards, then 流局.  Allowed by default
    (``last_discard_claims = all``); under ``win_only`` the pong is CLAIM_ON_LAST_DISCARD."""
    s = XuzhouScene("xz-ex12", options)
    s.hand(0, {3: "9m 9m"}, indicator="1z", reserve="9m", avoid="9m")
    nxt = s.until(s.opening_round(0), 1)
    if nxt != 2:
        raise ValueError(f"seat {nxt} draws the last tile, not seat 2")
    s.draw(2, "9m")
    s.discard(2, "9m")
    s.pong(3, 2, "9m")
    s.discard(3)
    s.drawn()
    return s.close()


def ex13_rob() -> GameBuilder:
    """§5 抢杠 (robbing an added kong only): seat 1 pongs the dealer's 7s, later draws the
    fourth 7s and adds it; seat 2 (123m 456m 789m 68s 99p) robs it: the adder pays as a
    discarder, 1 (no dealer involved)."""
    s = XuzhouScene("xz-ex13")
    s.hand(0, {0: "7s", 1: "7s 7s", 2: "123m 456m 789m 68s 9p 1z"}, indicator="1z", reserve="9p 7s",
           avoid="7s 9p 5s 9s")
    s.discard(0, "7s")
    s.pong(1, 0, "7s")
    s.discard(1)
    s.draw(2, "9p")
    s.discard(2, "1z")
    s.pass_turn(3)
    s.pass_turn(0)
    s.draw(1, "7s")
    s.kong_added(1, "7s")
    s.win([(2, ["jihu"], 0, 1)], "robbed_kong", "7s", from_seat=1)
    s.settle([(1, 2, 1, "win")])
    return s.close()


def _doc(fn: Callable[[], GameBuilder], doc: str) -> Callable[[], GameBuilder]:
    """``fn`` with a docstring (the samples' README lists each room by it)."""
    fn.__doc__ = doc
    return fn


EXAMPLES: dict[str, Callable[[], GameBuilder]] = {
    "xz_ex01_indicators": ex01_indicators,
    "xz_ex02_paopei_discard": ex02_paopei,
    "xz_ex03_dealer_self_draw": ex03_dealer_self_draw,
    "xz_ex04_multi_win": ex04_multi_win,
    "xz_ex04_multi_win_off": _doc(lambda: ex04_multi_win(True), "§11.4 with ``multi_win = off`` (截和): seat 0 declares too, only seat 2 (first from seat 1's 下家) wins and is paid 1; seat 1 deals next."),
    "xz_ex05_guohu_then_self_draw": ex05_guohu,
    "xz_ex06_xiazui_self_draw": ex06_xiazui,
    "xz_ex06_xiazui_discard": _doc(lambda: ex06_xiazui(True), "§11.6 on seat 3's discard instead: only seat 3 pays seat 2, 1 + 2 + 1 = 4."),
    "xz_ex07a_qidui": ex07a_qidui,
    "xz_ex07b_luanpai": ex07b_luanpai,
    "xz_ex08_no_gate": ex08_shape_gate,
    "xz_ex09_tianhe": ex09_tianhe,
    "xz_ex10_dead_pei": ex10_dead_pei,
    "xz_ex12_last_discard_ponged": ex12_last_discard,
    "xz_ex13_rob_added_kong": ex13_rob,
}

#: One room per option value that changes the money, with the text's amounts.
OPTION_ROOMS: dict[str, Callable[[], GameBuilder]] = {
    "xz_opt_dealer_bonus_double": _doc(lambda: repaid(reopened(ex03_dealer_self_draw(), dealer_bonus="double"),
                                                 [(1, 0, 2, "win"), (2, 0, 2, "win"), (3, 0, 2, "win")]),
        '§11.3 under ``dealer_bonus = double``: each pays 2 × 1 = 2; +6.'),
    "xz_opt_dealer_bonus_none": _doc(lambda: repaid(reopened(ex03_dealer_self_draw(), dealer_bonus="none"),
                                               [(1, 0, 1, "win"), (2, 0, 1, "win"), (3, 0, 1, "win")]),
        '§11.3 under ``dealer_bonus = none``: each pays 1; +3.'),
    "xz_opt_zimo_units_2_double": _doc(lambda: _rescored_units(
        reopened(ex03_dealer_self_draw(), zimo_units=2, dealer_bonus="double"), 2,
        [(1, 0, 4, "win"), (2, 0, 4, "win"), (3, 0, 4, "win")]),
        '§11.3 with ``zimo_units = 2`` and ``double``: each pays 2 × 2 = 4; +12.'),
    "xz_opt_zimo_units_2": _doc(lambda: _rescored_units(
        reopened(ex03_dealer_self_draw(), zimo_units=2), 2, [(1, 0, 3, "win"), (2, 0, 3, "win"), (3, 0, 3, "win")]),
        '§11.3 with ``zimo_units = 2``: each pays 2 + 1 = 3; +9.'),
    "xz_opt_dianpao_units_3": _doc(lambda: _rescored_units(reopened(ex02_paopei(), dianpao_units=3), 3,
                                                      [(3, 2, 3, "win")]),
        '§11.2 with ``dianpao_units = 3``: seat 3 pays 3.'),
    "xz_opt_base_2": _doc(lambda: _rescored_units(reopened(ex02_paopei(), base=2), 2, [(3, 2, 2, "win")]),
        '§11.2 with ``base = 2``: seat 3 pays 2.'),
    "xz_opt_xiazui_max_one": _doc(lambda: ex06_xiazui_max_one(),
        "下嘴 at most one, bets 1, 0, 1, 1 and seat 2's self-draw: seat 0 pays 4, seat 1 2, seat 3 3; +9."),
    "xz_opt_draw_dealer_next": _doc(lambda: ex11_draw_dealer_next(),
        '``draw_dealer = next``: after a 流局 dealt by seat 0, seat 1 deals.'),
}


def _rescored_units(b: GameBuilder, points: int, transfers) -> GameBuilder:
    """The room's winners logged with ``points`` and paid ``transfers``."""
    import msgspec

    from schema import events as ev
    b.events = [msgspec.structs.replace(e, winners=[msgspec.structs.replace(w, points=points) for w in e.winners])
                if type(e) is ev.HandWon else e for e in b.events]
    return repaid(b, transfers)


def ex06_xiazui_max_one() -> GameBuilder:
    """下嘴 at most one: bets 1, 0, 1, 1 and seat 2's self-draw: seat 0 pays 1 + 1 + 1 + 1 = 4,
    seat 1 2, seat 3 3; +9."""
    b = reopened(ex06_xiazui(bet=1), xiazui="max_one")
    return repaid(b, [(3, 2, 1, "win"), (3, 2, 2, "yangzhu"), (0, 2, 2, "win"), (0, 2, 2, "yangzhu"),
                      (1, 2, 1, "win"), (1, 2, 1, "yangzhu")])


def ex11_draw_dealer_next() -> GameBuilder:
    """``draw_dealer = next``: after a 流局 dealt by seat 0, seat 1 deals (no money)."""
    s = XuzhouScene("xz-opt-draw-next", {"draw_dealer": "next"})
    s.hand(0, {}, indicator="4p")
    s.until(s.opening_round(0), 0)
    s.drawn()
    s.hand(1, {}, indicator="9s")
    s.until(s.opening_round(1), 0)
    s.drawn()
    return s.close()


#: Rooms that break a rule on purpose, with the one finding each must give.
NEAR_MISSES: dict[str, tuple[Callable[[], GameBuilder], str]] = {
    "xz_ex05_guohu_barred": (lambda: ex05_guohu(True), "WIN_DURING_GUOHU"),
    "xz_ex07a_qidui_fan_2": (lambda: ex07a_qidui(fan=2), "FAN_MISMATCH"),
    "xz_ex07b_luanpai_under_shisanyao": (lambda: ex07b_luanpai({"luanpai": "shisanyao"}), "WIN_INCOMPLETE"),
    "xz_ex08_bazhi_gate": (lambda: ex08_shape_gate({"shape_gate": "bazhi"}), "WIN_INCOMPLETE"),
    "xz_ex06_bet_of_three": (lambda: ex06_xiazui(bet=3), "YANGZHU_BET_INVALID"),
    "xz_ex03_no_dealer_bonus": (lambda: repaid(ex03_dealer_self_draw(),
                                               [(1, 0, 1, "win"), (2, 0, 1, "win"), (3, 0, 1, "win")]),
                                "TRANSFER_MISMATCH"),
    "xz_ex02_fan_names": (lambda: _renamed(ex02_paopei(), ["qidui"]), "FAN_NAMES_DIFFER"),
    "xz_ex12_last_discard_win_only": (lambda: ex12_last_discard({"last_discard_claims": "win_only"}),
                                      "CLAIM_ON_LAST_DISCARD"),
}


def _renamed(b: GameBuilder, names) -> GameBuilder:
    import msgspec

    from schema import events as ev
    b.events = [msgspec.structs.replace(e, winners=[msgspec.structs.replace(w, fans=list(names)) for w in e.winners])
                if type(e) is ev.HandWon else e for e in b.events]
    return b
