"""docs/ci.md: the copy-paste CI job's shell steps run as written, in a scratch repository."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_logs"


def job() -> tuple[dict[str, str], list[str]]:
    """The env and the ``run:`` commands of the yaml job in docs/ci.md (single-line runs)."""
    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(.*?)```", text, re.S).group(1)
    env = dict(re.findall(r"^      ([A-Z_]+): \"?([^\"\n]*)\"?$", block, re.M))
    runs = re.findall(r"^\s+run: (.+)$", block, re.M)
    assert "run: |" not in block  # the parser above reads single-line steps only
    return env, runs


def scratch_repo(tmp_path: Path, waiver_expires: str = "2099-12-31") -> Path:
    """A server team's repository: logs/ with clean games and one known quirk, and paipu.toml waiving it."""
    repo = tmp_path / "repo"
    shutil.copytree(SAMPLES / "clean", repo / "logs")
    shutil.copy(SAMPLES / "faulty" / "fee_not_charged.jsonl", repo / "logs")
    for extra in (repo / "logs").glob("*.expected.json"):
        extra.unlink()
    (repo / "paipu.toml").write_text(f"""
[[waiver]]
code = "FEE_NOT_CHARGED"
server = "paipu-sim"
reason = "billing moves to the lobby in build 2.0"
expires = {waiver_expires}
""", encoding="utf-8")
    # the install step's result: a virtual environment with paipu, here the one running the tests
    (repo / ".paipu").symlink_to(Path(sys.executable).parent.parent, target_is_directory=True)
    return repo


def run_steps(repo: Path) -> list[subprocess.CompletedProcess]:
    env, runs = job()
    install = [r for r in runs if "pip install" in r]
    assert install == ['python -m venv .paipu && .paipu/bin/pip install "paipu @ $PAIPU_SOURCE"']
    results = []
    for cmd in runs:
        if cmd in install:
            continue
        results.append(subprocess.run(["bash", "-e", "-c", cmd], cwd=repo, capture_output=True, text=True,
                                      env={**os.environ, **env}, timeout=120))
    return results


def test_the_job_passes_with_the_quirk_waived_and_writes_its_reports(tmp_path):
    repo = scratch_repo(tmp_path)
    results = run_steps(repo)
    assert [r.returncode for r in results] == [0, 0], [r.stderr for r in results]
    suite = ET.parse(repo / "paipu-junit.xml").getroot().find("testsuite")
    games = len(list((repo / "logs").glob("*.jsonl")))
    assert suite.get("tests") == str(games) and suite.get("failures") == "0"
    fee = next(c for c in suite.iter("testcase") if c.get("classname").endswith("fee_not_charged.jsonl"))
    assert "waived: " in fee.find("system-out").text
    lines = (repo / "paipu-findings.jsonl").read_text().splitlines()
    findings = [line for line in lines if '"record":"summary"' not in line]
    assert len(lines) - len(findings) == games  # one summary record per game
    assert len(findings) == 1 and '"waived":{"reason":"billing moves to the lobby in build 2.0"' in findings[0]


def test_the_audit_step_fails_the_job_without_the_waiver_and_on_an_expired_one(tmp_path):
    repo = scratch_repo(tmp_path)
    (repo / "paipu.toml").write_text("")
    audit_step = run_steps(repo)[0]
    assert audit_step.returncode == 1
    repo = scratch_repo(tmp_path / "expired", waiver_expires="2020-01-01")
    audit_step = run_steps(repo)[0]
    assert audit_step.returncode == 2 and "expired on 2020-01-01" in audit_step.stderr
