"""The Qujing readings updated in qujing.md (§2, §3, §5, §6): each with a log that
triggers it and a near miss.  ``NEW_CASES`` are the catalogue codes they brought."""

from __future__ import annotations

import pytest

from audits import audit_game
from schema.builder import GameBuilder

from .helpers import CLAIMS_DEAL, added_kong_of_7z, log_of, scenario, selfdraw_game
from .test_audit_codes import YZ, game, guoshou_peng


def _codes(b: GameBuilder) -> list[tuple[str, object]]:
    return [(f.code, f.seat) for f in audit_game(log_of(b)).findings]


# --- 抢杠: 过胡 bars robbing; the rob is legal only right after the KongAdded ----------

def rob(late: bool = False) -> GameBuilder:
    """Seat 3 adds a kong of 7z; seat 2 (complete with 7z) robs it.  ``late``: the rob is
    logged after seat 3 took its replacement."""
    b = GameBuilder("g-rob")
    added_kong_of_7z(b)
    if late:
        b.draw(3, "9s", source="tail")
        b.tail("8m")
    b.declare(2, "win")
    b.win([(2, ["dihu"], 0, 1)], "robbed_kong", "7z", from_seat=3)
    b.settle([(3, 2, 3, "qianggang")], [0, 0, 3, -3])
    b.close("hands_done", [0, 0, 3, -3])
    return b


def test_a_rob_right_after_the_added_kong_is_clean():
    assert _codes(rob()) == []


def test_a_rob_after_the_replacement_is_late():
    assert _codes(rob(late=True)) == [("ROB_LATE", 2)]


def rob_during_guohu(own_draw_between: bool) -> GameBuilder:
    """Seat 3 adds a kong of 7z and seat 2 lets the rob go (过胡); seat 3 takes 6z from the
    tail and adds it to its pong of 6z, and seat 2, complete with any tile, robs that
    one: at once, or (the near miss) after its own next draw."""
    b = GameBuilder("g-rob-guohu")
    b.open()
    b.hand(1, dealer=0)
    # seat 2 is a chicken single wait (complete with any tile); seat 3 holds 7z7z 6z6z
    b.deal("123456789m2345p7z", "147m258p369s1234z", "234m567m789p222z1s", "1369m147p25s66z77z")
    b.tail("9s", "6z")
    b.discard(0, "7z")
    b.pong(3, 0, "7z", "7z7z")
    b.discard(3, "9m")
    b.draw(0, "6z")
    b.discard(0, "6z")
    b.pong(3, 0, "6z", "6z6z")
    b.discard(3, "3m")
    for seat, tile in ((0, "9p"), (1, "8p"), (2, "7p")):
        b.draw(seat, tile)
        b.discard(seat, tile)
    b.draw(3, "7z")
    b.kong_added(3, "7z")
    b.pass_(2, ["win"])                 # seat 2 lets the rob go: 过胡
    b.draw(3, "6z", source="tail")
    b.tail("7m")
    if own_draw_between:
        b.discard(3, "5s")
        for seat, tile in ((0, "5s"), (1, "4s"), (2, "4s")):
            b.draw(seat, tile)
            b.discard(seat, tile)
        b.draw(3, "9p")
    b.kong_added(3, "6z")
    b.declare(2, "win")
    b.win([(2, ["dihu"], 0, 1)], "robbed_kong", "6z", from_seat=3)
    b.settle([(3, 2, 3, "qianggang")], [0, 0, 3, -3])
    b.close("hands_done", [0, 0, 3, -3])
    return b


def test_rob_after_an_own_draw_is_clean_and_a_rob_during_guohu_is_not():
    assert _codes(rob_during_guohu(own_draw_between=False)) == [("WIN_DURING_GUOHU", 2)]
    # near miss: seat 2 drew (and so cleared its 过胡) before robbing the second kong
    assert _codes(rob_during_guohu(own_draw_between=True)) == []


# --- claims: a declared claim barred by a pass rule is not a legal claim ---------------

def barred_pong_declared(ignored: bool) -> GameBuilder:
    """Seat 3 let a 7z pong go (过手碰), then declares a pong of the next 7z: the server
    rightly ignores it (play moves on), or wrongly gives it the tile."""
    def body(b):
        b.discard(0, "7z")              # seat 3 could pong 7z and does not: 过手碰
        b.draw(1, "7z")
        b.discard(1, "7z")
        b.declare(3, "pong")            # barred by 过手碰
        if ignored:
            b.draw(2, "9p")             # the server rightly ignored it
            b.discard(2, "9p")
        else:
            b.pong(3, 1, "7z", "7z7z")
            b.discard(3, "6z")
    return scenario(CLAIMS_DEAL, body)


def test_a_server_ignoring_a_barred_claim_is_right():
    assert _codes(barred_pong_declared(ignored=True)) == []
    assert _codes(barred_pong_declared(ignored=False)) == [("GUOSHOU_PENG", 3)]


# --- a seat never claims its own discard ------------------------------------------------

def claim_own(own: bool) -> GameBuilder:
    """Seat 3 (holding 7z7z) discards a 7z and pongs it back (the near miss: seat 3 pongs
    seat 1's 7z)."""
    def body(b):
        b.discard(0, "1m")
        b.draw(1, "7z" if not own else "9p")
        b.discard(1, "7z" if not own else "9p")
        if own:
            b.draw(2, "9p")
            b.discard(2, "9p")
            b.draw(3, "7z")
            b.discard(3, "7z")
            b.pong(3, 3, "7z", "7z7z")
        else:
            b.pong(3, 1, "7z", "7z7z")
        b.discard(3, "6z")
    return scenario(CLAIMS_DEAL, body)


def test_a_seat_never_claims_its_own_discard():
    assert _codes(claim_own(own=False)) == []
    assert _codes(claim_own(own=True)) == [("CLAIM_OWN_DISCARD", 3)]


# --- 养猪 bets ---------------------------------------------------------------------------

def bets(*plays, options=YZ["options"]):
    def hand(b):
        b.hand(1, dealer=0)
        for seat, bet in plays:
            b.bet(seat, bet)
    return selfdraw_game(options=options, plant=lambda b, step: (hand(b), True)[1] if step == "hand" else False)


@pytest.mark.parametrize("plays,options", [
    (((0, 3),), YZ["options"]),           # a bet other than 0, 1, 2
    (((0, 1), (0, 1)), YZ["options"]),    # twice in a hand
    (((0, 1),), None),                    # in a room without 养猪
])
def test_pig_bets_are_validated(plays, options):
    found = _codes(bets(*plays, options=options))
    assert ("YANGZHU_BET_INVALID", 0) in found


def test_a_bet_after_the_deal_is_invalid_and_a_bet_before_is_clean():
    def late(b, step):
        if step == "deal":
            b.deal("123456789m2345p7z", "147m258p369s1234z", "258m369p147s5677z", "369m147p258s5676z")
            b.bet(1, 0)
            return True
        return False
    assert ("YANGZHU_BET_INVALID", 1) in _codes(selfdraw_game(options=YZ["options"], plant=late))
    # near miss: a zero bet before the deal pays nothing more
    assert _codes(bets((1, 0), options=YZ["options"])) == []


# --- 20分敲锣 start points and the seats ------------------------------------------------

def test_qiaoluo_starts_at_twenty():
    clean = selfdraw_game(options={"qiaoluo": True}, start_points=20,
                          plant=lambda b, step: (b.settle([(1, 0, 4, "win"), (2, 0, 4, "win"), (3, 0, 4, "win")],
                                                          [32, 16, 16, 16]), True)[1] if step == "settle" else
                          (b.close("hands_done", [32, 16, 16, 16]), True)[1] if step == "close" else False)
    assert _codes(clean) == []
    wrong = selfdraw_game(options={"qiaoluo": True}, start_points=10,
                          plant=lambda b, step: (b.settle([(1, 0, 4, "win"), (2, 0, 4, "win"), (3, 0, 4, "win")],
                                                          [22, 6, 6, 6]), True)[1] if step == "settle" else
                          (b.close("hands_done", [22, 6, 6, 6]), True)[1] if step == "close" else False)
    assert _codes(wrong) == [("QIAOLUO_START_POINTS", None)]


def test_the_seat_list_matches_the_players_option():
    assert ("ROOM_SEATS_MISMATCH", None) in _codes(selfdraw_game(options={"players": 3}))
    assert _codes(selfdraw_game(options={"players": 4})) == []


# --- findings point where the rule broke ------------------------------------------------

def test_fee_amount_points_at_the_fee_line():
    b = game(fee=lambda b: b.fee(0, 3))
    found = audit_game(log_of(b)).findings
    fee = next(e for e in b.events if type(e).__name__ == "FeeCharged")
    assert [(f.code, f.seq) for f in found] == [("FEE_AMOUNT", fee.seq)]
    assert found[0].line == fee.seq + 1


def test_only_a_real_chicken_single_wait_is_called_dandiao():
    # the guohu scenario's winner is not a chicken single wait
    b = guoshou_peng(False)
    assert all("单吊" not in f.message for f in audit_game(log_of(b)).findings)


NEW_CASES = {"ROB_LATE", "CLAIM_OWN_DISCARD", "YANGZHU_BET_INVALID", "QIAOLUO_START_POINTS", "ROOM_SEATS_MISMATCH"}
