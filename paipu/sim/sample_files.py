"""What every family's sample generator (``paipu/sim/<family>/samples.py``) shares: writing
one sample log with the findings and final scores the audit must report beside it, and
planting a fault class in the first simulated room it applies to.

``NAME.expected.json`` holds ``{"findings": [{game, code, seq}], "final_scores": {game:
{"logged": …, "ledger": …}}}``; the writer refuses to write a sample whose audit does not give
exactly the findings it is meant to give.
"""

from __future__ import annotations

import json
import os
import random
from typing import Callable, Optional

from audits.audit import audit_game
from schema.reader import GameLog, encode_events

#: ``sample_logs/`` of this checkout.
SAMPLE_LOGS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                           "sample_logs")


def write_sample(root: str, folder: str, name: str, events, want: list) -> None:
    """Write ``root/folder/NAME.jsonl`` and its ``NAME.expected.json``; the audit must find
    exactly ``want`` (codes in order, or (code, seq) pairs in any order)."""
    os.makedirs(os.path.join(root, folder), exist_ok=True)
    path = os.path.join(root, folder, name + ".jsonl")
    with open(path, "wb") as f:
        f.write(encode_events(events))
    log = GameLog(game=events[0].game, file=path, events=events, lines=list(range(1, len(events) + 1)))
    a = audit_game(log)
    by_code = not want or isinstance(want[0], str)
    got = [f.code for f in a.findings] if by_code else sorted((f.code, f.seq) for f in a.findings)
    assert got == (want if by_code else sorted(want)), (name, got, want)
    exp = {"findings": [{"game": f.game, "code": f.code, "seq": f.seq} for f in a.findings],
           "final_scores": {events[0].game: {"logged": a.logged_scores[-1] if a.logged_scores else None,
                                             "ledger": a.ledger[-1] if a.ledger else None}}}
    with open(path[:-len(".jsonl")] + ".expected.json", "w", encoding="utf-8") as f:
        json.dump(exp, f, ensure_ascii=False, indent=1)


def plant_first(name: str, fault: Callable, preset: str, seed: int, max_hands: int,
                options: Optional[dict] = None):
    """The fault class ``name`` planted in the first simulated room of ``preset`` (no logged
    wall) it applies to; a usage error when none of 200 rooms has its situation."""
    from .mutate import mutate
    from .simulate import SimConfig, simulate_games

    rng = random.Random(name)
    for g in simulate_games(SimConfig(preset=preset, games=200, seed=seed, max_hands=max_hands, fee=0,
                                      include_wall=False, options=options or {})):
        res = mutate(g, fault, rng)
        if res is not None:
            return res
    raise SystemExit(f"{name}: no simulated room has its situation")


__all__ = ["SAMPLE_LOGS", "plant_first", "write_sample"]
