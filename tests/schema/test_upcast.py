"""Schema evolution: version-1 logs pass the upcaster chain unchanged; a registered step rewrites old games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schema import upcast
from schema.events import SCHEMA_VERSION
from schema.upcast import UpcastError, known_versions, upcast_event, upcast_lines

SAMPLE = Path(__file__).resolve().parents[2] / "sample_logs" / "clean" / "seed_chow_kong_gangshang_kaihua.jsonl"


def test_a_version_1_log_passes_through_the_chain_byte_for_byte():
    assert SCHEMA_VERSION == 1 and known_versions() == (1,)
    data = SAMPLE.read_bytes()
    assert b"".join(upcast_lines(data.splitlines(keepends=True))) == data


@pytest.fixture
def v2_step(monkeypatch):
    """A synthetic v1 -> v2 step: TileDrawn's ``source`` becomes a boolean ``from_tail``."""
    monkeypatch.setattr(upcast, "STEPS", {})

    @upcast.step(1)
    def upcast_v1_v2(event: dict) -> dict:
        if event["type"] == "TileDrawn":
            event["from_tail"] = event.pop("source", "wall") == "tail"
        return event

    return upcast_v1_v2


def test_a_registered_step_brings_a_version_1_log_to_version_2(v2_step):
    assert known_versions(2) == (1, 2)
    lines = SAMPLE.read_bytes().splitlines(keepends=True)
    out = [json.loads(line) for line in upcast_lines(lines, target=2)]
    assert len(out) == len(lines)
    assert out[0]["type"] == "GameOpened" and out[0]["schema_version"] == 2
    draws = [e for e in out if e["type"] == "TileDrawn"]
    assert draws and all("source" not in e and isinstance(e["from_tail"], bool) for e in draws)
    assert any(e["from_tail"] for e in draws)  # the kong replacement of 杠上开花
    others = [(json.loads(a), b) for a, b in zip(lines, out) if b["type"] not in ("TileDrawn", "GameOpened")]
    assert all(a == b for a, b in others)


def test_games_already_at_the_target_pass_through_and_gaps_are_errors(v2_step):
    line = b'{"type":"GameOpened","game":"g","seq":0,"at":"2026-01-01T00:00:00Z","schema_version":2}\n'
    draw = b'{"type":"TileDrawn","game":"g","seq":1,"at":"2026-01-01T00:00:01Z","seat":0,"tile":"1m","source":"x"}\n'
    assert list(upcast_lines([line, draw], target=2)) == [line, draw]
    assert list(upcast_lines([b"not json\n"], target=2)) == [b"not json\n"]
    with pytest.raises(UpcastError, match="no upcaster from schema version 2 to 3"):
        upcast_event({"type": "TileDrawn"}, 1, target=3)
    with pytest.raises(UpcastError, match="newer than this paipu reads"):
        upcast_event({"type": "TileDrawn"}, 3, target=2)
    with pytest.raises(ValueError, match="already registered"):
        upcast.step(1)(lambda e: e)
