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

from .scenes import WuhanScene, reopened, repaid, rescored


def ex02_pihu_discard(options: dict | None = None, game: str = "wh-ex02", variant: str = "") -> GameBuilder:
    """§12.2: indicator 4p (W 5p), dealer 0.  Seat 2 pongs 7s from seat 0; seat 3 chows 789p
    from seat 2 and lays a 红中杠; seat 1 pongs 东 from seat 0 and throws 5s; seat 2 wins a soft
    屁胡 (123m 456m 345s, the pair 8m + 5p with the 癞子 as 8m): 8 + 4 + 8 = 20."""
    opts = options or {}
    s = WuhanScene(game, opts)
    s.hand(0, {0: "7s 1z", 1: "1z 1z 5s", 2: "123m 456m 34s 8m 5p 77s " + ("6p" if variant == "wild_chow" else "9p"), 3: "78p 7z 4p 5p"}, indicator="4p",
           avoid="6s 9s 2s 8m 5s 9p 6p 7p 2m 5m 3s 4s 1z 4p")
    if variant == "set_aside_filler":  # SET_ASIDE_INVALID: the dealer sets an ordinary tile aside
        s.set_aside(0, s.fill[0].pop())
    s.discard(0, "7s")
    s.pong(2, 0, "7s")
    if variant == "wild_chow":  # CLAIM_SPECIAL_TILE: seat 3 chows 456p with its 癞子 5p as itself
        s.discard(2, "6p")
        s.chow(3, 2, "6p", "45p")
    else:
        s.discard(2, "9p")
        s.chow(3, 2, "9p", "78p")
    if variant == "pi_discarded":  # SPECIAL_TILE_DISCARDED: the 红中 thrown, not laid down (its 番 counts)
        s.discard(3, "7z")
    elif variant in _ROBBED_SET_ASIDE:
        # ROB_CONCEALED_KONG: seat 2 "robs" seat 3's 红中杠 / 癞子杠 — only an added kong is robbed (§5.3, §7.6)
        tile = _ROBBED_SET_ASIDE[variant]
        s.hands[3][tile] -= 1
        s.b.set_aside(3, tile)
        s.win([(2, ["jihu"], 1, 1, [(3, 2, 8, 8), (0, 1, 4, 4), (1, 2, 8, 8)])], "robbed_kong", tile, from_seat=3)
        s.settle([(3, 2, 8, "win"), (0, 2, 4, "win"), (1, 2, 8, "win")])
        return s.close()
    else:
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


#: the near misses that rob a single-tile kong: the tile set aside (红中杠, 癞子杠)
_ROBBED_SET_ASIDE = {"rob_pi_kong": "7z", "rob_laizi_kong": "5p"}


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
        s.win([(1, ["qingyise"], 3, 10, [(2, 2, 320, 300), (3, 0, 80, 80), (0, 1, 160, 160)])], "self_draw", "4m")
        s.settle([(2, 1, 300, "win"), (3, 1, 80, "win"), (0, 1, 160, "win")])
    else:
        s.win([(1, ["qingyise"], 1, 10, [(2, 2, 120, 120), (3, 0, 30, 30), (0, 1, 60, 60)])], "self_draw", "4m")
        s.settle([(2, 1, 120, "win"), (3, 1, 30, "win"), (0, 1, 60, "win")])
    return s.close()


def ex05_qingyise_sanpu(bao_sanpu: str = "qingyise") -> GameBuilder:
    """§12.5: indicator 4s (W 5s), dealer 1 (two 红中杠, pongs 3s).  Seat 2 pongs 1p from seat 3,
    chows 456p from seat 1, pongs 9p from seat 0 (its third call); seat 0 lays a 暗杠 8m; seat 3
    pongs 东 and throws 4p: a hard 清一色, shares 120 / 160 / 300 (capped); seat 0 pays all 580
    (放三铺).  ``bao_sanpu = off``: each seat pays its own share."""
    off = bao_sanpu == "off"
    s = WuhanScene("wh-ex05b" if off else "wh-ex05", {"bao_sanpu": "off"} if off else None)
    s.hand(1, {1: "7z 7z 3s 3s 6p", 2: "1p 1p 45p 9p 9p 23p 77p", 3: "1p 3s 1z 1z 4p", 0: "8m 8m 8m 8m 1z 9p"},
           indicator="4s", avoid="1p 2p 3p 4p 5p 6p 7p 8p 9p 3s 1z 8m")
    s.set_aside(1, "7z")
    s.set_aside(1, "7z")
    s.discard(1)
    s.pass_turn(2)
    s.draw(3)
    s.discard(3, "1p")
    s.pong(2, 3, "1p")
    s.discard(2)
    s.draw(3)
    s.discard(3, "3s")
    s.pong(1, 3, "3s")
    s.discard(1, "6p")
    s.chow(2, 1, "6p", "45p")
    s.discard(2)
    s.pass_turn(3)
    s.draw(0)
    s.kong_concealed(0, "8m")
    s.replacement(0)
    s.discard(0, "1z")
    s.pong(3, 0, "1z")
    s.discard(3)
    s.draw(0)
    s.discard(0, "9p")
    s.pong(2, 0, "9p")
    s.discard(2)
    s.draw(3)
    s.discard(3, "4p")
    s.win([(2, ["qingyise", "yinghu"], 2, 10, [(3, 1, 120, 120), (0, 2, 160, 160), (1, 3, 320, 300)])],
          "discard", "4p", from_seat=3)
    s.settle([(3, 2, 120, "win"), (0, 2, 160, "win"), (1, 2, 300, "win")] if off else [(0, 2, 580, "bao_sanpu")])
    return s.close()


def ex06_qianggang() -> GameBuilder:
    """§12.6: W 5p, dealer 0 pongs 6p from seat 1, draws the fourth and adds it; seat 2 (chowed
    345m from seat 1; 78p 123s 789s 22s) robs it: a hard 抢杠, shares 120 / 40 / 80, all paid by
    the adder (240, reason qianggang)."""
    s = WuhanScene("wh-ex06")
    s.hand(0, {0: "6p 6p 3z", 1: "6p 5m", 2: "34m 78p 123s 789s 22s", 3: "3z 3z"}, indicator="4p", reserve="6p",
           avoid="6p 5m 3m 4m 7p 8p 9p 1s 2s 3s 7s 8s 9s 3z")
    s.discard(0)
    s.draw(1)
    s.discard(1, "6p")
    s.pong(0, 1, "6p")
    s.discard(0, "3z")
    s.pong(3, 0, "3z")
    s.discard(3)
    s.pass_turn(0)
    s.draw(1)
    s.discard(1, "5m")
    s.chow(2, 1, "5m", "34m")
    s.discard(2)
    s.pass_turn(3)
    s.draw(0, "6p")
    s.kong_added(0, "6p")
    s.win([(2, ["qianggang", "yinghu"], 2, 10, [(3, 1, 80, 80), (0, 1, 120, 120), (1, 0, 40, 40)])],
          "robbed_kong", "6p", from_seat=0)
    s.settle([(0, 2, 240, "qianggang")])
    return s.close()


def ex07_gangkai_jinding(koukou: bool = False) -> GameBuilder:
    """§12.7: indicator 9s (W 1s), dealer 0.  Seat 3 pongs 2m from seat 2, lays a 红中杠, makes a
    直杠 of 8s on seat 0's discard, lays a 癞子杠 on its replacement; seat 0 pongs 西, seat 2 chows
    123p and lays a 暗杠 4m; seat 3 draws 中, lays a second 红中杠 and wins on the replacement 9m:
    碰碰胡 + 杠开, H 20, F_w 7; 金顶: 400 / 500 (阳光顶) / 400 = 1300 (口口番: 500 / 600 / 500)."""
    s = WuhanScene("wh-ex07b" if koukou else "wh-ex07", {"fan_mode": "koukou"} if koukou else None)
    s.hand(0, {0: "8s 3z 3z", 1: "1p 3z", 2: "23p 2m 444m", 3: "22m 888s 7z 111z 99m 55p"}, indicator="9s",
           reserve="1s 7z 9m 4m", avoid="1p 2p 3p 2m 4m 8s 3z 1z 9m 5p")
    s.discard(0)
    s.draw(1)
    s.discard(1, "1p")
    s.chow(2, 1, "1p", "23p")
    s.discard(2, "2m")
    s.pong(3, 2, "2m")
    s.set_aside(3, "7z")
    s.discard(3, _last_drawn(s, 3))
    s.draw(0)
    s.discard(0, "8s")
    s.kong_exposed(3, 0, "8s")
    s.replacement(3, "1s")
    s.set_aside(3, "1s")
    s.discard(3, _last_drawn(s, 3))
    s.pass_turn(0)
    s.draw(1)
    s.discard(1, "3z")
    s.pong(0, 1, "3z")
    s.discard(0)
    s.pass_turn(1)
    s.draw(2, "4m")
    s.kong_concealed(2, "4m")
    s.replacement(2)
    s.discard(2)
    s.draw(3, "7z")
    s.set_aside(3, "7z", "9m")
    names = ["duidui", "gangshang_kaihua", "yinghu"]
    if koukou:
        s.win([(3, names, 8, 20, [(0, 1, 10240, 500), (1, 0, 5120, 600), (2, 3, 40960, 500)])], "self_draw", "9m")
        s.settle([(0, 3, 500, "win"), (1, 3, 600, "win"), (2, 3, 500, "win")])
    else:
        s.win([(3, names, 7, 20, [(0, 1, 5120, 400), (1, 0, 2560, 500), (2, 3, 20480, 400)])], "self_draw", "9m")
        s.settle([(0, 3, 400, "win"), (1, 3, 500, "win"), (2, 3, 400, "win")])
    return s.close()


def _last_drawn(s: WuhanScene, seat: int) -> str:
    """The tile the seat drew last (a filler replacement), to throw it (摸切)."""
    for e in reversed(s.b.events):
        if type(e).__name__ == "TileDrawn" and e.seat == seat:
            return e.tile
    raise ValueError("no draw")


def ex08_quanqiuren(case: str = "a") -> GameBuilder:
    """§12.8: W 5p, dealer 0.  Seat 1 chows 123s (seat 0), pongs 5m (seat 3), pongs 东 (seat 2),
    chows 678p (seat 0) and wins seat 3's 8m on its last tile: a hard 全求人, shares 120 / 40 /
    80.  (a) seat 3 was ready (34m 678p 22p 678s): each pays its share; (b) seat 3 was not
    (34m 678p 23p 678s): seat 3 pays 240 (全求人 包); (c) ``quanqiuren_bao = always``: seat 3 pays
    240 though ready."""
    held = "34m 678p 23p 678s" if case == "b" else "34m 678p 22p 678s"
    s = WuhanScene(f"wh-ex08{case}", {"quanqiuren_bao": "always"} if case == "c" else None)
    s.hand(0, {0: "1s 4z 6p", 1: "23s 55m 1z 1z 78p 8m", 2: "9s 1z 4z 4z", 3: f"9s 9s 5m {held}"},
           indicator="4p", reserve="8m", avoid="1s 2s 3s 5m 1z 4z 6p 7p 8p 9s 8m 2m 5m 1p 4p 2p 3p")
    s.discard(0, "1s")
    s.chow(1, 0, "1s", "23s")
    s.discard(1)
    s.draw(2)
    s.discard(2, "9s")
    s.pong(3, 2, "9s")
    s.discard(3, "5m")
    s.pong(1, 3, "5m")
    s.discard(1)
    s.draw(2)
    s.discard(2, "1z")
    s.pong(1, 2, "1z")
    s.discard(1)
    s.pass_turn(2)
    s.pass_turn(3)
    s.draw(0)
    s.discard(0, "4z")
    s.pong(2, 0, "4z")
    s.discard(2)
    s.pass_turn(3)
    s.draw(0)
    s.discard(0, "6p")
    s.chow(1, 0, "6p", "78p")
    s.discard(1)
    s.pass_turn(2)
    s.draw(3, "8m")
    s.discard(3, "8m")
    s.win([(1, ["quanqiuren", "yinghu"], 2, 10, [(2, 1, 80, 80), (3, 1, 120, 120), (0, 0, 40, 40)])],
          "discard", "8m", from_seat=3)
    if case == "a":
        s.settle([(2, 1, 80, "win"), (3, 1, 120, "win"), (0, 1, 40, "win")])
    else:
        s.settle([(3, 1, 240, "bao_quanqiuren")])
    return s.close()


def ex09_pihu_modes(koukou: bool = False) -> GameBuilder:
    """§12.9: indicator 9s (W 1s), dealer 1.  Seat 2 chows 234m and 567s from seat 1, pongs 9p
    from seat 3, holds 55m 7p 1s and wins seat 0's 6p (a soft 屁胡).  Seat 0 made one call, the
    dealer two, seat 3 none: 开口番 8 + 8 + 2 = 18; 口口番 32 + 64 + 8 = 104."""
    s = WuhanScene("wh-ex09b" if koukou else "wh-ex09", {"fan_mode": "koukou"} if koukou else None)
    s.hand(1, {1: "4m 7s 3z 3z 2z 2z 4z", 2: "23m 56s 9p 9p 55m 7p 1s", 3: "9p 3z 2z", 0: "4z 4z 6p"},
           indicator="9s", avoid="2m 3m 4m 5m 5s 6s 7s 4s 8s 9p 7p 6p 5p 8p 3z 2z 4z")
    s.discard(1, "4m")
    s.chow(2, 1, "4m", "23m")
    s.discard(2)
    s.draw(3)
    s.discard(3, "9p")
    s.pong(2, 3, "9p")
    s.discard(2)
    s.draw(3)
    s.discard(3, "3z")
    s.pong(1, 3, "3z")
    s.discard(1, "7s")
    s.chow(2, 1, "7s", "56s")
    s.discard(2)
    s.draw(3)
    s.discard(3, "2z")
    s.pong(1, 3, "2z")
    s.discard(1, "4z")
    s.pong(0, 1, "4z")
    s.discard(0, "6p")
    if koukou:
        s.win([(2, ["jihu"], 3, 1, [(3, 0, 8, 8), (0, 2, 32, 32), (1, 3, 64, 64)])], "discard", "6p", from_seat=0)
        s.settle([(3, 2, 8, "win"), (0, 2, 32, "win"), (1, 2, 64, "win")])
    else:
        s.win([(2, ["jihu"], 1, 1, [(3, 0, 2, 2), (0, 2, 8, 8), (1, 2, 8, 8)])], "discard", "6p", from_seat=0)
        s.settle([(3, 2, 2, "win"), (0, 2, 8, "win"), (1, 2, 8, "win")])
    return s.close()


def ex12_jiangyise() -> GameBuilder:
    """§12.12: indicator 5m (W 6m), dealer 0.  Seat 1 chows 123m from seat 0; seat 3 pongs 2p
    from seat 1 and 8s from seat 2, holds 5m 8m 2s 5s 8p 6m 6m and draws 5p: 将一色 with two 癞子
    (soft), ×1.5: 30 + 60 + 30 = 120."""
    s = WuhanScene("wh-ex12")
    s.hand(0, {0: "3m", 1: "12m 2p", 2: "8s", 3: "2p 2p 8s 8s 5m 8m 2s 5s 8p 6m 6m"}, indicator="5m", reserve="5p",
           avoid="1m 2m 3m 5m 8m 2p 5p 8p 2s 5s 8s")
    s.discard(0, "3m")
    s.chow(1, 0, "3m", "12m")
    s.discard(1, "2p")
    s.pong(3, 1, "2p")
    s.discard(3)
    s.pass_turn(0)
    s.pass_turn(1)
    s.draw(2)
    s.discard(2, "8s")
    s.pong(3, 2, "8s")
    s.discard(3)
    s.pass_turn(0)
    s.pass_turn(1)
    s.pass_turn(2)
    s.draw(3, "5p")
    s.win([(3, ["jiangyise"], 1, 10, [(0, 0, 30, 30), (1, 1, 60, 60), (2, 0, 30, 30)])], "self_draw", "5p")
    s.settle([(0, 3, 30, "win"), (1, 3, 60, "win"), (2, 3, 30, "win")])
    return s.close()


def ex10_haidi(win: bool = True, variant: str = "") -> GameBuilder:
    """§12.10: W 5p, dealer 0.  Seat 3 pongs 9s from seat 1 and chows 456m from seat 2; seat 0
    pongs 发; seat 2 pongs 6s and adds the fourth.  With 14 tiles undrawn (D = 4) seat 2 is due:
    the 海底 phase.  Seat 2 draws 7m and keeps it; seat 3 draws 2m: a hard 海底捞, 80 + 40 + 160 =
    280.  ``win`` False: nobody wins; seats 0 and 1 draw the last two tiles and the hand is 黄庄
    with 10 tiles undrawn."""
    s = WuhanScene(("wh-ex10" if win else "wh-ex10b") + variant)
    seat1 = "9s 6s" + (" 7m 7m" if variant == "haidi_claim" else "")
    s.hand(0, {0: "6z 6z", 1: seat1, 2: "6s 6s 6z 6m", 3: "9s 9s 45m 22s 34m 678p"}, indicator="4p",
           reserve="6s 7m 2m", avoid="2m 5m 1m 4m 3m 6m 9s 6s 6z 2s 6p 7p 8p 7m 3s 4s")
    s.discard(0)
    s.draw(1)
    s.discard(1, "9s")
    s.pong(3, 1, "9s")
    s.discard(3)
    s.pass_turn(0)
    s.draw(1)
    s.discard(1, "6s")
    s.pong(2, 1, "6s")
    s.discard(2, "6z")
    s.pong(0, 2, "6z")
    s.discard(0)
    s.pass_turn(1)
    s.draw(2)
    s.discard(2, "6m")
    s.chow(3, 2, "6m", "45m")
    s.discard(3)
    s.pass_turn(0)
    s.pass_turn(1)
    s.draw(2, "6s")
    s.kong_added(2, "6s")
    s.replacement(2)
    s.discard(2)
    seat = 3
    while not (s.undrawn == 14 and seat == 2):
        seat = s.pass_turn(seat)
    if variant == "haidi_kong":  # KONG_WITHOUT_REPLACEMENT: a 红中杠 in the 海底 phase (its 番 counts)
        s.draw(2, "7z")
        s.set_aside(2, "7z", "7m")
    elif variant == "haidi_discard":  # SEA_BOTTOM_ORDER: a discard in the 海底 phase (the 海底 draw comes next)
        s.draw(2, "7m")
        s.discard(2, "7m")
    elif variant == "haidi_claim":  # SEA_BOTTOM_ORDER twice: a discard in the 海底 phase, and seat 1's pong of it
        s.draw(2, "7m")
        s.discard(2, "7m")
        s.pong(1, 2, "7m")
        s.discard(1)
        for seat in (2, 3, 0):
            s.draw(seat)
        s.drawn()
        return s.close()
    else:
        s.draw(2, "7m")
    if win and variant == "haidi_kong":
        s.draw(3, "2m")
        s.win([(3, ["haidi", "yinghu"], 2, 10, [(0, 1, 80, 80), (1, 0, 40, 40), (2, 3, 320, 300)])], "self_draw", "2m")
        s.settle([(0, 3, 80, "win"), (1, 3, 40, "win"), (2, 3, 300, "win")])
    elif win:
        s.draw(3, "2m")
        s.win([(3, ["haidi", "yinghu"], 2, 10, [(0, 1, 80, 80), (1, 0, 40, 40), (2, 2, 160, 160)])], "self_draw", "2m")
        s.settle([(0, 3, 80, "win"), (1, 3, 40, "win"), (2, 3, 160, "win")])
    else:
        # TURN_ORDER near miss (``wrong_seat``): seat 0 draws where seat 3 was due
        for seat in ((0, 1, 2) if variant == "wrong_seat" else (3, 0, 1)):
            s.draw(seat)
        s.drawn()
    return s.close()


def _opened_seat2(game: str, seat2: str, last: str, options: dict | None = None) -> WuhanScene:
    """The opening of §12.2 (W 5p, dealer 0): seat 2 pongs 7s from seat 0, seat 3 chows 789p from
    seat 2 and lays a 红中杠, seat 1 pongs 东 from seat 0 and throws ``last``."""
    s = WuhanScene(game, options)
    s.hand(0, {0: "7s 1z", 1: f"1z 1z {last}", 2: f"{seat2} 77s 9p", 3: "78p 7z"}, indicator="4p",
           reserve="8m 5p 2m 3m", avoid="6s 9s 2s 8m 5s 9p 6p 7p 2m 3m 5m 3s 4s 1z 1m 4m 7m")
    s.discard(0, "7s")
    s.pong(2, 0, "7s")
    s.discard(2, "9p")
    s.chow(3, 2, "9p", "78p")
    s.set_aside(3, "7z")
    s.discard(3)
    s.draw(0)
    s.discard(0, "1z")
    s.pong(1, 0, "1z")
    s.discard(1, last)
    return s


def ex11a_two_laizi(legal: bool = False) -> GameBuilder:
    """§12.11 (a): seat 2 (123m 456m 34s 8m 5p, ponged 7s) lets seat 1's 4z go and draws a second
    5p: a 屁胡 holding two 癞子, WIN_LAIZI_LIMIT (the log pays it as the server did).  ``legal``:
    it draws 8m instead — a soft 屁胡 by self-draw, F_w 2: 16 + 8 + 8 = 32."""
    s = _opened_seat2("wh-ex11a2" if legal else "wh-ex11a", "123m 456m 34s 8m 5p", "4z")
    tile = "8m" if legal else "5p"
    s.draw(2, tile)
    s.win([(2, ["jihu"], 2, 1, [(3, 2, 16, 16), (0, 1, 8, 8), (1, 1, 8, 8)])], "self_draw", tile)
    s.settle([(3, 2, 16, "win"), (0, 2, 8, "win"), (1, 2, 8, "win")])
    return s.close()


def ex11b_pair(tile: str = "3m") -> GameBuilder:
    """§12.11 (b): seat 2 (123m 456m 345s 3m, ponged 7s) wins seat 1's 3m: the pair 33m is not a
    2, 5 or 8 and no 大胡 excuses it — WIN_PAIR_NOT_258.  With 2m (the near miss) a hard 屁胡:
    F_w 2; seat 1 (pong 东, 放冲) 16, the dealer 8, seat 3 (chow, 红中杠) 16: 40."""
    s = _opened_seat2("wh-ex11b" if tile == "3m" else "wh-ex11b2", f"123m 456m 345s {tile}", tile)
    s.win([(2, ["jihu", "yinghu"], 2, 1, [(3, 2, 16, 16), (0, 1, 8, 8), (1, 2, 16, 16)])], "discard", tile,
          from_seat=1)
    s.settle([(3, 2, 16, "win"), (0, 2, 8, "win"), (1, 2, 16, "win")])
    return s.close()


def ex11c_not_opened() -> GameBuilder:
    """§12.11 (c): seat 2 (123m 456m 345s 2m 999p, no call) wins seat 1's 2m: WIN_NOT_OPENED."""
    s = WuhanScene("wh-ex11c")
    s.hand(0, {1: "2m", 2: "123m 456m 345s 2m 999p"}, indicator="4p", avoid="2m 3m 5m 8m 9p 6s 1m 4m 7m 2s 3s")
    s.discard(0)
    s.draw(1)
    s.discard(1, "2m")
    s.win([(2, ["jihu", "yinghu"], 1, 1, [(3, 0, 2, 2), (0, 1, 4, 4), (1, 1, 4, 4)])], "discard", "2m", from_seat=1)
    s.settle([(3, 2, 2, "win"), (0, 2, 4, "win"), (1, 2, 4, "win")])
    return s.close()


def ex11d_holding_pi() -> GameBuilder:
    """§12.11 (d): seat 2 still holds a 红中 (123m 456m 34s 7z 2m, ponged 7s) and declares a win
    on seat 1's 2m: WIN_HOLDING_PI."""
    s = _opened_seat2("wh-ex11d", "123m 456m 34s 7z 2m", "2m")
    s.win([(2, ["jihu"], 1, 1, [(3, 2, 8, 8), (0, 1, 4, 4), (1, 2, 8, 8)])], "discard", "2m", from_seat=1)
    s.settle([(3, 2, 8, "win"), (0, 2, 4, "win"), (1, 2, 8, "win")])
    return s.close()


def ex13_dealer_rotation(mode: str = "rotate", dealer=None, tile: str = "2m", game: str = "") -> GameBuilder:
    """§12.13 (the first two hands): seat 2 wins seat 1's 2m (the §12.11 (b) near miss), then a
    黄庄.  ``rotate``: seat 1 deals the second hand and keeps the deal after it; ``winner``:
    seat 2 deals it.  ``tile`` 3m: the win is §12.11 (b)'s illegal one (WIN_PAIR_NOT_258), and
    the hand counts as 黄庄 for the next dealer (§4): seat 0 deals again, under either option."""
    opts = {"win_dealer": "winner"} if mode == "winner" else None
    game = game or ("wh-ex13" if mode == "rotate" else "wh-ex13b")
    s = _opened_seat2(game, f"123m 456m 345s {tile}", tile, opts)
    s.win([(2, ["jihu", "yinghu"], 2, 1, [(3, 2, 16, 16), (0, 1, 8, 8), (1, 2, 16, 16)])], "discard", tile,
          from_seat=1)
    s.settle([(3, 2, 16, "win"), (0, 2, 8, "win"), (1, 2, 16, "win")])
    dealer = dealer if dealer is not None else (1 if mode == "rotate" else 2)
    s.hand(dealer, {}, indicator="9s")
    s.discard(dealer)
    seat = s.until((dealer + 1) % 4, 14)
    for _ in range(4):  # the 海底 phase: four draws, no discard
        s.draw(seat)
        seat = (seat + 1) % 4
    s.drawn()
    return s.close()


def multi_win_qihu(qihu: int = 8, game: str = "") -> GameBuilder:
    """一炮多响 under 起胡 (§5.1 ``multi_win``, §9.4): W 5p, dealer 0, ``multi_win`` on.  The
    opening of §12.2, with seat 3 (chow 789p, 红中杠) waiting on 5s with 234m 678m 22m 46s.
    Seat 1 throws 5s and seats 2 and 3 both win it; each is settled alone and neither pays the
    other.  Seat 2: the soft 屁胡 of §12.2, F_w 1, the discarder's M 8: seat 1 pays 8, the
    dealer 4 (12).  Seat 3: a hard 屁胡, F_w = opened 1 + 红中杠 1 + 硬胡 1 = 3, the discarder's
    M 2^(3+2) = 32: seat 1 pays 32, the dealer 16 (48).  ``qihu`` 8: both meet it.  With
    ``qihu`` 16 seat 2's 8 falls short (WIN_BELOW_MIN_FAN, seat 2's alone) while seat 3's 32
    meets it: the log pays both as a server did; the rules pay seat 3 alone, with seat 2 (no
    legal winner) paying its share 2^(3+1) = 16 too."""
    s = WuhanScene(game or f"wh-multi-qihu{qihu}", {"multi_win": True, "qihu": qihu})
    s.hand(0, {0: "7s 1z", 1: "1z 1z 5s", 2: "123m 456m 34s 8m 5p 77s 9p", 3: "78p 7z 234m 678m 22m 46s"},
           indicator="4p", avoid="6s 9s 2s 8m 5s 9p 6p 7p 2m 3m 4m 5m 6m 7m 3s 4s 1z 4p")
    s.discard(0, "7s")
    s.pong(2, 0, "7s")
    s.discard(2, "9p")
    s.chow(3, 2, "9p", "78p")
    s.discard(3, s.set_aside(3, "7z"))
    s.draw(0)
    s.discard(0, "1z")
    s.pong(1, 0, "1z")
    s.discard(1, "5s")
    s.win([(2, ["jihu"], 1, 1, [(1, 2, 8, 8), (0, 1, 4, 4)]),
           (3, ["jihu", "yinghu"], 3, 1, [(1, 2, 32, 32), (0, 1, 16, 16)])], "discard", "5s", from_seat=1)
    s.settle([(1, 2, 8, "win"), (0, 2, 4, "win"), (1, 3, 32, "win"), (0, 3, 16, "win")])
    return s.close()


def multi_win_min_basis(both: bool = True, game: str = "") -> GameBuilder:
    """一炮多响 under 起胡 on the smallest paying multiple (``qihu_basis = min``, ``qihu`` 32,
    ``multi_win`` on; §5.1, §9.4): W 5p, dealer 0.  The dealer pongs 9m and lays a 红中杠
    (F 3 with the dealer fan); seat 1 pongs 东, lays a 红中杠 and throws 5s (F 3 with 放冲);
    seat 2 (pong 7s; 123m 456m 34s 88m) and seat 3 (chow 789p; 234m 678m 22m 46s) both win
    it hard, F_w 2.  Each is settled alone: the other winner does not pay it, so each one's
    basis is 2^(2+3) = 32 from seats 0 and 1 (64 each).  ``both`` False: seat 2 lets the tile
    go and seat 3 wins alone; seat 2 (F 1) pays it 2^(2+1) = 8, below 32 — WIN_BELOW_MIN_FAN
    (the log pays 32 + 32 + 8 as a server did)."""
    s = WuhanScene(game or ("wh-multi-min" if both else "wh-nm-multi-min"),
                   {"multi_win": True, "qihu": 32, "qihu_basis": "min"})
    s.hand(0, {0: "7z 7s 1z 9m 9m", 1: "1z 1z 5s 7z", 2: "123m 456m 34s 88m 77s 9p",
               3: "78p 234m 678m 22m 46s 9m"},
           indicator="4p", avoid="6s 9s 2s 8m 5s 9p 6p 7p 1m 2m 3m 4m 5m 6m 7m 9m 3s 4s 1z 4p")
    s.set_aside(0, "7z")
    s.discard(0, "7s")
    s.pong(2, 0, "7s")
    s.discard(2, "9p")
    s.chow(3, 2, "9p", "78p")
    s.discard(3, "9m")
    s.pong(0, 3, "9m")
    s.discard(0, "1z")
    s.pong(1, 0, "1z")
    s.set_aside(1, "7z")
    s.discard(1, "5s")
    if both:
        s.win([(2, ["jihu", "yinghu"], 2, 1, [(1, 3, 32, 32), (0, 3, 32, 32)]),
               (3, ["jihu", "yinghu"], 2, 1, [(1, 3, 32, 32), (0, 3, 32, 32)])], "discard", "5s", from_seat=1)
        s.settle([(1, 2, 32, "win"), (0, 2, 32, "win"), (1, 3, 32, "win"), (0, 3, 32, "win")])
    else:
        s.win([(3, ["jihu", "yinghu"], 2, 1, [(1, 3, 32, 32), (0, 3, 32, 32), (2, 1, 8, 8)])], "discard", "5s",
              from_seat=1)
        s.settle([(1, 3, 32, "win"), (0, 3, 32, "win"), (2, 3, 8, "win")])
    return s.close()


def fengyise_room() -> GameBuilder:
    """风一色 (§7.2, §7.3): W 5p, dealer 0.  Seat 2 pongs 东 from seat 0 and 南 from seat 1, holds
    西西 北北 白白 发 and wins seat 1's 发: 乱风, hard, H 10, F_w 2; seat 1 (discarder, ×1.5) 60, the
    dealer 40, seat 3 40: 140."""
    s = WuhanScene("wh-fengyise")
    s.hand(0, {0: "1z", 1: "2z 6z", 2: "1z 1z 2z 2z 3z 3z 4z 4z 5z 5z 6z"}, indicator="4p", avoid="1z 2z 3z 4z 5z 6z")
    s.discard(0, "1z")
    s.pong(2, 0, "1z")
    s.discard(2)
    s.pass_turn(3)
    s.pass_turn(0)
    s.draw(1)
    s.discard(1, "2z")
    s.pong(2, 1, "2z")
    s.discard(2)
    s.pass_turn(3)
    s.pass_turn(0)
    s.draw(1)
    s.discard(1, "6z")
    s.win([(2, ["fengyise", "yinghu"], 2, 10, [(3, 0, 40, 40), (0, 0, 40, 40), (1, 0, 60, 60)])], "discard", "6z",
          from_seat=1)
    s.settle([(3, 2, 40, "win"), (0, 2, 40, "win"), (1, 2, 60, "win")])
    return s.close()


def unopened_jinding(hading: bool = False) -> GameBuilder:
    """金顶 with no paying seat opened (§9.3): seat 3 wins 碰碰胡 + 杠开 with F_w 7 as in §12.7
    while seats 0, 1 and 2 make no call: each multiple 20 × 2^7 = 2560.  Each pays 阳光顶 500
    (1500); with ``hading = 600``, 哈顶: each pays 600 (1800)."""
    s = WuhanScene("wh-hading" if hading else "wh-yangguang", {"hading": 600} if hading else None)
    s.hand(0, {0: "8s", 2: "2m", 3: "22m 888s 7z 111z 99m 55p"}, indicator="9s", reserve="1s 7z 9m",
           avoid="2m 8s 1z 9m 5p")
    s.discard(0)
    s.pass_turn(1)
    s.draw(2)
    s.discard(2, "2m")
    s.pong(3, 2, "2m")
    s.set_aside(3, "7z")
    s.discard(3, _last_drawn(s, 3))
    s.draw(0)
    s.discard(0, "8s")
    s.kong_exposed(3, 0, "8s")
    s.replacement(3, "1s")
    s.set_aside(3, "1s")
    s.discard(3, _last_drawn(s, 3))
    s.pass_turn(0)
    s.pass_turn(1)
    s.pass_turn(2)
    s.draw(3, "7z")
    s.set_aside(3, "7z", "9m")
    each = 600 if hading else 500
    s.win([(3, ["duidui", "gangshang_kaihua", "yinghu"], 7, 20, [(x, 0, 2560, each) for x in (0, 1, 2)])],
          "self_draw", "9m")
    s.settle([(x, 3, each, "win") for x in (0, 1, 2)])
    return s.close()


EXAMPLES: dict[str, Callable[[], GameBuilder]] = {
    "ex02_pihu_discard": ex02_pihu_discard,
    "ex04_qingyise_self_draw": ex04_qingyise_self_draw,
    "ex05_qingyise_sanpu": ex05_qingyise_sanpu,
    "ex06_qianggang": ex06_qianggang,
    "ex07_gangkai_jinding": ex07_gangkai_jinding,
    "ex08a_quanqiuren_ready": ex08_quanqiuren,
    "ex08b_quanqiuren_bao": lambda: ex08_quanqiuren("b"),
    "ex09_pihu_kaikou": ex09_pihu_modes,
    "ex10_haidi": ex10_haidi,
    "ex10b_haidi_huangzhuang": lambda: ex10_haidi(False),
    "ex11a_near_miss_one_laizi": lambda: ex11a_two_laizi(True),
    "ex11b_near_miss_pair_258": lambda: ex11b_pair("2m"),
    "ex12_jiangyise": ex12_jiangyise,
    "ex13_dealer_rotate": ex13_dealer_rotation,
    "fengyise": fengyise_room,
    "yangguangding_all": unopened_jinding,
}
OPTION_ROOMS: dict[str, Callable[[], GameBuilder]] = {
    "ex02_discarder_pays": lambda: ex02_pihu_discard({"discard_payers": "discarder"}, "wh-ex02b"),
    "ex04_koukou": lambda: ex04_qingyise_self_draw(True),
    "ex05_bao_sanpu_off": lambda: ex05_qingyise_sanpu("off"),
    "ex07_koukou": lambda: ex07_gangkai_jinding(True),
    "ex08c_quanqiuren_bao_always": lambda: ex08_quanqiuren("c"),
    "ex09_koukou": lambda: ex09_pihu_modes(True),
    "ex13_dealer_winner": lambda: ex13_dealer_rotation("winner"),
    "hading": lambda: unopened_jinding(True),
    "multi_win_qihu": multi_win_qihu,
    "multi_win_min_basis": multi_win_min_basis,
}
def _retagged(b: GameBuilder, game: str) -> GameBuilder:
    import msgspec
    b.events = [msgspec.structs.replace(e, game=game) for e in b.events]
    return b


#: rooms that break one rule each, with the one finding the audit must give
NEAR_MISSES: dict[str, tuple[Callable[[], GameBuilder], list[str]]] = {
    "ex02_below_qihu": (lambda: _retagged(reopened(ex02_pihu_discard(), qihu=16), "wh-nm-qihu"),
                        ["WIN_BELOW_MIN_FAN"]),
    # 一炮多响: each winner judged alone against 起胡 — seat 2 falls short, seat 3 wins and is paid
    "multi_win_below_qihu": (lambda: multi_win_qihu(16, "wh-nm-multi-qihu"), ["WIN_BELOW_MIN_FAN"]),
    # the same winner alone: the seat that let the tile go pays it and is part of its basis
    "multi_win_min_basis_alone": (lambda: multi_win_min_basis(False), ["WIN_BELOW_MIN_FAN"]),
    "ex05_sanpu_paid_by_each": (lambda: _retagged(repaid(ex05_qingyise_sanpu(), [
        (3, 2, 120, "win"), (0, 2, 160, "win"), (1, 2, 300, "win")]), "wh-nm-sanpu"), ["BAO_PAYER"]),
    "ex05_bao_undue": (lambda: _retagged(repaid(ex05_qingyise_sanpu("off"), [(0, 2, 580, "bao_sanpu")]),
                                         "wh-nm-bao-undue"), ["BAO_UNDUE"]),
    "ex06_rob_paid_by_each": (lambda: _retagged(repaid(ex06_qianggang(), [
        (0, 2, 120, "win"), (1, 2, 40, "win"), (3, 2, 80, "win")]), "wh-nm-rob"), ["QIANGGANG_PAYER"]),
    "ex07_fan_short": (lambda: _retagged(rescored(ex07_gangkai_jinding(), ["duidui", "gangshang_kaihua", "yinghu"],
                                                  6, 20), "wh-nm-fan"), ["FAN_MISMATCH"]),
    "ex09_dealer_fan_off": (lambda: _retagged(reopened(ex09_pihu_modes(), dealer_fan=False), "wh-nm-dealer"),
                            ["POINTS_MISMATCH"]),
    "ex11a_two_laizi": (ex11a_two_laizi, ["WIN_LAIZI_LIMIT"]),
    "ex11b_pair_not_258": (ex11b_pair, ["WIN_PAIR_NOT_258"]),
    "ex11c_not_opened": (ex11c_not_opened, ["WIN_NOT_OPENED"]),
    "ex11d_holding_pi": (ex11d_holding_pi, ["WIN_HOLDING_PI"]),
    "ex02_pi_discarded": (lambda: ex02_pihu_discard(game="wh-nm-pi", variant="pi_discarded"),
                          ["SPECIAL_TILE_DISCARDED"]),
    "ex02_set_aside_filler": (lambda: ex02_pihu_discard(game="wh-nm-aside", variant="set_aside_filler"),
                              ["SET_ASIDE_INVALID"]),
    "ex02_wild_in_chow": (lambda: ex02_pihu_discard(game="wh-nm-chow", variant="wild_chow"), ["CLAIM_SPECIAL_TILE"]),
    "ex02_rob_pi_kong": (lambda: ex02_pihu_discard(game="wh-nm-rob-pi", variant="rob_pi_kong"), ["ROB_CONCEALED_KONG"]),
    "ex02_rob_laizi_kong": (lambda: ex02_pihu_discard(game="wh-nm-rob-laizi", variant="rob_laizi_kong"),
                            ["ROB_CONCEALED_KONG"]),
    "ex10_kong_in_haidi": (lambda: ex10_haidi(variant="haidi_kong"), ["KONG_WITHOUT_REPLACEMENT"]),
    "ex10_discard_in_haidi": (lambda: ex10_haidi(False, variant="haidi_discard"), ["SEA_BOTTOM_ORDER"]),
    "ex10_claim_in_haidi": (lambda: ex10_haidi(False, variant="haidi_claim"), ["SEA_BOTTOM_ORDER", "SEA_BOTTOM_ORDER"]),
    "ex10_haidi_wrong_drawer": (lambda: ex10_haidi(False, variant="wrong_seat"), ["TURN_ORDER"]),
    "ex13_dealer_wrong": (lambda: _retagged(ex13_dealer_rotation(dealer=2), "wh-nm-dealer-rot"),
                          ["DEALER_ROTATION"]),
    # an illegal win ends the hand: it counts as 黄庄, so the dealer (seat 0) deals again (§4)
    "ex13_dealer_kept_after_illegal_win": (lambda: ex13_dealer_rotation(dealer=0, tile="3m", game="wh-nm-illegal-kept"),
                                           ["WIN_PAIR_NOT_258"]),
    "ex13_dealer_passed_after_illegal_win": (lambda: ex13_dealer_rotation(dealer=1, tile="3m",
                                                                          game="wh-nm-illegal-passed"),
                                             ["WIN_PAIR_NOT_258", "DEALER_ROTATION"]),
    "ex13_winner_deals_after_illegal_win": (lambda: ex13_dealer_rotation("winner", dealer=2, tile="3m",
                                                                         game="wh-nm-illegal-winner"),
                                            ["WIN_PAIR_NOT_258", "DEALER_ROTATION"]),
}
