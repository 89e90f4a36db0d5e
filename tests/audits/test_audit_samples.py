"""The shipped sample logs: clean ones audit clean; each faulty one gives exactly its fault's code."""

from pathlib import Path

import pytest

from audits import audit_paths

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def _logs(kind):
    return sorted((SAMPLES / kind).glob("*.jsonl"))


@pytest.mark.skipif(not _logs("clean"), reason="no clean samples")
def test_clean_samples_audit_clean():
    orphans = []
    audits = list(audit_paths([str(SAMPLES / "clean")], orphans=orphans))
    assert audits and not orphans
    bad = [(a.game, f.code, f.seq, f.message) for a in audits for f in a.findings]
    assert bad == []
    assert all(a.complete and a.ledger == a.logged_scores for a in audits)


@pytest.mark.skipif(not _logs("faulty"), reason="no faulty samples")
@pytest.mark.parametrize("path", _logs("faulty"), ids=lambda p: p.stem)
def test_each_faulty_sample_gives_exactly_its_code(path):
    from paipu.sim.mutate import FAULTS

    fault = FAULTS.get(path.stem)
    if fault is None:
        pytest.skip(f"{path.stem} is not a known fault class")
    codes = [f.code for a in audit_paths([str(path)]) for f in a.findings]
    assert codes == [fault.code]
