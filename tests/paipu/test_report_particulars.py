"""The report page shows what is particular to a family in each hand (the family's
``OwnRules.particulars`` rows, rendered by a page that names no family) and each
settlement's derivation (the family's ``steps``, as ``--explain`` prints them)."""

from __future__ import annotations

import re
from pathlib import Path

from audits.rules import registry
from audits.rules.family import Particular, variant
from paipu.report import page_data, render_report
from schema.reader import LogReader

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_logs"


def _log(path: Path):
    return next(iter(LogReader([str(path)]).games()))


def _text(html: str) -> str:
    """The page's visible text of its settlements, tiles as [5m]."""
    body = html.split('id="settlements"', 1)[1].split('id="ledger-section"', 1)[0]
    body = re.sub(r'<span class="tile" data-tile="(..)"[^>]*>.*?</span>', r"[\1]", body, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def test_a_xuzhou_hand_shows_its_indicator_pei_and_dead_discards():
    html, model = render_report(_log(SAMPLES / "xuzhou" / "clean" / "xz_ex10_dead_pei.jsonl"))
    rows = {p["label"]: p for p in model["hands"][0]["particulars"]}
    assert rows["indicator 翻牌"]["tiles"] == ["4p"] and rows["配子 wild"]["tiles"] == ["5p"]
    assert rows["配子 wild"]["wild"] and rows["白板 stands in"]["tiles"] == ["5z"]
    # seats by the players' names, as everywhere on the page
    assert rows["配子 discarded (dead)"]["text"].startswith("by B, A, B, C")
    text = _text(html)
    assert "indicator 翻牌 [4p] turned from the wall" in text
    assert "配子 wild [5p] in a win" in text and "白板 stands in [5z]" in text
    assert "配子 discarded (dead) [5p][5p][5p][5p] by B, A, B, C" in text
    # the viewer marks the hand's 配子 as wild
    assert page_data(model)["hands"][0]["wilds"] == ["5p"]


def test_near_miss_a_family_without_the_hook_shows_no_particulars():
    html, model = render_report(_log(SAMPLES / "clean" / "xiaoji_dianji.jsonl"))
    assert all(h["particulars"] == [] for h in model["hands"])
    assert '<dl class="particulars">' not in html
    assert all(h["wilds"] == [] for h in page_data(model)["hands"])


def test_any_familys_particulars_render_the_same_way(monkeypatch):
    """The page names no family: a hook on Qujing's family shows its rows as Xuzhou's."""
    def hook(room, events):
        return [Particular("birds 抓鸟", ("1s", "5m"), "seat 2 catches one", wild=False),
                Particular("wild", ("9p",), "the hand's wild", wild=True)]
    qujing = registry.FAMILIES["qujing"]
    monkeypatch.setitem(registry.FAMILIES, "qujing", variant(qujing, own={"particulars": hook}))
    html, model = render_report(_log(SAMPLES / "clean" / "xiaoji_dianji.jsonl"))
    players = [p["name"] for p in model["room"]["players"]]
    rows = model["hands"][0]["particulars"]
    assert [r["label"] for r in rows] == ["birds 抓鸟", "wild"] and rows[0]["text"] == f"{players[2]} catches one"
    assert f"birds 抓鸟 [1s][5m] {players[2]} catches one" in _text(html)
    assert page_data(model)["hands"][0]["wilds"] == ["9p"]


def test_the_report_package_names_no_family():
    """The model, the page and its script name no family (``names.py``, the English of every
    family's fan names, is a table of words, not of rules)."""
    report = ROOT / "paipu" / "report"
    for path in [report / "__init__.py", report / "model.py", report / "tiles.py", *(report / "templates").glob("*")]:
        text = path.read_text(encoding="utf-8").lower()
        for word in ("xuzhou", "徐州", "配子", "wenzhou", "wuhan"):
            assert word not in text, (path.name, word)


def test_the_settlement_shows_the_familys_derivation():
    html, model = render_report(_log(SAMPLES / "xuzhou" / "clean" / "xz_ex06_xiazui_discard.jsonl"))
    s = model["hands"][0]["settlement"]
    players = [p["name"] for p in model["room"]["players"]]
    assert s["steps"][0] == f"dealer {players[0]}; 坐庄 plus_one; 下嘴 max_two"
    assert s["steps"][1] == f"{players[3]} → {players[2]}: P 1; 下嘴 (2 + 1) × 1 = 3 = 4"
    (winner,) = s["winners"]
    assert winner["steps"][-1].startswith("3. P = U × B = 1 × 1 = 1")
    text = _text(html)
    assert f"{players[3]} → {players[2]}: P 1; 下嘴 (2 + 1) × 1 = 3 = 4" in text
    assert "3. P = U × B = 1 × 1 = 1" in text
    # a family whose P is its own derivation shows no Qujing cap and power of two
    assert "cap 满牌" not in text


def test_near_miss_a_family_without_a_derivation_keeps_the_fan_table():
    html, model = render_report(_log(SAMPLES / "clean" / "xiaoji_dianji.jsonl"))
    assert all(h["settlement"] is None or h["settlement"]["steps"] == [] for h in model["hands"])
    assert '<ol class="payments-derived">' not in html and "cap 满牌" in _text(html)


def test_side_bets_go_by_the_familys_own_word():
    # Xuzhou's bets are 下嘴, not Qujing's 养猪: the word is the one the family's settlement
    # gives their transfers
    html, model = render_report(_log(SAMPLES / "xuzhou" / "clean" / "xz_ex06_xiazui_discard.jsonl"))
    text = _text(html)
    assert "下嘴 bets:" in text and "养猪" not in text
    settled = [h["settlement"] for h in model["hands"] if h.get("settlement")]
    assert settled and all(s["bets_label"] == "下嘴 bets" for s in settled)


def test_near_miss_qujing_bets_stay_yangzhu_and_a_family_without_a_word_says_side_bets():
    from paipu.report.model import side_bets_word
    from schema.ruleset import resolve

    assert side_bets_word(resolve("qujing-xiaoji", {})) == "养猪 bets"
    assert side_bets_word(resolve("wenzhou", {})) == "side bets"
    assert side_bets_word(None) == "side bets"
