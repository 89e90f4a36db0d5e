"""Every finding code: a minimal log that triggers it and only it, and a near miss that does not."""

from __future__ import annotations

import pytest

from audits.audit import audit_game
from audits.catalogue import CATALOGUE
from schema.builder import GameBuilder
from schema.reader import GameLog

from .helpers import (BASE_DEAL, CLAIMS_DEAL, GUOHU_DEAL, KONG_DEAL, ROB_DEAL, added_kong_of_7z, log_of, scenario,
                      selfdraw_game)


def replace(steps: dict):
    """A ``plant`` function for :func:`selfdraw_game` from {step: fn(builder)} (None drops the step)."""
    def plant(b, step):
        if step in steps:
            fn = steps[step]
            if fn is not None:
                fn(b)
            return True
        return False
    return plant


def game(**steps):
    kw = steps.pop("_kw", {})
    return selfdraw_game(plant=replace(steps), **kw)


def scores_close(scores):
    return {"close": lambda b: b.close("hands_done", scores)}


def settled(transfers, scores, **more):
    return dict(settle=lambda b: b.settle(transfers, scores), close=lambda b: b.close("hands_done", scores), **more)


def events_without(b: GameBuilder, index: int) -> GameLog:
    log = log_of(b)
    del log.events[index]
    del log.lines[index]
    return log


def events_with_copy(b: GameBuilder, index: int) -> GameLog:
    log = log_of(b)
    log.events.insert(index + 1, log.events[index])
    log.lines.insert(index + 1, log.lines[index] + 1)
    return log


# --- the wall for the clean game, in draw order --------------------------------

def clean_wall(swap_second_draw: bool = False) -> list[str]:
    from schema.builder import spell
    from schema.tiles import TILE_NAMES, full_set
    deal = [spell(h) for h in BASE_DEAL]
    draws = ["9p", "9p", "8m", "5p"]
    used = [t for h in deal for t in h] + draws + ["9s", "8s"]
    rest = list(map(TILE_NAMES.__getitem__, full_set()))
    for t in used:
        rest.remove(t)
    if swap_second_draw:
        draws = ["9p", rest.pop(0), "8m", "5p"]
        rest.append("9p")
    return deal[0] + deal[1] + deal[2] + deal[3] + draws + rest + ["8s", "9s"]


def walled(**steps):
    swap = steps.pop("_swap", False)
    return game(hand=lambda b: b.hand(1, dealer=0, wall=clean_wall(swap)), **steps)


# --- short scenarios -----------------------------------------------------------

def kong_open(b, replacement="tail", refill=True):
    b.kong_concealed(0, "2m")
    if replacement == "tail":
        b.draw(0, "9s", source="tail")
    elif replacement == "wall":
        b.draw(0, "9m")
    if refill:
        b.tail("7s")
    b.discard(0, "7z")


def guoshou_peng(intervening_draw: bool):
    def body(b):
        b.discard(0, "7z")           # seat 3 could pong 7z and does not
        if intervening_draw:
            for seat, tile in ((1, "9p"), (2, "9p"), (3, "8m")):
                b.draw(seat, tile)
                b.discard(seat, tile)
            b.draw(0, "6z")
            b.discard(0, "6z")
        b.draw(1, "7z")
        b.discard(1, "7z")
        b.pong(3, 1, "7z", "7z7z")
        b.discard(3, "6z" if not intervening_draw else "9m")
    return scenario(CLAIMS_DEAL, body)


def guoshou_gang(intervening_draw: bool):
    def body(b):
        b.discard(0, "7z")           # seat 3 could kong 7z with 7z7z + a chicken and does not
        if intervening_draw:
            for seat, tile in ((1, "9p"), (2, "9p"), (3, "8m")):
                b.draw(seat, tile)
                b.discard(seat, tile)
            b.draw(0, "6z")
            b.discard(0, "6z")
        b.draw(1, "7z")
        b.discard(1, "7z")
        b.kong_exposed(3, 1, "7z", "7z7z1s")
    return scenario(CLAIMS_DEAL, body)


def guohu(passed: bool):
    def body(b):
        b.discard(0, "7z" if passed else "9m")   # seat 2 waits on 7z (无鸡 1 fan)
        b.draw(1, "7z")
        b.discard(1, "7z")
        b.win([(2, ["wuji"], 1, 2)], "discard", "7z", from_seat=1)
    deal = GUOHU_DEAL if passed else ("123456789m2345p7z", GUOHU_DEAL[1], GUOHU_DEAL[2], "369m147p258s5676z")
    return scenario(deal, body)


def priority(declared_win: bool):
    def body(b):
        b.discard(0, "7z")
        if declared_win:
            b.declare(2, "win")
        else:
            b.pass_(2, ["win"])
        b.declare(3, "pong")
        b.pong(3, 0, "7z", "7z7z")
        b.discard(3, "6z")
    deal = (CLAIMS_DEAL[0], CLAIMS_DEAL[1], "234m567m789p222z7z", "369m147p25s11s677z")
    return scenario(deal, body)


def missed_win(declared: bool):
    def body(b):
        b.discard(0, "7z")
        if declared:
            b.declare(2, "win")
        else:
            b.pass_(2, ["win"])
        b.draw(1, "9p")
        b.discard(1, "9p")
    return scenario(GUOHU_DEAL, body)


def zero_fan(tile: str):
    def body(b):
        b.discard(0, "7z")
        b.draw(1, tile)
        b.discard(1, tile)
        fans = ["wuji"] if tile == "1s" else []
        b.win([(2, fans, len(fans) if tile == "1s" else 0, 2 if tile == "1s" else 1)], "discard", tile, from_seat=1)
    return scenario((BASE_DEAL[0], BASE_DEAL[1], "234m567m789p222z1s", BASE_DEAL[3]), body)


def rob(added: bool, transfers=None):
    """Seat 3 pongs 7z, later draws the fourth 7z and adds it; seat 2 (chicken single wait) robs it."""
    b = GameBuilder("g-rob")
    if added:
        added_kong_of_7z(b)
        tile = "7z"
    else:
        b.open()
        b.hand(1, dealer=0)
        b.deal(*ROB_DEAL)
        b.tail("9s", "8s")
        b.discard(0, "7z")
        b.draw(1, "9p")
        b.discard(1, "9p")
        b.draw(2, "8p")
        b.discard(2, "8p")
        b.draw(3, "3m")
        b.kong_concealed(3, "7z", "7z7z1s1s")  # 暗杠 (2 natural + 2 chickens) cannot be robbed
        tile = "7z"
    b.declare(2, "win")
    b.win([(2, ["dihu"], 0, 1)], "robbed_kong", tile, from_seat=3)
    t = transfers if transfers is not None else [(3, 2, 3, "qianggang")]
    scores = [0, 0, 0, 0]
    for p, q, a, _ in t:
        scores[p] -= a
        scores[q] += a
    b.settle(t, scores)
    b.close("hands_done", scores)
    return b


def multi(order):
    b = GameBuilder("g-multi")
    b.open()
    b.hand(1, dealer=0)
    b.deal("123456789m2345p7z", "147m258p369s1234z", "234m567m789p222z7z", "345m678p234s333z7z")
    b.tail("9s", "8s")
    b.discard(0, "7z")
    b.declare(2, "win")
    b.declare(3, "win")
    b.win([(2, ["wuji"], 1, 2), (3, ["wuji"], 1, 2)], "discard", "7z", from_seat=0)
    b.settle([(0, s, 2, "win") for s in order], [-4, 0, 2, 2])
    b.close("hands_done", [-4, 0, 2, 2])
    return b


def three_seat(refund: bool):
    b = GameBuilder("g-3", fee=8)
    b.open()
    b.resize(["A", "B", "C"])
    b.hand(1, dealer=0)
    b.deal(BASE_DEAL[0], BASE_DEAL[1], BASE_DEAL[2])
    b.tail("9s", "8s")
    b.discard(0, "7z")
    b.draw(1, "9p")
    b.discard(1, "9p")
    b.draw(2, "9p")
    b.discard(2, "9p")
    b.draw(0, "5p")
    b.win([(0, ["wuji", "menqing_zimo"], 2, 4)], "self_draw", "5p")
    b.settle([(1, 0, 4, "win"), (2, 0, 4, "win")], [8, -4, -4])
    b.fee(0, 8)
    if refund:
        b.refund(0, 2)
    b.close("hands_done", [8, -4, -4])
    return b


def qiaoluo(bad_floor=False, next_hand=False):
    kw = {"options": {"qiaoluo": True, "qiaoluo_points": 3}, "start_points": 3}  # a short 敲锣 for the test
    paid = 4 if bad_floor else 3
    scores = [3 + 3 * paid, 3 - paid, 3 - paid, 3 - paid]
    steps = {"_kw": kw, "settle": lambda b: b.settle([(s, 0, paid, "win") for s in (1, 2, 3)], scores)}
    if next_hand:
        steps["close"] = lambda b: (b.hand(2, dealer=0), b.close("knocked_out", scores))
    else:
        steps["close"] = lambda b: b.close("knocked_out", scores)
    return game(**steps)


def drawn(reserve: int, reported: int = 80):
    """黄庄 where 80 tiles remain (reported as ``reported``), under a reserve of ``reserve``."""
    return game(_kw={"options": {"draw_reserve": reserve}},
                r0=lambda b: b.exhausted(reported), win=None,
                settle=lambda b: b.settle([], [0, 0, 0, 0]), close=lambda b: b.close("hands_done", [0, 0, 0, 0]))


YZ = {"options": {"yangzhu": True}}


def yangzhu(right: bool):
    t = [(1, 0, 4, "win"), (1, 0, 3, "yangzhu"), (2, 0, 4, "win"), (2, 0, 1, "yangzhu"),
         (3, 0, 4, "win"), (3, 0, 1, "yangzhu")]
    if not right:
        t = [x for x in t if not (x[0] == 1 and x[3] == "yangzhu")]
    scores = [17, -7, -5, -5] if right else [14, -4, -5, -5]
    return game(_kw=YZ, hand=lambda b: (b.hand(1, dealer=0), b.bet(0, 1), b.bet(1, 2)),
                **settled(t, scores))


def dianji(right: bool):
    t = [(1, 0, 4, "win"), (2, 0, 4, "win"), (3, 0, 4, "win")]
    if right:
        t += [(0, 1, 1, "dianji"), (2, 1, 1, "dianji"), (3, 1, 1, "dianji")]
    scores = [11, -1, -5, -5] if right else [12, -4, -4, -4]
    return game(_kw={"options": {"dianji": True}}, r1=lambda b: b.draw(1, "1s"), d1=lambda b: b.discard(1, "1s"),
                **settled(t, scores))


CASES = {
    "STREAM_SEQ_GAP": (lambda: events_without(selfdraw_game(), 5), lambda: log_of(selfdraw_game())),
    "STREAM_SEQ_REPEAT": (lambda: events_with_copy(selfdraw_game(), 5), lambda: log_of(selfdraw_game())),
    "GAME_TRUNCATED": (lambda: log_of(game(close=None)), lambda: log_of(selfdraw_game())),
    "STRUCTURAL_BREAK": (lambda: game(d1=lambda b: b.discard(1, "5m")), selfdraw_game),
    "TILE_OVERCOUNT": (lambda: game(r1=lambda b: b.draw(1, "5p"), d1=lambda b: b.discard(1, "5p")), selfdraw_game),
    "HAND_SIZE": (lambda: game(deal=lambda b: b.deal(BASE_DEAL[0], "147m258p369s123z", BASE_DEAL[2], BASE_DEAL[3]),
                               d1=lambda b: b.discard(1, "9p")),
                  lambda: game(deal=lambda b: b.deal(BASE_DEAL[0], "147m258p369s123z6z", BASE_DEAL[2], BASE_DEAL[3]))),
    "DRAW_NOT_WALL_ORDER": (lambda: walled(_swap=True), walled),
    "TAIL_REFILL_WRONG": (lambda: scenario(KONG_DEAL, lambda b: kong_open(b, refill=False)),
                          lambda: scenario(KONG_DEAL, kong_open)),
    "KONG_REPLACEMENT_NOT_FROM_TAIL": (lambda: scenario(KONG_DEAL, lambda b: kong_open(b, replacement="wall",
                                                                                          refill=False)),
                                       lambda: scenario(KONG_DEAL, kong_open)),
    "TAIL_DRAW_WITHOUT_KONG": (lambda: game(r1=lambda b: (b.draw(1, "9s", "tail"), b.tail("7s")),
                                            d1=lambda b: b.discard(1, "9s")), selfdraw_game),
    "EXHAUSTIVE_DRAW_MISSED": (lambda: game(_kw={"options": {"draw_reserve": 80}}),
                               lambda: game(_kw={"options": {"draw_reserve": 79}})),
    "EXHAUSTIVE_DRAW_EARLY": (lambda: drawn(20), lambda: drawn(80)),
    "REMAINING_MISMATCH": (lambda: drawn(80, reported=78), lambda: drawn(80)),
    "DEALER_ROTATION": (lambda: game(close=lambda b: (b.hand(2, dealer=1), b.close("dissolved", [12, -4, -4, -4]))),
                        lambda: game(close=lambda b: (b.hand(2, dealer=0), b.close("dissolved", [12, -4, -4, -4])))),
    "TURN_ORDER": (lambda: game(r2=lambda b: b.draw(3, "9p"), d2=lambda b: b.discard(3, "9p"), r3=None, d3=None),
                   lambda: game(r3=None, d3=None, r0=lambda b: (b.draw(3, "8m"), b.discard(3, "8m"), b.draw(0, "5p")))),
    "CLAIM_CHOW_DISABLED": (lambda: scenario(CLAIMS_DEAL, lambda b: (b.discard(0, "2m"), b.chow(1, 0, "2m", "1m3m"))),
                            lambda: scenario(CLAIMS_DEAL, lambda b: (b.discard(0, "2m"), b.chow(1, 0, "2m", "1m3m")),
                                             options={"chow": True})),
    "CLAIM_CHOW_WRONG_SEAT": (
        lambda: scenario((CLAIMS_DEAL[0], CLAIMS_DEAL[2], CLAIMS_DEAL[1], CLAIMS_DEAL[3]),
                         lambda b: (b.discard(0, "2m"), b.chow(2, 0, "2m", "1m3m")), options={"chow": True}),
        lambda: scenario(CLAIMS_DEAL, lambda b: (b.discard(0, "2m"), b.chow(1, 0, "2m", "1m3m")),
                         options={"chow": True})),
    "CLAIM_WILD_IN_CHOW": (lambda: scenario(CLAIMS_DEAL, lambda b: (b.discard(0, "2m"), b.chow(1, 0, "2m", "1m1s")),
                                            options={"chow": True}),
                           lambda: scenario(CLAIMS_DEAL, lambda b: (b.discard(0, "2m"), b.chow(1, 0, "2m", "1m3m")),
                                            options={"chow": True})),
    "CLAIM_MELD_INVALID": (lambda: scenario(CLAIMS_DEAL, lambda b: (b.discard(0, "2m"), b.chow(1, 0, "2m", "1m4m")),
                                            options={"chow": True}),
                           lambda: scenario(CLAIMS_DEAL, lambda b: (b.discard(0, "2m"), b.chow(1, 0, "2m", "3m4m")),
                                            options={"chow": True})),
    "CLAIM_TILES_NOT_IN_HAND": (lambda: scenario(BASE_DEAL, lambda b: (b.discard(0, "7z"), b.pong(3, 0, "7z"))),
                                lambda: scenario(CLAIMS_DEAL, lambda b: (b.discard(0, "7z"), b.pong(3, 0, "7z")))),
    "CLAIM_WILD_IN_PONG": (lambda: scenario(CLAIMS_DEAL, lambda b: (b.discard(0, "7z"), b.pong(3, 0, "7z", "7z1s"))),
                           lambda: scenario(CLAIMS_DEAL, lambda b: (b.discard(0, "7z"), b.pong(3, 0, "7z", "7z7z")))),
    "KONG_ILLEGAL_CHICKENS": (
        lambda: scenario(CLAIMS_DEAL, lambda b: (b.discard(0, "7z"), b.kong_exposed(3, 0, "7z", "7z1s1s"))),
        lambda: scenario(CLAIMS_DEAL, lambda b: (b.discard(0, "7z"), b.kong_exposed(3, 0, "7z", "7z7z1s")))),
    "CLAIM_PRIORITY": (lambda: priority(True), lambda: priority(False)),
    "GUOSHOU_PENG": (lambda: guoshou_peng(False), lambda: guoshou_peng(True)),
    "GUOSHOU_GANG": (lambda: guoshou_gang(False), lambda: guoshou_gang(True)),
    "WIN_INCOMPLETE": (lambda: game(r0=lambda b: b.draw(0, "6p"),
                                    win=lambda b: b.win([(0, ["wuji", "menqing_zimo"], 2, 4)], "self_draw", "6p")),
                       selfdraw_game),
    "WIN_ZERO_FAN_DISCARD": (lambda: zero_fan("9p"), lambda: zero_fan("1s")),
    "WIN_DURING_GUOHU": (lambda: guohu(True), lambda: guohu(False)),
    "ROB_CONCEALED_KONG": (lambda: rob(False), lambda: rob(True)),
    "WIN_MISSED_MULTI": (lambda: missed_win(True), lambda: missed_win(False)),
    # birds (扎鸟) in a Qujing room, whose rules draw none; the near miss: the same game without them
    "EVENT_NOT_IN_RULESET": (lambda: game(win=lambda b: (b.win([(0, ["wuji", "menqing_zimo"], 2, 4)], "self_draw",
                                                                "5p"), b.birds(["1m"], origin=0, source="last"))),
                             selfdraw_game),
    "FAN_MISMATCH": (lambda: game(win=lambda b: b.win([(0, ["menqing_zimo"], 1, 2)], "self_draw", "5p"),
                                  **settled([(1, 0, 2, "win"), (2, 0, 2, "win"), (3, 0, 2, "win")], [6, -2, -2, -2])),
                     selfdraw_game),
    "POINTS_MISMATCH": (lambda: game(win=lambda b: b.win([(0, ["wuji", "menqing_zimo"], 2, 3)], "self_draw", "5p"),
                                     **settled([(1, 0, 3, "win"), (2, 0, 3, "win"), (3, 0, 3, "win")],
                                               [9, -3, -3, -3])),
                        selfdraw_game),
    "TRANSFER_MISMATCH": (lambda: game(**settled([(1, 0, 4, "win"), (2, 0, 4, "win"), (3, 0, 3, "win")],
                                                 [11, -4, -4, -3])),
                          selfdraw_game),
    "QIANGGANG_PAYER": (lambda: rob(True, [(3, 2, 1, "win"), (0, 2, 1, "win"), (1, 2, 1, "win")]),
                        lambda: rob(True)),
    "MULTI_WIN_ORDER": (lambda: multi([3, 2]), lambda: multi([2, 3])),
    "YANGZHU_MISMATCH": (lambda: yangzhu(False), lambda: yangzhu(True)),
    "DIANJI_MISMATCH": (lambda: dianji(False), lambda: dianji(True)),
    "SCORE_CONTINUITY": (lambda: game(settle=lambda b: b.settle([(1, 0, 4, "win"), (2, 0, 4, "win"),
                                                                 (3, 0, 4, "win")], [12, -4, -4, -3]),
                                      close=lambda b: b.close("hands_done", [12, -4, -4, -3])),
                         selfdraw_game),
    "SCORE_MISMATCH": (lambda: game(close=lambda b: b.close("hands_done", [0, 0, 0, 0])), selfdraw_game),
    "SCORE_BELOW_ZERO": (lambda: qiaoluo(bad_floor=True), lambda: qiaoluo()),
    "GAME_NOT_ENDED_AT_ZERO": (lambda: qiaoluo(next_hand=True), lambda: qiaoluo()),
    "FEE_NOT_CHARGED": (lambda: game(fee=None), selfdraw_game),
    "FEE_CHARGED_EARLY": (lambda: game(hand=lambda b: (b.fee(0, 4), b.hand(1, dealer=0)), fee=None), selfdraw_game),
    "FEE_CHARGED_TWICE": (lambda: game(fee=lambda b: (b.fee(0, 4), b.fee(0, 4))), selfdraw_game),
    "FEE_ON_DISSOLVED": (lambda: _dissolved(True), lambda: _dissolved(False)),
    "FEE_AMOUNT": (lambda: game(fee=lambda b: b.fee(1, 4)), selfdraw_game),
    "REFUND_MISSING": (lambda: three_seat(False), lambda: three_seat(True)),
    "REFUND_UNEXPECTED": (lambda: game(fee=lambda b: (b.fee(0, 4), b.refund(0, 1))), selfdraw_game),
}


def _dissolved(charged: bool):
    b = GameBuilder("g-dis", fee=4)
    b.open()
    if charged:
        b.fee(0, 4)
    b.close("dissolved", [0, 0, 0, 0])
    return b


def _audit(make):
    got = make()
    log = got if isinstance(got, GameLog) else log_of(got)
    return audit_game(log)


@pytest.mark.parametrize("code", sorted(CASES))
def test_code_triggers_alone_and_near_miss_is_clean(code):
    bad, near = CASES[code]
    a = _audit(bad)
    assert [f.code for f in a.findings] == [code], [(f.code, f.seq, f.message) for f in a.findings]
    f = a.findings[0]
    assert f.severity == CATALOGUE[code].severity and f.rule == CATALOGUE[code].rule and f.game
    clean = _audit(near)
    assert clean.findings == [], [(f.code, f.seq, f.message) for f in clean.findings]


def test_unreadable_line_is_a_finding_and_stops_the_game(tmp_path):
    from schema.reader import read_games
    b = selfdraw_game()
    lines = b.jsonl().splitlines()
    lines[6] = lines[6].replace(b'"9p"', b'"0x"')
    p = tmp_path / "g.jsonl"
    p.write_bytes(b"\n".join(lines) + b"\n")
    (log,), orphans = read_games([str(p)])
    a = audit_game(log)
    assert [f.code for f in a.findings] == ["STREAM_UNREADABLE_LINE"] and not a.complete
    assert a.findings[0].line == 7
    good = tmp_path / "ok.jsonl"
    good.write_bytes(b.jsonl())
    (log,), _ = read_games([str(good)])
    assert audit_game(log).findings == []


def test_every_catalogue_code_is_covered_by_a_test():
    from .test_audit_defects import NEW_CASES
    from .sichuan.test_codes import COVERED as SICHUAN  # sichuan.md §14
    from schema.seal import KINDS
    sealed = {code for code, _rule in KINDS.values()}  # each kind: tests/reliability/test_seal.py
    from .test_guangdong_examples import GUANGDONG_CODES
    from .test_toy_families_ground import GROUND_CODES  # the shared ground's codes, on toy families
    from .wuhan.test_codes import COVERED as WUHAN  # wuhan.md §13, near misses as logs
    from .changsha.test_codes import COVERED as CHANGSHA  # changsha.md §14
    from .wenzhou.test_logs import WENZHOU_CODES  # wenzhou.md §13
    from .hainan.test_findings import HAINAN_CODES  # hainan.md §13's new codes
    covered = set(CASES) | NEW_CASES | sealed | SICHUAN | {"STREAM_UNREADABLE_LINE", "INTERNAL_ERROR"} \
        | GUANGDONG_CODES | GROUND_CODES | WUHAN | CHANGSHA | WENZHOU_CODES | HAINAN_CODES
    from audits.catalogue import AWAITING_FAMILY  # catalogued ahead of the families that emit them
    assert not covered & AWAITING_FAMILY, sorted(covered & AWAITING_FAMILY)
    assert covered | AWAITING_FAMILY == set(CATALOGUE), sorted(set(CATALOGUE) - covered - AWAITING_FAMILY)


def test_structural_break_marks_the_game_incomplete_and_keeps_the_prefix():
    a = _audit(lambda: game(d1=lambda b: b.discard(1, "5m"), settle=lambda b: b.settle([], [1, 1, 1, 1])))
    assert not a.complete and [f.code for f in a.findings] == ["STRUCTURAL_BREAK"]
    assert a.findings[0].seq == 6 and a.findings[0].actual == "tile_not_in_hand"


def test_a_desynchronised_wall_is_reported_once_per_hand_with_a_count():
    wall = clean_wall()
    # the four draws after the deal come out of order: every one is off the wall
    wall[53:57] = ["5p", "8m", "9p", "9p"]
    a = audit_game(log_of(game(hand=lambda b: b.hand(1, dealer=0, wall=wall))))
    assert [f.code for f in a.findings] == ["DRAW_NOT_WALL_ORDER"]
    f = a.findings[0]
    assert f.seq == 5 and f.expected == "5p" and f.actual == "9p"
    assert "(and 3 later event(s) of this hand)" in f.message


def _tianhu(seat: int):
    b = GameBuilder("g-tianhu")
    b.open()
    b.hand(1, dealer=0)
    b.deal("123456789m23455p", "147m258p369s1234z", "147m258p369s1234z", "123456789m2346p")
    b.tail("9s", "8s")
    b.win([(seat, ["wuji", "menqing_zimo"], 2, 4)], "self_draw", "5p")
    t = [((seat + k) % 4, seat, 4, "win") for k in (1, 2, 3)]
    scores = [-4, -4, -4, -4]
    scores[seat] = 12
    b.settle(t, scores)
    b.close("hands_done", scores)
    return b


def test_the_dealer_may_win_on_the_first_fourteen_tiles_but_no_one_else_out_of_turn():
    assert audit_game(log_of(_tianhu(0))).findings == []
    codes = [f.code for f in audit_game(log_of(_tianhu(3))).findings]
    assert codes[0] == "TURN_ORDER"


def test_a_bug_in_paipu_is_an_internal_error_not_a_finding_about_the_log(monkeypatch):
    from audits import audit as walker
    from audits.checks import table

    def broken(ctx, e):
        raise ZeroDivisionError("planted")
    monkeypatch.setitem(walker.HANDLERS, type(game().events[4]), broken)
    a = _audit(lambda: game())
    assert [f.code for f in a.findings] == ["INTERNAL_ERROR"] and a.internal_error and not a.complete
    assert "ZeroDivisionError" in a.findings[0].message
    # near miss: the same game with the real check audits clean
    monkeypatch.setitem(walker.HANDLERS, type(game().events[4]), table.tile_discarded)
    assert _audit(lambda: game()).findings == []


def test_a_passed_pong_bars_only_where_the_family_keeps_pong_passes(monkeypatch):
    # the same play (seat 3 lets a 7z go, then pongs the next 7z before its own draw) is
    # GUOSHOU_PENG under Qujing, which keeps pong passes, and nothing in a family that keeps none
    import dataclasses

    from audits.rules import registry

    assert [f.code for f in _audit(lambda: guoshou_peng(False)).findings] == ["GUOSHOU_PENG"]
    qujing = registry.FAMILIES["qujing"]
    monkeypatch.setitem(registry.FAMILIES, "qujing",
                        dataclasses.replace(qujing, claims=dataclasses.replace(qujing.claims, tile_passes=())))
    assert _audit(lambda: guoshou_peng(False)).findings == []


# --- events only some rulesets log (TableRules.events) -------------------------------------------

def _with_event(make, after: str):
    """The clean Qujing game with one event only some rulesets log, written after step ``after``."""
    def plant(b: GameBuilder, name: str) -> bool:
        if name != after:
            return False
        {"deal": lambda: b.deal(*BASE_DEAL), "win": lambda: b.win([(0, ["wuji", "menqing_zimo"], 2, 4)],
                                                                   "self_draw", "5p")}[after]()
        make(b)
        return True
    return selfdraw_game(plant=plant)


@pytest.mark.parametrize("name, make, after", [
    ("VoidDeclared", lambda b: b.void(1, "m"), "deal"),
    ("TilesExchanged", lambda b: b.exchange("next", "123m", "147m", "258m", "369m"), "deal"),
    ("OpeningWinDeclared", lambda b: b.opening_win(0, ["qs_sixi"], "1m"), "deal"),
    ("LastTileOffered", lambda b: b.offer_last(1, False), "deal"),
    ("BirdsDrawn", lambda b: b.birds(["1m"], origin=0, source="last"), "win"),
])
def test_an_event_the_rooms_ruleset_does_not_have_is_a_finding(name, make, after):
    # Qujing logs none of these (定缺, 换三张, 起手胡, 海底 offers, birds): each is EVENT_NOT_IN_RULESET,
    # named with the event's type; the log's own table still goes on (later findings are its own)
    found = [f for f in _audit(lambda: _with_event(make, after)).findings if f.code == "EVENT_NOT_IN_RULESET"]
    assert [f.actual for f in found] == [name]


def test_each_family_declares_only_events_some_rulesets_log():
    # near miss of the rule: every family's own special events are declared (its clean samples,
    # golden-tested, log them with no finding), and none declares an event every ruleset has
    from audits.rules import FAMILIES
    from audits.rules.family import SPECIAL_EVENTS
    from schema import events as ev

    declared = {name: fam.table.events for name, fam in FAMILIES.items()}
    assert all(events <= SPECIAL_EVENTS for events in declared.values())
    assert declared["sichuan"] == {ev.VoidDeclared, ev.TilesExchanged}
    assert declared["changsha"] >= {ev.BirdsDrawn, ev.OpeningWinDeclared, ev.KongRevealed, ev.LastTileOffered}
    assert declared["qujing"] == declared["guangdong"] == frozenset()


# --- a payment for a reason the room's family never pays ----------------------------------------

def _guangdong_paying(extra: bool):
    """Guangdong's §12.1 sample, its settlement with (``extra``) one more payment, for 点鸡,
    which no Guangdong settlement makes; the scores follow the payments, so only the reason is wrong."""
    import copy
    from pathlib import Path

    import msgspec

    from schema import events as ev
    from schema.reader import LogReader

    path = Path(__file__).resolve().parents[2] / "sample_logs" / "guangdong" / "clean" / "gd_ex01_jihu_discard.jsonl"
    log = next(LogReader([str(path)]).games())
    if not extra:
        return log
    out = copy.copy(log)
    events, bump = [], [0, 0, 0, 0]
    for e in log.events:
        if type(e) is ev.HandSettled and not any(bump):
            e = msgspec.structs.replace(e, transfers=list(e.transfers) + [ev.Transfer(payer=1, payee=2, amount=1,
                                                                                      reason="dianji")])
            bump = [0, -1, 1, 0]
        if type(e) in (ev.HandSettled, ev.GameClosed) and any(bump):
            e = msgspec.structs.replace(e, scores=[s + d for s, d in zip(e.scores, bump)])
        events.append(e)
    out.events = events
    return out


def test_a_payment_for_a_reason_the_family_never_pays_is_a_wrong_payment():
    # the shared comparison counts a reason the family names in no group with its win payments
    # (checks/scoring.transfer_groups): Guangdong pays no 点鸡; near miss: the sample as logged
    assert [f.code for f in audit_game(_guangdong_paying(True)).findings] == ["TRANSFER_MISMATCH"]
    assert audit_game(_guangdong_paying(False)).findings == []


def test_every_family_compares_every_payment_reason():
    from audits.checks.scoring import transfer_groups
    from audits.rules import FAMILIES
    from schema import events as ev
    import typing

    for fam in FAMILIES.values():
        named = {r for reasons, _code in transfer_groups(fam.settlement) for r in reasons}
        assert named | set(fam.settlement.net_reasons[0]) == set(typing.get_args(ev.TransferReason)), fam.name


def test_remaining_is_counted_as_the_ruleset_counts_it():
    """Qujing with ``draw_reserve_counts_tail`` off leaves the two face-up tail tiles out of the
    remaining count: the same 黄庄 holds at 78 and is misreported at 80 (the default's count)."""
    def off(reported: int):
        return game(_kw={"options": {"draw_reserve": 78, "draw_reserve_counts_tail": False}},
                    r0=lambda b: b.exhausted(reported), win=None,
                    settle=lambda b: b.settle([], [0, 0, 0, 0]), close=lambda b: b.close("hands_done", [0, 0, 0, 0]))

    assert [f.code for f in audit_game(log_of(off(78))).findings] == []
    found = [(f.code, f.expected, f.actual) for f in audit_game(log_of(off(80))).findings]
    assert found == [("REMAINING_MISMATCH", 78, 80)]
