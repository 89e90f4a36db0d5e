"""Changsha win shapes and units (changsha.md §9, §13): each unit holding and a near miss."""

from __future__ import annotations

import pytest

from audits.rules.changsha import fans, qishou, wins
from audits.rules.family import WinContext
from replay.melds import Meld
from schema.ruleset import resolve
from schema.tiles import TILE_INDEX, parse_hand

CS = resolve("changsha")
JJ = resolve("changsha-jiajiang")


def score(text, melds=(), how="discard", ruleset=CS, **ctx):
    return fans.score_hand(ruleset, parse_hand(text), melds, WinContext(how=how, **ctx))


def pong(tile, frm=1):
    t = TILE_INDEX[tile]
    return Meld("pong", t, (t, t, t), 0, frm)


def kong(tile):
    t = TILE_INDEX[tile]
    return Meld("kong_concealed", t, (t,) * 4)


def chow(lo):
    t = TILE_INDEX[lo]
    return Meld("chow", t, (t, t + 1, t + 2), 0, 3)


def test_small_win_needs_a_jiang_pair():
    sc = score("123m456m789p234s55s")
    assert sc.wins and sc.fans == ["jihu"] and sc.fan == 0 and sc.points == 1
    near = score("123m456m789p234s33s")
    assert not near.wins and near.complete and near.code == "WIN_PAIR_NOT_258"
    assert score("123m456m789p234s33s", ruleset=JJ).wins  # 假将胡
    assert score("123m456m789p234s55s", how="self_draw").points == 2


def test_incomplete():
    sc = score("123m456m789p234s56s")
    assert not sc.complete and sc.code == ""


def test_duidui_qingyise_any_pair():
    sc = score("444p999p66p", (pong("2p"), pong("7p")), how="self_draw")
    assert sorted(sc.fans) == ["duidui", "qingyise"] and sc.fan == 2 and sc.points == 12
    # near miss: one chow, mixed suits, non-将 pair: no unit, no 将: not a win
    assert score("444p999s66p", (chow("1p"), pong("7p"))).code == "WIN_PAIR_NOT_258"


def test_jiangyise_needs_no_shape():
    sc = score("2s5m8p8p2p", (pong("2m"), pong("5p"), pong("8s")))
    assert sc.fans == ["jiangyise"] and sc.fan == 1
    assert not score("2s5m8p8p3p", (pong("2m"), pong("5p"), pong("8s"))).complete


def test_qidui_haohua_qingyise():
    sc = score("11p22p33p55p66p77p99p")
    assert sorted(sc.fans) == ["qidui", "qingyise"] and sc.fan == 2
    lux = score("1111p22p33p55p66p99m")
    assert sorted(lux.fans) == ["haohua", "qidui"] and lux.fan == 2
    assert score("1111p2222p33p55p99m").fans.count("haohua") == 2
    # near miss: a meld spoils 七小对 (and the rest is no 将 shape)
    assert not score("11p22p33p55p66p", (pong("9m"),)).wins


def test_quanqiuren_any_pair_and_options():
    melds = (chow("1m"), pong("4p"), chow("3s"), pong("9s"))
    sc = score("77m", melds)
    assert sc.fans == ["quanqiuren"]
    assert score("77m", melds, how="self_draw").fans == ["quanqiuren"]
    assert not score("77m", melds, how="self_draw", ruleset=resolve("changsha", {"quanqiuren_self_draw": False})).wins
    assert not score("77m", melds, ruleset=resolve("changsha", {"quanqiuren_258": True})).wins
    # near miss: three melds is not 全求人
    assert score("77m789m", melds[:3]).code == "WIN_PAIR_NOT_258"


def test_event_units_need_the_pair():
    assert score("123m456m789p234s55s", how="self_draw", sea_bottom=True).fans == ["haidi"]
    assert score("123m456m789p234s55s", sea_bottom=True).fans == ["haidi_pao"]
    assert score("123m456m789p234s55s", kong_reveal=1).fans == ["gangshang_pao"]
    assert score("123m456m789p234s55s", how="robbed_kong").fans == ["qianggang"]
    assert score("123m456m789p234s55s", how="self_draw", kong_reveal=2).fans == ["gangshang_kaihua"] * 2
    single = resolve("changsha", {"shuang_gangkai": "single"})
    assert score("123m456m789p234s55s", how="self_draw", kong_reveal=2, ruleset=single).fans == ["gangshang_kaihua"]
    # a 补张 replacement is an ordinary self-draw unless buzhang_kaihua
    assert score("123m456m789p234s55s", how="self_draw", after_kong=True).fans == ["jihu"]
    kh = resolve("changsha", {"buzhang_kaihua": True})
    assert score("123m456m789p234s55s", how="self_draw", after_kong=True, ruleset=kh).fans == ["gangshang_kaihua"]
    # near miss: an event unit never replaces the 将 pair
    assert score("123m456m789p234s33s", how="robbed_kong").code == "WIN_PAIR_NOT_258"
    assert score("123m456m789p234s55s", how="self_draw", tiandi="tianhe").fans == ["tianhe"]
    assert score("123m456m789p234s55s", tiandi="dihe", ruleset=resolve("changsha", {"tiandihu": False})).fans == ["jihu"]


def test_worked_example_5_ready_after_kong():
    melds = (kong("5s"),)
    assert [TILE_INDEX[x] for x in ("3m", "6m")] == wins.waits(CS, _counts("234m678p45m88m"), melds)
    assert wins.waits(CS, _counts("234m678p45m98m"), melds) == []


def test_ready_is_some_wait_and_waits_try_every_kind_that_can_complete():
    """§6.1: ``is_ready`` answers whether ``waits`` is empty, and ``waits`` (which tries only the
    kinds held, their neighbours within two ranks, and every 将 tile on an all-将 hand) finds
    exactly the kinds whose addition is a legal win, on random hands against a plain try of all
    27 kinds: every near miss (a hand not ready) included."""
    import random
    rng = random.Random(42)
    melds_of = {0: (), 1: (pong("2m"),), 2: (pong("5p"), kong("8s")), 3: (pong("1m"), pong("9s"), pong("5s"))}
    pools = [list(range(27)), sorted(wins.JIANG), list(range(9)), [0, 1, 2, 9, 10, 11]]
    ready = 0
    for _ in range(3000):
        n_melds = rng.choice((0, 0, 1, 2, 3))
        melds = melds_of[n_melds]
        pool = rng.choice(pools)
        c = [0] * 34
        for _k in range(13 - 3 * n_melds):
            c[rng.choice(pool)] += 1
        plain = []
        for t in range(27):
            c[t] += 1
            if wins.is_winning(CS, c, melds, "self_draw"):
                plain.append(t)
            c[t] -= 1
        assert wins.waits(CS, c, melds) == plain
        assert wins.is_ready(CS, c, melds) == bool(plain)
        ready += bool(plain)
    assert 100 < ready < 2900  # both ready hands and near misses were tried


def test_big_combine_double():
    dbl = resolve("changsha", {"dahu_stack": "double"})
    assert fans.hand_base(dbl, 3, "discard") == 24 and fans.hand_base(CS, 3, "discard") == 18
    assert fans.tier(0) == "小和" and fans.tier(2) == "超大和" and fans.tier(4) == "最大和"


def test_example_8_seven_pairs_haidi_pao():
    sc = score("11p22p33p44p66p77p55p", sea_bottom=True)
    assert sorted(sc.fans) == ["haidi_pao", "qidui", "qingyise"] and sc.points == 18


def _counts(text):
    c = [0] * 34
    for t in parse_hand(text):
        c[t] += 1
    return c


@pytest.mark.parametrize("name,hand,near", [
    ("qs_sixi", "1111m234p567s258m", "111m2345p567s258m"),
    ("qs_banban", "1346799m1346p17s", "1346799m1346p12s"),
    ("qs_queyise", "1234567899m1234p", "1234567899m123p1s"),
    ("qs_liuliushun", "333p777p1234m5678s", "333p778p1234m5678s"),
])
def test_opening_wins(name, hand, near):
    assert name in qishou.held_wins(CS, _counts(hand))
    assert name not in qishou.held_wins(CS, _counts(near))


@pytest.mark.parametrize("name,hand,near", [
    ("qs_bubugao", "334455m1234p789s", "334456m1234p789s"),
    ("qs_jintongyunv", "22p22s13579m1346p", "22p23s13579m1346p"),
    ("qs_yizhihua", "5p123456789m1234s", "6p123456789m1234s"),
    ("qs_santong", "33m33p33s1234567p", "33m33p34s1234567p"),
])
def test_extra_opening_wins(name, hand, near):
    assert name in qishou.held_wins(JJ, _counts(hand))
    assert name not in qishou.held_wins(JJ, _counts(near))
    assert name not in qishou.held_wins(CS, _counts(hand))  # not enabled in the seed preset


def test_opening_repeat():
    c = _counts("1111m2222m333p444p5s")
    assert qishou.held_wins(CS, c).count("qs_sixi") == 1
    assert qishou.held_wins(resolve("changsha", {"qishou_repeat": True}), c).count("qs_sixi") == 2


def test_opening_declaration_checks():
    dealt = _counts("1111m234p567s258m")
    ok = qishou.check_declaration(CS, dealt, ["qs_sixi"], parse_hand("1111m"), (), False)
    assert ok is None
    late = qishou.check_declaration(CS, dealt, ["qs_sixi"], parse_hand("1111m"), (), True)
    assert late.code == "QISHOU_INVALID"
    assert qishou.check_declaration(CS, dealt, ["qs_sixi"], parse_hand("111m"), (), False).code == "QISHOU_INVALID"
    assert qishou.check_declaration(CS, dealt, ["qs_banban"], parse_hand("1111m234p567s258m"), (), False) is not None
    assert qishou.check_declaration(CS, dealt, ["qs_sixi"], parse_hand("1111m"), ("qs_sixi",), False) is not None
    assert qishou.check_declaration(CS, dealt, ["qs_bubugao"], parse_hand("1111m"), (), False) is not None


def test_the_wait_entry_is_a_superset_and_completes_is_exact():
    import random

    from audits.rules.changsha import CHANGSHA
    from audits.rules.hands import hand_keys
    rng = random.Random(5)
    fam = CHANGSHA.wins
    checked = wins_seen = 0
    for _ in range(1500):
        m = rng.choice((0, 0, 1, 2))
        melds = tuple(pong(rng.choice(["2m", "5p", "8s", "3m", "7p"])) for _ in range(m))
        jiang = rng.random() < 0.2
        pool = [t for t in range(27) if not jiang or t % 9 in (1, 4, 7)]
        c = [0] * 34
        while sum(c) < 13 - 3 * m:
            t = rng.choice(pool)
            if c[t] < 3:
                c[t] += 1
        entry = fam.seat_waits(CS, c, hand_keys(c), sum(c), melds)
        for t in range(27):
            d = list(c)
            d[t] += 1
            exact = wins.is_winning(CS, d, melds, "discard")
            got = bool(entry) and fam.completes(CS, entry, c, melds, t)
            assert got == exact, (c, melds, t)
            checked += 1
            wins_seen += exact
    assert checked == 1500 * 27 and wins_seen > 50


def test_opening_repeat_counts_each_holding():
    """§4.2 ``qishou_repeat``: 四喜 once per kind held four times, 六六顺 once per two triplets,
    缺一色 twice when two suits are missing; once each by default (near miss)."""
    rep = resolve("changsha", {"qishou_repeat": True})
    four_triplets = _counts("111m333m555p777p2s")
    assert qishou.held_wins(rep, four_triplets).count("qs_liuliushun") == 2
    assert qishou.held_wins(CS, four_triplets).count("qs_liuliushun") == 1
    assert qishou.held_wins(rep, _counts("111m333m555p77p2s")).count("qs_liuliushun") == 1  # three triplets
    one_suit = _counts("1112345678999m")
    assert qishou.held_wins(rep, one_suit).count("qs_queyise") == 2
    assert qishou.held_wins(CS, one_suit).count("qs_queyise") == 1
    assert qishou.held_wins(rep, _counts("1112345678999m1p")).count("qs_queyise") == 1


def test_a_repeated_opening_win_shows_each_holding():
    """§4.1 / §4.2: the shown tiles prove every win declared; under ``qishou_repeat`` two 四喜
    show two quads.  Showing one quad for two 四喜 is QISHOU_INVALID; near miss: both shown."""
    rep = resolve("changsha", {"qishou_repeat": True})
    dealt = _counts("1111m2222m333p4p5s")
    both = qishou.check_declaration(rep, dealt, ["qs_sixi", "qs_sixi"], parse_hand("1111m2222m"), (), False)
    assert both is None
    one = qishou.check_declaration(rep, dealt, ["qs_sixi", "qs_sixi"], parse_hand("1111m"), (), False)
    assert one is not None and one.code == "QISHOU_INVALID" and "do not prove" in one.message


def test_a_wins_steps_are_its_units_and_hand_base_written_when_read():
    """--explain's derivation of a win (§10.1): the units with U and the tier, then H; written
    when ``steps`` is first read, then kept.  Near misses: the self-drawn small win (2 B), a
    big win under ``dahu_stack = double``; no steps for a hand that does not win."""
    sc = score("123m456m789p234s55s")
    assert not sc.__dict__.get("_steps")  # not written by the scoring itself
    assert sc.steps == ["units: 平胡 jihu (small win); U = 0 (小和)", "H = 1 × B = 1 (won on a discard)"]
    assert sc.steps is sc.steps  # kept once written
    assert score("123m456m789p234s55s", how="self_draw").steps[1] == "H = 2 × B = 2 (won by self-draw)"
    big = score("444p999p66p", (pong("2p"), pong("7p")), how="self_draw")
    assert big.steps == ["units: 碰碰胡 duidui, 清一色 qingyise; U = 2 (超大和)", "H = 6 × 2 × B = 12"]
    dbl = score("444p999p66p", (pong("2p"), pong("7p")), how="self_draw",
                ruleset=resolve("changsha", {"dahu_stack": "double"}))
    assert dbl.steps[1] == "H = 6 × 2^(2−1) × B = 12" and dbl.points == 12
    assert score("123m456m789p234s56s").steps == []


def test_a_moments_win_context_is_made_once_and_read_from_the_table():
    """``win_context`` gives one frozen WinContext per moment (kept by its fields); another tile,
    an accepted 海底 (海底 units) or a passed reveal (杠上炮) is another moment."""
    from types import SimpleNamespace

    from audits.rules.changsha import play, win_context
    table = SimpleNamespace(revealed=(), revealed_by=None, sea_offers=[], melds=[["pong"], [], [], []])
    one = win_context(CS, table, 1, "discard", 4, False, False)
    assert win_context(CS, table, 1, "discard", 4, False, False) is one
    assert (one.how, one.win_tile, one.sea_bottom, one.kong_reveal, one.tiandi) == ("discard", 4, False, 0, "")
    other = win_context(CS, table, 1, "discard", 5, False, False)
    assert other is not one and other.win_tile == 5
    sea = win_context(CS, SimpleNamespace(**{**vars(table), "sea_offers": [(3, False), (0, True)]}),
                      1, "discard", 4, False, False)
    assert sea.sea_bottom and not one.sea_bottom
    declined = win_context(CS, SimpleNamespace(**{**vars(table), "sea_offers": [(3, False)]}),
                           1, "discard", 4, False, False)
    assert declined is one
    passed = win_context(CS, table, 1, "discard", 4, False, play.REVEALED)
    assert passed.kong_reveal == 1 and passed.kong_discard == play.REVEALED
