"""An independent conformance review of the Qujing family (qujing.md and the seed
``000_8802f99597eaf646.txt``): the seed's worked examples recomputed through the public
entry points (``paipu hand``, the family's scoring and settlement, ``audit_game`` over a
log), and rules the other Qujing tests hold without a near miss, each with one.

Every expected figure below is worked out by hand from the spec / seed (written beside
it), never taken from the code's output.
"""

from __future__ import annotations

import json
import os

import pytest
import typer
from typer.testing import CliRunner

from audits import audit_game
from audits.rules import family_of
from audits.rules.family import HandFacts, WinContext
from audits.ledger import net_of
from audits.rules.qujing.settlement import dianji_transfers, next_dealer, settle
from replay.melds import Meld
from schema import events as ev
from schema.builder import GameBuilder
from schema.events import Transfer
from schema.reader import GameLog, read_games
from schema.ruleset import resolve
from schema.tiles import TILE_INDEX, parse_hand

from paipu.hand_cmd import register
from paipu.sim.qujing.samples import Script

from .helpers import GUOHU_DEAL, KONG_DEAL, SEAT1, SEAT3, log_of, scenario, selfdraw_game

SAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "sample_logs", "clean")

_app = typer.Typer()


@_app.callback()
def _root() -> None:
    """paipu (test harness)."""


register(_app)


def hand_json(*args: str) -> dict:
    """``paipu hand ... --json`` as a dict (exit status 0 asserted)."""
    r = CliRunner().invoke(_app, ["hand", *args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def codes(b: GameBuilder) -> list[tuple[str, object]]:
    return [(f.code, f.seat) for f in audit_game(log_of(b)).findings]


def tr(payer: int, payee: int, amount: int, reason: str = "win") -> Transfer:
    return Transfer(payer=payer, payee=payee, amount=amount, reason=reason)


# --- seed §(3)/(4): 吃杠 and 碰杠 杠上开花 with the tail showing 2m and 4s ------------------
# The hand ends 234m 222p (or the pong) 66p + chow/pong + concealed kong 4p: no chicken at
# all (无鸡 1) + 杠上开花 1 = 2 fan, P = 1 × 2² = 4, a self-draw: each other seat pays 4.

@pytest.mark.parametrize("chow", ["567s", "678s"])  # 上家 throws 5s, or 8s
def test_seed_chow_kong_example_scores_two_fan_each_pays_four(chow):
    d = hand_json("34m222p66p", "--tile", "2m", "--melds", f"chow:{chow} ckong:4p", "--after-kong",
                  "--option", "chow=true", "--seat", "1")
    assert sorted(d["fans"]) == ["gangshang_kaihua", "wuji"] and d["fan"] == 2 and d["points"] == 4
    assert sorted((t["payer"], t["payee"], t["amount"]) for t in d["transfers"]) == [(0, 1, 4), (2, 1, 4), (3, 1, 4)]


@pytest.mark.parametrize("pong, rest", [("2p", "34m66p567s"), ("6p", "34m22p567s")])
def test_seed_pong_kong_example_scores_two_fan(pong, rest):
    d = hand_json(rest, "--tile", "2m", "--melds", f"pong:{pong} ckong:4p", "--after-kong")
    assert sorted(d["fans"]) == ["gangshang_kaihua", "wuji"] and d["fan"] == 2 and d["points"] == 4


def test_seed_kong_example_near_miss_a_wall_draw_is_no_gangshang_kaihua():
    # the same tile drawn from the wall, not from the tail after the kong: 无鸡 alone, P = 2
    d = hand_json("34m222p66p", "--tile", "2m", "--melds", "chow:567s ckong:4p", "--option", "chow=true")
    assert d["fans"] == ["wuji"] and d["fan"] == 1 and d["points"] == 2


# --- seed 7 养猪: A bets 1, B 2, C and D 0; A self-draws ----------------------------------

def yangzhu_selfdraw(settlement: list[tuple[int, int, int, str]], scores: list[int]) -> GameBuilder:
    """The dealer (A) self-draws 无鸡 + 门清自摸 = 2 fan (P = 4) after bets 1, 2, 0, 0."""
    def plant(b, step):
        if step == "deal":
            for seat, bet in enumerate((1, 2, 0, 0)):
                b.bet(seat, bet)
            return False
        if step == "settle":
            b.settle(settlement, scores)
            return True
        if step == "close":
            b.close("hands_done", scores)
            return True
        return False
    return selfdraw_game("g-pig", options={"yangzhu": True}, plant=plant)


def test_seed_yangzhu_example_in_a_log():
    # on top of 4 from each, A collects 1+2 = 3 from B, 1+0 from C, 1+0 from D: 17, −7, −5, −5
    b = yangzhu_selfdraw([(1, 0, 4, "win"), (1, 0, 3, "yangzhu"), (2, 0, 4, "win"), (2, 0, 1, "yangzhu"),
                          (3, 0, 4, "win"), (3, 0, 1, "yangzhu")], [17, -7, -5, -5])
    assert codes(b) == []


def test_seed_yangzhu_near_miss_only_the_losers_bet():
    # the loser's bet alone (B 2, C 0, D 0) ignores the winner's: 养猪 wrong
    b = yangzhu_selfdraw([(1, 0, 4, "win"), (1, 0, 2, "yangzhu"), (2, 0, 4, "win"), (3, 0, 4, "win")],
                         [14, -6, -4, -4])
    assert codes(b) == [("YANGZHU_MISMATCH", None)]


# --- seed 6 点鸡 ----------------------------------------------------------------------

def test_seed_dianji_2_1_0_0_sample_log_settles_plus5_plus1_minus3_minus3():
    logs, _ = read_games([os.path.join(SAMPLES, "seed_dianji_2_1_0_0.jsonl")])
    (log,) = logs
    settled = [e for e in log.events if type(e) is ev.HandSettled]
    assert [list(e.scores) for e in settled] == [[5, 1, -3, -3]]
    assert audit_game(log).findings == []


def dianji_kong_of_a_discarded_chicken(tallies: list[int]) -> GameBuilder:
    """Seed 点鸡 举例1: A (seat 0) throws its only chicken and B (seat 1) konges it with its
    three; then A self-draws 无鸡 + 门清自摸 (P = 4).  ``tallies``: the 点鸡 counts the
    settlement pays on."""
    b = GameBuilder("g-dianji", options={"dianji": True})
    b.open()
    b.hand(1, dealer=0)
    b.deal("123456789m234p5p1s", "111s258p369s1234z", SEAT3, "147m258p369m1344z")
    b.tail("9s", "8s")
    b.discard(0, "1s")
    b.declare(1, "kong")
    b.kong_exposed(1, 0, "1s")
    b.draw(1, "9s", source="tail")
    b.tail("7m")
    b.discard(1, "9s")
    for seat, tile in ((2, "9p"), (3, "8m")):
        b.draw(seat, tile)
        b.discard(seat, tile)
    b.draw(0, "5p")
    b.win([(0, ["wuji", "menqing_zimo"], 2, 4)], "self_draw", "5p")
    transfers = [(1, 0, 4, "win"), (2, 0, 4, "win"), (3, 0, 4, "win")]
    scores = [12, -4, -4, -4]
    for payer in range(4):
        for payee in range(4):
            if tallies[payee] > tallies[payer]:
                amount = tallies[payee] - tallies[payer]
                transfers.append((payer, payee, amount, "dianji"))
                scores[payer] -= amount
                scores[payee] += amount
    b.settle(transfers, scores)
    b.fee(0, 4)
    b.close("hands_done", scores)
    return b


def test_seed_dianji_a_discarded_chicken_stays_the_discarders_when_konged():
    # A answers for the chicken it threw (1), B for the three of its own in the kong (3):
    # nets (4·c − 4): A 0, B +8, C −4, D −4; with the win: 12, +4, −8, −8
    b = dianji_kong_of_a_discarded_chicken([1, 3, 0, 0])
    assert codes(b) == []
    assert list(b.events[-1].scores) == [12, 4, -8, -8]


def test_seed_dianji_near_miss_the_konged_chicken_credited_to_the_konger():
    assert codes(dianji_kong_of_a_discarded_chicken([0, 4, 0, 0])) == [("DIANJI_MISMATCH", None)]


def test_dianji_three_seats_nets():
    # n = 3, chickens 2, 1, 0: (3·c − 3) × B = +3, 0, −3; near miss: the 4-seat nets differ
    three = resolve("qujing-xiaoji", {"dianji": True, "players": 3})
    assert net_of(dianji_transfers(three, [2, 1, 0]), 3) == [3, 0, -3]
    assert settle(three, [0, 0, 0], facts=HandFacts(None, [2, 1, 0])).scores == [3, 0, -3]
    base2 = resolve("qujing-xiaoji", {"dianji": True, "players": 3, "base": 2})
    assert net_of(dianji_transfers(base2, [2, 1, 0]), 3) == [6, 0, -6]


# --- seed 8 20分敲锣 + 一炮多响: the discarder pays in seat order ---------------------------

def test_qiaoluo_yipao_duoxiang_discarder_pays_in_seat_order_from_its_next_seat():
    # seat 2 throws, holding 5; seats 1 and 3 win with P = 4 each.  Seat order from seat 2's
    # next seat: seat 3 is paid first (4), seat 1 gets the 1 left; seat 2 is out (0).
    rs = resolve("qujing-xiaoji", {"qiaoluo": True})
    got = settle(rs, [20, 20, 5, 20], [(1, 4), (3, 4)], "discard", from_seat=2)
    assert got.transfers == [tr(2, 3, 4), tr(2, 1, 1)] and got.scores == [20, 21, 0, 24] and got.game_over


def test_qiaoluo_yipao_duoxiang_near_miss_another_discarder_other_order():
    # seat 0 throws holding 5 to the same winners: seat 1 (0's next) is paid first
    rs = resolve("qujing-xiaoji", {"qiaoluo": True})
    got = settle(rs, [5, 20, 20, 20], [(1, 4), (3, 4)], "discard", from_seat=0)
    assert got.transfers == [tr(0, 1, 4), tr(0, 3, 1)] and got.scores == [0, 24, 20, 21]


def test_qiaoluo_yangzhu_bets_are_clamped_too():
    # B holds 5 and owes 4 (win) + 3 (bets 1+2): pays 4, then the 1 it has left
    rs = resolve("qujing-xiaoji", {"qiaoluo": True, "yangzhu": True})
    got = settle(rs, [20, 5, 20, 20], [(0, 4)], "self_draw", facts=HandFacts([1, 2, 0, 0], None))
    assert got.transfers == [tr(1, 0, 4), tr(1, 0, 1, "yangzhu"), tr(2, 0, 4), tr(2, 0, 1, "yangzhu"),
                             tr(3, 0, 4), tr(3, 0, 1, "yangzhu")]
    assert got.scores == [35, 0, 15, 15] and got.game_over


# --- 养猪 on a discard, on 一炮多响, on a drawn hand ---------------------------------------

def test_yangzhu_discard_win_only_the_discarder_pays_the_two_bets():
    # bets 1, 2, 0, 2; seat 3 throws to seats 0 and 2 (P = 2 each): seat 0 first (3's next),
    # 2 + (1+2) = 5, then seat 2: 2 + (0+2) = 4; seat 1 (bet 2) pays nothing
    rs = resolve("qujing-xiaoji", {"yangzhu": True})
    got = settle(rs, [0] * 4, [(0, 2), (2, 2)], "discard", from_seat=3, facts=HandFacts([1, 2, 0, 2], None))
    assert got.transfers == [tr(3, 0, 2), tr(3, 0, 3, "yangzhu"), tr(3, 2, 2), tr(3, 2, 2, "yangzhu")]
    assert got.scores == [5, 0, 4, -9]


def test_yangzhu_near_miss_a_drawn_hand_pays_no_bets():
    rs = resolve("qujing-xiaoji", {"yangzhu": True})
    assert settle(rs, [0] * 4, facts=HandFacts([1, 2, 0, 2], None)) == ([], [0, 0, 0, 0], False)


# --- 抢杠 包三家 at three seats (interpretation: (n − 1) shares) -------------------------

def test_qianggang_three_seats_adder_pays_two_shares():
    three = resolve("qujing-xiaoji", {"players": 3, "yangzhu": True})
    got = settle(three, [0, 0, 0], [(0, 4)], "robbed_kong", from_seat=1, facts=HandFacts([1, 2, 0], None))
    # 2 × 4, and the bets of the two shares it covers: (1+2) + (1+0)
    assert got.transfers == [tr(1, 0, 8, "qianggang"), tr(1, 0, 4, "yangzhu")]
    four = resolve("qujing-xiaoji")
    assert settle(four, [0] * 4, [(0, 4)], "robbed_kong", from_seat=1).transfers == [tr(1, 0, 12, "qianggang")]


# --- §7 dealer --------------------------------------------------------------------------

def test_single_discard_winner_deals_and_near_miss_yipao_duoxiang_discarder_deals():
    assert next_dealer(0, [3], "discard", from_seat=2) == 3
    assert next_dealer(0, [1, 3], "discard", from_seat=2) == 2
    assert next_dealer(2, [1, 3], "robbed_kong", from_seat=0) == 0  # several robbers: the adder


# --- §5 四小鸡 as the dealer before the first discard -------------------------------------

def dealer_dealt(hand: str) -> GameBuilder:
    """The dealer declares a self-draw on its fourteen dealt tiles (四小鸡, P = 8)."""
    b = GameBuilder("g-sixiaoji")
    b.open()
    b.hand(1, dealer=0)
    b.deal(hand, SEAT1, SEAT1, SEAT3)
    b.tail("9s", "8s")
    b.win([(0, ["sixiaoji"], 3, 8)], "self_draw", "7z")
    b.settle([(1, 0, 8, "win"), (2, 0, 8, "win"), (3, 0, 8, "win")], [24, -8, -8, -8])
    b.fee(0, 4)
    b.close("hands_done", [24, -8, -8, -8])
    return b


def test_sixiaoji_dealer_before_the_first_discard_is_a_self_draw():
    assert codes(dealer_dealt("1111s258m369p4s237z")) == []


def test_sixiaoji_near_miss_three_chickens_dealt_is_no_hand():
    assert codes(dealer_dealt("111s2258m369p4s237z")) == [("WIN_INCOMPLETE", 0)]


# --- seed (5) 过胡 / 过手碰 end with the player's own 碰 (not only its draw) ----------------

def guohu_then(pong_between: bool) -> GameBuilder:
    """Seat 2 (waiting on 7z alone, 无鸡) lets seat 0's 7z go; it wins on the next 7z: after
    ponging 2z in between, or (near miss) with no draw or claim of its own in between."""
    b = GameBuilder("g-guohu")
    b.open()
    b.hand(1, dealer=0)
    b.deal(*GUOHU_DEAL)
    b.tail("9s", "8s")
    b.discard(0, "7z")
    b.pass_(2, ["win"])
    if pong_between:
        b.draw(1, "9p")
        b.discard(1, "2z")
        b.pong(2, 1, "2z", "2z2z")
        b.discard(2, "2z")
        b.draw(3, "7z")
        b.discard(3, "7z")
        frm = 3
    else:
        b.draw(1, "7z")
        b.discard(1, "7z")
        frm = 1
    b.win([(2, ["wuji"], 1, 2)], "discard", "7z", from_seat=frm)
    scores = [0, 0, 2, 0]
    scores[frm] = -2
    b.settle([(frm, 2, 2, "win")], scores)
    b.fee(0, 4)
    b.close("hands_done", scores)
    return b


def test_guohu_ends_with_the_players_own_pong():
    assert codes(guohu_then(pong_between=True)) == []


def test_guohu_near_miss_no_own_action_in_between():
    assert codes(guohu_then(pong_between=False)) == [("WIN_DURING_GUOHU", 2)]


#: seat 2 holds 9p9p and 2z2z
GUOSHOU_DEAL = ("123456789m2345p9p", "147m258p369s1234z", "234m567m78p9p9p2z2z1z", "369m147p258s5676z")


def guoshou_peng_then(pong_between: bool) -> GameBuilder:
    """Seat 2 could pong seat 0's 9p and passes; it pongs a later 9p: after ponging 2z in
    between, or (near miss) right on seat 1's 9p."""
    def body(b):
        b.discard(0, "9p")
        if pong_between:
            b.draw(1, "2z")
            b.discard(1, "2z")
            b.pong(2, 1, "2z", "2z2z")
            b.discard(2, "1z")
            b.draw(3, "9p")
            b.discard(3, "9p")
            b.pong(2, 3, "9p", "9p9p")
        else:
            b.draw(1, "9p")
            b.discard(1, "9p")
            b.pong(2, 1, "9p", "9p9p")
    return scenario(GUOSHOU_DEAL, body)


def test_guoshou_peng_ends_with_the_players_own_pong_of_another_tile():
    assert codes(guoshou_peng_then(pong_between=True)) == []


def test_guoshou_peng_near_miss_no_own_action_in_between():
    assert codes(guoshou_peng_then(pong_between=False)) == [("GUOSHOU_PENG", 2)]


# --- §5 杠上炮 in a log -------------------------------------------------------------------

def kong_then_discard(kong: bool) -> GameBuilder:
    """Seat 1 (345m 456p 78s 9p, a chicken and 222z) wins on seat 0's 9s: the
    chicken stands for 9p, so no 无鸡 and no other fan but 杠上炮 when seat 0 threw 9s right
    after its kong's replacement (1 fan, P = 2); without the kong it is 0 fan."""
    b = GameBuilder("g-pao")
    b.open()
    b.hand(1, dealer=0)
    b.deal("2222m345m678m234p9s", "345m456p78s9p1s222z", SEAT3, "147m258p369s1344z")
    b.tail("7z", "8s")
    fans, fan, pts = [], 0, 1
    if kong:
        b.kong_concealed(0, "2m")
        b.draw(0, "7z", source="tail")
        b.tail("5z")
        fans, fan, pts = ["gangshang_pao"], 1, 2
    b.discard(0, "9s")
    b.declare(1, "win")
    b.win([(1, fans, fan, pts)], "discard", "9s", from_seat=0)
    b.settle([(0, 1, pts, "win")], [-pts, pts, 0, 0])
    b.fee(0, 4)
    b.close("hands_done", [-pts, pts, 0, 0])
    return b


def test_gangshang_pao_in_a_log_is_a_one_fan_discard_win():
    assert codes(kong_then_discard(kong=True)) == []


def test_gangshang_pao_near_miss_without_the_kong_the_discard_win_has_no_fan():
    assert codes(kong_then_discard(kong=False)) == [("WIN_ZERO_FAN_DISCARD", 1)]


# --- §1 / 飞白板 seed 1–2 and 双鬼: which tiles are wild, and a discarded one is plain -------

def score(preset: str, hand: str, tile: str, how: str = "self_draw"):
    rs = resolve(preset)
    t = TILE_INDEX[tile]
    return family_of(rs).scoring.score(rs, parse_hand(hand) + [t], [], WinContext(how=how, win_tile=t))


@pytest.mark.parametrize("preset, ghost", [("qujing-baiban", "5z"), ("qujing-shuanggui", "5z"),
                                            ("qujing-shuanggui", "7z")])
def test_a_self_drawn_ghost_is_wild_and_a_discarded_one_is_plain(preset, ghost):
    # 23m456p789s111z66z waits on 1m/4m: a ghost drawn completes it (standing for 1m/4m),
    # the same ghost thrown by another seat is a plain honour and does not
    hand = "23m456p789s111z66z"
    assert score(preset, hand, ghost).wins
    assert not score(preset, hand, ghost, how="discard").complete


def test_baiban_1s_is_an_ordinary_tile():
    # the near miss of the above: in 飞白板 a drawn 1s is no ghost
    assert score("qujing-xiaoji", "23m456p789s111z66z", "1s").wins
    assert not score("qujing-baiban", "23m456p789s111z66z", "1s").complete


def test_baiban_single_wait_wins_a_discarded_white_as_a_plain_pair():
    # 单吊白板: self-draw on any tile; on a discard only the white (a natural pair, 无鸡)
    # (a chow among the melds, so no 大对: the white as wild 8m leaves a hand without fan)
    args = ["--melds", "pong:2z pong:3z chow:234m pong:7p", "--preset", "qujing-baiban", "--option", "chow=true"]
    d = hand_json("5z", "--tile", "5z", "--discard", *args)
    assert d["wins"] and sorted(d["fans"]) == ["quanqiuren", "wuji"]
    d = hand_json("5z", "--tile", "8m", "--discard", *args)
    assert d["complete"] and not d["wins"]
    d = hand_json("5z", "--tile", "8m", *args)
    assert d["wins"] and d["fans"] == ["dihu"]


# --- §2 the tail pair: the kong replacement is either face-up tile, the player's choice ----

def kong_replaced_by(tile: str) -> GameBuilder:
    """The dealer konges 2222m and takes ``tile`` from the tail (9s and 8s face up)."""
    def body(b):
        b.kong_concealed(0, "2m")
        b.draw(0, tile, source="tail")
        b.tail("7s")
        b.discard(0, "7z")
    return scenario(KONG_DEAL, body)


@pytest.mark.parametrize("tile", ["9s", "8s"])
def test_kong_replacement_either_face_up_tail_tile(tile):
    assert codes(kong_replaced_by(tile)) == []


def test_kong_replacement_near_miss_a_tile_not_face_up():
    assert codes(kong_replaced_by("6s")) == [("KONG_REPLACEMENT_NOT_FROM_TAIL", 0)]


# --- §2 黄庄 with option draw_reserve_counts_tail off: 20 remaining = 22 undrawn -------------

def drawn_at(undrawn: int, options: dict) -> list[str]:
    """A hand played 摸打 (draw, throw the drawn tile) until ``undrawn`` wall tiles are left
    (the two face-up tail tiles among them), then declared drawn (黄庄)."""
    s = Script("g-huang", options=options)
    s.hand(1, 0, {0: "1s1s 234m 567m 89p 2z3z 6z7z", 1: "1s 258m 369p 47s 1z2z3z 4z",
                  2: "369m 258p 2s5s8s 1z 5z6z7z", 3: "147m 147p 3s6s9s 1z2z3z4z"}, keep_back="1s")
    s.discard(0, "7z")
    s.modda(1, undrawn)
    s.exhausted()
    events = s.close()
    log = GameLog("g-huang", "t.jsonl", events, list(range(1, len(events) + 1)), None, True)
    return [f.code for f in audit_game(log).findings]


NO_TAIL = {"draw_reserve_counts_tail": False}


def test_huangzhuang_tail_counted_by_default_at_20_undrawn_and_near_misses():
    assert drawn_at(20, {}) == []
    assert drawn_at(21, {}) == ["EXHAUSTIVE_DRAW_EARLY"]
    assert drawn_at(19, {}) == ["EXHAUSTIVE_DRAW_MISSED"]


def test_huangzhuang_tail_not_counted_at_22_undrawn_and_near_miss_early():
    # 22 undrawn − the 2 face-up tail tiles = 20 remaining: drawn; at 23 (21 remaining) it is early
    assert drawn_at(22, NO_TAIL) == []
    assert drawn_at(23, NO_TAIL) == ["EXHAUSTIVE_DRAW_EARLY"]


@pytest.mark.parametrize("undrawn", [21, 20])
def test_huangzhuang_tail_not_counted_play_past_20_remaining_is_missed_draw(undrawn):
    # with draw_reserve_counts_tail off, remaining = undrawn − the 2 face-up tail tiles: a draw
    # at 22 undrawn is 20 remaining, so play on past it (drawn at 21 or 20 undrawn) missed 黄庄
    assert drawn_at(undrawn, NO_TAIL) == ["EXHAUSTIVE_DRAW_MISSED"]


# --- §4–§5 the highest reading, against a brute-force reference ------------------------
# The reference substitutes every chicken by every tile (keeping the max-four rule), splits
# the tiles every way into sets + pair (or seven pairs), scores each split with the §5
# table written again here from the spec, and keeps the highest total.  It shares no code
# with audits.rules.hands or audits.rules.qujing.fans.

_REF_VALUES = dict(dihu=0, wuji=1, menqing_zimo=1, gangshang_kaihua=1, gangshang_pao=1, shuanggang=1,
                   hunyise=1, duidui=1, quanqiuren=1, xiaosanyuan=1, wumeihua=2, qingyise=2, ziyise=2,
                   xiaoqidui=2, dasanyuan=2, xiaosixi=2, longzhuabei=3, sigang=3, dasixi=3)
_WINDS, _DRAGONS = range(27, 31), range(31, 34)
_FIVE_P = TILE_INDEX["5p"]


def _splits(counts: list[int], sets_needed: int) -> list[tuple[tuple, int]]:
    """Every split of ``counts`` into ``sets_needed`` sets (("pong"|"chow", lowest)) + one pair."""
    out = []

    def walk(i, sets, pair):
        while i < 34 and counts[i] == 0:
            i += 1
        if i == 34:
            if pair is not None and len(sets) == sets_needed:
                out.append((tuple(sets), pair))
            return
        if pair is None and counts[i] >= 2:
            counts[i] -= 2
            walk(i, sets, i)
            counts[i] += 2
        if counts[i] >= 3:
            counts[i] -= 3
            walk(i, sets + [("pong", i)], pair)
            counts[i] += 3
        if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
            for t in (i, i + 1, i + 2):
                counts[t] -= 1
            walk(i, sets + [("chow", i)], pair)
            for t in (i, i + 1, i + 2):
                counts[t] += 1

    walk(0, [], None)
    return out


def _ref_fans(split, counts, melds, plain, how, win, after_kong, kong_discard) -> set[str]:
    """§5 on one split (``split`` None: seven pairs); ``plain``: every chicken stands for its own kind."""
    f = set()
    if plain and not any(m.wilds for m in melds):
        f.add("wuji")
    if how == "self_draw" and split is not None and all(m.kind == "kong_concealed" for m in melds):
        f.add("menqing_zimo")
    if after_kong and how == "self_draw":
        f.add("wumeihua" if win == _FIVE_P else "gangshang_kaihua")
    if kong_discard and how == "discard":
        f.add("gangshang_pao")
    kongs = sum(1 for m in melds if m.is_kong)
    f |= {"sigang"} if kongs == 4 else {"shuanggang"} if kongs >= 2 else set()
    suits = {t // 9 for t in range(34) if counts[t]} | {m.of // 9 for m in melds}
    if suits == {3}:
        f.add("ziyise")
    elif len(suits) == 1:
        f.add("qingyise")
    elif len(suits) == 2 and 3 in suits:
        f.add("hunyise")
    if split is None:
        f.add("longzhuabei" if 4 in counts else "xiaoqidui")
    else:
        sets, pair = split
        triplets = [t for k, t in sets if k == "pong"] + [m.of for m in melds if m.kind != "chow"]
        if all(k == "pong" for k, _ in sets) and all(m.kind != "chow" for m in melds):
            f.add("duidui")
        if sum(1 for m in melds if m.kind != "kong_concealed") == 4 and how == "discard" and plain:
            f.add("quanqiuren")
        dragons = sum(1 for t in triplets if t in _DRAGONS)
        winds = sum(1 for t in triplets if t in _WINDS)
        f |= {"dasanyuan"} if dragons == 3 else {"xiaosanyuan"} if dragons == 2 and pair in _DRAGONS else set()
        f |= {"dasixi"} if winds == 4 else {"xiaosixi"} if winds == 3 and pair in _WINDS else set()
    if not f and how in ("self_draw", "robbed_kong"):
        f.add("dihu")
    return f


def _ref_best_fan(concealed, melds, wild, how, win, after_kong, kong_discard):
    """The highest total over every substitution and split; None when no split exists."""
    from itertools import product
    naturals = [0] * 34
    chickens = []
    plain_left = how != "self_draw" and win in wild  # a chicken taken from another seat is plain
    for t in concealed:
        if t in wild and plain_left and t == win:
            plain_left = False
            naturals[t] += 1
        elif t in wild:
            chickens.append(t)
        else:
            naturals[t] += 1
    used = [0] * 34
    for m in melds:
        for t in ((m.of, m.of + 1, m.of + 2) if m.kind == "chow" else (m.of,) * (3 if m.kind == "pong" else 4)):
            used[t] += 1
    best = None
    for assigned in product(range(34), repeat=len(chickens)):
        counts = list(naturals)
        for t in assigned:
            counts[t] += 1
        if any(naturals[t] + used[t] + assigned.count(t) > 4 for t in set(assigned)):
            continue
        plain = sorted(assigned) == sorted(chickens)
        splits = _splits(counts, 4 - len(melds))
        if not melds and all(x % 2 == 0 for x in counts):
            splits.append(None)
        for split in splits:
            total = sum(_REF_VALUES[x] for x in _ref_fans(split, counts, melds, plain, how, win, after_kong,
                                                          kong_discard))
            best = total if best is None else max(best, total)
    return best


def _random_hand(rng, wild):
    """A 14-tile winning hand (sometimes spoilt by one tile), 0–2 chickens, 0–4 melds, tiles
    drawn from one of: every kind, one suit, one suit + honours, honours only."""
    held = [0] * 34
    suit = rng.randrange(3)
    pool = rng.choice([range(34), range(suit * 9, suit * 9 + 9), [*range(suit * 9, suit * 9 + 9), *range(27, 34)],
                       range(27, 34)])
    pool = list(pool)
    suits = sorted({t // 9 for t in pool if t < 27})

    def take(tiles):
        if any(held[t] + tiles.count(t) > 4 for t in tiles):
            return False
        for t in tiles:
            held[t] += 1
        return True

    def a_set():
        if suits and rng.random() < 0.5:
            low = rng.choice(suits) * 9 + rng.randrange(7)
            return [low, low + 1, low + 2]
        return [rng.choice(pool)] * 3

    melds = []
    for _ in range(rng.choice([0, 0, 1, 2, 3, 4])):
        tiles = a_set()
        kind = "chow" if tiles[0] != tiles[1] else rng.choice(["pong", "kong_exposed", "kong_added",
                                                                 "kong_concealed"])
        chickens = 0
        if kind.startswith("kong"):
            spare = [w for w in wild if w != tiles[0]]
            tiles = tiles + [rng.choice(spare) if spare and rng.random() < 0.3 else tiles[0]]
            chickens = sum(1 for t in tiles if t != tiles[0])
        if take(tiles):
            melds.append(Meld(kind, tiles[0], tuple(tiles), wilds=chickens))
    concealed = []
    if not melds and rng.random() < 0.2:
        while len(concealed) < 14:
            t = rng.choice(pool)
            if take([t, t]):
                concealed += [t, t]
    else:
        for _ in range(200):
            if len(concealed) == 3 * (4 - len(melds)):
                break
            tiles = a_set()
            if take(tiles):
                concealed += tiles
        for _ in range(200):
            t = rng.choice(pool)
            if take([t, t]):
                concealed += [t, t]
                break
    for _ in range(rng.choice([0, 1, 1, 2, 2])):
        i, w = rng.randrange(len(concealed)), rng.choice(wild)
        if held[w] < 4:
            held[concealed[i]] -= 1
            held[w] += 1
            concealed[i] = w
    if rng.random() < 0.2:
        i, t = rng.randrange(len(concealed)), rng.randrange(34)
        if held[t] < 4:
            held[concealed[i]] -= 1
            held[t] += 1
            concealed[i] = t
    return concealed, melds


def test_highest_reading_matches_a_brute_force_reference():
    import random
    from audits.rules.qujing.fans import score_hand
    rng = random.Random(20261207)
    checked = complete = 0
    for _ in range(260):
        preset = rng.choice(["qujing-xiaoji", "qujing-baiban", "qujing-shuanggui"])
        rs = resolve(preset)
        wild = [TILE_INDEX[t] for t in rs.wilds]
        concealed, melds = _random_hand(rng, wild)
        if len(concealed) + 3 * len(melds) != 14 or sum(1 for t in concealed if t in wild) > 2:
            continue
        how = rng.choice(["self_draw", "discard", "robbed_kong"])
        win = rng.choice(concealed)
        after_kong = how == "self_draw" and any(m.is_kong for m in melds) and rng.random() < 0.4
        kong_discard = how == "discard" and rng.random() < 0.2
        got = score_hand(concealed, melds, rs, WinContext(how=how, win_tile=win, after_kong=after_kong,
                                                          kong_discard=kong_discard))
        want = _ref_best_fan(concealed, melds, wild, how, win, after_kong, kong_discard)
        assert (got.fan if got.complete else None) == want, (preset, sorted(concealed), melds, how, win, got)
        checked += 1
        complete += got.complete
    assert checked > 150 and complete > 100  # the sample is not vacuous


# --- §3–§4 what a hand could claim agrees with what the claim checks allow ------------------
# The audit's "who could take this discard" (过手碰 / 过手杠, priority) and the bots use the
# enumerators; a log's claims are judged by the checks.  Every held tile combination is
# tried against the check, and the legal ones must be exactly the enumerated ones.

def test_claim_enumerators_agree_with_the_claim_checks():
    import random
    from collections import Counter
    from itertools import combinations_with_replacement
    from audits.rules.qujing import claims
    rng = random.Random(7)

    def held_combos(counts, size):
        kinds = sorted(t for t in range(34) if counts[t])
        return [c for c in combinations_with_replacement(kinds, size)
                if all(counts[t] >= k for t, k in Counter(c).items())]

    for _ in range(400):
        rs = resolve(rng.choice(["qujing-xiaoji", "qujing-baiban", "qujing-shuanggui"]), {"chow": rng.random() < 0.5})
        wild = sorted(claims.wild_kinds(rs))
        counts = [0] * 34
        pool = rng.sample(range(34), 8) + wild * 2  # chickens often, several of a kind often
        while sum(counts) < 13:
            t = rng.choice(pool)
            counts[t] += counts[t] < 4
        legal_ckongs = {(kind, c) for c in held_combos(counts, 4) for kind in set(c)
                        if not claims.check_concealed_kong(rs, kind, c)}
        assert {(k, tuple(sorted(ts))) for k, ts in claims.concealed_kong_options(rs, counts)} == legal_ckongs
        d = rng.randrange(34)
        legal_kongs = {c for c in held_combos(counts, 3) if not claims.check_exposed_kong(rs, 1, 0, d, d, c)}
        assert {tuple(sorted(x)) for x in claims.exposed_kong_options(rs, counts, d)} == legal_kongs
        assert claims.could_kong(rs, counts, d) == bool(legal_kongs)
        assert claims.could_pong(rs, counts, d) == any(not claims.check_pong(rs, 1, 0, d, c)
                                                       for c in held_combos(counts, 2))
        legal_chows = {c for c in held_combos(counts, 2) if not claims.check_chow(rs, 4, 1, 0, d, c)}
        assert {tuple(sorted(x)) for x in claims.chow_options(rs, counts, d, 1, 0)} == legal_chows


# --- §6 kongs pay nothing by themselves --------------------------------------------------

def kong_then_self_draw(kong_money: int) -> GameBuilder:
    """The dealer konges 2222m, takes 7z from the tail and wins 无鸡 + 门清自摸 + 杠上开花 =
    3 fan (P = 8, each other seat pays 8); ``kong_money``: what the log also has each other
    seat pay for the kong (reason ``kong``), which Qujing does not have."""
    b = GameBuilder("g-kong-money")
    b.open()
    b.hand(1, dealer=0)
    b.deal(*KONG_DEAL)
    b.tail("7z", "8s")
    b.kong_concealed(0, "2m")
    b.draw(0, "7z", source="tail")
    b.tail("7s")
    b.win([(0, ["wuji", "menqing_zimo", "gangshang_kaihua"], 3, 8)], "self_draw", "7z")
    transfers = [(1, 0, 8, "win"), (2, 0, 8, "win"), (3, 0, 8, "win")]
    transfers += [(s, 0, kong_money, "kong") for s in (1, 2, 3) if kong_money]
    scores = [24 + 3 * kong_money] + [-8 - kong_money] * 3
    b.settle(transfers, scores)
    b.fee(0, 4)
    b.close("hands_done", scores)
    return b


def test_a_kong_pays_nothing_by_itself():
    assert codes(kong_then_self_draw(0)) == []


def test_kong_money_in_a_qujing_settlement_is_a_wrong_payment():
    # near miss: the same hand with 1 from each other seat for the kong (刮风下雨-style money)
    assert codes(kong_then_self_draw(1)) == [("TRANSFER_MISMATCH", None)]


def test_kong_money_in_a_drawn_hand_is_a_wrong_payment():
    import msgspec
    s = Script("g-kong-drawn")
    s.hand(1, 0, {0: "1s1s 234m 567m 89p 2z3z 6z7z", 1: "1s 258m 369p 47s 1z2z3z 4z",
                  2: "369m 258p 2s5s8s 1z 5z6z7z", 3: "147m 147p 3s6s9s 1z2z3z4z"}, keep_back="1s")
    s.discard(0, "7z")
    s.modda(1, 20)
    s.exhausted()
    events = s.close()
    log = GameLog("g-kong-drawn", "t.jsonl", events, list(range(1, len(events) + 1)), None, True)
    assert audit_game(log).findings == []  # holding: a drawn hand without 点鸡 pays nothing
    i = next(k for k, e in enumerate(events) if type(e) is ev.HandSettled)
    money = [Transfer(payer=p, payee=0, amount=1, reason="kong") for p in (1, 2, 3)]
    events[i] = msgspec.structs.replace(events[i], transfers=money, scores=[3, -1, -1, -1])
    events[-1] = msgspec.structs.replace(events[-1], scores=[3, -1, -1, -1])
    log = GameLog("g-kong-drawn", "t.jsonl", events, list(range(1, len(events) + 1)), None, True)
    assert [f.code for f in audit_game(log).findings] == ["TRANSFER_MISMATCH"]
