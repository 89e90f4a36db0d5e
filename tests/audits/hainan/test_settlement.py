"""Hainan settlement pieces (hainan.md §9) on the family's functions: units, the feeder's
extra, each liability with its near miss, kong money and 包杠, 跟牌, flower money."""

from __future__ import annotations

from types import SimpleNamespace

from audits.rules.family import HandFacts
from audits.rules.hainan import settlement as st
from replay.melds import Meld

from .helpers import rules


def facts(dealer=0, streak=0, liable=None, kongs=(), genpai=False, flowers=None):
    return HandFacts(None, None, st.HainanFacts(dealer, streak, liable or {}, list(kongs), genpai,
                                                flowers or [(), (), (), ()]), dealer)


def pays(r, winners, how, frm=None, f=None):
    return sorted((t.payer, t.payee, t.amount, t.reason) for t in st.settle(r, [0] * 4, winners, how, frm,
                                                                             f or facts()).transfers)


def test_units_with_the_dealer():
    r = rules(base=2, lianzhuang="add", dealer_unit_bonus=1)
    f = facts(dealer=0, streak=2).extra
    assert st.unit(r, f, 0, 1) == 2 + 2 + 1 and st.unit(r, f, 1, 2) == 2
    assert st.unit(rules(base=2, lianzhuang="multiply"), f, 3, 0) == 6
    assert st.unit(rules(base=2), f, 3, 0) == 2


def test_the_feeder_pays_e_on_a_discard_and_a_robbing_not_on_a_self_draw():
    assert pays(rules(), [(2, 1)], "discard", 3) == [(0, 2, 1, "win"), (1, 2, 1, "win"), (3, 2, 2, "win")]
    assert pays(rules(), [(2, 1)], "robbed_kong", 0) == [(0, 2, 2, "win"), (1, 2, 1, "win"), (3, 2, 1, "win")]
    assert pays(rules(), [(2, 2)], "self_draw") == [(0, 2, 2, "win"), (1, 2, 2, "win"), (3, 2, 2, "win")]


def test_a_liable_seat_pays_every_share_and_e():
    bao = {2: st.Liability(1, "bao_sandao", "三道")}
    assert pays(rules(), [(2, 1)], "discard", 1, facts(liable=bao)) == [(1, 2, 4, "bao_sandao")]
    bao = {2: st.Liability(1, "bao_sandao", "四道")}
    assert pays(rules(), [(2, 2)], "self_draw", None, facts(liable=bao)) == [(1, 2, 6, "bao_sandao")]


def _table(fed=(), undrawn=60, dealer=0, discards=None, melds=None, hands=None):
    return SimpleNamespace(fed=list(fed), undrawn=undrawn, dealer=dealer, melds=melds or [[], [], [], []],
                           discards=discards or [[], [], [], []], hands=hands or [[0] * 34 for _ in range(4)],
                           set_aside=[[], [], [], []], dealer_changes=0, dealer_streak=0)


def _won(how, seat, frm, tile="5m"):
    return SimpleNamespace(how=how, from_seat=frm, tile=tile, winners=[SimpleNamespace(seat=seat)])


def test_sandao_three_claims_one_way_either_direction_and_not_direct_kongs():
    # hainan.md §9.3 b: W made three claims on X's discards (chows and pongs mixed), or X three on W's
    winner_on_feeder = [(2, 1, "chow", 0), (2, 1, "pong", 9), (2, 1, "pong", 20)]
    got = st.liabilities(rules(), _table(winner_on_feeder), _won("discard", 2, 1))[2]
    assert (got.payer, got.reason) == (1, "bao_sandao")
    feeder_on_winner = [(1, 2, "pong", 0), (1, 2, "chow", 9), (1, 2, "pong", 20)]  # "反之…对方一人付三家"
    got = st.liabilities(rules(), _table(feeder_on_winner), _won("discard", 2, 1))[2]
    assert (got.payer, got.reason) == (1, "bao_sandao")
    near = [(2, 1, "chow", 0), (2, 1, "pong", 9), (2, 1, "kong_exposed", 20)]  # a 直杠 is no 道
    assert st.liabilities(rules(), _table(near), _won("discard", 2, 1)) == {}
    assert st.liabilities(rules(), _table(winner_on_feeder), _won("discard", 2, 3)) == {}  # another feeder


def test_sandao_does_not_add_the_two_directions():
    # near miss: two claims one way and one the other are three claims between the pair but
    # no 三道 (each direction is counted on its own: "吃上家三道牌…反之如果对方点炮…")
    mixed = [(2, 1, "chow", 0), (1, 2, "pong", 9), (2, 1, "pong", 20)]
    assert st.liabilities(rules(), _table(mixed), _won("discard", 2, 1)) == {}
    assert st.claims_between(mixed, 2, 1) == (2, 2, 1)
    assert st.claims_between(mixed + [(1, 2, "chow", 3), (1, 2, "pong", 4)], 2, 1) == (3, 1, 2)


def test_sidao_only_on_a_self_draw_and_by_option():
    fed = [(2, 1, "chow", 0), (2, 1, "chow", 3), (2, 1, "pong", 20), (2, 1, "chow", 9)]
    assert st.liabilities(rules(), _table(fed), _won("self_draw", 2, None))[2].payer == 1
    assert st.liabilities(rules(bao_sidao=False), _table(fed), _won("self_draw", 2, None)) == {}
    assert st.liabilities(rules(), _table(fed[:3]), _won("self_draw", 2, None)) == {}
    # the other way: the feeder made four claims on the winner's discards
    back = [(1, 2, kind, t) for _w, _x, kind, t in fed]
    assert st.liabilities(rules(), _table(back), _won("self_draw", 2, None))[2].payer == 1
    # near miss: three one way and one the other are no 四道
    split = fed[:3] + [(1, 2, "chow", 9)]
    assert st.liabilities(rules(), _table(split), _won("self_draw", 2, None)) == {}


def test_sidao_two_seats_qualify_the_first_from_the_winners_xiajia():
    # §9.3 c: if two seats qualify, the first in turn order from W's 下家 (seat 3, then 0, then 1)
    four = lambda claimer, feeder: [(claimer, feeder, "chow", k) for k in range(4)]  # noqa: E731
    fed = four(2, 1) + four(0, 2)
    assert st.liabilities(rules(), _table(fed), _won("self_draw", 2, None))[2].payer == 0
    assert st.liabilities(rules(), _table(four(2, 1) + four(3, 2)), _won("self_draw", 2, None))[2].payer == 3


def test_haidi_bao_by_option_and_threshold():
    assert st.liabilities(rules(haidi_bao=True), _table(undrawn=19), _won("discard", 2, 3))[2].reason == "bao_haidi"
    assert st.liabilities(rules(haidi_bao=True), _table(undrawn=20), _won("discard", 2, 3)) == {}
    assert st.liabilities(rules(), _table(undrawn=19), _won("discard", 2, 3)) == {}


def test_kong_money_values_and_baogang():
    kongs = [(2, "kong_exposed", False), (1, "kong_concealed", False), (3, "kong_added", False)]
    got = pays(rules(kong_values=[1, 2, 3]), [(0, 2)], "self_draw", None, facts(kongs=kongs))
    assert (0, 1, 3, "kong") in got and (0, 3, 2, "kong") in got and (0, 2, 1, "kong") in got
    bao = pays(rules(), [(1, 1)], "discard", 3, facts(kongs=[(2, "kong_exposed", True)]))
    assert (0, 2, 3, "bao_gang") in bao and not any(t[3] == "kong" for t in bao)


def test_baogang_only_on_the_dealers_first_discard():
    kong = Meld("kong_exposed", 24, (24,) * 4, 0, 0)
    first = _table(melds=[[], [], [kong], []], discards=[[[24, 2]], [], [], []])
    assert st.kongs_standing(first) == [(2, "kong_exposed", True)]
    second = _table(melds=[[], [], [kong], []], discards=[[[5, -1], [24, 2]], [], [], []])
    assert st.kongs_standing(second) == [(2, "kong_exposed", False)]


def test_genpai_needs_four_equal_unclaimed_first_discards_in_seat_order():
    same = [[[8, -1]], [[8, -1]], [[8, -1]], [[8, -1]]]
    assert st.genpai_happened(_table(discards=same))
    assert not st.genpai_happened(_table(discards=[[[8, -1]], [[8, -1]], [[8, -1]], [[7, -1]]]))
    assert not st.genpai_happened(_table(discards=[[[8, -1]], [[8, 2]], [[8, -1]], [[8, -1]]]))
    assert not st.genpai_happened(_table(discards=[[[8, -1]], [[8, -1]], [[8, -1]], []]))
    # the first round decides it, whatever follows
    assert st.genpai_happened(_table(discards=[[[8, -1], [3, -1]], [[8, -1], [4, 3]], [[8, -1]], [[8, -1], [5, -1]]]))
    assert not st.genpai_happened(_table(discards=[[[8, -1], [3, -1]], [[8, -1]], [[9, -1]], [[8, -1]]]))


def test_genpai_paid_by_option():
    won = pays(rules(), [(3, 2)], "self_draw", None, facts(genpai=True))
    assert [t for t in won if t[3] == "genpai"] == [(0, 1, 1, "genpai"), (0, 2, 1, "genpai"), (0, 3, 1, "genpai")]
    assert not [t for t in pays(rules(genpai="off"), [(3, 2)], "self_draw", None, facts(genpai=True))
                if t[3] == "genpai"]
    assert pays(rules(), [], None, None, facts(genpai=True)) == []
    assert len(pays(rules(genpai="always"), [], None, None, facts(genpai=True))) == 3


def test_flower_money_by_sets():
    flowers = [(), (34, 35, 36, 37), (), (38, 39, 40)]
    got = [t for t in pays(rules(flower_money="sets"), [(3, 2)], "self_draw", None, facts(flowers=flowers))
           if t[3] == "flower"]
    assert got == [(0, 1, 1, "flower"), (2, 1, 1, "flower"), (3, 1, 1, "flower")]
    assert not [t for t in pays(rules(), [(3, 2)], "self_draw", None, facts(flowers=flowers)) if t[3] == "flower"]


def test_no_legal_win_pays_nothing():
    assert pays(rules(), [], "discard", 3, facts(genpai=True, kongs=[(1, "kong_concealed", False)])) == []


def test_transfer_codes():
    assert st.transfer_code("discard", "TRANSFER_MISMATCH", {(1, 2, "bao_sandao"): 4}, {(1, 2, "win"): 2}) == "BAO_PAYER"
    assert st.transfer_code("discard", "TRANSFER_MISMATCH", {(1, 2, "win"): 2}, {(1, 2, "bao_sandao"): 4}) == "BAO_UNDUE"
    assert st.transfer_code("robbed_kong", "TRANSFER_MISMATCH", {(0, 1, "qianggang"): 4}, {}) == "QIANGGANG_PAYER"
    assert st.transfer_code("discard", "TRANSFER_MISMATCH", {(1, 2, "win"): 2}, {(1, 2, "win"): 1}) == \
        "TRANSFER_MISMATCH"
    assert st.transfer_code(None, "KONG_PAYMENT_MISMATCH", {}, {(1, 2, "kong"): 1}) == "KONG_PAYMENT_UNDUE"
    assert st.transfer_code(None, "GENPAI_MISMATCH", {}, {(0, 1, "genpai"): 1}) == "GENPAI_MISMATCH"


def test_dealer_units_scale_every_dealer_pair_but_not_the_feeders_extra():
    # §9.1.2 / §9.1.5 with lianzhuang = multiply and n = 2 (u with the dealer 3, else 1), B = 1
    r = rules(lianzhuang="multiply")
    f = facts(dealer=0, streak=2)
    # the dealer feeds seat 2: s_0 = 3, s_1 = s_3 = 1; e = B = 1, not × u
    assert pays(r, [(2, 1)], "discard", 0, f) == [(0, 2, 4, "win"), (1, 2, 1, "win"), (3, 2, 1, "win")]
    # a liable seat pays Σ s_l + e = 3 + 1 + 1 + 1
    bao = facts(dealer=0, streak=2, liable={2: st.Liability(1, "bao_sandao", "三道")})
    assert pays(r, [(2, 1)], "discard", 1, bao) == [(1, 2, 6, "bao_sandao")]
    # near miss: without 连庄 growth every unit is B
    assert pays(rules(), [(2, 1)], "discard", 0, f) == [(0, 2, 2, "win"), (1, 2, 1, "win"), (3, 2, 1, "win")]


def test_kong_money_genpai_and_flowers_use_the_pair_unit():
    r = rules(lianzhuang="multiply", flower_money="sets")
    kongs = facts(dealer=0, streak=2, kongs=[(1, "kong_exposed", False), (3, "kong_concealed", False)])
    got = [t for t in pays(r, [(2, 2)], "self_draw", None, kongs) if t[3] == "kong"]
    # §9.2: u(g, l) × v: seat 1's 直杠 3 from the dealer, 1 from the others; seat 3's 暗杠 × 2
    assert got == [(0, 1, 3, "kong"), (0, 3, 6, "kong"), (1, 3, 2, "kong"), (2, 1, 1, "kong"), (2, 3, 2, "kong"),
                   (3, 1, 1, "kong")]
    bao = facts(dealer=0, streak=2, kongs=[(2, "kong_exposed", True)])
    assert [t for t in pays(r, [(1, 1)], "discard", 3, bao) if t[3] == "bao_gang"] == [(0, 2, 3 + 1 + 1, "bao_gang")]
    gen = facts(dealer=0, streak=2, genpai=True)
    assert [t for t in pays(r, [(3, 2)], "self_draw", None, gen) if t[3] == "genpai"] == \
        [(0, 1, 3, "genpai"), (0, 2, 3, "genpai"), (0, 3, 3, "genpai")]
    # §9.5: all eight flowers are two sets: 2 × u from each other seat
    eight = facts(dealer=0, streak=2, flowers=[(), tuple(range(34, 42)), (), ()])
    assert [t for t in pays(r, [(3, 2)], "self_draw", None, eight) if t[3] == "flower"] == \
        [(0, 1, 6, "flower"), (2, 1, 2, "flower"), (3, 1, 2, "flower")]


def test_the_settlement_without_its_derivation_pays_the_same():
    # the audit settles every hand without the lines (``explain`` off); --explain writes them
    r = rules(lianzhuang="multiply", flower_money="sets")
    every = facts(dealer=0, streak=2, genpai=True, kongs=[(1, "kong_exposed", True), (3, "kong_concealed", False)],
                  flowers=[(), tuple(range(34, 42)), (), ()])
    bao = every._replace(extra=every.extra._replace(bao={2: st.Liability(1, "bao_sandao", "三道")}))
    for f, winners, how, frm in ((every, [(3, 2)], "self_draw", None), (bao, [(2, 1)], "discard", 1),
                                 (every, [], None, None), (every, [], "discard", 1)):
        paid, lines = st.derive(r, 4, winners, how, frm, f)
        alone, none = st.derive(r, 4, winners, how, frm, f, explain=False)
        assert alone == paid and none == [] and lines
        assert st.settle(r, [0] * 4, winners, how, frm, f).transfers == paid
    paid, lines = st.derive(r, 4, [(3, 2)], "self_draw", None, every)
    assert len(lines) == 1 + len(paid)  # the dealer's line, then one line per payment
