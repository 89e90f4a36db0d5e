"""Fault-detection table: plant each fault class of paipu.sim.mutate in seeded
simulated games until it applied WANT times (or MAXG games were used), audit,
and print detected/applied per class.

    python bench/faults.py 100 3000 [class,class,...]

Not part of the test suite (tests/paipu/test_mutate.py runs a smaller set).
"""
import sys, random, collections, time
from multiprocessing import Pool
from paipu.sim.simulate import SimConfig, simulate_games
from paipu.sim.mutate import FAULTS, mutate
from schema.reader import GameLog
from audits.audit import audit_game
WANT = int(sys.argv[1]) if len(sys.argv) > 1 else 100
MAXG = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
CFGS = [dict(preset="qujing-xiaoji", options={"chow": True, "dianji": True}),
        dict(preset="qujing-baiban", options={"yangzhu": True}),
        dict(preset="qujing-shuanggui", options={"qiaoluo": True, "qiaoluo_points": 8}, max_hands=None),
        dict(preset="qujing-xiaoji", options={"dianji": True}, players=3),
        dict(preset="qujing-shuanggui", options={"chow": True, "yangzhu": True}),
        dict(preset="qujing-xiaoji", options={"qiaoluo": True, "qiaoluo_points": 8, "yangzhu": True}, max_hands=None)]
def stream(part):
    gens = [simulate_games(SimConfig(seed=8000 + 10 * part + k, games=10**6, max_hands=c.pop("max_hands", 4), **c)) for k, c in enumerate([dict(x) for x in CFGS])]
    while True:
        for g in gens: yield next(g)
def aud(evs): return audit_game(GameLog(evs[0].game, "x", evs, list(range(1, len(evs) + 1)), closed=True))
def work(args):
    part, names = args
    st = {n: [0, 0, 0, collections.Counter()] for n in names}  # applied, detected, exact, extras
    rng = random.Random(part); games = 0
    for g in stream(part):
        games += 1
        todo = [n for n in names if st[n][0] < WANT]
        if not todo or games > MAXG: break
        for n in todo:
            res = mutate(g, n, rng)
            if res is None: continue
            evs, exp = res; s = st[n]; s[0] += 1
            found = {(f.code, f.seq) for f in aud(evs).findings}
            if all(e in found for e in exp): s[1] += 1
            if found == set(exp): s[2] += 1
            for f in found - set(exp): s[3][f[0]] += 1
    return games, st
if __name__ == "__main__":
    names = sys.argv[3].split(",") if len(sys.argv) > 3 else list(FAULTS); t = time.time()
    parts = [(0, names[0::2]), (1, names[1::2])]
    with Pool(2) as p: res = p.map(work, parts)
    print(f"{'fault class':30s} {'code':32s} detected/applied  exact  other findings")
    allst = {}
    for games, st in res: allst.update(st); print("games used by a worker:", games)
    for n in names:
        a, d, x, e = allst[n]
        print(f"{n:30s} {FAULTS[n].code:32s} {d:4d}/{a:<4d}        {x:4d}  {dict(e) if e else ''}")
    print(f"wall {time.time()-t:.0f}s")
