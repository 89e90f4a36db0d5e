"""Wuhan 红中赖子杠 coverage: bot play over the option mixes, each room audited, plus the arranged
rooms (the worked examples and option rooms of :mod:`.examples`) for what bots rarely reach:
``main(["HANDS"])`` prints what appeared and the findings.

What must appear (issue 40): every kind of 番 (开口, 口口番, 红中杠, 癞子杠, 明杠, 暗杠), 屁胡 and
each 大胡, each cap (封顶, 金顶, 阳光顶, 哈顶), each 包 case; bot play and arranged rooms are
counted apart.
"""

from __future__ import annotations

import collections
import sys
from typing import Sequence

import msgspec

from audits.rules.wuhan.money import jinding_amounts
from schema import events as ev
from schema.ruleset import resolve

from ..coverage_kit import run
from .examples import EXAMPLES, OPTION_ROOMS

#: Option mixes the bots play (each changes play or money).
COMBOS = [
    ("default", {}),
    ("fan_mode=koukou (口口番)", {"fan_mode": "koukou"}),
    ("pi_tiles=中发 (红中发财赖子杠)", {"pi_tiles": ["7z", "6z"]}),
    ("discard_payers=discarder, qihu=16", {"discard_payers": "discarder", "qihu": 16}),
    ("discard_payers=discarder_pihu, qihu_basis=min, qihu=8", {"discard_payers": "discarder_pihu", "qihu": 8,
                                                              "qihu_basis": "min"}),
    ("bao_sanpu=qingyise_jiangyise, quanqiuren_bao=always, bao_precedence=quanqiuren_first",
     {"bao_sanpu": "qingyise_jiangyise", "quanqiuren_bao": "always", "bao_precedence": "quanqiuren_first"}),
    ("haidi=last_tile, win_dealer=winner", {"haidi": "last_tile", "win_dealer": "winner"}),
    ("dahu_stack=add, dahu_bonus=fan, pengpenghu_dahu=false", {"dahu_stack": "add", "dahu_bonus": "fan",
                                                               "pengpenghu_dahu": False}),
    ("hading=600, multi_win=true, guohu=same_tile", {"hading": 600, "multi_win": True, "guohu": "same_tile"}),
    ("laizi_gang_fan=1, dealer_fan=false, dahu_yinghu_fan=2, payment_cap=0",
     {"laizi_gang_fan": 1, "dealer_fan": False, "dahu_yinghu_fan": 2, "payment_cap": 0}),
]

#: what must appear
WANTED = ("kaikou_fan", "koukou_fan", "hongzhong_gang", "laizi_gang", "minggang", "angang",
          "jihu", "yinghu", "duidui", "qingyise", "jiangyise", "fengyise", "quanqiuren", "gangshang_kaihua", "haidi",
          "qianggang", "cap", "jinding", "yangguangding", "hading", "bao_sanpu", "bao_quanqiuren", "bao_qianggang")


def seen_in(events: Sequence[ev.Event], counts: collections.Counter) -> None:
    """Count what one room shows: win names, single-tile kongs, kongs, 番 modes, caps, 包."""
    opened = events[0]
    options = msgspec.structs.asdict(opened.options) if opened.options is not None else {}
    rules = resolve(opened.preset, {k: v for k, v in options.items() if v is not None})
    j, g = jinding_amounts(rules)
    wild = None
    calls = [0] * 4
    for e in events:
        kind = type(e)
        if kind is ev.HandStarted:
            calls = [0] * 4
        elif kind is ev.IndicatorTurned:
            wild = e.wild
        elif kind is ev.TileSetAside:
            counts["laizi_gang" if e.tile == wild else "hongzhong_gang"] += 1
        elif kind in (ev.Chowed, ev.Ponged, ev.KongExposed):
            calls[e.seat] += 1
            if kind is ev.KongExposed:
                counts["minggang"] += 1
        elif kind is ev.KongAdded:
            counts["minggang"] += 1
        elif kind is ev.KongConcealed:
            counts["angang"] += 1
        elif kind is ev.HandWon:
            counts["hands_won"] += 1
            for w in e.winners:
                for f in w.fans:
                    counts[f] += 1
                counts["koukou_fan" if rules.fan_mode == "koukou" else "kaikou_fan"] += 1
                _caps(rules, w, j, g, calls, counts)
        elif kind is ev.HandSettled:
            for t in e.transfers:
                if t.reason != "win":
                    counts["bao_qianggang" if t.reason == "qianggang" else t.reason] += 1


def _caps(rules, w, j: int, g: int, calls, counts) -> None:
    shares = w.payers or []
    b = rules.base
    if rules.hading and len(shares) == 3 and all(x.amount == b * rules.hading for x in shares) \
            and all(x.multiple >= rules.payment_cap for x in shares):
        counts["hading"] += 1
    elif len(shares) == 3 and rules.payment_cap and all(x.multiple >= rules.payment_cap for x in shares):
        counts["jinding"] += 1
        if any(not calls[x.seat] for x in shares):
            counts["yangguangding"] += 1
    elif any(x.amount < b * x.multiple for x in shares):
        counts["cap"] += 1


def main(args: Sequence[str] = ()) -> int:
    """``[HANDS]`` bot hands per option mix (default 1,000); exit status 1 on a finding or
    on something wanted that never appeared."""
    rooms = [make().events for make in {**EXAMPLES, **OPTION_ROOMS}.values()]
    return run("wuhan-hzlzg", COMBOS, int(args[0]) if args else 1000, 4000, seen_in, rooms, WANTED, 24)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
