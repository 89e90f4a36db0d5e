"""Long fuzz run: ``python bench/fuzz.py N [--seed S] [--start K] [--ingest-every M]``.

Feeds N seeded malformed and hostile inputs (the operators of
``tests/reliability/fuzzing.py``: byte flips, truncation, field removal, wrong
types, huge numbers, deep nesting, long strings, invalid UTF-8, odd seat and list
counts, duplicated/dropped/reordered lines, interleaving, cut files, gzip damage)
through the reader, the audit and the store's row builder (and a real DuckDB
ingest every M inputs), and prints how many inputs were tried, tracebacks,
internal errors, hangs, untouched games that changed, and the time taken.  Exit 1
if any of those is not 0; the failing inputs are listed by seed and number, so
``Fuzzer(seed).make(number)`` rebuilds one.

Runs can be split over processes with ``--start`` (inputs K … K+N−1).
"""

from __future__ import annotations

import argparse
import os
import signal
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.reliability.fuzzing import Fuzzer, Tally  # noqa: E402


def _line(t: Tally) -> str:
    return (f"{t.inputs:,} inputs, {t.tracebacks} tracebacks, {t.internal_errors} internal errors, "
            f"{t.hangs} hangs, {t.mismatches} untouched games changed, {t.seconds:.1f} s "
            f"({t.inputs / t.seconds if t.seconds else 0:,.0f} inputs/s)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", type=int, help="inputs to try")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--start", type=int, default=0, help="number of the first input")
    ap.add_argument("--ingest-every", type=int, default=100, help="a real DuckDB ingest every M inputs (0: never)")
    ap.add_argument("--per-input-seconds", type=float, default=30.0, help="an input taking longer is a hang")
    args = ap.parse_args()
    for sig in (signal.SIGTERM, signal.SIGHUP):  # stopped: still remove the work folder (``finally`` below)
        signal.signal(sig, lambda signum, _frame: sys.exit(128 + signum))
    fz = Fuzzer(args.seed, per_input_seconds=args.per_input_seconds, ingest_every=args.ingest_every)
    try:
        t = fz.run(args.n, args.start, progress=lambda t: print("  " + _line(t), file=sys.stderr, flush=True))
    finally:
        fz.close()
    print(f"fuzz: seed {args.seed}, inputs {args.start}…{args.start + args.n - 1}")
    print(_line(t))
    print("operators: " + ", ".join(f"{k} {v:,}" for k, v in sorted(t.ops.items())))
    for f in t.failures[:50]:
        print("  " + f)
    return 1 if t.bad else 0


if __name__ == "__main__":
    sys.exit(main())
