"""One hand notation: what ``--explain`` prints for a winner can be pasted into ``paipu hand``."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from audits.audit import explain_records
from audits.explain import hand_command
from schema.reader import LogReader

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def _winners():
    for path in sorted(SAMPLES.glob("*/*.jsonl")):
        for log in LogReader([str(path)]).games():
            _audit, recs = explain_records(log)
            game = next(r for r in recs if r["kind"] == "game")
            for r in recs:
                if r["kind"] == "settlement" and r["result"] is not None:
                    for w in r["winners"]:
                        if w["complete"]:
                            yield path.stem, game, r["result"], w


def test_the_command_drops_the_winning_tile_and_spells_melds_and_options_as_paipu_hand_does():
    cmd = hand_command("234m222p66p [chow 567s] [kong_concealed 4444p]", "2m", "self_draw",
                       ["gangshang_kaihua"], "qujing-xiaoji", {"chow": True})
    assert cmd == ('paipu hand 34m22266p --tile 2m --melds "chow:567s ckong:4444p" --self-draw --after-kong '
                   "--preset qujing-xiaoji --option chow=true")
    cmd = hand_command("12379m338m33z [pong 222z] [kong_added 111s7z]", "8m", "discard", ["gangshang_pao"],
                       "qujing-shuanggui", {"wilds": ["5z", "7z"], "draw_reserve_by_kongs": [20, 14]})
    assert cmd == ('paipu hand 1233379m33z --tile 8m --melds "pong:222z akong:111s7z" --discard --kong-discard '
                   "--preset qujing-shuanggui --option 'draw_reserve_by_kongs=[20,14]' --option wilds=5z,7z")


def test_explain_prints_the_command_for_every_winner():
    winners = list(_winners())
    assert len(winners) > 40
    for _name, game, result, w in winners:
        cmd = hand_command(w["picture"], result["tile"], result["how"], [f[0] for f in w["fans"]], game["preset"],
                           game["options"], w.get("indicator"))
        assert cmd.startswith("paipu hand ") and f"--tile {result['tile']}" in cmd


def test_the_pasted_command_scores_the_hand_as_the_audit_did():
    hand_cmd = pytest.importorskip("paipu.hand_cmd", reason="paipu hand does not import on this branch yet",
                                   exc_type=ImportError)
    from typer.testing import CliRunner
    import typer

    app = typer.Typer()
    hand_cmd.register(app)

    @app.command("noop")
    def noop() -> None:
        pass

    runner = CliRunner()
    for name, game, result, w in _winners():
        cmd = hand_command(w["picture"], result["tile"], result["how"], [f[0] for f in w["fans"]], game["preset"],
                           game["options"], w.get("indicator"))
        r = runner.invoke(app, [*shlex.split(cmd)[1:], "--json"])
        assert r.exit_code == 0, (name, cmd, r.output)
        assert json.loads(r.stdout)["fan"] == w["fan"], (name, cmd)
