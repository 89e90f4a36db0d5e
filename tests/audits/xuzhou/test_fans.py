"""不计番 (xuzhou.md §7, §8.1, §10): the names, fan 0, P = U × B, the name findings."""

from audits.rules.family import WinContext
from audits.rules.xuzhou import fans
from schema.tiles import TILE_INDEX as T

from .helpers import rules, tiles


def _score(r, hand, how="discard", tile="9s", heavenly=""):
    return fans.score_hand(r, tiles(hand), (), WinContext(how=how, win_tile=T[tile], heavenly=heavenly))


class Logged:
    def __init__(self, names, fan=0):
        self.fans, self.fan = names, fan


def test_paopei_only_when_a_pei_runs_as_another_kind():
    r = rules("5p")
    # 白白 + 配子 read as 5p: a pong of W, no 跑配
    assert _score(r, "234m 567m 789s 99p 5z 5z 5p").fans == ["jihu"]
    # near miss: the 配子 must be 6p
    assert _score(r, "234m 567m 78s 99p 4p 5z 5p 9s").fans == ["jihu", "paopei"]


def test_tianhe_is_named_and_paid_as_a_self_draw():
    r = rules("5p")
    sc = _score(r, "234m 567m 789s 99p 456p", how="self_draw", tile="9p", heavenly="tianhe")
    assert sc.fans == ["jihu", "tianhe"] and sc.fan == 0 and sc.points == r.zimo_units * r.base
    # near miss: an ordinary self-draw carries no 天和
    assert "tianhe" not in _score(r, "234m 567m 789s 99p 456p", how="self_draw", tile="9p").fans


def test_incomplete_hand_keeps_the_points_for_the_points_check():
    sc = _score(rules("5p", dianpao_units=2), "234m 567m 789s 19p 456p")
    assert not sc.complete and sc.points == 2


def test_fan_finding():
    r = rules("5p")
    sc = _score(r, "234m 567m 78s 99p 4p 5z 5p 9s")
    assert fans.fan_finding(r, Logged(["jihu"]), sc) is None          # paopei omitted: no finding
    assert fans.fan_finding(r, Logged(["jihu", "paopei"], 1), sc) == "FAN_MISMATCH"
    assert fans.fan_finding(r, Logged(["qidui"]), sc) == "FAN_NAMES_DIFFER"


def test_reading_fans_offers_each_shape():
    r = rules("8s")
    # 1122334455667 7m... a hand that is both 七对 and 平和
    got = [names for names, fan, _ in fans.reading_fans(r, tiles("112233m 445566p 77s"), (),
                                                          WinContext(how="discard", win_tile=T["7s"]))]
    assert ["jihu"] in got and ["qidui"] in got
    assert all(fan == 0 for _, fan, _ in fans.reading_fans(r, tiles("112233m 445566p 77s"), (),
                                                             WinContext(how="discard", win_tile=T["7s"])))


def test_steps_derive_the_points():
    sc = _score(rules("5p", dianpao_units=3, base=2), "234m 567m 78s 99p 4p 5z 5p 9s")
    assert sc.points == 6
    assert any("P = U × B = 3 × 2 = 6" in s for s in sc.steps)
    assert any("跑配成牌" in s for s in sc.steps) and any("W = 5p, 白板 reads as 5p" in s for s in sc.steps)


def test_every_name_is_worth_nothing():
    assert set(fans.FAN_VALUES.values()) == {0}
    assert fans.fan_enough(rules("5p"), "discard", 0)
