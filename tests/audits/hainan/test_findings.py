"""Each check of hainan.md §13 on a worked-example room with one thing changed: the
finding it must give (the unchanged room, audited clean in test_logs, is the near miss)."""

from __future__ import annotations

import msgspec

from audits import audit_game
from paipu.sim.hainan import examples as hx
from paipu.sim.hainan.scenes import HainanScene, reopened, repaid
from schema import events as ev

from ..helpers import log_of


#: The codes hainan.md §13 adds to the catalogue, each triggered here with a clean near miss.
HAINAN_CODES = {"FLOWER_NOT_SET_ASIDE", "SET_ASIDE_INVALID", "GENPAI_MISMATCH", "FLOWER_PAYMENT_MISMATCH",
                "OPENING_BUHUA_ORDER"}


def codes(b) -> list[str]:
    return [f.code for f in audit_game(log_of(b)).findings]


def test_bao_sandao_paid_as_an_ordinary_win_is_bao_payer():
    assert codes(repaid(hx.ex04_sandao(), [(0, 2, 1, "win"), (1, 2, 2, "win"), (3, 2, 1, "win")])) == ["BAO_PAYER"]


def test_bao_on_another_feeder_is_bao_undue():
    assert codes(repaid(hx.ex04_sandao(3), [(3, 2, 4, "bao_sandao")])) == ["BAO_UNDUE"]


def test_sidao_four_claims_make_a_self_draw_liable():
    # the 四道 case: a fourth claim from seat 1 (12 tiles down), then a self-draw: seat 1 pays 6
    s = HainanScene("hn-sidao")
    s.hand(0, {2: "23p 56p 88s 78m 5s", 1: "1p 4p 8s 9m"}, reserve="5s", avoid="6m 9m 5s 8s 1p 4p 7p")
    s.discard(0)
    for tile, own, claim in (("1p", "23p", "chow"), ("4p", "56p", "chow"), ("8s", None, "pong"), ("9m", "78m", "chow")):
        s.draw(1)
        s.discard(1, tile)
        if claim == "chow":
            s.chow(2, 1, tile, own)
        else:
            s.pong(2, 1, tile)
        s.discard(2)
        if tile != "9m":
            s.go_around(3, 2)
    s.go_around(3, 3)
    s.draw(2, "5s")
    s.win([(2, ["jiang258", "zimo"], 1, 2)], "self_draw", "5s")
    s.settle([(1, 2, 6, "bao_sandao")])
    assert codes(s.close()) == []
    b = s.b
    assert codes(reopened(b, bao_sidao=False)) == ["BAO_UNDUE"]


def test_qianggang_paid_wrong_is_qianggang_payer():
    # 无番抢杠 paid as an ordinary rob, and 有番抢杠 paid wholly by the adder
    assert codes(repaid(hx.ex05_qianggang(False), [(0, 1, 2, "win"), (2, 1, 1, "win"), (3, 1, 1, "win")])) == \
        ["QIANGGANG_PAYER"]
    assert codes(repaid(hx.ex05_qianggang(True), [(0, 1, 4, "qianggang")])) == ["QIANGGANG_PAYER"]


def test_kong_money_for_a_robbed_kong_is_undue():
    assert codes(repaid(hx.ex05_qianggang(False), [(0, 1, 4, "qianggang"), (1, 0, 1, "kong"), (2, 0, 1, "kong"),
                                                   (3, 0, 1, "kong")])) == ["KONG_PAYMENT_UNDUE"]


def test_kong_money_wrong_amount():
    money = [(p, 3, 3, "win") for p in (0, 1, 2)] + [(p, 3, 1, "kong") for p in (0, 1, 2)]
    assert codes(repaid(hx.ex03_gangshang(), money)) == ["KONG_PAYMENT_MISMATCH"]


def test_baogang_missing_or_undue():
    win = [(3, 1, 2, "win"), (0, 1, 1, "win"), (2, 1, 1, "win")]
    assert codes(repaid(hx.ex06_baogang(), win + [(p, 2, 1, "kong") for p in (0, 1, 3)])) == ["BAO_PAYER"]
    assert codes(repaid(hx.ex06_baogang(False), win + [(0, 2, 3, "bao_gang")])) == ["BAO_UNDUE"]


def test_genpai_missing_undue_or_paid_at_a_draw():
    win = [(p, 3, 2, "win") for p in (0, 1, 2)]
    assert codes(repaid(hx.ex07_genpai(), win)) == ["GENPAI_MISMATCH"]
    assert codes(repaid(hx.ex07_genpai(drawn=True), [(0, p, 1, "genpai") for p in (1, 2, 3)])) == ["GENPAI_MISMATCH"]
    assert codes(reopened(hx.ex07_genpai(), genpai="off")) == ["GENPAI_MISMATCH"]
    other = [(p, 2, 2, "win") for p in (0, 1, 3)] + [(0, p, 1, "genpai") for p in (1, 2, 3)]
    assert codes(repaid(hx.ex04_sandao(-1), other)) == ["GENPAI_MISMATCH"]


def test_flower_money_only_under_sets():
    assert codes(reopened(hx.ex03_gangshang(True), flower_money="none")) == ["FLOWER_PAYMENT_MISMATCH"]
    money = [(p, 3, 3, "win") for p in (0, 1, 2)] + [(p, 3, 2, "kong") for p in (0, 1, 2)]
    assert codes(repaid(hx.ex03_gangshang(True), money)) == ["FLOWER_PAYMENT_MISMATCH"]


def test_win_shares_wrong_is_transfer_mismatch():
    assert codes(repaid(hx.ex01_jiang258(), [(0, 2, 1, "win"), (1, 2, 1, "win"), (3, 2, 1, "win")])) == \
        ["TRANSFER_MISMATCH"]


def test_points_wrong_is_points_mismatch():
    from paipu.sim.hainan.scenes import rescored
    b = rescored(hx.ex02_zimo_without_fan(), ["zimo"], 0, 1)
    assert "POINTS_MISMATCH" in codes(b)


def _edit(b, index_of, change):
    """Replace the event found by ``index_of`` with ``change(event)`` (None drops it)."""
    i = index_of(b.events)
    e = change(b.events[i])
    b.events[i:i + 1] = [] if e is None else [e]
    seq = 0
    out = []
    for e in b.events:
        out.append(msgspec.structs.replace(e, seq=seq))
        seq += 1
    b.events = out
    return b


def test_a_flower_kept_past_the_opening_is_flower_not_set_aside():
    # seat 1 keeps its dealt 秋 (no 补花) and its hand is one short after the chow: dropped set-aside
    def drop(events):
        return next(i for i, e in enumerate(events) if type(e) is ev.TileSetAside)
    b = hx.ex02_zimo_without_fan()
    b = _edit(b, drop, lambda e: None)
    b = _edit(b, lambda es: next(i for i, e in enumerate(es) if type(e) is ev.TileDrawn and e.source == "tail"),
              lambda e: None)
    got = codes(b)
    assert got and got[0] == "FLOWER_NOT_SET_ASIDE"


def test_only_a_flower_is_set_aside():
    b = hx.ex02_zimo_without_fan()
    b = _edit(b, lambda es: next(i for i, e in enumerate(es) if type(e) is ev.TileSetAside),
              lambda e: msgspec.structs.replace(e, tile="2m"))
    assert "SET_ASIDE_INVALID" in codes(b)


def test_a_set_aside_needs_a_tail_replacement():
    b = hx.ex02_zimo_without_fan()
    b = _edit(b, lambda es: next(i for i, e in enumerate(es) if type(e) is ev.TileDrawn and e.source == "tail"),
              lambda e: msgspec.structs.replace(e, source="wall"))
    assert codes(b)[0] == "KONG_REPLACEMENT_NOT_FROM_TAIL"


def test_the_dealer_keeps_the_deal_after_a_draw():
    b = hx.ex06_huangzhuang()
    b = _edit(b, lambda es: [i for i, e in enumerate(es) if type(e) is ev.HandStarted][1],
              lambda e: msgspec.structs.replace(e, dealer=1))
    assert "DEALER_ROTATION" in codes(b)


def test_huangzhuang_at_fifteen():
    s = HainanScene("hn-early")
    s.hand(0, {})
    s.until(s.opening_round(0), 16)
    s.drawn()
    assert codes(s.close()) == ["EXHAUSTIVE_DRAW_EARLY"]
    s = HainanScene("hn-late")
    s.hand(0, {})
    s.until(s.opening_round(0), 14)
    s.drawn()
    assert codes(s.close())[0] == "EXHAUSTIVE_DRAW_MISSED"


def test_jiehu_one_winner_the_first_from_the_discarders_xiajia():
    for winner, want in ((1, []), (2, ["CLAIM_PRIORITY"])):
        s = HainanScene(f"hn-jiehu-{winner}")
        s.hand(0, {1: "123m 456m 789p 555z 2p", 2: "123s 456s 789s 666z 2p", 3: "2p"}, avoid="2p 5z 6z")
        s.discard(0)
        s.pass_turn(1)
        s.pass_turn(2)
        s.draw(3)
        s.discard(3, "2p")
        s.b.declare(1, "win")
        s.b.declare(2, "win")
        fans = ["menqing", "jiang258", "sanyuan"]
        s.win([(winner, fans, 3, 1)], "discard", "2p", from_seat=3, declare=False)
        s.settle([(3, winner, 2, "win")] + [(p, winner, 1, "win") for p in range(4) if p not in (3, winner)])
        assert codes(s.close()) == want


def test_the_last_discard_is_only_won_on():
    for opts, want in (({}, ["CLAIM_ON_LAST_DISCARD"]), ({"last_discard_claims": "all"}, [])):
        s = HainanScene("hn-last", opts)
        s.hand(0, {2: "77s"}, reserve="7s", avoid="7s")
        seat = s.until(s.opening_round(0), 16)
        s.draw(seat, "7s") if seat != 2 else None
        if seat == 2:
            raise AssertionError("the scene expects another seat to throw the last discard")
        s.discard(seat, "7s")
        s.pong(2, seat, "7s")
        s.discard(2)
        s.drawn()
        assert codes(s.close()) == want, opts


def test_a_logged_ling_wind_follows_the_passes_of_the_deal():
    # the 令 wind is 东 until the deal has passed four times; the seat winds follow the dealer
    b = hx.ex01_jiang258()
    first = lambda es: next(i for i, e in enumerate(es) if type(e) is ev.HandStarted)  # noqa: E731
    east = _edit(b, first, lambda e: msgspec.structs.replace(e, round_wind="east",
                                                                 seat_winds=["east", "south", "west", "north"]))
    assert codes(east) == []
    south = _edit(hx.ex01_jiang258(), first, lambda e: msgspec.structs.replace(e, round_wind="south"))
    assert codes(south) == ["ROUND_WIND_MISMATCH"]


def _opening(order, options=None, dealer=0):
    """A hand whose opening 补花 goes seat by seat in ``order`` (seat 1 dealt 夏 兰, seat 2 秋,
    seat 0 春), then 黄庄."""
    s = HainanScene("hn-opening", options)
    s.hand(dealer, {1: "2f 6f", 2: "3f", 0: "1f"})
    flowers = {0: ["1f"], 1: ["2f", "6f"], 2: ["3f"]}
    for seat in order:
        s.buhua(seat, flowers[seat].pop(0))
    s.until(s.opening_round(dealer), 15)
    s.drawn()
    return s.close()


def test_the_opening_buhua_goes_seat_by_seat_from_the_dealer():
    # hainan.md §2.2 by_seat: the dealer, then every flower of seat 1, then seat 2
    assert codes(_opening([0, 1, 1, 2])) == []
    # near misses: seat 2 before seat 1; seat 1's second flower after seat 2 began
    assert codes(_opening([0, 2, 1, 1])) == ["OPENING_BUHUA_ORDER"]
    assert codes(_opening([0, 1, 2, 1])) == ["OPENING_BUHUA_ORDER"]
    # seats before the dealer (the turn starts at the dealer, whichever seat it is): each of the
    # three set-asides made while the dealer still held its flower is out of order
    assert codes(_opening([1, 1, 2, 0])) == ["OPENING_BUHUA_ORDER"] * 3
    assert codes(_opening([1, 1, 2, 0], dealer=1)) == []


def test_the_opening_buhua_by_round_is_one_flower_per_seat_per_round():
    by_round = {"opening_buhua": "by_round"}
    assert codes(_opening([0, 1, 2, 1], by_round)) == []
    assert codes(_opening([0, 1, 1, 2], by_round)) == ["OPENING_BUHUA_ORDER"]


def test_the_opening_seat_due():
    from audits.rules.hainan.table import opening_seat
    from schema.ruleset import resolve

    class T:  # the two table fields the rule reads, and the dealer
        dealer = 3
        flowers_held = [[], [35], [36], [37, 41]]
        set_aside = [[], [], [], [34]]
    assert opening_seat(resolve("hainan"), T) == 3  # by seat: the dealer keeps on
    assert opening_seat(resolve("hainan", {"opening_buhua": "by_round"}), T) == 1  # by round: seat 1's turn
    T.flowers_held = [[], [], [], []]
    assert opening_seat(resolve("hainan"), T) is None


def _sandao_mixed(paid_as_bao: bool):
    """Seat 2 chows 123p and 456p from seat 1, seat 1 pongs 3z from seat 2 (two claims one way,
    one the other), then seat 2 wins seat 1's 9m: 789m + 55s, 番 二五八将."""
    s = HainanScene("hn-sandao-mixed")
    s.hand(0, {2: "23p 56p 78m 55s 111s 3z", 1: "1p 4p 33z"}, reserve="9m",
           avoid="9m 6m 5s 1s 1p 4p 7p 3z 2p 3p 5p 6p 7m 8m")
    s.discard(0)
    s.draw(1)
    s.discard(1, "1p")
    s.chow(2, 1, "1p", "23p")
    s.discard(2, "3z")
    s.pong(1, 2, "3z")
    s.discard(1)
    s.go_around(2, 3)
    s.draw(1)
    s.discard(1, "4p")
    s.chow(2, 1, "4p", "56p")
    s.discard(2)
    s.go_around(3, 2)
    s.draw(1, "9m")
    s.discard(1, "9m")
    s.win([(2, ["jiang258"], 1, 1)], "discard", "9m", from_seat=1)
    s.settle([(1, 2, 4, "bao_sandao")] if paid_as_bao else [(0, 2, 1, "win"), (1, 2, 2, "win"), (3, 2, 1, "win")])
    return s.close()


def test_sandao_claims_in_two_directions_are_not_added():
    # hainan.md §9.3 b: three claims one way; two one way and one the other are no 三道:
    # an ordinary discard win (seat 1 pays 1 + e 1 = 2, seats 0 and 3 pay 1)
    assert codes(_sandao_mixed(False)) == []
    assert codes(_sandao_mixed(True)) == ["BAO_UNDUE"]


def _sandao_reversed(paid_as_bao: bool):
    """Seat 1 pongs 3z, 4z and 9p from seat 2's discards (the 反之 direction); seat 1 then
    discards 5s and seat 2 wins: 123m 456m 789s 234p 55s, 平胡 门清 二五八将."""
    s = HainanScene("hn-sandao-reversed")
    s.hand(0, {2: "123m 456m 789s 234p 5s", 1: "33z 44z 99p 5s"}, reserve="3z 4z 9p",
           avoid="3z 4z 9p 5s 2s 8s 3s 6s 1p 4p 7p 1m 7m")
    s.discard(0)
    s.pass_turn(1)
    for tile in ("3z", "4z", "9p"):
        s.pass_turn(2, tile)
        s.pong(1, 2, tile)
        s.discard(1, "5s" if tile == "9p" else None)
    s.win([(2, ["pinghu", "menqing", "jiang258"], 3, 1)], "discard", "5s", from_seat=1)
    s.settle([(1, 2, 4, "bao_sandao")] if paid_as_bao else [(0, 2, 1, "win"), (1, 2, 2, "win"), (3, 2, 1, "win")])
    return s.close()


def test_sandao_the_feeder_claimed_three_times_on_the_winner():
    # §9.3 b "反之如果对方点炮被己方胡，则由对方一人付三家的分数": seat 1 pays 1 + 1 + 1 + e 1 = 4
    assert codes(_sandao_reversed(True)) == []
    assert codes(_sandao_reversed(False)) == ["BAO_PAYER"]


def _sandao_upgraded(paid_as_bao: bool):
    """§12.4 with seat 2's 8s pong upgraded to a 补杠 before seat 1's 9m: the pong was a claim
    (hainan.md §9.3 b, §14), so seat 1 still pays 4 (``bao_sandao``); the 补杠 earns v = 1 from
    each other seat."""
    s = HainanScene("hn-sandao-upgraded")
    s.hand(0, {2: "23p 56p 88s 78m 55s", 1: "1p 4p 8s 9m"}, reserve="9m 8s", avoid="6m 9m 5s 8s 1p 4p 7p")
    s.discard(0)
    for tile, own in (("1p", "23p"), ("4p", "56p"), ("8s", None)):
        s.draw(1)
        s.discard(1, tile)
        s.chow(2, 1, tile, own) if own else s.pong(2, 1, tile)
        s.discard(2)
        s.go_around(3, 2)
    s.pass_turn(1)
    s.draw(2, "8s")
    s.kong_added(2, "8s")
    s.discard(2, s.replacement(2))
    s.go_around(3, 2)
    s.draw(1, "9m")
    s.discard(1, "9m")
    s.win([(2, ["jiang258"], 1, 1)], "discard", "9m", from_seat=1)
    win = [(1, 2, 4, "bao_sandao")] if paid_as_bao else [(0, 2, 1, "win"), (1, 2, 2, "win"), (3, 2, 1, "win")]
    s.settle(win + [(p, 2, 1, "kong") for p in (0, 1, 3)])
    return s.close()


def test_sandao_a_pong_later_added_to_a_kong_still_counts():
    assert codes(_sandao_upgraded(True)) == []
    assert codes(_sandao_upgraded(False)) == ["BAO_PAYER"]


def _dealer_wins_on_a_replacement(way: str, others_flower: bool, in_play: bool = False):
    """The dealer's 123m 456m 789p 234s + 5s completed by the tail replacement of its flower
    春 (its own: 位置花): in the opening 补花 (a 天胡: an ordinary self-draw, hainan.md §8,
    §9.1.1), with seat 1's opening 补花 after it or not; or (``in_play``) after a discard, on a
    春 drawn in play (花上开花, r = 3)."""
    s = HainanScene("hn-buhua-win")
    hands = {0: "123m 456m 789p 234s 5s" + ("" if in_play else " 1f")}
    if others_flower:
        hands[1] = "6f"
    s.hand(0, hands, reserve="5s" + (" 1f" if in_play else ""), avoid="5s 2s 8s 3s 6s 1p 4p 7p 1m 4m 7m")
    if not in_play:
        s.buhua(0, "1f", "5s")
    if others_flower:
        s.buhua(1, "6f")
    if in_play:
        s.discard(0)
        s.go_around(1, 3)
        s.draw(0, "1f")
        s.buhua(0, "1f", "5s")
    r = 3 if way == "huashang_kaihua" else 2
    s.win([(0, ["pinghu", "menqing", "jiang258", "zhenghua", way], 4, r)], "self_draw", "5s")
    s.settle([(p, 0, r, "win") for p in (1, 2, 3)])
    return s.close()


def test_a_win_on_the_opening_buhua_replacement_is_an_ordinary_self_draw():
    for others in (False, True):
        assert codes(_dealer_wins_on_a_replacement("zimo", others)) == []
        # near miss: priced as 花上开花
        assert codes(_dealer_wins_on_a_replacement("huashang_kaihua", others)) == ["FAN_MISMATCH", "POINTS_MISMATCH"]


def test_a_win_on_an_in_play_buhua_replacement_is_huashang_kaihua():
    assert codes(_dealer_wins_on_a_replacement("huashang_kaihua", False, in_play=True)) == []
    assert codes(_dealer_wins_on_a_replacement("zimo", False, in_play=True)) == ["FAN_MISMATCH", "POINTS_MISMATCH"]


def test_a_fan_name_outside_the_preset_is_fan_mismatch():
    # hainan.md §8: 天胡 and the like are not part of this preset: naming one is FAN_MISMATCH
    # (the same room with the text's names is clean in test_logs)
    from paipu.sim.hainan.scenes import rescored
    assert codes(rescored(hx.ex01_jiang258(), ["pinghu", "jiang258", "tianhe"], 2, 1)) == ["FAN_MISMATCH"]
    assert codes(rescored(hx.ex01_jiang258(), ["pinghu", "jiang258", "tianhe"], 3, 1)) == ["FAN_MISMATCH"]
    assert codes(rescored(hx.ex01_jiang258(), ["pinghu", "jiang258"], 2, 1)) == []


def test_a_huahu_has_no_shape_and_is_paid_nothing():
    # §8: a 花胡 (seven flowers set aside) has no §5 shape: WIN_INCOMPLETE, and the corrected
    # ledger pays nothing; near miss: the same seat with a complete hand self-drawn is clean
    def room(complete: bool):
        s = HainanScene("hn-huahu")
        s.hand(0, {1: "1f 2f 3f 4f 5f 6f 7f 123m 456m"}, reserve="789p 55s 8m 11p 66z",
               avoid="7p 8p 9p 5s 8m 1p 6z")
        got = ("7p", "8p", "9p", "5s", "1p", "6z", "6z") if complete else ("1p", "1p", "6z", "6z", "7p", "9p", "5s")
        for f, tile in zip(("1f", "2f", "3f", "4f", "5f", "6f", "7f"), got):
            s.buhua(1, f, tile)
        s.discard(0)
        s.draw(1, "5s" if complete else "8m")
        s.discard(1, "1p" if complete else "6z")  # a turn in play, then the win on the next draw
        s.go_around(2, 3)
        last = s.draw(1, "5s" if complete else "8m")
        # complete: 123m 456m 789p 555s 66z, 门清 and 位置花 (夏 兰 are seat 1's); r = 2
        names = ["menqing", "zhenghua", "zimo"] if complete else ["zhenghua", "zimo"]
        s.win([(1, names, len(names) - 1, 2)], "self_draw", last)
        s.settle([(p, 1, 2, "win") for p in (0, 2, 3)])
        return s.close()
    a = audit_game(log_of(room(False)))
    assert [f.code for f in a.findings] == ["WIN_INCOMPLETE"] and a.ledger[-1] == [0, 0, 0, 0]
    near = audit_game(log_of(room(True)))
    assert [(f.code, f.message) for f in near.findings] == [] and near.ledger[-1] == [-2, 6, -2, -2]


def _chain(kong_first: bool, way: str):
    """Seat 3 (北: 冬 竹 its own flowers) ponged 中 from seat 1 and holds 777p 234s 56m 99m.
    ``kong_first``: it draws the fourth 7p, declares 暗杠, the tail gives 竹 8f, set aside, and
    its replacement 4m wins (花上开花, hainan.md §9.1.1).  Otherwise it draws 竹, sets it aside,
    the replacement is the fourth 7p, 暗杠, and the kong's replacement 4m wins (杠上开花).
    Either way r = 3 and each other seat pays 3 + the 暗杠's 2 = 5."""
    s = HainanScene(f"hn-chain-{kong_first}")
    s.hand(0, {3: "777p 234s 56m 99m 77z", 1: "7z"}, reserve="7p 4m 8f", avoid="4m 7m 7p 1s 5s")
    s.discard(0)
    s.draw(1)
    s.discard(1, "7z")
    s.pong(3, 1, "7z")
    s.discard(3)
    s.go_around(0, 3)
    if kong_first:
        s.draw(3, "7p")
        s.kong_concealed(3, "7p")
        s.replacement(3, "8f")
        s.buhua(3, "8f", "4m")
    else:
        s.draw(3, "8f")
        s.buhua(3, "8f", "7p")
        s.kong_concealed(3, "7p")
        s.replacement(3, "4m")
    s.win([(3, ["sanyuan", "zhenghua", way], 2, 3)], "self_draw", "4m")
    s.settle([(p, 3, 3, "win") for p in (0, 1, 2)] + [(p, 3, 2, "kong") for p in (0, 1, 2)])
    return s.close()


def test_a_chain_of_replacements_is_named_after_the_last_set_aside():
    assert codes(_chain(True, "huashang_kaihua")) == []
    assert codes(_chain(False, "gangshang_kaihua")) == []
    # near misses: the other name, r = 3 either way (money right): a warning only
    assert codes(_chain(True, "gangshang_kaihua")) == ["FAN_NAMES_DIFFER"]
    assert codes(_chain(False, "huashang_kaihua")) == ["FAN_NAMES_DIFFER"]


def _jiehu_over_a_liable_win(paid_seat: int):
    """§12.4's 三道 hand (seat 2: three claims on seat 1) and seat 3 (123m 456m 789s 78m 55z:
    门清) both declare a win on seat 1's 9m; the log pays ``paid_seat`` (seat 2 is first from
    the discarder's 下家)."""
    s = HainanScene("hn-jiehu-bao")
    s.hand(0, {2: "23p 56p 88s 78m 55s", 1: "1p 4p 8s 9m", 3: "123m 456m 789s 78m 55z"}, reserve="9m",
           avoid="6m 9m 5s 8s 1p 4p 7p 5z")
    s.discard(0)
    for tile, own in (("1p", "23p"), ("4p", "56p"), ("8s", None)):
        s.draw(1)
        s.discard(1, tile)
        s.chow(2, 1, tile, own) if own else s.pong(2, 1, tile)
        s.discard(2)
        s.go_around(3, 2)
    s.draw(1, "9m")
    s.discard(1, "9m")
    s.b.declare(2, "win")
    s.b.declare(3, "win")
    if paid_seat == 3:
        s.win([(3, ["menqing"], 1, 1)], "discard", "9m", from_seat=1, declare=False)
        s.settle([(1, 3, 2, "win"), (0, 3, 1, "win"), (2, 3, 1, "win")])
    else:
        s.win([(2, ["jiang258"], 1, 1)], "discard", "9m", from_seat=1, declare=False)
        s.settle([(1, 2, 4, "bao_sandao")])
    return s.close()


def test_jiehu_the_corrected_ledger_pays_the_first_declarer_with_its_own_liability():
    # new-families.md §1b: under 截胡 the first legal declarer is paid as the winner; its 三道
    # (hainan.md §9.3 b) makes seat 1 pay it 4 alone, whoever the log paid
    a = audit_game(log_of(_jiehu_over_a_liable_win(2)))
    assert a.findings == [] and a.ledger[-1] == [0, -4, 4, 0]
    a = audit_game(log_of(_jiehu_over_a_liable_win(3)))
    assert [f.code for f in a.findings] == ["CLAIM_PRIORITY"]
    assert a.logged_scores[-1] == [-1, -2, -1, 4] and a.ledger[-1] == [0, -4, 4, 0]


def _rob_jiehu(paid_seat: int):
    """§12.5 (b): the dealer adds its 5s kong; seat 1 (无番: only 抢杠) and seat 2 (123m 456m
    789p 46s 11z: 门清) both rob; a robbed kong is resolved from the adder's 下家 (seat 1)."""
    s = HainanScene("hn-rob-jiehu")
    s.hand(0, {0: "55s", 1: "99m 34s 678p 789p 33p", 2: "5s 123m 456m 789p 46s 1z", 3: "9m"},
           reserve="5s 1z", avoid="2s 5s 3s 4s 6s 3p 9m 1z")
    s.discard(0)
    s.pass_turn(1)
    s.draw(2, "1z")
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
    s.b.declare(1, "win")
    s.b.declare(2, "win")
    if paid_seat == 1:
        s.win([(1, ["qianggang"], 1, 1)], "robbed_kong", "5s", from_seat=0, declare=False)
        s.settle([(0, 1, 4, "qianggang")])
    else:
        s.win([(2, ["menqing", "qianggang"], 2, 1)], "robbed_kong", "5s", from_seat=0, declare=False)
        s.settle([(0, 2, 2, "win"), (1, 2, 1, "win"), (3, 2, 1, "win")])
    return s.close()


def test_jiehu_on_a_robbed_kong_from_the_adders_xiajia():
    # §4: a robbed kong is resolved from the adder's 下家; seat 1's 无番抢杠 is the adder's alone
    a = audit_game(log_of(_rob_jiehu(1)))
    assert a.findings == [] and a.ledger[-1] == [-4, 4, 0, 0]
    a = audit_game(log_of(_rob_jiehu(2)))
    assert [f.code for f in a.findings] == ["CLAIM_PRIORITY"]
    assert a.logged_scores[-1] == [-2, -1, 4, -1] and a.ledger[-1] == [-4, 4, 0, 0]
