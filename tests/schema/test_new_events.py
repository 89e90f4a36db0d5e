"""The new families' events and optional fields (shared/design/new-families.md §1): each reads
and writes back unchanged at schema_version 1, unset fields are not written, and the strict
JSON Schema accepts what paipu reads and refuses what it refuses."""

from __future__ import annotations

import json

import msgspec
import pytest
from jsonschema import Draft202012Validator, FormatChecker

from schema import events as ev
from schema.builder import GameBuilder
from schema.json_schema import strict_schema
from schema.reader import LogProblem, decode_line, encode_events

VALIDATOR = Draft202012Validator(strict_schema(), format_checker=FormatChecker())


def game_with_every_new_piece() -> GameBuilder:
    b = GameBuilder("g-new")
    b.open()
    b.hand(1, dealer=0, dealer_level=2)
    b.deal("123456789m1234p5p", "123456789p1234s", "456789s12345z77z", "1112223334445m")
    b.indicator("4p", "5p", source="tail")
    b.opening_win(2, ["jiangyise", "qidui"], "77z")
    b.set_aside(0, "1f")
    b.kong_concealed(3, "1m", mode="reveal")
    b.reveal(3, ["1p", "6m"], source="free")
    b.kong_added(3, "2m", mode="replace")
    b.kong_exposed(3, 0, "3m", mode="reveal")
    b.offer_last(1, True)
    b.win([(1, ["jihu", "yinghu"], 1, 2, [(0, 1, 2, 4), (2, 1, 1, 2)])], "discard", "1p", from_seat=3)
    b.birds(["1m", "8f"], origin=1, source="last")
    b.settle([(0, 1, 4, "bird"), (2, 1, 2, "qishou"), (3, 1, 1, "bao_quanqiuren")], [-4, 7, -2, -1])
    return b


def test_every_new_event_and_field_round_trips():
    b = game_with_every_new_piece()
    lines = b.jsonl().splitlines(keepends=True)
    decoded = [decode_line(line, "x", i) for i, line in enumerate(lines, 1)]
    assert decoded == b.events
    assert encode_events(decoded) == b.jsonl()
    names = {type(e).__name__ for e in decoded}
    assert {"IndicatorTurned", "TileSetAside", "OpeningWinDeclared", "KongRevealed", "LastTileOffered",
            "BirdsDrawn"} <= names
    won = next(e for e in decoded if isinstance(e, ev.HandWon))
    assert won.winners[0].payers[1] == ev.PayerShare(seat=2, fan=1, multiple=1, amount=2)


def test_unset_optional_fields_are_not_written_and_read_as_before():
    b = GameBuilder("g")
    b.open()
    b.hand(1, dealer=0)
    b.kong_concealed(0, "1m")
    b.win([(0, ["jihu"], 0, 1)], "self_draw", "1m")
    text = b.jsonl().decode()
    assert "dealer_level" not in text and '"mode"' not in text and "payers" not in text
    assert b.events[2].mode is msgspec.UNSET and b.events[1].dealer_level is msgspec.UNSET


@pytest.mark.parametrize("line", game_with_every_new_piece().jsonl().splitlines())
def test_the_strict_schema_accepts_every_new_line(line):
    assert not list(VALIDATOR.iter_errors(json.loads(line)))


@pytest.mark.parametrize("event, field, bad", [
    ("IndicatorTurned", "source", "middle"),
    ("KongRevealed", "source", "head"),
    ("BirdsDrawn", "origin", 4),
    ("KongConcealed", "mode", "swap"),
    ("TileSetAside", "tile", "9f"),
])
def test_a_bad_value_is_refused_by_the_reader_and_the_schema(event, field, bad):
    b = game_with_every_new_piece()
    line = next(x for x in b.jsonl().splitlines() if f'"type":"{event}"' in x.decode())
    obj = json.loads(line)
    obj[field] = bad
    raw = json.dumps(obj).encode()
    assert list(VALIDATOR.iter_errors(obj))
    problem = decode_line(raw, "x", 1)
    assert isinstance(problem, LogProblem) and problem.field == field
