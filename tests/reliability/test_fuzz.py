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
