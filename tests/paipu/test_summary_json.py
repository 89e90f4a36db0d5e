"""The corrected ledger as data: the JSON summary record per game, ``--explain --format json``,
and who owes whom (``audits.corrections``)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
import typer
from typer.testing import CliRunner

from audits.corrections import (Payment, gaps, hand_deltas, is_summary, net_corrections, unbalanced,
                                who_owes_whom)
from paipu import audit_cmd
from paipu.reports import read_json_lines

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
ALL_SAMPLES = sorted(SAMPLES.rglob("*.jsonl"))  # Guangdong samples sit one level deeper
runner = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer()
    audit_cmd.register(app)

    @app.command("noop")
    def noop() -> None:  # keeps `audit` a named subcommand
        pass

    return app


def _lines(text: str) -> list[dict]:
    return [msgspec.json.decode(line) for line in text.splitlines() if line.strip()]


# --- the arithmetic -------------------------------------------------------------------

def test_gaps_and_hand_deltas_follow_the_difference_of_the_two_score_lines():
    logged = [[0, 0, -4, 4], [2, -2, -4, 4]]
    ledger = [[0, 0, -2, 2], [2, -2, -2, 2]]
    assert gaps(logged, ledger) == [[0, 0, 2, -2], [0, 0, 2, -2]]
    # the second hand was paid right: it moved no money wrongly
    assert hand_deltas(logged, ledger) == [[0, 0, 2, -2], [0, 0, 0, 0]]
    assert net_corrections(logged, ledger) == [0, 0, 2, -2]
    assert net_corrections([], []) == []


def test_who_owes_whom_pays_the_largest_debt_to_the_largest_claim_first():
    # seat 3 holds 6 too many (a self-draw overpaid by every other seat)
    assert who_owes_whom([2, 2, 2, -6]) == [Payment(3, 0, 2), Payment(3, 1, 2), Payment(3, 2, 2)]
    # two debtors, one creditor
    assert who_owes_whom([5, -3, -2, 0]) == [Payment(1, 0, 3), Payment(2, 0, 2)]
    assert who_owes_whom([0, 0, 0, 0]) == [] and unbalanced([0, 0, 0, 0]) == 0


def test_corrections_that_do_not_net_out_leave_the_unheld_part_unpaid():
    net = [3, -1, 0, 0]  # the logged scores lost 2 points nobody received
    assert who_owes_whom(net) == [Payment(1, 0, 1)]
    assert unbalanced(net) == 2


# --- the JSON summary -----------------------------------------------------------------

def test_the_json_stream_ends_each_game_with_its_summary_record(tmp_path):
    r = runner.invoke(_app(), ["audit", str(SAMPLES / "faulty" / "wrong_fan.jsonl"), "--format", "json"])
    assert r.exit_code == 1
    records = _lines(r.stdout)
    assert [rec.get("code") for rec in records[:-1]] == ["FAN_MISMATCH"]
    s = records[-1]
    assert is_summary(s) and s["complete"] is True and s["failed"] is True and s["reported"] == 1
    assert s["players"] == ["P22", "P19", "P24", "P16"]
    assert s["ledger"] == [{"hand": 1, "logged": [0, 0, -4, 4], "corrected": [0, 0, -2, 2]}]
    assert [c["amount"] for c in s["corrections"]] == [0, 0, 2, -2]
    assert s["owes"] == [{"from": "P16", "from_seat": 3, "to": "P24", "to_seat": 2, "amount": 2}]
    assert s["unbalanced"] == 0
    # the findings still decode as findings
    assert [f.code for f in read_json_lines(r.stdout.encode())] == ["FAN_MISMATCH"]


def test_a_clean_game_has_a_summary_with_no_corrections():
    r = runner.invoke(_app(), ["audit", str(SAMPLES / "clean" / "xiaoji_default.jsonl"), "-f", "json"])
    assert r.exit_code == 0
    (s,) = _lines(r.stdout)
    assert is_summary(s) and s["failed"] is False and s["owes"] == []
    assert all(row["logged"] == row["corrected"] for row in s["ledger"]) and s["ledger"]


def test_a_broken_game_summary_says_incomplete_and_keeps_the_checked_prefix():
    r = runner.invoke(_app(), ["audit", str(SAMPLES / "faulty" / "sequence_gap.jsonl"), "-f", "json"])
    s = _lines(r.stdout)[-1]
    assert is_summary(s) and s["complete"] is False


def test_explain_json_prints_the_records_then_findings_then_the_summary():
    path = SAMPLES / "faulty" / "wrong_fan.jsonl"
    r = runner.invoke(_app(), ["audit", str(path), "--explain", "sim-30-00000", "--format", "json"])
    assert r.exit_code == 1
    recs = _lines(r.stdout)
    kinds = [x.get("kind") or x.get("record") or "finding" for x in recs]
    assert kinds == ["game", "hand", "settlement", "finding", "summary"]
    settlement = recs[2]
    fans = {w["seat"]: w for w in settlement["winners"]}
    assert fans[3]["fan"] == 1 and fans[3]["logged_fan"] == 2
    assert settlement["scores_after"] == [0, 0, -2, 2] and settlement["logged_scores"] == [0, 0, -4, 4]
    r = runner.invoke(_app(), ["audit", str(path), "--explain", "sim-30-00000", "--format", "junit"])
    assert r.exit_code == 2


def test_the_summary_ledger_equals_the_one_explain_prints_for_every_sample_log():
    r = runner.invoke(_app(), ["audit", str(SAMPLES), "--format", "json"])
    assert r.exit_code == 1
    summaries = [x for x in _lines(r.stdout) if is_summary(x)]
    assert len(summaries) == len(ALL_SAMPLES)
    compared = 0
    for s in summaries:
        e = runner.invoke(_app(), ["audit", s["file"], "--explain", s["game"], "--format", "json"])
        assert e.exit_code in (0, 1), e.stdout
        recs = _lines(e.stdout)
        explained = []
        hand = None
        for rec in recs:
            if rec.get("kind") == "hand":
                hand = rec["hand"]
            elif rec.get("kind") == "settlement":
                explained.append({"hand": hand, "logged": rec["logged_scores"], "corrected": rec["scores_after"]})
        assert s["ledger"] == explained, s["file"]
        assert recs[-1] == {k: v for k, v in s.items() if k not in ("reported", "failed")}
        compared += len(explained)
    assert compared > 30  # the samples settle many hands


@pytest.mark.parametrize("path", ALL_SAMPLES, ids=lambda p: p.stem)
def test_every_summary_net_matches_its_ledger(path):
    r = runner.invoke(_app(), ["audit", str(path), "-f", "json"])
    for s in (x for x in _lines(r.stdout) if is_summary(x)):
        if s["ledger"]:
            last = s["ledger"][-1]
            assert [c["amount"] for c in s["corrections"]] == [a - b for a, b in zip(last["corrected"], last["logged"])]
        # settling the payments leaves every player at the corrected score
        after = [c["amount"] for c in s["corrections"]]
        for p in s["owes"]:
            after[p["from_seat"]] += p["amount"]
            after[p["to_seat"]] -= p["amount"]
        assert sum(abs(x) for x in after) == abs(s["unbalanced"]) or s["unbalanced"] != 0
