"""Audit workers die with their parent (issue 35): ``kill -9`` of the process running
``audit_parallel`` (``paipu audit --jobs N``, ``paipu ingest --jobs N``) leaves no worker
behind, by Linux's parent-death signal and, where that is not used, by the workers' own
watch on their parent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from tests.paipu.test_store import dianji_game, write
from tests.reliability.helpers import ROOT

posix_only = pytest.mark.skipif(os.name != "posix", reason="kill -9 and process states are POSIX")


def _alive(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting to be reaped has stopped running)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return True


def _gone_within(pids: list[int], seconds: float) -> list[int]:
    """The pids still running after waiting up to ``seconds`` for all to end."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        left = [p for p in pids if _alive(p)]
        if not left:
            return []
        time.sleep(0.1)
    return [p for p in pids if _alive(p)]


def _kill_all(pids: list[int]) -> None:
    for p in pids:
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass


PARENT = textwrap.dedent("""
    import multiprocessing as mp, sys, time
    import audits.parallel as P
    from audits.audit import audit_game

    if sys.argv[2] == "watch":  # the portable watch alone, no parent-death signal
        P._deathsig_ok = lambda: False

    def slow(log):
        time.sleep(0.05)
        return audit_game(log)

    results = P.audit_parallel([sys.argv[1]], 2, audit=slow)
    next(results)
    print(" ".join(str(p.pid) for p in mp.active_children()), flush=True)
    for _ in results:
        pass
""")


@posix_only
@pytest.mark.parametrize("how", ["deathsig", "watch"])
def test_workers_die_when_their_parent_is_killed(tmp_path, how):
    if how == "deathsig" and not sys.platform.startswith("linux"):
        pytest.skip("the parent-death signal is Linux's")
    path = write(tmp_path / "a.jsonl", *[dianji_game(f"g{i}") for i in range(800)])
    parent = subprocess.Popen([sys.executable, "-c", PARENT, path, how], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    workers: list[int] = []
    try:
        workers = [int(x) for x in parent.stdout.readline().split()]
        assert len(workers) == 2 and all(_alive(w) for w in workers), parent.stderr.read()
        parent.send_signal(signal.SIGKILL)
        parent.wait(timeout=30)
        left = _gone_within(workers, 20)
        assert not left, f"workers {left} outlived their parent ({how})"
    finally:
        parent.kill()
        _kill_all(workers)


def test_a_worker_whose_parent_lives_keeps_working_near_miss(tmp_path):
    # the near miss: the watch does not end a worker while its parent runs (a full run completes)
    from audits.parallel import audit_parallel

    path = write(tmp_path / "a.jsonl", *[dianji_game(f"g{i}") for i in range(6)])
    assert [a.game for a in audit_parallel([path], 2)] == [f"g{i}" for i in range(6)]


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="lists children through Linux's /proc")
@pytest.mark.parametrize("command", ["ingest", "audit"])
def test_kill_9_of_a_parallel_command_leaves_no_worker(tmp_path, command):
    path = write(tmp_path / "a.jsonl", *[dianji_game(f"g{i}") for i in range(1500)])
    args = ["ingest", path, "--db", str(tmp_path / "s.duckdb")] if command == "ingest" else \
        ["audit", path, "-o", str(tmp_path / "out.txt")]
    code = "import sys; from paipu.cli import main; sys.argv = ['paipu'] + sys.argv[1:]; main()"
    p = subprocess.Popen([sys.executable, "-c", code, *args, "--jobs", "2"], cwd=ROOT,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        end = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < end and p.poll() is None:
            workers = _children(p.pid)
            time.sleep(0.05)
        if p.poll() is not None:
            pytest.skip("the run ended before its workers were seen (a very fast machine)")
        assert len(workers) >= 2
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=30)
        assert not _gone_within(workers, 10)
    finally:
        p.kill()
        _kill_all(workers)
