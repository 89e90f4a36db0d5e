"""The progress bar: games, rate and time left on a terminal; nothing on a pipe."""

from __future__ import annotations

import gzip
import io
import subprocess
import sys

from rich.console import Console

from paipu.progress import Bar, games_in


def test_bar_on_a_terminal_shows_games_rate_and_time_left():
    buf = io.StringIO()
    with Bar("auditing", 10, console=Console(file=buf, force_terminal=True, width=160)) as bar:
        for _ in range(4):
            bar.advance()
        bar._progress.refresh()
    shown = buf.getvalue()
    assert "auditing" in shown and "4/10" in shown and "games/s" in shown and "ETA" in shown


def test_bar_without_a_total_counts_and_a_short_estimate_grows():
    buf = io.StringIO()
    with Bar("ingesting", None, console=Console(file=buf, force_terminal=True, width=160)) as bar:
        bar.update(7, "70 events written")
        bar._progress.refresh()
    assert "7 games" in buf.getvalue() and "70 events written" in buf.getvalue()
    with Bar("auditing", 2, console=Console(file=io.StringIO(), force_terminal=True)) as bar:
        bar.update(3)
        assert bar.total == 3


def test_a_hidden_bar_draws_nothing_and_passes_items_through():
    bar = Bar("auditing", 3, shown=False)
    with bar:
        assert list(bar.track("abc")) == ["a", "b", "c"]
    assert bar.done == 3 and bar._progress is None


def test_games_in_counts_rooms_of_plain_logs_only(tmp_path):
    line = b'{"type":"GameOpened","game":"g%d"}\n'
    (tmp_path / "a.jsonl").write_bytes(b"".join(line % i for i in range(5)))
    (tmp_path / "b.jsonl").write_bytes(line % 9)
    assert games_in([str(tmp_path)]) == 6
    with gzip.open(tmp_path / "c.jsonl.gz", "wb") as f:
        f.write(line % 1)
    assert games_in([str(tmp_path)]) is None
    assert games_in(["-"]) is None


def test_a_mention_cut_by_a_block_boundary_counts_once(tmp_path, monkeypatch):
    data = b"x" * ((1 << 22) - 5) + b'"GameOpened"' + b"\n" + b'"GameOpened"\n'
    (tmp_path / "a.jsonl").write_bytes(data)
    assert games_in([str(tmp_path / "a.jsonl")]) == 2


def test_no_bar_on_a_pipe(tmp_path):
    out = tmp_path / "s.jsonl"
    r = subprocess.run([sys.executable, "-m", "paipu", "simulate", "--games", "2", "--hands", "1", "-o", str(out)],
                       capture_output=True, text=True, check=True)
    assert r.stderr == "" and "wrote" in r.stdout
    r = subprocess.run([sys.executable, "-m", "paipu", "audit", str(out)], capture_output=True, text=True)
    assert r.returncode == 0 and "\x1b" not in r.stderr and "games/s" not in r.stderr
