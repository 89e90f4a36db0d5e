"""Fault-detection table of one family: plant each of its fault classes (its
``paipu/sim/<family>/faults.py``) in seeded simulated rooms until it applied WANT times
(or MAX_GAMES games were used), audit, and print detected/applied, how many gave
exactly the planted finding, and any other findings, per class.

    python bench/faults.py --family qujing|guangdong|sichuan [WANT] [MAX_GAMES] [class,class,...]

``--family`` also takes a preset (``sichuan-xuezhan``: the Sichuan classes).  WANT
defaults to 100, MAX_GAMES to the family's own bound (``FAULT_BENCH.max_games``).  The
rooms are the family's ``FAULT_BENCH``: rooms played in turn by two workers, or each
class's own room.  Exit status 1 when a class was not planted WANT times or a planted
fault did not give exactly its finding.

Not part of the test suite (tests/paipu/test_mutate.py runs a smaller set).
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from audits.audit import audit_game  # noqa: E402
from paipu.sim.fault_kit import FaultBench  # noqa: E402
from paipu.sim.families import UnknownSimFamily, sim_families, sim_family  # noqa: E402
from paipu.sim.mutate import FAULTS, mutate  # noqa: E402
from paipu.sim.simulate import SimConfig, simulate_games  # noqa: E402
from schema.reader import GameLog  # noqa: E402

#: per class: [applied, detected, exact, other finding codes]
Tally = dict[str, list]


def _found(events) -> set[tuple[str, int]]:
    log = GameLog(events[0].game, "x", events, list(range(1, len(events) + 1)), None, True)
    return {(f.code, f.seq) for f in audit_game(log).findings}


def _plant(games: Iterator, names: list[str], rng: random.Random, want: int, max_games: int,
           st: Tally) -> int:
    """Plant every class of ``names`` still short of ``want`` in each game of ``games`` in
    turn, until none is short or ``max_games`` games were used; the games used."""
    used = 0
    for g in games:
        used += 1
        todo = [n for n in names if st[n][0] < want]
        if not todo or used > max_games:
            break
        for n in todo:
            res = mutate(g, n, rng)
            if res is None:
                continue
            events, expected = res
            s = st[n]
            s[0] += 1
            found = _found(events)
            s[1] += all(e in found for e in expected)
            s[2] += found == set(expected)
            s[3].update(code for code, _ in found - set(expected))
    return used


def _rooms_in_turn(bench: FaultBench, worker: int, games: int) -> Iterator:
    streams = [simulate_games(SimConfig(seed=bench.seed + 10 * worker + k, games=games, **room))
               for k, room in enumerate(bench.rooms)]
    while True:
        for s in streams:
            yield next(s)


def _worker(args: tuple[str, int, list[str], int, int]) -> tuple[int, Tally]:
    """One worker of a family whose classes share rooms played in turn."""
    family, worker, names, want, max_games = args
    bench = sim_family(family).module("faults").FAULT_BENCH
    st: Tally = {n: [0, 0, 0, collections.Counter()] for n in names}
    used = _plant(_rooms_in_turn(bench, worker, 10 ** 6), names, random.Random(worker), want, max_games, st)
    return used, st


def _own_rooms(bench: FaultBench, names: list[str], want: int, max_games: int) -> Tally:
    """Each class in its own room (``FaultBench.room_of``)."""
    st: Tally = {n: [0, 0, 0, collections.Counter()] for n in names}
    for n in names:
        games = simulate_games(SimConfig(seed=bench.seed, games=max_games, **bench.room_of(n)))
        _plant(games, [n], random.Random(n), want, max_games, st)
    return st


def detection_table(family: str, want: int, max_games: int | None, names: list[str]) -> tuple[Tally, list[int]]:
    """Plant the classes ``names`` of ``family`` as its ``FAULT_BENCH`` says: the tally per
    class and the games each worker used (rooms in turn only)."""
    bench: FaultBench = sim_family(family).module("faults").FAULT_BENCH
    max_games = bench.max_games if max_games is None else max_games
    if bench.room_of is not None:
        return _own_rooms(bench, names, want, max_games), []
    with Pool(2) as p:
        res = p.map(_worker, [(family, w, names[w::2], want, max_games) for w in (0, 1)])
    st: Tally = {}
    for _, part in res:
        st.update(part)
    return st, [used for used, _ in res]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="the fault-detection table of one family")
    parser.add_argument("--family", required=True, help=f"{' | '.join(sim_families())}, or one of their presets")
    parser.add_argument("want", nargs="?", type=int, default=100, help="plant each class this often (100)")
    parser.add_argument("max_games", nargs="?", type=int, help="games at most (the family's own bound)")
    parser.add_argument("classes", nargs="?", help="comma-separated classes (all of the family's)")
    args = parser.parse_args(argv)
    try:
        family = sim_family(args.family)
    except UnknownSimFamily as e:
        parser.error(str(e))
    own = family.faults()
    names = args.classes.split(",") if args.classes else list(own)
    unknown = [n for n in names if n not in own]
    if unknown:
        parser.error(f"not {family.name} fault classes: {', '.join(unknown)}")
    t = time.time()
    st, used = detection_table(family.name, args.want, args.max_games, names)
    width = max(30, max(len(n) for n in names) + 1)
    print(f"{'fault class':{width}s} {'code':32s} detected/applied  exact  other findings")
    for u in used:
        print("games used by a worker:", u)
    ok = True
    for n in names:
        a, d, x, e = st[n]
        ok &= x == a == args.want
        print(f"{n:{width}s} {FAULTS[n].code:32s} {d:4d}/{a:<4d}        {x:4d}  {dict(e) if e else ''}")
    print(f"wall {time.time() - t:.0f}s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
