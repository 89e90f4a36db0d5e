"""A toy ruleset, defined here and nowhere in paipu: no wild tiles, no chow, a discard
win with 0 fan allowed, no face-up tail pool (a kong's replacement is the next wall
tile).  It audits and scores a small game with no edit to the walker or the check
modules: a new ruleset is a family of data plus small functions."""

from __future__ import annotations

import dataclasses

import pytest

from audits import audit_game
from audits.rules import FAMILIES, family_of, register
from audits.rules.family import Score, WinContext, variant
from audits.rules.qujing import QUJING
from schema import ruleset as rs
from schema.builder import GameBuilder
from schema.tiles import parse_hand

from .helpers import log_of

def toy_reading_fans(ruleset, concealed, melds, ctx):
    """Qujing's fans without 无鸡 (with no wild tiles every hand would have it)."""
    for names, total, reading in QUJING.scoring.reading_fans(ruleset, concealed, melds, ctx):
        kept = [n for n in names if n != "wuji"] or ["dihu"]
        yield kept, sum(QUJING.scoring.fan_values[n] for n in kept), reading


def toy_score(ruleset, concealed, melds, ctx, passed_win=False):
    best = max(toy_reading_fans(ruleset, concealed, melds, ctx), key=lambda x: x[1], default=None)
    if best is None:
        return Score(False, False, [], 0, 0, 0, None, "not a complete hand")
    names, total, reading = best
    return Score(True, True, names, total, min(total, ruleset.fan_cap), QUJING.scoring.points(total, ruleset), reading)


TOY = dataclasses.replace(
    QUJING,
    name="toy",
    # no 翻屁股: replacements come from the wall
    table=dataclasses.replace(QUJING.table, tail_pool=lambda ruleset: 0),
    # 点炮 with 0 fan is a win
    wins=dataclasses.replace(QUJING.wins, fan_enough=lambda ruleset, how, fan: True),
    scoring=dataclasses.replace(QUJING.scoring, reading_fans=toy_reading_fans, score=toy_score),
)


def test_a_variant_swaps_hooks_by_part():
    # variant() is the short spelling of the nested replace above: the same hooks, the rest shared
    short = variant(QUJING, name="toy", table={"tail_pool": TOY.table.tail_pool},
                    wins={"fan_enough": TOY.wins.fan_enough},
                    scoring={"reading_fans": toy_reading_fans, "score": toy_score})
    assert short == TOY
    assert short.claims is QUJING.claims and short.settlement is QUJING.settlement
    # near miss: a part left out keeps the base family's hooks, so the two differ there
    assert variant(QUJING, name="toy", table={"tail_pool": TOY.table.tail_pool}) != TOY
    with pytest.raises(TypeError):
        variant(QUJING, wins={"no_such_hook": None})


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.setitem(rs.PRESETS, "toy", rs.Ruleset(family="toy", wilds=(), chow=False))
    register(TOY)
    yield TOY
    FAMILIES.pop("toy", None)


def toy_game(win_fan_logged: int = 0, dealer_kong: bool = True) -> GameBuilder:
    """Seat 0 konges 2222m, takes the next wall tile as replacement and discards; seat 1
    wins on seat 0's 3p with a plain hand (0 fan: a legal discard win in the toy)."""
    b = GameBuilder("toy-1", preset="toy", fee=0)
    b.open()
    b.hand(1, dealer=0)
    b.deal("2222m345m678m234p7z", "123p456p789p456s3p", "147m258p369s1234z", "369m147p258s5676z")
    if dealer_kong:
        b.kong_concealed(0, "2m", "2m2m2m2m")
        b.draw(0, "9s")                                # the replacement: the next wall tile
        b.discard(0, "9s")
        b.draw(1, "9p")
        b.discard(1, "9p")
        b.draw(2, "8p")
        b.discard(2, "8p")
        b.draw(3, "8m")
        b.discard(3, "8m")
        b.draw(0, "5s")
        b.discard(0, "5s")
        b.draw(1, "6s")
        b.discard(1, "6s")
        b.draw(2, "7s")
        b.discard(2, "7s")
        b.draw(3, "7p")
        b.discard(3, "7p")
        b.draw(0, "4s")
        b.discard(0, "3p")
    else:
        b.discard(0, "3p")
    points = 1 * 2 ** win_fan_logged
    b.win([(1, ["dihu"] if win_fan_logged == 0 else ["qingyise"], win_fan_logged, points)], "discard", "3p",
          from_seat=0)
    b.settle([(0, 1, points, "win")], [-points, points, 0, 0])
    b.close("hands_done", [-points, points, 0, 0])
    return b


def test_the_toy_family_is_the_one_the_room_plays(toy):
    assert family_of(rs.resolve("toy")) is TOY


def test_a_zero_fan_discard_win_and_a_wall_replacement_audit_clean(toy):
    a = audit_game(log_of(toy_game()))
    assert [(f.code, f.message) for f in a.findings] == []
    assert a.ledger == [[-1, 1, 0, 0]]


def test_the_toy_scores_with_its_family(toy):
    hand = parse_hand("123p456p789p456s3p3p")
    score = TOY.scoring.score(rs.resolve("toy"), hand, (), WinContext("discard", parse_hand("3p")[0]))
    assert score.complete and score.fan == 0 and TOY.wins.fan_enough(rs.resolve("toy"), "discard", score.fan)


def test_near_miss_the_same_log_under_qujing_is_judged_by_qujing(toy):
    # the walker and checks are the same; only the family differs
    b = toy_game(dealer_kong=False)
    a = audit_game(log_of(b))
    assert a.findings == []
    import msgspec
    opened = msgspec.structs.replace(b.events[0], preset="qujing-baiban")
    events = [opened, *b.events[1:]]
    from schema.reader import GameLog
    found = audit_game(GameLog(game=b.game, file="toy.jsonl", events=events, lines=list(range(1, len(events) + 1))))
    codes = [f.code for f in found.findings]
    # under Qujing the same log lacks the face-up tail pair, and the hand scores 无鸡
    assert codes == ["TAIL_REFILL_WRONG", "FAN_MISMATCH"]


def test_a_wrong_logged_fan_is_still_found_in_the_toy(toy):
    a = audit_game(log_of(toy_game(win_fan_logged=2)))
    assert [f.code for f in a.findings] == ["FAN_MISMATCH"]
