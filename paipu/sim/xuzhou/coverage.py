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
from typing import Sequence

from schema import events as ev

from ..coverage_kit import run
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


def main(args: Sequence[str] = ()) -> int:
    """``[HANDS]`` bot hands per option mix (default 1,000); exit status 1 on a finding or
    on something wanted that never appeared."""
    rooms = [make().events for make in {**EXAMPLES, **OPTION_ROOMS}.values()]
    return run("xuzhou", COMBOS, int(args[0]) if args else 1000, 3800, seen_in, rooms, WANTED, 24)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
