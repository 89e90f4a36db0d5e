"""Qujing coverage: simulate N hands across every preset/option mix, audit them, and
print the findings count and the coverage of every fan and claim type.

    python bench/coverage.py --family qujing 10000

Not part of the test suite (tests/paipu/test_simulate.py runs a smaller fixed-seed set).
"""
import time, collections
from multiprocessing import Pool
from paipu.sim.simulate import SimConfig, simulate_games, SimStats
from schema.reader import GameLog
from schema import events as ev
from audits.audit import audit_game

COMBOS = [
 ("xiaoji", dict(preset="qujing-xiaoji")),
 ("xiaoji+chow", dict(preset="qujing-xiaoji", options={"chow": True})),
 ("xiaoji+dianji", dict(preset="qujing-xiaoji", options={"dianji": True})),
 ("xiaoji+yangzhu", dict(preset="qujing-xiaoji", options={"yangzhu": True})),
 ("xiaoji+qiaoluo", dict(preset="qujing-xiaoji", options={"qiaoluo": True}, max_hands=None)),
 ("baiban+chow+yangzhu", dict(preset="qujing-baiban", options={"chow": True, "yangzhu": True})),
 ("baiban+dianji+qiaoluo", dict(preset="qujing-baiban", options={"dianji": True, "qiaoluo": True}, max_hands=None)),
 ("shuanggui", dict(preset="qujing-shuanggui")),
 ("shuanggui+chow+dianji", dict(preset="qujing-shuanggui", options={"chow": True, "dianji": True})),
 ("shuanggui+yangzhu+qiaoluo", dict(preset="qujing-shuanggui", options={"yangzhu": True, "qiaoluo": True}, max_hands=None)),
 ("xiaoji 3 seats+dianji", dict(preset="qujing-xiaoji", options={"dianji": True}, players=3)),
 ("baiban 3 seats+chow", dict(preset="qujing-baiban", options={"chow": True}, players=3)),
 ("xiaoji fan_cap=5 base=2", dict(preset="qujing-xiaoji", options={"fan_cap": 5, "base": 2})),
 ("shuanggui reserve_by_kongs, tail not counted", dict(preset="qujing-shuanggui", options={"draw_reserve_by_kongs": [20, 14, 16], "draw_reserve_counts_tail": False})),
 ("xiaoji wumeihua_wild_5p", dict(preset="qujing-xiaoji", options={"wumeihua_wild_5p": True})),
 ("xiaoji AA billing", dict(preset="qujing-xiaoji", billing="aa")),
 ("baiban no wall", dict(preset="qujing-baiban", include_wall=False)),
]

def job(args):
    k, name, kw, target = args
    per = target // len(COMBOS) + 1
    kw = dict(kw); kw.setdefault("max_hands", 8); kw.setdefault("rare_hands", 0.02)
    cfg = SimConfig(seed=7000 + k, games=10**6, **kw)
    st = SimStats(); time.perf_counter()
    findings = collections.Counter(); examples = {}
    fans = collections.Counter(); claims = collections.Counter()
    simt = 0.0; 
    it = simulate_games(cfg, st)
    while st.hands < per:
        t0 = time.perf_counter(); g = next(it); simt += time.perf_counter() - t0
        a = audit_game(GameLog(g[0].game, "sim", g, list(range(1, len(g) + 1)), closed=True))
        for f in a.findings:
            findings[f.code] += 1; examples.setdefault(f.code, (f.game, f.seq, f.message))
        after_call = None
        for i, e in enumerate(g):
            T = type(e)
            if T is ev.HandWon:
                for x in e.winners:
                    for f in x.fans: fans[f] += 1
                claims[f"win:{e.how}"] += 1
                if len(e.winners) > 1: claims[f"win:{e.how} x{len(e.winners)} (一炮多响/several robbers)"] += 1
            elif T is ev.Chowed: claims["chow"] += 1; after_call = "chow"
            elif T is ev.Ponged: claims["pong"] += 1; after_call = "pong"
            elif T is ev.KongExposed:
                claims["kong exposed (3 natural)" if all(x == e.kind for x in e.tiles) else "kong exposed (pair + chicken)"] += 1
            elif T is ev.KongAdded:
                claims["kong added (natural)" if e.tile == e.kind else "kong added (chicken)"] += 1
                if after_call: claims[f"{after_call}+kong"] += 1
            elif T is ev.KongConcealed:
                nat = sum(1 for x in e.tiles if x == e.kind)
                claims[f"kong concealed ({nat} natural + {4-nat} chicken)"] += 1
                if after_call: claims[f"{after_call}+kong"] += 1
            elif T is ev.ClaimPassed and "win" in e.claims: claims["win declined (过胡)"] += 1
            elif T is ev.TileDrawn and e.source == "tail": claims["tail replacement draw"] += 1
            elif T is ev.HandDrawn: claims["exhaustive draw (黄庄)"] += 1
            elif T is ev.PigBetPlaced: claims["养猪 bet"] += 1
            elif T is ev.RoomResized: claims["room resized 4→3"] += 1
            elif T is ev.FeeRefunded: claims["fee refunded"] += 1
            elif T is ev.GameClosed: claims[f"game closed: {e.reason}"] += 1
            if T in (ev.TileDiscarded, ev.TileDrawn) and T is not ev.TileDrawn or (T is ev.TileDrawn and e.source == "wall"):
                after_call = None
            if T is ev.TileDrawn and e.source == "tail" and after_call: pass
    return name, st.hands, st.games, simt, findings, examples, fans, claims


def main(args: list[str]) -> int:
    """``[HANDS]`` (10,000): the hands over all mixes, played by two workers.  Returns the
    exit status (0: no finding)."""
    target = int(next((a for a in args if a.isdigit()), 10000))
    t = time.time()
    with Pool(2) as p:
        res = p.map(job, [(k, n, kw, target) for k, (n, kw) in enumerate(COMBOS)], chunksize=1)
    tot_h = sum(r[1] for r in res); tot_f = collections.Counter(); fans = collections.Counter(); claims = collections.Counter(); ex = {}
    simt = sum(r[3] for r in res)
    print(f"{'combo':48s} hands games findings")
    for name, h, g, st_, f, e, fa, cl in res:
        print(f"{name:48s} {h:5d} {g:5d} {sum(f.values())}")
        tot_f += f; fans += fa; claims += cl; ex.update(e)
    print(f"TOTAL hands {tot_h}, findings {sum(tot_f.values())} {dict(tot_f)}; sim time {simt:.1f}s cpu => {tot_h/simt:.0f} hands/s per core; wall {time.time()-t:.1f}s")
    for k, v in ex.items(): print("  example", k, v)
    print("FANS"); 
    from audits.rules import family_of
    from schema.ruleset import resolve
    family = family_of(resolve("qujing-xiaoji"))
    for f in family.scoring.fan_values: print(f"  {f:18s} {family.scoring.fan_chinese[f]:6s} {fans[f]}")
    print("CLAIMS/EVENTS")
    for k in sorted(claims): print(f"  {k:50s} {claims[k]}")
    return 1 if tot_f else 0
