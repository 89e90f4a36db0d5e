"""四小鸡 (qujing.md §5): four chickens held win on one's own turn, paid as a self-draw;
on a discard only with option ``sixiaoji_on_discard``.  So letting a discard go while
holding four chickens is 过胡 only where a discard 四小鸡 is allowed."""

from audits import audit_game

from .helpers import SEAT1, log_of, scenario

#: seat 2 holds four chickens and nothing else that completes
SIXIAOJI_DEAL = ("123456789m2345p7z", SEAT1, "1111s258m369p4s23z", "369m147p258s5676z")
ON_DISCARD = {"sixiaoji_on_discard": True}


def discard_sixiaoji(passed_first: bool, options=None):
    def body(b):
        b.discard(0, "7z")
        if passed_first:             # seat 2 lets 7z go, then claims 四小鸡 on the next discard
            b.draw(1, "9p")
            b.discard(1, "9p")
            b.win([(2, ["sixiaoji"], 3, 8)], "discard", "9p", from_seat=1)
        else:
            b.win([(2, ["sixiaoji"], 3, 8)], "discard", "7z", from_seat=0)
    return scenario(SIXIAOJI_DEAL, body, options=options)


def self_drawn_sixiaoji():
    def body(b):
        b.discard(0, "7z")
        b.draw(1, "9p")
        b.discard(1, "9p")
        b.draw(2, "5z")              # seat 2's own turn: 四小鸡 wins as a self-draw
        b.win([(2, ["sixiaoji"], 3, 8)], "self_draw", "5z")
    return scenario(SIXIAOJI_DEAL, body)


def test_sixiaoji_on_ones_own_turn_is_a_clean_self_draw():
    assert audit_game(log_of(self_drawn_sixiaoji())).findings == []


def test_sixiaoji_on_a_discard_is_no_win_by_default():
    found = audit_game(log_of(discard_sixiaoji(passed_first=False))).findings
    assert [(f.code, f.seat) for f in found] == [("WIN_INCOMPLETE", 2)]


def test_sixiaoji_on_a_discard_wins_with_the_option():
    assert audit_game(log_of(discard_sixiaoji(passed_first=False, options=ON_DISCARD))).findings == []


def test_passing_a_discard_with_four_chickens_is_guohu_only_with_the_option():
    found = audit_game(log_of(discard_sixiaoji(passed_first=True, options=ON_DISCARD))).findings
    assert [(f.code, f.seat) for f in found] == [("WIN_DURING_GUOHU", 2)]
    # near miss: without the option the pass was no win let go; the later claim is simply no win
    found = audit_game(log_of(discard_sixiaoji(passed_first=True))).findings
    assert [(f.code, f.seat) for f in found] == [("WIN_INCOMPLETE", 2)]
