"""Malformed input: each case names file, line and field, and the other games go on."""

import gzip
import subprocess
import sys

import msgspec
import pytest

from schema import events as ev
from schema.builder import GameBuilder
from schema.reader import decode_line, encode_events, read_games


def small_game(gid: str) -> GameBuilder:
    b = GameBuilder(gid)
    b.open()
    b.hand(1, dealer=0)
    b.deal("123456789m1234p5p", "123456789p123s", "123456789s1234z", "1234z5678m5678p"[:0] + "5555z666z777z1m")
    b.close("dissolved", [0, 0, 0, 0])
    return b


def lines_of(b: GameBuilder) -> list[bytes]:
    return b.jsonl().splitlines(keepends=True)


def write(tmp_path, name, lines):
    p = tmp_path / name
    p.write_bytes(b"".join(lines))
    return str(p)


def test_round_trip_every_event_type():
    b = small_game("g1")
    for cls in ev.EVENT_TYPES:
        # past tense (``TileSetAside``: "set" is its own past participle)
        assert cls.__name__.endswith(("ed", "Won", "Drawn", "Dealt", "SetAside")), f"{cls.__name__} is not past tense"
    decoded = [decode_line(line, "x", i) for i, line in enumerate(lines_of(b), 1)]
    assert decoded == b.events
    assert encode_events(decoded) == b.jsonl()


def test_not_json_names_file_and_line(tmp_path):
    lines = lines_of(small_game("g1")) + [b"{oops\n"] + lines_of(small_game("g2"))
    path = write(tmp_path, "log.jsonl", lines)
    games, orphans = read_games([path])
    assert [g.game for g in games] == ["g1", "g2"]
    assert all(g.problem is None and g.closed for g in games)
    assert len(orphans) == 1 and str(orphans[0]).startswith(f"{path}:5: not JSON")


def test_wrong_type_names_the_field_and_keeps_other_games(tmp_path):
    good = lines_of(small_game("g2"))
    bad = lines_of(small_game("g1"))
    bad[3] = bad[3].replace(b'"seq":3', b'"seq":"three"')
    path = write(tmp_path, "log.jsonl", bad + good)
    games, _ = read_games([path])
    g1 = next(g for g in games if g.game == "g1")
    assert str(g1.problem) == f"{path}:4: expected `int`, got `str` at field `seq`"
    assert g1.problem.field == "seq"
    assert len(g1.events) == 3  # events after the bad line are not replayable
    g2 = next(g for g in games if g.game == "g2")
    assert g2.problem is None and len(g2.events) == len(good)


def test_unknown_event_type(tmp_path):
    bad = lines_of(small_game("g1"))
    bad.insert(2, b'{"type":"TileTeleported","game":"g1","seq":2}\n')
    games, _ = read_games([write(tmp_path, "log.jsonl", bad + lines_of(small_game("g2")))])
    assert "unknown event type 'TileTeleported'" in games[0].problem.message
    assert games[0].problem.line == 3
    assert games[1].problem is None


def test_missing_field(tmp_path):
    bad = lines_of(small_game("g1"))
    bad[1] = bad[1].replace(b',"dealer":0', b"")
    games, _ = read_games([write(tmp_path, "log.jsonl", bad + lines_of(small_game("g2")))])
    assert games[0].problem.message == "missing required field `dealer`"
    assert games[1].problem is None


def test_bad_tile_spelling(tmp_path):
    bad = lines_of(small_game("g1"))
    bad[2] = bad[2].replace(b'"1m"', b'"0m"', 1)
    games, _ = read_games([write(tmp_path, "log.jsonl", bad)])
    assert "'0m'" in games[0].problem.message and games[0].problem.field.startswith("hands[")


def test_truncated_game_is_flagged_and_others_complete(tmp_path):
    g1 = lines_of(small_game("g1"))[:-1]
    games, _ = read_games([write(tmp_path, "log.jsonl", g1 + lines_of(small_game("g2")))])
    by_id = {g.game: g for g in games}
    assert by_id["g1"].truncated and not by_id["g2"].truncated


def test_interleaved_games_replay_separately(tmp_path):
    a, b = lines_of(small_game("g1")), lines_of(small_game("g2"))
    mixed = [x for pair in zip(a, b) for x in pair]
    games, _ = read_games([write(tmp_path, "log.jsonl", mixed)])
    assert sorted(g.game for g in games) == ["g1", "g2"]
    for g in games:
        assert [e.seq for e in g.events] == list(range(len(a)))
        assert g.lines[1] - g.lines[0] == 2


def test_gzip_and_folders(tmp_path):
    (tmp_path / "sub").mkdir()
    with gzip.open(tmp_path / "sub" / "a.jsonl.gz", "wb") as f:
        f.write(small_game("gz").jsonl())
    write(tmp_path, "b.jsonl", lines_of(small_game("plain")))
    (tmp_path / "notes.txt").write_text("ignored")
    games, orphans = read_games([str(tmp_path)])
    assert sorted(g.game for g in games) == ["gz", "plain"] and not orphans


def test_missing_file_is_a_problem_not_a_crash(tmp_path):
    games, orphans = read_games([str(tmp_path / "nope.jsonl")])
    assert games == [] and "no such file" in str(orphans[0])


def test_stdin(tmp_path):
    code = "from schema.reader import read_games; g,_=read_games(['-']); print(g[0].game, len(g[0].events))"
    out = subprocess.run([sys.executable, "-c", code], input=small_game("si").jsonl(), capture_output=True)
    assert out.stdout.decode().split() == ["si", "4"]


def test_newer_schema_version_is_refused():
    from replay import ReplayError, Replayer
    b = small_game("g1")
    opened = msgspec.structs.replace(b.events[0], schema_version=ev.SCHEMA_VERSION + 1)
    with pytest.raises(ReplayError, match="newer"):
        Replayer().apply(opened)


def test_json_schema_covers_every_event():
    schema = ev.json_schema()
    names = set(schema["$defs"])
    assert {cls.__name__ for cls in ev.EVENT_TYPES} <= names
