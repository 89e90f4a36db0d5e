"""What every new family's coverage run (``paipu/sim/<family>/coverage.py``) shares: bots
play each option mix and every room is audited, the arranged rooms (worked examples and
option rooms) are audited beside them, and the run ends with what appeared, the findings and
what was wanted but never seen.  The family brings its mixes, its ``seen_in`` counter and
its list of wanted names; bot play and arranged rooms are counted apart.
"""

from __future__ import annotations

import collections
import time
from typing import Callable, Iterable, Optional, Sequence

from audits.audit import audit_game
from schema import events as ev
from schema.reader import GameLog

from .simulate import SimConfig, simulate_games

#: (events of one room, counter) -> None: counts what the room shows (the family's own).
SeenIn = Callable[[Sequence[ev.Event], collections.Counter], None]


def audit_rooms(rooms: Iterable[Sequence[ev.Event]], seen_in: SeenIn, counts: collections.Counter,
                findings: collections.Counter) -> int:
    """Audit each room, count its findings by code and what it shows; the hands played."""
    hands = 0
    for events in rooms:
        a = audit_game(GameLog(game=events[0].game, file="coverage", events=list(events),
                               lines=list(range(1, len(events) + 1))))
        for f in a.findings:
            findings[f.code] += 1
        seen_in(events, counts)
        hands += sum(1 for e in events if type(e) is ev.HandStarted)
    return hands


def play_mix(preset: str, options: dict, games: int, seed: int, seen_in: SeenIn, bots: collections.Counter,
             findings: collections.Counter) -> int:
    """Bots play ``games`` rooms of one option mix (up to 8 hands each, the wall logged),
    each room audited; the hands played."""
    cfg = SimConfig(preset=preset, options=options, games=games, seed=seed, max_hands=8, fee=0,
                    include_wall=True)
    return audit_rooms(simulate_games(cfg), seen_in, bots, findings)


def verdict(wanted: Sequence[str], bots: collections.Counter, arranged: collections.Counter,
            findings: collections.Counter, started: float, width: int = 24) -> int:
    """Print each wanted name's counts, the findings and what is missing; exit status 1 on a
    finding or on something wanted that never appeared."""
    missing = []
    for name in wanted:
        print(f"  {name:<{width}} bots {bots[name]:7d}   arranged {arranged[name]:4d}")
        if not bots[name] + arranged[name]:
            missing.append(name)
    print(f"findings: {dict(findings) or 0}; missing: {missing or 'none'}; {time.perf_counter() - started:.1f} s")
    return 1 if findings or missing else 0


def run(preset: str, combos: Sequence[tuple[str, dict]], per: int, seed_base: int, seen_in: SeenIn,
        rooms: Sequence[Sequence[ev.Event]], wanted: Sequence[str], width: int = 24,
        arranged_extra: Optional[Callable[[collections.Counter], str]] = None) -> int:
    """One preset's coverage: ``per`` bot hands of each labelled option mix, then the arranged
    ``rooms``; ``arranged_extra`` may count more arranged evidence (returns a note)."""
    started = time.perf_counter()
    bots: collections.Counter = collections.Counter()
    arranged: collections.Counter = collections.Counter()
    findings: collections.Counter = collections.Counter()
    total = 0
    label_width = max(len(label) for label, _ in combos)
    for k, (label, options) in enumerate(combos):
        got = play_mix(preset, options, max(1, per // 8), seed_base + k, seen_in, bots, findings)
        total += got
        print(f"  {label:<{label_width}} {got:6d} hands")
    arranged_hands = audit_rooms(rooms, seen_in, arranged, findings)
    note = arranged_extra(arranged) if arranged_extra is not None else ""
    print(f"bot play: {total} hands, {bots['hands_won']} won; arranged: {len(rooms)} rooms, {arranged_hands} "
          f"hands{note}")
    return verdict(wanted, bots, arranged, findings, started, width)


__all__ = ["audit_rooms", "play_mix", "run", "verdict"]
