"""The text views fit the terminal and colour severities there; piped, they are plain."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAIPU = str(Path(sys.executable).parent / "paipu")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def colours(text: str) -> set[str]:
    """The foreground colour codes (30–38) the text's escape sequences set."""
    return {p for params in SGR.findall(text) for p in params.split(";") if p in {str(c) for c in range(30, 39)}}
FAULTY = "sample_logs/faulty"


def _on_terminal(*args: str, columns: int, extra_env: dict | None = None) -> str:
    """Run paipu with its standard output on a pseudo-terminal ``columns`` wide."""
    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": str(columns), "TERM": "xterm-256color", **(extra_env or {})}
    env.pop("NO_COLOR", None) if not extra_env or "NO_COLOR" not in extra_env else None
    proc = subprocess.Popen([PAIPU, *args], stdout=follower, stderr=subprocess.DEVNULL, cwd=ROOT, env=env)
    os.close(follower)
    chunks = []
    while True:
        try:
            data = os.read(leader, 65536)
        except OSError:  # the terminal closed when paipu exited
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(leader)
    return b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


def test_audit_text_on_a_terminal_fits_its_width_and_colours_severities():
    out = _on_terminal("audit", FAULTY, columns=90)
    assert colours(out), "severities are coloured on a terminal"
    assert re.search(r"\x1b\[[0-9;]*31m\[error\]", out), "[error] in red"
    plain = ANSI.sub("", out)
    assert max(len(line) for line in plain.splitlines()) <= 90
    assert "Findings by code" in plain


def test_no_color_keeps_the_terminal_width_without_colour():
    out = _on_terminal("audit", FAULTY, columns=100, extra_env={"NO_COLOR": "1"})
    assert not colours(out)  # NO_COLOR: no colour (bold and italic may remain)
    assert max(len(ANSI.sub("", line)) for line in out.splitlines()) <= 100


def test_piped_text_is_plain_and_140_wide():
    r = subprocess.run([PAIPU, "audit", FAULTY], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "COLUMNS": "60"}, timeout=120)
    assert "\x1b[" not in r.stdout
    widths = [len(line) for line in r.stdout.splitlines()]
    assert max(widths) > 60 and max(widths) <= 140  # not the terminal's 60: piped text keeps its own width


def test_explain_on_a_terminal_colours_its_findings_and_piped_does_not():
    game = "faulty-fan-mismatch"
    logs = [p for p in (ROOT / FAULTY).glob("*.jsonl")]
    target = next((p for p in logs if game in p.read_text(encoding="utf-8")), None)
    if target is None:  # the sample's game id: take the first faulty log's first game
        target = sorted(logs)[0]
        game = re.search(r'"game":"([^"]+)"', target.read_text(encoding="utf-8")).group(1)
    out = _on_terminal("audit", str(target.relative_to(ROOT)), "--explain", game, columns=100)
    plain = ANSI.sub("", out)
    # fitted to the terminal, but for the paipu hand command lines, which stay whole to be pasted
    assert max(len(line) for line in plain.splitlines() if not line.lstrip().startswith("paipu hand ")) <= 100
    assert re.search(r"\x1b\[[0-9;]*m\s*\[(error|warning)\]", out), "a finding line is coloured"
    r = subprocess.run([PAIPU, "audit", str(target.relative_to(ROOT)), "--explain", game], capture_output=True,
                       text=True, cwd=ROOT, timeout=120)
    assert "\x1b[" not in r.stdout and ANSI.sub("", out).split()[:5] == r.stdout.split()[:5]


def test_a_pasted_explain_command_is_one_line_however_narrow_the_output():
    sample = "sample_logs/wuhan/clean/ex07_gangkai_jinding.jsonl"
    game = re.search(r'"game":"([^"]+)"', (ROOT / sample).read_text(encoding="utf-8")).group(1)
    for out in (_on_terminal("audit", sample, "--explain", game, columns=60),
                subprocess.run([PAIPU, "audit", sample, "--explain", game], capture_output=True, text=True,
                               cwd=ROOT, env={**os.environ, "COLUMNS": "60"}, timeout=120).stdout):
        commands = [ln.strip() for ln in ANSI.sub("", out).splitlines() if ln.lstrip().startswith("paipu hand ")]
        # near miss built in: the command is longer than the 60 columns, so a broken one would show
        assert commands and all(len(c) > 60 and c.split()[-2] == "--preset" for c in commands), commands
