"""Fault-detection table for the Sichuan fault classes: plant each class in seeded
simulated Sichuan rooms until it applied WANT times, audit, print detected/applied and
how many gave exactly the planted finding.

    python bench/sichuan_faults.py [WANT] [MAX_GAMES]
"""

from __future__ import annotations

import collections
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from audits.audit import audit_game  # noqa: E402
from paipu.sim.mutate import mutate  # noqa: E402
from paipu.sim.sichuan_faults import SICHUAN_FAULTS, SOURCES  # noqa: E402
from paipu.sim.simulate import SimConfig, simulate_games  # noqa: E402
from schema.reader import GameLog  # noqa: E402


def main() -> None:
    want = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    maxg = int(sys.argv[2]) if len(sys.argv) > 2 else 1500
    names = sys.argv[3].split(",") if len(sys.argv) > 3 else list(SICHUAN_FAULTS)
    t0 = time.time()
    print(f"{'fault class':30s} {'code':26s} detected/applied  exact  other findings")
    ok = True
    for name in names:
        preset, options = SOURCES[name]
        cfg = SimConfig(preset=preset, options=options, games=maxg, seed=4242, max_hands=4, arrange=0.0)
        rng = random.Random(name)
        applied = detected = exact = 0
        other: collections.Counter = collections.Counter()
        for g in simulate_games(cfg):
            res = mutate(g, name, rng)
            if res is None:
                continue
            events, expected = res
            applied += 1
            found = {(f.code, f.seq) for f in audit_game(GameLog(events[0].game, "x", events,
                                                                 list(range(1, len(events) + 1)), None, True)).findings}
            detected += all(e in found for e in expected)
            exact += found == set(expected)
            other.update(c for c, _ in found - set(expected))
            if applied >= want:
                break
        ok &= exact == applied == want
        print(f"{name:30s} {SICHUAN_FAULTS[name].code:26s} {detected:4d}/{applied:<4d}        {exact:4d}  "
              f"{dict(other) if other else ''}")
    print(f"wall {time.time() - t0:.0f}s")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
