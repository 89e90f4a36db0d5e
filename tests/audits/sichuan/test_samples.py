"""The Sichuan sample logs carry sichuan.md §13's exact money (the golden test checks
that they audit clean; here: that their totals are the worked examples' numbers)."""

import json
from pathlib import Path

import pytest

CLEAN = Path(__file__).resolve().parents[3] / "sample_logs" / "clean"


def final(name: str) -> list[int]:
    games = json.loads((CLEAN / f"sichuan_{name}.expected.json").read_text())["final_scores"]
    (game,) = games.values()
    return game["logged"]


#: §13's money per example (sample name -> the scores after it, from 0).
WORKED = {
    # 1: seat 3 pays 1; the next hand (dealt by seat 1) is 天胡: each other seat pays 8 + 1
    "ex01_pinghu_discard": [0 - 9, 1 + 27, 0 - 9, -1 - 9],
    # 1, 一炮多响: seat 3 pays seats 1 and 2 one each and deals next: 天胡, +27
    "ex01_multi_win": [-9, 1 - 9, 1 - 9, -2 + 27],
    "ex02_qingdui_zimo_jiadi": [-9, -9, 27, -9],
    "ex02_qingdui_zimo_jiafan": [-8, -8, 24, -8],
    "ex02_qingdui_zimo_none": [-8, -8, 24, -8],
    "ex03a_longqidui": [8, 0, -8, 0],
    "ex03a_longqidui_cap4": [8, 0, -8, 0],
    "ex03a_longqidui_cap4_lqd4": [16, 0, -16, 0],
    "ex03b_qing_longqidui_zimo": [-9, 27, -9, -9],
    "ex04_kongs_exhaustive_checks": [18, 1, -26, 7],
    "ex05_gangshang_pao_zhuanyi": [6, -2, -2, -2],
    "ex05_zhuanyi_multi_first": [0, -2, -4, 6],
    "ex05_zhuanyi_multi_each": [6, -2, -10, 6],
    "ex06_qianggang": [0, -2, 0, 2],
    "ex07_xuezhan_hand": [-17, 2, 8, 7],
    "ex08_haidi": [-3, 9, -3, -3],
    "ex08_haidi_pao": [0, -2, 0, 2],
    "ex09_guoshui": [0, 0, -2, 2],
    # 10: §9.1 counts the exposed kong 5555s as a 根, so F = 杠上开花 1 + 根 1 = 2, P = 4 (not §13's F = 1)
    "ex10_dianganghua_zimo": [-2 - 5, -5, 2 + 15, -5],
    "ex10_dianganghua_dianpao": [-2 - 4, 0, 2 + 4, 0],
    "ex11_row2_cap3": [4, 0, 0, -4],
    "ex11_row2_cap6": [4, 0, 0, -4],
    "ex11_row4_cap3": [8, 0, 0, -8],
    "ex11_row4_cap6": [16, 0, 0, -16],
}


@pytest.mark.parametrize("name", sorted(WORKED))
def test_worked_example_money(name):
    assert final(name) == WORKED[name]


def test_robbing_under_xuezhan_pays_only_the_robbing():
    # the wall then runs out with seats 0, 1 and 2 all ready: no end-check money
    assert final("ex06_qianggang_xuezhan") == [0, -2, 0, 2]


@pytest.mark.parametrize("path", sorted(CLEAN.glob("sichuan_*.jsonl")), ids=lambda p: p.stem)
def test_every_sichuan_sample_is_clean_and_ledger_agrees(path):
    exp = json.loads(path.with_suffix(".expected.json").read_text())
    assert exp["findings"] == []
    for game in exp["final_scores"].values():
        assert game["logged"] == game["ledger"]


#: the option samples whose money paipu/sim/sichuan/samples.py derives by hand (the "money" key)
DERIVED = sorted(p for p in CLEAN.glob("sichuan_*.expected.json") if "money" in json.loads(p.read_text()))


def test_every_money_changing_option_has_a_sample():
    names = {p.name[len("sichuan_"):-len(".expected.json")] for p in DERIVED}
    assert {"ex04_huazhu_penalty_16", "ex07_huazhu_pays_winners", "ex04_chadajiao_off", "ex04_tuishui_off",
            "ex10_cagua", "ex04_base_2", "ex02_qingdui_zimo_base_2", "ex05_hujiao_zhuanyi_off",
            "ex05_zhuanyi_scope_all_kongs", "ex11_row1_cap3", "ex11_row3_cap6"} <= names


@pytest.mark.parametrize("path", DERIVED, ids=lambda p: p.name.split(".")[0])
def test_option_sample_money_is_the_hand_derived_money(path):
    exp = json.loads(path.read_text())
    (game,) = exp["final_scores"].values()
    assert game["logged"] == game["ledger"] == exp["money"]["scores"]
    assert sum(exp["money"]["scores"]) == 0 and exp["money"]["derivation"]
