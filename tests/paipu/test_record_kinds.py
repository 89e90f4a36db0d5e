"""Every JSON record paipu writes says what it is, under one key: ``record``."""

from __future__ import annotations

import msgspec
import typer
from typer.testing import CliRunner

from paipu import audit_cmd
from paipu.reports import read_json_lines

from tests.paipu.test_report import SAMPLES


def _audit(*args: str):
    app = typer.Typer()
    audit_cmd.register(app)
    return CliRunner().invoke(app, ["audit", *args])


def test_every_json_line_of_the_audit_has_a_record_kind():
    r = _audit(str(SAMPLES / "faulty" / "wrong_fan.jsonl"), str(SAMPLES / "clean"), "--format", "json")
    records = [msgspec.json.decode(line) for line in r.stdout.splitlines() if line.strip()]
    kinds = [rec.get("record") for rec in records]
    assert set(kinds) == {"finding", "summary"} and kinds.count("finding") >= 1
    assert all(next(iter(rec)) == "record" or rec["record"] == "summary" for rec in records)
    # the findings still read back as findings (the reader skips the summaries)
    found = read_json_lines(r.stdout.encode())
    assert [f.code for f in found] == [rec["code"] for rec in records if rec["record"] == "finding"]


def test_every_explain_record_has_a_record_kind():
    r = _audit(str(SAMPLES / "faulty" / "wrong_fan.jsonl"), "--explain", "sim-30-00000", "--format", "json")
    records = [msgspec.json.decode(line) for line in r.stdout.splitlines() if line.strip()]
    assert records and all("record" in rec for rec in records), [rec for rec in records if "record" not in rec]
    kinds = {rec["record"] for rec in records}
    assert {"game", "hand", "settlement", "summary"} <= kinds
    assert all(rec["record"] == rec["kind"] for rec in records if "kind" in rec)
