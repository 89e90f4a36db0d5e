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
    """The hang alarm is a BaseException: ``audit_game``'s ``except Exception`` cannot turn it into a finding."""
    import time

    import audits.audit

    assert issubclass(fuzzing.Hang, BaseException) and not issubclass(fuzzing.Hang, Exception)

    def stuck(ctx):
        while True:
            time.sleep(0.01)

    fz = fuzzing.Fuzzer(seed=3, per_input_seconds=0.5)
    try:
        fz.make(0)  # the untouched games' audits alone, made before the audit gets stuck
        monkeypatch.setattr(audits.audit, "walk", stuck)
        tally = fuzzing.Tally()
        fz.check(0, tally)
    finally:
        fz.close()
    assert (tally.hangs, tally.internal_errors, tally.tracebacks) == (1, 0, 0), tally.failures
    assert "hang" in tally.failures[0]
