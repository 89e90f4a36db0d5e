"""The pytest plugin, used the way a server team would: a test project run through ``pytester``."""

from __future__ import annotations

import shutil
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from paipu.audit_cmd import run_audit

from tests.paipu.ci_games import write_logs

pytest_plugins = ["pytester"]

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def _faulty_at_error() -> tuple[int, int]:
    """The games of sample_logs/faulty whose planted finding is at error severity (they fail at the
    default ``--paipu-fail-on error``) and those whose findings are warnings only (they pass)."""
    import json

    from audits.catalogue import CATALOGUE

    error = warned = 0
    for log in (SAMPLES / "faulty").glob("*.jsonl"):
        expected = json.loads(log.with_name(log.name[:-len(".jsonl")] + ".expected.json").read_text("utf-8"))
        if any(CATALOGUE[f["code"]].severity == "error" for f in expected["findings"]):
            error += 1
        else:
            warned += 1
    return error, warned


CLEAN_GAMES = len(list((SAMPLES / "clean").glob("*.jsonl")))
FAULTY_GAMES, WARNED_GAMES = _faulty_at_error()


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    """A project folder holding a copy of sample_logs/ (clean/ and faulty/)."""
    for part in ("clean", "faulty"):
        shutil.copytree(SAMPLES / part, pytester.path / "sample_logs" / part)
    return pytester


def test_a_clean_folder_passes_one_item_per_game(project):
    r = project.runpytest("--paipu", "sample_logs/clean", "-v")
    r.assert_outcomes(passed=CLEAN_GAMES)
    assert r.ret == pytest.ExitCode.OK
    r.stdout.fnmatch_lines(["sample_logs/clean/multi_win_yipao_duoxiang.jsonl::multi-win PASSED*"])


def test_a_faulty_folder_fails_and_each_report_lists_its_findings(project):
    r = project.runpytest("--paipu", "sample_logs/faulty")
    r.assert_outcomes(failed=FAULTY_GAMES, passed=WARNED_GAMES)
    assert r.ret == pytest.ExitCode.TESTS_FAILED
    r.stdout.fnmatch_lines([
        "game sim-30-00000 in sample_logs/faulty/wrong_fan.jsonl: 1 finding(s) at or above error",
        "sample_logs/faulty/wrong_fan.jsonl:79: FAN_MISMATCH [error] hand 1 seq 78 seat 3",
        "    rule: A winner's fans and fan total are those of the hand's highest-scoring reading.",
        "    expected: {'fans': ['wuji'], 'fan': 1}",
        "    actual:   {'fans': ['wuji', 'duidui'], 'fan': 2}",
    ])
    r.stdout.fnmatch_lines(["FAILED sample_logs/faulty/multi_win_wrong_order.jsonl::multi-win*"])


def test_minus_k_selects_one_game(project):
    r = project.runpytest("--paipu", "sample_logs", "-k", "robbed-kong and wrong_payer")
    r.assert_outcomes(failed=1)
    r.stdout.fnmatch_lines(["*qianggang_wrong_payer.jsonl:22: QIANGGANG_PAYER [[]error]*"])
    r = project.runpytest("--paipu", "sample_logs", "-k", "robbed-kong")  # the same game id in two files
    r.assert_outcomes(passed=1, failed=1)


WAIVER = """
[[waiver]]
code = "QIANGGANG_PAYER"
game = "robbed-kong"
reason = "server pays 抢杠 per player until build 4.3"
expires = {expires}
"""


def test_a_waiver_turns_the_failure_into_an_expected_failure(project):
    project.path.joinpath("w.toml").write_text(WAIVER.format(expires="2099-01-01"), encoding="utf-8")
    r = project.runpytest("--paipu", "sample_logs/faulty/qianggang_wrong_payer.jsonl",
                          "--paipu-waivers", "w.toml", "-rA")
    r.assert_outcomes(xfailed=1)
    r.stdout.fnmatch_lines(["1 finding(s) waived", "XFAIL*QIANGGANG_PAYER waived: server pays 抢杠 per player "
                            "until build 4.3 (until 2099-01-01)*"])
    # near miss: a waiver for another game leaves the failure a failure
    project.path.joinpath("w.toml").write_text(WAIVER.format(expires="2099-01-01").replace(
        'game = "robbed-kong"', 'game = "another-game"'), encoding="utf-8")
    r = project.runpytest("--paipu", "sample_logs/faulty/qianggang_wrong_payer.jsonl", "--paipu-waivers", "w.toml")
    r.assert_outcomes(failed=1)


def test_a_waived_warning_below_fail_on_leaves_a_pass(project):
    # the game passes on its own (a warning under --paipu-fail-on error): nothing to expect to fail
    project.path.joinpath("w.toml").write_text(WAIVER.format(expires="2099-01-01"), encoding="utf-8")
    r = project.runpytest("--paipu", "sample_logs/clean", "--paipu-waivers", "w.toml", "-k", "robbed-kong")
    assert r.ret in (0, 5) and "xfailed" not in r.stdout.str()


def test_paipu_toml_is_found_in_the_working_directory(project):
    project.path.joinpath("paipu.toml").write_text(WAIVER.format(expires="2099-01-01"), encoding="utf-8")
    r = project.runpytest("--paipu", "sample_logs/faulty/qianggang_wrong_payer.jsonl")
    r.assert_outcomes(xfailed=1)


def test_an_expired_waiver_is_an_error(project):
    project.path.joinpath("w.toml").write_text(WAIVER.format(expires="2021-03-01"), encoding="utf-8")
    r = project.runpytest("--paipu", "sample_logs/faulty/qianggang_wrong_payer.jsonl", "--paipu-waivers", "w.toml")
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    r.stderr.fnmatch_lines(["ERROR: paipu: w.toml: waiver 1 (QIANGGANG_PAYER) expired on 2021-03-01: "
                            "renew it or fix the finding"])
    assert not any("PASSED" in line or "passed" in line for line in r.outlines)


def test_an_unmatched_waiver_is_reported(project):
    project.path.joinpath("w.toml").write_text(WAIVER.format(expires="2099-01-01"), encoding="utf-8")
    r = project.runpytest("--paipu", "sample_logs/clean", "--paipu-waivers", "w.toml")
    r.assert_outcomes(passed=CLEAN_GAMES)
    r.stdout.fnmatch_lines(["*paipu waivers*", "w.toml: waiver 1 (QIANGGANG_PAYER (game=robbed-kong) until "
                            "2099-01-01: *) matched no finding in the games run"])


def test_select_ignore_and_fail_on_mirror_the_cli(pytester):
    write_logs(pytester.path)
    pytester.runpytest("--paipu", "logs").assert_outcomes(passed=2, failed=1)
    pytester.runpytest("--paipu", "logs", "--paipu-fail-on", "warning").assert_outcomes(passed=1, failed=2)
    pytester.runpytest("--paipu", "logs", "--paipu-ignore", "SCORE_MISMATCH").assert_outcomes(passed=3)
    pytester.runpytest("--paipu", "logs", "--paipu-select", "FEE_*", "--paipu-fail-on", "warning"
                       ).assert_outcomes(passed=2, failed=1)
    r = pytester.runpytest("--paipu", "logs", "--paipu-select", "NOPE")
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    r.stderr.fnmatch_lines(["*unknown finding code 'NOPE'*"])


def test_the_plugin_is_inactive_without_dash_dash_paipu(pytester):
    write_logs(pytester.path)
    pytester.makepyfile(test_own="def test_own():\n    assert True\n")
    r = pytester.runpytest()
    r.assert_outcomes(passed=1)  # the project's own test only; the logs are not collected
    r = pytester.runpytest("logs/bad.jsonl")  # not a test file for pytest itself
    assert r.ret == pytest.ExitCode.USAGE_ERROR
    r.stderr.fnmatch_lines(["ERROR: not found: */logs/bad.jsonl"])


def test_lines_that_name_no_game_fail_one_extra_item(pytester):
    d = write_logs(pytester.path)
    (d / "clean.jsonl").write_bytes((d / "clean.jsonl").read_bytes() + b"not json at all\n")
    r = pytester.runpytest("--paipu", "logs/clean.jsonl")
    r.assert_outcomes(passed=1, failed=1)
    r.stdout.fnmatch_lines(["unreadable input (STREAM_UNREADABLE_LINE):", "logs/clean.jsonl:17: not JSON*"])


def test_junitxml_carries_the_game_properties(pytester):
    write_logs(pytester.path)
    pytester.runpytest("--paipu", "logs", "--junitxml", "out.xml")
    root = ET.parse(pytester.path / "out.xml").getroot()
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert set(cases) == {"g-clean", "g-warn", "g-bad"}
    props = {p.get("name"): p.get("value") for p in cases["g-bad"].iter("property")}
    assert props["server"] == "paipu-sim" and props["ruleset"] == "qujing-xiaoji"
    assert cases["g-bad"].find("failure") is not None and cases["g-warn"].find("failure") is None


def test_cli_and_plugin_give_the_same_verdicts_on_sample_logs(project, monkeypatch):
    monkeypatch.chdir(project.path)
    assert run_audit(["sample_logs"], "junit", "cli.xml", progress=False) == 1
    r = project.runpytest("--paipu", "sample_logs", "--junitxml", "plugin.xml")

    def verdicts(path: str, key) -> dict:
        cases = ET.parse(project.path / path).getroot().iter("testcase")
        return {key(c): c.find("failure") is None for c in cases}

    cli = verdicts("cli.xml", lambda c: (c.get("classname"), c.get("name")))
    plugin = verdicts("plugin.xml", lambda c: (c.get("classname").replace(".", "/").replace("/jsonl", ".jsonl"),
                                               c.get("name")))
    assert len(cli) == CLEAN_GAMES + FAULTY_GAMES + WARNED_GAMES
    assert cli == plugin
    assert sum(1 for ok in cli.values() if not ok) == FAULTY_GAMES
    r.assert_outcomes(passed=CLEAN_GAMES + WARNED_GAMES, failed=FAULTY_GAMES)


def test_games_of_one_file_are_items_of_that_file_audited_in_any_selection(pytester):
    d = write_logs(pytester.path)
    both = pytester.path / "one.jsonl"
    both.write_bytes(b"".join((d / n).read_bytes() for n in ("bad.jsonl", "clean.jsonl", "warn.jsonl")))
    r = pytester.runpytest("--paipu", "one.jsonl", "-v", "--paipu-fail-on", "warning")
    r.stdout.fnmatch_lines(["one.jsonl::g-bad FAILED*", "one.jsonl::g-clean PASSED*", "one.jsonl::g-warn FAILED*"])
    r = pytester.runpytest("--paipu", "one.jsonl", "-k", "g-warn or g-clean", "--paipu-fail-on", "warning")
    r.assert_outcomes(passed=1, failed=1, deselected=1)
    r.stdout.fnmatch_lines(["one.jsonl:*: FEE_AMOUNT [[]warning]*"])


def test_games_run_under_a_parallel_runner(project):
    pytest.importorskip("xdist")
    r = project.runpytest_subprocess("--paipu", "sample_logs", "-n", "2", "-p", "no:cacheprovider")
    r.assert_outcomes(passed=CLEAN_GAMES + WARNED_GAMES, failed=FAULTY_GAMES)
