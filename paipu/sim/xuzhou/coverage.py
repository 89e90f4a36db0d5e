"""Xuzhou 徐州麻将 coverage: bot play over the option mixes, each room audited, plus the
arranged rooms (the worked examples and option rooms of :mod:`.examples`) for what bots
rarely reach (天和, 乱牌): ``main(["HANDS"])`` prints what appeared and the findings.

What must appear (issue 38): each win type (平和 ``jihu``, 七对, 天和, 跑配成牌, 乱牌), a dead
配子 discard, the dealer bonus both ways (a payment with the dealer and one without), and
一炮多响; bot play and arranged rooms are counted apart.
"""

from __future__ import annotations

import collections
import sys
import time
from typing import Iterable, Sequence

from audits.audit import audit_game
from schema import events as ev
from schema.reader import GameLog

from ..simulate import SimConfig, simulate_games
from .examples import EXAMPLES, OPTION_ROOMS

#: Option mixes the bots play (each changes play or money).
COMBOS = [
    ("default", {}),
    ("multi_win=false (截和)", {"multi_win": False}),
    ("xiazui=max_two", {"xiazui": "max_two"}),
    ("dealer_bonus=double, zimo_units=2", {"dealer_bonus": "double", "zimo_units": 2}),
    ("dealer_bonus=none, dianpao_units=2, base=2", {"dealer_bonus": "none", "dianpao_units": 2, "base": 2}),
    ("wild_discard=forbidden", {"wild_discard": "forbidden"}),
    ("wild_from=same", {"wild_from": "same"}),
    ("luanpai=shisanyao", {"luanpai": "shisanyao"}),
    ("shape_gate=bazhi, draw_dealer=next", {"shape_gate": "bazhi", "draw_dealer": "next"}),
    ("xiazui=max_one, last_discard_claims=win_only", {"xiazui": "max_one", "last_discard_claims": "win_only"}),
]

#: what must appear
WANTED = ("jihu", "paopei", "qidui", "tianhe", "shisanlan", "dead_pei_discard", "dealer_bonus_paid",
          "payment_without_dealer", "multi_win")


def seen_in(events: Sequence[ev.Event], counts: collections.Counter) -> None:
    """Count what one room shows: win names, 一炮多响, dead 配子 discards, payments with and
    without the dealer."""
    dealer = wild = None
    for e in events:
        kind = type(e)
        if kind is ev.HandStarted:
            dealer, wild = e.dealer, None
        elif kind is ev.IndicatorTurned:
            wild = e.wild
        elif kind is ev.TileDiscarded and e.tile == wild:
            counts["dead_pei_discard"] += 1
        elif kind is ev.HandWon:
            counts["hands_won"] += 1
            if len(e.winners) > 1:
                counts["multi_win"] += 1
            for w in e.winners:
                for f in w.fans:
                    counts[f] += 1
        elif kind is ev.HandSettled:
            for t in e.transfers:
                if t.reason == "win":
                    counts["dealer_bonus_paid" if dealer in (t.payer, t.payee) else "payment_without_dealer"] += 1


def _audit(rooms: Iterable[Sequence[ev.Event]], counts: collections.Counter, findings: collections.Counter) -> int:
    hands = 0
    for events in rooms:
        a = audit_game(GameLog(game=events[0].game, file="coverage", events=list(events),
                               lines=list(range(1, len(events) + 1))))
        for f in a.findings:
            findings[f.code] += 1
        seen_in(events, counts)
        hands += sum(1 for e in events if type(e) is ev.HandStarted)
    return hands


def main(args: Sequence[str] = ()) -> int:
    """``[HANDS]`` bot hands per option mix (default 1,000); exit status 1 on a finding or
    on something wanted that never appeared."""
    per = int(args[0]) if args else 1000
    started = time.perf_counter()
    bots: collections.Counter = collections.Counter()
    arranged: collections.Counter = collections.Counter()
    findings: collections.Counter = collections.Counter()
    total = 0
    for k, (label, options) in enumerate(COMBOS):
        cfg = SimConfig(preset="xuzhou", options=options, games=max(1, per // 8), seed=3800 + k, max_hands=8,
                        fee=0, include_wall=True)
        got = _audit(simulate_games(cfg), bots, findings)
        total += got
        print(f"  {label:<48} {got:6d} hands")
    rooms = [make().events for make in {**EXAMPLES, **OPTION_ROOMS}.values()]
    arranged_hands = _audit(rooms, arranged, findings)
    print(f"bot play: {total} hands, {bots['hands_won']} won; arranged: {len(rooms)} rooms, {arranged_hands} hands")
    missing = []
    for name in WANTED:
        print(f"  {name:<24} bots {bots[name]:7d}   arranged {arranged[name]:4d}")
        if not bots[name] + arranged[name]:
            missing.append(name)
    print(f"findings: {dict(findings) or 0}; missing: {missing or 'none'}; {time.perf_counter() - started:.1f} s")
    return 1 if findings or missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
