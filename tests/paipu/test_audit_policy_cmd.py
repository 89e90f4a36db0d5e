"""``paipu audit`` with --select/--ignore/--fail-on/--waivers, JUnit per game, streamed JSON lines."""

from __future__ import annotations

from xml.etree import ElementTree as ET

import msgspec
import typer
from typer.testing import CliRunner

import audits
from audits import Finding
from paipu import audit_cmd
from paipu.reports import read_json_lines

from tests.paipu.ci_games import write_logs

runner = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer()
    audit_cmd.register(app)

    @app.command("noop")
    def noop() -> None:  # a second command keeps `audit` a named subcommand
        pass

    return app


def audit(*args: str):
    return runner.invoke(_app(), ["audit", *args])


WAIVE_BAD = """
[[waiver]]
code = "SCORE_MISMATCH"
server = "paipu-sim"
game = "g-bad"
reason = "scores reset by the lobby, ticket 812"
expires = 2099-12-31
"""


def test_ignore_and_select_change_what_fails_and_the_exit_code(tmp_path):
    logs = str(write_logs(tmp_path))
    assert audit(logs).exit_code == 1
    r = audit(logs, "--ignore", "SCORE_MISMATCH")
    assert r.exit_code == 0 and "SCORE_MISMATCH" not in r.stdout and "Not selected: 1 finding" in r.stdout
    r = audit(logs, "--select", "FEE_*")
    assert r.exit_code == 0 and "FEE_AMOUNT" in r.stdout and "SCORE_MISMATCH" not in r.stdout
    r = audit(logs, "--select", "FEE_AMOUNT", "--select", "SCORE_MISMATCH")
    assert r.exit_code == 1


def test_warnings_fail_only_with_fail_on_warning(tmp_path):
    logs = str(write_logs(tmp_path))
    assert audit(logs, "--ignore", "SCORE_MISMATCH").exit_code == 0
    r = audit(logs, "--ignore", "SCORE_MISMATCH", "--fail-on", "warning")
    assert r.exit_code == 1 and "Verdict (fail on warning): 1 of 3 games fail" in r.stdout
    r = audit(logs, "--fail-on", "info")
    assert r.exit_code == 2 and "fail-on must be one of error, warning" in r.stderr


def test_a_waived_finding_is_reported_as_waived_and_does_not_fail(tmp_path):
    logs = str(write_logs(tmp_path))
    w = tmp_path / "w.toml"
    w.write_text(WAIVE_BAD + '\n[[waiver]]\ncode = "TURN_ORDER"\nreason = "never seen"\nexpires = 2099-01-01\n')
    r = audit(logs, "--waivers", str(w))
    assert r.exit_code == 0, r.output
    assert "Waived (1):" in r.stdout and "scores reset by the lobby" in r.stdout
    # the waiver that matched nothing is named on stderr; the one that matched is not
    assert "waiver 2 (TURN_ORDER until 2099-01-01: never seen) matched no finding" in r.stderr
    assert "waiver 1" not in r.stderr

    out = tmp_path / "f.jsonl"
    r = audit(logs, "--waivers", str(w), "--format", "json", "-o", str(out))
    assert r.exit_code == 0
    records = [msgspec.json.decode(line) for line in out.read_bytes().splitlines()]
    waived = [x for x in records if "waived" in x]
    assert len(waived) == 1 and waived[0]["code"] == "SCORE_MISMATCH"
    assert waived[0]["waived"] == {"reason": "scores reset by the lobby, ticket 812", "expires": "2099-12-31"}
    assert all(isinstance(f, Finding) for f in read_json_lines(out.read_bytes()))


def test_an_expired_waiver_or_unknown_code_is_exit_2_with_one_sentence(tmp_path):
    logs = str(write_logs(tmp_path))
    w = tmp_path / "w.toml"
    w.write_text(WAIVE_BAD.replace("2099-12-31", "2020-01-31"))
    r = audit(logs, "--waivers", str(w))
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.strip() == (f"paipu: {w}: waiver 1 (SCORE_MISMATCH) expired on 2020-01-31: "
                                "renew it or fix the finding")
    w.write_text(WAIVE_BAD.replace('"SCORE_MISMATCH"', '"SCORE_MISMATCHH"'))
    r = audit(logs, "--waivers", str(w))
    assert r.exit_code == 2 and "unknown finding code 'SCORE_MISMATCHH'" in r.stderr
    r = audit(logs, "--select", "NOT_A_CODE")
    assert r.exit_code == 2 and "unknown finding code 'NOT_A_CODE'" in r.stderr
    assert "Traceback" not in r.output


def test_paipu_toml_in_the_working_directory_is_used(tmp_path, monkeypatch):
    logs = str(write_logs(tmp_path))
    (tmp_path / "paipu.toml").write_text(WAIVE_BAD)
    monkeypatch.chdir(tmp_path)
    r = audit(logs)
    assert r.exit_code == 0 and "Waived (1):" in r.stdout


def test_junit_has_times_timestamp_properties_and_warnings_are_not_failures(tmp_path):
    logs = str(write_logs(tmp_path))
    r = audit(logs, "--format", "junit")
    assert r.exit_code == 1
    suite = ET.fromstring(r.stdout).find("testsuite")
    assert suite.get("tests") == "3" and suite.get("failures") == "1"
    assert suite.get("timestamp") and float(suite.get("time")) >= 0
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert set(cases) == {"g-clean", "g-warn", "g-bad"}
    for c in cases.values():
        assert float(c.get("time")) >= 0
        props = {p.get("name"): p.get("value") for p in c.find("properties")}
        assert props["server"] == "paipu-sim" and props["build"] == "1.0"
        assert props["ruleset"] == "qujing-xiaoji"
    assert cases["g-bad"].find("failure").get("type") == "SCORE_MISMATCH"
    assert cases["g-warn"].find("failure") is None
    assert "FEE_AMOUNT" in cases["g-warn"].find("system-out").text

    r = audit(logs, "--format", "junit", "--fail-on", "warning")
    suite = ET.fromstring(r.stdout).find("testsuite")
    assert suite.get("failures") == "2"
    cases = {c.get("name"): c for c in suite.findall("testcase")}
    assert cases["g-warn"].find("failure").get("type") == "FEE_AMOUNT"


def test_junit_marks_waived_findings(tmp_path):
    logs = str(write_logs(tmp_path))
    w = tmp_path / "w.toml"
    w.write_text(WAIVE_BAD)
    r = audit(logs, "--format", "junit", "--waivers", str(w))
    assert r.exit_code == 0
    suite = ET.fromstring(r.stdout).find("testsuite")
    bad = next(c for c in suite.findall("testcase") if c.get("name") == "g-bad")
    assert bad.find("failure") is None
    assert {p.get("name"): p.get("value") for p in bad.find("properties")}["waived"] == "1"
    assert "waived: " in bad.find("system-out").text and "ticket 812" in bad.find("system-out").text


def test_json_is_written_game_by_game_before_the_audit_ends(tmp_path, monkeypatch):
    """Each game's lines reach the output before the next game is audited."""
    logs = write_logs(tmp_path)
    out = tmp_path / "f.jsonl"
    real = list(audits.audit_paths([str(logs / "bad.jsonl"), str(logs / "warn.jsonl")]))
    seen_before_second: list[bytes] = []

    def fake_audit_paths(paths, jobs=1, orphans=None):
        yield real[0]
        seen_before_second.append(out.read_bytes())  # the first game is already written out
        yield real[1]

    monkeypatch.setattr(audits, "audit_paths", fake_audit_paths)
    code = audit_cmd.run_audit(["x"], "json", str(out), progress=False)
    assert code == 1
    first = read_json_lines(seen_before_second[0])
    assert [f.code for f in first] == ["SCORE_MISMATCH"]
    assert [f.code for f in read_json_lines(out.read_bytes())] == ["SCORE_MISMATCH", "FEE_AMOUNT"]


def test_json_with_jobs_is_in_input_order_and_identical_to_one_job(tmp_path):
    one, two = tmp_path / "1.jsonl", tmp_path / "2.jsonl"
    assert audit("sample_logs", "-f", "json", "-o", str(one)).exit_code == 1
    assert audit("sample_logs", "-f", "json", "-o", str(two), "--jobs", "2").exit_code == 1
    assert one.read_bytes() == two.read_bytes()
    found = read_json_lines(one.read_bytes())
    import json
    from pathlib import Path
    planted = sum(len(json.loads(p.read_text(encoding="utf-8"))["findings"])
                  for p in Path("sample_logs").rglob("*.expected.json"))
    assert len(found) == planted > 0
    files = [f.file for f in found]
    assert files == sorted(files)  # input order: files sorted, as the reader walks folders


def test_json_to_stdout_with_dash(tmp_path):
    logs = str(write_logs(tmp_path))
    r = audit(logs, "-f", "json", "-o", "-")
    assert r.exit_code == 1 and [f.code for f in read_json_lines(r.stdout.encode())] == ["SCORE_MISMATCH", "FEE_AMOUNT"]
