"""``paipu audit``: formats, exit codes, JSON round trip, JUnit validity, --explain."""

from __future__ import annotations

import gzip
from xml.etree import ElementTree as ET

import typer
from typer.testing import CliRunner

from audits.findings import Finding
from paipu import audit_cmd
from paipu.reports import read_json_lines

from tests.audits.helpers import selfdraw_game


def _app() -> typer.Typer:
    app = typer.Typer()
    audit_cmd.register(app)

    @app.command("noop")
    def noop() -> None:  # a second command keeps `audit` a named subcommand
        pass

    return app


def _logs(tmp_path, bad: bool = True):
    clean = selfdraw_game("g-clean")
    def plant(b, step):
        if step == "close":
            b.close("hands_done", [0, 0, 0, 0])
            return True
        return False
    faulty = selfdraw_game("g-bad", plant=plant)  # SCORE_MISMATCH at the close
    (tmp_path / "logs" / "sub").mkdir(parents=True)
    (tmp_path / "logs" / "clean.jsonl").write_bytes(clean.jsonl())
    if bad:
        with gzip.open(tmp_path / "logs" / "sub" / "bad.jsonl.gz", "wb") as f:
            f.write(faulty.jsonl())
    return tmp_path / "logs"


runner = CliRunner()


def test_clean_input_exits_0_with_a_summary(tmp_path):
    d = _logs(tmp_path, bad=False)
    r = runner.invoke(_app(), ["audit", str(d)])
    assert r.exit_code == 0, r.output
    assert "1 games" in r.output and "clean: no finding" in r.output


def test_findings_exit_1_and_the_text_summary_names_code_and_game(tmp_path):
    r = runner.invoke(_app(), ["audit", str(_logs(tmp_path))])
    assert r.exit_code == 1
    assert "SCORE_MISMATCH" in r.output and "g-bad" in r.output and "2 games" in r.output


def test_json_lines_decode_back_into_findings(tmp_path):
    out = tmp_path / "f.jsonl"
    r = runner.invoke(_app(), ["audit", str(_logs(tmp_path)), "--format", "json", "--output", str(out)])
    assert r.exit_code == 1
    found = read_json_lines(out.read_bytes())
    assert len(found) == 1 and isinstance(found[0], Finding)
    f = found[0]
    assert f.code == "SCORE_MISMATCH" and f.game == "g-bad" and f.expected == [12, -4, -4, -4]
    assert f.actual == [0, 0, 0, 0]


def test_junit_is_valid_xml_with_one_testcase_per_game(tmp_path):
    r = runner.invoke(_app(), ["audit", str(_logs(tmp_path)), "--format", "junit"])
    assert r.exit_code == 1
    root = ET.fromstring(r.stdout)
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    assert suite.get("tests") == "2" and suite.get("failures") == "1" and len(cases) == 2
    by_name = {c.get("name"): c for c in cases}
    assert by_name["g-clean"].find("failure") is None
    fail = by_name["g-bad"].find("failure")
    assert fail is not None and "SCORE_MISMATCH" in fail.get("message") and "SCORE_MISMATCH" in fail.text


def test_stdin_is_read_with_a_dash():
    r = runner.invoke(_app(), ["audit", "-"], input=selfdraw_game().jsonl().decode())
    assert r.exit_code == 0, r.output


def test_missing_file_exits_2(tmp_path):
    r = runner.invoke(_app(), ["audit", str(tmp_path / "nope.jsonl")])
    assert r.exit_code == 2 and "no such file" in r.output


def test_bad_usage_exits_2_with_one_sentence(tmp_path):
    d = _logs(tmp_path)
    r = runner.invoke(_app(), ["audit", str(d), "--format", "xml"])
    assert r.exit_code == 2 and "unknown format" in r.output and "Traceback" not in r.output
    assert runner.invoke(_app(), ["audit", str(d), "--jobs", "0"]).exit_code == 2
    assert runner.invoke(_app(), ["audit"]).exit_code == 2


def test_explain_derives_one_game(tmp_path):
    d = _logs(tmp_path)
    r = runner.invoke(_app(), ["audit", str(d), "--explain", "g-clean"])
    assert r.exit_code == 0, r.output
    assert "P = 1 × 2^2 = 4" in r.output and "seat 1 pays 4 to seat 0" in r.output
    r = runner.invoke(_app(), ["audit", str(d), "--explain", "g-bad"])
    assert r.exit_code == 1 and "SCORE_MISMATCH" in r.output
    r = runner.invoke(_app(), ["audit", str(d), "--explain", "nope"])
    assert r.exit_code == 2 and "not in the input" in r.output


def test_jobs_2_gives_the_same_findings_in_input_order(tmp_path):
    d = _logs(tmp_path)
    one = runner.invoke(_app(), ["audit", str(d), "--format", "json"])
    two = runner.invoke(_app(), ["audit", str(d), "--format", "json", "--jobs", "2"])
    assert one.exit_code == two.exit_code == 1
    assert one.stdout == two.stdout


def test_jobs_2_on_one_file_audits_games_in_workers_in_order(tmp_path):
    from audits import audit_paths

    p = tmp_path / "two.jsonl"
    def plant(b, step):
        if step == "close":
            b.close("hands_done", [1, 1, 1, 1])
            return True
        return False
    p.write_bytes(selfdraw_game("g1").jsonl() + selfdraw_game("g2", plant=plant).jsonl() + selfdraw_game("g3").jsonl())
    one = list(audit_paths([str(p)], jobs=1))
    two = list(audit_paths([str(p)], jobs=2))
    assert [a.game for a in two] == ["g1", "g2", "g3"]
    assert [[f.code for f in a.findings] for a in two] == [[], ["SCORE_MISMATCH"], []]
    assert one == two
