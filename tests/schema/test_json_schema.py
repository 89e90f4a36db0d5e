"""The strict, committed JSON Schema: current, valid, accepts every sample log, refuses what paipu refuses."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import best_match

from audits import audit_paths
from schema.json_schema import SCHEMA_FILE, schema_text, strict_schema
from schema.reader import LogProblem, decode_line
from tests.audits.helpers import selfdraw_game
from tests.paipu import test_malformed_input as malformed

ROOT = Path(__file__).resolve().parents[2]
VALIDATOR = Draft202012Validator(strict_schema(), format_checker=FormatChecker())


def schema_error(line: bytes):
    """The validator's best error for one line (None when valid); non-JSON counts as refused."""
    try:
        value = json.loads(line)
    except ValueError as e:
        return e
    return best_match(VALIDATOR.iter_errors(value))


def test_the_committed_schema_is_current():
    committed = (ROOT / SCHEMA_FILE).read_text(encoding="utf-8")
    assert committed == schema_text(), f"stale: regenerate with `paipu schema -o {SCHEMA_FILE}`"


def test_the_schema_is_a_valid_draft_2020_12_schema():
    Draft202012Validator.check_schema(strict_schema())


def _validators_by_type() -> tuple[Draft202012Validator, dict[str, Draft202012Validator]]:
    """The committed schema taken apart as it is built: the envelope (an object whose ``type``
    is an event's name) and, per event type, the arm ``if type == T then T's definition``.  A
    line is valid iff the envelope and its type's arm accept it, which checks each line against
    one arm instead of all of them (the same verdicts, many times faster)."""
    whole = strict_schema()
    envelope = {k: v for k, v in whole.items() if k != "allOf"}
    arms: dict[str, Draft202012Validator] = {}
    for arm in whole["allOf"]:
        # the shape this split relies on: anything else fails here rather than checking less
        assert set(arm) == {"if", "then"} and arm["if"] == {"properties": {"type": {"const": arm["if"][
            "properties"]["type"]["const"]}}, "required": ["type"]}, arm
        name = arm["if"]["properties"]["type"]["const"]
        arms[name] = Draft202012Validator({**envelope, "allOf": [arm]}, format_checker=FormatChecker())
    assert sorted(arms) == sorted(whole["properties"]["type"]["enum"])
    return Draft202012Validator(envelope, format_checker=FormatChecker()), arms


def test_every_sample_log_line_is_valid():
    logs = sorted((ROOT / "sample_logs").rglob("*.jsonl"))
    assert len(logs) >= 45
    envelope, arms = _validators_by_type()
    for path in logs:
        for n, line in enumerate(path.read_bytes().splitlines(), 1):
            value = json.loads(line)
            arm = arms.get(value.get("type")) if isinstance(value, dict) else None
            err = best_match((arm or envelope).iter_errors(value))
            assert err is None, f"{path.name}:{n}: {err.message} at {list(err.absolute_path)}"


def test_the_split_schema_judges_a_line_as_the_whole_one_does():
    envelope, arms = _validators_by_type()
    good = _lines()
    bad = [_edit(5, b'"seat":1', b'"seat":7')(good)[5], b'{"type":"TileDrawn"}', b'{"type":"NoSuchEvent"}',
           b'{"seq":1}']
    for line in good + bad:
        value = json.loads(line)
        arm = arms.get(value.get("type"))
        assert (best_match((arm or envelope).iter_errors(value)) is None) == (schema_error(line) is None), line
    assert all(schema_error(line) is not None for line in bad)  # near misses: each refused by both




# --- malformed lines: refused by the schema (naming the field) and by paipu -----------------

def _lines(game: str = "bad") -> list[bytes]:
    return selfdraw_game(game).jsonl().splitlines(keepends=True)


def _edit(n: int, old: bytes, new: bytes):
    def apply(ls: list[bytes]) -> list[bytes]:
        assert old in ls[n], (old, ls[n])
        return ls[:n] + [ls[n].replace(old, new, 1)] + ls[n + 1:]
    return apply


#: case: (change to the game's lines, the field the validator must name)
ISSUE_CASES = {
    "time_yesterday": (lambda ls: ls[:5] + [re.sub(rb'"at":"[^"]*"', b'"at":"yesterday"', ls[5])] + ls[6:], "at"),
    "schema_version_2": (_edit(0, b'"schema_version":1', b'"schema_version":2'), "schema_version"),
    "misspelled_preset": (_edit(0, b'"preset":"qujing-xiaoji"', b'"preset":"qujing-xiaojii"'), "preset"),
    "seq_negative": (_edit(5, b'"seq":5', b'"seq":-5'), "seq"),
    "seat_7": (_edit(5, b'"seat":1', b'"seat":7'), "seat"),
    "unknown_option": (_edit(0, b'"options":{', b'"options":{"chickens":true,'), "options"),
    "fan_cap_9": (_edit(0, b'"options":{', b'"options":{"fan_cap":9,'), "options/fan_cap"),
    "unknown_fan": (_edit(12, b'"wuji"', b'"wuuji"'), "winners/0/fans/0"),
    "bad_reason": (_edit(13, b'"reason":"win"', b'"reason":"tip"'), "transfers/0/reason"),
}




def _changed(before: list[bytes], after: list[bytes]) -> list[bytes]:
    return [a for a, b in zip(after, before) if a != b] + after[len(before):]


def _paipu_refuses(lines: list[bytes], tmp_path: Path) -> list[str]:
    """Codes of error findings (or reader problems) paipu reports for a game made of ``lines``."""
    path = tmp_path / "case.jsonl"
    path.write_bytes(b"".join(lines))
    orphans: list = []
    codes = [f.code for a in audit_paths([str(path)], orphans=orphans) for f in a.findings if f.severity == "error"]
    return codes + ["orphan"] * len(orphans)


def _opened_options(line: bytes) -> bytes:
    """GameOpened with a non-empty options object (the default chow=false), for the option edits."""
    if b'"options":{}' in line:
        return line.replace(b'"options":{}', b'"options":{"chow":false}')
    return line if b'"options":{' in line else line.replace(b'"preset":', b'"options":{"chow":false},"preset":', 1)


@pytest.mark.parametrize("case", sorted(ISSUE_CASES))
def test_a_malformed_line_is_refused_by_the_schema_at_its_field_and_by_paipu(case, tmp_path):
    change, field = ISSUE_CASES[case]
    clean = _lines()
    clean[0] = _opened_options(clean[0])
    assert all(schema_error(line) is None for line in clean)
    bad = change(clean)
    changed = _changed(clean, bad)
    assert changed
    err = schema_error(changed[0])
    assert err is not None, f"the schema accepts {changed[0]!r}"
    assert "/".join(map(str, err.absolute_path)) == field, err.message
    assert _paipu_refuses(bad, tmp_path), f"paipu accepts {case}"


UNREADABLE = {k: v for k, v in malformed.CASES.items() if v[1] == "STREAM_UNREADABLE_LINE"}


@pytest.mark.parametrize("case", sorted(UNREADABLE))
def test_every_unreadable_case_of_the_malformed_input_tests_is_refused_by_both(case):
    """The line-level cases of tests/paipu/test_malformed_input.py (more arrive with new reader checks)."""
    change = UNREADABLE[case][0]
    before = malformed.lines("bad")
    for n, line in enumerate(change(before), 1):
        if line in before:
            continue
        assert isinstance(decode_line(line.rstrip(b"\n"), "x.jsonl", n), LogProblem)
        assert schema_error(line) is not None, f"the schema accepts {line!r}"
