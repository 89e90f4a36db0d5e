"""Hainan 海南麻将 coverage: bot play over the option mixes, each room audited, plus the
arranged rooms (the worked examples and option rooms of :mod:`.examples`) for what bots
rarely reach: ``main(["HANDS"])`` prints what appeared and the findings.

What must appear (issue 41): each 番 source, each rate (1 a discard or robbing, 2 自摸,
3 杠上开花 / 花上开花), 包牌 (三道 / 四道, 无番抢杠, 包杠, 海底), 跟牌, 补花 at the opening
and in play, 花上开花, kong money, flower money, 黄庄; bot play and arranged rooms are
counted apart.
"""

from __future__ import annotations

import collections
import sys
from typing import Sequence

from audits.rules.hainan.fans import SOURCES
from schema import events as ev

from ..coverage_kit import run
from .examples import EXAMPLES, OPTION_ROOMS

#: Option mixes the bots play (each changes play or money).
COMBOS = [
    ("default", {}),
    ("opening_buhua=by_round, kong_replacement=head", {"opening_buhua": "by_round", "kong_replacement": "head"}),
    ("min_fan=0 (无番), guohu=same_tile", {"min_fan": 0, "guohu": "same_tile"}),
    ("hand_multiplier=additive, lianzhuang=add, dealer_unit_bonus=1",
     {"hand_multiplier": "additive", "lianzhuang": "add", "dealer_unit_bonus": 1}),
    ("hand_multiplier=multiplicative, lianzhuang=multiply, base=2",
     {"hand_multiplier": "multiplicative", "lianzhuang": "multiply", "base": 2}),
    ("genpai=always, flower_money=sets", {"genpai": "always", "flower_money": "sets"}),
    ("haidi_bao, baogang off, bao_sidao off", {"haidi_bao": True, "baogang": False, "bao_sidao": False}),
    ("luanpai=both, qidui_four_as_two off, kong_fan", {"luanpai": "both", "qidui_four_as_two": False,
                                                       "kong_fan": True}),
    ("menqing_concealed_kong, kong_values=[2,2,4]", {"menqing_concealed_kong": True, "kong_values": [2, 2, 4]}),
    ("last_discard_claims=all, draw_reserve=0", {"last_discard_claims": "all", "draw_reserve": 0}),
]

#: what must appear: the 番 sources (``gang`` only with kong_fan), the rates, the liabilities,
#: 跟牌, the flowers and the end of a hand
WANTED = tuple(SOURCES) + ("rate_1", "rate_2", "rate_3", "gangshang_kaihua", "huashang_kaihua", "bao_sandao",
                           "qianggang_bao", "bao_gang", "bao_haidi", "genpai", "kong", "flower",
                           "buhua_opening", "buhua_in_play", "huangzhuang")


def seen_in(events: Sequence[ev.Event], counts: collections.Counter) -> None:
    """Count what one room shows: 番 names and ways, rates, transfer reasons, 补花 at the
    opening (before the hand's first discard) and in play, 黄庄."""
    opening = False
    for e in events:
        kind = type(e)
        if kind is ev.TilesDealt:
            opening = True
        elif kind is ev.TileDiscarded:
            opening = False
        elif kind is ev.TileSetAside:
            counts["buhua_opening" if opening else "buhua_in_play"] += 1
        elif kind is ev.HandDrawn:
            counts["huangzhuang"] += 1
        elif kind is ev.HandWon:
            counts["hands_won"] += 1
            for w in e.winners:
                for f in w.fans:
                    counts[f] += 1
                rate = 1 if e.how != "self_draw" else 3 if {"gangshang_kaihua", "huashang_kaihua"} & set(w.fans) else 2
                counts[f"rate_{rate}"] += 1
        elif kind is ev.HandSettled:
            for t in {t.reason for t in e.transfers}:
                counts["qianggang_bao" if t == "qianggang" else t] += 1


def main(args: Sequence[str] = ()) -> int:
    """``[HANDS]`` bot hands per option mix (default 1,000); exit status 1 on a finding or
    on something wanted that never appeared."""
    rooms = [make().events for make in {**EXAMPLES, **OPTION_ROOMS}.values()]
    return run("hainan", COMBOS, int(args[0]) if args else 1000, 4100, seen_in, rooms, WANTED, 24)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
