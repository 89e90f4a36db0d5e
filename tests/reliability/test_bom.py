"""A UTF-8 byte-order mark at the start of a file is read as the file's encoding mark, not as
an unreadable first line (issue 35): the same games, one process or several, plain or gzip."""

from __future__ import annotations

import gzip

import pytest

from audits import audit_paths
from audits.parallel import audit_parallel
from schema.reader import UTF8_BOM, read_games
from tests.paipu.test_store import dianji_game


@pytest.fixture
def logs(tmp_path):
    body = dianji_game("g1").jsonl() + dianji_game("g2").jsonl()
    plain, marked, zipped = tmp_path / "plain.jsonl", tmp_path / "bom.jsonl", tmp_path / "bom.jsonl.gz"
    plain.write_bytes(body)
    marked.write_bytes(UTF8_BOM + body)
    zipped.write_bytes(gzip.compress(UTF8_BOM + body))
    return str(plain), str(marked), str(zipped)


def test_a_byte_order_mark_at_the_start_is_no_unreadable_line(logs):
    plain, marked, zipped = logs
    want, _ = read_games([plain])
    for path in (marked, zipped):
        got, orphans = read_games([path])
        assert [(g.game, len(g.events), g.problem) for g in got] == [(g.game, len(g.events), None) for g in want]
        assert orphans == []


@pytest.mark.parametrize("which", [1, 2])
def test_several_processes_read_it_the_same(logs, which):
    path = logs[which]
    one = [(a.game, a.complete, [f.code for f in a.findings]) for a in audit_paths([path])]
    two = [(a.game, a.complete, [f.code for f in a.findings]) for a in audit_parallel([path], 2)]
    assert one == two and [g for g, c, _f in one] == ["g1", "g2"] and all(c for _g, c, _f in one)


def test_a_mark_inside_the_file_is_still_an_unreadable_line_near_miss(tmp_path):
    path = tmp_path / "mid.jsonl"
    lines = dianji_game("g1").jsonl().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:3]) + UTF8_BOM + b"".join(lines[3:]))
    _games, orphans = read_games([str(path)])
    assert [(o.line, o.message.startswith("not JSON")) for o in orphans] == [(4, True)]
