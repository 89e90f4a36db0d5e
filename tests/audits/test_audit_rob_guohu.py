"""过胡 after letting a 抢杠 go: the seed bars every win until the player's own next
draw or claim (玩家过胡，在没有操作摸、碰、杠、吃之前禁胡所有牌)."""

from audits.audit import audit_game
from schema.builder import GameBuilder

from .helpers import added_kong_of_7z, log_of


def rob_passed(own_draw_between: bool) -> GameBuilder:
    """Seat 3 adds a kong of 7z; seat 2 (a chicken single wait, complete with 7z) lets it
    go; later seat 3 discards a chicken (a plain 1s) and seat 2 wins on it (无鸡)."""
    b = GameBuilder("g-rob-pass")
    added_kong_of_7z(b)
    b.pass_(2, ["win"])
    b.draw(3, "9s", source="tail")
    b.tail("8m")
    if own_draw_between:
        b.discard(3, "9s")
        b.draw(0, "5m")
        b.discard(0, "5m")
        b.draw(1, "4m")
        b.discard(1, "4m")
        b.draw(2, "8p")           # seat 2's own draw ends its 过胡
        b.discard(2, "8p")
        b.draw(3, "3m")
    b.discard(3, "1s")
    b.declare(2, "win")
    # straight after seat 3's kong replacement the discard also scores 杠上炮
    fans = ["wuji"] if own_draw_between else ["wuji", "gangshang_pao"]
    p = 2 ** len(fans)
    b.win([(2, fans, len(fans), p)], "discard", "1s", from_seat=3)
    b.settle([(3, 2, p, "win")], [0, 0, p, -p])
    b.close("hands_done", [0, 0, p, -p])
    return b


def test_win_after_letting_a_robbable_kong_go_is_a_guohu_win():
    b = rob_passed(own_draw_between=False)
    found = audit_game(log_of(b)).findings
    assert [(f.code, f.seat, f.seq) for f in found] == [("WIN_DURING_GUOHU", 2, len(b.events) - 3)]


def test_own_draw_after_the_pass_clears_it():
    assert audit_game(log_of(rob_passed(own_draw_between=True))).findings == []
