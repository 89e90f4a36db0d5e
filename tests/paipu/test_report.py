"""``paipu report``: the dispute page's content, self-containment, size, exit codes (no browser).

The browser behaviour (stepping, clicking a finding, no request) is in
``test_report_browser.py``."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from audits import audit_game
from audits.catalogue import CATALOGUE
from audits.corrections import summary_record
from paipu import report_cmd
from paipu.report import render_report
from paipu.report.names import RULE_NAMES
from schema.reader import LogReader

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
ALL_SAMPLES = sorted(SAMPLES.rglob("*.jsonl"))  # Guangdong samples sit one level deeper
runner = CliRunner()


def _app() -> typer.Typer:
    app = typer.Typer()
    report_cmd.register(app)

    @app.command("noop")
    def noop() -> None:  # keeps `report` a named subcommand
        pass

    return app


def _log(path: Path):
    return next(iter(LogReader([str(path)]).games()))


def _ledger_cells(html: str) -> list[dict]:
    """The ledger table of a page, read back from its markup."""
    body = html.split('<table id="ledger">', 1)[1].split("</table>", 1)[0]
    rows = []
    for hand, row in re.findall(r'<tr data-hand="(\d+)"[^>]*>(.*?)</tr>', body, re.S):
        logged = [int(v) for v in re.findall(r'class="logged" data-seat="\d+">(-?\d+)<', row)]
        corrected = [int(v) for v in re.findall(r'class="corrected[^"]*" data-seat="\d+">(-?\d+)<', row)]
        rows.append({"hand": int(hand), "logged": logged, "corrected": corrected})
    return rows


def test_every_finding_code_has_a_chinese_and_an_english_rule_name():
    assert set(RULE_NAMES) == set(CATALOGUE)
    for zh, en in RULE_NAMES.values():
        assert re.search(r"[\u4e00-\u9fff]", zh) and re.search(r"[a-z]", en)


@pytest.mark.parametrize("path", ALL_SAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_sample_report_is_self_contained_and_shows_the_audits_ledger(path):
    log = _log(path)
    html, model = render_report(log)
    # nothing to fetch: no URL, no external stylesheet, script or image
    assert not re.search(r"https?://", html)
    assert not re.search(r"<(script|img|iframe)[^>]*\ssrc=", html)
    assert "<link rel=\"stylesheet\"" not in html and "@import" not in html
    assert len(html.encode()) < 1_000_000
    # the ledger on the page is the audit's summary ledger
    summary = summary_record(audit_game(log))
    assert _ledger_cells(html) == [{k: row[k] for k in ("hand", "logged", "corrected")} for row in summary["ledger"]]
    for o in summary["owes"]:
        assert f'data-from="{o["from_seat"]}" data-to="{o["to_seat"]}" data-amount="{o["amount"]}"' in html
    # the verdict: clean, or every finding with its Chinese rule name, code and event
    if path.parent.name == "clean":
        assert model["clean"] and 'Clean — <span lang="zh-Hans">无误</span>' in html
    for f in model["findings"]:
        assert f'id="finding-{f["n"]}"' in html and f["zh"] in html and f["code"] in html


def test_a_faulty_report_says_who_owes_whom_and_what_the_finding_moved():
    html, model = render_report(_log(SAMPLES / "faulty" / "wrong_fan.jsonl"))
    assert "<b>P16</b> owes <b>P24</b> 2" in html
    (f,) = model["findings"]
    assert (f["code"], f["zh"], f["seq"]) == ("FAN_MISMATCH", "番数算错", 78)
    assert f["money"] == "Hand 1's payments moved 2 points wrongly — got too much: P16 2; got too little: P24 2."
    assert "A winner&#39;s fans and fan total are those of the hand&#39;s highest-scoring reading." in html
    # the finding's frame is its event, and marks the winning tile in the discarder's river
    frame = model["frames"][f["frame"]]
    assert frame["seq"] == 78 and frame["type"] == "HandWon" and frame["findings"] == [0]
    assert frame["marks"] == [[2, "r", len(re.findall(r"\*?\d[mpsz]", frame["r"][2])) - 1]]
    # the settlement: recomputed 1 fan beside the logged 2
    s = model["hands"][0]["settlement"]
    w = s["winners"][0]
    assert (w["fan"], w["logged_fan"], w["points"], w["logged_points"]) == (1, 2, 2, 4)
    assert [t for t in s["transfers"] if t["differs"]] == [
        {"payer": 2, "payee": 3, "reason": "win", "label": "pays", "recomputed": 2, "logged": 4, "differs": True}]


def test_a_clean_report_has_no_corrections():
    html, model = render_report(_log(SAMPLES / "clean" / "xiaoji_default.jsonl"))
    assert model["clean"] and model["owes"] == [] and "Nobody owes anybody anything." in html
    assert all(not row["differs"] for row in model["ledger"])


def test_a_structurally_broken_game_shows_the_checked_prefix_and_where_it_broke():
    html, model = render_report(_log(SAMPLES / "faulty" / "tiles_not_in_hand.jsonl"))
    b = model["broken"]
    assert b is not None and b["seq"] == 97 and "does not hold 3z" in b["message"]
    assert 'id="broken"' in html and "The log breaks here." in html
    assert model["frames"][-1]["seq"] == 96  # the table stops before the break
    assert not model["complete"]
    (f,) = [f for f in model["findings"] if f["code"] == "CLAIM_TILES_NOT_IN_HAND"]
    assert f["frame"] == len(model["frames"]) - 1 and not f["exact"]


def test_each_event_marks_what_it_moved():
    _, model = render_report(_log(SAMPLES / "clean" / "seed_pong_kong_gangshang_kaihua.jsonl"))
    kinds = {}
    for fr in model["frames"]:
        kinds.setdefault(fr["type"], fr)
    d = kinds["TileDiscarded"]
    assert [m[1] for m in d["marks"]] == ["r"] and d["marks"][0][0] == d["seat"]
    p = kinds["Ponged"]
    assert ["m"] == [m[1] for m in p["marks"]] and p["marks"][0][0] == p["seat"]
    dr = kinds["TileDrawn"]
    assert [m[1] for m in dr["marks"]] == ["c"] and dr["marks"][0][0] == dr["seat"]
    assert "draws [" in dr["text"]


def test_the_command_writes_the_page_or_stdout_and_exits_by_the_verdict(tmp_path):
    out = tmp_path / "r.html"
    r = runner.invoke(_app(), ["report", str(SAMPLES / "faulty" / "wrong_fan.jsonl"), "-o", str(out)])
    assert r.exit_code == 1 and out.read_text(encoding="utf-8").startswith("<!doctype html>")
    r = runner.invoke(_app(), ["report", str(SAMPLES / "clean" / "xiaoji_default.jsonl"), "-o", "-"])
    assert r.exit_code == 0 and r.stdout.startswith("<!doctype html>") and "</html>" in r.stdout


def test_bad_input_is_one_sentence_and_exit_2(tmp_path):
    r = runner.invoke(_app(), ["report", str(tmp_path / "nope.jsonl")])
    assert r.exit_code == 2 and r.stderr.strip().startswith("paipu: ") and "Traceback" not in r.output
    r = runner.invoke(_app(), ["report", str(SAMPLES / "faulty" / "wrong_fan.jsonl"), "--game", "zz", "-o", "-"])
    assert r.exit_code == 2 and "game 'zz' is not in" in r.stderr and r.stdout == ""
    r = runner.invoke(_app(), ["report", str(SAMPLES / "faulty" / "wrong_fan.jsonl"), "-o",
                               str(tmp_path / "no" / "dir" / "r.html")])
    assert r.exit_code == 2 and "cannot write" in r.stderr


def test_the_longest_sample_report_is_under_1_mb(capsys):
    longest = max(ALL_SAMPLES, key=lambda p: sum(1 for _ in p.open("rb")))
    log = _log(longest)
    render_report(log)  # warm the template cache, as a second report in one process would
    t0 = time.perf_counter()
    html, model = render_report(log)
    seconds = time.perf_counter() - t0
    size = len(html.encode())
    with capsys.disabled():
        print(f"\n  report of {longest.name}: {len(model['frames'])} events, {size / 1024:.0f} KB, {seconds:.3f} s")
    assert size < 1_000_000


def test_a_game_that_breaks_at_its_first_event_still_makes_a_page(tmp_path):
    lines = (SAMPLES / "faulty" / "wrong_fan.jsonl").read_text().splitlines()
    log = tmp_path / "v9.jsonl"
    log.write_text("\n".join([lines[0].replace('"schema_version":1', '"schema_version":9'), *lines[1:5]]) + "\n")
    html, model = render_report(_log(log))
    assert model["frames"] == [] and model["broken"]["seq"] == 0 and "schema version 9" in model["broken"]["message"]
    assert "No event of this game could be replayed." in html and "nothing to correct" in html
    (f,) = model["findings"]
    assert f["code"] == "STRUCTURAL_BREAK" and f["frame"] is None and "Before the first hand" in html


def test_a_file_of_several_games_reports_the_first_or_the_one_named(tmp_path):
    both = tmp_path / "two.jsonl"
    both.write_bytes((SAMPLES / "faulty" / "wrong_fan.jsonl").read_bytes() +
                     (SAMPLES / "clean" / "xiaoji_default.jsonl").read_bytes())
    second = _log(SAMPLES / "clean" / "xiaoji_default.jsonl").game
    r = runner.invoke(_app(), ["report", str(both), "-o", "-"])
    assert r.exit_code == 1 and "holds 2 games; reporting the first, sim-30-00000" in r.stderr
    r = runner.invoke(_app(), ["report", str(both), "--game", second, "-o", "-"])
    assert r.exit_code == 0 and f"Game <b>{second}</b>" in r.stdout and r.stderr == ""


def test_each_winner_shows_the_paipu_hand_command_that_scores_it():
    html, model = render_report(_log(SAMPLES / "faulty" / "wrong_fan.jsonl"))
    w = model["hands"][0]["settlement"]["winners"][0]
    assert w["command"] == ('paipu hand 4456688m --tile 5m --melds "pong:111z pong:777p" --discard '
                            "--preset qujing-xiaoji")
    assert "Check it yourself: <code>paipu hand 4456688m --tile 5m --melds &#34;pong:111z pong:777p&#34;" in html


def test_the_room_names_the_options_that_differ_from_the_preset_as_logs_spell_them():
    html, model = render_report(_log(SAMPLES / "clean" / "xiaoji_dianji.jsonl"))
    changed = [(r["name"], r["value"]) for r in model["room"]["ruleset"] if r["changed"]]
    assert changed == [("dianji", "true")]
    assert "qujing-xiaoji, <b>dianji=true</b>" in html


def test_an_illegal_winner_is_shown_with_the_rule_it_breaks_not_priced():
    """A complete hand that is no legal win (Wuhan: two 癞子 in a 屁胡) shows the rule and that
    nothing is due, not "P = 1 × 2^0 = 0"; a legal winner (the near miss) is priced."""
    html, model = render_report(_log(SAMPLES / "wuhan" / "faulty" / "ex11a_two_laizi.jsonl"))
    (w,) = [w for h in model["hands"] if h["settlement"] for w in h["settlement"]["winners"]]
    assert w["illegal"]["zh"] == RULE_NAMES["WIN_LAIZI_LIMIT"][0] and "2 癞子" in w["illegal"]["reason"]
    assert "no payment is due" in html and "2<sup>0</sup>" not in html
    html, model = render_report(_log(SAMPLES / "wuhan" / "clean" / "ex07_gangkai_jinding.jsonl"))
    winners = [w for h in model["hands"] if h["settlement"] for w in h["settlement"]["winners"]]
    assert winners and not any(w.get("illegal") for w in winners) and "legal win</td>" not in html
