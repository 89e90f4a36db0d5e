"""四小鸡 and 过胡: four chickens held win on any tile, so letting a discard go is a pass."""

from audits.audit import audit_game

from .helpers import SEAT1, log_of, scenario

SIXIAOJI_DEAL = ("123456789m2345p7z", SEAT1, "1111s258m369p4s23z", "369m147p258s5676z")


def sixiaoji(passed_first: bool):
    def body(b):
        b.discard(0, "7z")            # seat 2 holds four chickens: it could win on 7z
        if passed_first:
            b.draw(1, "9p")
            b.discard(1, "9p")
            b.win([(2, ["sixiaoji"], 3, 8)], "discard", "9p", from_seat=1)
        else:
            b.win([(2, ["sixiaoji"], 3, 8)], "discard", "7z", from_seat=0)
    return scenario(SIXIAOJI_DEAL, body)


def test_sixiaoji_win_after_letting_one_go_is_a_guohu_win():
    found = audit_game(log_of(sixiaoji(passed_first=True))).findings
    assert [(f.code, f.seat) for f in found] == [("WIN_DURING_GUOHU", 2)]


def test_sixiaoji_win_on_the_first_chance_is_clean():
    assert audit_game(log_of(sixiaoji(passed_first=False))).findings == []
