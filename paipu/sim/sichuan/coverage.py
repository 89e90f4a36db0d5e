"""Coverage run of the Sichuan simulator (sichuan.md): N simulated hands of each preset
(and a run with the fan options on), every hand audited.  Prints the findings (there
must be none), and how often each fan, each payment kind, 花猪, 查大叫, 退税, 一炮多响
and a three-winner 血战 hand occurred, with how many hands were arranged by seeding.

Usage: python bench/coverage.py --family sichuan [HANDS_PER_PRESET] [ARRANGED_SHARE]
"""

from __future__ import annotations

import random
import time
from collections import Counter

from audits.audit import audit_game
from audits.rules.sichuan.fans import FAN_VALUES
from schema import events as ev
from schema.reader import GameLog

from ..simulate import SimConfig, SimStats, _game_seeds, _ruleset
from .game import SichuanGame

RUNS = (
    ("sichuan", {}),
    ("sichuan-xuezhan", {}),
    # the fans that exist only by option, and the exchange
    ("sichuan-xuezhan", {"zimo_bonus": "jiafan", "menqing_zhongzhang": True, "jiang_qidui": True,
                         "tiandihu": False}),
    ("sichuan", {"huan_san_zhang": True, "guoshui": "any_discard", "zhuanyi_scope": "all_kongs", "cagua": True}),
    # the fan options of the best reading (龙七对 4) and 点杠花 算点炮 under 自摸加番
    ("sichuan-xuezhan", {"longqidui_fan": 4, "fan_cap": 6, "zimo_bonus": "jiafan", "dianganghua": "dianpao"}),
)


def run(preset: str, options: dict, hands: int, arrange: float) -> dict:
    cfg = SimConfig(preset=preset, options=options, games=max(1, hands // 8), seed=17, max_hands=8, arrange=arrange)
    rules = _ruleset(cfg)
    stats = SimStats()
    fans, reasons, codes, kinds = Counter(), Counter(), Counter(), Counter()
    arranged = played = 0
    t0 = time.time()
    for g, seed in _game_seeds(cfg):
        game = SichuanGame(cfg, rules, random.Random(seed), g, stats)
        events = game.play()
        arranged += game.arranged
        a = audit_game(GameLog(events[0].game, "sim", events, list(range(1, len(events) + 1)), None, True))
        played += a.hands
        codes.update(f.code for f in a.findings)
        winners = 0
        for e in events:
            t = type(e)
            if t is ev.HandStarted:
                winners = 0
            elif t is ev.HandWon:
                winners += len(e.winners)
                kinds[e.how] += 1
                if len(e.winners) > 1:
                    kinds["yipao_duoxiang"] += 1
                for w in e.winners:
                    fans.update(w.fans)
            elif t is ev.HandDrawn:
                kinds["exhausted"] += 1
            elif t is ev.HandSettled:
                reasons.update({r for r in (x.reason for x in e.transfers)})
                if winners >= 3:
                    kinds["three_winners"] += 1
    return {"preset": preset, "options": options, "hands": played, "arranged": arranged, "findings": dict(codes),
            "fans": dict(fans), "reasons": dict(reasons), "moments": dict(kinds), "seconds": round(time.time() - t0, 1)}


def main(args: list[str]) -> int:
    """``[HANDS_PER_PRESET] [ARRANGED_SHARE]`` (10,000 and 0.02).  Returns the exit status
    (0: no finding)."""
    hands = int(args[0]) if len(args) > 0 else 10_000
    arrange = float(args[1]) if len(args) > 1 else 0.02
    all_fans: Counter = Counter()
    all_reasons: Counter = Counter()
    bad = 0
    for i, (preset, options) in enumerate(RUNS):
        r = run(preset, options, hands if i < 2 else max(800, hands // 10), arrange)
        all_fans.update(r["fans"])
        all_reasons.update(r["reasons"])
        bad += sum(r["findings"].values())
        print(f"{preset} {options or ''}: {r['hands']} hands ({r['arranged']} arranged by seeding), "
              f"findings {r['findings'] or 0}, {r['seconds']} s")
        print(f"  moments: {r['moments']}")
        print(f"  reasons: {dict(sorted(r['reasons'].items()))}")
        print(f"  fans: {dict(sorted(r['fans'].items()))}")
    missing = sorted(set(FAN_VALUES) - set(all_fans))
    print(f"fans never seen: {missing or 'none'}")
    print(f"payment kinds never seen: {sorted({'win', 'kong', 'zhuanyi', 'huazhu', 'dajiao', 'tuishui'} - set(all_reasons)) or 'none'}")
    return 1 if bad else 0
