"""``paipu --version``, ``python -m paipu``, shell completion and ``paipu schema`` (the strict schema)."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

from schema.json_schema import SCHEMA_FILE

ROOT = Path(__file__).resolve().parents[2]
PAIPU = str(Path(sys.executable).parent / "paipu")


def run(*args: str, env: dict | None = None, exe: list[str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*(exe or [PAIPU]), *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **(env or {})}, timeout=60)


def test_version_from_the_script_and_from_python_dash_m():
    want = f"paipu {version('paipu')}\n"
    r = run("--version")
    assert r.returncode == 0 and r.stdout == want
    r = run("--version", exe=[sys.executable, "-m", "paipu"])
    assert r.returncode == 0 and r.stdout == want


def test_python_dash_m_paipu_runs_commands_with_the_same_exit_codes():
    r = run("audit", "sample_logs/clean", exe=[sys.executable, "-m", "paipu"])
    assert r.returncode == 0 and "clean: no finding" in r.stdout
    r = run("audit", "no/such/file.jsonl", exe=[sys.executable, "-m", "paipu"])
    assert r.returncode == 2 and "no such file" in r.stderr and "Traceback" not in r.stderr


def test_shell_completion_completes_commands_and_options():
    r = run(env={"_PAIPU_COMPLETE": "complete_bash", "COMP_WORDS": "paipu au", "COMP_CWORD": "1"})
    assert r.returncode == 0 and r.stdout.split() == ["audit"]
    r = run(env={"_PAIPU_COMPLETE": "complete_bash", "COMP_WORDS": "paipu audit --wai", "COMP_CWORD": "2"})
    assert r.stdout.split() == ["--waivers"]
    # the script `paipu --install-completion` installs (asked for bash explicitly: the shell
    # detection of --show-completion depends on the process tree the test runs under)
    r = run(env={"_PAIPU_COMPLETE": "source_bash"})
    assert r.returncode == 0 and "_PAIPU_COMPLETE=complete_bash" in r.stdout


def test_paipu_schema_prints_the_committed_strict_schema():
    r = run("schema")
    assert r.returncode == 0
    assert r.stdout == (ROOT / SCHEMA_FILE).read_text(encoding="utf-8")
