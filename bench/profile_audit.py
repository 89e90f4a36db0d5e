"""Profile the single-process audit on the bench corpus (issue 7).

    python bench/profile_audit.py                  # wall time, then the cProfile top functions
    python bench/profile_audit.py --sampler        # pyinstrument (if installed): less distortion

Uses the cached corpus bench/run.py builds (run it once first).  Not part of the test suite.
"""

from __future__ import annotations

import argparse
import cProfile
import glob
import os
import pstats
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from audits import audit_paths  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", nargs="?", help="a log (default: the cached bench corpus)")
    ap.add_argument("--sampler", action="store_true", help="profile with pyinstrument instead of cProfile")
    ap.add_argument("--top", type=int, default=25)
    args = ap.parse_args()
    path = args.path or sorted(glob.glob(os.path.join(HERE, ".cache", "corpus-*.jsonl")))[0]

    def run() -> int:
        return sum(len(a.findings) for a in audit_paths([path]))

    run()  # warm the lazily filled tables
    times = []
    for _ in range(3):
        t = time.perf_counter()
        run()
        times.append(time.perf_counter() - t)
    print(f"{path}: audit {sorted(times)[1]:.3f} s (median of 3)")
    if args.sampler:
        from pyinstrument import Profiler

        prof = Profiler(interval=0.0002)
        prof.start()
        run()
        prof.stop()
        print(prof.output_text(unicode=True, color=False, show_all=False))
        return
    pr = cProfile.Profile()
    pr.enable()
    run()
    pr.disable()
    st = pstats.Stats(pr)
    total = sum(v[2] for v in st.stats.values())  # type: ignore[attr-defined]
    print(f"cProfile (inflates per-call costs; shares of {total:.2f} s own time):")
    rows = sorted(st.stats.items(), key=lambda kv: -kv[1][2])[:args.top]  # type: ignore[attr-defined]
    for (file, line, fn), (_cc, nc, tt, ct, _callers) in rows:
        print(f"  {tt / total:6.1%}  {tt:7.3f} s  {nc:8d} calls  {os.path.basename(file)}:{line}({fn})")


if __name__ == "__main__":
    main()
