"""The audit verifies the optional tamper evidence (docs/seal.md) of the files it reads."""

from pathlib import Path

from audits import audit_paths
from schema import seal

SAMPLE = Path(__file__).resolve().parents[2] / "sample_logs" / "clean" / "baiban_yangzhu.jsonl"


def _codes(path):
    return [f.code for a in audit_paths([str(path)]) for f in a.findings]


def test_a_sealed_log_audits_clean(tmp_path):
    sealed = tmp_path / "sealed.jsonl"
    sealed.write_bytes(b"\n".join(seal.seal_lines(SAMPLE.read_bytes().splitlines())) + b"\n")
    assert _codes(sealed) == []


def test_a_changed_byte_in_a_sealed_log_is_a_broken_chain(tmp_path):
    lines = list(seal.seal_lines(SAMPLE.read_bytes().splitlines()))
    # change the time of one event (still a valid event: only the chain can tell)
    lines[5] = lines[5].replace(b'"at":"2026', b'"at":"2027', 1)
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_bytes(b"\n".join(lines) + b"\n")
    assert "SEAL_CHAIN_BROKEN" in _codes(tampered)
    assert "SEAL_CHAIN_BROKEN" in [f.code for a in audit_paths([str(tampered)], jobs=2) for f in a.findings]
