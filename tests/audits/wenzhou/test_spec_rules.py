"""wenzhou.md rule statements the other files did not pin, each holding and with a near miss
failing (an independent review against the text): 财神单钓 on a robbed kong (§6), the max-four
room with one's own melds (§3.3), 硬八对 with 财神归位 (§7.2), the moments of 天和 / 地和 (§8.2),
``sancaishen_on_discard`` (§7.3), ``ying_scope`` and a robbed kong (§8.1), the 特殊双翻 names
(§8.2), who pays on a robbed kong (§9.2), 财神钱 and 杠算分 at every hand's end (§9.4–§9.6), the
discard order after a claim and with an honour W (§5), a kong on an empty wall (§2)."""

from __future__ import annotations

import msgspec
import pytest

from audits import audit_game
from audits.rules.wenzhou import play, settlement, wins
from paipu.sim.wenzhou.examples import _dealer_self_draw, _drawn_hand
from paipu.sim.wenzhou.scenes import WenzhouScene
from schema import events as ev
from schema.tiles import TILE_INDEX as T

from ..helpers import log_of
from .helpers import counts, facts, meld, pays, rules, score, settle, table

#: seat 3's five melds of wenzhou.md §12.3 (W = 2p)
FIVE_MELDS = [meld("chow", "123m", 2), meld("pong", "555p", 1), meld("pong", "111z", 0), meld("chow", "678s", 2),
              meld("pong", "999m", 1)]


# -- §6 财神单钓 ------------------------------------------------------------------------------

def test_caishen_dandiao_may_not_rob_a_kong_either():
    # §6: a seat in 财神单钓 "may not win on a discard or by robbing"
    r = rules("2p")
    robbed = score(r, "2p 7s", "robbed_kong", "7s", FIVE_MELDS)
    assert not robbed.wins and robbed.code == "WIN_CAISHEN_DANDIAO_DISCARD"
    # near miss: caishen_dandiao = free lets the rob stand (单吊 ×4; 硬 because it robs)
    free = score(rules("2p", caishen_dandiao="free"), "2p 7s", "robbed_kong", "7s", FIVE_MELDS)
    assert free.wins and free.fans == ["yinghu", "quanqiuren"] and free.points == 4
    # near miss: a natural single wait (7s held, no 财神) robs freely
    assert score(r, "7s 7s", "robbed_kong", "7s", FIVE_MELDS).wins


# -- §3.3 max four ------------------------------------------------------------------------------

def test_a_caishen_stands_for_no_fifth_tile_of_a_kind_counting_own_melds():
    # §3.3: a pong of 中 melded and one 中 held: a 财神 cannot make the pair 中中 (five 中)
    r = rules("9p")
    assert not wins.is_winning(r, counts("123m 456m 789m 123p 7z 9p"), [meld("pong", "777z")])
    # near miss: the meld is 发: the 财神 pairs the 中
    assert wins.is_winning(r, counts("123m 456m 789m 123p 7z 9p"), [meld("pong", "666z")])


# -- §7.2 硬八对 with 财神归位 ------------------------------------------------------------------

def test_badui_with_the_caishen_read_as_w_is_hard():
    r = rules("9p")
    # two 财神 归位 as a pair of 9p; a 白板 (a natural 9p) and a 财神 归位 as another: 硬八对 ×4
    assert score(r, "11m 22m 33m 44p 55p 66s 77s 5m 9p 9p", "self_draw", "9p").fans == ["yinghu", "badui"]
    two = score(r, "11m 22m 33m 44p 55p 66s 77s 5z 5m 9p", "self_draw", "9p")
    assert two.fans == ["yinghu", "badui"] and two.points == 4
    # near miss: the 财神 must stand for 东 to pair it: a soft eight pairs, no win by default
    assert not score(r, "11m 22m 33m 44p 55p 66s 77s 1z 5m 9p", "self_draw", "9p").wins


# -- §8.2 the moments -----------------------------------------------------------------------------

def test_no_tianhe_after_the_dealers_concealed_kong():
    # §8.2 天和: the dealer's 17 dealt tiles, "before any discard or kong"
    r = rules("9p")
    clean = table(dealer=0, discards=[[], [], [], []], melds=[[], [], [], []], received=[[1] * 17, [], [], []])
    assert play.heavenly(r, clean, 0, "self_draw") == "tianhe"
    konged = table(dealer=0, discards=[[], [], [], []], melds=[[meld("kong_concealed", "1111m")], [], [], []],
                   received=[[1] * 18, [], [], []])
    assert play.heavenly(r, konged, 0, "self_draw") == ""
    # a non-dealer's first self-draw is no 天和
    assert play.heavenly(r, clean, 1, "self_draw") == ""


def test_dihe_after_the_dealers_own_concealed_kong_but_not_after_a_call():
    r = rules("9p")
    first = [[], [[T["3m"], -1]], [], []]
    # §8.2: "The dealer's own 暗杠 or 补杠 is not a call: its first discard after it still gives 地和"
    konged = table(dealer=1, melds=[[], [meld("kong_concealed", "1111m")], [], []], discards=first,
                   last_discard=(1, T["3m"]))
    assert play.heavenly(r, konged, 3, "discard") == "dihe"
    # first_round_shangjia: seat 2 wins its 上家 seat 1's first discard: 地和; after a pong by seat 0
    # (a call) the same win is not
    frs = rules("9p", dihe_scope="first_round_shangjia")
    none = table(dealer=1, melds=[[], [], [], []], discards=first, last_discard=(1, T["3m"]))
    assert play.heavenly(frs, none, 2, "discard") == "dihe"
    called = table(dealer=1, melds=[[meld("pong", "555m", 3)], [], [], []], discards=first,
                   last_discard=(1, T["3m"]))
    assert play.heavenly(frs, called, 2, "discard") == ""
    # near miss: the winner has discarded already: past its first go-around
    later = table(dealer=1, melds=[[], [], [], []], discards=[[], [[T["3m"], -1]], [[T["4m"], -1]], []],
                  last_discard=(1, T["3m"]))
    assert play.heavenly(frs, later, 2, "discard") == ""


# -- §7.3 the bare 三财神 on a discard --------------------------------------------------------------

def test_sancaishen_on_discard_lets_the_bare_win_take_a_discard():
    hand = "5s 5s 5s 1m 4m 7m 1p 4p 7p 1s 4s 7s 1z 2z 3z 4z 6z"
    on = score(rules("5s", sancaishen_on_discard=True), hand, "discard", "6z")
    assert on.wins and on.fans == ["yinghu", "sancaishen_bare"] and on.points == 2
    # near miss: the default takes the bare win at one's own turn only
    assert not score(rules("5s"), hand, "discard", "6z").wins


# -- §8.1 硬 ------------------------------------------------------------------------------------

def test_ying_scope_self_draw_only_keeps_a_robbed_kong_hard():
    # §8.1: under self_draw_only only the first bullet (no 财神 standing in) needs a self-draw;
    # robbing an added kong is 硬 "with or without wilds"
    lit = rules("9p", ying_scope="self_draw_only")
    robbed = score(lit, "123m 456m 789m 46p 9p 234s 11z", "robbed_kong", "1z")
    assert robbed.fans == ["yinghu"] and robbed.points == 2
    # near miss: the same soft hand on a plain discard is 软 ×1
    assert score(lit, "123m 456m 789m 46p 9p 234s 11z", "discard", "1z").points == 1


# -- §8.2 特殊双翻 (extra_shuangfan = teshu) --------------------------------------------------------

def test_teshu_gangshang_kaihua():
    t = rules("9p", extra_shuangfan="teshu")
    hand = "123m 456m 789m 234s 678s 1z 1z"
    got = score(t, hand, "self_draw", "1z", after_kong=True)
    assert got.fans == ["yinghu", "gangshang_kaihua"] and got.points == 4
    # near misses: not on a kong replacement; the default plays no 杠上开花
    assert score(t, hand, "self_draw", "1z").points == 2
    assert score(rules("9p"), hand, "self_draw", "1z", after_kong=True).points == 2


def test_teshu_caishen_niudui_and_shuangcai_guiwei():
    t = rules("9p", extra_shuangfan="teshu")
    # the pair (牛) is two 财神; both 归位: 财神牛对 and 双财归位
    got = score(t, "123m 456m 789m 234s 678s 9p 9p", "self_draw", "9p")
    assert got.fans == ["yinghu", "caishen_niudui", "shuangcai_guiwei"] and got.points == 4
    # 双财归位 alone: two 财神 and a 白板 make a pong of 9p (all 归位), the pair is 东
    alone = score(t, "123m 456m 789m 234s 5z 9p 9p 11z", "self_draw", "9p")
    assert alone.fans == ["yinghu", "shuangcai_guiwei"] and alone.points == 4
    # near miss: both 财神 must stand in (for 5s / 8s and 3p / 6p, 软): neither name, ×1
    soft = score(t, "123m 456m 789m 67s 45p 11z 9p 9p", "self_draw", "9p")
    assert soft.fans == ["ruanhu"] and soft.points == 1


# -- §9.2 who pays a robbed kong ------------------------------------------------------------------

def test_discarder_for_all_makes_the_kong_adder_pay_a_robbed_kong():
    d = rules("9p", discard_payers="discarder_for_all")
    # dealer seat 0 at level 1; seat 2 robs seat 3's added kong, ×2: 2 + 2 + 2 = 6 from seat 3
    assert pays(settle(d, [(2, 2)], "robbed_kong", 3, facts(0, 1))) == [(3, 2, 6, "win")]
    # near miss: a self-draw under discarder_for_all is paid by all three
    assert pays(settle(d, [(2, 2)], "self_draw", None, facts(0, 1))) == [(0, 2, 2, "win"), (1, 2, 2, "win"),
                                                                         (3, 2, 2, "win")]


# -- §9.4–§9.6 财神钱 and 杠算分 ---------------------------------------------------------------------

def test_caishen_money_six_for_a_winner_holding_all_three():
    r = rules("9p", caishenqian=True)
    won = settle(r, [(1, 2)], "self_draw", None, facts(0, 1, held=(0, 3, 0, 0)))
    assert sorted(t for t in pays(won) if t[3] == "caishen") == [(0, 1, 6, "caishen"), (2, 1, 6, "caishen"),
                                                                 (3, 1, 6, "caishen")]
    # near miss: three 财神 held by a seat that did not win collect 3 × B from each
    lost = settle(r, [(1, 2)], "self_draw", None, facts(0, 1, held=(3, 0, 0, 0)))
    assert sorted(t for t in pays(lost) if t[3] == "caishen") == [(1, 0, 3, "caishen"), (2, 0, 3, "caishen"),
                                                                  (3, 0, 3, "caishen")]


def test_caishen_money_and_kong_money_are_paid_on_a_drawn_hand():
    # §9.6: a drawn hand has no win payments; 财神钱 and 杠算分 still apply when on
    r = rules("9p", caishenqian=True, kong_payments="at_end")
    f = facts(0, 1, held=(1, 0, 2, 0), kongs=((), ("kong_exposed", "kong_added"), (), ("kong_concealed",)))
    s = settlement.settle(r, [0, 0, 0, 0], (), None, None, f)
    assert not [t for t in s.transfers if t.reason == "win"]
    # 财神钱: seat 0 +1 × 3, seat 2 +2 × 3; 杠算分: seat 1 two kongs at 1, seat 3 one concealed at 2
    # seat 0: +3 − 2 (to seat 2) − 2 (seat 1's kongs) − 2 (seat 3's kong) = −3; seat 1: −1 − 2 + 6 − 2 = 1;
    # seat 2: +6 − 1 − 2 − 2 = 1; seat 3: −1 − 2 − 2 + 6 = 1
    assert s.scores == [-3, 1, 1, 1]
    # near miss: without the options a drawn hand moves nothing
    assert settlement.settle(rules("9p"), [0, 0, 0, 0], (), None, None, f).transfers == []


def _robbed_kong_room(kong_money: bool) -> WenzhouScene:
    """Dealer seat 0 pongs seat 3's 2m, draws the fourth 2m and adds it; seat 1 (345m 678m 345p
    678p 55s 1m 3m, waiting on 2m) robs it: 硬 ×2 (no 财神), each pays 2; with 杠算分 on, the
    robbed kong earns nothing (§9.5)."""
    opts = {"kong_payments": "at_end"} if kong_money else None
    s = WenzhouScene("wz-rob" + ("k" if kong_money else ""), opts)
    s.hand(0, {0: "2m 2m", 1: "345m 678m 345p 678p 55s 1m 3m", 3: "2m"}, indicator="9p", reserve="2m",
           avoid="1m 2m 3m 5s")
    s.discard(0)
    s.go_around(1, 2)
    s.draw(3)
    s.discard(3, "2m")
    s.pong(0, 3, "2m")
    s.discard(0)
    s.go_around(1, 3)
    s.draw(0, "2m")
    s.kong_added(0, "2m")
    s.win([(1, ["yinghu"], 1, 2)], "robbed_kong", "2m", from_seat=0)
    s.settle([(0, 1, 2, "win"), (2, 1, 2, "win"), (3, 1, 2, "win")])
    return s


def test_a_robbed_kong_earns_no_kong_money():
    # §5: the robbed kong is void; §9.5: "Robbed kongs earn nothing"
    a = audit_game(log_of(_robbed_kong_room(True).close()))
    assert [(f.code, f.message) for f in a.findings] == [] and a.ledger[-1] == [-2, 6, -2, -2]
    # near miss: the same room paying 杠算分 for the robbed kong is undue kong money
    s = _robbed_kong_room(True)
    s.b.events.pop()
    s.scores = [0, 0, 0, 0]
    s.settle([(0, 1, 2, "win"), (2, 1, 2, "win"), (3, 1, 2, "win"),
              (1, 0, 1, "kong"), (2, 0, 1, "kong"), (3, 0, 1, "kong")])
    a = audit_game(log_of(s.close()))
    assert [f.code for f in a.findings] == ["KONG_PAYMENT_UNDUE"] and a.ledger[-1] == [-2, 6, -2, -2]


# -- §5 the discard order -------------------------------------------------------------------------

def _pong_then_discard(tile: str) -> list[str]:
    """Dealer seat 0 throws its single 西; seat 1 (三 西 and a single 北 held) pongs it and
    throws ``tile``; then everyone plays out to 流局."""
    s = WenzhouScene("wz-order-" + tile)
    s.hand(0, {0: "3z", 1: "3z 3z 3z 4z"}, indicator="9p")
    s.discard(0, "3z")
    s.pong(1, 0, "3z")
    s.discard(1, tile)
    s.go_around(2, 3)
    s.draw(1)
    s.discard(1, "4z" if tile == "3z" else "3z")
    s.until(2, 16)
    s.drawn()
    return [f.code for f in audit_game(log_of(s.close())).findings]


def test_after_a_pong_from_three_the_remaining_single_goes_first():
    # §5 rule 3: "after a pong of h made from three h, the remaining single h must go"
    assert _pong_then_discard("3z") == []
    # near miss: throwing the single 北 keeps rule 2 but breaks rule 3
    assert _pong_then_discard("4z") == ["HONOUR_DISCARD_ORDER"]


def test_an_honour_caishen_is_never_a_single_honour():
    r = rules("1z")  # W = 东: a held 东 is a 财神
    held = counts("1z 1m 2m 3m 5m 6p 7p 8p 1s 2s 3s 4s 5s 6s 7s 8s 9s")
    assert play.discard_rule(r, table(hands=[held] * 4, latest_discard=(1, T["9m"])), 2, T["5m"]).violation is None
    # near miss: a single 南 beside it is a single honour: a suited discard breaks rule 2
    held = counts("1z 2z 2m 3m 5m 6p 7p 8p 1s 2s 3s 4s 5s 6s 7s 8s 9s")
    v = play.discard_rule(r, table(hands=[held] * 4, latest_discard=(1, T["9m"])), 2, T["5m"]).violation
    assert v is not None and v.code == "HONOUR_DISCARD_ORDER" and v.expected == ["2z"]


# -- §2 a kong needs a replacement ------------------------------------------------------------------

def test_a_kong_needs_an_undrawn_tile():
    r = rules("9p")
    kong = ev.KongConcealed(game="g", seq=1, at="2026-01-01T00:00:00Z", seat=0, kind="1m",
                            tiles=["1m", "1m", "1m", "1m"])
    assert [v.code for v in play.event_checks(r, table(undrawn=0), kong)] == ["KONG_WITHOUT_REPLACEMENT"]
    # near miss: one undrawn tile (inside the 16-tile reserve) is enough
    assert play.event_checks(r, table(undrawn=1), kong) == []


# -- §4, §11 levels a log does not name ----------------------------------------------------------------

def _same_level_room(strip_levels: bool, draw_dealer: str = "stay_same_level"):
    """``draw_dealer = stay_same_level``: hand 1 (seat 0, level 1) is drawn, so seat 0 deals hand 2
    at level 1 again and wins hard ×2: each pays D_1 × 2 = 2."""
    s = WenzhouScene("wz-ssl", {"draw_dealer": draw_dealer})
    _drawn_hand(s, 0, 1)
    _dealer_self_draw(s, 0, 1, 2)
    b = s.close()
    if strip_levels:
        b.events = [msgspec.structs.replace(e, dealer_level=msgspec.UNSET) if type(e) is ev.HandStarted else e
                    for e in b.events]
    return audit_game(log_of(b))


def test_stay_same_level_with_logged_levels():
    a = _same_level_room(False)
    assert a.findings == [] and a.ledger[-1] == [6, -2, -2, -2]


def test_stay_same_level_when_the_log_names_no_level():
    # a HandStarted without dealer_level (optional, wenzhou.md §11) is at the rotation's level:
    # under stay_same_level the drawn hand keeps L = 1, though the dealer deals a second time
    a = _same_level_room(True)
    assert a.findings == [] and a.ledger[-1] == [6, -2, -2, -2]


def test_a_level_the_log_does_not_name_is_the_rotations():
    # near miss: under draw_dealer = stay the drawn hand raises the dealer to L = 2, so the same
    # log, naming no level and paying D_1 × 2, underpays; the corrected ledger pays D_2 × 2 = 4
    a = _same_level_room(True, "stay")
    assert [f.code for f in a.findings] == ["TRANSFER_MISMATCH"] and a.ledger[-1] == [12, -4, -4, -4]


# -- §9.1 the level bases ------------------------------------------------------------------------------

@pytest.mark.parametrize("lianzhuang, bases", [("multiply", (1, 2, 3, 4)), ("jinjie1", (2, 4, 6, 8)),
                                               ("jinjie2", (2, 4, 8, 16))])
@pytest.mark.parametrize("base", [1, 5])
def test_the_dealer_pair_base_table(lianzhuang, bases, base):
    # §9.1: D_L (× B) where the dealer is in the pair, B between two non-dealers; a hard win ×2
    r = rules("9p", lianzhuang=lianzhuang, base=base)
    for level, d in zip((1, 2, 3, 4), bases):
        # dealer seat 0 at ``level``; seat 2 self-draws with points B × 2
        got = pays(settle(r, [(2, base * 2)], "self_draw", None, facts(0, level)))
        assert got == [(0, 2, d * base * 2, "win"), (1, 2, base * 2, "win"), (3, 2, base * 2, "win")]
        # the dealer winning: each non-dealer pays D_L × 2 (near miss: never the non-dealer pair's B)
        got = pays(settle(r, [(0, base * 2)], "self_draw", None, facts(0, level)))
        assert got == [(1, 0, d * base * 2, "win"), (2, 0, d * base * 2, "win"), (3, 0, d * base * 2, "win")]


# -- §3.2, §5 a discarded 白板 is a W-kind discard ------------------------------------------------------------

def test_a_discarded_baiban_is_chowed_as_w():
    from audits.rules.wenzhou import WENZHOU
    c = WENZHOU.claims
    # W = 9p: seat 1 chows its 上家's 白板 (a natural 9p) with 78p
    assert c.check_chow(rules("9p"), 4, 1, 0, T["5z"], [T["7p"], T["8p"]]) == []
    # near miss: W = 东, so the 白板 is a 东 and makes no run with 78p
    assert [v.code for v in c.check_chow(rules("1z"), 4, 1, 0, T["5z"], [T["7p"], T["8p"]])] == ["CLAIM_MELD_INVALID"]


# -- §5, §6 截和 passes over a 财神单钓 declarer -----------------------------------------------------------------

def _jiehe_over_caishen_dandiao(winner: int):
    """W = 9s.  Seat 1 holds 123m 456m 789m 123p 456p + a 财神 (财神单钓); seat 3 holds 345m 678m
    345p 678p 55s 68s.  Dealer seat 0 throws 7s; seats 1 and 3 declare.  Seat 1's win is barred
    (§6), so seat 3, the first *legal* declarer from seat 0's 下家, wins hard ×2: 2 / 2 / 2."""
    s = WenzhouScene(f"wz-jh-dd{winner}")
    s.hand(0, {1: "123m 456m 789m 123p 456p 9s", 3: "345m 678m 345p 678p 55s 68s"}, indicator="9s",
           reserve="7s", avoid="5s 6s 7s 8s 9s")
    s.discard(0)
    s.go_around(1, 3)
    s.draw(0, "7s")
    s.discard(0, "7s")
    s.b.declare(1, "win")
    s.b.declare(3, "win")
    if winner == 3:
        s.win([(3, ["yinghu"], 1, 2)], "discard", "7s", from_seat=0, declare=False)
        s.settle([(p, 3, 2, "win") for p in (0, 1, 2)])
    else:
        s.win([(1, ["ruanhu"], 0, 1)], "discard", "7s", from_seat=0, declare=False)
        s.settle([(p, 1, 1, "win") for p in (0, 2, 3)])
    return audit_game(log_of(s.close()))


def test_jiehe_skips_a_declarer_in_caishen_dandiao():
    a = _jiehe_over_caishen_dandiao(3)
    assert a.findings == [] and a.ledger[-1] == [-2, -2, -2, 6]
    # near miss: the log gives the win to seat 1: its win is barred and seat 3's was first among the
    # legal ones; the corrected ledger pays seat 3
    a = _jiehe_over_caishen_dandiao(1)
    assert [f.code for f in a.findings] == ["CLAIM_PRIORITY", "WIN_CAISHEN_DANDIAO_DISCARD"]
    assert a.ledger[-1] == [-2, -2, -2, 6]


# -- §2 no flowers ---------------------------------------------------------------------------------------------

def _dealt_room(dealer_tiles: str):
    from schema.builder import GameBuilder
    b = GameBuilder("wz-flower", preset="wenzhou", server="t", build="1", fee=0)
    b.open()
    b.hand(1, 0, dealer_level=1)
    b.deal(dealer_tiles, "123456789s1234567z", "123456789m1234567p", "123456789s1234567z")
    b.indicator("9p", "9p")
    b.close("dissolved", [0, 0, 0, 0])
    return [f.code for f in audit_game(log_of(b)).findings]


def test_a_flower_is_not_a_wenzhou_tile():
    # §2: 136 tiles, no flowers (new-families.md §2: a Wenzhou flower is TILE_NOT_IN_SET)
    assert _dealt_room("123456789m1234567p1f") == ["TILE_NOT_IN_SET"]
    # near miss: the same deal with an 8p for the flower is clean
    assert _dealt_room("123456789m12345678p") == []


# -- §9.3 a 买底 choice stands for its own dealership ---------------------------------------------------------

def _new_dealership_room(bets):
    """``maidi``: seat 0 deals hands 1–4 (levels 1–4, each drawn), buying 底 (1, 0, 0, 0) before
    hand 1; its dealership ends (``after_fourth = redraw``) and seat 1 deals hand 5 at level 1
    with ``bets`` before the deal (None: none logged), winning hard ×2 by self-draw.  Nobody
    bought in seat 1's dealership, so each pays D_1 × 2 = 2."""
    s = WenzhouScene("wz-maidi-new", {"maidi": True})
    s.hand(0, {}, indicator="9p", bets=(1, 0, 0, 0))
    s.discard(0)
    s.until(1, 16)
    s.drawn()
    for level in (2, 3, 4):
        _drawn_hand(s, 0, level)
    s.hand(1, {1: "111m 234m 567p 789p 345s 8s"}, indicator="4z", reserve="8s", avoid="8s 6s 7s 2s 9s", bets=bets)
    s.discard(1)
    s.go_around(2, 3)
    s.draw(1, "8s")
    s.win([(1, ["yinghu"], 1, 2)], "self_draw", "8s")
    s.settle([(p, 1, 2, "win") for p in (0, 2, 3)])
    return audit_game(log_of(s.close()))


def test_a_buy_from_an_earlier_dealership_does_not_stand():
    # §9.3: "A choice stands for the whole dealership" — its own, not the next: seat 0's 买底 as
    # dealer of hands 1–4 adds nothing to seat 1's dealership, whether or not hand 5 logs bets
    for bets in ((0, 0, 0, 0), None):
        a = _new_dealership_room(bets)
        assert [(f.code, f.message) for f in a.findings] == [] and a.ledger[-1] == [-2, 6, -2, -2]
    # near miss: seat 0 buys 底 again (as a non-dealer, 顶底) before hand 5: its pair is D_1 × 2 × 2 = 4
    a = _new_dealership_room((1, 0, 0, 0))
    assert [f.code for f in a.findings] == ["TRANSFER_MISMATCH"] and a.ledger[-1] == [-4, 8, -2, -2]


def test_a_buy_stands_through_its_own_dealership():
    from audits.rules.wenzhou.settlement import table_facts
    r = rules("9p", maidi=True)
    # hand 3 of seat 0's dealership (two hands dealt before in a row); seat 0 bought before hand 1,
    # seat 3 before hand 1 too, seat 2 bought in an earlier dealership (hand 0 of another dealer)
    t = table(dealer=0, level=3, streak=2, hand=3, hands=[[0] * 34] * 4, last_bets=[(1, 1), (1, 0), (0, 1), (1, 1)])
    assert table_facts(r, t).extra.bought == [1, 0, 0, 1]


# -- §3.3 a 财神 is never discarded nor melded; 白板 is a natural W ------------------------------------------------

def test_a_caishen_discard_is_forbidden_a_baiban_discard_is_not():
    r = rules("9p")
    held = counts("9p 5z 1m 2m 3m 5m 6p 7p 8p 1s 2s 3s 4s 5s 6s 7s 8s")
    got = play.discard_rule(r, table(hands=[held] * 4, latest_discard=None), 2, T["9p"]).violation
    assert got is not None and got.code == "SPECIAL_TILE_DISCARDED"
    # near miss: the 白板 (a natural 9p) is an ordinary discard
    assert play.discard_rule(r, table(hands=[held] * 4, latest_discard=None), 2, T["5z"]).violation is None


def test_no_caishen_in_a_kong():
    from audits.rules.wenzhou import WENZHOU
    c = WENZHOU.claims
    r = rules("9p")
    # four 白板 are four natural 9p: a concealed kong of W stands
    assert c.check_concealed_kong(r, T["5z"], [T["5z"]] * 4) == []
    # near misses: three 白板 and a 财神; a 财神 added to a pong of 白板
    assert [v.code for v in c.check_concealed_kong(r, T["5z"], [T["5z"]] * 3 + [T["9p"]])] == ["CLAIM_SPECIAL_TILE"]
    assert [v.code for v in c.check_added_kong(r, T["5z"], T["9p"])] == ["CLAIM_SPECIAL_TILE"]
    assert c.check_added_kong(r, T["5z"], T["5z"]) == []


def test_with_w_baiban_no_baiban_is_a_single_honour():
    r = rules("5z")  # W = 白板: the 白板 held are 财神 and have no stand-in
    held = counts("5z 1m 2m 3m 5m 6p 7p 8p 1s 2s 3s 4s 5s 6s 7s 8s 9s")
    assert play.discard_rule(r, table(hands=[held] * 4, latest_discard=(1, T["9m"])), 2, T["5m"]).violation is None
    # near miss: a single 中 beside it is a single honour
    held = counts("5z 7z 2m 3m 5m 6p 7p 8p 1s 2s 3s 4s 5s 6s 7s 8s 9s")
    v = play.discard_rule(r, table(hands=[held] * 4, latest_discard=(1, T["9m"])), 2, T["5m"]).violation
    assert v is not None and v.code == "HONOUR_DISCARD_ORDER" and v.expected == ["7z"]


# -- §2 流局 at the 16-tile reserve -------------------------------------------------------------------------------

@pytest.mark.parametrize("left, codes", [(16, []), (17, ["EXHAUSTIVE_DRAW_EARLY"]), (15, ["EXHAUSTIVE_DRAW_MISSED"])])
def test_the_hand_is_drawn_when_an_ordinary_draw_meets_the_reserve(left, codes):
    # §2: an ordinary draw needs R > 16; the hand is drawn when one is due at R ≤ 16 (near misses:
    # declared with 17 left, and an ordinary draw taken at R = 16)
    s = WenzhouScene(f"wz-reserve-{left}")
    s.hand(0, {}, indicator="9p")
    s.discard(0)
    s.until(1, left)
    s.drawn()
    assert [f.code for f in audit_game(log_of(s.close())).findings] == codes


# -- §5 抢杠: only an added kong is robbed ------------------------------------------------------------------------

def _rob(kind: str) -> list[str]:
    """Seat 1 (345m 678m 345p 678p 55s 1m 3m, waiting on 2m) robs dealer seat 0's kong of 2m:
    an added kong (pong of seat 3's 2m, the fourth drawn), an exposed kong on seat 3's 2m, or a
    concealed kong (the fourth drawn)."""
    s = WenzhouScene("wz-rob-" + kind)
    s.hand(0, {0: "2m 2m" if kind == "added" else "2m 2m 2m", 1: "345m 678m 345p 678p 55s 1m 3m",
               3: "" if kind == "concealed" else "2m"}, indicator="9p",
           reserve="" if kind == "exposed" else "2m", avoid="1m 2m 3m 5s")
    s.discard(0)
    s.go_around(1, 2)
    if kind == "concealed":
        s.pass_turn(3)
        s.draw(0, "2m")
        s.kong_concealed(0, "2m")
    else:
        s.draw(3)
        s.discard(3, "2m")
        if kind == "exposed":
            s.kong_exposed(0, 3, "2m")
        else:
            s.pong(0, 3, "2m")
            s.discard(0)
            s.go_around(1, 3)
            s.draw(0, "2m")
            s.kong_added(0, "2m")
    s.win([(1, ["yinghu"], 1, 2)], "robbed_kong", "2m", from_seat=0)
    s.settle([(0, 1, 2, "win"), (2, 1, 2, "win"), (3, 1, 2, "win")])
    return [f.code for f in audit_game(log_of(s.close())).findings]


@pytest.mark.parametrize("kind, codes", [("added", []), ("exposed", ["ROB_EXPOSED_KONG"]),
                                         ("concealed", ["ROB_CONCEALED_KONG"])])
def test_only_an_added_kong_is_robbed(kind, codes):
    # §5: the added kong is robbed (硬 ×2 by the rob); near misses: an exposed and a concealed kong
    assert _rob(kind) == codes
