"""Each malformed-input case names what is wrong and leaves the other games untouched.

Every case writes one broken game ``bad`` beside a clean game ``good`` in one
file and audits the file: ``bad`` gets the right finding and message, ``good``
audits clean and complete.
"""

import pytest

from audits import audit_paths
from tests.audits.helpers import selfdraw_game


def lines(game: str) -> list[bytes]:
    return selfdraw_game(game).jsonl().splitlines(keepends=True)


def edit(n: int, fn):
    def apply(ls: list[bytes]) -> list[bytes]:
        ls = list(ls)
        ls[n] = fn(ls[n])
        return ls
    return apply


def drop(n: int):
    return lambda ls: ls[:n] + ls[n + 1:]


def reseq(n: int, seq: int):
    return edit(n, lambda raw: raw.replace(b'"seq":%d,' % n, b'"seq":%d,' % seq))


CASES = {
    # case: (how the bad game's lines are changed, code, text in the message, line of the finding)
    "not_json": (edit(5, lambda raw: raw[:40] + b"\n"), "STREAM_UNREADABLE_LINE", None, None),
    "wrong_type": (edit(5, lambda raw: raw.replace(b'"seat":1', b'"seat":"one"')),
                   "STREAM_UNREADABLE_LINE", "expected `int`, got `str` at field `seat`", 6),
    "unknown_event": (edit(5, lambda raw: raw.replace(b'"type":"TileDrawn"', b'"type":"TileTeleported"')),
                      "STREAM_UNREADABLE_LINE", "unknown event type 'TileTeleported'", 6),
    "missing_field": (edit(5, lambda raw: raw.replace(b',"tile":"9p"', b"")),
                      "STREAM_UNREADABLE_LINE", "missing required field `tile`", 6),
    "sequence_gap": (drop(5), "STREAM_SEQ_GAP", "sequence jumps from 4 to 6", 6),
    "tile_not_in_hand": (edit(4, lambda raw: raw.replace(b'"tile":"7z"', b'"tile":"7s"')),
                         "STRUCTURAL_BREAK", "does not hold 7s", 5),
    "truncated_game": (lambda ls: ls[:8], "GAME_TRUNCATED", None, None),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_game_is_reported_and_the_other_game_is_unaffected(tmp_path, case):
    change, code, text, line = CASES[case]
    bad = change(lines("bad"))
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"".join(bad + lines("good")))
    orphans: list = []
    results = {a.game: a for a in audit_paths([str(path)], orphans=orphans)}

    good = results["good"]
    assert good.findings == [] and good.complete

    if case == "not_json":
        # a line that is not JSON names no game: it is reported on its own, and the
        # game it belonged to cannot be replayed past the gap it leaves
        assert len(orphans) == 1 and str(orphans[0]).startswith(f"{path}:6: not JSON")
        assert results["bad"].findings[0].code == "STREAM_SEQ_GAP"
        return
    found = results["bad"]
    assert not found.complete
    assert [f.code for f in found.findings] == [code], found.findings
    if text:
        assert text in found.findings[0].message
    if line:
        assert found.findings[0].line == line


def test_two_games_interleaved_line_by_line_audit_as_if_apart(tmp_path):
    a, b = lines("first"), lines("second")
    mixed = [x for pair in zip(a, b) for x in pair]
    path = tmp_path / "interleaved.jsonl"
    path.write_bytes(b"".join(mixed))
    results = list(audit_paths([str(path)]))
    assert sorted(r.game for r in results) == ["first", "second"]
    assert all(r.findings == [] and r.complete for r in results)
    assert results[0].ledger == results[1].ledger == [[12, -4, -4, -4]]
