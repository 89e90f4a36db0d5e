"""Generate the Sichuan sample logs: ``python sample_logs/make_samples.py --family sichuan``.

Every worked example of ``sichuan.md`` §13 is written move by move as a clean room
(``clean/sichuan_*.jsonl``), with the option values that change money as further
games.  Between the moves an example states, the other seats play *filler* turns:
a draw of a tile that completes nobody's hand, discarded at once (摸切), so the
example's hands stay as the example states them.  Fans, points and every transfer
come from the Sichuan family (:mod:`audits.rules.sichuan`), never typed in; the
test ``tests/audits/sichuan/test_samples.py`` compares the totals with §13.
"""

from __future__ import annotations

import json
import os
from typing import Optional

import msgspec

from audits.audit import audit_game
from audits.ledger import net_of
from schema import events as ev
from schema.reader import read_games

from .script import Script

#: the repository's ``sample_logs/`` folder
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "sample_logs")


# --- the worked examples (sichuan.md §13) ------------------------------------------------

def ex01(multi: bool = False) -> Script:
    """§13.1: seat 1 平胡 on seat 3's 9s (multi: seat 2 also wins); the next hand's dealer."""
    g = Script("sc-ex01-multi" if multi else "sc-ex01")
    g.hand(1, 0, {0: "111m222m333m444m56s", 1: "234p567p33s456s78s",
                  2: "123p456p789p78s11s" if multi else "555p666p888p999p5s",
                  3: "999s222s555m666m7m"}, voids="pmmp")
    g.discard(0, "5s")
    g.filler(1, ["9s", "6s"])
    g.filler(2, ["9s", "6s"])
    g.draw(3, "8m")  # not of seat 3's void suit: it may then throw the 9s
    g.discard(3, "9s")
    g.win([1, 2] if multi else [1], "discard", "9s", 3)
    g.settle()
    # the next hand: dealt by the only winner (seat 1), or by the discarder of a multi-win
    nxt = 3 if multi else 1
    tianhe(g, 2, nxt)
    g.close()
    return g


def tianhe(g: Script, number: int, dealer: int) -> None:
    """§13.11 last row: the dealer's 14 dealt tiles complete (天胡): F = 5, each pays P + 1."""
    hands = {s: "" for s in range(4)}
    hands[dealer] = "123m456m789m234m55m"
    others = ["111p222p333p444p5p", "666p777p888p999p5p", "111s222s333s444s5s"]
    for k, s in enumerate(x for x in range(4) if x != dealer):
        hands[s] = others[k]
    voids = "".join("p" if s == dealer else "m" for s in range(4))
    g.hand(number, dealer, hands, voids)
    g.win([dealer], "self_draw", "5m")
    g.settle()


def ex04(options: Optional[dict] = None, name: str = "") -> Script:
    """§13.4: 刮风下雨, then an exhaustive draw with 查花猪, 查大叫 and 退税 (``options``: the
    option games of the end-of-hand checks, 擦挂 and the base)."""
    g = Script(f"sc-ex04{name}", options=options)
    g.hand(1, 0, {0: "8888m222m555p66p99p", 1: "777s1123468899s",
                  2: "55s12p123m456m679m", 3: "123p456p789p11s23s"}, voids="smpm")
    keep = ["5s", "7s", "6p", "9p", "1s", "4s"]
    g.kong(0, "kong_concealed", "8m", replacement=g.safe_tile(0, keep))
    g.discard(0, g.b.events[-1].tile)
    g.draw(1, "5s")
    g.discard(1, "5s")
    g.pong(2, 1, "5s")
    g.discard(2, "2p")
    g.draw(3, "7s")
    g.discard(3, "7s")
    g.kong(1, "kong_exposed", "7s", frm=3, replacement=g.safe_tile(1, keep))
    g.discard(1, g.b.events[-1].tile)
    g.draw(2, "5s")
    g.kong(2, "kong_added", "5s", replacement=g.safe_tile(2, keep))
    g.discard(2, g.b.events[-1].tile)
    g.fill_to_end(3)
    g.exhausted()
    g.settle()
    g.close()
    return g


def ex02(option: str = "jiadi", base: int = 1) -> Script:
    """§13.2: seat 2 (void m) 清一色大对子 by self-draw; 自摸加底 (加番, none by option); ``base`` B."""
    opts = {} if option == "jiadi" else {"zimo_bonus": option}
    if base != 1:
        opts["base"] = base
    g = Script(f"sc-ex02-{option}" + (f"-base{base}" if base != 1 else ""), options=opts)
    g.hand(1, 0, {0: "2s111p333p444p666p7p", 1: "123m456m789m11m3p4p", 2: "22s99s555s77s88s12m",
                  3: "44m666m3s4s6s1s3m7m9m8m"}, voids="msmp")
    g.discard(0, "2s")
    g.pong(2, 0, "2s")
    g.discard(2, "1m")
    g.filler(3, ["9s", "8s"])
    g.draw(0, "9s")
    g.discard(0, "9s")
    g.pong(2, 0, "9s")
    g.discard(2, "2m")
    g.filler(3, ["8s"])
    g.filler(0, ["8s"])
    g.filler(1, ["8s"])
    g.draw(2, "8s")
    g.win([2], "self_draw", "8s")
    g.settle()
    g.close()
    return g


def ex03a(options: Optional[dict] = None, name: str = "") -> Script:
    """§13.3a: seat 0 (void p) 龙七对 on seat 2's 9s: seat 2 pays 8 (16 with cap 4 and 龙七对 4)."""
    g = Script(f"sc-ex03a{name}", options=options)
    g.hand(1, 0, {0: "3333m55m77m22s44s9s1p", 1: "123p456p789p11p5m6m", 2: "9s111m666m888m2p3p4p",
                  3: "234p567p999m55s66s"}, voids="pssm")
    g.discard(0, "1p")
    g.filler(1, ["9s"])
    g.draw(2, g.safe_tile(2, ["9s"]))
    g.discard(2, "9s")
    g.win([0], "discard", "9s", 2)
    g.settle()
    g.close()
    return g


def ex03b() -> Script:
    """§13.3b: seat 1 (void s) 清一色 龙七对 by self-draw: F 5, capped to 3: each pays 9."""
    g = Script("sc-ex03b")
    g.hand(1, 0, {0: "123p456p789p11p5s9p8p", 1: "1111m33m55m77m88m9m", 2: "2s222p333p444p66p7s",
                  3: "345s678s999s11s5s2s"}, voids="msmp")
    g.discard(0, "5s")
    g.filler(1, ["9m"])
    g.filler(2, ["9m"])
    g.filler(3, ["9m"])
    g.filler(0, ["9m"])
    g.draw(1, "9m")
    g.win([1], "self_draw", "9m")
    g.settle()
    g.close()
    return g


def ex05(multi: bool = False, option: str = "first", zhuanyi: bool = True) -> Script:
    """§13.5: seat 2 konges 1p (2 from each), throws 5s after the replacement: 杠上炮; 呼叫转移
    moves the 6 to the first winner (一炮多响: seat 3; ``each``: to both; ``zhuanyi`` False:
    ``hujiao_zhuanyi`` off, nothing moves)."""
    name = "sc-ex05" + ("-multi" if multi else "") + ("-each" if option == "each" else "") + \
        ("" if zhuanyi else "-nozhuanyi")
    opts = {} if option == "first" else {"zhuanyi_multi": option}
    if not zhuanyi:
        opts["hujiao_zhuanyi"] = False
    g = Script(name, options=opts)
    g.hand(1, 2, {0: "234p567p88p34s999s", 1: "123m456m789m11m22s",
                  2: "1111p5s123m456m789m", 3: "345p678p999p55s66s" if multi else "345p678p99p2m3m4m5m6m"},
           voids="mmsm" if multi else "mmss")
    g.kong(2, "kong_concealed", "1p", replacement="9m")
    g.discard(2, "5s")
    g.win([0, 3] if multi else [0], "discard", "5s", 2)
    g.settle()
    g.close()
    return g


def ex05_two_kongs(scope: str) -> Script:
    """§10.6 ``zhuanyi_scope``: seat 2 (the dealer, void s) konges 1p and then 9m in its first
    turn (each 2 from seats 0, 1, 3), throws 5s after the second replacement and seat 0 wins
    on it (杠上炮).  ``last_kong`` moves the second kong's 6, ``all_kongs`` all 12."""
    g = Script(f"sc-ex05-two-kongs-{scope}", options={} if scope == "last_kong" else {"zhuanyi_scope": scope})
    g.hand(1, 2, {0: "234p567p88p34s999s", 1: "111s222s666s777s8s", 2: "1111p9999m5s123m45m",
                  3: "345p678p99p2m3m4m5m6m"}, voids="mmss")
    g.kong(2, "kong_concealed", "1p", replacement="7m")
    g.kong(2, "kong_concealed", "9m", replacement="8m")
    g.discard(2, "5s")
    g.win([0], "discard", "5s", 2)
    g.settle()
    g.close()
    return g


def ex06(preset: str = "sichuan") -> Script:
    """§13.6: seat 1 adds the fourth 6s to its pong; seat 3 (void p) robs it: 平胡 + 抢杠,
    seat 1 pays 2 and the kong pays nothing (血战: seat 3 leaves, seat 0 draws next)."""
    g = Script("sc-ex06" + ("-xuezhan" if preset != "sichuan" else ""), preset=preset)
    g.hand(1, 0, {0: "6s111s222s333s444s5s", 1: "66s123p456p789p11p", 2: "111m222m333m9s8s7s5m",
                  3: "123m456m789m45s88s"}, voids="mmpp")
    g.discard(0, "6s")
    g.pong(1, 0, "6s")
    g.discard(1, "1p")
    g.filler(2, ["6s", "3s"])
    g.filler(3, ["6s", "3s"])
    g.filler(0, ["6s", "3s"])
    g.draw(1, "6s")
    g._do(g.b.kong_added, 1, "6s")
    g.win([3], "robbed_kong", "6s", 1)
    if preset != "sichuan":
        g.fill_to_end(0)
        g.exhausted()
    g.settle()
    g.close()
    return g


def ex07(huazhu: Optional[bool] = None) -> Script:
    """§13.7: a whole 血战 hand: 0 → 1 2 (大对子), seat 3 暗杠 2p (0 and 2 pay 2), seat 2 清一色
    自摸 (0 and 3 pay 5), the wall runs out: 查大叫 0 → 3 8.  −17, +2, +8, +7.

    ``huazhu`` (True / False: ``huazhu_pays_winners`` on / off): §13.7's closing variant,
    seat 0 ends a 花猪: it keeps a 2m (void m) to the end, in a room with ``void_first``
    off so it may throw its other tiles first."""
    opts = None if huazhu is None else {"void_first": False, "huazhu_pays_winners": huazhu}
    name = "sc-ex07" + ("" if huazhu is None else "-huazhu" + ("-pays-winners" if huazhu else ""))
    g = Script(name, preset="sichuan-xuezhan", options=opts)
    g.hand(1, 0, {0: "5m1s4s7s2s5s1p4p6p5p8p6s3p" + ("9s" if huazhu is None else "2m"), 1: "111m444m777p99m55m",
                  2: "123s345s678s99s78s", 3: "2222p345p678p99p1p"}, voids="msmm")
    g.discard(0, "5m")
    g.win([1], "discard", "5m", 0)
    g.filler(2, ["9s", "1p", "9p", "6s"])
    g.draw(3, "1p")
    g.kong(3, "kong_concealed", "2p", replacement=g.safe_tile(3, ["9s", "1p", "9p"]))
    g.discard(3, g.b.events[-1].tile)
    g.filler(0, ["9s", "1p", "9p"])
    g.draw(2, "9s")
    g.win([2], "self_draw", "9s")
    g.fill_to_end(3)
    g.exhausted()
    g.settle()
    g.close()
    return g


def ex08(final: str = "haidi") -> Script:
    """§13.8 the last tile.  ``haidi``: seat 1 draws it to a 平胡: 海底捞月 F 1, each pays 3;
    ``haidi_pao``: seat 1 throws it and seat 3 wins: 海底炮 F 1, seat 1 pays 2.  Seat 2 deals,
    so with no claim the 55th draw is seat 1's; over the last four tiles nobody could win."""
    g = Script(f"sc-ex08-{final}")
    waiting, plain = "234p567p33s456s78s", "111m222m444m666m5s"
    g.hand(1, 2, {2: "111p222p333p444p5s6s", 1: waiting if final == "haidi" else plain,
                  3: plain if final == "haidi" else waiting, 0: "999s333m222s55m24m"},
           voids="pmmm" if final == "haidi" else "ppmm")
    g.discard(2, "5s")
    turn = g.fill_to_end(3, ["9s"], to=1)
    assert turn == 1
    g.draw(1, "9s")
    if final == "haidi":
        g.win([1], "self_draw", "9s")
    else:
        g.discard(1, "9s")
        g.win([3], "discard", "9s", 1)
    g.settle()
    g.close()
    return g


def ex09() -> Script:
    """§13.9 过水: seat 3 lets seat 0's 4p go (M 0), passes seat 1's 4p (V 0, barred), wins on
    seat 2's 1p (V 1 > 0, a 根): seat 2 pays 2."""
    g = Script("sc-ex09")
    g.hand(1, 0, {0: "4p111m222m333m444m5m", 1: "4p555m666m777m99m8m", 2: "1p222s666s777s88s9s",
                  3: "111p23p456p789p55s"}, voids="sspm")
    g.discard(0, "4p")
    g.draw(1, "3m")
    g.discard(1, "4p")
    g.draw(2, g.safe_tile(2, ["4p", "1p"]))
    g.discard(2, "1p")
    g.win([3], "discard", "1p", 2)
    g.settle()
    g.close()
    return g


def ex10(option: str = "zimo", cagua: bool = False, zimo_bonus: Optional[str] = None) -> Script:
    """§13.10 点杠花: seat 2 (void m) konges seat 0's 5s (0 → 2: 2); the replacement completes:
    杠上开花 1 + 根 1 (§9.1: the kong is a 根) = 2, P 4.  ``zimo``: each pays 5; ``dianpao``: seat 0 pays 4.
    ``zimo_bonus = jiafan`` (§10.4): the 自摸 fan only where it is paid as a self-draw."""
    opts = {} if option == "zimo" else {"dianganghua": option}
    if cagua:
        opts["cagua"] = True
    if zimo_bonus:
        opts["zimo_bonus"] = zimo_bonus
    g = Script(f"sc-ex10-{option}" + ("-cagua" if cagua else "") + (f"-{zimo_bonus}" if zimo_bonus else ""),
               options=opts)
    g.hand(1, 0, {0: "5s666m777m888m999m9s", 1: "123m345m11m66p77p8p", 2: "555s123p456p789s1s",
                  3: "55m44m222p333p44p1p"}, voids="psms")
    g.discard(0, "5s")
    g.kong(2, "kong_exposed", "5s", frm=0, replacement="1s")
    g.win([2], "self_draw", "1s")
    g.settle()
    g.close()
    return g


# --- the review's cases (issue 34): robbing and 过水, 龙七对 4, play after the end, kongs ----------

#: §13.6's deal with seat 1 holding three 6s: seat 0's 6s is ponged and the fourth added at once;
#: seat 3 (void p, 123m 456m 789m 45s 88s) waits on 3s / 6s.
ROB_DEAL = {0: "6s111s222s333s444s5s", 1: "666s123p456p789p1p", 2: "111m222m333m9s8s7s5m",
            3: "123m456m789m45s88s"}


def rob_after_passed_discard(options: Optional[dict] = None, name: str = "") -> Script:
    """§7.1 过水 weighs a rob with its 抢杠 fan: seat 3 lets seat 0's 6s go (平胡, M 0) and,
    before its own next draw, robs seat 1's added kong of 6s (seat 1 ponged that 6s and adds
    the fourth at once): 平胡 + 抢杠 = V 1 > 0, so the rob is allowed: seat 1 pays 2."""
    g = Script(f"sc-guoshui-rob{name}", options=options)
    g.hand(1, 0, ROB_DEAL, voids="mmpp")
    g.discard(0, "6s")
    g.pong(1, 0, "6s")
    g._do(g.b.kong_added, 1, "6s")
    g.win([3], "robbed_kong", "6s", 1)
    g.settle()
    g.close()
    return g


def passed_rob_bars(options: Optional[dict] = None, name: str = "") -> Script:
    """§7.1 a rob let go bars like a discard win let go, at its value: seat 3 lets seat 1's
    added kong of 6s go (平胡 + 抢杠, V 1); seat 1 draws its replacement 3s and throws it
    (杠上炮) and seat 3 wins on it before drawing: 平胡 + 杠上炮 = V 1, not above 1:
    WIN_DURING_GUOSHUI, paid nothing by the corrected ledger (``guoshui = off``: a legal
    win: seat 1 pays 2, and 呼叫转移 moves the added kong's 3 to seat 3)."""
    g = Script(f"sc-passed-rob{name}", options=options)
    g.hand(1, 0, ROB_DEAL, voids="mmpp")
    g.discard(0, "6s")
    g.pong(1, 0, "6s")
    g.kong(1, "kong_added", "6s", replacement="3s")
    g.discard(1, "3s")
    g.win([3], "discard", "3s", 1)
    g.settle()
    g.close()
    return g


def lqd4_daiyaojiu() -> Script:
    """§9.5 the highest reading under ``longqidui_fan = 4`` (and ``fan_cap = 6``): seat 0 (void
    s) holds 1112233m 112233p and wins seat 2's 1m: 龙七对 4 (七对 with 1m four times), not
    带幺九 2 + 根 1 = 3: P 16, seat 2 pays 16."""
    g = Script("sc-lqd4-daiyaojiu", options={"longqidui_fan": 4, "fan_cap": 6})
    g.hand(1, 0, {0: "1112233m112233p9s", 1: "456p789p444s555s6m", 2: "1m777s888s999s66s5p", 3: "456m789m111s55p44p"},
           voids="smmp")
    g.discard(0, "9s")
    g.filler(1, ["1m"])
    g.draw(2, g.safe_tile(2, ["1m"]))
    g.discard(2, "1m")
    scores = g.win([0], "discard", "1m", 2)
    assert scores[0].fans == ["longqidui"] and scores[0].points == 16, scores
    g.settle()
    g.close()
    return g


def play_after_end(paid_later: bool = True) -> Script:
    """§6.1 play after the hand has ended (``first_win``): §13.1's seat 1 wins on seat 3's 9s;
    the log plays on: seat 0 draws and throws, seat 2 "wins" on it.  One HAND_END_WRONG at
    the first event after the end; the hand is settled where the rules end it.
    ``paid_later``: the server also paid the later win (0 → 2: 1, TRANSFER_MISMATCH)."""
    g = ex01_first_win("sc-after-end" + ("" if paid_later else "-unpaid"))
    g.b.draw(0, "1s", "wall")
    g.b.discard(0, "1s")
    g.b.win([(2, ["jihu"], 0, 1)], "discard", "1s", 0)
    change = (lambda ts: ts + [ev.Transfer(payer=0, payee=2, amount=1, reason="win")]) if paid_later else None
    transfers = list(g.book.transfers)
    if change is not None:
        transfers = change(transfers)
    net = net_of(transfers, 4)
    g.scores = [a + d for a, d in zip(g.scores, net)]
    g.b.settle(transfers, g.scores)
    g.b.close("hands_done", g.scores)
    return g


def ex01_first_win(game: str) -> Script:
    """§13.1's first hand up to its one winning moment (seat 1 平胡 on seat 3's 9s)."""
    g = Script(game)
    g.hand(1, 0, {0: "111m222m333m444m56s", 1: "234p567p33s456s78s", 2: "555p666p888p999p5s",
                  3: "999s222s555m666m7m"}, voids="pmmp")
    g.discard(0, "5s")
    g.filler(1, ["9s", "6s"])
    g.filler(2, ["9s", "6s"])
    g.draw(3, "8m")
    g.discard(3, "9s")
    g.win([1], "discard", "9s", 3)
    return g


def kong_paid_by_left_seat() -> Script:
    """§10.5 a seat that has left pays no kong: §13.7's 血战 hand, with seat 1 (won and left)
    also charged 2 for seat 3's concealed kong: KONG_PAYMENT_UNDUE (the ledger charges 0 and 2)."""
    g = ex07()
    for i, e in enumerate(g.b.events):
        if type(e) is ev.HandSettled:
            ts = list(e.transfers) + [ev.Transfer(payer=1, payee=3, amount=2, reason="kong")]
            net = net_of(ts, 4)
            g.b.events[i] = msgspec.structs.replace(e, transfers=ts, scores=net)
        elif type(e) is ev.GameClosed:
            g.b.events[i] = msgspec.structs.replace(e, scores=net)
    return g


def longqidui_as_qidui_gen() -> Script:
    """§9.2, §14: §13.3a's 龙七对 logged as 七对 + 根 (F 3, P 8, the same): FAN_NAMES_DIFFER."""
    g = ex03a(name="-names")
    for i, e in enumerate(g.b.events):
        if type(e) is ev.HandWon:
            w = msgspec.structs.replace(e.winners[0], fans=["xiaoqidui", "gen"])
            g.b.events[i] = msgspec.structs.replace(e, winners=[w])
    return g


def ex11(row: int, cap: int = 3) -> Script:
    """§13.11 fan table rows on a discard (concealed hands), at C = 3 and 6."""
    hands = {2: ("123m789m111p789p9m", "s", "9m"), 4: ("11m22m33m55m77m88m9m", "p", "9m")}
    hand, void, tile = hands[row]
    g = Script(f"sc-ex11-row{row}-cap{cap}", options={} if cap == 3 else {"fan_cap": cap})
    others = {1: "222s333s444s555s6s", 2: "666s777s888s444p5p", 3: "222p333p555p666p4s"}
    g.hand(1, 1, {0: hand, **{s: others[s] + ("1p" if s == 1 else "") for s in (1, 2, 3)}},
           voids=void + "mmm")
    g.discard(1, "1p")
    g.filler(2, [tile])
    g.draw(3, tile)
    g.discard(3, tile)
    g.win([0], "discard", tile, 3)
    g.settle()
    g.close()
    return g


def ex11_melds(row: int, cap: int = 3) -> Script:
    """§13.11 rows 1 and 3: the melded hands, built in play, at C = 3 and 6.

    Row 1: seat 0 (the dealer, void m) pongs seat 1's 2s, 5s and 8s, konges its 2p (exposed,
    1 → 0: 2) and wins on its 8p: 大对子 金钩钓 将对 根 = 5.  Row 3: seat 0 (void m) makes
    four concealed kongs (2s, 3s, 5p, 7p: 2 from each other seat each) in its first turn and
    wins on seat 3's 9s: 大对子 金钩钓 根 ×4 = 6."""
    g = Script(f"sc-ex11-row{row}-cap{cap}", options={} if cap == 3 else {"fan_cap": cap})
    if row == 1:
        g.hand(1, 0, {0: "22s55s88s222p8p1m3m7m9m", 1: "111p333p444p666p9p", 2: "111m444m666m777m9m",
                      3: "333m555m666s777s9s"}, voids="mmsp")
        extra = ["1m", "3m", "7m", "9m"]
        g.discard(0, extra.pop(0))
        for tile in ("2s", "5s", "8s"):
            g.draw(1, tile)
            g.discard(1, tile)
            g.pong(0, 1, tile)
            g.discard(0, extra.pop(0))
        g.draw(1, "2p")
        g.discard(1, "2p")
        g.kong(0, "kong_exposed", "2p", frm=1, replacement=g.safe_tile(0, ["8p"]))
        g.discard(0, g.b.events[-1].tile)
        g.draw(1, "8p")
        g.discard(1, "8p")
        g.win([0], "discard", "8p", 1)
    else:
        g.hand(1, 0, {0: "2222s3333s5555p7p9s", 1: "111m222m333m444m6m", 2: "555m666m777m888m1p",
                      3: "111p222p333p444p6p"}, voids="mpss")
        g.kong(0, "kong_concealed", "2s", replacement="7p")
        g.kong(0, "kong_concealed", "3s", replacement="7p")
        g.kong(0, "kong_concealed", "5p", replacement="7p")
        g.kong(0, "kong_concealed", "7p", replacement=g.safe_tile(0, ["9s"]))
        g.discard(0, g.b.events[-1].tile)
        g.filler(1, ["9s"])
        g.filler(2, ["9s"])
        g.draw(3, "9s")
        g.discard(3, "9s")
        g.win([0], "discard", "9s", 3)
    g.settle()
    g.close()
    return g


def write(g: Script, name: str, note: str, out: list, money: Optional[tuple[list[int], str]] = None) -> None:
    """Write the sample and its ``.expected.json``.  ``money``: the room's final scores as
    derived by hand from sichuan.md (with the derivation); the audit's logged scores and
    ledger must equal them, and they are written beside the findings."""
    path = os.path.join(HERE, "clean", f"sichuan_{name}.jsonl")
    with open(path, "wb") as f:
        f.write(g.jsonl())
    logs, _ = read_games([path])
    findings, scores = [], {}
    for log in logs:
        a = audit_game(log)
        findings += [{"game": x.game, "code": x.code, "seq": x.seq} for x in a.findings]
        scores[log.game] = {"logged": a.logged_scores[-1] if a.logged_scores else None,
                            "ledger": a.ledger[-1] if a.ledger else None}
    doc = {"findings": findings, "final_scores": scores}
    if money is not None:
        want, how = money
        for game, sc in scores.items():
            assert sc["logged"] == sc["ledger"] == want, (name, game, sc, want)
        doc["money"] = {"scores": want, "derivation": how}
    with open(path[:-len(".jsonl")] + ".expected.json", "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")
    out.append((f"sichuan_{name}.jsonl", note, findings))


def main() -> None:
    out: list = []
    write(ex01(), "ex01_pinghu_discard", "§13.1 平胡 on a discard: seat 3 pays 1; seat 1 deals next "
          "(then 天胡, §13.11: each other seat pays 8 + 1)", out)
    write(ex01(multi=True), "ex01_multi_win", "§13.1 一炮多响: seats 1 and 2 win on seat 3's 9s; seat 3 "
          "pays both and deals next (then 天胡)", out)
    for opt, each in (("jiadi", 9), ("jiafan", 8), ("none", 8)):
        write(ex02(opt), f"ex02_qingdui_zimo_{opt}", f"§13.2 清一色大对子 自摸, zimo_bonus={opt}: each pays {each}", out)
    write(ex03a(), "ex03a_longqidui", "§13.3a 龙七对 on a discard: seat 2 pays 8", out)
    write(ex03a({"fan_cap": 4}, "-cap4"), "ex03a_longqidui_cap4", "§13.3a with fan_cap=4: still 8", out)
    write(ex03a({"fan_cap": 4, "longqidui_fan": 4}, "-cap4-lqd4"), "ex03a_longqidui_cap4_lqd4",
          "§13.3a with fan_cap=4, longqidui_fan=4: 16", out)
    write(ex03b(), "ex03b_qing_longqidui_zimo", "§13.3b 清一色 龙七对 自摸: F 5 capped to 3, each pays 9", out)
    write(ex04(), "ex04_kongs_exhaustive_checks", "§13.4 刮风下雨 then 流局: 查花猪, 查大叫, 退税: +18, +1, −26, +7", out)
    write(ex05(), "ex05_gangshang_pao_zhuanyi", "§13.5 杠上炮 and 呼叫转移: +6, −2, −2, −2", out)
    write(ex05(multi=True), "ex05_zhuanyi_multi_first", "§13.5 一炮多响, zhuanyi_multi=first: 0, −2, −4, +6", out)
    write(ex05(multi=True, option="each"), "ex05_zhuanyi_multi_each",
          "§13.5 一炮多响, zhuanyi_multi=each: +6, −2, −10, +6", out)
    write(ex06(), "ex06_qianggang", "§13.6 抢杠: seat 1 pays 2, the robbed kong pays nothing", out)
    write(ex06("sichuan-xuezhan"), "ex06_qianggang_xuezhan",
          "§13.6 抢杠 under 血战: seat 3 leaves, seat 0 draws next, the wall runs out", out)
    write(ex07(), "ex07_xuezhan_hand", "§13.7 a whole 血战 hand: −17, +2, +8, +7; seat 1 deals next", out)
    write(ex08("haidi"), "ex08_haidi", "§13.8 海底捞月: each pays 3", out)
    write(ex08("haidi_pao"), "ex08_haidi_pao", "§13.8 海底炮: seat 1 pays 2", out)
    write(ex09(), "ex09_guoshui", "§13.9 过水: the second 4p is not won (barred); the 1p at V 1 is: seat 2 pays 2", out)
    write(ex10(), "ex10_dianganghua_zimo", "§13.10 点杠花 as 自摸 (F 2 with the kong's 根): each pays 5", out)
    write(ex10("dianpao"), "ex10_dianganghua_dianpao", "§13.10 点杠花 算点炮: seat 0 pays 4", out)
    for row in (2, 4):
        for cap in (3, 6):
            write(ex11(row, cap), f"ex11_row{row}_cap{cap}", f"§13.11 fan table row {row}, fan_cap={cap}", out)
    options(out)
    review(out)
    faulty(out)
    for name, note, findings in out:
        print(name, "findings:", findings, "—", note)
    update_readme(out)


def options(out: list) -> None:
    """The option values that change money and have no worked example of their own, and
    §13.11 rows 1 and 3.  Each room's final scores are derived here by hand from
    sichuan.md (B = 1, C = 3 unless stated)."""
    x4 = "§13.4 kongs 3→1 2; 0,1,3→2 1 each; 1,2,3→0 2 each; seat 2 花猪; seat 0 ready D 2, seat 3 ready D 0; " \
         "seat 1 not ready. "
    write(ex04({"huazhu_penalty": 16}, "-huazhu16"), "ex04_huazhu_penalty_16",
          "§13.4 with huazhu_penalty=16: the 花猪 pays 16 (not 2^3) to each other seat", out,
          ([26, 9, -50, 15], x4 + "花猪 H = 16 × B: 2 → 0, 1, 3: 16 each; 大叫 1 → 0 4, 1 → 3 1; 退税 1 → 3 2, "
           "2 → 0, 1, 3 1 each. §13.4's +18, +1, −26, +7 with +8, +8, −24, +8."))
    write(ex04({"chadajiao": False}, "-nodajiao"), "ex04_chadajiao_off",
          "§13.4 with chadajiao off: no 大叫; the not-ready seat still returns its kong money (退税)", out,
          ([14, 6, -26, 6], x4 + "花猪 8 each; no 查大叫 (seat 1 keeps 4 + 1); 退税 unchanged (seat 1 is still "
           "not ready: 1 → 3 2; 2 → 0, 1, 3 1 each)."))
    write(ex04({"tuishui": False}, "-notuishui"), "ex04_tuishui_off",
          "§13.4 with tuishui off: the 花猪 and the not-ready seat keep their kong money", out,
          ([17, 2, -23, 4], x4 + "花猪 8 each; 大叫 1 → 0 4, 1 → 3 1; no 退税: seat 0 −1, seat 1 +1, seat 2 +3, "
           "seat 3 −3 against §13.4."))
    write(ex04({"base": 2}, "-base2"), "ex04_base_2",
          "§13.4 with base=2: every kong payment, 花猪 (B × 2^C), 大叫 and 退税 doubles", out,
          ([36, 2, -52, 14], x4 + "every amount is a multiple of B: §13.4's +18, +1, −26, +7 times 2."))
    write(ex02("jiadi", base=2), "ex02_qingdui_zimo_base_2",
          "§13.2 with base=2: P = 2 × 2^3 = 16, 加底 B = 2: each pays 18", out,
          ([-18, -18, 54, -18], "清一色大对子 F 3, V 3, P = B × 2^3 = 16; 自摸加底: each other seat pays P + B = 18."))
    write(ex10("zimo", cagua=True), "ex10_cagua",
          "§13.10 with cagua on: seats 1 and 3 also pay 1 for the exposed kong (擦挂)", out,
          ([-7, -6, 19, -6], "直杠 on seat 0's 5s: 0 → 2 2, 擦挂 1 → 2 and 3 → 2 1 each; 杠上开花 + 根 F 2, P 4, "
           "自摸加底: each other seat pays 5."))
    write(ex05(zhuanyi=False), "ex05_hujiao_zhuanyi_off",
          "§13.5 with hujiao_zhuanyi off: the kong money stays with seat 2", out,
          ([0, -2, 4, -2], "暗杠 1p: 0, 1, 3 → 2 2 each; 杠上炮 平胡 + 1 F 1, P 2: 2 → 0 2; no 呼叫转移."))
    write(ex05_two_kongs("last_kong"), "ex05_zhuanyi_scope_last_kong",
          "§10.6 two kongs in one turn, then 杠上炮: zhuanyi_scope=last_kong moves the second kong's 6", out,
          ([4, -4, 4, -4], "暗杠 1p and 9m: 0, 1, 3 → 2 2 each, twice; 杠上炮 F 1, P 2: 2 → 0 2; 呼叫转移 of the "
           "last kong: 2 → 0 6."))
    write(ex05_two_kongs("all_kongs"), "ex05_zhuanyi_scope_all_kongs",
          "§10.6 two kongs in one turn, then 杠上炮: zhuanyi_scope=all_kongs moves all 12", out,
          ([10, -4, -2, -4], "暗杠 1p and 9m: 0, 1, 3 → 2 2 each, twice; 杠上炮 F 1, P 2: 2 → 0 2; 呼叫转移 of "
           "every kong: 2 → 0 12."))
    write(ex07(huazhu=False), "ex07_huazhu",
          "§13.7 variant: seat 0 ends a 花猪 and pays seat 3 8 (no 大叫); winners receive nothing", out,
          ([-17, 2, 8, 7], "§13.7 (a)–(c): 0 → 1 2; 0, 2 → 3 2 each; 0, 3 → 2 5 each.  (d) seats 0 (花猪) and 3 "
           "(ready) still in: 花猪 0 → 3 8; a 花猪 pays no 大叫; no kong money to refund."))
    write(ex07(huazhu=True), "ex07_huazhu_pays_winners",
          "§13.7 variant with huazhu_pays_winners: the 花猪 also pays 8 to each winner (seats 1, 2)", out,
          ([-33, 10, 16, 7], "as ex07_huazhu, and 花猪 0 → 1 8, 0 → 2 8."))
    for row, cap, want, how in (
            (1, 3, [10, -10, 0, 0], "直杠 2p: 1 → 0 2; 大对子 1 + 金钩钓 1 + 将对 2 + 根 1 = 5, V 3, P 8: 1 → 0 8."),
            (1, 6, [34, -34, 0, 0], "直杠 2p: 1 → 0 2; F 5, V 5, P 32: 1 → 0 32."),
            (3, 3, [32, -8, -8, -16], "four 暗杠: 1, 2, 3 → 0 2 each, four times (24); 大对子 1 + 金钩钓 1 + 根 4 = 6, "
             "V 3, P 8: 3 → 0 8."),
            (3, 6, [88, -8, -8, -72], "four 暗杠: 24 to seat 0; F 6, V 6, P 64: 3 → 0 64.")):
        write(ex11_melds(row, cap), f"ex11_row{row}_cap{cap}", f"§13.11 fan table row {row}, fan_cap={cap}", out,
              (want, how))


def review(out: list) -> None:
    """The review's cases (issue 34): each money case written clean with its money derived by
    hand, and the faulty ones with the findings they must give and the corrected ledger."""
    write(ex10("dianpao", zimo_bonus="jiafan"), "ex10_dianganghua_dianpao_jiafan",
          "§10.4 点杠花 算点炮 under 自摸加番: no 自摸 fan (not paid as a self-draw): seat 0 pays 4", out,
          ([-6, 0, 6, 0], "直杠 on seat 0's 5s: 0 → 2 2; 杠上开花 1 + 根 1 = 2 (no zimo: seat 0 alone pays), "
           "P 4: 0 → 2 4."))
    write(ex10("zimo", zimo_bonus="jiafan"), "ex10_dianganghua_zimo_jiafan",
          "§10.4 点杠花 paid as 自摸 under 自摸加番: the 自摸 fan counts: F 3, each pays 8", out,
          ([-10, -8, 26, -8], "直杠: 0 → 2 2; 杠上开花 1 + 根 1 + 自摸 1 = 3, P 8, no 加底: each other seat pays 8."))
    write(rob_after_passed_discard(), "guoshui_rob_with_qianggang",
          "§7.1 过水: seat 3 lets a 6s go (M 0), then robs the added kong of 6s at 平胡 + 抢杠 = V 1 > 0: "
          "seat 1 pays 2", out,
          ([0, -2, 0, 2], "seat 3 passes seat 0's 6s (平胡, V 0); seat 1 pongs it and adds the fourth 6s; seat 3 "
           "robs: 平胡 0 + 抢杠 1, V 1 > M 0: 1 → 3 P 2; the robbed kong pays nothing."))
    write(passed_rob_bars({"guoshui": "off"}, "-off"), "passed_rob_guoshui_off",
          "§7.1 with guoshui off: a win after a rob let go is legal: seat 1 pays 2 and 呼叫转移 moves the kong's 3", out,
          ([-1, -2, -1, 4], "补杠 6s stands: 0, 2, 3 → 1 1 each; 杠上炮 平胡 + 1 F 1, P 2: 1 → 3 2; 呼叫转移: 1 → 3 3."))
    write(lqd4_daiyaojiu(), "lqd4_over_daiyaojiu",
          "§9.5 longqidui_fan=4, fan_cap=6: 1112233m 112233p + 1m read as 龙七对 4, not 带幺九 + 根 3: seat 2 pays 16",
          out, ([16, 0, -16, 0], "七对 with 1m four times: 龙七对 4 (longqidui_fan = 4) > 带幺九 2 + 根 1; V 4, P 16."))
    write_faulty(passed_rob_bars(), "sichuan_passed_rob_bars", ["WIN_DURING_GUOSHUI"],
                 "过水: a rob let go (V 1) bars a discard win of V 1 before the seat's next draw; the ledger pays "
                 "it nothing", out)
    write_faulty(play_after_end(), "sichuan_play_after_hand_end", ["HAND_END_WRONG", "TRANSFER_MISMATCH"],
                 "sichuan: a draw, a discard and a win after the first winning moment, the later win paid: one "
                 "HAND_END_WRONG; the ledger settles the hand where the rules end it", out)
    write_faulty(kong_paid_by_left_seat(), "sichuan_kong_paid_by_left_seat", ["KONG_PAYMENT_UNDUE"],
                 "血战: a seat that has won and left is charged for a later concealed kong", out)


def write_faulty(g: Script, name: str, want: list[str], note: str, out: list) -> None:
    """Write a faulty sample and its ``.expected.json``; the audit must find exactly ``want``."""
    path = os.path.join(HERE, "faulty", f"{name}.jsonl")
    with open(path, "wb") as f:
        f.write(g.jsonl())
    logs, _ = read_games([path])
    a = audit_game(logs[0])
    got = [x.code for x in a.findings]
    assert got == want, (name, got, want)
    with open(path[:-len(".jsonl")] + ".expected.json", "w", encoding="utf-8") as f:
        json.dump({"findings": [{"game": x.game, "code": x.code, "seq": x.seq} for x in a.findings],
                   "final_scores": {logs[0].game: {"logged": a.logged_scores[-1] if a.logged_scores else None,
                                                   "ledger": a.ledger[-1] if a.ledger else None}}},
                  f, ensure_ascii=False, indent=1)
        f.write("\n")
    out.append((f"../faulty/{name}.jsonl", note, [{"code": c} for c in want]))


def faulty(out: list) -> None:
    """One faulty log per Sichuan fault class, planted in a simulated room."""
    import random

    from ..mutate import mutate
    from ..simulate import SimConfig, simulate_games
    from .faults import SICHUAN_FAULTS, SOURCES
    from schema.reader import encode_events
    for name, fault in SICHUAN_FAULTS.items():
        rng = random.Random(name)
        preset, options = SOURCES[name]
        for g in simulate_games(SimConfig(preset=preset, options=options, games=300, seed=77, max_hands=3)):
            res = mutate(g, name, rng)
            if res is not None:
                break
        else:
            print(f"  skipped {name}: not applicable")
            continue
        events, expected = res
        path = os.path.join(HERE, "faulty", f"{name}.jsonl")
        with open(path, "wb") as f:
            f.write(encode_events(events))
        game = events[0].game
        logs, _ = read_games([path])
        a = audit_game(logs[0])
        with open(path[:-len(".jsonl")] + ".expected.json", "w", encoding="utf-8") as f:
            json.dump({"findings": [{"game": game, "code": c, "seq": q} for c, q in expected],
                       "final_scores": {game: {"logged": a.logged_scores[-1] if a.logged_scores else None,
                                               "ledger": a.ledger[-1] if a.ledger else None}}},
                      f, ensure_ascii=False, indent=1)
            f.write("\n")
        out.append((f"../faulty/{name}.jsonl", fault.description, [{"code": fault.code}]))


MARK = "## Sichuan (clean/sichuan_*, sichuan.md §13)"


def update_readme(out: list) -> None:
    """Rewrite the README's Sichuan section (it is the file's last section)."""
    path = os.path.join(HERE, "README.md")
    text = open(path, encoding="utf-8").read()
    if MARK in text:
        text = text[:text.index(MARK)].rstrip("\n") + "\n"
    lines = ["", MARK, "", "Written by `python sample_logs/make_samples.py --family sichuan` (after the Qujing "
             "sections: `make_samples.py` writes every family).", ""]
    for name, note, findings in out:
        codes = ", ".join(sorted({f["code"] for f in findings}))
        shown = name.rsplit("/", 1)[-1]
        lines.append(f"- `{shown}` — {note}" + (f" → `{codes}`." if codes else ""))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text + "\n".join(lines) + "\n")

