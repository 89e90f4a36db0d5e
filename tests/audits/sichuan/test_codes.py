"""Every Sichuan finding code (sichuan.md §14): a log that breaks the rule and reports
exactly that code, and a near miss (the same log kept legal) that reports nothing."""

from __future__ import annotations

import pytest

from audits.audit import audit_game
from paipu.sim.sichuan.script import Script

#: The catalogue codes these tests bring (tests/audits/test_audit_codes.py counts them).
COVERED = {"TILE_NOT_IN_SET", "VOID_NOT_DECLARED", "VOID_DISCARD_ORDER", "CLAIM_VOID_SUIT", "ACTION_AFTER_WIN",
           "HAND_END_WRONG", "WIN_NOT_VOID", "WIN_DURING_GUOSHUI", "LAST_FOUR_WIN_NOT_TAKEN",
           "KONG_WITHOUT_REPLACEMENT", "CLAIM_ON_LAST_DISCARD", "EXCHANGE_INVALID", "KONG_PAYMENT_MISMATCH",
           "ZHUANYI_MISMATCH", "END_CHECK_MISMATCH", "GUOSHOU_PENG", "DEALER_ROTATION"}

#: §13.1's deal: seat 1 (void m) waits on 6s / 9s; seat 3 holds the 9s it throws.
EX1 = {0: "111p222p333p444p56s", 1: "234p567p33s456s78s", 2: "111m222m444m666m5s", 3: "999s333m222s55m24m"}


def codes(g: Script) -> list[str]:
    """The codes found (a log cut short of GameClosed is GAME_TRUNCATED besides: left out)."""
    return sorted({f.code for f in audit_game(g.log()).findings} - {"GAME_TRUNCATED"})


def ex1(deal=EX1, voids="mmpp", preset="sichuan", options=None, before_win=None, winner=1) -> Script:
    g = Script("t-ex1", preset=preset, options=options)
    g.hand(1, 0, deal, voids)
    g.discard(0, "5s")
    g.filler(1, ["9s", "6s"])
    g.filler(2, ["9s", "6s"])
    g.filler(3, ["9s", "6s"])
    g.filler(0, ["9s", "6s"])
    g.filler(1, ["9s", "6s"])
    g.filler(2, ["9s", "6s"])
    g.draw(3, g.safe_tile(3, ["9s", "6s"]))
    g.discard(3, "9s")
    if before_win:
        before_win(g)
    g.win([winner], "discard", "9s", 3)
    return g


def closed(g: Script, change=None) -> Script:
    g.settle(change)
    g.close()
    return g


def test_the_base_hand_is_clean():
    assert codes(closed(ex1())) == []


def test_tile_not_in_set():
    deal = {**EX1, 2: "111m222m444m666m1z"}
    g = Script("t-z")
    g.hand(1, 0, deal, "mmpp")
    g.discard(0, "5s")
    g.filler(1, ["9s", "6s"])
    g.draw(2, g.safe_tile(2, ["9s", "6s"]))
    g.discard(2, "1z")
    assert codes(g) == ["TILE_NOT_IN_SET"]


def test_void_not_declared_missing_and_not_a_suit():
    g = Script("t-void")
    g.hand(1, 0, EX1, "mmp")  # seat 3 never declares
    g.discard(0, "5s")
    assert codes(g) == ["VOID_NOT_DECLARED"]
    g = Script("t-void2")
    g.hand(1, 0, EX1, "mmpp")
    g._do(g.b.void, 2, "z")
    assert codes(g) == ["VOID_NOT_DECLARED"]
    g = Script("t-void3")
    g.hand(1, 0, EX1, "mmpp")
    g.discard(0, "5s")
    g._do(g.b.void, 2, "s")  # late and a second one
    assert codes(g) == ["VOID_NOT_DECLARED"]


def test_void_discard_order():
    # seat 0 (void p) holds p tiles yet throws 5s; near miss: void m, holding no m
    g = Script("t-order")
    g.hand(1, 0, EX1, "pmpp")
    g.discard(0, "5s")
    assert codes(g) == ["VOID_DISCARD_ORDER"]
    g = Script("t-order-ok")
    g.hand(1, 0, EX1, "mmpp")
    g.discard(0, "5s")
    assert codes(g) == []
    g = Script("t-order-off", options={"void_first": False})
    g.hand(1, 0, EX1, "pmpp")
    g.discard(0, "5s")
    assert codes(g) == []


def _pong_5s(voids: str, options=None) -> Script:
    deal = {**EX1, 2: "111m222m444m55s66m"}
    g = Script("t-pong", options=options)
    g.hand(1, 0, deal, voids)
    g.discard(0, "5s")
    g.pong(2, 0, "5s")
    return g


def test_claim_void_suit():
    assert codes(_pong_5s("mmsp")) == ["CLAIM_VOID_SUIT"]
    assert codes(_pong_5s("mmpp")) == []
    # claims_while_void off: seat 2 (void m) still holds m tiles
    assert codes(_pong_5s("mmmp", {"claims_while_void": False})) == ["CLAIM_VOID_SUIT"]


def _guoshou_peng(lifted: bool, options=None) -> Script:
    """Seat 2 (void p) holds 55s and lets seat 0's 5s go; seat 1 then throws its own 5s and
    seat 2 pongs it (``lifted``: only after a round of fillers, seat 2's own draw among them)."""
    deal = {**EX1, 2: "111m222m444m55s66m"}
    g = Script("t-guoshou-peng", options={"guoshou_peng": True} if options is None else options)
    g.hand(1, 0, deal, "mmpp")
    g.discard(0, "5s")
    if lifted:
        for s in (1, 2, 3, 0):
            g.filler(s, ["5s", "9s", "6s"])
    g.draw(1, g.safe_tile(1, ["5s", "9s", "6s"] + [f"{k}m" for k in range(1, 10)]))  # seat 1 is void m
    g.discard(1, "5s")
    g.pong(2, 1, "5s")
    return g


def test_guoshou_peng():
    # §7.2 过手碰 (option): a pong passed bars a pong of that kind until one's own next action
    assert codes(_guoshou_peng(False)) == ["GUOSHOU_PENG"]
    assert codes(_guoshou_peng(True)) == []  # seat 2's own draw lifted the bar
    assert codes(_guoshou_peng(False, {})) == []  # the option is off by default


def _first_dealer(creator: int, options) -> Script:
    g = Script("t-creator", options=options, creator=creator)
    g.hand(1, 0, EX1, "mmpp")
    g.discard(0, "5s")
    return g


def test_first_dealer_creator():
    # §3 first_dealer = creator: GameOpened.creator deals hand 1; seat 0 deals here
    assert codes(_first_dealer(2, {"first_dealer": "creator"})) == ["DEALER_ROTATION"]
    assert codes(_first_dealer(0, {"first_dealer": "creator"})) == []
    assert codes(_first_dealer(2, {})) == []  # `any`: the first dealer is not audited (§14)


def _xuezhan(after) -> Script:
    g = ex1(preset="sichuan-xuezhan")
    after(g)
    return g


def test_action_after_win_and_hand_end_wrong():
    # 血战: seat 1 has won and left; seat 2 draws next.  Seat 1 drawing is ACTION_AFTER_WIN.
    ok = _xuezhan(lambda g: g.filler(2))
    assert codes(ok) == []
    bad = _xuezhan(lambda g: (g.draw(1, g.safe_tile(1)), None))
    assert "ACTION_AFTER_WIN" in codes(bad)
    # settled with one winner and tiles left
    assert codes(closed(_xuezhan(lambda g: None))) == ["HAND_END_WRONG"]


def test_win_not_void():
    # seat 1 declares s void, yet wins with s tiles; near miss: the base hand (void m)
    assert codes(_win_void()) == ["WIN_NOT_VOID"]


def _win_void() -> Script:
    g = Script("t-notvoid", options={"void_first": False})
    g.hand(1, 0, EX1, "mspp")
    g.discard(0, "5s")
    g.draw(1, "9m")
    g.discard(1, "9m")
    g.filler(2, ["9s", "6s"])
    g.draw(3, g.safe_tile(3, ["9s", "6s"]))
    g.discard(3, "9s")
    g._do(g.b.win, [(1, ["jihu"], 0, 1)], "discard", "9s", 3)
    return g


#: §13.9: seat 3 (void m) waits on 4p (V 0) and 1p (V 1, a 根).
EX9 = {0: "4p111m222m333m444m5m", 1: "4p555m666m777m99m8m", 2: "1p222s666s777s88s9s",
       3: "111p23p456p789p55s"}


def _guoshui(second: bool, options=None) -> Script:
    g = Script("t-guoshui", options=options)
    g.hand(1, 0, EX9, "sspm")
    g.discard(0, "4p")
    g.draw(1, "3m")
    if second:
        g.discard(1, "4p")
        g._do(g.b.win, [(3, ["jihu"], 0, 1)], "discard", "4p", 1)
    else:
        g.discard(1, g.b.events[-1].tile)
        g.draw(2, g.safe_tile(2, ["4p", "1p"]))
        g.discard(2, "1p")
        g.win([3], "discard", "1p", 2)
    return g


def test_win_during_guoshui():
    assert codes(_guoshui(True)) == ["WIN_DURING_GUOSHUI"]
    assert codes(_guoshui(False)) == []  # V 1 > M 0
    assert codes(_guoshui(False, {"guoshui": "any_discard"})) == ["WIN_DURING_GUOSHUI"]
    assert codes(_guoshui(True, {"guoshui": "off"})) == []


def _to_last_four(options=None, r=3):
    """§13.1's deal played by fillers until ``r`` tiles are left; returns the script and
    the seat whose turn it is."""
    g = Script("t-last", options=options)
    g.hand(1, 0, EX1, "mmpp")
    g.discard(0, "5s")
    turn = g.fill_to_end(1, ["9s"], to=r)
    return g, turn


def test_last_four_win_not_taken():
    g, turn = _to_last_four()
    # a seat other than seat 1 draws the 9s and throws it: seat 1 must win
    thrower = turn if turn != 1 else 2
    while turn != thrower:
        g.filler(turn)
        turn = (turn + 1) % 4
    g.draw(thrower, "9s")
    g.discard(thrower, "9s")
    nxt = (thrower + 1) % 4
    g.draw(nxt, g.safe_tile(nxt, ["9s"]))
    assert codes(g) == ["LAST_FOUR_WIN_NOT_TAKEN"]


def test_last_four_near_miss_before_the_window():
    g, turn = _to_last_four(r=6)
    thrower = turn if turn != 1 else 2
    while turn != thrower:
        g.filler(turn)
        turn = (turn + 1) % 4
    g.draw(thrower, "9s")
    g.discard(thrower, "9s")
    nxt = (thrower + 1) % 4
    g.draw(nxt, g.safe_tile(nxt, ["9s"]))
    assert codes(g) == []


def _final_discard(claim: str, options=None) -> Script:
    """Fillers to the last tile; its drawer (seat 3) throws the last 6m; seat 2 holds 666m
    and pongs or konges it."""
    g = Script("t-final", options=options)
    g.hand(1, 0, EX1, "mmpp")
    g.discard(0, "5s")
    turn = g.fill_to_end(1, ["6m"], to=1)
    assert turn == 3
    g.draw(3, "6m")
    g.discard(3, "6m")
    if claim == "pong":
        g.pong(2, 3, "6m")
    elif claim == "kong":
        g._do(g.b.kong_exposed, 2, 3, "6m")
    return g


def test_claim_on_last_discard_and_kong_without_replacement():
    assert codes(_final_discard("pong")) == ["CLAIM_ON_LAST_DISCARD"]
    assert codes(_final_discard("pong", {"last_discard_claims": "all"})) == []
    assert codes(_final_discard("kong", {"last_discard_claims": "all"})) == ["KONG_WITHOUT_REPLACEMENT"]
    assert codes(_final_discard("none")) == []


def test_exchange_invalid():
    g = Script("t-ex")
    g.hand(1, 0, EX1, "mmpp", exchange=("next", ["111p", "234p", "111m", "999s"]))
    assert codes(g) == ["EXCHANGE_INVALID"]
    g = Script("t-ex-ok", options={"huan_san_zhang": True})
    g.hand(1, 0, EX1, "mmpp", exchange=("next", ["111p", "234p", "111m", "999s"]))
    assert codes(g) == []
    g = Script("t-ex-suits", options={"huan_san_zhang": True})
    g.hand(1, 0, EX1, "mmpp", exchange=("next", ["11p5s", "234p", "111m", "999s"]))
    assert codes(g) == ["EXCHANGE_INVALID"]


def _kong_hand(change=None, options=None) -> Script:
    """§13.5: seat 2 (dealer, void s) konges 1p, throws 5s after the replacement; seat 0 wins."""
    g = Script("t-kong", options=options)
    g.hand(1, 2, {0: "234p567p88p34s999s", 1: "123m456m789m11m22s", 2: "1111p5s123m456m789m",
                  3: "345p678p999p55s66s"}, "mmsm")
    g.kong(2, "kong_concealed", "1p", replacement="9m")
    g.discard(2, "5s")
    g.win([0], "discard", "5s", 2)
    return g


def _drop(reason):
    def change(ts):
        for i, t in enumerate(ts):
            if t.reason == reason:
                return ts[:i] + ts[i + 1:]
        return ts
    return change


def test_money_codes():
    assert codes(closed(_kong_hand())) == []
    assert codes(closed(_kong_hand(), _drop("kong"))) == ["KONG_PAYMENT_MISMATCH"]
    assert codes(closed(_kong_hand(), _drop("zhuanyi"))) == ["ZHUANYI_MISMATCH"]
    assert codes(closed(_kong_hand(), _drop("win"))) == ["TRANSFER_MISMATCH"]


def _exhausted(change=None) -> Script:
    g = Script("t-end")
    g.hand(1, 0, {0: "8888m222m555p66p99p", 1: "777s1123468899s", 2: "55s12p123m456m679m",
                  3: "123p456p789p11s23s"}, "smpm")
    g.kong(0, "kong_concealed", "8m", replacement=g.safe_tile(0, ["5s", "7s"]))
    g.discard(0, g.b.events[-1].tile)
    g.filler(1, ["7s"])
    g.filler(2, ["7s"])
    g.draw(3, "7s")
    g.discard(3, "7s")
    g.kong(1, "kong_exposed", "7s", frm=3, replacement=g.safe_tile(1))
    g.discard(1, g.b.events[-1].tile)
    g.fill_to_end(2)
    g.exhausted()
    return closed(g, change)


def test_end_check_mismatch():
    assert codes(_exhausted()) == []
    reasons = {t.reason for t in _exhausted().book.transfers}
    assert {"huazhu", "dajiao", "tuishui"} <= reasons
    for reason in ("huazhu", "dajiao", "tuishui"):
        assert codes(_exhausted(_drop(reason))) == ["END_CHECK_MISMATCH"]


@pytest.mark.parametrize("code", sorted(COVERED))
def test_every_code_is_in_the_catalogue(code):
    from audits.catalogue import CATALOGUE
    assert code in CATALOGUE


def _with_bet(bet: bool):
    """§13.1's sample room, with a side bet (a PigBetPlaced) after the first HandStarted."""
    import copy
    from pathlib import Path

    import msgspec

    from schema import events as ev
    from schema.reader import LogReader

    path = Path(__file__).resolve().parents[3] / "sample_logs" / "clean" / "sichuan_ex01_pinghu_discard.jsonl"
    log = next(LogReader([str(path)]).games())
    if not bet:
        return log
    events = list(log.events)
    i = next(k for k, e in enumerate(events) if type(e) is ev.HandStarted)
    s = events[i]
    placed = ev.PigBetPlaced(game=s.game, seq=s.seq + 1, at=s.at, seat=1, bet=1)
    out = copy.copy(log)
    out.events = events[:i + 1] + [placed] + [msgspec.structs.replace(e, seq=e.seq + 1) for e in events[i + 1:]]
    out.lines = list(range(1, len(out.events) + 1))
    return out


def test_a_side_bet_in_a_sichuan_room_is_invalid():
    # 四川 rooms play no side bet (no 养猪, 下嘴 or 买底): a PigBetPlaced is YANGZHU_BET_INVALID
    # (before, every bet passed); near miss: the same room without it is clean
    assert [f.code for f in audit_game(_with_bet(True)).findings] == ["YANGZHU_BET_INVALID"]
    assert audit_game(_with_bet(False)).findings == []
