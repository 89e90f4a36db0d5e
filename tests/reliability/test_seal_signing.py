"""The seal says what it proves (issue 35): under the server's key each game is signed
(HMAC-SHA256) and ``paipu seal --check`` refuses a game unsealed, unsigned, or re-sealed by a
forger; without the key it says plainly that it shows damage, not who sealed."""

from __future__ import annotations

import json

import pytest

from audits import audit_paths
from tests.paipu.test_store import dianji_game, write
from tests.reliability.helpers import paipu

KEY = "k" * 32
_SEAL_MEMBERS = ("prev", "sig", "seal", "wall_commit", "reveal_salt", "reveal_wall")


@pytest.fixture
def key_file(tmp_path):
    path = tmp_path / "server.key"
    path.write_text(KEY + "\n")
    return str(path)


@pytest.fixture
def signed(tmp_path, key_file):
    log = write(tmp_path / "a.jsonl", dianji_game("g1"), dianji_game("g2"))
    out = str(tmp_path / "signed.jsonl")
    r = paipu("seal", log, "-o", out, "--key-file", key_file)
    assert r.returncode == 0 and b"signed" in r.stdout, r.stderr
    return out


def _forge(path: str, out: str) -> str:
    """The log with its seal fields stripped and one score of game g1 changed (ready to re-seal)."""
    lines = []
    for raw in open(path, encoding="utf-8"):
        d = json.loads(raw)
        for k in _SEAL_MEMBERS:
            d.pop(k, None)
        if d["type"] == "GameClosed" and d["game"] == "g1":
            d["scores"][0] += 100
        lines.append(json.dumps(d, ensure_ascii=False, separators=(",", ":")))
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return out


def test_a_signed_log_checks_under_its_key(signed, key_file):
    r = paipu("seal", "--check", signed, "--key-file", key_file)
    assert r.returncode == 0 and b"intact and signed" in r.stdout, r.stdout


def test_a_signed_log_audits_as_before(signed):
    assert all(not [f for f in a.findings if f.code.startswith("SEAL")] for a in audit_paths([signed]))


def test_a_resealed_forgery_fails_under_the_key(tmp_path, signed, key_file):
    stripped = _forge(signed, str(tmp_path / "forged-plain.jsonl"))
    resealed = str(tmp_path / "forged.jsonl")
    assert paipu("seal", stripped, "-o", resealed).returncode == 0  # the forger has no key
    # without the key the forgery passes: the weaker promise, said plainly
    weak = paipu("seal", "--check", resealed)
    assert weak.returncode == 0 and b"not who sealed it" in weak.stdout
    strict = paipu("seal", "--check", resealed, "--key-file", key_file)
    assert strict.returncode == 1 and b"SEAL_UNSIGNED" in strict.stdout, strict.stdout
    # a forger with a key of their own
    other = tmp_path / "other.key"
    other.write_text("x" * 32)
    signed_otherwise = str(tmp_path / "forged-signed.jsonl")
    assert paipu("seal", stripped, "-o", signed_otherwise, "--key-file", str(other)).returncode == 0
    r = paipu("seal", "--check", signed_otherwise, "--key-file", key_file)
    assert r.returncode == 1 and b"SEAL_SIGNATURE_MISMATCH" in r.stdout and b"game g1" in r.stdout, r.stdout


def test_unsealed_and_empty_logs_are_refused(tmp_path, key_file):
    log = write(tmp_path / "a.jsonl", dianji_game("g1"))
    r = paipu("seal", "--check", log, "--key-file", key_file)
    assert r.returncode == 1 and b"SEAL_UNSIGNED" in r.stdout
    r = paipu("seal", "--check", log)  # no sealed game: nothing proven, never "intact"
    assert r.returncode == 1 and b"no sealed game" in r.stdout and b"intact" not in r.stdout
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    r = paipu("seal", "--check", str(empty), "--key-file", key_file)
    assert r.returncode == 1 and b"SEAL_NOTHING_SEALED" in r.stdout


def test_the_key_comes_from_the_environment_too(signed, tmp_path):
    assert paipu("seal", "--check", signed, env={"PAIPU_SEAL_KEY": KEY}).returncode == 0
    assert paipu("seal", "--check", signed, env={"PAIPU_SEAL_KEY": "y" * 32}).returncode == 1
    short = paipu("seal", "--check", signed, env={"PAIPU_SEAL_KEY": "short"})
    assert short.returncode == 2 and b"at least 16" in short.stderr
