"""The worked examples of guangdong.md §11 as Guangdong rooms, with the text's money.

Each function returns the closed room (:class:`~schema.builder.GameBuilder`) with
the fans, points and transfers typed in from the rules text, never computed by
paipu: a clean audit of these rooms checks paipu against the text.  ``EXAMPLES``
maps a sample name to its function; ``paipu/sim/guangdong/samples.py``
writes them and ``tests/audits/test_guangdong_examples.py`` audits them.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

from schema.builder import GameBuilder

from .scenes import Scene, reopened, repaid, rescored


def ex01_jihu_on_a_discard() -> GameBuilder:
    """§11.1 鸡和 on a discard: seat 3 (pong 8s, 234m 567p 34s 99p) wins seat 2's 5s; 2 pays 1."""
    s = Scene("gd-ex01")
    s.hand(0, {0: "8s", 3: "88s 234m 567p 34s 99p 7z", 2: "5s"})
    s.discard(0, "8s")
    s.pong(3, 0, "8s")
    s.discard(3, "7z")
    s.pass_turn(0)
    s.pass_turn(1)
    s.draw(2)
    s.discard(2, "5s")
    s.win([(3, ["jihu"], 0, 1)], "discard", "5s", from_seat=2)
    s.settle([(2, 3, 1, "win")])
    return s.close()


def ex02_pinghu_self_draw() -> GameBuilder:
    """§11.2 平和 by self-draw: seat 1 (123m 456m 789p 23s 55s) draws 4s; 0, 2, 3 pay 4 each."""
    s = Scene("gd-ex02")
    s.hand(0, {1: "123m 456m 789p 23s 55s"}, reserve="4s")
    s.opening_round(0)
    s.draw(1, "4s")
    s.win([(1, ["pinghu", "zimo"], 2, 4)], "self_draw", "4s")
    s.settle([(2, 1, 4, "win"), (3, 1, 4, "win"), (0, 1, 4, "win")])
    return s.close()


def ex03_the_cap() -> GameBuilder:
    """§11.3 the cap: the dealer (东, 东 round) with a 东 pong, 中中中 222m 888p 5s draws 5s:
    碰碰和 2 + 自摸 + 门风 + 圈风 + 三元 = 6, capped at 3: each other seat pays 8."""
    s = Scene("gd-ex03")
    s.hand(0, {0: "11z 777z 222m 888p 5s 9m 9p", 3: "1z"}, reserve="5s")
    s.discard(0, "9m")
    s.pass_turn(1)
    s.pass_turn(2)
    s.draw(3)
    s.discard(3, "1z")
    s.pong(0, 3, "1z")
    s.discard(0, "9p")
    s.go_around(1, 3)
    s.draw(0, "5s")
    s.win([(0, ["duidui", "zimo", "menfeng", "quanfeng", "sanyuan"], 6, 8)], "self_draw", "5s")
    s.settle([(1, 0, 8, "win"), (2, 0, 8, "win"), (3, 0, 8, "win")])
    return s.close()


def ex04_special_hand(on_discard: bool = False) -> GameBuilder:
    """§11.4 清一色 (special: no 平和, no 自摸): seat 2 (12p 345p 567p 789p 99p) gets 3p;
    by self-draw each other seat pays 16, on seat 1's discard seat 1 alone pays 16."""
    s = Scene("gd-ex04b" if on_discard else "gd-ex04a")
    s.hand(0, {2: "12p 345p 567p 789p 99p", 1: "3p" if on_discard else ""}, reserve="" if on_discard else "3p")
    nxt = s.opening_round(0)
    if on_discard:
        s.draw(nxt)
        s.discard(1, "3p")
        s.win([(2, ["qingyise"], 4, 16)], "discard", "3p", from_seat=1)
        s.settle([(1, 2, 16, "win")])
    else:
        s.pass_turn(1)
        s.draw(2, "3p")
        s.win([(2, ["qingyise"], 4, 16)], "self_draw", "3p")
        s.settle([(3, 2, 16, "win"), (0, 2, 16, "win"), (1, 2, 16, "win")])
    return s.close()


def ex05_dragons(xiaosanyuan: bool = False) -> GameBuilder:
    """§11.5 seat 3 with pongs of 中 and 发 and 456m 789m + 1m wins seat 0's 1m: 混一色 2 +
    三元 2 = 4, capped: 8; holding 白 and winning on 白 instead: 小三元 5, 32."""
    last = "5z" if xiaosanyuan else "1m"
    s = Scene("gd-ex05b" if xiaosanyuan else "gd-ex05a")
    s.hand(0, {3: f"77z 66z 456m 789m {last[0]}{last[1]} 2p 8p", 0: f"7z 6z {last[0]}{last[1]}"})
    s.discard(0, "7z")
    s.pong(3, 0, "7z")
    s.discard(3, "2p")
    s.draw(0)
    s.discard(0, "6z")
    s.pong(3, 0, "6z")
    s.discard(3, "8p")
    s.draw(0)
    s.discard(0, last)
    if xiaosanyuan:
        s.win([(3, ["xiaosanyuan"], 5, 32)], "discard", last, from_seat=0)
        s.settle([(0, 3, 32, "win")])
    else:
        s.win([(3, ["hunyise", "sanyuan", "sanyuan"], 4, 8)], "discard", last, from_seat=0)
        s.settle([(0, 3, 8, "win")])
    return s.close()


def ex06_gangkai_bao(added: bool = False) -> GameBuilder:
    """§11.6 杠上开花包杠: seat 1 (chow 345s from seat 0; 777s 23m 456p 99p) konges seat 3's 7s
    and draws 4m: 鸡和 + 自摸 = 1, floored to 3: seat 3 pays 24 (bao_gangkai).  After an
    added kong instead, each other seat pays 8."""
    s = Scene("gd-ex06b" if added else "gd-ex06a")
    if added:
        s.hand(0, {0: "5s", 1: "34s 77s 23m 456p 99p 1z 2z", 2: "7s"}, reserve="7s 4m")
    else:
        s.hand(0, {0: "5s", 1: "34s 777s 23m 456p 99p 1z", 3: "7s"}, reserve="4m")
    s.discard(0, "5s")
    s.chow(1, 0, "5s", "34s")
    s.discard(1, "1z")
    if added:
        s.draw(2)
        s.discard(2, "7s")
        s.pong(1, 2, "7s")
        s.discard(1, "2z")
        s.go_around(2, 3)
        s.draw(1, "7s")
        s.kong_added(1, "7s")
        s.replacement(1, "4m")
        s.win([(1, ["jihu", "zimo", "gangshang_kaihua"], 1, 8)], "self_draw", "4m")
        s.settle([(2, 1, 8, "win"), (3, 1, 8, "win"), (0, 1, 8, "win")])
    else:
        s.pass_turn(2)
        s.draw(3)
        s.discard(3, "7s")
        s.kong_exposed(1, 3, "7s")
        s.replacement(1, "4m")
        s.win([(1, ["jihu", "zimo", "gangshang_kaihua"], 1, 8)], "self_draw", "4m")
        s.settle([(3, 1, 24, "bao_gangkai")])
    return s.close()


def ex07_qianggang() -> GameBuilder:
    """§11.7 抢杠: seat 0 (pong 5m) adds the fourth 5m; seat 2 (34m 678p 234s 456s 东东) robs:
    平和 + 自摸 = 2, floored to 3: seat 0 pays 24.  The dealer (seat 1) lost: seat 2 deals next."""
    s = Scene("gd-ex07")
    s.hand(1, {1: "5m", 0: "55m 3z", 2: "34m 678p 234s 456s 11z"}, reserve="5m")
    s.discard(1, "5m")
    s.pong(0, 1, "5m")
    s.discard(0, "3z")
    s.go_around(1, 3)
    s.draw(0, "5m")
    s.kong_added(0, "5m")
    s.win([(2, ["pinghu", "zimo", "qianggang"], 2, 8)], "robbed_kong", "5m", from_seat=0)
    s.settle([(0, 2, 24, "qianggang")])
    return s.close()


def ex08_yipao_sanxiang(three: bool = True) -> GameBuilder:
    """§11.8 一炮三响 (dealer seat 2): seat 0's 3p completes seats 1 (鸡和 → 3), 2 (混一色 → 3)
    and 3 (清一色 4): seat 0 pays 8 + 8 + 16 = 32.  With only seats 1 and 3: 1 + 16 = 17."""
    s = Scene("gd-ex08a" if three else "gd-ex08b")
    dealer_hand = "45p 333z 444z 777p 99p 8s" if three else "46p 333z 444z 777p 99p 8s"
    s.hand(2, {2: dealer_hand, 1: "88s 12p 456m 789m 55s 7z", 3: "12p 456p 678p 888p 99p", 0: "3p"})
    s.discard(2, "8s")
    s.pong(1, 2, "8s")
    s.discard(1, "7z")
    s.pass_turn(2)
    s.pass_turn(3)
    s.draw(0)
    s.discard(0, "3p")
    if three:
        s.win([(1, ["jihu", "yipao_sanxiang"], 0, 8), (2, ["hunyise", "yipao_sanxiang"], 2, 8),
               (3, ["qingyise", "yipao_sanxiang"], 4, 16)], "discard", "3p", from_seat=0)
        s.settle([(0, 1, 8, "win"), (0, 2, 8, "win"), (0, 3, 16, "win")])
    else:
        s.win([(1, ["jihu"], 0, 1), (3, ["qingyise"], 4, 16)], "discard", "3p", from_seat=0)
        s.settle([(0, 1, 1, "win"), (0, 3, 16, "win")])
    return s.close()


def jiehu(winner: int = 1) -> GameBuilder:
    """截和 (``multi_win = off``), the play of §11.8 with two winners: seat 0's 3p completes
    seats 1 (鸡和) and 3 (清一色); both declare, and only seat 1, first in turn order from
    seat 0's 下家, wins: seat 0 pays 1.  (``winner = 3``: the wrong one wins.)"""
    s = Scene("gd-opt-jiehu", options={"multi_win": False})
    s.hand(2, {2: "46p 333z 444z 777p 99p 8s", 1: "88s 12p 456m 789m 55s 7z", 3: "12p 456p 678p 888p 99p",
               0: "3p"})
    s.discard(2, "8s")
    s.pong(1, 2, "8s")
    s.discard(1, "7z")
    s.pass_turn(2)
    s.pass_turn(3)
    s.draw(0)
    s.discard(0, "3p")
    s.b.declare(1, "win")
    s.b.declare(3, "win")
    if winner == 1:
        s.win([(1, ["jihu"], 0, 1)], "discard", "3p", from_seat=0, declare=False)
        s.settle([(0, 1, 1, "win")])
    else:
        s.win([(3, ["qingyise"], 4, 16)], "discard", "3p", from_seat=0, declare=False)
        s.settle([(0, 3, 16, "win")])
    return s.close()


def yipao_incomplete_third() -> GameBuilder:
    """一炮三响's floor counts legal winners only (§7.4, §8.0): the play of §11.8 with the
    dealer (seat 2) holding 46p, so 3p does not complete it; the server counts three
    winners and floors seat 1's 鸡和 at 3 (P 8).  The rules give two winners, no floor:
    seat 1 P 1, seat 3 (清一色) P 16."""
    s = Scene("gd-yipao-incomplete")
    s.hand(2, {2: "46p 333z 444z 777p 99p 8s", 1: "88s 12p 456m 789m 55s 7z", 3: "12p 456p 678p 888p 99p",
               0: "3p"})
    s.discard(2, "8s")
    s.pong(1, 2, "8s")
    s.discard(1, "7z")
    s.pass_turn(2)
    s.pass_turn(3)
    s.draw(0)
    s.discard(0, "3p")
    s.win([(1, ["jihu", "yipao_sanxiang"], 0, 8), (2, ["hunyise", "yipao_sanxiang"], 2, 8),
           (3, ["qingyise", "yipao_sanxiang"], 4, 16)], "discard", "3p", from_seat=0)
    s.settle([(0, 1, 8, "win"), (0, 2, 8, "win"), (0, 3, 16, "win")])
    return s.close()


def two_robbers(winners: Sequence[int] = (2, 3), options: Optional[dict] = None, name: str = "gd-rob2") -> GameBuilder:
    """Two robbers of one added kong (§4, §8.3): the play of §11.7, with seat 3 also waiting
    on 5m (34m 123p 456p 789p 99s: 平和 + 自摸, floored to 3, P 8).  Seat 0 adds the fourth
    5m; seats 2 and 3 both declare the rob; ``winners`` are the seats the log pays (the
    adder pays each 3·P = 24).  With ``multi_win`` on both win; under 截和 only seat 2, the
    first from the adder's 下家."""
    s = Scene(name, options=options)
    s.hand(1, {1: "5m", 0: "55m 3z", 2: "34m 678p 234s 456s 11z", 3: "34m 123p 456p 789p 99s"}, reserve="5m",
           avoid="2m 5m")
    s.discard(1, "5m")
    s.pong(0, 1, "5m")
    s.discard(0, "3z")
    s.go_around(1, 3)
    s.draw(0, "5m")
    s.kong_added(0, "5m")
    s.b.declare(2, "win")
    s.b.declare(3, "win")
    fans = {2: ["pinghu", "zimo", "qianggang"], 3: ["pinghu", "zimo", "qianggang"]}
    s.win([(w, fans[w], 2, 8) for w in winners], "robbed_kong", "5m", from_seat=0, declare=False)
    s.settle([(0, w, 24, "qianggang") for w in winners])
    return s.close()


def rob_after_passed_discard(louhe_on_rob: bool = False) -> GameBuilder:
    """``louhe_on_rob = off`` (§5.5): robbing is outside 漏和 both ways.  Under ``louhe_scope =
    any_discard``, seat 2 (34m 678p 234s 456s 东东, waiting on 2m / 5m) lets seat 3's 2m go,
    then, before its own next draw, robs seat 0's added kong of 5m: 平和 + 自摸 = 2, floored
    to 3, P 8: seat 0 pays 24.  (``louhe_on_rob`` on: the rob is WIN_DURING_LOUHE.)"""
    s = Scene("gd-louhe-rob" + ("-on" if louhe_on_rob else ""),
              options={"louhe_scope": "any_discard", "louhe_on_rob": louhe_on_rob})
    s.hand(1, {1: "5m", 0: "55m 3z", 2: "34m 678p 234s 456s 11z"}, reserve="5m 2m", avoid="2m 5m")
    s.discard(1, "5m")
    s.pong(0, 1, "5m")
    s.discard(0, "3z")
    s.go_around(1, 2)
    s.draw(3, "2m")
    s.discard(3, "2m")
    s.draw(0, "5m")
    s.kong_added(0, "5m")
    s.win([(2, ["pinghu", "zimo", "qianggang"], 2, 8)], "robbed_kong", "5m", from_seat=0)
    s.settle([(0, 2, 24, "qianggang")])
    return s.close()


def ex09_luodi(variant: str = "a") -> GameBuilder:
    """§11.9 12张落地 包自摸, 包先不包后 (dealer A = seat 0): B (seat 1) chows 123m and 456s
    from A, pongs 8s from D, then pongs A's 6p as its fourth exposed set holding 9s: A is
    liable for B.  C (seat 2) later pongs A's 7m as its fourth set: A is not liable for C.
    (a) B draws 9s: 鸡和 + 自摸, P = 2: A pays 6; (b) C self-draws a 鸡和 (P = 2): A, B
    and D pay 2 each; (c) B wins on D's 9s: D pays 1."""
    s = Scene(f"gd-ex09{variant}")
    s.hand(0, {0: "1m 4s 6p 7m", 1: "23m 56s 88s 66p 9s 5p 1z 2z 3z", 2: "46p 22s 99m 77m 1p",
               3: "8s 2s 9m" + (" 9s" if variant == "c" else "")},
           reserve={"a": "9s", "b": "1p", "c": ""}[variant], avoid="9s 1p")
    s.discard(0, "1m")
    s.chow(1, 0, "1m", "23m")
    s.discard(1, "5p")
    s.chow(2, 1, "5p", "46p")
    s.discard(2)
    s.draw(3)
    s.discard(3, "8s")
    s.pong(1, 3, "8s")
    s.discard(1, "1z")
    s.pass_turn(2)
    s.pass_turn(3)
    s.draw(0)
    s.discard(0, "4s")
    s.chow(1, 0, "4s", "56s")
    s.discard(1, "2z")
    s.pass_turn(2)
    s.draw(3)
    s.discard(3, "2s")
    s.pong(2, 3, "2s")
    s.discard(2)
    s.draw(3)
    s.discard(3, "9m")
    s.pong(2, 3, "9m")
    s.discard(2)
    s.pass_turn(3)
    s.draw(0)
    s.discard(0, "6p")
    s.pong(1, 0, "6p")          # B's fourth exposed set: A is liable for B
    s.discard(1, "3z")
    s.pass_turn(2)
    s.pass_turn(3)
    s.draw(0)
    s.discard(0, "7m")
    s.pong(2, 0, "7m")          # C's fourth exposed set: A already answers for B
    s.discard(2)
    if variant == "c":
        s.draw(3)
        s.discard(3, "9s")
        s.win([(1, ["jihu"], 0, 1)], "discard", "9s", from_seat=3)
        s.settle([(3, 1, 1, "win")])
        return s.close()
    s.pass_turn(3)
    s.pass_turn(0)
    if variant == "a":
        s.draw(1, "9s")
        s.win([(1, ["jihu", "zimo"], 1, 2)], "self_draw", "9s")
        s.settle([(0, 1, 6, "bao_luodi")])
        return s.close()
    s.pass_turn(1)
    s.draw(2, "1p")
    s.win([(2, ["jihu", "zimo"], 1, 2)], "self_draw", "1p")
    s.settle([(3, 2, 2, "win"), (0, 2, 2, "win"), (1, 2, 2, "win")])
    return s.close()


WINDS = ("east", "south", "west", "north")


def _winds(dealer: int, passes: int) -> dict:
    return {"round_wind": WINDS[passes // 4 % 4], "seat_winds": [WINDS[(s - dealer) % 4] for s in range(4)]}


def _pinghu_zimo(s: Scene, dealer: int, winner: int) -> None:
    """After one go-around, ``winner`` (123m 456m 789m 123p 5p) draws 5p: 平和 + 自摸 = 2, P = 4."""
    nxt = s.opening_round(dealer)
    while nxt != winner:
        nxt = s.pass_turn(nxt)
    s.draw(winner, "5p")
    s.win([(winner, ["pinghu", "zimo"], 2, 4)], "self_draw", "5p")
    s.settle([((winner + k) % 4, winner, 4, "win") for k in (1, 2, 3)])


def ex14_dealer_and_winds() -> GameBuilder:
    """§11.14 dealer and winds over a game: hand 1 dealer seat 2, seat 0 wins (pass); hand 2
    dealer 3, 流局 (stay); hand 3 seat 3 wins (stay); hand 4 一炮双响 seats 0 and 1 (pass);
    hand 5 dealer 0, seat 2 wins (pass); hand 6 dealer 1, seat 0 wins (pass: four passes);
    hand 7 dealer 2 in the 南 round: seat 3 (南) wins with a 南 triplet, 门风 + 圈风."""
    s = Scene("gd-ex14", creator=2)
    plain = "123m 456m 789m 123p 5p"
    s.hand(2, {0: plain}, reserve="5p", **_winds(2, 0))
    _pinghu_zimo(s, 2, 0)
    s.hand(3, {}, **_winds(3, 1))
    s.discard(3)
    s.until(0, 0)
    s.drawn()
    s.hand(3, {3: plain + " 9s"}, reserve="5p", **_winds(3, 1))
    s.discard(3, "9s")
    s.go_around(0, 3)
    s.draw(3, "5p")
    s.win([(3, ["pinghu", "zimo"], 2, 4)], "self_draw", "5p")
    s.settle([(0, 3, 4, "win"), (1, 3, 4, "win"), (2, 3, 4, "win")])
    s.hand(3, {0: "123m 456m 789m 123p 5p", 1: "123s 456s 789s 123p 5p", 3: "5p"}, avoid="5p", **_winds(3, 1))
    nxt = s.opening_round(3)
    while nxt != 3:
        nxt = s.pass_turn(nxt)
    s.draw(3)
    s.discard(3, "5p")
    s.win([(0, ["pinghu"], 1, 2), (1, ["pinghu"], 1, 2)], "discard", "5p", from_seat=3)
    s.settle([(3, 0, 2, "win"), (3, 1, 2, "win")])
    s.hand(0, {2: plain}, reserve="5p", **_winds(0, 2))
    _pinghu_zimo(s, 0, 2)
    s.hand(1, {0: plain}, reserve="5p", **_winds(1, 3))
    _pinghu_zimo(s, 1, 0)
    s.hand(2, {3: "222z 123m 456m 789p 5s"}, reserve="5s", **_winds(2, 4))
    nxt = s.opening_round(2)
    while nxt != 3:
        nxt = s.pass_turn(nxt)
    s.draw(3, "5s")
    s.win([(3, ["jihu", "zimo", "menfeng", "quanfeng"], 3, 8)], "self_draw", "5s")
    s.settle([(0, 3, 8, "win"), (1, 3, 8, "win"), (2, 3, 8, "win")])
    return s.close()


def ex10_dasanyuan_bao(on_discard: bool = False) -> GameBuilder:
    """§11.10 大三元 包自摸: seat 3 ponged 中 (seat 1), 发 (seat 2), then 白 from seat 0, and
    holds 234m 7s: drawing 7s, 大三元 6: seat 0 pays 192; on seat 1's 7s, seat 1 pays 64."""
    s = Scene("gd-ex10b" if on_discard else "gd-ex10a")
    s.hand(0, {3: "77z 66z 55z 234m 7s 1m 4p 9p", 1: "7z" + (" 7s" if on_discard else ""), 2: "6z", 0: "5z"},
           reserve="" if on_discard else "7s")
    s.discard(0)
    s.draw(1)
    s.discard(1, "7z")
    s.pong(3, 1, "7z")
    s.discard(3, "1m")
    s.pass_turn(0)
    s.pass_turn(1)
    s.draw(2)
    s.discard(2, "6z")
    s.pong(3, 2, "6z")
    s.discard(3, "4p")
    s.draw(0)
    s.discard(0, "5z")
    s.pong(3, 0, "5z")
    s.discard(3, "9p")
    if on_discard:
        s.pass_turn(0)
        s.draw(1)
        s.discard(1, "7s")
        s.win([(3, ["dasanyuan"], 6, 64)], "discard", "7s", from_seat=1)
        s.settle([(1, 3, 64, "win")])
    else:
        s.go_around(0, 3)
        s.draw(3, "7s")
        s.win([(3, ["dasanyuan"], 6, 64)], "self_draw", "7s")
        s.settle([(0, 3, 192, "bao_special")])
    return s.close()


def dasanyuan_discarded(trigger: Optional[str] = "discarded") -> GameBuilder:
    """大三元 包 with ``bao_special_trigger = discarded``: seat 3 ponged 中 (seat 1) and 发
    (seat 2); holding 白白, it lets seat 0's 白 go, later draws the last 白 and wins on 7s:
    大三元 6, P = 64.  Seat 0 threw the remaining dragon while two were exposed: it pays
    192 (under the default ``claimed`` nobody is liable: each other seat pays 64)."""
    s = Scene("gd-opt-bao-discarded", options={"bao_special_trigger": trigger} if trigger else {})
    s.hand(0, {3: "77z 66z 55z 234m 78s 1m 4p", 1: "7z", 2: "6z", 0: "5z"}, reserve="5z 7s")
    s.discard(0)
    s.draw(1)
    s.discard(1, "7z")
    s.pong(3, 1, "7z")
    s.discard(3, "1m")
    s.pass_turn(0)
    s.pass_turn(1)
    s.draw(2)
    s.discard(2, "6z")
    s.pong(3, 2, "6z")
    s.discard(3, "4p")
    s.draw(0)
    s.discard(0, "5z")  # seat 3 could pong it and does not
    s.pass_turn(1)
    s.pass_turn(2)
    s.draw(3, "5z")
    s.discard(3, "8s")
    s.go_around(0, 3)
    s.draw(3, "7s")
    s.win([(3, ["dasanyuan"], 6, 64)], "self_draw", "7s")
    if trigger == "discarded":
        s.settle([(0, 3, 192, "bao_special")])
    else:
        s.settle([(0, 3, 64, "win"), (1, 3, 64, "win"), (2, 3, 64, "win")])
    return s.close()


def bao_precedence(order: Optional[str] = "luodi_first") -> GameBuilder:
    """``bao_precedence``: seat 3 ponged 中 (seat 1), 发 (seat 2) and 白 (seat 0), then chowed
    seat 2's 4m as its fourth exposed set, and draws 7s: 大三元 6, P = 64.  Seat 0 fed the
    last dragon (大三元 包), seat 2 the fourth set (12张落地 包): under ``luodi_first``
    seat 2 pays 192 (under the default ``special_first`` seat 0 does)."""
    s = Scene("gd-opt-bao-precedence", options={"bao_precedence": order} if order else {})
    s.hand(0, {3: "77z 66z 55z 23m 7s 1m 4p 9p 8p", 1: "7z", 2: "6z 4m", 0: "5z"}, reserve="7s")
    s.discard(0)
    s.draw(1)
    s.discard(1, "7z")
    s.pong(3, 1, "7z")
    s.discard(3, "1m")
    s.pass_turn(0)
    s.pass_turn(1)
    s.draw(2)
    s.discard(2, "6z")
    s.pong(3, 2, "6z")
    s.discard(3, "4p")
    s.draw(0)
    s.discard(0, "5z")
    s.pong(3, 0, "5z")
    s.discard(3, "9p")
    s.pass_turn(0)
    s.pass_turn(1)
    s.draw(2)
    s.discard(2, "4m")
    s.chow(3, 2, "4m", "23m")
    s.discard(3, "8p")
    s.go_around(0, 3)
    s.draw(3, "7s")
    s.win([(3, ["dasanyuan"], 6, 64)], "self_draw", "7s")
    s.settle([(2 if order == "luodi_first" else 0, 3, 192, "bao_luodi" if order == "luodi_first" else "bao_special")])
    return s.close()


def gangkai_chain(chain: bool = False) -> GameBuilder:
    """``gangkai_bao_chain``: seat 1 konges seat 3's 7s, draws 4p and makes a concealed kong
    of 4p, then draws 4m: 鸡和 + 自摸 = 1, floored to 3, P = 8.  With the chain off the kong
    just before the win is concealed: each other seat pays 8 (with it on, seat 3 pays 24)."""
    s = Scene("gd-opt-gangkai-chain", options={} if chain else {"gangkai_bao_chain": False})
    s.hand(0, {0: "5s", 1: "34s 777s 23m 444p 99p 1z", 3: "7s"}, reserve="4p 4m")
    s.discard(0, "5s")
    s.chow(1, 0, "5s", "34s")
    s.discard(1, "1z")
    s.pass_turn(2)
    s.draw(3)
    s.discard(3, "7s")
    s.kong_exposed(1, 3, "7s")
    s.replacement(1, "4p")
    s.kong_concealed(1, "4p")
    s.replacement(1, "4m")
    s.win([(1, ["jihu", "zimo", "gangshang_kaihua"], 1, 8)], "self_draw", "4m")
    if chain:
        s.settle([(3, 1, 24, "bao_gangkai")])
    else:
        s.settle([(2, 1, 8, "win"), (3, 1, 8, "win"), (0, 1, 8, "win")])
    return s.close()


def jiulian_loose(strict: bool = False) -> GameBuilder:
    """``jiulian_strict = off``: seat 1 holds 1112345678899m and draws 9m; the final hand holds
    1112345678999 plus an 8m: 九莲宝灯 6, each other seat pays 64.  (Strict: the 13 tiles
    held are not the waiting shape, so it is 清一色 4: each pays 16.)"""
    s = Scene("gd-opt-jiulian", options={} if strict else {"jiulian_strict": False})
    s.hand(0, {1: "1112345678899m"}, reserve="9m", avoid="9m")
    s.go_around(s.opening_round(0), 0)
    s.draw(1, "9m")
    if strict:
        s.win([(1, ["qingyise"], 4, 16)], "self_draw", "9m")
        s.settle([(2, 1, 16, "win"), (3, 1, 16, "win"), (0, 1, 16, "win")])
    else:
        s.win([(1, ["jiulian"], 6, 64)], "self_draw", "9m")
        s.settle([(2, 1, 64, "win"), (3, 1, 64, "win"), (0, 1, 64, "win")])
    return s.close()


def ex11_tianhe() -> GameBuilder:
    """§11.11 天和 (dealer seat 2): the 14 dealt tiles are complete: each other seat pays 64."""
    s = Scene("gd-ex11a", creator=2)
    s.hand(2, {2: "123m 456m 789m 123p 55p"})
    s.win([(2, ["tianhe"], 6, 64)], "self_draw", "5p")
    s.settle([(3, 2, 64, "win"), (0, 2, 64, "win"), (1, 2, 64, "win")])
    return s.close()


def ex11_renhe(second: bool = False, scope: Optional[str] = None) -> GameBuilder:
    """§11.11 人和: the dealer's (seat 2) first discard 9m completes seat 3 (no draw yet):
    seat 2 pays 64.  ``second``: seat 3 lets it go, draws and throws 1s, which completes
    seat 0 (no draw, no calls): 人和, seat 3 pays 64 — under ``dealer_first_discard`` a
    鸡和 paying 1."""
    name = "gd-ex11c" if second and scope else "gd-ex11b" if second else "gd-ex11r"
    s = Scene(name, options={"renhe_scope": scope} if scope else None, creator=2)
    s.hand(2, {2: "9m", 3: "78m 123p 456p 789p 11s", 0: "123m 456m 999p 23s 1z 1z"}, reserve="1s")
    s.discard(2, "9m")
    if not second:
        s.win([(3, ["renhe"], 6, 64)], "discard", "9m", from_seat=2)
        s.settle([(2, 3, 64, "win")])
        return s.close()
    s.draw(3, "1s")
    s.discard(3, "1s")
    if scope == "dealer_first_discard":
        s.win([(0, ["jihu"], 0, 1)], "discard", "1s", from_seat=3)
        s.settle([(3, 0, 1, "win")])
    else:
        s.win([(0, ["renhe"], 6, 64)], "discard", "1s", from_seat=3)
        s.settle([(3, 0, 64, "win")])
    return s.close()


def ex11_dihe(**winds) -> GameBuilder:
    """§11.11 地和: seat 0's first draw completes its hand, no calls before: each pays 64
    (``winds``: the round and seat winds the log states)."""
    s = Scene("gd-ex11d", creator=2)
    s.hand(2, {0: "123m 456m 789s 123p 5p"}, reserve="5p", **winds)
    s.discard(2)
    s.pass_turn(3)
    s.draw(0, "5p")
    s.win([(0, ["dihe"], 6, 64)], "self_draw", "5p")
    s.settle([(1, 0, 64, "win"), (2, 0, 64, "win"), (3, 0, 64, "win")])
    return s.close()


def ex12_louhe(on_same_tile: bool = False, scope: Optional[str] = None) -> GameBuilder:
    """§11.12 漏和: seat 3 (34m, waits 2m/5m) lets seat 0's 2m go; it may then win seat 2's
    5m (平和 1: seat 2 pays 2) but not seat 1's 2m (WIN_DURING_LOUHE), nor, under
    ``louhe_scope = any_discard``, the 5m."""
    name = "gd-ex12" + ("-same" if on_same_tile else "") + ("-any" if scope else "")
    s = Scene(name, options={"louhe_scope": scope} if scope else None)
    s.hand(0, {3: "34m 123p 456p 789s 11z", 0: "2m", 1: "2m", 2: "5m"}, avoid="2m 5m")
    s.go_around(s.opening_round(0), 3)
    s.draw(0)
    s.discard(0, "2m")
    s.draw(1)
    if on_same_tile:
        s.discard(1, "2m")
        s.win([(3, ["pinghu"], 1, 2)], "discard", "2m", from_seat=1)
        s.settle([(1, 3, 2, "win")])
        return s.close()
    s.discard(1)
    s.draw(2)
    s.discard(2, "5m")
    s.win([(3, ["pinghu"], 1, 2)], "discard", "5m", from_seat=2)
    s.settle([(2, 3, 2, "win")])
    return s.close()


def ex13_haidi() -> GameBuilder:
    """§11.13 海底捞月 with B = 2: seat 1 draws the last tile for a 鸡和: 0 + 自摸 = 1,
    floored to 3, P = 16: each other seat pays 16."""
    s = Scene("gd-ex13", options={"base": 2}, creator=2)
    s.hand(2, {1: "123m 456m 789p 222s 5s"}, reserve="5s")
    s.discard(2)
    nxt = s.until(3, 1)
    assert nxt == 1, nxt
    s.draw(1, "5s")
    s.win([(1, ["jihu", "zimo", "haidi"], 1, 16)], "self_draw", "5s")
    s.settle([(2, 1, 16, "win"), (3, 1, 16, "win"), (0, 1, 16, "win")])
    return s.close()


#: Sample name -> the function writing it (the §11 examples and their variants).
EXAMPLES: dict[str, Callable[[], GameBuilder]] = {
    "gd_ex01_jihu_discard": ex01_jihu_on_a_discard,
    "gd_ex02_pinghu_self_draw": ex02_pinghu_self_draw,
    "gd_ex03_cap": ex03_the_cap,
    "gd_ex04_qingyise_self_draw": ex04_special_hand,
    "gd_ex04_qingyise_discard": lambda: ex04_special_hand(True),
    "gd_ex05_hunyise_sanyuan_cap": ex05_dragons,
    "gd_ex05_xiaosanyuan": lambda: ex05_dragons(True),
    "gd_ex06_gangkai_bao": ex06_gangkai_bao,
    "gd_ex06_gangkai_added_kong": lambda: ex06_gangkai_bao(True),
    "gd_ex07_qianggang": ex07_qianggang,
    "gd_ex08_yipao_sanxiang": ex08_yipao_sanxiang,
    "gd_ex08_two_winners_no_floor": lambda: ex08_yipao_sanxiang(False),
    "gd_ex09_luodi_bao_zimo": ex09_luodi,
    "gd_ex09_luodi_second_feed_not_liable": lambda: ex09_luodi("b"),
    "gd_ex09_luodi_discard_win": lambda: ex09_luodi("c"),
    "gd_ex10_dasanyuan_bao": ex10_dasanyuan_bao,
    "gd_ex10_dasanyuan_discard": lambda: ex10_dasanyuan_bao(True),
    "gd_ex11_tianhe": ex11_tianhe,
    "gd_ex11_renhe_dealer_discard": ex11_renhe,
    "gd_ex11_renhe_first_go_around": lambda: ex11_renhe(True),
    "gd_ex11_renhe_scope_dealer_first_discard": lambda: ex11_renhe(True, "dealer_first_discard"),
    "gd_ex11_dihe": ex11_dihe,
    "gd_ex12_louhe_other_tile": ex12_louhe,
    "gd_ex13_haidi_base2": ex13_haidi,
    "gd_ex14_dealer_and_winds": ex14_dealer_and_winds,
}

#: Rooms with an option value that changes the money, each audited clean.
OPTION_ROOMS: dict[str, Callable[[], GameBuilder]] = {
    "gd_rob_two_robbers": two_robbers,
    "gd_opt_yipao_three_shares": lambda: repaid(reopened(ex08_yipao_sanxiang(), yipao_sanxiang_pay="three_shares"),
                                                [(0, 1, 24, "win"), (0, 2, 24, "win"), (0, 3, 48, "win")]),
    "gd_opt_kong_payments_on_win": lambda: repaid(reopened(ex06_gangkai_bao(), kong_payments="on_win"),
                                                  [(3, 1, 24, "bao_gangkai"), (3, 1, 3, "kong")]),
    "gd_opt_seven_pairs_fan_5": lambda: _seven_pairs(),
    "gd_opt_bao_special_discarded": dasanyuan_discarded,
    "gd_opt_multi_win_off_jiehu": jiehu,
    "gd_opt_bao_precedence_luodi_first": bao_precedence,
    "gd_opt_gangkai_bao_chain_off": gangkai_chain,
    "gd_opt_jiulian_not_strict": jiulian_loose,
    "gd_opt_seven_pairs_fan_4": lambda: _seven_pairs(4),
    "gd_opt_seven_pairs_fan_6": lambda: _seven_pairs(6),
    "gd_opt_louhe_on_rob_off": rob_after_passed_discard,
    "gd_opt_multi_win_off_rob_first": lambda: two_robbers((2,), {"multi_win": False}, "gd-opt-jiehu-rob"),
    "gd_opt_base_types_stack": lambda: rescored(
        repaid(reopened(_pinghu_hunyise(), base_types_stack=True), [(0, 2, 8, "win")]), ["pinghu", "hunyise"], 3, 8),
}


def _seven_pairs(fan: int = 5) -> GameBuilder:
    """七对 with ``seven_pairs_fan`` (5: seat 2 wins seat 1's 7z with seven pairs: 32; 4: 16; 6: 64)."""
    s = Scene("gd-opt-qidui" if fan == 5 else f"gd-opt-qidui-{fan}", options={"seven_pairs_fan": fan})
    s.hand(0, {2: "1122m 3344p 5566s 7z", 1: "7z"}, avoid="7z 1m 2m 3p 4p 5s 6s")
    nxt = s.opening_round(0)
    s.draw(nxt)
    s.discard(1, "7z")
    points = {4: 16, 5: 32, 6: 64}[fan]
    s.win([(2, ["qidui"], fan, points)], "discard", "7z", from_seat=1)
    s.settle([(1, 2, points, "win")])
    return s.close()


def _pinghu_hunyise() -> GameBuilder:
    """Seat 2 (123m 456m 789m 23m 1z1z) wins seat 0's 4m: 平和 + 混一色, one type: 2 → 4."""
    s = Scene("gd-opt-stack")
    s.hand(0, {2: "123m 456m 789m 23m 11z", 0: "4m"}, avoid="1m 4m")
    s.go_around(s.opening_round(0), 3)
    s.draw(0)
    s.discard(0, "4m")
    s.win([(2, ["hunyise"], 2, 4)], "discard", "4m", from_seat=0)
    s.settle([(0, 2, 4, "win")])
    return s.close()


EXAMPLES["gd_pinghu_hunyise_one_type"] = _pinghu_hunyise

#: Rooms that break a rule on purpose, with the finding each must give (a list: the findings,
#: in the order the audit reports them).
NEAR_MISSES: dict[str, tuple[Callable[[], GameBuilder], "str | list[str]"]] = {
    "gd_ex12_louhe_same_tile": (lambda: ex12_louhe(True), "WIN_DURING_LOUHE"),
    "gd_ex12_louhe_any_discard": (lambda: ex12_louhe(False, "any_discard"), "WIN_DURING_LOUHE"),
    "gd_bao_paid_by_all": (lambda: repaid(ex06_gangkai_bao(), [(2, 1, 8, "win"), (3, 1, 8, "win"),
                                                               (0, 1, 8, "win")]), "BAO_PAYER"),
    "gd_bao_after_added_kong": (lambda: repaid(ex06_gangkai_bao(True), [(2, 1, 24, "bao_gangkai")]), "BAO_UNDUE"),
    "gd_bao_on_discard_win": (lambda: repaid(ex10_dasanyuan_bao(True), [(0, 3, 64, "bao_special")]), "BAO_UNDUE"),
    "gd_kong_payment_undue": (lambda: repaid(ex06_gangkai_bao(), [(3, 1, 24, "bao_gangkai"), (3, 1, 3, "kong")]),
                              "KONG_PAYMENT_UNDUE"),
    "gd_min_fan_jihu": (lambda: reopened(ex01_jihu_on_a_discard(), min_fan=1), "WIN_BELOW_MIN_FAN"),
    "gd_floor_missing": (lambda: repaid(rescored(ex06_gangkai_bao(), ["jihu", "zimo", "gangshang_kaihua"], 1, 2),
                                        [(3, 1, 6, "bao_gangkai")]), "POINTS_MISMATCH"),
    "gd_cap_exceeded": (lambda: repaid(rescored(ex03_the_cap(), ["duidui", "zimo", "menfeng", "quanfeng", "sanyuan"],
                                                6, 64), [(1, 0, 64, "win"), (2, 0, 64, "win"), (3, 0, 64, "win")]),
                        "POINTS_MISMATCH"),
    "gd_zimo_on_special": (lambda: repaid(rescored(ex04_special_hand(), ["qingyise", "zimo"], 5, 32),
                                          [(3, 2, 32, "win"), (0, 2, 32, "win"), (1, 2, 32, "win")]), "FAN_MISMATCH"),
    "gd_bao_special_discarded_paid_by_all": (lambda: repaid(dasanyuan_discarded(), [
        (0, 3, 64, "win"), (1, 3, 64, "win"), (2, 3, 64, "win")]), "BAO_PAYER"),
    "gd_bao_special_claimed_not_discarded": (lambda: repaid(dasanyuan_discarded(None), [
        (0, 3, 192, "bao_special")]), "BAO_UNDUE"),
    "gd_jiehu_second_winner_paid": (lambda: reopened(ex08_yipao_sanxiang(False), multi_win=False),
                                    "CLAIM_PRIORITY"),
    "gd_jiehu_wrong_winner": (lambda: jiehu(3), "CLAIM_PRIORITY"),
    "gd_luodi_second_feed_billed": (lambda: repaid(ex09_luodi("b"), [(0, 2, 6, "bao_luodi")]), "BAO_UNDUE"),
    "gd_fan_name_omitted": (lambda: rescored(ex06_gangkai_bao(), ["jihu", "zimo"], 1, 8), "FAN_NAMES_DIFFER"),
    "gd_jiehu_rob_wrong_winner": (lambda: two_robbers((3,), {"multi_win": False}, "gd-jiehu-rob-wrong"),
                                  "CLAIM_PRIORITY"),
    "gd_jiehu_rob_both_paid": (lambda: two_robbers((2, 3), {"multi_win": False}, "gd-jiehu-rob-both"),
                               "CLAIM_PRIORITY"),
    "gd_rob_missed_multi": (lambda: two_robbers((2,), None, "gd-rob-missed"), "WIN_MISSED_MULTI"),
    "gd_louhe_on_rob_bars_rob": (lambda: rob_after_passed_discard(True), "WIN_DURING_LOUHE"),
    "gd_yipao_incomplete_third_no_floor": (yipao_incomplete_third,
                                           ["FAN_MISMATCH", "WIN_INCOMPLETE", "FAN_MISMATCH", "POINTS_MISMATCH"]),
}
