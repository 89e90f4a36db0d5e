"""First-output latency and peak memory of ``paipu audit --format json -o -`` on a large log.

    python bench/stream_json.py                  # 1 GB, --jobs 1 and 2
    python bench/stream_json.py --mb 200 --jobs 1

Not a test: it builds the input with the simulator (cached in ``bench/.cache/``):
``paipu simulate`` plays a seeded base log, ``paipu mutate`` plants one fault
in its first game, and the base is repeated with fresh game ids until the
target size, so every copy starts with a faulty game.  Then it runs the audit
as a child process reading its stdout, and prints:

* the seconds from start to the first JSON line (the first finding) and to the end;
* the findings written (one per copy) and their order check (input order);
* peak memory: the child's own VmHWM, and the highest sampled sum of VmRSS over
  the child and its worker processes (``--jobs``).

Targets (issue 13): first finding within 2 s, peak memory under 300 MB.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CACHE = os.path.join(HERE, ".cache")


def _paipu(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "paipu", *args], check=True, cwd=ROOT, stdout=subprocess.DEVNULL)


def base_log(games: int, seed: int) -> str:
    """A simulated log whose first game carries one planted fault (FAN_MISMATCH)."""
    os.makedirs(CACHE, exist_ok=True)
    clean = os.path.join(CACHE, f"stream-base-{games}-{seed}.jsonl")
    faulty = os.path.join(CACHE, f"stream-faulty-{games}-{seed}.jsonl")
    if not os.path.exists(faulty):
        _paipu("simulate", "--games", str(games), "--seed", str(seed), "-o", clean)
        with open(clean, "rb") as f:
            first = f.readline()
        game = first.split(b'"game":"', 1)[1].split(b'"', 1)[0].decode()
        _paipu("mutate", "--fault", "wrong_fan", "--game", game, clean, "-o", faulty)
    return faulty


def big_log(base: str, megabytes: int) -> str:
    """``base`` repeated with the prefix ``kN-`` on every game id until ``megabytes``."""
    out = os.path.join(CACHE, f"stream-big-{megabytes}MB.jsonl")
    target = megabytes << 20
    if os.path.exists(out) and os.path.exists(out + ".copies") and os.path.getsize(out) >= target:
        return out
    data = open(base, "rb").read()
    size, k = 0, 0
    with open(out + ".part", "wb") as f:
        while size < target:
            chunk = data.replace(b'"game":"', b'"game":"k%d-' % k)
            f.write(chunk)
            size += len(chunk)
            k += 1
    os.replace(out + ".part", out)
    with open(out + ".copies", "w") as f:
        f.write(str(k))
    return out


def _children(pid: int) -> list[int]:
    out = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                out += [int(c) for c in f.read().split()]
    except OSError:
        pass
    return out


def _status_kb(pid: int, key: str) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run(path: str, jobs: int) -> dict:
    """Audit ``path`` in a child; time the first line and the end; sample memory."""
    t0 = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "paipu", "audit", path, "--format", "json", "-o", "-",
                              "--jobs", str(jobs)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    stats = {"first": None, "lines": 0, "summaries": 0, "hwm_kb": 0, "tree_kb": 0, "games_in_order": True}
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            pids = [child.pid]
            for p in list(pids):
                pids += _children(p)
            stats["tree_kb"] = max(stats["tree_kb"], sum(_status_kb(p, "VmRSS") for p in pids))
            stats["hwm_kb"] = max(stats["hwm_kb"], _status_kb(child.pid, "VmHWM"))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    last = -1
    assert child.stdout is not None
    for line in child.stdout:
        if line.startswith(b'{"record":"summary"'):  # a game's summary record, not a finding
            stats["summaries"] += 1
        else:
            if stats["first"] is None:
                stats["first"] = time.perf_counter() - t0
            stats["lines"] += 1
        k = int(line.split(b'"game":"k', 1)[1].split(b"-", 1)[0])
        stats["games_in_order"] &= k >= last
        last = k
    child.wait()
    done.set()
    sampler.join()
    stats["total"] = time.perf_counter() - t0
    stats["exit"] = child.returncode
    return stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=1024, help="size of the generated log (MB)")
    ap.add_argument("--games", type=int, default=200, help="games in the simulated base log")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--jobs", default="1,2", help="comma-separated --jobs values to run")
    args = ap.parse_args()
    base = base_log(args.games, args.seed)
    big = big_log(base, args.mb)
    copies = open(big + ".copies").read().strip()
    print(f"log: {os.path.getsize(big) / 1e9:.2f} GB ({os.path.getsize(base) / 1e6:.1f} MB base × {copies} "
          f"copies, {args.games} games each; one planted FAN_MISMATCH per copy, in its first game)")
    for jobs in (int(j) for j in args.jobs.split(",")):
        s = run(big, jobs)
        first = f"{s['first']:.2f} s" if s["first"] is not None else "none"
        print(f"  --jobs {jobs}: first finding after {first}; {s['lines']} findings and {s['summaries']} game summaries in {s['total']:.0f} s "
              f"(exit {s['exit']}, input order {'kept' if s['games_in_order'] else 'BROKEN'}); "
              f"peak RSS {s['hwm_kb'] / 1024:.0f} MB (paipu process), "
              f"{s['tree_kb'] / 1024:.0f} MB (sampled sum with workers)")


if __name__ == "__main__":
    main()
