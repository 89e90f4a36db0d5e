"""A clean, rule-legal game audits clean; one planted error gives exactly that finding."""

from audits.audit import audit_game, explain_game
from audits.findings import Finding

from .helpers import KONG_DEAL, log_of, selfdraw_game


def test_clean_self_draw_game_has_no_finding():
    a = audit_game(log_of(selfdraw_game()))
    assert a.findings == []
    assert a.complete and a.hands == 1
    assert a.logged_scores == [[12, -4, -4, -4]] and a.ledger == [[12, -4, -4, -4]]
    assert a.players == ["A", "B", "C", "D"] and a.server == "paipu-sim" and a.ruleset is not None


def _kong_game(replacement_from_tail=True):
    from schema.builder import GameBuilder
    b = GameBuilder("g-kong")
    b.open()
    b.hand(1, dealer=0)
    b.deal(*KONG_DEAL)
    b.tail("9s", "8s")
    b.kong_concealed(0, "2m")
    b.draw(0, "9s", source="tail")
    b.tail("7s")
    b.discard(0, "7z")
    for seat, tile in ((1, "9p"), (2, "9p"), (3, "8m")):
        b.draw(seat, tile)
        b.discard(seat, tile)
    b.draw(0, "9s")
    b.win([(0, ["wuji", "menqing_zimo"], 2, 4)], "self_draw", "9s")
    b.settle([(1, 0, 4, "win"), (2, 0, 4, "win"), (3, 0, 4, "win")], [12, -4, -4, -4])
    b.close("hands_done", [12, -4, -4, -4])
    return b


def test_clean_game_with_a_concealed_kong_and_tail_replacement_has_no_finding():
    a = audit_game(log_of(_kong_game()))
    assert a.findings == [] and a.complete


def test_one_planted_fan_error_gives_exactly_that_finding_with_seq_and_values():
    def plant(b, step):
        if step == "win":
            b.win([(0, ["menqing_zimo"], 1, 2)], "self_draw", "5p")
            return True
        if step == "settle":
            b.settle([(1, 0, 2, "win"), (2, 0, 2, "win"), (3, 0, 2, "win")], [6, -2, -2, -2])
            return True
        if step == "close":
            b.close("hands_done", [6, -2, -2, -2])
            return True
        return False

    b = selfdraw_game(plant=plant)
    a = audit_game(log_of(b))
    assert [f.code for f in a.findings] == ["FAN_MISMATCH"]
    f = a.findings[0]
    win_seq = next(e.seq for e in b.events if type(e).__name__ == "HandWon")
    assert f.seq == win_seq and f.seat == 0 and f.hand == 1 and f.severity == "error"
    assert f.expected == {"fans": ["wuji", "menqing_zimo"], "fan": 2}
    assert f.actual == {"fans": ["menqing_zimo"], "fan": 1}
    assert isinstance(f, Finding) and f.rule
    # the corrected ledger pays the true 2 fan
    assert a.logged_scores == [[6, -2, -2, -2]] and a.ledger == [[12, -4, -4, -4]]


def test_explain_derives_the_settlement_step_by_step():
    lines = explain_game(log_of(selfdraw_game()))
    text = "\n".join(lines)
    assert "无鸡 wuji 1 + 门清自摸 menqing_zimo 1 = 2 fan" in text
    assert "P = 1 × 2^2 = 4" in text
    assert "seat 3 pays 4 to seat 0" in text
    assert lines[-1] == "no findings"
