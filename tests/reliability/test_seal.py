"""Tamper evidence: a sealed log audits clean and verifies; changing any byte of an event,
reordering two events, swapping a wall tile or dropping a reveal is found."""

from __future__ import annotations

import gzip
import json
import os
import random

import pytest

from audits import audit_paths
from schema import seal as S
from tests.reliability.helpers import ROOT, lines, paipu

CLEAN = os.path.join(ROOT, "sample_logs", "clean")


def _sample(name: str = "baiban_yangzhu.jsonl") -> list[bytes]:
    with open(os.path.join(CLEAN, name), "rb") as f:
        return f.read().splitlines()


def _sealed(raw: list[bytes]) -> list[bytes]:
    return list(S.seal_lines(raw))


def _kinds(problems) -> set[str]:
    return {p.kind for p in problems}


def test_sealing_keeps_every_byte_and_adds_only_the_scheme_fields():
    raw = _sample()
    sealed = _sealed(raw)
    assert len(sealed) == len(raw)
    for a, b in zip(raw, sealed):
        da, db = json.loads(a), json.loads(b)
        added = set(db) - set(da)
        assert {k: db[k] for k in da} == da  # nothing changed
        assert added <= {"prev", "seal", "wall_commit", "reveal_salt"}
        assert b.startswith(a[:-1])  # the original bytes, then the new members
    assert "prev" not in json.loads(sealed[0])
    assert all("prev" in json.loads(x) for x in sealed[1:])
    assert "seal" in json.loads(sealed[-1])


@pytest.mark.parametrize("name", sorted(n for n in os.listdir(CLEAN) if n.endswith(".jsonl")))
def test_a_sealed_clean_log_verifies_and_audits_exactly_as_before(tmp_path, name):
    raw = _sample(name)
    plain = tmp_path / "plain.jsonl"
    plain.write_bytes(b"\n".join(raw) + b"\n")
    sealed = tmp_path / "sealed.jsonl"
    sealed.write_bytes(b"\n".join(_sealed(raw)) + b"\n")
    assert S.verify_file(str(sealed)) == [] and S.verify_file(str(plain)) == []
    before = [(a.game, a.findings, a.complete, a.ledger) for a in audit_paths([str(plain)])]
    after = [(a.game, [f for f in a.findings], a.complete, a.ledger) for a in audit_paths([str(sealed)])]
    strip = lambda rs: [(g, [(f.code, f.seq) for f in fs], c, led) for g, fs, c, led in rs]  # noqa: E731
    assert strip(after) == strip(before)
    assert all(not fs for _g, fs, _c, _l in after)


def test_interleaved_sealed_games_each_keep_their_own_chain():
    a = _sealed(_sample("baiban_yangzhu.jsonl"))
    b = _sealed([x.replace(b'"game":"sim-', b'"game":"other-') for x in _sample("baiban_yangzhu.jsonl")])
    mixed = [x for pair in zip(a, b) for x in pair] + a[len(b):] + b[len(a):]
    assert S.verify_chain(mixed) == []


def test_changing_any_byte_of_any_event_is_found():
    sealed = _sealed(_sample())
    rng = random.Random(5)
    for i, line in enumerate(sealed):
        for _ in range(3):
            j = rng.randrange(len(line))
            bad = bytearray(line)
            bad[j] = (bad[j] + rng.randint(1, 254)) % 256
            if bad[j] in (10, 13):
                bad[j] = ord("x")
            tampered = sealed[:i] + [bytes(bad)] + sealed[i + 1:]
            problems = S.verify_chain(tampered)
            assert problems, (i, j)
            if i < len(sealed) - 1:
                # found at the changed line or at the line that hashes it
                assert {p.line for p in problems} & {i + 1, i + 2}, (i, j, problems)
            else:  # the last line: its seal no longer matches, or the line no longer reads
                assert _kinds(problems) & {"seal_mismatch", "seal_missing"}, (j, problems)


def test_the_last_line_is_covered_by_its_seal():
    sealed = _sealed(_sample())
    last = json.loads(sealed[-1])
    assert last["type"] == "GameClosed"
    changed = sealed[-1].replace(b'"reason":"', b'"reason":"x', 1)
    problems = S.verify_chain(sealed[:-1] + [changed])
    assert _kinds(problems) == {"seal_mismatch"} and problems[0].line == len(sealed)
    dropped = sealed[-1][: sealed[-1].index(b',"seal":')] + b"}"
    assert _kinds(S.verify_chain(sealed[:-1] + [dropped])) == {"seal_missing"}


def test_reordering_two_events_breaks_the_chain():
    sealed = _sealed(_sample())
    i = 20
    swapped = sealed[:i] + [sealed[i + 1], sealed[i]] + sealed[i + 2:]
    problems = S.verify_chain(swapped)
    assert _kinds(problems) == {"chain_broken"}
    assert {p.line for p in problems} >= {i + 1}
    # and dropping an event, or a prev
    assert _kinds(S.verify_chain(sealed[:i] + sealed[i + 1:])) == {"chain_broken"}
    no_prev = sealed[i][: sealed[i].index(b',"prev":')] + b"}"
    assert "chain_missing" in _kinds(S.verify_chain(sealed[:i] + [no_prev] + sealed[i + 1:]))


def test_swapping_two_wall_tiles_breaks_the_commitment():
    sealed = _sealed(_sample())
    i = next(k for k, x in enumerate(sealed) if b'"type":"HandStarted"' in x)
    d = json.loads(sealed[i])
    wall = d["wall"]
    a = next(k for k in range(1, len(wall)) if wall[k] != wall[0])
    start = sealed[i].index(b'"wall":[')
    end = sealed[i].index(b"]", start) + 1
    wall[0], wall[a] = wall[a], wall[0]
    forged = sealed[i][:start] + b'"wall":' + json.dumps(wall, separators=(",", ":")).encode() + sealed[i][end:]
    problems = S.verify_chain(sealed[:i] + [forged] + sealed[i + 1:])
    kinds = _kinds(problems)
    assert "wall_commit_mismatch" in kinds and "chain_broken" in kinds
    p = next(p for p in problems if p.kind == "wall_commit_mismatch")
    assert p.line == i + 1 and p.seq == d["seq"]
    # even with the whole chain recomputed (a forger who rewrites every later hash),
    # the commitment still gives the swap away
    rechained = list(S.seal_lines([_unseal(x) for x in sealed[:i]] + [_unseal(forged)] +
                                  [_unseal(x) for x in sealed[i + 1:]], salt=lambda: "0" * 32))
    stolen = json.loads(sealed[i])["wall_commit"]
    rechained[i] = rechained[i].replace(json.loads(rechained[i])["wall_commit"].encode(), stolen.encode())
    assert "wall_commit_mismatch" in _kinds(S.verify_chain(rechained))


def _unseal(raw: bytes) -> bytes:
    d = json.loads(raw)
    cut = min((raw.index(b',"%s":' % k.encode()) for k in ("wall_commit", "reveal_salt", "prev", "seal")
               if k in d), default=len(raw) - 1)
    return raw[:cut] + b"}"


def test_a_missing_reveal_is_found():
    sealed = _sealed(_sample())
    i = next(k for k, x in enumerate(sealed) if b'"reveal_salt"' in x)
    j = sealed[i].index(b',"reveal_salt":')
    k = sealed[i].index(b'"', j + len(b',"reveal_salt":"')) + 1
    no_reveal = sealed[i][:j] + sealed[i][k:]
    problems = S.verify_chain(sealed[:i] + [no_reveal] + sealed[i + 1:])
    assert "wall_reveal_missing" in _kinds(problems)


def test_old_logs_without_the_fields_are_unsealed_and_valid():
    raw = lines("old")
    assert S.verify_chain(raw) == []
    assert S.verify_chain([b"not json", b'{"game":', b""]) == []


def test_the_seal_command_seals_checks_and_refuses_clearly(tmp_path):
    src = os.path.join(CLEAN, "baiban_yangzhu.jsonl")
    out = str(tmp_path / "sealed.jsonl.gz")
    r = paipu("seal", src, "-o", out)
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode().startswith("sealed 1 games (")
    assert S.verify_chain(gzip.decompress(open(out, "rb").read()).splitlines()) == []
    r = paipu("seal", "--check", out)
    assert r.returncode == 0 and b"intact" in r.stdout
    r = paipu("audit", out)
    assert r.returncode == 0, r.stdout
    # tampered: --check names the line and the code
    data = gzip.decompress(open(out, "rb").read()).splitlines()
    data[5] = data[5].replace(b'"seat":', b'"seat": ', 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join(data) + b"\n")
    r = paipu("seal", "--check", str(bad))
    assert r.returncode == 1 and f"{bad}:7: ".encode() in r.stdout and b"SEAL_CHAIN_BROKEN" in r.stdout
    # an already sealed log, the input as output, no output, an unreadable line
    r = paipu("seal", str(bad), "-o", str(tmp_path / "again.jsonl"))
    assert r.returncode == 2 and b"already sealed" in r.stderr and not (tmp_path / "again.jsonl").exists()
    assert paipu("seal", src, "-o", src).returncode == 2
    assert b"--output" in paipu("seal", src).stderr
    junk = tmp_path / "junk.jsonl"
    junk.write_bytes(open(src, "rb").read() + b"{oops\n")
    r = paipu("seal", str(junk), "-o", str(tmp_path / "j.jsonl"))
    assert r.returncode == 2 and b"not JSON" in r.stderr and b"Traceback" not in r.stderr
    assert not [n for n in os.listdir(tmp_path) if ".partial-" in n]


def test_problems_by_game_reads_only_sealed_logs(tmp_path):
    raw = _sample()
    plain = tmp_path / "plain.jsonl"
    plain.write_bytes(b"\n".join(raw) + b"\n")
    assert not S.looks_sealed(str(plain)) and S.problems_by_game(str(plain)) == {}
    sealed = _sealed(raw)
    sealed[3] = sealed[3].replace(b'"seq":3', b'"seq":3 ')
    bad = tmp_path / "bad.jsonl.gz"
    bad.write_bytes(gzip.compress(b"\n".join(sealed) + b"\n"))
    got = S.problems_by_game(str(bad))
    game = json.loads(raw[0])["game"]
    assert list(got) == [game] and [(p.code, p.line) for p in got[game]] == [("SEAL_CHAIN_BROKEN", 5)]
