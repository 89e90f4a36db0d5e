"""Sichuan rules an independent review found misjudged (sichuan.md §6, §7.1, §9, §10): each
rule holding, and its near miss.

* 自摸加番 only on a self-draw paid as one (§10.4);
* 最后四张 covers robbing (§6.4);
* 过水 weighs robbing both ways (§7.1);
* the right F and P under other names is FAN_NAMES_DIFFER (§9.2, §14);
* play after the hand has ended is one HAND_END_WRONG, settled where the rules end it (§6.1);
* the highest reading under ``longqidui_fan = 4`` (§9.5), against an enumeration of readings;
* a hand holding three suits says so (``paipu hand`` without ``--void``);
* a seat that has left pays no kong: KONG_PAYMENT_UNDUE (§10.5).
"""

from __future__ import annotations

import itertools
import random

import pytest

from audits.audit import audit_game
from audits.rules.family import WinContext
from audits.rules.sichuan import fans as F
from paipu.sim.sichuan import samples
from paipu.sim.sichuan.script import Script
from schema.ruleset import resolve

from .helpers import counts, kong, pong


def audited(g: Script):
    return audit_game(g.log())


def codes(g: Script) -> list[str]:
    return sorted({f.code for f in audited(g).findings} - {"GAME_TRUNCATED"})


# --- 自摸加番 only on a self-draw paid as one (§10.4) ---------------------------------------

def _dianganghua_fans(option: str) -> list[str]:
    g = samples.ex10(option, zimo_bonus="jiafan")
    won = next(e for e in g.b.events if type(e).__name__ == "HandWon")
    return sorted(won.winners[0].fans)


def test_dianganghua_dianpao_gets_no_zimo_fan():
    assert _dianganghua_fans("dianpao") == ["gangshang_kaihua", "gen", "jihu"]
    a = audited(samples.ex10("dianpao", zimo_bonus="jiafan"))
    assert a.findings == [] and a.ledger[-1] == [-6, 0, 6, 0]


def test_dianganghua_zimo_keeps_the_zimo_fan():
    assert _dianganghua_fans("zimo") == ["gangshang_kaihua", "gen", "jihu", "zimo"]
    a = audited(samples.ex10("zimo", zimo_bonus="jiafan"))
    assert a.findings == [] and a.ledger[-1] == [-10, -8, 26, -8]


def test_dianganghua_dianpao_logged_with_zimo_is_fan_mismatch():
    g = samples.ex10("dianpao", zimo_bonus="jiafan")
    for i, e in enumerate(g.b.events):
        if type(e).__name__ == "HandWon":
            import msgspec
            w = msgspec.structs.replace(e.winners[0], fans=[*e.winners[0].fans, "zimo"], fan=3, points=8)
            g.b.events[i] = msgspec.structs.replace(e, winners=[w])
    assert "FAN_MISMATCH" in codes(g)


# --- 最后四张 covers robbing (§6.4) ---------------------------------------------------------

def _last_four_rob(robbed: bool, before_draw: int = 4) -> Script:
    """§13.6's deal: seat 1 ponged the 6s; fillers until seat 1 draws the last 6s with
    ``before_draw`` tiles left; it adds the kong; seat 3 (waiting on 6s) robs or lets it go."""
    g = Script("t-last-rob")
    g.hand(1, 0, {0: "6s111s222s333s999s5s", 1: "66s123p456p789p11p", 2: "111m222m333m9s8s7s5m",
                  3: "123m456m789m45s88s"}, voids="mmpp")
    g.discard(0, "6s")
    g.pong(1, 0, "6s")
    g.discard(1, "1p")
    s = 2
    while not (s == 1 and g.t.undrawn == before_draw):
        assert g.t.undrawn > before_draw or s != 1
        g.filler(s, ["6s", "3s"], eager=True)
        s = (s + 1) % 4
    g.draw(1, "6s")
    if robbed:
        g._do(g.b.kong_added, 1, "6s")
        g.win([3], "robbed_kong", "6s", 1)
    else:
        g.kong(1, "kong_added", "6s", replacement=g.safe_tile(1, ["3s"]))
    return g


def test_last_four_a_rob_not_taken_is_last_four_win_not_taken():
    f = audited(_last_four_rob(False)).findings
    assert [(x.code, x.seat) for x in f if x.code != "GAME_TRUNCATED"] == [("LAST_FOUR_WIN_NOT_TAKEN", 3)]


def test_last_four_a_rob_taken_is_clean():
    assert codes(_last_four_rob(True)) == []


def test_before_the_last_four_a_rob_may_be_let_go():
    assert codes(_last_four_rob(False, before_draw=8)) == []


# --- 过水 weighs robbing both ways (§7.1) ----------------------------------------------------

def test_a_rob_after_a_passed_discard_is_valued_with_its_qianggang_fan():
    a = audited(samples.rob_after_passed_discard())
    assert a.findings == [] and a.ledger[-1] == [0, -2, 0, 2]  # V 1 > M 0


def test_a_rob_after_a_passed_discard_near_miss_any_discard_bars_it():
    assert codes(samples.rob_after_passed_discard({"guoshui": "any_discard"}, "-any")) == ["WIN_DURING_GUOSHUI"]


def test_a_passed_rob_bars_a_win_no_higher():
    a = audited(samples.passed_rob_bars())
    assert [(f.code, f.seat) for f in a.findings] == [("WIN_DURING_GUOSHUI", 3)]
    assert a.ledger[-1] == [-1, 3, -1, -1]  # the barred win is paid nothing; the kong stood


def test_a_passed_rob_near_miss_guoshui_off():
    a = audited(samples.passed_rob_bars({"guoshui": "off"}, "-off"))
    assert a.findings == [] and a.ledger[-1] == [-1, -2, -1, 4]


def test_pass_rule_values_a_passed_rob_and_a_rob():
    from audits.rules.family import PassBook
    from audits.rules.sichuan.play import pass_violation
    rules = resolve("sichuan")
    book = PassBook(4, ("pong", "kong"))
    book.let_rob_go(3, 5)
    values = {("robbed_kong", 5): 1, ("discard", 7): 1, ("discard", 8): 2, ("robbed_kong", 8): 3}

    def value(seat, tile, kd, how="discard"):
        return values.get((how, tile))
    never = lambda *a: False  # noqa: E731
    assert pass_violation(book, 3, "win", 7, never, value=value, rules=rules) == "WIN_DURING_GUOSHUI"
    assert pass_violation(book, 3, "win", 8, never, value=value, rules=rules) is None
    book.clear(3)
    book.let_go(3, "win", 7)
    # a discard passed at V 1: a rob of V 1 would be barred; valued with 抢杠 (3 on 8) it is not
    assert pass_violation(book, 3, "win", 7, lambda *a: True, value=value, rules=rules) == "WIN_DURING_GUOSHUI"
    assert pass_violation(book, 3, "win", 8, lambda *a: True, value=value, rules=rules, how="robbed_kong") is None


# --- the right F and P under other names (§9.2, §14) ----------------------------------------

def test_longqidui_named_qidui_gen_is_fan_names_differ():
    assert [f.code for f in audited(samples.longqidui_as_qidui_gen()).findings] == ["FAN_NAMES_DIFFER"]


def test_names_with_another_total_are_fan_mismatch():
    rules = resolve("sichuan")
    sc = F.score(rules, counts("3333m55m77m22s44s9s9s"), (), 1)

    class W:
        fans, fan, points = ["xiaoqidui"], 3, 8  # the names add to 2, not 3
    assert F.fan_finding(rules, W, sc) == "FAN_MISMATCH"
    W.fans = ["xiaoqidui", "gen"]
    assert F.fan_finding(rules, W, sc) == "FAN_NAMES_DIFFER"
    W.fan, W.points = 4, 16
    assert F.fan_finding(rules, W, sc) == "FAN_MISMATCH"


# --- play after the hand has ended (§6.1, §6.2.5) --------------------------------------------

def test_play_after_the_first_win_is_one_hand_end_wrong_and_the_ledger_ends_there():
    a = audited(samples.play_after_end())
    assert [f.code for f in a.findings] == ["HAND_END_WRONG", "TRANSFER_MISMATCH"]
    assert a.complete and a.logged_scores[-1] == [-1, 1, 1, -1] and a.ledger[-1] == [0, 1, 0, -1]


def test_play_after_the_first_win_unpaid_is_hand_end_wrong_alone():
    a = audited(samples.play_after_end(False))
    assert [f.code for f in a.findings] == ["HAND_END_WRONG"] and a.ledger[-1] == [0, 1, 0, -1]


def test_the_hand_ended_at_its_win_near_miss_is_clean():
    g = samples.ex01_first_win("t-end-ok")
    g.settle()
    g.close()
    assert audited(g).findings == []


def test_xuezhan_play_after_the_third_winner():
    g = Script("t-xz-end", preset="sichuan-xuezhan")
    g.hand(1, 0, {0: "111p222p333p444p9s9p", 1: "234p567p33s456s78s", 2: "123m456m789m11s78s",
                  3: "444m555m666m55s78s"}, voids="smpp")
    g.discard(0, "9s")
    g.win([1, 2, 3], "discard", "9s", 0)
    g.b.draw(0, "1s", "wall")
    g.b.discard(0, "1s")
    scores = [sum(-t.amount if t.payer == s else t.amount if t.payee == s else 0 for t in g.book.transfers)
              for s in range(4)]
    g.b.settle(list(g.book.transfers), scores)
    g.b.close("hands_done", scores)
    a = audited(g)
    assert [f.code for f in a.findings] == ["HAND_END_WRONG"] and a.ledger[-1] == scores


# --- the highest reading under every fan option (§8, §9) -------------------------------------

def _reading_sets(c: list[int]) -> list[list[tuple[str, tuple[int, ...]]]]:
    """Every way to split concealed counts (0..26) into sets and one pair, independently of
    paipu's search: each set as ("pong" | "chow" | "pair", tiles)."""
    out: list = []

    def go(i: int, pair: bool, acc: list) -> None:
        while i < 27 and not c[i]:
            i += 1
        if i == 27:
            if pair:
                out.append(list(acc))
            return
        if c[i] >= 3:
            c[i] -= 3
            go(i, pair, acc + [("pong", (i, i, i))])
            c[i] += 3
        if not pair and c[i] >= 2:
            c[i] -= 2
            go(i, True, acc + [("pair", (i, i))])
            c[i] += 2
        if i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for k in (i, i + 1, i + 2):
                c[k] -= 1
            go(i, pair, acc + [("chow", (i, i + 1, i + 2))])
            for k in (i, i + 1, i + 2):
                c[k] += 1
    go(0, False, [])
    return out


def _enumerated_best(rules, conc: list[int], melds) -> int:
    """The highest F over every reading, from §9.1 read directly (no event fans)."""
    tiles = [t for t in range(27) for _ in range(conc[t])] + [t for m in melds for t in m.tiles]
    suits = {t // 9 for t in tiles}
    have = [0] * 27
    for t in range(27):
        have[t] = conc[t]
    for m in melds:
        have[m.of] += len(m.tiles)
    gens = sum(1 for t in range(27) if have[t] >= 4)
    qing = 2 if len(suits) == 1 else 0
    best = None
    for sets in _reading_sets(list(conc)):
        groups = [g for _, g in sets] + [m.tiles for m in melds]
        all_pong = all(kind != "chow" for kind, _ in sets)
        f = 0
        if all_pong:
            f += 1  # 大对子
            if len(melds) == 4:
                f += 1  # 金钩钓
            if rules.yaojiu_jiangdui and all(t % 9 in (1, 4, 7) for t in tiles):
                f += 2  # 将对
        if rules.yaojiu_jiangdui and all(any(t % 9 in (0, 8) for t in g) for g in groups):
            f += 2  # 带幺九
        total = f + qing + gens
        best = total if best is None else max(best, total)
    if not melds and all(conc[t] % 2 == 0 for t in range(27)):  # 七对 (a quad is two pairs)
        f = 2 + (2 if rules.jiang_qidui and all(t % 9 in (1, 4, 7) for t in tiles) else 0)
        f += qing + gens + (rules.longqidui_fan - 3 if gens else 0)  # 龙七对 replaces 七对 + one 根
        best = f if best is None else max(best, f)
    if rules.menqing_zhongzhang and best is not None:
        best += all(m.kind == "kong_concealed" for m in melds) + all(t % 9 not in (0, 8) for t in tiles)
    return best


#: Complete hands in at most two suits (seven pairs with quads, pongs and chows over 1s and
#: 9s, melds), plus a seeded sample of random two-suit hands built from sets and a pair.
HANDS = [("1111223344556m", "6m", ()), ("1112233m112233p", "1m", ()), ("1111m99m11p99p22m5m", "5m", ()),
         ("111m123m999p789p9m", "9m", ()), ("222m555m888m222p5p", "5p", ()), ("111m999m111p999p5m", "5m", ()),
         ("112233m112233p9m", "9m", ()), ("1239m", "9m", (pong("9p"), kong("1p"), pong("1m"))),
         ("5m", "5m", (pong("2p"), pong("8p"), kong("2m", "kong_exposed", 1), pong("8m")))]


def _random_hands(n: int) -> list:
    rng = random.Random(34)
    out = []
    while len(out) < n:
        su = rng.sample(range(3), 2)
        c = [0] * 34
        ok = True
        for _ in range(4):
            s = rng.choice(su) * 9
            if rng.random() < 0.5:
                k = s + rng.randrange(9)
                c[k] += 3
            else:
                k = s + rng.randrange(7)
                for x in (k, k + 1, k + 2):
                    c[x] += 1
        k = rng.choice(su) * 9 + rng.randrange(9)
        c[k] += 2
        if any(x > 4 for x in c):
            ok = False
        if ok:
            tiles = [t for t in range(27) for _ in range(c[t])]
            out.append(tiles)
    return out


OPTION_VALUES = {"longqidui_fan": (3, 4), "yaojiu_jiangdui": (True, False), "jiang_qidui": (False, True),
                 "menqing_zhongzhang": (False, True), "fan_cap": (3, 6)}


def _all_hands():
    from schema.tiles import tile_index
    out = []
    for conc, tile, melds in HANDS:
        c = counts(conc)
        c[tile_index(tile)] += 1
        out.append((c, melds))
    for tiles in _random_hands(150):
        c = [0] * 34
        for t in tiles:
            c[t] += 1
        out.append((c, ()))
    return out


@pytest.mark.parametrize("values", list(itertools.product(*OPTION_VALUES.values())),
                         ids=lambda v: ",".join(map(str, v)))
def test_best_reading_is_the_highest_of_every_reading(values):
    rules = resolve("sichuan", dict(zip(OPTION_VALUES, values)))
    for c, melds in _all_hands():
        held = {t // 9 for t in range(27) if c[t]} | {m.of // 9 for m in melds}
        void = next(s for s in range(3) if s not in held)
        sc = F.score(rules, c, melds, void, F.Moment(how="discard"))
        assert sc.wins, (c, melds)
        assert sc.fan == _enumerated_best(rules, c, melds), (c, melds, sc.fans)
        assert F.fan_total(sc.fans, rules) == sc.fan


def test_the_reviewed_longqidui_hand_scores_four():
    rules = resolve("sichuan", {"longqidui_fan": 4, "fan_cap": 6})
    sc = F.score_tiles(rules, sorted(counts_to_tiles("1112233m112233p1m")), (),
                       WinContext(how="discard", void=2))
    assert sc.fans == ["longqidui"] and sc.fan == 4 and sc.points == 16
    default = F.score_tiles(resolve("sichuan", {"fan_cap": 6}), sorted(counts_to_tiles("1112233m112233p1m")), (),
                            WinContext(how="discard", void=2))
    assert default.fan == 3  # 龙七对 3 and 带幺九 + 根 3 tie: either reading


def counts_to_tiles(text: str) -> list[int]:
    c = counts(text)
    return [t for t in range(34) for _ in range(c[t])]


# --- a hand holding three suits (``paipu hand`` without --void) -------------------------------

def test_a_three_suit_hand_without_a_void_says_three_suits():
    from paipu.hand_cmd import evaluate
    got = evaluate({"hand": "123m123p456789s5s", "tile": "5s", "how": "discard", "preset": "sichuan"})
    assert not got["wins"] and got["reason"] == "holds three suits (a win holds at most two)"
    near = evaluate({"hand": "123m123p456789s5s", "tile": "5s", "how": "discard", "preset": "sichuan", "void": "m"})
    assert not near["wins"] and near["reason"] == "holds its void suit"


# --- a seat that has left pays no kong (§10.5) ------------------------------------------------

def test_a_kong_charged_to_a_seat_that_has_left_is_undue():
    a = audited(samples.kong_paid_by_left_seat())
    assert [f.code for f in a.findings] == ["KONG_PAYMENT_UNDUE"]
    assert a.ledger[-1] == [-17, 2, 8, 7]


def test_a_wrong_kong_amount_between_the_right_seats_stays_a_mismatch():
    from audits.rules.sichuan.settlement import transfer_code
    expected = {(0, 3, "kong"): 2, (2, 3, "kong"): 2}
    assert transfer_code(None, "KONG_PAYMENT_MISMATCH", expected, {(0, 3, "kong"): 3, (2, 3, "kong"): 2}) \
        == "KONG_PAYMENT_MISMATCH"
    assert transfer_code(None, "KONG_PAYMENT_MISMATCH", expected, {**expected, (1, 3, "kong"): 2}) \
        == "KONG_PAYMENT_UNDUE"
    assert transfer_code(None, "TRANSFER_MISMATCH", expected, {(1, 3, "win"): 2}) == "TRANSFER_MISMATCH"


def test_paipu_hand_dianganghua_flag():
    from paipu.hand_cmd import InputError, evaluate
    req = {"hand": "123456p1789s", "tile": "1s", "melds": "kong:5555s", "how": "self_draw", "after_kong": True,
           "preset": "sichuan", "options": {"dianganghua": "dianpao", "zimo_bonus": "jiafan"}}
    assert "zimo" not in evaluate({**req, "dianganghua": True})["fans"]
    assert "zimo" in evaluate(req)["fans"]  # near miss: a 杠上开花 after one's own kong is paid as 自摸
    with pytest.raises(InputError):
        evaluate({**req, "after_kong": False, "dianganghua": True})
