"""Hainan play rules (hainan.md §2–§4, §9.4) on whole logs, each holding and its near miss:
flowers drawn in play, a replacement below the reserve, claims, 漏和 by option, 跟牌 with a
flower or a 暗杠 before a first discard, the 令 wind after four passes, one copy of a flower."""

from __future__ import annotations

from audits import audit_game
from paipu.sim.hainan.scenes import HainanScene

from ..helpers import log_of


def codes(b) -> list[str]:
    return [f.code for f in audit_game(log_of(b)).findings]


# --- §2.2 flowers drawn in play -----------------------------------------------------------

def _flower_drawn(set_aside: bool):
    """Seat 1 draws 秋 3f in play; it sets it aside and takes a tail replacement, or not."""
    s = HainanScene("hn-flower-drawn")
    s.hand(0, {}, reserve="3f")
    s.discard(0)
    s.draw(1, "3f")
    if set_aside:
        s.buhua(1, "3f")
    s.discard(1)  # without the set-aside: a dealt filler, and the flower stays in hand
    s.until(2, 15)
    s.drawn()
    return s.close()


def test_a_flower_drawn_in_play_is_set_aside_before_any_other_action():
    assert codes(_flower_drawn(True)) == []
    got = codes(_flower_drawn(False))
    assert got and got[0] == "FLOWER_NOT_SET_ASIDE"


def _flowers_kept():
    """Seats 1 and 2 each draw a flower in play (秋 3f, 菊 7f) and keep it in hand to the end."""
    s = HainanScene("hn-flowers-kept")
    s.hand(0, {}, reserve="3f7f")
    s.discard(0)
    s.draw(1, "3f")
    s.discard(1)
    s.draw(2, "7f")
    s.discard(2)
    s.until(3, 15)
    s.drawn()
    return s.close()


def test_a_flower_kept_is_reported_once_per_seat_and_hand():
    """The kept flower breaks the rule at every later discard of its seat: one finding, at the
    first, counting the rest; near miss: two seats keeping one each are two findings."""
    found = [f for f in audit_game(log_of(_flower_drawn(False))).findings if f.code == "FLOWER_NOT_SET_ASIDE"]
    assert [(f.seq, f.seat) for f in found] == [(5, 1)]
    assert "(and 18 later event(s) of this hand)" in found[0].message
    two = [f for f in audit_game(log_of(_flowers_kept())).findings if f.code == "FLOWER_NOT_SET_ASIDE"]
    assert sorted(f.seat for f in two) == [1, 2]


def _set_aside_by(seat: int):
    """Seat 1 draws 菊 7f in play and ``seat`` logs setting it aside, then the tail draw."""
    s = HainanScene("hn-set-aside")
    s.hand(0, {}, reserve="7f")
    s.discard(0)
    s.draw(1, "7f")
    s.hands[1]["7f"] -= 1
    s.b.set_aside(seat, "7f")
    s.draw(1, None, "tail")
    s.discard(1)
    s.until(2, 15)
    s.drawn()
    return s.close()


def test_only_a_held_flower_is_set_aside():
    assert codes(_set_aside_by(1)) == []
    got = codes(_set_aside_by(3))  # near miss: seat 3 sets aside a flower it does not hold
    assert got and got[0] == "SET_ASIDE_INVALID"


# --- §2.3 the end of the wall ----------------------------------------------------------------

def _last_drawer_kong(draw_after: bool = False):
    """The dealer (seat 0) makes the last ordinary draw (R: 16 -> 15), the fourth 6s, declares
    a 暗杠 and takes its replacement from the tail below the reserve (R = 14) and discards;
    the hand is 黄庄 with 14 tiles left.  ``draw_after``: seat 1 then makes an ordinary draw."""
    s = HainanScene("hn-kong-below")
    s.hand(0, {0: "666s"}, reserve="6s", avoid="6s")
    seat = s.until(s.opening_round(0), 16)
    assert seat == 0, seat
    s.draw(0, "6s")
    s.kong_concealed(0, "6s")
    s.discard(0, s.replacement(0))
    if draw_after:
        s.pass_turn(1)
    s.b.exhausted(s.undrawn)
    s.settle([])
    return s.close()


def test_a_replacement_is_taken_below_the_reserve_an_ordinary_draw_is_not():
    # §2.3: replacements go on below R = 15 while a tile is undrawn (§11: 黄庄 at R = 14)
    assert codes(_last_drawer_kong()) == []
    got = codes(_last_drawer_kong(draw_after=True))  # near miss: an ordinary draw at R = 14
    assert got and got[0] == "EXHAUSTIVE_DRAW_MISSED"


def _kong_at_the_last_tile(second_kong: bool):
    """``draw_reserve`` 1, every flower dealt and set aside in the opening: seat 2 makes the
    last ordinary draw (R: 2 -> 1), the fourth 6s, declares a 暗杠 and its replacement (R = 0)
    is the fourth 7s; ``second_kong``: it declares a second 暗杠 with no tile left."""
    s = HainanScene("hn-kong-last", {"draw_reserve": 1})
    s.hand(0, {1: "1f 2f 3f 4f", 2: "5f 6f 7f 8f 666s 777s"}, reserve="6s 7s", avoid="6s 7s")
    for seat, flowers in ((1, "1f 2f 3f 4f"), (2, "5f 6f 7f 8f")):
        for f in flowers.split():
            s.buhua(seat, f)
    seat = s.until(s.opening_round(0), 2)
    assert seat == 2, seat
    s.draw(2, "6s")
    s.kong_concealed(2, "6s")
    s.replacement(2, "7s")
    if second_kong:
        s.kong_concealed(2, "7s")
    else:
        s.discard(2, "7s")
        s.b.exhausted(0)
        s.settle([])
    return s.close()


def test_a_kong_needs_a_tile_left_for_its_replacement():
    # §2.3: a kong only while R >= 1
    assert codes(_kong_at_the_last_tile(False)) == []
    got = codes(_kong_at_the_last_tile(True))
    assert got and got[0] == "KONG_WITHOUT_REPLACEMENT"


# --- §4 claims and passes ---------------------------------------------------------------------

def _chow(seat: int, options=None):
    """The dealer throws 3m and ``seat`` chows it with 12m, then the hand runs to 黄庄."""
    s = HainanScene("hn-chow", options)
    s.hand(0, {0: "3m", seat: "12m"}, avoid="3m 1m 2m 4m")
    s.discard(0, "3m")
    s.chow(seat, 0, "3m", "12m")
    s.discard(seat)
    s.until((seat + 1) % 4, 15)
    s.drawn()
    return s.close()


def test_chow_only_from_the_shangjia():
    assert codes(_chow(1)) == []  # seat 0 is seat 1's 上家
    assert codes(_chow(2))[0] == "CLAIM_CHOW_WRONG_SEAT"  # near miss: the 对家's discard


def test_chow_option_off():
    assert codes(_chow(1, {"chow": False}))[0] == "CLAIM_CHOW_DISABLED"


def _win_after_a_pass(options=None):
    """Seat 1 (123m 456m 789m 555z 2p: 门清 二五八将 三元刻) lets seat 3's 2p go, then wins
    seat 0's 2p before its own next draw: seat 0 pays 2, seats 2 and 3 pay 1."""
    s = HainanScene("hn-louhe", options)
    s.hand(0, {1: "123m 456m 789m 555z 2p", 3: "2p"}, reserve="2p", avoid="2p 5z")
    s.discard(0)
    s.pass_turn(1)
    s.pass_turn(2)
    s.draw(3)
    s.discard(3, "2p")
    s.draw(0, "2p")
    s.discard(0, "2p")
    s.win([(1, ["menqing", "jiang258", "sanyuan"], 3, 1)], "discard", "2p", from_seat=0)
    s.settle([(0, 1, 2, "win"), (2, 1, 1, "win"), (3, 1, 1, "win")])
    return s.close()


def test_passing_a_win_bars_nothing_by_default_and_the_same_tile_under_guohu():
    # §4: no pass rule by default; ``guohu = same_tile`` (漏和) bars the kind let go
    assert codes(_win_after_a_pass()) == []
    assert codes(_win_after_a_pass({"guohu": "same_tile"})) == ["WIN_DURING_LOUHE"]


# --- §9.4 跟牌 ---------------------------------------------------------------------------------

def _genpai(before_first: str, paid: bool):
    """§12.7's 跟牌 (the first four discards 9m in seat order; seat 3 self-draws later), with
    seat 1 declaring a 暗杠 (``kong``) or seat 2 setting aside a flower (``flower``) before its
    first discard.  Money: win 2 from each; 跟牌 1 from the dealer to each (``paid``); the 暗杠
    earns seat 1 2 from each other seat."""
    s = HainanScene(f"hn-genpai-{before_first}")
    hands = {0: "9m", 1: "9m", 2: "9m", 3: "9m 123m 456m 789p 11s 2p"}
    if before_first == "kong":
        hands[1] += " 555z"
    s.hand(0, hands, reserve="1s 2p 5z 7f", avoid="2p 9m 1s 5z")
    s.discard(0, "9m")
    for seat in (1, 2, 3):
        if seat == 1 and before_first == "kong":
            s.draw(1, "5z")
            s.kong_concealed(1, "5z")
            s.replacement(1)
        elif seat == 2 and before_first == "flower":
            s.draw(2, "7f")
            s.buhua(2, "7f")
        else:
            s.draw(seat, "1s" if seat == 3 else None)
        s.discard(seat, "9m")
    s.go_around(0, 3)
    s.draw(3, "2p")
    s.win([(3, ["menqing", "jiang258", "zimo"], 2, 2)], "self_draw", "2p")
    money = [(p, 3, 2, "win") for p in (0, 1, 2)]
    if paid:
        money += [(0, p, 1, "genpai") for p in (1, 2, 3)]
    if before_first == "kong":
        money += [(p, 1, 2, "kong") for p in (0, 2, 3)]
    s.settle(money)
    return s.close()


def test_genpai_is_not_broken_by_a_flower_or_a_concealed_kong_before_a_first_discard():
    # §9.4: only a chow, pong or 直杠 is a claim "in between"
    for before_first in ("flower", "kong"):
        assert codes(_genpai(before_first, True)) == [], before_first
        assert codes(_genpai(before_first, False)) == ["GENPAI_MISMATCH"], before_first  # near miss: left unpaid


# --- §3 the 令 wind and the seat winds ----------------------------------------------------------

def test_the_ling_wind_changes_after_four_passes_of_the_deal():
    # §3: a hand is played in [东, 南, 西, 北][(passes before it) div 4 mod 4]; the seat wind
    # is the position from the dealer; a pong of the 令 wind is 令风刻
    from types import SimpleNamespace

    from audits.rules.hainan import fans, table
    from schema.ruleset import resolve

    from .helpers import pong, tiles

    def ctx(passes: int, dealer: int = 1, seat: int = 3):
        t = SimpleNamespace(set_aside=[[], [], [], []], dealer=dealer, dealer_changes=passes,
                            discards=[[(0, -1)], [], [], []], melds=[[], [], [], []])
        return table.win_context(resolve("hainan"), t, seat, "discard", None, False, False)

    assert [ctx(p).round_wind for p in (0, 3, 4, 7, 8, 12, 16)] == [0, 0, 1, 1, 2, 3, 0]
    assert ctx(4, dealer=1, seat=3).seat_wind == 2  # two seats from the dealer: 西
    hand, melds = tiles("123m 456p 789s 33s"), [pong("2z")]  # a 南 pong; 3s is no 2-5-8 pair
    assert fans.score_hand(resolve("hainan"), hand, melds, ctx(4)).fans == ["quanfeng"]
    assert fans.score_hand(resolve("hainan"), hand, melds, ctx(3)).fans == []  # near miss: still 东令


# --- §2.1 one copy of each flower ---------------------------------------------------------------

def _two_flowers(second: str):
    """Seat 1 is dealt 秋 3f, seat 2 ``second`` (冬 4f; or a second 秋, logged in the deal);
    each sets its flower aside in the opening; the hand runs to 黄庄."""
    import msgspec

    from schema import events as ev
    s = HainanScene("hn-two-flowers")
    s.hand(0, {1: "3f", 2: "4f"})
    if second != "4f":
        i = next(i for i, e in enumerate(s.b.events) if type(e) is ev.TilesDealt)
        dealt = [list(h) for h in s.b.events[i].hands]
        dealt[2][dealt[2].index("4f")] = second
        s.b.events[i] = msgspec.structs.replace(s.b.events[i], hands=dealt)
        s.hands[2]["4f"] -= 1
        s.hands[2][second] += 1
    s.buhua(1, "3f")
    s.buhua(2, second)
    s.until(s.opening_round(0), 15)
    s.drawn()
    return s.close()


def test_each_flower_is_in_the_set_once():
    # §2.1: 144 tiles, one copy of each flower (TILE_OVERCOUNT counts a flower at most once)
    assert codes(_two_flowers("4f")) == []
    assert "TILE_OVERCOUNT" in codes(_two_flowers("3f"))


def _flower_replaced_by(replacement: str):
    """Seat 1 is dealt 秋 3f and sets it aside; its replacement from the tail is ``replacement``
    (a flower too, set aside in turn); the hand runs to 黄庄."""
    s = HainanScene("hn-flower-replaced-" + replacement)
    s.hand(0, {1: "3f"})
    s.pool[replacement] += replacement == "3f"  # a second 秋, on purpose
    s.buhua(1, "3f", replacement)
    s.buhua(1, replacement)
    s.until(s.opening_round(0), 15)
    s.drawn()
    return s.close()


def test_a_flower_drawn_twice_is_over_the_set():
    # one copy of each flower: a replacement draw of a second 秋 is TILE_OVERCOUNT; of 冬, nothing
    assert codes(_flower_replaced_by("4f")) == []
    assert codes(_flower_replaced_by("3f")) == ["TILE_OVERCOUNT"]


def test_none_over_four_of_a_kind_one_of_a_flower():
    from audits.checks.table import none_over
    from schema.tiles import ALL_KINDS, TILE_INDEX

    seen = [0] * ALL_KINDS
    seen[TILE_INDEX["5m"]], seen[TILE_INDEX["3f"]] = 4, 1
    assert none_over(seen)
    seen[TILE_INDEX["5m"]] = 5
    assert not none_over(seen)  # a fifth 5m
    seen[TILE_INDEX["5m"]], seen[TILE_INDEX["3f"]] = 4, 2
    assert not none_over(seen)  # a second 秋


# --- §3 the next dealer ---------------------------------------------------------------------------

def _next_hand_dealt_by(winner: int, next_dealer: int):
    """Hand 1 (dealer 0): ``winner`` self-draws 123m 456m 789p 234s + 5s (门清 平胡 二五八将);
    hand 2 is dealt by ``next_dealer`` and runs to 黄庄."""
    s = HainanScene(f"hn-next-{winner}-{next_dealer}")
    s.hand(0, {winner: "123m 456m 789p 234s 5s"}, reserve="5s", avoid="5s 2s 8s")
    seat = s.opening_round(0)
    while seat != winner:
        seat = s.pass_turn(seat)
    s.draw(winner, "5s")
    s.win([(winner, ["pinghu", "menqing", "jiang258", "zimo"], 3, 2)], "self_draw", "5s")
    s.settle([(p, winner, 2, "win") for p in range(4) if p != winner])
    s.hand(next_dealer, {})
    s.until(s.opening_round(next_dealer), 15)
    s.drawn()
    return s.close()


def test_the_dealer_keeps_the_deal_after_its_win_else_the_xiajia_deals():
    # §3: "如果庄家胡牌的话，庄家继续做庄；闲家赢的话，则由该庄家的下一家当庄"
    assert codes(_next_hand_dealt_by(0, 0)) == []
    assert codes(_next_hand_dealt_by(2, 1)) == []
    assert "DEALER_ROTATION" in codes(_next_hand_dealt_by(0, 1))  # near misses
    assert "DEALER_ROTATION" in codes(_next_hand_dealt_by(2, 0))
    assert "DEALER_ROTATION" in codes(_next_hand_dealt_by(2, 2))  # the winner does not deal


# --- §4 kongs after a claim, §7 what may be robbed -------------------------------------------------

def test_a_concealed_kong_right_after_a_pong():
    # §4: 暗杠 on one's own turn, also right after a chow or pong (before the discard)
    s = HainanScene("hn-kong-after-pong")
    s.hand(0, {0: "7z", 1: "77z 6666s"}, avoid="7z 6s")
    s.discard(0, "7z")
    s.pong(1, 0, "7z")
    s.kong_concealed(1, "6s")
    s.discard(1, s.replacement(1))
    s.until(2, 15)
    s.drawn()
    assert codes(s.close()) == []


def _rob(kong: str):
    """Seat 1 (123m 456m 789p 35s 55z: 门清) robs seat 2's kong of 4s: an added kong
    (seat 2 ponged 4s from seat 0, then draws the fourth), a 直杠 on seat 0's 4s, or a 暗杠."""
    s = HainanScene(f"hn-rob-{kong}")
    s.hand(0, {0: "" if kong == "concealed" else "4s", 1: "123m 456m 789p 35s 55z",
               2: "44s" if kong == "added" else "444s"},
           reserve="4s", avoid="4s 2s 3s 5z")
    if kong == "concealed":
        s.discard(0)
        s.pass_turn(1)
        s.draw(2, "4s")
        s.kong_concealed(2, "4s")
    else:
        s.discard(0, "4s")
    if kong == "added":
        s.pong(2, 0, "4s")
        s.discard(2)
        s.go_around(3, 3)
        s.draw(2, "4s")
        s.kong_added(2, "4s")
    elif kong == "exposed":
        s.kong_exposed(2, 0, "4s")
    s.win([(1, ["menqing", "qianggang"], 2, 1)], "robbed_kong", "4s", from_seat=2)
    s.settle([(2, 1, 2, "win"), (0, 1, 1, "win"), (3, 1, 1, "win")])
    return s.close()


def test_only_an_added_kong_is_robbed():
    assert codes(_rob("added")) == []
    got = codes(_rob("exposed"))
    assert got and got[0] == "ROB_EXPOSED_KONG"
    got = codes(_rob("concealed"))
    assert got and got[0] == "ROB_CONCEALED_KONG"


def _chow_or_pong(taker: int):
    """The dealer throws 3m; seat 1 (12m) declares a chow and seat 2 (33m) a pong; ``taker``
    takes it (seat 1's chow or seat 2's pong), then the hand runs to 黄庄."""
    s = HainanScene("hn-priority")
    s.hand(0, {0: "3m", 1: "12m", 2: "33m"}, avoid="3m 1m 2m 4m")
    s.discard(0, "3m")
    s.b.declare(1, "chow")
    s.b.declare(2, "pong")
    if taker == 1:
        s.chow(1, 0, "3m", "12m")
    else:
        s.pong(2, 0, "3m")
    s.discard(taker)
    s.until((taker + 1) % 4, 15)
    s.drawn()
    return s.close()


def test_pong_outranks_chow():
    # §4: 胡 > 杠 = 碰 > 吃
    assert codes(_chow_or_pong(2)) == []
    assert codes(_chow_or_pong(1)) == ["CLAIM_PRIORITY"]
