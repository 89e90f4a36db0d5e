"""Wenzhou 温州麻将 coverage: bot play over the option mixes, each room audited, plus the
arranged rooms (the worked examples and option rooms of :mod:`.examples`) for what bots
rarely reach: ``main(["HANDS"])`` prints what appeared and the findings.

What must appear (issue 39): 软 and 硬 wins, each 双翻 hand (硬八对, 三财神, 天和, 地和, 单吊),
each dealer level 1..4, a 财神单钓 win by self-draw, and its discard near miss (an arranged
room whose one finding is WIN_CAISHEN_DANDIAO_DISCARD); bot play and arranged rooms are
counted apart.
"""

from __future__ import annotations

import collections
import sys
from typing import Sequence

from audits.audit import audit_game
from audits.rules.wenzhou import wins
from audits.rules.wilds import hand_rules
from replay import Replayer
from schema import events as ev
from schema.reader import GameLog
from schema.tiles import TILE_INDEX

from ..coverage_kit import run
from .examples import EXAMPLES, NEAR_MISSES, OPTION_ROOMS

#: Option mixes the bots play (each changes play or money).
COMBOS = [
    ("default", {}),
    ("maidi, caishenqian, kong_payments=at_end", {"maidi": True, "caishenqian": True, "kong_payments": "at_end"}),
    ("jinjie1, discarder_for_all", {"lianzhuang": "jinjie1", "discard_payers": "discarder_for_all"}),
    ("jinjie2, draw_dealer=pass_if_kong, after_fourth=pass",
     {"lianzhuang": "jinjie2", "draw_dealer": "pass_if_kong", "after_fourth": "pass"}),
    ("extra_shuangfan=teshu, lazila", {"extra_shuangfan": "teshu", "lazila": True}),
    ("extra_shuangfan=pengpeng, soft_badui, sancaishen_on_discard",
     {"extra_shuangfan": "pengpeng", "soft_badui": True, "sancaishen_on_discard": True}),
    ("caishen_dandiao=free, ying_scope=self_draw_only", {"caishen_dandiao": "free", "ying_scope": "self_draw_only"}),
    ("shaozhongfa, honour_first=false, indicator_from=tail",
     {"shaozhongfa": True, "honour_first": False, "indicator_from": "tail"}),
    ("dihe_scope=first_round_shangjia, draw_dealer=stay_same_level, base=2",
     {"dihe_scope": "first_round_shangjia", "draw_dealer": "stay_same_level", "base": 2}),
    ("draw_dealer=next, draw_reserve=10", {"draw_dealer": "next", "draw_reserve": 10}),
]

#: what must appear
WANTED = ("ruanhu", "yinghu", "badui", "sancaishen", "sancaishen_bare", "tianhe", "dihe", "quanqiuren", "level_1",
          "level_2", "level_3", "level_4", "caishen_dandiao_self_draw", "caishen_dandiao_discard_barred")


def seen_in(events: Sequence[ev.Event], counts: collections.Counter) -> None:
    """Count what one room shows: win names, dealer levels, 财神单钓 self-draw wins."""
    r = Replayer()
    for e in events:
        kind = type(e)
        if kind is ev.HandStarted and e.dealer_level is not ev.UNSET:
            counts[f"level_{e.dealer_level}"] += 1
        elif kind is ev.HandWon:
            counts["hands_won"] += 1
            t = r.table
            for w in e.winners:
                for f in w.fans:
                    counts[f] += 1
                if e.how == "self_draw" and t.wild is not None:
                    before = list(t.hands[w.seat])
                    before[TILE_INDEX[e.tile]] -= 1
                    rules = hand_rules(t.ruleset, _name(t.wild))
                    if wins.in_caishen_dandiao(rules, before, t.melds[w.seat]):
                        counts["caishen_dandiao_self_draw"] += 1
        r.apply(e)


def _name(kind: int) -> str:
    from schema.tiles import TILE_NAMES
    return TILE_NAMES[kind]


def _near_miss(arranged: collections.Counter) -> str:
    """The 财神单钓 discard near miss gives exactly its one finding (counted as arranged)."""
    make, code = NEAR_MISSES["nm_caishen_dandiao_discard"]
    near = make().events
    got = [f.code for f in audit_game(GameLog(game=near[0].game, file="coverage", events=list(near),
                                              lines=list(range(1, len(near) + 1)))).findings]
    arranged["caishen_dandiao_discard_barred"] += got == [code]
    return f" (+ the 财神单钓 discard near miss: {got})"


def main(args: Sequence[str] = ()) -> int:
    """``[HANDS]`` bot hands per option mix (default 1,000); exit status 1 on a finding in a
    clean room, a near miss without its one finding, or something wanted that never appeared."""
    rooms = [make().events for make in {**EXAMPLES, **OPTION_ROOMS}.values()]
    return run("wenzhou", COMBOS, int(args[0]) if args else 1000, 3900, seen_in, rooms, WANTED, 32,
               _near_miss)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
