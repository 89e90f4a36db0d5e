"""The worked examples of hainan.md §12 as Hainan rooms, with the text's money.

Each function returns the closed room (:class:`~schema.builder.GameBuilder`) with the
names, points and transfers typed in from the rules text, never computed by paipu: a clean
audit of these rooms checks paipu against the text.  ``EXAMPLES`` (clean), ``OPTION_ROOMS``
(one per option value that changes the money) and ``NEAR_MISSES`` (one finding each) are
what ``sample_logs/hainan`` writes and the tests audit.
Defaults: B = 1, the 东令, the dealer is seat 0 (春 梅), seat 1 南 (夏 兰), seat 2 西 (秋 菊),
seat 3 北 (冬 竹).
"""

from __future__ import annotations

from typing import Callable

from schema.builder import GameBuilder

from .scenes import HainanScene


def ex01_jiang258() -> GameBuilder:
    """§12.1 seat 2 chowed 234m from seat 1 and wins seat 3's 5m: 平胡 + 二五八将, fan 2,
    points 1; seats 0 and 1 pay 1, seat 3 pays 1 + e 1 = 2; seat 2 +4."""
    s = HainanScene("hn-ex01")
    s.hand(0, {2: "23m 567p 345s 678s 5m", 1: "4m", 3: "5m"}, avoid="1m 4m 5m 8m 2m 3m")
    s.discard(0)
    s.draw(1)
    s.discard(1, "4m")
    s.chow(2, 1, "4m", "23m")
    s.discard(2)
    s.draw(3)
    s.discard(3, "5m")
    s.win([(2, ["pinghu", "jiang258"], 2, 1)], "discard", "5m", from_seat=3)
    s.settle([(0, 2, 1, "win"), (1, 2, 1, "win"), (3, 2, 2, "win")])
    return s.close()


def _ex02(game: str, flower: str) -> HainanScene:
    """§12.2's hand up to seat 1's wait: 9p ponged from seat 3, 123m chowed from seat 0,
    ``flower`` set aside in the opening 补花; seat 1 holds 456s 78s 33p."""
    s = HainanScene(game)
    s.hand(0, {1: f"99p 23m {flower} 456s 78s 33p", 0: "1m", 3: "9p"}, avoid="3s 6s 9s 3p 1m 4m")
    s.buhua(1, flower)
    s.discard(0, "1m")
    s.chow(1, 0, "1m", "23m")
    s.discard(1)
    s.pass_turn(2)
    s.draw(3)
    s.discard(3, "9p")
    s.pong(1, 3, "9p")
    s.discard(1)
    return s


def ex02_zimo_without_fan() -> GameBuilder:
    """§12.2 无番靠自摸: no 番 source (秋 is not seat 1's flower); seat 1 draws 6s: r = 2,
    seats 0, 2, 3 pay 2 each (+6); fans [zimo], fan 0, points 2."""
    s = _ex02("hn-ex02", "3f")
    s.go_around(2, 3)
    s.draw(1, "6s")
    s.win([(1, ["zimo"], 0, 2)], "self_draw", "6s")
    s.settle([(0, 1, 2, "win"), (2, 1, 2, "win"), (3, 1, 2, "win")])
    return s.close()


def ex02_own_flower() -> GameBuilder:
    """§12.2 with 兰 6f (seat 1's own flower) set aside: 位置花 is a 番, so seat 2's 9s is a
    legal discard win: seat 2 pays 2, seats 0 and 3 pay 1 (+4)."""
    s = _ex02("hn-ex02b", "6f")
    s.draw(2, "9s")
    s.discard(2, "9s")
    s.win([(1, ["zhenghua"], 1, 1)], "discard", "9s", from_seat=2)
    s.settle([(0, 1, 1, "win"), (2, 1, 2, "win"), (3, 1, 1, "win")])
    return s.close()


def ex03_gangshang(flower_sets: bool = False) -> GameBuilder:
    """§12.3 杠上开花: seat 3 ponged 中 from seat 1, declares 暗杠 7p and draws 4m from the
    tail: r = 3 and 暗杠 v = 2: each other seat pays 3 + 2 = 5 (+15).  ``flower_sets``
    (``flower_money = sets``, seat 1 holding 春夏秋冬): seat 1 also collects 1 from each."""
    s = HainanScene("hn-ex03b" if flower_sets else "hn-ex03", {"flower_money": "sets"} if flower_sets else None)
    extra = " 1f 2f 3f 4f" if flower_sets else ""
    s.hand(0, {3: "777p 234s 56m 99m 77z", 1: "7z" + extra}, reserve="7p 4m", avoid="4m 7m 7p 1s 5s")
    if flower_sets:
        for f in ("1f", "2f", "3f", "4f"):
            s.buhua(1, f)
    s.discard(0)
    s.draw(1)
    s.discard(1, "7z")
    s.pong(3, 1, "7z")
    s.discard(3)
    s.go_around(0, 3)
    s.draw(3, "7p")
    s.kong_concealed(3, "7p")
    s.replacement(3, "4m")
    s.win([(3, ["sanyuan", "gangshang_kaihua"], 1, 3)], "self_draw", "4m")
    money = [(p, 3, 3, "win") for p in (0, 1, 2)] + [(p, 3, 2, "kong") for p in (0, 1, 2)]
    if flower_sets:
        money += [(p, 1, 1, "flower") for p in (0, 2, 3)]
    s.settle(money)
    return s.close()


def _ex04(game: str, fourth_from: int = 1) -> HainanScene:
    """§12.4 up to seat 2's wait: 123p, 456p chowed and 8s ponged, all from seat 1; 78m 55s."""
    s = HainanScene(game)
    s.hand(0, {2: "23p 56p 88s 78m 55s", 1: "1p 4p 8s 9m"}, reserve="9m", avoid="6m 9m 5s 8s 1p 4p 7p")
    s.discard(0)
    s.draw(1)
    s.discard(1, "1p")
    s.chow(2, 1, "1p", "23p")
    s.discard(2)
    s.go_around(3, 2)
    s.draw(1)
    s.discard(1, "4p")
    s.chow(2, 1, "4p", "56p")
    s.discard(2)
    s.go_around(3, 2)
    s.draw(1)
    s.discard(1, "8s")
    s.pong(2, 1, "8s")
    s.discard(2)
    s.go_around(3, 2)
    return s


def ex04_sandao(feeder: int = 1) -> GameBuilder:
    """§12.4 三道 包牌: seat 1 fed three claims and discards 9m: it pays the three shares and
    e: 4, reason ``bao_sandao``.  ``feeder = 3``: seat 3 discards the 9m: no 包: seat 3 pays
    2, seats 0 and 1 pay 1.  ``feeder = -1``: seat 2 self-draws the 9m: no 包: each pays 2."""
    s = _ex04({1: "hn-ex04", 3: "hn-ex04b", -1: "hn-ex04c"}[feeder])
    if feeder == 1:
        s.draw(1, "9m")
        s.discard(1, "9m")
        s.win([(2, ["jiang258"], 1, 1)], "discard", "9m", from_seat=1)
        s.settle([(1, 2, 4, "bao_sandao")])
    elif feeder == 3:
        s.pass_turn(1)
        s.pass_turn(2)
        s.draw(3, "9m")
        s.discard(3, "9m")
        s.win([(2, ["jiang258"], 1, 1)], "discard", "9m", from_seat=3)
        s.settle([(0, 2, 1, "win"), (1, 2, 1, "win"), (3, 2, 2, "win")])
    else:
        s.pass_turn(1)
        s.draw(2, "9m")
        s.win([(2, ["jiang258", "zimo"], 1, 2)], "self_draw", "9m")
        s.settle([(0, 2, 2, "win"), (1, 2, 2, "win"), (3, 2, 2, "win")])
    return s.close()


def ex05_qianggang(with_fan: bool = True) -> GameBuilder:
    """§12.5 抢杠: the dealer ponged 5s from seat 2, draws the fourth and adds it; seat 1 robs.
    (a) ``with_fan``: 三元刻 and 二五八将 besides 抢杠: an ordinary discard win by the adder:
    seat 0 pays 2, seats 2 and 3 pay 1.  (b) only 抢杠: seat 0 pays 4 alone (``qianggang``)."""
    s = HainanScene("hn-ex05a" if with_fan else "hn-ex05b")
    if with_fan:
        s.hand(0, {0: "55s 1m", 1: "23m 34s 678p 555z 22m", 2: "5s"}, reserve="5s",
               avoid="1m 4m 2s 5s 3s 4s 2m")
        s.discard(0, "1m")
        s.chow(1, 0, "1m", "23m")
        s.discard(1)
        s.draw(2)
        s.discard(2, "5s")
        s.pong(0, 2, "5s")
        s.discard(0)
        s.go_around(1, 3)
    else:
        s.hand(0, {0: "55s", 1: "99m 34s 678p 789p 33p", 2: "5s", 3: "9m"}, reserve="5s",
               avoid="2s 5s 3s 4s 3p 9m")
        s.discard(0)
        s.pass_turn(1)
        s.draw(2)
        s.discard(2, "5s")
        s.pong(0, 2, "5s")
        s.discard(0)
        s.pass_turn(1)
        s.pass_turn(2)
        s.draw(3)
        s.discard(3, "9m")
        s.pong(1, 3, "9m")
        s.discard(1)
        s.go_around(2, 2)
    s.draw(0, "5s")
    s.kong_added(0, "5s")
    if with_fan:
        s.win([(1, ["jiang258", "sanyuan", "qianggang"], 3, 1)], "robbed_kong", "5s", from_seat=0)
        s.settle([(0, 1, 2, "win"), (2, 1, 1, "win"), (3, 1, 1, "win")])
    else:
        s.win([(1, ["qianggang"], 1, 1)], "robbed_kong", "5s", from_seat=0)
        s.settle([(0, 1, 4, "qianggang")])
    return s.close()


def ex06_baogang(baogang: bool = True) -> GameBuilder:
    """§12.6 包杠: the dealer's first discard 7s; seat 2 makes a 直杠 on it; seat 1 later wins
    seat 3's 2p with 番: seat 3 pays 2, seats 0 and 2 pay 1; the dealer pays seat 2's kong, 3
    (``bao_gang``).  ``baogang`` off: seats 0, 1, 3 each pay seat 2 1."""
    s = HainanScene("hn-ex06" if baogang else "hn-ex06b", None if baogang else {"baogang": False})
    s.hand(0, {0: "7s", 2: "777s", 1: "123m 456m 789m 555z 2p", 3: "2p"}, avoid="7s 2p 5z")
    s.discard(0, "7s")
    s.kong_exposed(2, 0, "7s")
    s.replacement(2)
    s.discard(2)
    s.draw(3)
    s.discard(3, "2p")
    s.win([(1, ["menqing", "jiang258", "sanyuan"], 3, 1)], "discard", "2p", from_seat=3)
    money = [(3, 1, 2, "win"), (0, 1, 1, "win"), (2, 1, 1, "win")]
    money += [(0, 2, 3, "bao_gang")] if baogang else [(p, 2, 1, "kong") for p in (0, 1, 3)]
    s.settle(money)
    return s.close()


def ex06_huangzhuang() -> GameBuilder:
    """§12.6 黄庄: the 直杠 hand instead reaches R = 15 with no win: no transfers (kong money
    cancelled), and seat 0 deals again (its second hand is drawn too)."""
    s = HainanScene("hn-ex06c")
    s.hand(0, {0: "7s", 2: "777s"}, avoid="7s")
    s.discard(0, "7s")
    s.kong_exposed(2, 0, "7s")
    s.replacement(2)
    s.discard(2)
    s.until(3, 15)
    s.drawn()
    s.hand(0, {})
    s.until(s.opening_round(0), 15)
    s.drawn()
    return s.close()


def ex07_genpai(drawn: bool = False, always: bool = False) -> GameBuilder:
    """§12.7 跟牌: the first four discards are 9m in seat order with no claim; seat 3 later
    self-draws: win 2 from each, and the dealer pays seats 1, 2, 3 1 each (nets +7, −5, −1,
    −1).  ``drawn``: the hand ends in 黄庄 instead: nothing under ``on_win``; under
    ``genpai = always`` (``always``) the dealer still pays 1 to each."""
    opts = {"genpai": "always"} if always else None
    s = HainanScene("hn-ex07" + ("c" if always else "b" if drawn else ""), opts)
    s.hand(0, {0: "9m", 1: "9m", 2: "9m", 3: "9m 123m 456m 789p 11s 2p"}, reserve="1s 2p", avoid="2p 9m 1s")
    s.discard(0, "9m")
    for seat in (1, 2, 3):
        s.draw(seat, "1s" if seat == 3 else None)
        s.discard(seat, "9m")
    if drawn:
        s.until(0, 15)
        s.drawn() if not always else None
        if always:
            s.b.exhausted(s.undrawn)
            s.settle([(0, p, 1, "genpai") for p in (1, 2, 3)])
        return s.close()
    s.go_around(0, 3)
    s.draw(3, "2p")
    s.win([(3, ["menqing", "jiang258", "zimo"], 2, 2)], "self_draw", "2p")
    s.settle([(p, 3, 2, "win") for p in (0, 1, 2)] + [(0, p, 1, "genpai") for p in (1, 2, 3)])
    return s.close()


def ex08_dealer_options(option: str = "default") -> GameBuilder:
    """§12.8 (B = 2, the dealer's third hand in a row, n = 2): the dealer's 清一色 碰碰胡
    self-draw; each other seat pays 4 by default, 28 (``additive``), 16 (``multiplicative``),
    12 (``lianzhuang = multiply``), 8 (``add``), 10 (``add`` + ``dealer_unit_bonus`` 1)."""
    opts = {"default": {}, "additive": {"hand_multiplier": "additive"},
            "multiplicative": {"hand_multiplier": "multiplicative"}, "multiply": {"lianzhuang": "multiply"},
            "add": {"lianzhuang": "add"}, "add_bonus": {"lianzhuang": "add", "dealer_unit_bonus": 1}}[option]
    each = {"default": 4, "additive": 28, "multiplicative": 16, "multiply": 12, "add": 8, "add_bonus": 10}[option]
    points = {"additive": 28, "multiplicative": 16}.get(option, 4)
    s = HainanScene(f"hn-ex08-{option}", {"base": 2} | opts)
    for _ in range(2):
        s.hand(0, {})
        s.until(s.opening_round(0), 15)
        s.drawn()
    s.hand(0, {0: "33p 111p 555p 777p 9p", 1: "3p"}, reserve="9p", avoid="3p 9p 2p 4p 6p 8p")
    s.discard(0)
    s.draw(1)
    s.discard(1, "3p")
    s.pong(0, 1, "3p")
    s.discard(0)
    s.go_around(1, 3)
    s.draw(0, "9p")
    s.win([(0, ["duidui", "qingyise", "zimo"], 2, points)], "self_draw", "9p")
    s.settle([(p, 0, each, "win") for p in (1, 2, 3)])
    return s.close()


def ex09_shisanlan() -> GameBuilder:
    """§12.9 十三幺 (the seed's unconnected hand) wins on a discard (a 番 source): seat 1
    holds 147m 25p 369s 东西白发中 and takes seat 2's 南: seat 2 pays 2, seats 0 and 3 pay 1."""
    s = HainanScene("hn-ex09")
    s.hand(0, {1: "147m 25p 369s 1z 3z 5z 6z 7z", 2: "2z"}, avoid="2z")
    s.discard(0)
    s.pass_turn(1)
    s.draw(2)
    s.discard(2, "2z")
    s.win([(1, ["menqing", "shisanlan"], 2, 1)], "discard", "2z", from_seat=2)
    s.settle([(0, 1, 1, "win"), (2, 1, 2, "win"), (3, 1, 1, "win")])
    return s.close()


def _ex09_pong(game: str) -> HainanScene:
    """§12.9's second hand up to seat 1's wait: 9s ponged from seat 3; 12m 345m 678p 南南."""
    s = HainanScene(game)
    s.hand(0, {1: "99s 12m 345m 678p 22z", 3: "9s", 2: "3m"}, reserve="3m", avoid="3m 9s 2z")
    s.discard(0)
    s.pass_turn(1)
    s.pass_turn(2)
    s.draw(3)
    s.discard(3, "9s")
    s.pong(1, 3, "9s")
    s.discard(1)
    return s


def ex09_zimo() -> GameBuilder:
    """§12.9 the no-番 hand self-drawn: the same 3m wins by self-draw: each pays 2."""
    s = _ex09_pong("hn-ex09b")
    s.go_around(2, 3)
    s.draw(1, "3m")
    s.win([(1, ["zimo"], 0, 2)], "self_draw", "3m")
    s.settle([(0, 1, 2, "win"), (2, 1, 2, "win"), (3, 1, 2, "win")])
    return s.close()


def opt_shisanyao() -> GameBuilder:
    """``luanpai = shisanyao`` (the implementations' 十三幺: the 13 terminals and honours plus
    one): seat 1 holds one of each and takes seat 2's 1m: 门清 + 十三幺, fan 2; seat 2 pays 2,
    seats 0 and 3 pay 1."""
    s = HainanScene("hn-opt-shisanyao", {"luanpai": "shisanyao"})
    s.hand(0, {1: "19m 19p 19s 1234567z", 2: "1m"}, avoid="1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z")
    s.discard(0)
    s.pass_turn(1)
    s.draw(2)
    s.discard(2, "1m")
    s.win([(1, ["menqing", "shisanyao"], 2, 1)], "discard", "1m", from_seat=2)
    s.settle([(0, 1, 1, "win"), (2, 1, 2, "win"), (3, 1, 1, "win")])
    return s.close()


# --- near misses: one rule broken each ---------------------------------------------------

def nm_below_fan_flower() -> GameBuilder:
    """§12.2: with 秋 (not its flower) seat 1 has no 番: a win on seat 2's 9s is logged and
    paid (WIN_BELOW_MIN_FAN)."""
    s = _ex02("hn-nm01", "3f")
    s.draw(2, "9s")
    s.discard(2, "9s")
    s.win([(1, [], 0, 1)], "discard", "9s", from_seat=2)
    s.settle([(0, 1, 1, "win"), (2, 1, 2, "win"), (3, 1, 1, "win")])
    return s.close()


def nm_below_fan_pong() -> GameBuilder:
    """§12.9: the pong hand with a 南 pair wins seat 2's 3m on a discard (WIN_BELOW_MIN_FAN)."""
    s = _ex09_pong("hn-nm02")
    s.draw(2, "3m")
    s.discard(2, "3m")
    s.win([(1, [], 0, 1)], "discard", "3m", from_seat=2)
    s.settle([(0, 1, 1, "win"), (2, 1, 2, "win"), (3, 1, 1, "win")])
    return s.close()


def nm_not_shisanlan() -> GameBuilder:
    """§5: 147m 24p … is no 十三幺 (2 and 4 are one number apart): WIN_INCOMPLETE."""
    s = HainanScene("hn-nm03")
    s.hand(0, {1: "147m 24p 369s 1z 3z 5z 6z 7z", 2: "2z"}, avoid="2z")
    s.discard(0)
    s.pass_turn(1)
    s.draw(2)
    s.discard(2, "2z")
    s.win([(1, ["menqing", "shisanlan"], 2, 1)], "discard", "2z", from_seat=2)
    s.settle([(0, 1, 1, "win"), (2, 1, 2, "win"), (3, 1, 1, "win")])
    return s.close()


#: name -> room: the clean worked examples (each function's docstring says what it shows).
EXAMPLES: dict[str, Callable[[], GameBuilder]] = {
    "ex01_jiang258": ex01_jiang258,
    "ex02_zimo_without_fan": ex02_zimo_without_fan,
    "ex02_own_flower": ex02_own_flower,
    "ex03_gangshang": ex03_gangshang,
    "ex04_sandao": ex04_sandao,
    "ex04_sandao_other_feeder": lambda: ex04_sandao(3),
    "ex04_sandao_self_draw": lambda: ex04_sandao(-1),
    "ex05_qianggang_with_fan": ex05_qianggang,
    "ex05_qianggang_without_fan": lambda: ex05_qianggang(False),
    "ex06_baogang": ex06_baogang,
    "ex06_huangzhuang": ex06_huangzhuang,
    "ex07_genpai": ex07_genpai,
    "ex07_genpai_drawn": lambda: ex07_genpai(drawn=True),
    "ex08_dealer": ex08_dealer_options,
    "ex09_shisanlan": ex09_shisanlan,
    "ex09_zimo": ex09_zimo,
}

#: name -> room: one per option value that changes the money.
OPTION_ROOMS: dict[str, Callable[[], GameBuilder]] = {
    "opt_flower_sets": lambda: ex03_gangshang(True),
    "opt_baogang_off": lambda: ex06_baogang(False),
    "opt_genpai_always": lambda: ex07_genpai(drawn=True, always=True),
    "opt_additive": lambda: ex08_dealer_options("additive"),
    "opt_multiplicative": lambda: ex08_dealer_options("multiplicative"),
    "opt_lianzhuang_multiply": lambda: ex08_dealer_options("multiply"),
    "opt_lianzhuang_add": lambda: ex08_dealer_options("add"),
    "opt_dealer_unit_bonus": lambda: ex08_dealer_options("add_bonus"),
    "opt_shisanyao": opt_shisanyao,
}

#: name -> (room, the one finding it must give).
NEAR_MISSES: dict[str, tuple[Callable[[], GameBuilder], str]] = {
    "nm_below_fan_flower": (nm_below_fan_flower, "WIN_BELOW_MIN_FAN"),
    "nm_below_fan_pong": (nm_below_fan_pong, "WIN_BELOW_MIN_FAN"),
    "nm_not_shisanlan": (nm_not_shisanlan, "WIN_INCOMPLETE"),
}

__all__ = ["EXAMPLES", "NEAR_MISSES", "OPTION_ROOMS"]
