"""A light install: Dask's ``distributed`` is the ``cluster`` extra, and without it
``--cluster`` says which extra to install; ``-h`` works; every ``--help`` and the README's
first paragraph name the rulesets paipu audits (from the family registry)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from typer.testing import CliRunner

import paipu.cli as paipu_cli
from paipu.rulesets_text import audited_rulesets

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = str(ROOT / "sample_logs" / "clean")


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_core_install_has_no_dask_and_the_extras_bring_it():
    project = _project()
    assert not [d for d in project["dependencies"] if re.match(r"(dask|distributed)\b", d)]
    assert any(d.startswith("dask[distributed]") for d in project["optional-dependencies"]["cluster"])
    test = project["optional-dependencies"]["test"]
    assert "paipu[cluster]" in test and any(d.startswith("pytest-xdist") for d in test)


def test_ci_installs_the_test_extra():
    assert "-e '.[test]'" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


# a paipu process in which Dask cannot be imported, as in `pip install -e .` without the extra
_WITHOUT_DASK = """
import sys
sys.modules["distributed"] = None
sys.modules["dask"] = None
sys.argv = ["paipu", *sys.argv[1:]]
from paipu.cli import main
main()
"""


def _paipu_without_dask(*args: str, cwd: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _WITHOUT_DASK, *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})


@pytest.mark.parametrize("command", ["audit", "ingest"])
def test_cluster_without_the_extra_names_the_extra(command, tmp_path):
    args = [command, SAMPLES, "--cluster", "local:2"] + (["--db", str(tmp_path / "s.duckdb")]
                                                         if command == "ingest" else [])
    done = _paipu_without_dask(*args, cwd=str(tmp_path))
    assert done.returncode == 2, done.stderr
    message = done.stderr.strip()
    assert "pip install 'paipu[cluster]'" in message and "Traceback" not in message
    assert len(message.splitlines()) == 1 and message.count(". ") == 0  # one sentence


def test_without_the_extra_everything_but_the_cluster_works(tmp_path):
    # near miss of the above: the same Dask-less process audits, ingests and reports
    audit = _paipu_without_dask("audit", SAMPLES, cwd=str(tmp_path))
    assert audit.returncode == 0, audit.stderr
    ingest = _paipu_without_dask("ingest", SAMPLES, "--db", str(tmp_path / "s.duckdb"), cwd=str(tmp_path))
    assert ingest.returncode == 0, ingest.stderr
    first = sorted(Path(SAMPLES).glob("*.jsonl"))[0]
    report = _paipu_without_dask("report", str(first), "-o", str(tmp_path / "r.html"), cwd=str(tmp_path))
    assert report.returncode == 0, report.stderr
    assert (tmp_path / "r.html").stat().st_size > 0


# --- help -------------------------------------------------------------------------------------


def _app():
    if not any(c.name == "simulate" for c in paipu_cli.app.registered_commands):
        paipu_cli._register_commands()
    return paipu_cli.app


def _commands() -> list[str]:
    return sorted(c.name for c in _app().registered_commands)


def test_every_command_takes_h_and_its_help_names_the_rulesets():
    runner = CliRunner()
    names = _commands()
    assert {"audit", "ingest", "simulate", "report", "query", "anomalies", "hand", "replay"} <= set(names)
    rulesets = audited_rulesets()
    flat = lambda text: re.sub(r"[\s│]+", " ", text)  # noqa: E731 - rich wraps the help in a box
    for args in [[]] + [[name] for name in names]:
        short = runner.invoke(_app(), [*args, "-h"])
        assert short.exit_code == 0, (args, short.output)
        assert flat(short.output) == flat(runner.invoke(_app(), [*args, "--help"]).output)
        assert rulesets in flat(short.output), args
    # near miss: an option that is not there is still refused
    assert runner.invoke(_app(), ["audit", "-z"]).exit_code == 2


def test_the_rulesets_are_read_from_the_family_registry(monkeypatch):
    from audits import rules
    from schema.ruleset import PRESETS

    assert audited_rulesets().split(", ")[0].startswith("Qujing (qujing-xiaoji")
    for family in rules.FAMILIES:
        assert family.capitalize() in audited_rulesets()
        assert all(p in audited_rulesets() for p, r in PRESETS.items() if r.family == family)
    monkeypatch.setitem(rules.FAMILIES, "toyfamily", rules.FAMILIES["qujing"])
    assert audited_rulesets().endswith(", Toyfamily")


def test_the_readme_opens_with_the_rulesets_audited():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first = text.split("\n\n")[1]  # the paragraph under the title
    assert audited_rulesets() in re.sub(r"\s+", " ", first)


def test_the_readme_says_how_long_the_tests_take_and_how_to_go_faster():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "-n auto" in text and re.search(r"\d+ min", text) and "quick" in text.lower()
