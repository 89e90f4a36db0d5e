"""What huge and damaged input costs: ``python bench/huge_inputs.py``.

Times, each through the real ``paipu`` command (a subprocess, as a user runs it):

* ``paipu audit`` of a log whose game id is 8 MB (refused at decode: ids are at
  most 256 characters), and the text line of a finding carrying an 8 MB id and
  16 MB values;
* ``paipu audit`` of a log holding one 16 MB bad tile value;
* ``paipu audit`` of a log holding one 20 MB line (over the line limit: skipped);

and checks, printing what it saw:

* a ``.jsonl.gz`` missing its 4-byte size (a log copied while being written)
  keeps all its games and reports the damage on the file;
* ``paipu ingest sample_logs/`` prints "N games read: a added, r replaced,
  u unchanged, f refused" and the counts add up.

Exit 1 if a check fails.  Nothing here is a test: timings belong to bench
scripts, the behaviour to ``tests/reliability/``.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

CLI = "import sys; from paipu.cli import main; sys.argv = ['paipu'] + sys.argv[1:]; main()"


def paipu(*args: str, env: dict | None = None) -> tuple[subprocess.CompletedProcess, float]:
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", CLI, *args], cwd=ROOT, capture_output=True,
                       env={**os.environ, **(env or {})})
    return r, time.perf_counter() - t


def clean_lines(game: str) -> list[bytes]:
    from tests.audits.helpers import selfdraw_game

    return selfdraw_game(game).jsonl().splitlines(keepends=True)


def main() -> int:
    work = tempfile.mkdtemp(prefix="paipu-huge-")
    bad: list[str] = []
    big_limit = {"PAIPU_MAX_LINE_BYTES": str(64 << 20)}  # the 8 and 16 MB values are read, not skipped

    def report(what: str, r: subprocess.CompletedProcess, seconds: float, want_code: int) -> None:
        tb = b"Traceback" in r.stdout + r.stderr
        print(f"{what:<44} {seconds:7.2f} s  exit {r.returncode}, {len(r.stdout):,} bytes of report"
              + (", TRACEBACK" if tb else ""))
        if r.returncode != want_code or tb or len(r.stdout) > 50_000:
            bad.append(what)

    try:
        # 1. an 8 MB game id: a game the report names in every finding
        gid = "g" * 8_000_000
        lines = [x.replace(b'"game":"x"', b'"game":"%s"' % gid.encode()) for x in clean_lines("x")]
        lines.insert(5, lines[5])  # a repeated event: a finding on that game
        p = os.path.join(work, "id.jsonl")
        with open(p, "wb") as f:
            f.writelines(lines)
        r, s = paipu("audit", p, env=big_limit)
        report("8 MB game id, text report (refused: > 256)", r, s, 2)
        # … and a finding carrying one, formatted directly (the text report's line)
        from audits.findings import Finding
        from paipu.reports import format_finding

        huge = "q" * 16_000_000
        f = Finding(code="FAN_MISMATCH", severity="error", game=gid, hand=1, seq=3, rule="r", expected=huge,
                    actual=[huge], message=huge, file="f.jsonl", line=4)
        t = time.perf_counter()
        text = format_finding(f)
        s = time.perf_counter() - t
        print(f"{'one finding: 8 MB id, 16 MB values, formatted':<44} {s:7.2f} s  {len(text):,} characters")
        if len(text) > 2000:
            bad.append("format_finding")

        # 2. a 16 MB bad tile value
        tile = (b'{"type":"TileDiscarded","game":"before","seq":99,"at":"2026-01-01T00:00:00Z","seat":0,"tile":"'
                + b"T" * 16_000_000 + b'"}\n')
        p = os.path.join(work, "tile.jsonl")
        with open(p, "wb") as f:
            f.writelines([*clean_lines("before")[:-1], tile, *clean_lines("after")])
        r, s = paipu("audit", p, env=big_limit)
        report("16 MB bad tile value, text report", r, s, 1)

        # 3. a 20 MB line (over the default line limit: skipped as it streams)
        line = b'{"type":"TileDiscarded","game":"big","seq":1,"x":"' + b"a" * 20_000_000 + b'"}\n'
        p = os.path.join(work, "line.jsonl")
        with open(p, "wb") as f:
            f.writelines([*clean_lines("before"), line, *clean_lines("after")])
        r, s = paipu("audit", p)
        report("20 MB line, text report", r, s, 1)

        # 4. a .jsonl.gz missing its trailer keeps its games
        games = [f"gz{i}" for i in range(20)]
        data = gzip.compress(b"".join(x for g in games for x in clean_lines(g)))
        p = os.path.join(work, "copied-while-written.jsonl.gz")
        with open(p, "wb") as f:
            f.write(data[:-4])
        r, s = paipu("audit", p, "--format", "json")
        kept = r.stdout.count(b'"record":"summary"')
        damage = "gzip data ends early" in r.stderr.decode(errors="replace") + r.stdout.decode(errors="replace")
        print(f"{'.jsonl.gz without its 4-byte size':<44} {s:7.2f} s  {kept}/{len(games)} games kept, "
              f"damage reported on the file: {'yes' if damage else 'NO'} (exit {r.returncode})")
        if kept != len(games) or not damage:
            bad.append("gz trailer")

        # 5. the sample ingest's counts add up
        db = os.path.join(work, "s.duckdb")
        r, s = paipu("ingest", os.path.join(ROOT, "sample_logs"), "--db", db)
        text = (r.stdout + r.stderr).decode(errors="replace")
        m = re.search(r"(\d+) games read: (\d+) added, (\d+) replaced, (\d+) unchanged, (\d+) refused", text)
        line_out = m.group(0) if m else text.strip()[-300:]
        ok = bool(m) and int(m.group(1)) == sum(int(m.group(k)) for k in (2, 3, 4, 5))
        print(f"{'paipu ingest sample_logs/':<44} {s:7.2f} s  \"{line_out}\" (exit {r.returncode}): "
              f"{'adds up' if ok else 'DOES NOT ADD UP'}")
        if not ok:
            bad.append("ingest counts")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for b in bad:
        print(f"  failed: {b}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
