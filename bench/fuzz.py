"""Long fuzz run: ``python bench/fuzz.py N [--seed S] [--start K] [--workers W] [--journal FILE]``.

Feeds N seeded malformed and hostile inputs (the operators of
``tests/reliability/fuzzing.py``: byte flips, truncation, field removal, wrong
types, huge numbers, deep nesting, long strings, invalid UTF-8, odd seat and list
counts, duplicated/dropped/reordered/transplanted lines, interleaving, cut files,
gzip damage), made from every game of every sample log under ``sample_logs/``
(every family's folder, clean and faulty), and prints how many inputs were tried,
tracebacks, internal errors, hangs, untouched games that changed, and the rate.
Exit 1 if any of those is not 0; the failing inputs are listed by seed and number,
so ``Fuzzer(seed).make(number)`` rebuilds one.

Each input runs in a worker process (``--workers``, one per core by default),
through the entry points the command line uses, in that process: every game
read, replayed and audited as ``paipu audit`` does (an exception out of it, or
an ``INTERNAL_ERROR`` finding, is what the command would turn into exit 3); every
``--ingest-every``-th input also through a real DuckDB ingest (``paipu ingest``'s
batched derivation) and the Python row derivation; every ``--report-every``-th
through the text report; and every ``--cli-every``-th through ``paipu audit`` and
``paipu ingest`` in a subprocess, so the command line's own error handling and
exit codes are exercised too.  An input is a hang past ``--per-input-seconds`` of
CPU time (10 s; CPU, not the clock, on a shared machine) or ``--wall-seconds`` on
the clock.

The inputs are split into chunks (``--chunk``); with ``--journal FILE`` each
finished chunk's counts are appended to FILE, and a run started again with the
same journal, seed and chunk size skips the chunks it holds and adds their
counts in: a long run can be stopped and resumed, or split over machines
(``--summary`` prints the journal's figures without running anything).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing as mp
import os
import shutil
import signal
import sys
import tempfile
import time
from typing import Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.reliability.fuzzing import Fuzzer, Tally  # noqa: E402

#: Failures kept per chunk (each names its seed and input: the rest are in the counts).
KEEP_FAILURES = 50

_FUZZER: Optional[Fuzzer] = None


def _line(t: Tally, seconds: float) -> str:
    cpu_rate = t.inputs / t.cpu_seconds if t.cpu_seconds else 0
    return (f"{t.inputs:,} inputs, {t.tracebacks} tracebacks, {t.internal_errors} internal errors, "
            f"{t.hangs} hangs, {t.mismatches} untouched games changed; {seconds:,.0f} s "
            f"({t.inputs / seconds if seconds else 0:,.0f} inputs/s), {t.cpu_seconds:,.0f} CPU-s "
            f"({cpu_rate:,.0f} inputs per CPU-second)")


def _worker_start(seed: int, options: dict, parent: int, work: str) -> None:
    """A worker: dies with the run (however it dies), then builds its fuzzer once."""
    from audits.parallel import die_with_parent

    global _FUZZER
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    die_with_parent(parent, deathsig=True)
    _FUZZER = Fuzzer(seed, tmp_root=work, **options)
    _FUZZER.warm()


def _worker_chunk(chunk: tuple[int, int]) -> tuple[int, int, Tally]:
    start, n = chunk
    assert _FUZZER is not None
    t = _FUZZER.run(n, start)
    del t.failures[KEEP_FAILURES:]
    return start, n, t


def _read_journal(path: Optional[str], seed: int, chunk: int) -> dict[int, Tally]:
    """The chunks a journal holds for this seed and chunk size, by first input."""
    done: dict[int, Tally] = {}
    if not path or not os.path.exists(path):
        return done
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                rec = json.loads(line)
            except ValueError:
                continue  # a line cut by a killed run: that chunk runs again
            if rec.get("seed") == seed and rec.get("chunk") == chunk:
                done[rec["start"]] = Tally(**rec["tally"])
    return done


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, help="inputs to try")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--start", type=int, default=0, help="number of the first input")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1,
                    help="worker processes (default: one per core)")
    ap.add_argument("--chunk", type=int, default=1000, help="inputs per task (and per journal record)")
    ap.add_argument("--journal", help="append each finished chunk here; skip the chunks it already holds")
    ap.add_argument("--summary", action="store_true", help="print the figures the journal holds; run nothing")
    ap.add_argument("--ingest-every", type=int, default=10,
                    help="every M-th input also through a DuckDB ingest (0: none)")
    ap.add_argument("--ingest-batch", type=int, default=100, help="inputs per DuckDB ingest")
    ap.add_argument("--report-every", type=int, default=200, help="every R-th input also through the text report")
    ap.add_argument("--cli-every", type=int, default=10000, help="every K-th input also through `paipu audit` and "
                    "`paipu ingest` in a subprocess (0: never)")
    ap.add_argument("--per-input-seconds", type=float, default=10.0, help="CPU seconds past which an input is a hang")
    ap.add_argument("--wall-seconds", type=float, default=300.0,
                    help="seconds on the clock past which an input is a hang")
    args = ap.parse_args()
    options = dict(per_input_seconds=args.per_input_seconds, wall_seconds=args.wall_seconds,
                   ingest_every=args.ingest_every, ingest_batch=args.ingest_batch, report_every=args.report_every,
                   cli_every=args.cli_every)
    for sig in (signal.SIGTERM, signal.SIGHUP):  # stopped: still stop the workers and remove the work folder
        signal.signal(sig, lambda signum, _frame: sys.exit(128 + signum))
    end = args.start + args.n
    chunks = [(s, min(args.chunk, end - s)) for s in range(args.start, end, args.chunk)]
    done = _read_journal(args.journal, args.seed, args.chunk)
    total = Tally()
    for s, n in chunks:
        if s in done and done[s].inputs == n:
            total.add(done[s])
    todo = [(s, n) for s, n in chunks if not (s in done and done[s].inputs == n)]
    if args.summary:
        todo = []
    if total.inputs:
        print(f"journal {args.journal}: {total.inputs:,} inputs already run, {len(todo)} chunks to go", flush=True)
    fresh = Tally()
    root = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    work = tempfile.mkdtemp(prefix="paipu-fuzz-run-", dir=root)
    pool = None
    t0 = time.perf_counter()
    try:
        if not todo:
            results = iter(())
        elif args.workers > 1:
            pool = mp.get_context("fork").Pool(args.workers, _worker_start, (args.seed, options, os.getpid(), work))
            results = pool.imap_unordered(_worker_chunk, todo)
        else:
            _worker_start(args.seed, options, os.getppid(), work)
            results = map(_worker_chunk, todo)
        journal = open(args.journal, "a", encoding="utf-8") if args.journal else None
        try:
            for start, n, t in results:
                fresh.add(t)
                total.add(t)
                if journal is not None:
                    journal.write(json.dumps({"seed": args.seed, "chunk": args.chunk, "start": start, "n": n,
                                              "options": options, "tally": dataclasses.asdict(t)}) + "\n")
                    journal.flush()
                seconds = time.perf_counter() - t0
                left = args.n - total.inputs
                eta = left / (fresh.inputs / seconds) if fresh.inputs else 0
                print(f"  {_line(fresh, seconds)}; all: {total.inputs:,}/{args.n:,}, {total.bad} bad, "
                      f"ETA {eta / 3600:.1f} h", file=sys.stderr, flush=True)
        finally:
            if journal is not None:
                journal.close()
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        if _FUZZER is not None:
            _FUZZER.close()
        for _ in range(3):  # a worker stopped mid-write may still add a file while the tree goes
            shutil.rmtree(work, ignore_errors=True)
            if not os.path.exists(work):
                break
            time.sleep(1)
    seconds = time.perf_counter() - t0
    print(f"fuzz: seed {args.seed}, inputs {args.start}…{end - 1}, {args.workers} workers")
    print("this run: " + _line(fresh, seconds))
    print(f"all: {total.inputs:,} inputs, {total.tracebacks} tracebacks, {total.internal_errors} internal errors, "
          f"{total.hangs} hangs, {total.mismatches} untouched games changed; slowest input "
          f"{total.slowest:.2f} CPU-s ({total.slowest_label})")
    print(f"  through a DuckDB ingest: {total.ingested:,}; through the command line: {total.cli_runs:,}")
    print("  damaged game by family: " + ", ".join(f"{k} {v:,}" for k, v in sorted(total.families.items())))
    print("  operators: " + ", ".join(f"{k} {v:,}" for k, v in sorted(total.ops.items())))
    for f in total.failures[:50]:
        print("  " + f)
    return 1 if total.bad else 0


if __name__ == "__main__":
    sys.exit(main())
