"""Sichuan money (sichuan.md §10): every payment kind against the §13 worked examples."""

from audits.ledger import net_of
from audits.rules.sichuan.settlement import Book, next_dealer

from .helpers import SC, XZ, rules


def nets(book: Book) -> list[int]:
    return net_of(book.transfers, 4)


def test_discard_win_example_1_and_next_dealer():
    b = Book(SC)
    b.win([(1, 1)], "discard", 3)
    assert nets(b) == [0, 1, 0, -1]
    assert next_dealer(SC, 0, b.first) == 1
    m = Book(SC)
    m.win([(1, 1), (2, 1)], "discard", 3)
    assert next_dealer(SC, 0, m.first) == 3


def test_self_draw_jiadi_example_2_and_options():
    for opt, each in (("jiadi", 9), ("jiafan", 8), ("none", 8)):
        b = Book(rules(zimo_bonus=opt))
        b.win([(2, 8)], "self_draw")
        assert nets(b) == [-each, -each, 3 * each, -each]


def test_kongs_and_exhaustive_checks_example_4():
    b = Book(SC)
    b.kong(1, "kong_exposed", 3)
    b.kong(2, "kong_added")
    b.kong(0, "kong_concealed")
    b.exhausted({0: ("ready", 2), 1: ("not_ready", 0), 2: ("huazhu", 0), 3: ("ready", 0)})
    assert nets(b) == [18, 1, -26, 7]
    assert next_dealer(SC, 0, b.first) == 1
    assert next_dealer(rules(draw_dealer="stay"), 0, b.first) == 0


def test_end_check_options():
    def run(**o):
        b = Book(rules(**o))
        b.kong(1, "kong_exposed", 3)
        b.exhausted({0: ("ready", 2), 1: ("not_ready", 0), 2: ("huazhu", 0), 3: ("ready", 0)})
        return {r: sum(t.amount for t in b.transfers if t.reason == r)
                for r in ("kong", "huazhu", "dajiao", "tuishui")}
    assert run() == {"kong": 2, "huazhu": 24, "dajiao": 5, "tuishui": 2}
    assert run(huazhu_penalty=16)["huazhu"] == 48
    assert run(chadajiao=False)["dajiao"] == 0
    assert run(tuishui=False)["tuishui"] == 0
    assert run(fan_cap=2)["huazhu"] == 12


def test_zhuanyi_example_5():
    b = Book(SC)
    b.kong(2, "kong_concealed")
    b.win([(0, 2)], "discard", 2, kong_discard=True)
    assert nets(b) == [6, -2, -2, -2]
    z = [t for t in b.transfers if t.reason == "zhuanyi"]
    assert [(t.payer, t.payee, t.amount) for t in z] == [(2, 0, 6)]


def test_zhuanyi_multi_win_example_5():
    b = Book(SC)
    b.kong(2, "kong_concealed")
    b.win([(0, 2), (3, 2)], "discard", 2, kong_discard=True)
    assert nets(b) == [0, -2, -4, 6]
    e = Book(rules(zhuanyi_multi="each"))
    e.kong(2, "kong_concealed")
    e.win([(0, 2), (3, 2)], "discard", 2, kong_discard=True)
    assert nets(e) == [6, -2, -10, 6]
    off = Book(rules(hujiao_zhuanyi=False))
    off.kong(2, "kong_concealed")
    off.win([(0, 2)], "discard", 2, kong_discard=True)
    assert nets(off) == [0, -2, 4, -2]


def test_zhuanyi_scope_all_kongs():
    b = Book(rules(zhuanyi_scope="all_kongs"))
    b.kong(2, "kong_concealed")
    b.kong(2, "kong_added")
    b.win([(0, 2)], "discard", 2, kong_discard=True)
    assert sum(t.amount for t in b.transfers if t.reason == "zhuanyi") == 9
    last = Book(SC)
    last.kong(2, "kong_concealed")
    last.kong(2, "kong_added")
    last.win([(0, 2)], "discard", 2, kong_discard=True)
    assert sum(t.amount for t in last.transfers if t.reason == "zhuanyi") == 3


def test_moved_kong_money_is_not_refunded():
    b = Book(XZ)
    b.kong(2, "kong_concealed")
    b.win([(0, 2)], "discard", 2, kong_discard=True)
    b.exhausted({1: ("ready", 0), 2: ("not_ready", 0), 3: ("ready", 0)})
    assert not [t for t in b.transfers if t.reason == "tuishui"]


def test_robbing_example_6():
    b = Book(SC)
    b.win([(3, 2)], "robbed_kong", 1)
    assert nets(b) == [0, -2, 0, 2]


def test_xuezhan_hand_example_7():
    b = Book(XZ)
    b.win([(1, 2)], "discard", 0)
    b.kong(3, "kong_concealed")
    b.win([(2, 4)], "self_draw")
    b.exhausted({0: ("not_ready", 0), 3: ("ready", 3)})
    assert nets(b) == [-17, 2, 8, 7]
    assert next_dealer(XZ, 0, b.first) == 1


def test_xuezhan_huazhu_variant_example_7():
    def run(**o):
        b = Book(rules(hand_end="xuezhan", **o))
        b.win([(1, 2)], "discard", 0)
        b.kong(3, "kong_concealed")
        b.win([(2, 4)], "self_draw")
        b.exhausted({0: ("huazhu", 0), 3: ("ready", 3)})
        return [(t.payer, t.payee, t.amount) for t in b.transfers if t.reason == "huazhu"]
    assert run() == [(0, 3, 8)]
    assert sorted(run(huazhu_pays_winners=True)) == [(0, 1, 8), (0, 2, 8), (0, 3, 8)]


def test_haidi_example_8():
    b = Book(SC)
    b.win([(1, 2)], "self_draw")
    assert nets(b) == [-3, 9, -3, -3]


def test_dianganghua_example_10():
    # 点杠花: §9.1 counts the kong as a 根, so F = 杠上开花 1 + 根 1 = 2 and P = 4 (see docs)
    z = Book(SC)
    z.kong(2, "kong_exposed", 0)
    z.win([(2, 4)], "self_draw", dianganghua_from=0)
    assert nets(z) == [-2 - 5, -5, 2 + 15, -5]
    d = Book(rules(dianganghua="dianpao"))
    d.kong(2, "kong_exposed", 0)
    d.win([(2, 4)], "self_draw", dianganghua_from=0)
    assert nets(d) == [-6, 0, 6, 0]


def test_cagua():
    b = Book(rules(cagua=True))
    b.kong(1, "kong_exposed", 3)
    assert nets(b) == [-1, 4, -1, -2]


def test_explain_names_d_only_where_it_is_paid():
    b = Book(SC, explain=True)
    b.exhausted({0: ("ready", 2), 1: ("not_ready", 0)})
    assert "seat 0: ready, best hand D = 2" in b.lines
    assert any(line.startswith("查大叫: seat 1 pays seat 0") for line in b.lines)
    # near miss: every still-in seat ready, so nobody pays 查大叫 and D was not computed
    q = Book(SC, explain=True)
    q.exhausted({0: ("ready", None), 3: ("ready", None)})
    assert q.transfers == [] and not any("D =" in line for line in q.lines)
    assert "seat 3: ready (no seat pays it 查大叫: its best hand is not needed)" in q.lines
