"""Changsha 长沙麻将 coverage: bot play over the option mixes of both presets, each room
audited, plus the arranged rooms (the worked examples of :mod:`.examples`) for what bots
rarely reach: ``main(["HANDS"])`` prints what appeared and the findings.

What must appear (issue 42): every opening win (起手胡) of the presets, the small win and every
big unit, each bird mode paid, a 开杠 won (杠上开花), a failed 开杠 and 杠上炮, a revealed tile
claimed (``kaigang_claims = all``), 海底捞月 and 海底炮; bot play and arranged rooms are counted
apart.
"""

from __future__ import annotations

import collections
import sys
import time
from typing import Sequence

from schema import events as ev

from ..coverage_kit import audit_rooms, play_mix, verdict
from .examples import EXAMPLES, OPTION_ROOMS

#: (label, preset, options) the bots play (each changes play or money).
COMBOS = [
    ("changsha default", "changsha", {}),
    ("bird_mode=double, bird_count=4", "changsha", {"bird_mode": "double", "bird_count": 4}),
    ("bird_mode=plus_point, bird_source=tail", "changsha", {"bird_mode": "plus_point", "bird_source": "tail"}),
    ("kaigang_count=4, shuang_gangkai=single", "changsha", {"kaigang_count": 4, "shuang_gangkai": "single"}),
    ("dealer_bonus=per_unit, dahu_stack=double", "changsha", {"dealer_bonus": "per_unit", "dahu_stack": "double"}),
    ("multi_win=false, qianggang_bao=true", "changsha", {"multi_win": False, "qianggang_bao": True}),
    ("qishou_repeat, qishou_birds=false, bird_origin=dealer", "changsha",
     {"qishou_repeat": True, "qishou_birds": False, "bird_origin": "dealer"}),
    ("guohu=higher_value, buzhang_kaihua, empty_wall_bird=none", "changsha",
     {"guohu": "higher_value", "buzhang_kaihua": True, "empty_wall_bird": "none"}),
    ("kaigang_claims=all", "changsha", {"kaigang_claims": "all"}),
    ("changsha-jiajiang default", "changsha-jiajiang", {}),
    ("jiajiang: quanqiuren_self_draw=false, dihe_scope=first_draw, base=2", "changsha-jiajiang",
     {"quanqiuren_self_draw": False, "dihe_scope": "first_draw", "base": 2}),
]

OPENING = ("qs_sixi", "qs_banban", "qs_queyise", "qs_liuliushun", "qs_bubugao", "qs_jintongyunv", "qs_yizhihua",
           "qs_santong")
UNITS = ("jihu", "duidui", "jiangyise", "qingyise", "qidui", "haohua", "quanqiuren", "haidi", "haidi_pao",
         "gangshang_kaihua", "gangshang_pao", "qianggang", "tianhe", "dihe")
#: what must appear
WANTED = OPENING + UNITS + ("birds_add_multiple", "birds_double", "birds_plus_point", "kaigang_failed",
                            "kaigang_won", "kaigang_claimed", "multi_win")


def seen_in(events: Sequence[ev.Event], counts: collections.Counter) -> None:
    """Count what one room shows: opening wins, win names, birds by mode, 开杠 won or failed."""
    mode = "add_multiple"
    reveal_open = False
    for e in events:
        kind = type(e)
        if kind is ev.GameOpened:
            mode = getattr(e.options, "bird_mode", None) or "add_multiple"
        elif kind is ev.OpeningWinDeclared:
            for name in e.names:
                counts[name] += 1
        elif kind is ev.KongRevealed:
            reveal_open = True
        elif kind is ev.HandWon:
            counts["hands_won"] += 1
            if reveal_open:
                counts["kaigang_won"] += 1
            reveal_open = False
            if len(e.winners) > 1:
                counts["multi_win"] += 1
            for w in e.winners:
                for f in w.fans:
                    counts[f] += 1
        elif kind in (ev.Chowed, ev.Ponged, ev.KongExposed) and reveal_open:
            counts["kaigang_claimed"] += 1  # a revealed tile claimed (kaigang_claims = all)
            reveal_open = False
        elif kind in (ev.TileDrawn, ev.HandDrawn):
            if reveal_open:
                counts["kaigang_failed"] += 1
            reveal_open = False
        elif kind is ev.BirdsDrawn:
            counts[f"birds_{mode}"] += 1


def main(args: Sequence[str] = ()) -> int:
    """``[HANDS]`` bot hands per preset (default 10,000), shared by its option mixes; exit
    status 1 on a finding or on something wanted that never appeared."""
    total = int(args[0]) if args else 10000
    mixes = collections.Counter(preset for _label, preset, _options in COMBOS)
    started = time.perf_counter()
    bots: collections.Counter = collections.Counter()
    arranged: collections.Counter = collections.Counter()
    findings: collections.Counter = collections.Counter()
    by_preset: collections.Counter = collections.Counter()
    for k, (label, preset, options) in enumerate(COMBOS):
        per = -(-total // mixes[preset])
        got = play_mix(preset, options, max(1, -(-per // 8)), 4200 + k, seen_in, bots, findings)
        by_preset[preset] += got
        print(f"  {label:<66} {got:6d} hands")
    rooms = [make().events for make in {**EXAMPLES, **OPTION_ROOMS}.values()]
    arranged_hands = audit_rooms(rooms, seen_in, arranged, findings)
    print(f"bot play: {dict(by_preset)} hands, {bots['hands_won']} won; arranged: {len(rooms)} rooms, "
          f"{arranged_hands} hands")
    return verdict(WANTED, bots, arranged, findings, started)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
