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
# Xuzhou 徐州麻将 (sample_logs/xuzhou/, its own README)
XUZHOU = sorted(SAMPLES.glob("xuzhou/clean/*.jsonl")) + sorted(SAMPLES.glob("xuzhou/faulty/*.jsonl"))
# Changsha 长沙麻将 (sample_logs/changsha/, its own README)
CHANGSHA = sorted(SAMPLES.glob("changsha/clean/*.jsonl")) + sorted(SAMPLES.glob("changsha/faulty/*.jsonl"))
# Wenzhou 温州麻将 (sample_logs/wenzhou/, its own README)
WENZHOU = sorted(SAMPLES.glob("wenzhou/clean/*.jsonl")) + sorted(SAMPLES.glob("wenzhou/faulty/*.jsonl"))
# Hainan 海南麻将 (sample_logs/hainan/, its own README)
HAINAN = sorted(SAMPLES.glob("hainan/clean/*.jsonl")) + sorted(SAMPLES.glob("hainan/faulty/*.jsonl"))


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


def test_the_xuzhou_samples_are_listed_in_their_readme():
    readme = (SAMPLES / "xuzhou" / "README.md").read_text(encoding="utf-8")
    assert len([p for p in XUZHOU if p.parent.name == "clean"]) >= 20  # §11 and the option rooms
    assert len([p for p in XUZHOU if p.parent.name == "faulty"]) >= 20  # near misses and fault classes
    for p in XUZHOU:
        assert f"`{p.name}`" in readme, f"{p.name} is not listed in sample_logs/xuzhou/README.md"


def test_the_hainan_samples_are_listed_in_their_readme():
    readme = (SAMPLES / "hainan" / "README.md").read_text(encoding="utf-8")
    assert len([p for p in HAINAN if p.parent.name == "clean"]) >= 25  # §12 and the option rooms
    assert len([p for p in HAINAN if p.parent.name == "faulty"]) >= 15  # near misses and fault classes
    for p in HAINAN:
        assert f"`{p.name}`" in readme, f"{p.name} is not listed in sample_logs/hainan/README.md"


def test_the_wenzhou_samples_are_listed_in_their_readme():
    readme = (SAMPLES / "wenzhou" / "README.md").read_text(encoding="utf-8")
    assert len([p for p in WENZHOU if p.parent.name == "clean"]) >= 15  # §12 and the option rooms
    assert len([p for p in WENZHOU if p.parent.name == "faulty"]) >= 20  # near misses and fault classes
    for p in WENZHOU:
        assert f"`{p.name}`" in readme, f"{p.name} is not listed in sample_logs/wenzhou/README.md"


def test_the_changsha_samples_are_listed_in_their_readme():
    readme = (SAMPLES / "changsha" / "README.md").read_text(encoding="utf-8")
    assert len([p for p in CHANGSHA if p.parent.name == "clean"]) >= 20  # §13 and the option rooms
    assert len([p for p in CHANGSHA if p.parent.name == "faulty"]) >= 20  # near misses and fault classes
    for p in CHANGSHA:
        assert f"`{p.name}`" in readme, f"{p.name} is not listed in sample_logs/changsha/README.md"


@pytest.mark.parametrize("path", LOGS + GUANGDONG + XUZHOU + CHANGSHA + WENZHOU + HAINAN, ids=lambda p: f"{p.parent.name}/{p.stem}")
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
