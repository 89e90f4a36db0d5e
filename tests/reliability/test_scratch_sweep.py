"""The spool of a killed ``ingest --parquet`` (or ``:memory:``) ingest is removed by the next
ingest (issue 35): such spools live in ``$TMPDIR``, locked while their ingest runs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import textwrap

import pytest

from paipu import store
from paipu.store import scratch
from tests.paipu.test_store import dianji_game, write
from tests.reliability.helpers import ROOT


@pytest.fixture
def tmpdir_env(tmp_path, monkeypatch):
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def _spool_of_another_process(folder) -> tuple[subprocess.Popen, str]:
    """A spool made and held by another running process (as a running ingest holds its own)."""
    code = textwrap.dedent("""
        import os, sys, time
        from paipu.store import scratch
        path = scratch.make("ingest")
        open(os.path.join(path, "batch-1.ndjson"), "w").write("{}")
        print(path, flush=True)
        time.sleep(60)
    """)
    p = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                         env={**os.environ, "TMPDIR": str(folder)})
    return p, p.stdout.readline().strip()


def _killed_ingest_spool(folder) -> str:
    """A spool whose process was killed with SIGKILL (as a killed ingest leaves it)."""
    p, path = _spool_of_another_process(folder)
    p.send_signal(signal.SIGKILL)
    p.wait(timeout=30)
    assert os.path.isdir(path)
    return path


@pytest.mark.parametrize("target", ["parquet", "memory"])
def test_the_next_ingest_removes_a_killed_ingests_spool(tmp_path, tmpdir_env, target):
    left = _killed_ingest_spool(tmpdir_env)
    logs = write(tmp_path / "a.jsonl", dianji_game("g1"))
    if target == "parquet":
        r = store.ingest([logs], parquet=str(tmp_path / "pq"))
    else:
        r = store.ingest([logs], ":memory:")
    assert r.added == 1
    assert not os.path.exists(left)
    assert os.listdir(tmpdir_env) == []  # and its own spool is gone too


def test_a_running_ingests_spool_is_kept_near_miss(tmp_path, tmpdir_env):
    p, theirs = _spool_of_another_process(tmpdir_env)
    try:
        store.ingest([write(tmp_path / "a.jsonl", dianji_game("g1"))], parquet=str(tmp_path / "pq"))
        assert os.path.isdir(theirs) and scratch.sweep() == 0
    finally:
        p.kill()
        p.wait(timeout=30)
    assert scratch.sweep() == 1 and not os.path.exists(theirs)
