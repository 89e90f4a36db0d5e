"""``bench/run.py``'s side-by-side measure: two per-game passes taking turns in one process,
each run to its end, its CPU time summed over its turns (the figure of the per-family rows)."""

from __future__ import annotations

import importlib.util
import os
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _bench_run():
    spec = importlib.util.spec_from_file_location("bench_run", os.path.join(ROOT, "bench", "run.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pass(name: str, games: int, log: list, spin: float = 0.0):
    def run():
        for g in range(games):
            if spin:
                end = time.process_time() + spin
                while time.process_time() < end:
                    pass
            log.append((name, g))
            yield g
    return run


def test_each_pass_runs_to_its_end_in_turns():
    bench = _bench_run()
    log: list = []
    a, b = bench.side_by_side(_pass("a", 8, log), _pass("b", 12, log), (8, 12), slices=4)
    assert [g for n, g in log if n == "a"] == list(range(8))
    assert [g for n, g in log if n == "b"] == list(range(12))
    # four turns each: a's 2 games, then b's 3, and again
    names = "".join(n for n, _ in log)
    assert names == "aabbb" * 4
    assert a >= 0 and b >= 0


def test_a_pass_is_charged_its_own_cpu_only():
    bench = _bench_run()
    log: list = []
    slow, fast = bench.side_by_side(_pass("slow", 10, log, spin=0.004), _pass("fast", 10, log), (10, 10), slices=5)
    assert slow >= 0.035  # ten games of 4 ms each
    assert fast < slow / 4


def test_a_pass_with_more_games_than_counted_is_still_run_to_its_end():
    # the last turn takes what is left (an audit's orphans and tamper evidence come after its games)
    bench = _bench_run()
    log: list = []
    bench.side_by_side(_pass("a", 5, log), _pass("b", 3, log), (4, 3), slices=2)
    assert sum(1 for n, _ in log if n == "a") == 5
