import json

from typer.testing import CliRunner

from paipu.cli import app
from tests.replay.games import melds_game

runner = CliRunner()


def log_file(tmp_path, *builders):
    p = tmp_path / "log.jsonl"
    p.write_bytes(b"".join(b.jsonl() for b in builders))
    return str(p)


def test_replay_shows_the_table_at_a_chosen_event(tmp_path):
    path = log_file(tmp_path, melds_game())
    out = runner.invoke(app, ["replay", path, "--at", "7"])
    assert out.exit_code == 0, out.output
    assert "seq 7" in out.output and "pong:999p" in out.output
    out = runner.invoke(app, ["replay", path, "--at", "7", "--json"])
    state = json.loads(out.stdout)
    assert state["seq"] == 7 and state["melds"][3][0]["kind"] == "pong"
    assert state["discards"][1][-1] == {"tile": "9p", "claimed_by": 3}


def test_replay_picks_a_game_by_id(tmp_path):
    a, b = melds_game("first"), melds_game("second")
    path = log_file(tmp_path, a, b)
    out = runner.invoke(app, ["replay", path, "--game", "second", "--json"])
    assert json.loads(out.stdout)["game"] == "second"
    out = runner.invoke(app, ["replay", path, "--game", "third"])
    assert out.exit_code == 2 and "no game 'third'" in out.output


def test_replay_stops_at_a_structural_break_with_exit_1(tmp_path):
    b = melds_game()
    import msgspec
    b.events[4] = msgspec.structs.replace(b.events[4], tile="9s")
    out = runner.invoke(app, ["replay", log_file(tmp_path, b), "--json"])
    assert out.exit_code == 1
    assert "does not hold 9s" in out.output
    assert json.loads(out.stdout.splitlines()[-1])["seq"] == 3


def test_replay_of_a_missing_file_is_exit_2_without_traceback(tmp_path):
    out = runner.invoke(app, ["replay", str(tmp_path / "none.jsonl")])
    assert out.exit_code == 2 and "Traceback" not in out.output


def test_schema_prints_the_json_schema():
    out = runner.invoke(app, ["schema"])
    assert out.exit_code == 0
    doc = json.loads(out.stdout)
    assert "GameOpened" in doc["$defs"] and "HandSettled" in doc["$defs"]
