"""The parallel audit gives what the one-process audit gives: the same results, in the same order."""

from __future__ import annotations

import io
import sys
import time

import pytest

from audits import parallel
from audits import audit_game, audit_paths
from schema import events as ev


def one_job(paths):
    orphans = []
    return list(audit_paths(paths, jobs=1, orphans=orphans)), orphans


def parallel_jobs(paths, jobs=2, **kw):
    orphans = []
    return list(parallel.audit_parallel(paths, jobs=jobs, orphans=orphans, **kw)), orphans


@pytest.fixture(params=[1 << 20, 700], ids=["big-blocks", "tiny-blocks"])
def deal_bytes(request, monkeypatch):
    monkeypatch.setattr(parallel, "DEAL_BYTES", request.param)
    return request.param


@pytest.fixture(params=[8 << 20, 1500], ids=["whole-files", "small-ranges"])
def span_bytes(request, monkeypatch):
    monkeypatch.setattr(parallel, "SPAN_BYTES", request.param)
    return request.param


@pytest.mark.parametrize("jobs", [2, 3])
def test_same_results_in_the_same_order_as_one_job(folder, deal_bytes, span_bytes, jobs):
    paths = [str(folder), str(folder / "missing.jsonl")]
    expected, expected_orphans = one_job(paths)
    got, orphans = parallel_jobs(paths, jobs=jobs)
    assert [(a.game, a.file) for a in got] == [(a.game, a.file) for a in expected]
    assert got == expected
    assert orphans == expected_orphans
    # the folder really holds what the test is about
    assert sum(1 for a in got if a.findings) >= 2 and any(not a.complete for a in got)
    assert [a.game for a in got].count("h-clean") == 2
    assert {o.message.split(" ")[0] for o in orphans} >= {"no", "not", "missing", "cannot"}


@pytest.mark.parametrize("read_bytes", [997, 4096, 1 << 22])  # the plan reads the file in chunks of this size
def test_ranges_are_cut_after_a_game_closes_at_the_right_line(folder, monkeypatch, read_bytes):
    path = folder / "a-sim.jsonl"
    data = path.read_bytes()
    monkeypatch.setattr(parallel, "_PLAN_BYTES", read_bytes)
    spans = list(parallel._plan(str(path), 4000))
    assert len(spans) > 3 and spans[0][0] == 0 and spans[-1][1] is None
    for (start, end, first), nxt in zip(spans, spans[1:] + [None]):
        assert first == data.count(b"\n", 0, start) + 1
        if nxt is not None:
            assert end == nxt[0] and data[end - 1:end] == b"\n"
            assert b'"GameClosed"' in data[data.rfind(b"\n", 0, end - 1) + 1:end]


def test_a_range_cut_inside_a_game_is_dealt_again(folder, monkeypatch):
    # interleaved games: a cut after one game's GameClosed falls inside the others
    path = str(folder / "b-interleaved.jsonl")
    monkeypatch.setattr(parallel, "SPAN_BYTES", 1500)
    assert len(list(parallel._plan(path, 1500))) > 2
    assert parallel_jobs([path], jobs=2) == one_job([path])


def _slow_on_fragments(log):
    """The audit, slowed down on a game read from its middle (a span cut inside it)."""
    if log.events and type(log.events[0]) is not ev.GameOpened:
        time.sleep(0.3)
    return audit_game(log)


def test_no_span_is_given_once_an_earlier_cut_fell_inside_a_game(folder, monkeypatch):
    # interleaved games: the first span ends with games open; its reply is read while this
    # process waits to give the third span (the second worker is slow on its fragment), so
    # the file is dealt from the first span on and no later span may be given
    path = str(folder / "b-interleaved.jsonl")
    monkeypatch.setattr(parallel, "SPAN_BYTES", 1500)
    monkeypatch.setattr(parallel, "SPANS_AHEAD", 1)
    assert len(list(parallel._plan(path, 1500))) > 2
    assert parallel_jobs([path], jobs=2, audit=_slow_on_fragments) == one_job([path])


def test_ranges_of_a_plain_file_and_a_gz_file_between(folder, tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "SPAN_BYTES", 2000)
    paths = [str(folder / "a-sim.jsonl"), str(folder / "d-sim.jsonl.gz"), str(folder / "b-interleaved.jsonl"),
             str(folder / "a-sim.jsonl")]
    assert parallel_jobs(paths, jobs=2, window=1) == one_job(paths)


def test_one_file_with_small_window(folder, monkeypatch):
    path = str(folder / "c-faulty.jsonl")
    monkeypatch.setattr(parallel, "DEAL_BYTES", 300)
    assert parallel_jobs([path], jobs=2, window=1) == one_job([path])


def test_stdin_is_read_in_this_process(folder, monkeypatch):
    data = (folder / "b-interleaved.jsonl").read_bytes() + (folder / "c-faulty.jsonl").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    expected = one_job(["-"])
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    got = parallel_jobs(["-"], jobs=2)
    assert got == expected and got[0] and got[0][0].file == "<stdin>"


def explosive_audit(log):
    """An audit with a bug that shows on one game only."""
    if log.game == "h-underpaid":
        raise ZeroDivisionError("boom")
    return audit_game(log)


def test_a_game_whose_audit_raises_does_not_stop_the_others(folder):
    path = str(folder / "c-faulty.jsonl")
    expected, _ = one_job([path])
    got, _ = parallel_jobs([path], jobs=2, audit=explosive_audit)
    assert [a.game for a in got] == [a.game for a in expected]
    for a, b in zip(got, expected):
        if a.game == "h-underpaid":
            assert not a.complete and [f.code for f in a.findings] == ["INTERNAL_ERROR"]
            assert "boom" in a.findings[0].message
        else:
            assert a == b


def test_spawned_workers_give_the_same_results(folder):
    path = str(folder / "c-faulty.jsonl")
    assert parallel_jobs([path], jobs=2, start_method="spawn") == one_job([path])


def test_stopping_early_stops_the_workers(folder):
    it = parallel.audit_parallel([str(folder)], jobs=2)
    first = next(it)
    assert first.game
    it.close()  # must not hang, and leaves no worker behind
    import multiprocessing as mp
    assert not [p for p in mp.active_children() if p.name.startswith("paipu-audit")]
