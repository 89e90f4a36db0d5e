"""Guangdong 鸡平和 fault-detection table: plant each ``gd_*`` fault class of
paipu.sim.mutate in seeded simulated Guangdong rooms until it applied WANT times (or
MAXG games were used), audit, and print detected/applied and exact per class.

    python bench/guangdong_faults.py 100 4000 [class,class,...]
"""
import collections
import os
import random
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from audits.audit import audit_game  # noqa: E402
from paipu.sim.guangdong_faults import GUANGDONG_FAULTS  # noqa: E402
from paipu.sim.mutate import FAULTS, mutate  # noqa: E402
from paipu.sim.simulate import SimConfig, simulate_games  # noqa: E402
from schema.reader import GameLog  # noqa: E402

WANT = int(sys.argv[1]) if len(sys.argv) > 1 else 100
MAXG = int(sys.argv[2]) if len(sys.argv) > 2 else 4000
CFGS = [dict(options={}, include_wall=False), dict(options={"kong_payments": "none"}, include_wall=True),
        dict(options={"louhe_scope": "any_discard"}, include_wall=False),
        # few wins, many 流局: the last discard is there to be claimed
        dict(options={"min_fan": 3}, include_wall=False)]


def stream(part):
    gens = [simulate_games(SimConfig(preset="guangdong-jipinghu", seed=9000 + 10 * part + k, games=10 ** 6,
                                     max_hands=6, fee=0, rare_hands=0.05, **c)) for k, c in enumerate(CFGS)]
    while True:
        for g in gens:
            yield next(g)


def aud(evs):
    return audit_game(GameLog(evs[0].game, "x", evs, list(range(1, len(evs) + 1)), closed=True))


def work(args):
    part, names = args
    st = {n: [0, 0, 0, collections.Counter()] for n in names}  # applied, detected, exact, other codes
    rng = random.Random(part)
    games = 0
    for g in stream(part):
        games += 1
        todo = [n for n in names if st[n][0] < WANT]
        if not todo or games > MAXG:
            break
        for n in todo:
            res = mutate(g, n, rng)
            if res is None:
                continue
            evs, exp = res
            s = st[n]
            s[0] += 1
            found = {(f.code, f.seq) for f in aud(evs).findings}
            s[1] += all(e in found for e in exp)
            s[2] += found == set(exp)
            for f in found - set(exp):
                s[3][f[0]] += 1
    return games, st


if __name__ == "__main__":
    names = sys.argv[3].split(",") if len(sys.argv) > 3 else GUANGDONG_FAULTS
    t = time.time()
    with Pool(2) as p:
        res = p.map(work, [(0, names[0::2]), (1, names[1::2])])
    print(f"{'fault class':36s} {'code':26s} detected/applied  exact  other findings")
    allst = {}
    for games, st in res:
        allst.update(st)
        print("games used by a worker:", games)
    for n in names:
        a, d, x, e = allst[n]
        print(f"{n:36s} {FAULTS[n].code:26s} {d:4d}/{a:<4d}        {x:4d}  {dict(e) if e else ''}")
    print(f"wall {time.time() - t:.0f}s")
