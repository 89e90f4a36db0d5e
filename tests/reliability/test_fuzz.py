"""A seeded fuzz run in CI: hostile input never gives a traceback, an internal error or a
hang, and the games it did not touch audit exactly as they do alone.

The operators and the checks are in :mod:`tests.reliability.fuzzing`; ``bench/fuzz.py N``
runs the same fuzzer for longer.
"""

from __future__ import annotations

import os

from tests.reliability import fuzzing
from tests.reliability.helpers import paipu


def test_seeded_fuzz_run_finds_no_traceback_internal_error_hang_or_changed_game():
    tally = fuzzing.run(800, seed=14, ingest_every=40, per_input_seconds=20)
    assert tally.inputs == 800
    assert tally.failures == [], "\n".join(tally.failures[:20])
    assert (tally.tracebacks, tally.internal_errors, tally.hangs, tally.mismatches) == (0, 0, 0, 0)
    # every operator was exercised
    for op in [*fuzzing.LINE_OPS, *fuzzing.STREAM_OPS, *fuzzing.FILE_OPS, "interleaved"]:
        assert tally.ops.get(op, 0) >= 3, (op, tally.ops)


def test_fuzzed_inputs_through_the_command_line_never_show_a_traceback_or_exit_3(tmp_path):
    fz = fuzzing.Fuzzer(seed=2014)
    try:
        # inputs whose damage reaches every stage: deep, long, huge numbers, gzip damage
        wanted = {"deep", "long_string", "huge_number", "list_count", "gzip_no_trailer", "gzip_cut", "seat"}
        cases = []
        i = 0
        while wanted and i < 5000:
            c = fz.make(i)
            hit = wanted & set(c.ops)
            if "deep" in hit and b"[" * 5000 not in c.data and b'{"a":' * 5000 not in c.data:
                hit.discard("deep")  # the command line must meet nesting past the recursion limit
            if hit:
                wanted -= hit
                cases.append(c)
            i += 1
        assert not wanted
        for n, c in enumerate(cases):
            path = str(tmp_path / (f"in{n}.jsonl" + (".gz" if c.gz else "")))
            with open(path, "wb") as f:
                f.write(c.data)
            for args in (["audit", path, "--jobs", "2"], ["ingest", path, "--db", str(tmp_path / "s.duckdb")]):
                r = paipu(*args)
                text = r.stdout + r.stderr
                assert b"Traceback" not in text, (c.ops, text[-2000:])
                assert r.returncode in (0, 1, 2), (c.ops, args[0], r.returncode, r.stderr[-1000:])
    finally:
        fz.close()
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".s.duckdb.ingest-")]


# --- the fuzzer's own checks -------------------------------------------------------------


def _first_input_with_ops(fz: "fuzzing.Fuzzer", banned: set[str]) -> int:
    """The number of an input the fuzzer makes without any of ``banned`` operators."""
    return next(i for i in range(1000) if not banned & set(fz.make(i).ops))


def test_the_fuzzer_counts_an_internal_error_finding_by_its_code(monkeypatch):
    """``INTERNAL_ERROR`` (exit 3 on the command line) is a failure, whatever its message says."""
    import audits.audit

    real = audits.audit.walk

    def walk(ctx):
        if ctx.audit.game.startswith("victim-"):
            raise ValueError("planted")  # audit_game turns it into an INTERNAL_ERROR finding
        return real(ctx)

    fz = fuzzing.Fuzzer(seed=3)
    try:
        i = _first_input_with_ops(fz, {"file_cut", "gzip_cut", "gzip_flip", "gzip_no_trailer", "gzip_members"})
        monkeypatch.setattr(audits.audit, "walk", walk)
        tally = fuzzing.Tally()
        fz.check(i, tally)
    finally:
        fz.close()
    assert tally.internal_errors >= 1 and tally.bad, tally
    assert any("INTERNAL_ERROR" in f or "internal error" in f for f in tally.failures), tally.failures


def test_a_hang_is_counted_even_inside_paipu_code_that_catches_every_exception(monkeypatch):
    """The hang alarm is a BaseException: ``audit_game``'s ``except Exception`` cannot turn it into a
    finding.  An input working past the CPU limit is a hang."""
    import audits.audit

    assert issubclass(fuzzing.Hang, BaseException) and not issubclass(fuzzing.Hang, Exception)

    def spinning(ctx):
        while True:
            pass

    fz = fuzzing.Fuzzer(seed=3, per_input_seconds=0.5, wall_seconds=120)
    try:
        fz.make(0)  # the untouched games' audits alone, made before the audit gets stuck
        monkeypatch.setattr(audits.audit, "walk", spinning)
        tally = fuzzing.Tally()
        fz.check(0, tally)
    finally:
        fz.close()
    assert (tally.hangs, tally.internal_errors, tally.tracebacks) == (1, 0, 0), tally.failures
    assert "hang (over 0.5 s of CPU)" in tally.failures[0]


def test_an_input_blocked_past_the_clock_limit_is_a_hang(monkeypatch):
    """Blocked (sleeping, waiting), not working: the CPU limit would never fire, the clock limit does."""
    import time

    import audits.audit

    def blocked(ctx):
        while True:
            time.sleep(0.01)

    fz = fuzzing.Fuzzer(seed=3, per_input_seconds=60, wall_seconds=0.5)
    try:
        fz.make(0)
        monkeypatch.setattr(audits.audit, "walk", blocked)
        tally = fuzzing.Tally()
        fz.check(0, tally)
    finally:
        fz.close()
    assert (tally.hangs, tally.internal_errors, tally.tracebacks) == (1, 0, 0), tally.failures
    assert "on the clock" in tally.failures[0]


def test_the_corpus_holds_every_game_of_every_sample_log():
    """Every sample log below sample_logs/ (any family's folder, clean or faulty) gives its games,
    read from the folders, so a new family's samples join without a change to the fuzzer."""
    import json

    files = fuzzing.sample_files()
    folders = {os.path.relpath(os.path.dirname(p), fuzzing.SAMPLES) for p in files}
    assert {"clean", "faulty", "guangdong/clean", "xuzhou/clean"} <= folders, folders
    ids = set()
    for p in files:
        with open(p, "rb") as f:
            ids |= {(p, json.loads(x)["game"]) for x in f.read().splitlines() if x.strip()}
    corpus = fuzzing.corpus_games()
    assert len(corpus) == 3 + len(ids)  # the three built games, then one per sample game
    families = {fuzzing.family_of_game(g) for g in corpus}
    assert {"qujing", "sichuan", "guangdong", "xuzhou"} <= families and "unknown" not in families


def test_a_corpus_game_keeps_its_bytes_under_another_id():
    """The cached lines, given an id, are the bytes ``json.dumps`` gives the events with that id."""
    import json

    game = fuzzing.corpus_games()[5]
    got = fuzzing._with_id(fuzzing._id_free_lines(game), 'keep-"7"-é')
    want = [json.dumps({**d, "game": 'keep-"7"-é'}, ensure_ascii=False, separators=(",", ":")).encode() for d in game]
    assert got == want


def test_inputs_sent_to_the_store_and_the_command_line_are_counted(tmp_path):
    """Every M-th input goes through a real DuckDB ingest (in batches), every K-th through the
    command line in a subprocess; tallies of two runs add up."""
    fz = fuzzing.Fuzzer(seed=21, ingest_every=2, ingest_batch=3, cli_every=7, report_every=2)
    try:
        first = fz.run(8)
        second = fz.run(4, 8)
    finally:
        fz.close()
    assert first.failures == [] and second.failures == []
    assert (first.inputs, first.ingested, first.cli_runs) == (8, 4, 2)  # inputs 0, 2, 4, 6; 0 and 7
    assert (second.inputs, second.ingested, second.cli_runs) == (4, 2, 0)  # inputs 8, 10
    first.add(second)
    assert (first.inputs, first.ingested, first.cli_runs, first.bad) == (12, 6, 2, 0)
    assert sum(first.families.values()) == 12
    assert not os.path.exists(fz.tmp)


def test_the_command_line_sample_counts_exit_3_as_an_internal_error(tmp_path, monkeypatch):
    """The subprocess path judges the command by its exit code and output: 3 is an internal error,
    a traceback (or an unknown code) is a traceback, 0–2 are fine."""
    import subprocess

    fz = fuzzing.Fuzzer(seed=1)
    try:
        for code, out, counted in ((3, b"paipu: internal error", "internal_errors"),
                                   (1, b"Traceback (most recent call last)", "tracebacks"),
                                   (-9, b"", "tracebacks"), (2, b"paipu: no such file", None)):
            monkeypatch.setattr(subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, code, b"", out))
            tally = fuzzing.Tally()
            fz._command_line(str(tmp_path / "x.jsonl"), "input x", tally, json_format=False)
            assert tally.cli_runs == 1
            assert tally.bad == (2 if counted else 0), (code, tally)  # paipu audit and paipu ingest
            if counted:
                assert getattr(tally, counted) == 2
    finally:
        fz.close()
