"""Guangdong 鸡平和 coverage: bot play over the option mixes, plus arranged rooms for
what bots rarely reach (the special hands, 天/地/人和, the liabilities, 一炮三响),
each audited: ``bench/coverage.py --family guangdong [HANDS]`` (:func:`main`).

The arranged rooms are counted apart from bot play: the worked examples of §11
(:mod:`.examples`, money typed from the text) and one self-draw room per
special hand (:func:`special_rooms`, scored by the family).
"""

from __future__ import annotations

import collections
import time
from multiprocessing import Pool
from typing import Iterator

from audits.audit import audit_game
from audits.rules import family_of
from schema import events as ev
from schema.reader import GameLog
from schema.ruleset import resolve

from ..simulate import SimConfig, SimStats, simulate_games
from .examples import EXAMPLES, OPTION_ROOMS
from .scenes import Scene

#: Option mixes the bots play (each changes play or money).
COMBOS = [
    ("default", {}),
    ("kong_payments=on_win", {"kong_payments": "on_win"}),
    ("louhe_scope=any_discard", {"louhe_scope": "any_discard"}),
    ("louhe_on_rob=false (robbing outside 漏和)", {"louhe_on_rob": False}),
    ("min_fan=1", {"min_fan": 1}),
    ("multi yipao three_shares, base 2", {"yipao_sanxiang_pay": "three_shares", "base": 2}),
    ("seven_pairs_fan=4", {"seven_pairs_fan": 4}),
    ("kong_replacement=head", {"kong_replacement": "head"}),
    ("chow=false, luodi_first", {"chow": False, "bao_precedence": "luodi_first"}),
    ("multi_win=false (截和), bao_special_trigger=discarded, gangkai_bao_chain=false",
     {"multi_win": False, "bao_special_trigger": "discarded", "gangkai_bao_chain": False}),
]

#: One concealed self-draw room per special hand: (13 tiles, the winning tile, options).
SPECIAL_HANDS = {
    "hunpeng": ("111m 333m 555m 11z 22z", "2z", {}),
    "qingpeng": ("111m 333m 555m 777m 9m", "9m", {}),
    "hunyaojiu": ("111m 999p 111s 11z 22z", "2z", {}),
    "xiaosanyuan": ("555z 666z 7z 123m 456m", "7z", {}),
    "xiaosixi": ("111z 222z 333z 4z 123m", "4z", {}),
    "ziyise": ("111z 222z 333z 555z 6z", "6z", {}),
    "qingyaojiu": ("111m 999m 111p 999p 1s", "1s", {}),
    "dasanyuan": ("555z 666z 777z 123m 4m", "4m", {}),
    "dasixi": ("111z 222z 333z 444z 5m", "5m", {}),
    "jiulian": ("1112345678999m", "5m", {}),
    "shisanyao": ("19m19p19s1234567z", "1m", {}),
    "qidui": ("1122m 3344p 5566s 7z", "7z", {"seven_pairs_fan": 4}),
}


def special_room(name: str) -> Scene:
    """Seat 1 holds the special hand's 13 tiles and self-draws the last one after a go-around."""
    hand, tile, options = SPECIAL_HANDS[name]
    s = Scene(f"gd-special-{name}", options=options)
    s.hand(0, {1: hand}, reserve=tile, avoid=tile)
    s.go_around(s.opening_round(0), 0)
    s.draw(1, tile)
    t = s.b.events
    rules = resolve("guangdong-jipinghu", options)
    fam = family_of(rules)
    from replay import Replayer
    r = Replayer()
    for e in t:
        r.apply(e)
    table = r.table
    tiles = [k for k in range(34) for _ in range(table.hands[1][k])]
    from schema.tiles import TILE_INDEX
    wc = fam.wins.win_context(rules, table, 1, "self_draw", TILE_INDEX[tile], False, False, 1)
    sc = fam.scoring.score(rules, tiles, table.melds[1], wc)
    s.win([(1, sc.fans, sc.fan, sc.points)], "self_draw", tile)
    s.settle([((1 + k) % 4, 1, sc.points, "win") for k in (1, 2, 3)])
    s.close()
    return s


def arranged_rooms() -> Iterator[tuple[str, list]]:
    """The arranged rooms: §11 examples, option rooms and one room per special hand."""
    for name, make in {**EXAMPLES, **OPTION_ROOMS}.items():
        yield name, make().events
    for name in SPECIAL_HANDS:
        yield f"special_{name}", special_room(name).b.events


def tally(events: list, fans: collections.Counter, other: collections.Counter) -> None:
    """Count the fans, floors, liabilities and 天/地/人和 a room shows."""
    for e in events:
        t = type(e)
        if t is ev.HandWon:
            for x in e.winners:
                fans.update(x.fans)
            other[f"win:{e.how}"] += 1
            if len(e.winners) > 1:
                other[f"win:{e.how} x{len(e.winners)}"] += 1
        elif t is ev.HandSettled:
            for tr in e.transfers:
                if tr.reason != "win":
                    other[f"transfer:{tr.reason}"] += 1
        elif t is ev.HandDrawn:
            other["流局"] += 1
        elif t in (ev.Chowed, ev.Ponged, ev.KongExposed, ev.KongAdded, ev.KongConcealed):
            other[t.__name__] += 1


def audit(events: list):
    return audit_game(GameLog(events[0].game, "sim", events, list(range(1, len(events) + 1)), closed=True))


def bot_play(hands: int, seed: int = 0) -> tuple[int, collections.Counter, collections.Counter, collections.Counter]:
    """Bot-played Guangdong hands over :data:`COMBOS`: (hands, findings, fans, other)."""
    findings, fans, other = collections.Counter(), collections.Counter(), collections.Counter()
    per = hands // len(COMBOS) + 1
    total = 0
    for k, (_name, options) in enumerate(COMBOS):
        st = SimStats()
        it = simulate_games(SimConfig(preset="guangdong-jipinghu", options=options, seed=seed + k, games=10 ** 6,
                                      max_hands=8, fee=0, rare_hands=0.0), st)
        while st.hands < per:
            g = next(it)
            for f in audit(g).findings:
                findings[f.code] += 1
            tally(g, fans, other)
        total += st.hands
    return total, findings, fans, other


def main(args: list[str]) -> int:
    """``[HANDS]`` (10,000): bot-played Guangdong hands over its option mixes (two workers)
    plus the arranged rooms, audited; every fan, floor, liability and 天/地/人和 must
    appear.  Returns the exit status."""
    target = int(next((a for a in args if a.isdigit()), 10000))
    t = time.time()
    with Pool(2) as p:
        parts = p.starmap(bot_play, [(target // 2 + 1, 100), (target // 2 + 1, 200)])
    hands = sum(x[0] for x in parts)
    findings, fans, other = collections.Counter(), collections.Counter(), collections.Counter()
    for _, f, fa, o in parts:
        findings += f
        fans += fa
        other += o
    a_fans, a_other, a_findings, rooms = collections.Counter(), collections.Counter(), collections.Counter(), 0
    for name, evs in arranged_rooms():
        rooms += 1
        for f in audit(evs).findings:
            a_findings[f.code] += 1
        tally(evs, a_fans, a_other)
    print(f"GUANGDONG bot play: {hands} hands over {len(COMBOS)} option mixes, findings {sum(findings.values())} "
          f"{dict(findings)}; arranged rooms: {rooms} (findings {sum(a_findings.values())}); wall {time.time() - t:.0f}s")
    family = family_of(resolve("guangdong-jipinghu"))
    missing = []
    print(f"  {'fan / event':22s} {'名':6s} {'bot play':>9s} {'arranged':>9s}")
    for f in family.scoring.fan_values:
        print(f"  {f:22s} {family.scoring.fan_chinese[f]:6s} {fans[f]:9d} {a_fans[f]:9d}")
        if fans[f] + a_fans[f] == 0:
            missing.append(f)
    for k in ("transfer:bao_gangkai", "transfer:bao_special", "transfer:bao_luodi", "transfer:qianggang",
              "transfer:kong", "win:discard x3", "win:discard x2", "流局"):
        print(f"  {k:29s} {other[k]:9d} {a_other[k]:9d}")
        if other[k] + a_other[k] == 0:
            missing.append(k)
    print("missing:", missing or "none")
    return 1 if missing or findings or a_findings else 0
