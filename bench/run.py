"""paipu benchmark: every figure of the performance issue in one run, side by side.

    python bench/run.py                 # the full run (≥20,000 hands, a 1 GB RSS probe)
    python bench/run.py --hands 2000 --big-mb 50 --runs 1     # a quick look

Figures are medians of ``--runs`` runs and are printed with the ratios the
targets are stated in, since the machine is noisy.  The rulesets are compared per
hand in CPU time (this process only), each family's corpus and Qujing's taking
turns, best of at least three each: on a shared machine the wall clock measures
the neighbours.  The figures of the per-family rows (Guangdong, Sichuan, the new
families) audit the two corpora side by side in one process, taking turns every
1/40 of their games, and report the median of the rounds' ratios
(:func:`interleaved_cpu`).  Not part of the test suite.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Callable, Iterator, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

import msgspec  # noqa: E402

from paipu.store.ingest import DEFAULT_BATCH_GAMES  # noqa: E402
from schema.events import AnyEvent, HandStarted  # noqa: E402

CACHE = os.path.join(HERE, ".cache")

#: One room configuration per preset/option mix, so the corpus exercises them all.
MIXES = [
    ("qujing-xiaoji", {}),
    ("qujing-xiaoji", {"chow": True, "dianji": True}),
    ("qujing-baiban", {"yangzhu": True}),
    ("qujing-shuanggui", {"qiaoluo": True}),
    ("qujing-xiaoji", {"dianji": True, "qiaoluo": True}),
]


def median_time(fn: Callable[[], object], runs: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        gc.collect()
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


#: Guangdong 鸡平和 mixes (its own corpus: the Guangdong row).
GUANGDONG_MIXES = [
    ("guangdong-jipinghu", {}),
    ("guangdong-jipinghu", {"kong_payments": "on_win", "louhe_scope": "any_discard"}),
    ("guangdong-jipinghu", {"min_fan": 1, "seven_pairs_fan": 4}),
]


#: Hainan 海南麻将 mixes (its own corpus: the Hainan row, audit time per event ≤ 1.2× Qujing's).
HAINAN_MIXES = [
    ("hainan", {}),
    ("hainan", {"opening_buhua": "by_round", "hand_multiplier": "additive", "genpai": "always"}),
    ("hainan", {"min_fan": 0, "lianzhuang": "multiply", "flower_money": "sets"}),
]
#: Xuzhou 徐州麻将 mixes (its own corpus: the Xuzhou row, audit time per event ≤ 1.2× Qujing's).
XUZHOU_MIXES = [
    ("xuzhou", {}),
    ("xuzhou", {"xiazui": "max_two", "dealer_bonus": "double"}),
    ("xuzhou", {"multi_win": False, "wild_discard": "forbidden"}),
]


#: Wenzhou 温州麻将 mixes (its own corpus: the Wenzhou row, audit time per event ≤ 1.2× Qujing's).
WENZHOU_MIXES = [
    ("wenzhou", {}),
    ("wenzhou", {"maidi": True, "caishenqian": True, "kong_payments": "at_end"}),
    ("wenzhou", {"lianzhuang": "jinjie2", "extra_shuangfan": "teshu", "lazila": True}),
]


#: Wuhan 红中赖子杠 mixes (its own corpus: the Wuhan row, audit time per event ≤ 1.2× Qujing's).
WUHAN_MIXES = [
    ("wuhan-hzlzg", {}),
    ("wuhan-hzlzg", {"fan_mode": "koukou", "pi_tiles": ["7z", "6z"]}),
    ("wuhan-hzlzg", {"multi_win": True, "discard_payers": "discarder"}),
]


#: Changsha 长沙麻将 mixes (its own corpus: the Changsha row, audit time per event ≤ 1.2× Qujing's).
CHANGSHA_MIXES = [
    ("changsha", {}),
    ("changsha", {"bird_mode": "double", "dealer_bonus": "per_unit"}),
    ("changsha-jiajiang", {"multi_win": False, "kaigang_count": 4}),
]


#: The families measured per event against Qujing (``--xuzhou``, ``--wuhan``, … run one row).
PER_EVENT_MIXES = {"xuzhou": XUZHOU_MIXES, "wuhan": WUHAN_MIXES, "changsha": CHANGSHA_MIXES,
                   "wenzhou": WENZHOU_MIXES, "hainan": HAINAN_MIXES}


#: The Sichuan corpora (``--sichuan``): one per preset.
SICHUAN_MIXES = {"sichuan": [("sichuan", {})], "sichuan-xuezhan": [("sichuan-xuezhan", {})]}


def build_corpus(hands: int, seed: int, mixes=None, name: str = "corpus") -> tuple[str, int, int]:
    """Simulate rooms across every mix until ``hands`` hands; cached by (hands, seed)."""
    from paipu.sim.simulate import SimConfig, simulate_games
    from schema.reader import encode_events

    mixes = mixes or MIXES
    os.makedirs(CACHE, exist_ok=True)
    path = os.path.join(CACHE, f"{name}-{hands}-{seed}.jsonl")
    if not os.path.exists(path):
        made = 0
        k = 0
        tmp = path + ".part"
        with open(tmp, "wb") as out:
            while made < hands:
                preset, options = mixes[k % len(mixes)]
                cfg = SimConfig(preset=preset, options=options, games=20, seed=seed * 1000 + k, max_hands=8,
                                game_prefix=f"b{k}-")
                for game in simulate_games(cfg):
                    out.write(encode_events(game))
                    made += sum(1 for e in game if type(e) is HandStarted)
                k += 1
        os.replace(tmp, path)
    data = open(path, "rb").read()
    events = data.count(b"\n")
    hands_in = data.count(b'"type":"HandStarted"')
    return path, events, hands_in


def decode_floor(path: str) -> int:
    """msgspec decoding into the typed events, nothing else."""
    dec = msgspec.json.Decoder(AnyEvent)
    n = 0
    with open(path, "rb") as f:
        rest = b""
        while True:
            block = f.read(1 << 22)
            if not block:
                break
            block = rest + block
            cut = block.rfind(b"\n") + 1
            rest = block[cut:]
            n += len(dec.decode_lines(block[:cut]))
        if rest:
            n += len(dec.decode_lines(rest))
    return n


def replay_only(path: str) -> int:
    """The reader and the reducer alone (``bench/checks_cost.py``'s, the collector set as the audit sets it)."""
    import checks_cost

    return checks_cost.replay_only(path)


def full_audit(path: str, jobs: int) -> int:
    from audits import audit_paths

    return sum(len(a.findings) for a in audit_paths([path], jobs=jobs))


def wins_in(path: str) -> int:
    """The winners of every ``HandWon`` of a corpus (a 一炮多响 counts each winner)."""
    with open(path, "rb") as f:
        return sum(line.count(b'"seat":') for line in f if line.startswith(b'{"type":"HandWon"'))


def cpu_audit(path: str) -> float:
    """CPU seconds of a 1-job audit of ``path`` (this process only: steadier than the wall
    clock on a shared machine)."""
    gc.collect()
    return cpu_seconds(lambda: full_audit(path, 1))


def paired_cpu(qujing: str, other: str, runs: int) -> list[tuple[float, float]]:
    """Audit CPU seconds of the Qujing corpus and of another, the two taking turns,
    ``max(runs, 3)`` turns: each turn's pair was measured seconds apart."""
    return [(cpu_audit(qujing), cpu_audit(other)) for _ in range(max(runs, 3))]


def side_by_side(first: Callable[[], Iterator[object]], second: Callable[[], Iterator[object]],
                 games: tuple[int, int], slices: int = 40) -> tuple[float, float]:
    """One round of two per-game passes run side by side in one process (``first()`` and
    ``second()`` each yield once a game, ``games`` of each): each pass runs to its end, the two
    taking turns every ``1/slices`` of their games (an audit's turn is about 50 ms at 2,000
    hands, half a second at 20,000); the CPU seconds of each pass, summed over its turns.  A
    slow spell of a shared machine lasts seconds, so it falls on both passes alike, where whole
    passes taking turns seconds apart see different spells (on this machine two audits' ratios
    then spread 0.9-1.5).  Which pass goes first and the number of turns (10, 40, 200) moved
    Wenzhou's ratio to Qujing by less than the rounds' own spread."""
    gc.collect()
    passes = [first(), second()]
    secs = [0.0, 0.0]
    done = [0, 0]
    clock = time.process_time
    for k in range(1, slices + 1):
        for i in (0, 1):
            target = games[i] * k // slices
            t = clock()
            while done[i] < target:
                next(passes[i])
                done[i] += 1
            if k == slices:
                for _ in passes[i]:  # the pass's end (an audit's orphans, its tamper evidence)
                    pass
            secs[i] += clock() - t
    return secs[0], secs[1]


def interleaved_cpu(paths: tuple[str, str], slices: int = 40) -> tuple[float, float]:
    """One round of the 1-job audits of two corpora side by side (:func:`side_by_side`): the
    CPU seconds of each."""
    from audits import audit_paths
    from paipu.progress import games_in

    return side_by_side(lambda: audit_paths([paths[0]], jobs=1), lambda: audit_paths([paths[1]], jobs=1),
                        (games_in([paths[0]]), games_in([paths[1]])), slices)


def per_hand_cpu(qujing: tuple[str, int], other: tuple[str, int], runs: int,
                 pairs: Optional[list[tuple[float, float]]] = None) -> tuple[float, float]:
    """Audit CPU milliseconds per hand of the Qujing corpus and of another, the two taking
    turns, best of ``max(runs, 3)`` each (both see the same machine); ``pairs``: the turns
    already measured (:func:`paired_cpu`)."""
    pairs = pairs or paired_cpu(qujing[0], other[0], runs)
    q = min(a for a, _ in pairs)
    o = min(b for _, b in pairs)
    return 1e3 * q / qujing[1], 1e3 * o / other[1]


def _cpu_without_family_checks(path: str) -> float:
    """CPU seconds of the 1-job audit of ``path`` with the family's own checks switched off
    (every event to the shared walker's handler only): not an audit, a measure of what the
    family's checks cost."""
    import audits.audit as walker

    own = walker.handlers_for
    walker.handlers_for = lambda family: walker.HANDLERS
    try:
        return cpu_audit(path)
    finally:
        walker.handlers_for = own


def cluster_audit(path: str, client: object) -> int:
    from audits import audit_paths

    return sum(len(a.findings) for a in audit_paths([path], cluster=client))


def start_local_cluster(workers: int) -> tuple[object, object, float]:
    """The Dask cluster ``--cluster local:N`` starts (:func:`audits.cluster.connect`: ``workers``
    processes, one thread each), its client, and the seconds it took."""
    from audits.cluster import connect

    t = time.perf_counter()
    client, cluster = connect(f"local:{workers}")
    client.run(lambda: __import__("audits.audit"))  # workers import the audit once, as a long run would
    return cluster, client, time.perf_counter() - t


def audit_output(path: str) -> str:
    """``paipu audit PATH --format json`` of the corpus, made once (cached beside it; not timed)."""
    out = path + ".audit.jsonl"
    if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(path) or _audited_file(out) != path:
        tmp = out + ".part"
        r = subprocess.run([sys.executable, "-m", "paipu", "audit", path, "--format", "json", "-o", tmp], cwd=ROOT)
        if r.returncode not in (0, 1):
            raise SystemExit(f"the audit of {path} failed (exit {r.returncode})")
        os.replace(tmp, out)
    return out


def _audited_file(out: str) -> object:
    """The log file an audit output names (its records carry the path they were audited as:
    a cache copied from elsewhere names another path and is made again)."""
    with open(out, "rb") as f:
        first = f.readline()
    try:
        return msgspec.json.decode(first).get("file")
    except (msgspec.DecodeError, AttributeError):
        return None


#: The size of the last store each kind of ingest wrote (bytes, by ``findings``).
STORE_BYTES: dict[str, int] = {}


def ingest(path: str, findings: str = "none", jobs: int = 1, cluster: object = None) -> int:
    """Row 5: ``paipu ingest`` of the corpus into a new store, no audit (``findings="none"``).
    Row 5b (``"output"``): the same, storing the findings and ledger of a finished audit
    (``--audit-output``, made beforehand).  Rows 5c, 5d and 5f (``"here"``): the ingest runs
    the audit itself (the default ``paipu ingest``), in this process, in ``jobs`` workers, or
    on the Dask ``cluster`` (a client; its workers read byte ranges of the file)."""
    from paipu.store import ingest as run_ingest

    joined = audit_output(path) if findings == "output" else None
    with tempfile.TemporaryDirectory() as d:
        report = run_ingest([path], os.path.join(d, "bench.duckdb"), audit=findings == "here", jobs=jobs,
                            audit_output=joined, cluster=cluster)
        STORE_BYTES[findings] = os.path.getsize(os.path.join(d, "bench.duckdb"))
    assert report.added and not report.refused, report.refused[:3]
    assert report.audited == (findings != "none")
    return report


def small_games(n: int = 100_000) -> tuple[float, float, int]:
    """Row 5g: ``paipu ingest`` (default batches, no audit) of ``n`` two-event games (an
    opening and a closing each): the batch is cut by games as well as by events, so a log
    of many tiny games is never one pathological batch.  Returns (wall seconds, CPU
    seconds of this process and DuckDB's threads, batches)."""
    from paipu.store import ingest as run_ingest

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "small.jsonl")
        with open(path, "wb") as f:
            for i in range(n):
                g = f"small-{i:07d}"
                f.write(b'{"type":"GameOpened","game":"%s","seq":0,"at":"2026-01-01T00:00:00Z",'
                        b'"schema_version":1,"server":"bench","build":"1","preset":"qujing-xiaoji",'
                        b'"seats":["A","B","C","D"],"creator":0,"options":{},"start_points":0,'
                        b'"billing":"creator","fee":0}\n' % g.encode())
                f.write(b'{"type":"GameClosed","game":"%s","seq":1,"at":"2026-01-01T00:01:00Z",'
                        b'"reason":"dissolved","scores":[0,0,0,0]}\n' % g.encode())
        wall, cpu = time.perf_counter(), time.process_time()
        report = run_ingest([path], os.path.join(d, "small.duckdb"), audit=False)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert report.added == n and not report.refused, report.refused[:3]
    return wall, cpu, report.batches


def cpu_seconds(fn: Callable[[], object]) -> float:
    """CPU seconds of this process and its threads (DuckDB's included) running ``fn`` once."""
    t = time.process_time()
    fn()
    return time.process_time() - t


def events_table_floor(path: str) -> int:
    """Row 5e: DuckDB alone storing the log's lines as JSON text in a new database file (its
    JSON reader, one insert and the checkpoint, no validation, no other table, no memory
    limit): what keeping every event's JSON costs (the store keeps it only with ``--keep-raw``)."""
    import duckdb

    with tempfile.TemporaryDirectory() as d:
        con = duckdb.connect(os.path.join(d, "floor.duckdb"))
        try:
            con.execute("CREATE TABLE raw_events (raw JSON USING COMPRESSION zstd)")
            con.execute("INSERT INTO raw_events SELECT json FROM read_json_objects($p, format='newline_delimited')",
                        {"p": path})
            con.execute("CHECKPOINT")
            n = con.execute("SELECT count(*) FROM raw_events").fetchone()[0]
        finally:
            con.close()
    return n


def simulate(seed: int, rooms: int) -> tuple[float, int]:
    """Seconds and hands of the simulator playing ``rooms`` rooms (of 8 hands) in this process."""
    from paipu.sim.simulate import SimConfig, SimStats, simulate_encoded

    stats = SimStats()
    t = time.perf_counter()
    for k, (preset, options) in enumerate(MIXES):
        cfg = SimConfig(preset=preset, options=options, games=max(1, rooms // len(MIXES)), seed=seed * 7919 + k,
                        max_hands=8, game_prefix=f"s{k}-")
        for _ in simulate_encoded(cfg, stats):
            pass
    return time.perf_counter() - t, stats.hands


def complete_hands(n: int, seed: int) -> list[list[int]]:
    """Random complete 14-tile hands without wilds (4 sets + pair, max four of a kind)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        c = [0] * 34
        ok = True
        for _ in range(4):
            if rng.random() < 0.5:
                t = rng.randrange(34)
                c[t] += 3
            else:
                s = rng.randrange(3)
                r = rng.randrange(7)
                for k in range(3):
                    c[s * 9 + r + k] += 1
        c[rng.randrange(34)] += 2
        if max(c) <= 4 and ok:
            out.append(c)
    return out


def win_check(hands: list[list[int]], runs: int = 1) -> tuple[float, float, float]:
    """Seconds of paipu's check from counts, from suit keys and the ``mahjong`` package's
    agari check over ``hands``: each the best of ``runs`` passes, the three taking turns
    (so a busy moment of the machine does not fall on one side only)."""
    from audits.rules import hands as H
    from mahjong.agari import Agari

    for c in hands[:2000]:  # fill the lazily built tables first, as a long audit would
        H.is_complete(c)
    keys = [H.hand_keys(c) for c in hands]
    agari = Agari()
    ours = ours_keys = theirs = float("inf")
    for _ in range(max(1, runs)):
        t = time.perf_counter()
        assert all(H.is_complete(c) for c in hands)
        ours = min(ours, time.perf_counter() - t)
        t = time.perf_counter()
        assert all(H.is_complete_keys(*k, 0) for k in keys)
        ours_keys = min(ours_keys, time.perf_counter() - t)
        t = time.perf_counter()
        assert all(agari.is_agari(c) for c in hands)
        theirs = min(theirs, time.perf_counter() - t)
    return ours, ours_keys, theirs


def big_file(path: str, target_bytes: int) -> str:
    """Copies of the corpus with fresh game ids until ``target_bytes``; generated, not committed."""
    out = os.path.join(CACHE, f"big-{target_bytes >> 20}MB.jsonl")
    if os.path.exists(out) and os.path.getsize(out) >= target_bytes:
        return out
    data = open(path, "rb").read()
    written, k = 0, 0
    with open(out, "wb") as f:
        while written < target_bytes:
            chunk = data.replace(b'"game":"', b'"game":"c%d-' % k)
            f.write(chunk)
            written += len(chunk)
            k += 1
    return out


def _child_peak(code: str, path: str) -> tuple[list[str], float, float]:
    """Run ``code`` on ``path`` in a child process that prints its results and, last, its own
    peak RSS in kB (VmHWM: ru_maxrss can carry the forking parent's peak across exec).
    Returns the printed fields before it, the peak in MB and the seconds."""
    code += "\nprint([l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1])"
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, cwd=ROOT, check=True)
    secs = time.perf_counter() - t
    fields = out.stdout.split()
    return fields[:-1], int(fields[-1]) / 1024, secs


def peak_rss_audit(path: str) -> tuple[float, float]:
    """Peak RSS (MB) and seconds of ``paipu audit`` on ``path`` in a child process."""
    _games, rss, secs = _child_peak("import sys; from audits import audit_paths\n"
                                    "print(sum(1 for _ in audit_paths([sys.argv[1]])))", path)
    return rss, secs


def peak_rss_ingest(path: str) -> tuple[float, float, int]:
    """Peak RSS (MB), seconds and events of ``paipu ingest`` of ``path`` (no audit) into a new
    store, in a child process."""
    printed, rss, secs = _child_peak(
        "import os, sys, tempfile; from paipu.store import ingest\n"
        "with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(sys.argv[1]))) as d:\n"
        "    r = ingest([sys.argv[1]], os.path.join(d, 'rss.duckdb'), audit=False)\n"
        "print(r.events)", path)
    return rss, secs, int(printed[-1])


def cluster_row(stage: Callable[[str, Callable[[], object]], float], path: str, jobs2: float) -> float:
    """The audit on a Dask ``local:2`` cluster against ``--jobs 2``: same findings, and the time ratio."""
    cluster, client, started = start_local_cluster(2)
    try:
        same = cluster_audit(path, client) == full_audit(path, 2)
        secs = stage("4b full audit, --cluster local:2", lambda: cluster_audit(path, client))
    finally:
        client.close()
        cluster.close()
    print(f"     local:2 / --jobs 2 = {secs / jobs2:.2f}× the time (cluster start {started:.1f} s, not counted; "
          f"same findings: {same})", flush=True)
    return secs


def small_games_row(n: int) -> None:
    """Print row 5g (:func:`small_games`); ``n`` 0 skips it."""
    if not n:
        return
    wall, cpu, batches = small_games(n)
    print(f"  5g ingest of {n:,} two-event games (default batches: {batches} of at most "
          f"{DEFAULT_BATCH_GAMES:,} games): {wall:.1f} s, {cpu:.1f} s CPU, {n / wall:,.0f} games/s", flush=True)


def checks_rows(args: argparse.Namespace, by_event: bool = True) -> dict[str, float]:
    """The checks' cost per family of the registry (``bench/checks_cost.py``): decode floor,
    replay alone, full audit and the audit/replay ratio, measured together, and (``by_event``)
    each family's checks per event type.  Returns family -> audit/replay (the median of the
    rounds with the two side by side)."""
    import checks_cost

    print(f"\n  checks' cost per family ({args.checks_hands} hands each, best of {max(args.runs, 3)} CPU runs, "
          "the families taking turns; then the audit and the replay side by side):", flush=True)
    return checks_cost.rows(args.checks_hands, args.seed, max(args.runs, 3), by_event=by_event)


def in_turns(runs: dict[str, Callable[[], object]], rounds: int) -> dict[str, list[float]]:
    """Wall seconds of each of ``runs``, run once each in turn, ``rounds`` times: on a shared
    machine whose load changes by the minute, the runs of one round are compared seconds apart."""
    got: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, fn in runs.items():
            got[name].append(median_time(fn, 1)[0])
    return got


def store_rows(args: argparse.Namespace, path: str, events: int, hands: int,
               stage: Callable[[str, Callable[[], object]], float]) -> None:
    """The store's rows of issue 37 in one run, with the ratios its targets are stated in.  The
    audit and the ingest on ``--jobs 2`` and on ``local:2`` are run in turns (:func:`in_turns`,
    at least three rounds) and each ratio is the median of the rounds' ratios."""
    floor = stage("1 decode floor (msgspec)", lambda: decode_floor(path))
    audit_output(path)  # the audit's output row 5b stores (made once, not timed)
    joined = stage("5b ingest, audit's output", lambda: ingest(path, "output"))
    cluster, client, started = start_local_cluster(2)
    rounds = max(args.runs, 3)
    try:
        times = in_turns({"4 full audit, --jobs 2": lambda: full_audit(path, 2),
                          "4b full audit, --cluster local:2": lambda: cluster_audit(path, client),
                          "5d ingest, audit --jobs 2": lambda: ingest(path, "here", 2),
                          "5f ingest, --cluster local:2": lambda: ingest(path, "here", cluster=client)}, rounds)
    finally:
        client.close()
        cluster.close()
    for name, secs in times.items():
        m = statistics.median(secs)
        print(f"  {name:<28} {m:8.3f} s  {events / m / 1e6:7.3f} M events/s  {hands / m:9.0f} hands/s"
              f"   (rounds: {', '.join(f'{x:.2f}' for x in secs)} s)", flush=True)
    print(f"     ({rounds} rounds in turns; cluster start {started:.1f} s, not counted)")
    audit2, audit_c, ingest2, ingest_c = times.values()

    def ratio(num: list[float], den: list[float]) -> str:
        each = [a / b for a, b in zip(num, den)]
        return f"{statistics.median(each):6.2f}×  (rounds {', '.join(f'{r:.2f}' for r in each)})"
    rss = None
    if args.big_mb:
        big = big_file(path, args.big_mb << 20)
        rss, secs, big_events = peak_rss_ingest(big)
        print(f"  7b peak RSS ingesting {os.path.getsize(big) / 1e9:.2f} GB: {rss:.0f} MB ({secs:.0f} s, "
              f"{big_events / secs / 1e6:.2f} M events/s)", flush=True)
    print("\nratios (target; the median of the rounds' ratios):")
    print(f"  ingest --jobs 2 / audit --jobs 2 (speed)        {ratio(audit2, ingest2)}  target ≥ 0.8×")
    print(f"  ingest of an audit's output / decode floor      {floor / joined:6.1%}   (≥ 50%, events/s)")
    print(f"  audit  local:2 / --jobs 2 (time)                {ratio(audit_c, audit2)}  target ≤ 1.1×")
    print(f"  ingest local:2 / --jobs 2 (time)                {ratio(ingest_c, ingest2)}  target ≤ 1.1×")
    print(f"  store size (audited, {events:,} events)         {STORE_BYTES['here'] / 1e6:6.1f} MB "
          f"({STORE_BYTES['here'] / events:.1f} bytes an event; bench/store_parity.py compares with the old layout)")
    if rss is not None:
        print(f"  peak RSS ingesting                              {rss:6.0f} MB  (< 300 MB)")
    import store_cost

    print("\n  the store's pieces in CPU (bench/store_cost.py), against the audit's:", flush=True)
    store_cost.report(path, max(args.runs, 2))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--big-mb", type=int, default=1024, help="size of the RSS probe file (0 skips it)")
    ap.add_argument("--win-hands", type=int, default=100000)
    ap.add_argument("--sichuan", action="store_true",
                    help="only the Sichuan rows: audit per hand of each Sichuan preset against Qujing's corpus")
    ap.add_argument("--sim-rooms", type=int, default=100, help="rooms the simulator row plays (8 hands each)")
    ap.add_argument("--cluster-only", action="store_true",
                    help="only the audit on --jobs 2 against a Dask LocalCluster of 2 workers (local:2)")
    ap.add_argument("--wuhan", action="store_true",
                    help="only the Wuhan row: audit time per event against Qujing's (≤ 1.2×)")
    ap.add_argument("--xuzhou", action="store_true",
                    help="only the Xuzhou row: audit time per event against Qujing's corpus")
    ap.add_argument("--changsha", action="store_true",
                    help="only the Changsha row: audit time per event against Qujing's corpus")
    ap.add_argument("--wenzhou", action="store_true",
                    help="only the Wenzhou row: audit time per event against Qujing's corpus")
    ap.add_argument("--hainan", action="store_true",
                    help="only the Hainan row: audit time per event against Qujing's corpus")
    ap.add_argument("--guangdong-only", action="store_true",
                    help="only the full audit, 1 job, of the Qujing corpus and of a Guangdong corpus (hands/s)")
    ap.add_argument("--ingest-cluster-only", action="store_true",
                    help="only rows 5d and 5f: ingest with the audit on --jobs 2 and on a Dask local:2 cluster, then the "
                    "two in turns")
    ap.add_argument("--small-games", type=int, default=100_000, help="two-event games of row 5g (0 skips it)")
    ap.add_argument("--small-games-only", action="store_true", help="only row 5g, the ingest of many tiny games")
    ap.add_argument("--checks-only", action="store_true",
                    help="only the per-family rows of bench/checks_cost.py: decode floor, replay, full audit, "
                         "audit/replay (≤ 2×), and each family's checks per event type")
    ap.add_argument("--checks-hands", type=int, default=1000, help="hands of each family's corpus in the checks rows")
    ap.add_argument("--store-only", action="store_true",
                    help="only the store's figures of issue 37, in one run: the decode floor, the audit and the "
                    "ingest with --jobs 2 and on local:2, the ingest of an audit's output, the store's size "
                    "and (with --big-mb) the peak RSS ingesting the big file")
    ap.add_argument("--ingest-only", action="store_true",
                    help="only the ingest rows: 5 to 5e and (with --big-mb) 7b, the peak RSS ingesting the big file")
    args = ap.parse_args()

    print(f"machine: {platform.machine()} {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"msgspec {msgspec.__version__}")
    if args.small_games_only:
        small_games_row(args.small_games or 100_000)
        return
    if args.checks_only:
        checks_rows(args)
        return
    t = time.perf_counter()
    path, events, hands = build_corpus(args.hands, args.seed)
    print(f"corpus: {hands} hands, {events} events, {os.path.getsize(path) / 1e6:.1f} MB "
          f"({time.perf_counter() - t:.1f} s to build or load)\n")

    rows = []

    def stage(name: str, fn: Callable[[], object]) -> float:
        secs, _ = median_time(fn, args.runs)
        rows.append((name, secs, events / secs, hands / secs))
        print(f"  {name:<28} {secs:8.3f} s  {events / secs / 1e6:7.3f} M events/s  {hands / secs:9.0f} hands/s",
              flush=True)
        return secs

    def ingest_rows_with_audit() -> float:
        """Rows 5c and 5d: the default ``paipu ingest``, the audit run by the ingest itself;
        returns row 5c's seconds."""
        here = stage("5c ingest, audit in it", lambda: ingest(path, "here"))
        here2 = stage("5d ingest, audit --jobs 2", lambda: ingest(path, "here", 2))
        print(f"     --jobs 2 / 1 job = {here / here2:.2f}× the speed", flush=True)
        ingest_cluster_row(here2)
        return here

    def ingest_cluster_row(jobs2: float, turns: bool = False) -> float:
        """Row 5f: ``ingest --cluster local:2`` against row 5d (``--jobs 2``): the workers read
        the file's byte ranges themselves, as ``audit --cluster`` does.  ``turns``: then the
        two again, one run of each in turn (on a shared machine whose load changes, the rows
        above are run minutes apart; a pair is run seconds apart)."""
        cluster, client, started = start_local_cluster(2)
        try:
            secs = stage("5f ingest, --cluster local:2", lambda: ingest(path, "here", cluster=client))
            print(f"     local:2 / --jobs 2 = {secs / jobs2:.2f}× the time (cluster start {started:.1f} s, "
                  "not counted)", flush=True)
            if turns:
                got = in_turns({"jobs": lambda: ingest(path, "here", 2),
                                "cluster": lambda: ingest(path, "here", cluster=client)}, args.runs)
                pairs = list(zip(got["jobs"], got["cluster"]))
                ratios = sorted(c / j for j, c in pairs)
                print("     in turns (--jobs 2, local:2): " + ", ".join(f"{j:.2f}/{c:.2f} s" for j, c in pairs) +
                      f"; local:2 / --jobs 2 = {', '.join(f'{r:.2f}×' for r in ratios)}, median "
                      f"{statistics.median(ratios):.2f}×", flush=True)
        finally:
            client.close()
            cluster.close()
        return secs

    def ingest_rows() -> tuple[float, float, float, float]:
        """Rows 5 to 5e: seconds of the ingest without the audit, with a finished audit's output,
        running the audit (row 5c), and the least time two cores need to store the events table
        (row 5e: DuckDB's CPU for it plus the validation's, halved)."""
        ingest_s = stage("5 ingest into DuckDB", lambda: ingest(path))
        audit_output(path)  # the audit's output row 5b joins (made once, not timed)
        ingest_a = stage("5b ingest, audit's output", lambda: ingest(path, "output"))
        ingest_h = ingest_rows_with_audit()
        stage("5e DuckDB alone: events as JSON", lambda: events_table_floor(path))
        # the ceiling on two cores: DuckDB's CPU for that table plus the reader's validation (the decode floor)
        table_cpu, decode_cpu = (min(cpu_seconds(fn) for _ in range(max(args.runs, 2)))
                                 for fn in (lambda: events_table_floor(path), lambda: decode_floor(path)))
        least = (table_cpu + decode_cpu) / 2
        print(f"     CPU: DuckDB {table_cpu:.2f} s + validating the lines {decode_cpu:.2f} s = at least {least:.2f} s "
              f"on 2 cores, at most {events / least / 1e6:.2f} M events/s before any other table", flush=True)
        return ingest_s, ingest_a, ingest_h, least

    def ingest_ratios(ingest_s: float, ingest_a: float, ingest_h: float, least: float) -> None:
        print(f"  ingest                                {events / ingest_s / 1e6:6.2f} M events/s")
        print(f"  ingest with findings stored           {events / ingest_a / 1e6:6.2f} M events/s (≥ 1 M/s)")
        print(f"  ingest running the audit, 1 job       {events / ingest_h / 1e6:6.2f} M events/s")
        print(f"  ceiling: events table + validation    {events / least / 1e6:6.2f} M events/s (row 5e's CPU on 2 cores)")

    def side_by_side_rounds(fpath: str, q_units: int, f_units: int) -> float:
        """The row's figure: Qujing's corpus and ``fpath`` audited side by side (turns of 1/40 of the
        games, :func:`interleaved_cpu`), so a slow spell of the machine falls on both; the
        other corpus's CPU per unit (its ``f_units``: hands or events) over Qujing's, each round
        printed, the median returned."""
        interleaved_cpu((path, fpath))  # a warm-up round
        rounds = sorted((o / f_units) / (q / q_units) for q, o in
                        (interleaved_cpu((path, fpath)) for _ in range(max(args.runs, 3))))
        print(f"     side by side (40 turns a round): {', '.join(f'{r:.2f}×' for r in rounds)}; "
              f"median {statistics.median(rounds):.2f}×", flush=True)
        return statistics.median(rounds)

    def guangdong_row() -> float:
        """The Guangdong row: a Guangdong corpus of as many hands, audited with 1 job; the
        speed per hand against Qujing's corpus in CPU time (the two side by side)."""
        gpath, gevents, ghands = build_corpus(args.hands, args.seed, GUANGDONG_MIXES, "corpus-guangdong")
        secs, _ = median_time(lambda: full_audit(gpath, 1), args.runs)
        print(f"  {'3g full audit, Guangdong':<28} {secs:8.3f} s  {gevents / secs / 1e6:7.3f} M events/s  "
              f"{ghands / secs:9.0f} hands/s   ({ghands} hands)", flush=True)
        q_ms, g_ms = per_hand_cpu((path, hands), (gpath, ghands), args.runs)
        print(f"     CPU per hand, taking turns: qujing {q_ms:.3f} ms, guangdong {g_ms:.3f} ms "
              f"({gevents / ghands:.0f} against {events / hands:.0f} events a hand; best times "
              f"{q_ms / g_ms:.2f}× the speed)", flush=True)
        # the figure is a speed: Qujing's time per hand over Guangdong's
        return 1 / side_by_side_rounds(gpath, hands, ghands)

    def per_event_row(family: str) -> float:
        """A new family's row: a corpus of its mixes (:data:`PER_EVENT_MIXES`) of as many hands,
        audited with 1 job; the time per event against Qujing's corpus in CPU time (the two side
        by side)."""
        fpath, fev, fhands = build_corpus(args.hands, args.seed, PER_EVENT_MIXES[family], f"corpus-{family}")
        secs, _ = median_time(lambda: full_audit(fpath, 1), args.runs)
        print(f"  {'3 full audit, ' + family:<28} {secs:8.3f} s  {fev / secs / 1e6:7.3f} M events/s  "
              f"{fhands / secs:9.0f} hands/s   ({fhands} hands)", flush=True)
        pairs = paired_cpu(path, fpath, args.runs)
        q_ms, f_ms = per_hand_cpu((path, hands), (fpath, fhands), args.runs, pairs)
        q_us, f_us = 1e3 * q_ms * hands / events, 1e3 * f_ms * fhands / fev
        print(f"     CPU per hand, taking turns: qujing {q_ms:.3f} ms, {family} {f_ms:.3f} ms ({fev / fhands:.0f} "
              f"against {events / hands:.0f} events a hand; per event {q_us:.2f} and {f_us:.2f} µs)", flush=True)
        # each turn's own ratio (its two audits seconds apart)
        turns = sorted((o / fev) / (q / events) for q, o in pairs)
        print(f"     whole audits taking turns: {', '.join(f'{r:.2f}×' for r in turns)}; median "
              f"{statistics.median(turns):.2f}×; best times {f_us / q_us:.2f}×", flush=True)
        return side_by_side_rounds(fpath, events, fev)

    def sichuan_rows() -> dict[str, float]:
        """The Sichuan rows: a corpus per preset, audited with 1 job; the time per hand
        against Qujing's corpus in CPU time (the two side by side)."""
        got = {}
        for preset, mixes in SICHUAN_MIXES.items():
            spath, sev, shands = build_corpus(args.hands, args.seed, mixes, preset)
            secs, _ = median_time(lambda: full_audit(spath, 1), args.runs)
            print(f"  3s full audit, {preset:<15} {secs:7.3f} s  {sev / secs / 1e6:7.3f} M events/s  "
                  f"{shands / secs:9.0f} hands/s   ({shands} hands)", flush=True)
            q_ms, s_ms = per_hand_cpu((path, hands), (spath, shands), args.runs)
            q_us, s_us = 1e3 * q_ms * hands / events, 1e3 * s_ms * shands / sev
            print(f"     CPU per hand, taking turns: qujing {q_ms:.3f} ms, {preset} {s_ms:.3f} ms "
                  f"({sev / shands:.0f} against {events / hands:.0f} events a hand; per event "
                  f"{q_us:.2f} and {s_us:.2f} µs, {s_us / q_us:.2f}×; "
                  f"{wins_in(spath) / shands:.2f} against {wins_in(path) / hands:.2f} winners a hand)", flush=True)
            bare = min(_cpu_without_family_checks(spath) for _ in range(max(args.runs, 3)))
            print(f"     of which the family's own checks (sichuan.md §4–§7, §10: void first, the last four, "
                  f"查大叫 …): {s_ms - 1e3 * bare / shands:.3f} ms a hand; without them {1e3 * bare / shands:.3f} ms "
                  f"({1e3 * bare / shands / q_ms:.2f}× Qujing)", flush=True)
            got[preset] = side_by_side_rounds(spath, hands, shands)
        return got

    if args.guangdong_only:
        stage("3 full audit, 1 job", lambda: full_audit(path, 1))
        print(f"\n  Guangdong / Qujing audit speed per hand (CPU)   {guangdong_row():6.2f}×  (≥ 1×)")
        return

    only = [f for f in PER_EVENT_MIXES if getattr(args, f)]
    if only:
        stage("3 full audit, 1 job (qujing)", lambda: full_audit(path, 1))
        for family in only:
            print(f"\n  {family} / Qujing audit time per event (CPU)   {per_event_row(family):6.2f}×  (≤ 1.2×)")
        return

    if args.sichuan:
        stage("3 full audit, 1 job (qujing)", lambda: full_audit(path, 1))
        for preset, ratio in sichuan_rows().items():
            print(f"  {preset} / Qujing audit time per hand (CPU)   {ratio:6.2f}×  (≤ 1.0×)")
        return

    if args.cluster_only:
        jobs2 = stage("4 full audit, --jobs 2", lambda: full_audit(path, 2))
        cluster_row(stage, path, jobs2)
        return

    if args.store_only:
        store_rows(args, path, events, hands, stage)
        return
    if args.ingest_cluster_only:
        ingest_cluster_row(stage("5d ingest, audit --jobs 2", lambda: ingest(path, "here", 2)), turns=True)
        return
    if args.ingest_only:
        ingest_ratios(*ingest_rows())
        small_games_row(args.small_games)
        if args.big_mb:
            big = big_file(path, args.big_mb << 20)
            rss_ingest, secs, big_events = peak_rss_ingest(big)
            print(f"  7b peak RSS ingesting {os.path.getsize(big) / 1e9:.2f} GB: {rss_ingest:.0f} MB (< 300 MB; "
                  f"{secs:.0f} s, {big_events / secs / 1e6:.2f} M events/s)")
        return

    floor = stage("1 decode floor (msgspec)", lambda: decode_floor(path))
    stage("2 replay only", lambda: replay_only(path))
    audit1 = stage("3 full audit, 1 job", lambda: full_audit(path, 1))
    # right after row 3, so the forked workers start from the process state its runs had (after
    # the other families' rows the same code gave 1.86× against 1.96× right after row 3)
    audit2 = stage("4 full audit, --jobs 2", lambda: full_audit(path, 2))
    gd_speed = guangdong_row()
    sc_time = sichuan_rows()
    per_event = {family: per_event_row(family) for family in PER_EVENT_MIXES}
    checks = checks_rows(args, by_event=False)
    cluster2 = cluster_row(stage, path, audit2)
    ingest_times = ingest_rows()
    small_games_row(args.small_games)

    # a warm-up run builds the shape tables once (as any long run has them); then each run
    # plays rooms of its own seed, so no run finds its games already in the bots' memos
    simulate(args.seed + 1000, args.sim_rooms)
    sims = sorted((simulate(args.seed + k, args.sim_rooms) for k in range(args.runs)),
                  key=lambda run: run[1] / run[0])
    sim_s, sim_hands = sims[len(sims) // 2]
    print(f"\n  8 simulator, 1 process: {sim_hands} hands in {sim_s:.2f} s = {sim_hands / sim_s:.0f} hands/s "
          f"(median of {len(sims)} seeds, after a warm-up run)", flush=True)

    win = complete_hands(args.win_hands, args.seed)
    ours, ours_keys, theirs = win_check(win, args.runs)
    print(f"\n  6 win check on {len(win)} complete no-wild hands (best of {args.runs}):")
    print(f"    paipu from counts   {len(win) / ours / 1e6:6.2f} M/s")
    print(f"    paipu from keys     {len(win) / ours_keys / 1e6:6.2f} M/s")
    print(f"    mahjong agari       {len(win) / theirs / 1e6:6.2f} M/s")

    rss = rss_ingest = None
    if args.big_mb:
        big = big_file(path, args.big_mb << 20)
        rss, secs = peak_rss_audit(big)
        print(f"\n  7 peak RSS auditing {os.path.getsize(big) / 1e9:.2f} GB: {rss:.0f} MB ({secs:.0f} s)")
        rss_ingest, secs, big_events = peak_rss_ingest(big)
        print(f"  7b peak RSS ingesting {os.path.getsize(big) / 1e9:.2f} GB: {rss_ingest:.0f} MB ({secs:.0f} s, "
              f"{big_events / secs / 1e6:.2f} M events/s)", flush=True)

    print("\nratios (target):")
    print(f"  full audit / decode floor (hands/s)   {floor / audit1:6.1%}   (≥ 35%)")
    print(f"  jobs 2 / jobs 1                       {audit1 / audit2:6.2f}×  (≥ 1.85×)")
    print(f"  Guangdong / Qujing audit speed (CPU/hand) {gd_speed:5.2f}×  (≥ 1×)")
    for preset, ratio in sc_time.items():
        print(f"  {preset + ' / Qujing time (CPU/hand)':<37} {ratio:5.2f}×  (≤ 1.0×)")
    for family, ratio in per_event.items():
        print(f"  {family + ' / Qujing time (CPU/event)':<37} {ratio:5.2f}×  (≤ 1.2×)")
    for family, ratio in checks.items():
        print(f"  {'full audit / replay, ' + family + ' (CPU)':<37} {ratio:5.2f}×  (≤ 2×)")
    print(f"  local:2 / jobs 2 (time; cluster cost) {cluster2 / audit2:6.2f}×")
    print(f"  win check / mahjong agari (counts)    {theirs / ours:6.1f}×  (≥ 10×)")
    print(f"  win check / mahjong agari (keys)      {theirs / ours_keys:6.1f}×  (≥ 10×)")
    ingest_ratios(*ingest_times)
    print(f"  simulator                             {sim_hands / sim_s:6.0f} hands/s per core (≥ 1000)")
    if rss is not None:
        print(f"  peak RSS                              {rss:6.0f} MB  (< 300 MB)")
    if rss_ingest is not None:
        print(f"  peak RSS ingesting                    {rss_ingest:6.0f} MB  (< 300 MB)")


if __name__ == "__main__":
    main()
