"""Golden test: every sample log yields exactly its expected findings and final scores."""

import json
from pathlib import Path

import pytest

from audits.audit import audit_game
from schema.reader import read_games

SAMPLES = Path(__file__).resolve().parent.parent / "sample_logs"
LOGS = sorted(SAMPLES.glob("clean/*.jsonl")) + sorted(SAMPLES.glob("faulty/*.jsonl"))
# Guangdong 鸡平和 (sample_logs/guangdong/, its own README)
GUANGDONG = sorted(SAMPLES.glob("guangdong/clean/*.jsonl")) + sorted(SAMPLES.glob("guangdong/faulty/*.jsonl"))
#: The new families' samples (sample_logs/<family>/, each with its own README): the least
#: clean rooms (worked examples, option rooms) and faulty ones (near misses, fault classes).
FAMILY_MINIMA = {"xuzhou": (20, 20), "wuhan": (20, 15), "wenzhou": (15, 20), "hainan": (25, 15),
                 "changsha": (20, 20)}


def _family_logs(family: str) -> list[Path]:
    return sorted(SAMPLES.glob(f"{family}/clean/*.jsonl")) + sorted(SAMPLES.glob(f"{family}/faulty/*.jsonl"))


FAMILY_LOGS = [p for family in FAMILY_MINIMA for p in _family_logs(family)]


def test_there_are_samples_of_every_kind():
    names = {p.stem for p in LOGS}
    assert len([p for p in LOGS if p.parent.name == "clean"]) >= 10
    assert len([p for p in LOGS if p.parent.name == "faulty"]) >= 20
    for must in ("seed_dianji_2_1_0_0", "seed_yangzhu_bets_1_2_0_0_selfdraw", "seed_chow_kong_gangshang_kaihua",
                 "seed_pong_kong_gangshang_kaihua"):
        assert must in names
    readme = (SAMPLES / "README.md").read_text(encoding="utf-8")
    for p in LOGS:
        assert f"`{p.name}`" in readme, f"{p.name} is not listed in sample_logs/README.md"


def test_the_guangdong_samples_are_listed_in_their_readme():
    readme = (SAMPLES / "guangdong" / "README.md").read_text(encoding="utf-8")
    assert len(GUANGDONG) >= 30
    for p in GUANGDONG:
        assert f"`{p.name}`" in readme, f"{p.name} is not listed in sample_logs/guangdong/README.md"


@pytest.mark.parametrize("family", sorted(FAMILY_MINIMA))
def test_each_familys_samples_are_listed_in_its_readme(family):
    logs = _family_logs(family)
    readme = (SAMPLES / family / "README.md").read_text(encoding="utf-8")
    least_clean, least_faulty = FAMILY_MINIMA[family]
    assert len([p for p in logs if p.parent.name == "clean"]) >= least_clean
    assert len([p for p in logs if p.parent.name == "faulty"]) >= least_faulty
    for p in logs:
        assert f"`{p.name}`" in readme, f"{p.name} is not listed in sample_logs/{family}/README.md"


@pytest.mark.parametrize("path", LOGS + GUANGDONG + FAMILY_LOGS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_sample_log_audits_as_expected(path):
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    logs, orphans = read_games([str(path)])
    assert not orphans
    got, scores = [], {}
    for log in logs:
        a = audit_game(log)
        got += [{"game": f.game, "code": f.code, "seq": f.seq} for f in a.findings]
        scores[log.game] = {"logged": a.logged_scores[-1] if a.logged_scores else None,
                            "ledger": a.ledger[-1] if a.ledger else None}
    key = lambda d: (d["game"], d["code"], d["seq"])  # noqa: E731
    assert sorted(got, key=key) == sorted(expected["findings"], key=key)
    assert scores == expected["final_scores"]
    if path.parent.name == "clean":
        assert got == []


def test_seed_worked_examples_have_the_seed_numbers():
    def final(name):
        return json.loads((SAMPLES / "clean" / f"{name}.expected.json").read_text())["final_scores"]

    # 点鸡 2, 1, 0, 0 chickens: +5, +1, −3, −3
    assert final("seed_dianji_2_1_0_0")["dianji-2100"]["logged"] == [5, 1, -3, -3]
    # 养猪 bets 1, 2, 0, 0; A self-draws for P = 4 (门清自摸 + 无鸡): 4+3 from B, 4+1 from C and D
    assert final("seed_yangzhu_bets_1_2_0_0_selfdraw")["yangzhu-1200"]["logged"] == [17, -7, -5, -5]
    for name, game in (("seed_chow_kong_gangshang_kaihua", "chow-kong-kaihua"),
                       ("seed_pong_kong_gangshang_kaihua", "pong-kong-kaihua")):
        text = (SAMPLES / "clean" / f"{name}.jsonl").read_text()
        assert '"gangshang_kaihua"' in text and '"source":"tail"' in text and '"tile":"2m"' in text
        assert final(name)[game]["logged"][1] > 0
