"""Bounded work per input and one error vocabulary in the reader.

Each test plants one hostile line between clean games and checks: the line is a
``file:line`` problem naming what is wrong, the games around it audit exactly as
alone, the next line is read, and nothing raises (what huge input costs is measured by
``python bench/huge_inputs.py``, not here).
"""

from __future__ import annotations

import gzip

import pytest

from audits import audit_paths
from paipu.audit_cmd import run_audit
from schema.reader import LogReader, decode_line, read_games
from tests.reliability.helpers import lines, paipu


def _write(path, *chunks: bytes) -> str:
    path.write_bytes(b"".join(chunks))
    return str(path)


def _clean(path_dir) -> dict:
    p = _write(path_dir / "alone.jsonl", *lines("before"), *lines("after"))
    return {a.game: a for a in audit_paths([p])}


def _audit(path: str, jobs: int = 1):
    orphans: list = []
    got = {a.game: a for a in audit_paths([path], jobs=jobs, orphans=orphans)}
    return got, orphans


def _assert_untouched(got: dict, alone: dict) -> None:
    for g in ("before", "after"):
        assert got[g].findings == alone[g].findings and got[g].complete, got[g].findings
        assert got[g].ledger == alone[g].ledger


def _deep(depth: int, game: str = "bad") -> bytes:
    return (b'{"type":"TileDiscarded","game":"%s","seq":1,"at":"2026-01-01T00:00:00Z","x":' % game.encode()
            + b"[" * depth + b"]" * depth + b"}\n")


# --- deep nesting -------------------------------------------------------------------


@pytest.mark.parametrize("jobs", [1, 2])
def test_deeply_nested_line_is_one_problem_not_a_crash(tmp_path, jobs):
    alone = _clean(tmp_path)
    bad = _deep(12_000)  # a 24 KB line: RecursionError in msgspec before the limits
    path = _write(tmp_path / "deep.jsonl", *lines("before"), bad, _deep(5000, "x")[:-2] + b"\n", *lines("after"))
    got, orphans = _audit(path, jobs)
    _assert_untouched(got, alone)
    n = len(lines("before")) + 1
    f = got["bad"].findings
    assert [x.code for x in f] == ["STREAM_UNREADABLE_LINE"] and f[0].line == n
    assert "nested deeper than 32 levels" in f[0].message
    # the next line (deep and not even JSON) is read and reported on its own line
    assert got["x"].findings[0].line == n + 1


def test_deep_nesting_through_the_cli_with_two_jobs_shows_no_traceback(tmp_path):
    path = _write(tmp_path / "deep.jsonl", *lines("before"), _deep(12_000), *lines("after"))
    for jobs in ("1", "2"):
        r = paipu("audit", path, "--jobs", jobs)
        assert r.returncode == 1, r.stderr
        assert b"Traceback" not in r.stderr + r.stdout
        assert b"nested deeper than 32 levels" in r.stdout


def test_depth_counts_brackets_outside_strings_only():
    from schema import limits
    assert limits.depth(b'{"a":[[1],[2,[3]]]}') == 4
    assert limits.depth(b'{"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') == 1
    assert limits.depth(b'{"a":"\\"[[[[","b":[{}]}') == 3
    many = b'{"t":[' + b'{"a":1},' * 100 + b'{}]}'
    assert limits.screen(many + b"\n") == many + b"\n"  # many objects, shallow: kept


# --- long lines -------------------------------------------------------------------------


def test_overlong_line_is_skipped_and_the_next_line_read(tmp_path, monkeypatch):
    from schema import limits
    alone = _clean(tmp_path)
    monkeypatch.setenv(limits.ENV_MAX_LINE_BYTES, "4096")
    old = limits.set_limits(None)
    try:
        long = (b'{"type":"TileDiscarded","game":"bad","seq":1,"at":"2026-01-01T00:00:00Z","seat":0,"tile":"'
                + b"x" * 100_000 + b'"}\n')
        path = _write(tmp_path / "long.jsonl", *lines("before"), long, *lines("after"))
        got, orphans = _audit(path)
    finally:
        limits.set_limits(old)
    _assert_untouched(got, alone)
    f = got["bad"].findings[0]
    assert f.code == "STREAM_UNREADABLE_LINE" and f.line == len(lines("before")) + 1
    assert f"line too long: {len(long) - 1:,} bytes, over the limit of 4,096" in f.message


def test_a_line_longer_than_a_read_block_is_skipped_as_it_streams(tmp_path):
    # a 40 MB line with no newline in sight: skipped as it streams, never held whole
    # (its cost: ``python bench/huge_inputs.py``)
    big = b'{"game":"bad","x":"' + b"a" * 40_000_000 + b'"}\n'
    path = _write(tmp_path / "huge.jsonl", *lines("before"), big, *lines("after"))
    games, orphans = read_games([path])
    by = {g.game: g for g in games}
    assert by["before"].closed and by["after"].closed and by["after"].problem is None
    assert f"line too long: {len(big) - 1:,} bytes" in by["bad"].problem.message
    assert by["bad"].problem.line == len(lines("before")) + 1


def test_a_final_overlong_line_without_newline_is_reported(tmp_path):
    path = _write(tmp_path / "tail.jsonl", *lines("before"), b'{"game":"bad","x":"' + b"a" * 2_000_000)
    games, orphans = read_games([path])
    by = {g.game: g for g in games}
    assert by["before"].closed and "line too long" in by["bad"].problem.message


def test_limits_from_the_environment_are_checked():
    from schema import limits
    assert limits.from_env({}) == limits.DEFAULT_LIMITS
    assert limits.from_env({limits.ENV_MAX_DEPTH: "64"}).max_depth == 64
    with pytest.raises(ValueError, match="PAIPU_MAX_LINE_BYTES='lots' is not a whole number"):
        limits.from_env({limits.ENV_MAX_LINE_BYTES: "lots"})
    with pytest.raises(ValueError, match="at least 1024"):
        limits.from_env({limits.ENV_MAX_LINE_BYTES: "10"})


def test_a_problem_message_never_echoes_a_whole_huge_value(tmp_path):
    raw = (b'{"type":"TileDiscarded","game":"g","seq":1,"at":"2026-01-01T00:00:00Z","seat":0,"tile":"'
           + b"z" * 500_000 + b'"}')
    p = decode_line(raw, "f.jsonl", 7)
    assert len(p.message) < 300 and p.message.endswith("at field `tile`") and p.game == "g"


# --- the schema's bounds: input errors at decode, not internal errors ----------------------

OPEN = (b'{"type":"GameOpened","game":"bad","seq":0,"at":"2026-01-01T00:00:00Z","schema_version":1,'
        b'"server":"s","build":"b","preset":"qujing-xiaoji","seats":%s,"creator":0}\n')


@pytest.mark.parametrize("seats,text", [
    (b"[]", "length >= 3"), (b'["a"]', "length >= 3"), (b'["a","b"]', "length >= 3"),
    (b'["a","b","c","d","e"]', "length <= 4"), (b'["a","b","c","d","e","f","g","h"]', "length <= 4"),
])
def test_a_room_of_the_wrong_size_is_an_unreadable_line(tmp_path, seats, text):
    alone = _clean(tmp_path)
    path = _write(tmp_path / "seats.jsonl", *lines("before"), OPEN % seats, *lines("after"))
    got, _ = _audit(path)
    _assert_untouched(got, alone)
    f = got["bad"].findings
    assert [x.code for x in f] == ["STREAM_UNREADABLE_LINE"], f
    assert text in f[0].message and "at field `seats`" in f[0].message


def _bad_game(edit) -> list[bytes]:
    ls = lines("bad")
    i, new = edit(ls)
    ls[i] = new
    return ls


@pytest.mark.parametrize("name,edit,fld", [
    ("resized to 2", lambda ls: (1, ls[1].replace(b'"type":"HandStarted"', b'"type":"RoomResized"').split(b',"hand"')[0]
                                 + b',"seats":["A","B"]}\n'), "seats"),
    ("empty wall", lambda ls: (1, ls[1].replace(b'"dealer":0', b'"dealer":0,"wall":[]')), "wall"),
    ("short wall", lambda ls: (1, ls[1].replace(b'"dealer":0', b'"dealer":0,"wall":["1m","2m"]')), "wall"),
    ("seq 2^31", lambda ls: (3, ls[3].replace(b'"seq":3', b'"seq":2147483648')), "seq"),
    ("seq -1", lambda ls: (3, ls[3].replace(b'"seq":3', b'"seq":-1')), "seq"),
    ("seat 4", lambda ls: (5, ls[5].replace(b'"seat":1', b'"seat":4')), "seat"),
    ("seat 2^40", lambda ls: (5, ls[5].replace(b'"seat":1', b'"seat":1099511627776')), "seat"),
    ("hand 2^31", lambda ls: (1, ls[1].replace(b'"hand":1', b'"hand":2147483648')), "hand"),
    ("naive time", lambda ls: (5, ls[5].replace(b'Z"', b'"')), "at"),
])
def test_out_of_range_fields_are_unreadable_lines_naming_the_field(tmp_path, name, edit, fld):
    alone = _clean(tmp_path)
    bad = _bad_game(edit)
    path = _write(tmp_path / "bad.jsonl", *lines("before"), *bad, *lines("after"))
    got, orphans = _audit(path)
    _assert_untouched(got, alone)
    f = got["bad"].findings
    assert f[0].code == "STREAM_UNREADABLE_LINE", f
    assert f"at field `{fld}`" in f[0].message, f[0].message
    assert all(x.code != "STRUCTURAL_BREAK" for x in f)


def test_overlong_strings_and_lists_are_unreadable_lines_naming_the_field(tmp_path):
    """String and list lengths are bounded by the schema as the line is decoded: a bad
    value is a ``file:line`` problem naming its field, and the games around it go on."""
    base = b'"game":"bad","seq":9,"at":"2026-01-01T00:00:00Z"'
    cases = {
        "seats": OPEN.replace(b'"game":"bad"', b'"game":"bad"') % (b'["%s","b","c","d"]' % (b"n" * 257)),
        "fans": (b'{"type":"HandWon",%s,"winners":[{"seat":0,"fans":[%s],"fan":1,"points":4}],'
                 b'"how":"self_draw","tile":"1m"}\n' % (base, b",".join([b'"wuji"'] * 65))),
        "claims": (b'{"type":"ClaimPassed",%s,"seat":1,"claims":[%s]}\n' % (base, b",".join([b'"pong"'] * 9))),
        "transfers": (b'{"type":"HandSettled",%s,"transfers":[%s],"scores":[0,0,0,0]}\n'
                      % (base, b",".join([b'{"payer":0,"payee":1,"amount":1,"reason":"win"}'] * 257))),
        # one more tile than the largest set (144, with flowers)
        "tiles": (b'{"type":"Chowed",%s,"seat":1,"from_seat":0,"tile":"1m","tiles":[%s]}\n'
                  % (base, b",".join([b'"2m"'] * 145))),
    }
    alone = _clean(tmp_path)
    for fld, raw in cases.items():
        path = _write(tmp_path / f"{fld}.jsonl", *lines("before"), raw, *lines("after"))
        got, orphans = _audit(path)
        _assert_untouched(got, alone)
        f = got["bad"].findings
        assert [x.code for x in f] == ["STREAM_UNREADABLE_LINE"], (fld, f)
        assert f[0].line == len(lines("before")) + 1
        msg = f[0].message.removeprefix(f"{path}:{f[0].line}: ")
        field = {"seats": "`seats[0]`", "fans": "`winners[0].fans`"}.get(fld, f"`{fld}`")
        assert "length <= " in msg, (fld, msg)
        assert f"at field {field}" in msg and len(msg) < 200, (fld, msg)


def test_amounts_and_points_beyond_32_bits_are_unreadable(tmp_path):
    from schema.reader import decode_line as d
    base = b'"game":"g","seq":9,"at":"2026-01-01T00:00:00Z"'
    cases = {
        "amount": b'{"type":"FeeCharged",%s,"seat":0,"amount":2147483648}' % base,
        "fee": OPEN.replace(b'"creator":0', b'"creator":0,"fee":99999999999') % b'["a","b","c","d"]',
        "points": (b'{"type":"HandWon",%s,"winners":[{"seat":0,"fans":[],"fan":1,"points":4294967296}],'
                   b'"how":"self_draw","tile":"1m"}' % base),
        "remaining": b'{"type":"HandDrawn",%s,"remaining":2147483648}' % base,
        "scores": b'{"type":"GameClosed",%s,"reason":"hands_done","scores":[0,0,0,9223372036854775807]}' % base,
        "transfers": (b'{"type":"HandSettled",%s,"transfers":[{"payer":0,"payee":1,"amount":-2147483649,'
                      b'"reason":"win"}],"scores":[0,0,0,0]}' % base),
    }
    for fld, raw in cases.items():
        p = d(raw.strip(), "f", 1)
        assert type(p).__name__ == "LogProblem", fld
        assert fld in (p.field or "") or fld in p.message, (fld, p.message)


def test_explain_of_a_room_with_two_seats_is_an_error_not_no_findings(tmp_path, capsys):
    path = _write(tmp_path / "seats.jsonl", OPEN % b'["a","b"]', *lines("bad")[1:])
    code = run_audit([path], explain="bad")
    out = capsys.readouterr().out
    assert code == 1 and "STREAM_UNREADABLE_LINE" in out and "no findings" not in out


# --- gzip damage: keep what was read, report the damage ---------------------------------


def _gz(tmp_path, name: str, cut) -> str:
    data = gzip.compress(b"".join(lines("before") + lines("after")))
    p = tmp_path / name
    p.write_bytes(cut(data))
    return str(p)


@pytest.mark.parametrize("name,cut", [
    ("no-size.jsonl.gz", lambda d: d[:-4]),
    ("no-trailer.jsonl.gz", lambda d: d[:-8]),
])
def test_a_gz_missing_its_trailer_keeps_every_game_and_reports_the_damage(tmp_path, name, cut):
    alone = _clean(tmp_path)
    path = _gz(tmp_path, name, cut)
    got, orphans = _audit(path)
    _assert_untouched(got, alone)
    assert len(orphans) == 1 and orphans[0].file == path and "gzip data ends early" in orphans[0].message


def test_a_gz_cut_in_the_middle_keeps_the_games_before_the_cut(tmp_path):
    whole = gzip.compress(b"".join(lines("before") * 1 + lines("after")), compresslevel=1)
    for keep in (len(whole) // 2, len(whole) - 30):
        p = tmp_path / f"cut{keep}.jsonl.gz"
        p.write_bytes(whole[:keep])
        reader = LogReader([str(p)])
        games = list(reader.games())
        # the damage is reported on the file (and a line cut in two, as not JSON, on its line)
        assert any(o.line == 0 and "gzip data ends early" in o.message for o in reader.orphans)
        # every game that was closed before the cut is whole; the one cut is truncated, not lost
        assert games and all(g.problem is None or g.problem.game for g in games)
        assert all(len(g.events) > 0 for g in games)


def test_a_corrupt_gz_keeps_the_lines_before_the_damage(tmp_path):
    body = b"".join(lines("before")) * 1
    data = gzip.compress(body) + gzip.compress(b"".join(lines("after")))  # two members
    assert {g.game for g in read_games([_gz(tmp_path, "two.jsonl.gz", lambda d: data)])[0]} == {"before", "after"}
    broken = bytearray(data)
    broken[len(gzip.compress(body)) + 40] ^= 0xFF  # damage inside the second member
    p = tmp_path / "broken.jsonl.gz"
    p.write_bytes(bytes(broken))
    games, orphans = read_games([str(p)])
    by = {g.game: g for g in games}
    assert by["before"].closed and by["before"].problem is None
    assert len(orphans) == 1 and "gzip" in orphans[0].message


def test_an_empty_gz_file_and_an_empty_gzip_stream_hold_no_games(tmp_path):
    (tmp_path / "empty.jsonl.gz").write_bytes(b"")
    (tmp_path / "zero.jsonl.gz").write_bytes(gzip.compress(b""))
    assert read_games([str(tmp_path / "empty.jsonl.gz"), str(tmp_path / "zero.jsonl.gz")]) == ([], [])


# --- the text report is linear in the strings it prints ----------------------------------


def test_the_text_report_of_huge_values_is_short(tmp_path):
    from audits.findings import Finding
    from paipu.reports import format_finding
    huge = "q" * 16_000_000
    f = Finding(code="FAN_MISMATCH", severity="error", game="g" * 8_000_000, hand=1, seq=3, rule="r",
                expected=huge, actual=[huge], message=huge, file="f.jsonl", line=4)
    text = format_finding(f)  # its cost: ``python bench/huge_inputs.py``
    assert len(text) < 2000 and "(8,000,000 characters)" in text and "(16,000,000 characters)" in text


def test_audit_text_of_a_16_mb_bad_tile_is_short_and_names_its_size(tmp_path):
    tile = (b'{"type":"TileDiscarded","game":"before","seq":99,"at":"2026-01-01T00:00:00Z","seat":0,"tile":"'
            + b"T" * 16_000_000 + b'"}\n')
    path = _write(tmp_path / "tile.jsonl", *lines("before")[:-1], tile, *lines("after"))
    r = paipu("audit", path, env={"PAIPU_MAX_LINE_BYTES": str(64 << 20)})  # its cost: bench/huge_inputs.py
    assert r.returncode == 1, r.returncode
    assert len(r.stdout) < 20_000 and b"Traceback" not in r.stderr
    assert b"(16,000,021 characters)" in r.stdout


@pytest.mark.parametrize("size", [1, 100, 4096, 1 << 22])
def test_the_gzip_stream_reads_every_member_once_whatever_the_read_size(size):
    import io

    from schema.reader import GzipStream
    parts = [b"".join(lines(f"g{i}")) for i in range(3)]
    z = b"".join(gzip.compress(p) for p in parts) + gzip.compress(b"") + b"\0" * 7
    s = GzipStream(io.BytesIO(z))
    out = bytearray()
    while True:
        chunk = s.read(size)
        if not chunk:
            break
        assert len(chunk) <= size
        out += chunk
    assert bytes(out) == b"".join(parts)
