"""What is particular to a Xuzhou hand (``OwnRules.particulars``, xuzhou.md §3): the
indicator, the 配子 and 白板 standing in for it, the dead (or forbidden) 配子 discards."""

from __future__ import annotations

from pathlib import Path

import msgspec

from audits.rules.xuzhou import XUZHOU, particulars
from schema import events as ev
from schema.reader import LogReader
from schema.ruleset import resolve

SAMPLES = Path(__file__).resolve().parents[3] / "sample_logs" / "xuzhou"


def _hands(name: str):
    """(room ruleset, [each hand's events]) of a sample."""
    log = next(iter(LogReader([str(SAMPLES / name)]).games()))
    opened = log.events[0]
    room = resolve(opened.preset, msgspec.to_builtins(opened.options))
    hands, cur = [], None
    for e in log.events:
        if type(e) is ev.HandStarted:
            cur = []
            hands.append(cur)
        if cur is not None:
            cur.append(e)
    return room, hands


def _rows(name: str, hand: int = 0) -> dict:
    room, hands = _hands(name)
    return {p.label: p for p in particulars(room, hands[hand])}


def test_the_hook_is_the_familys():
    assert XUZHOU.own.particulars is particulars


def test_indicator_pei_stand_in_and_dead_discards():
    rows = _rows("clean/xz_ex10_dead_pei.jsonl")
    assert rows["indicator 翻牌"].tiles == ("4p",) and "wild_from = next" in rows["indicator 翻牌"].text
    assert rows["配子 wild"].tiles == ("5p",) and rows["配子 wild"].wild
    assert rows["白板 stands in"].tiles == ("5z",) and not rows["白板 stands in"].wild
    dead = rows["配子 discarded (dead)"]
    assert dead.tiles == ("5p",) * 4 and dead.text.startswith("by seat 1, seat 0, seat 1, seat 2")


def test_near_miss_a_hand_without_a_pei_discard_lists_none():
    rows = _rows("faulty/fault_xz_pei_discard_forbidden.jsonl", 0)
    assert not [label for label in rows if label.startswith("配子 discarded")]


def test_no_stand_in_when_the_pei_is_white_itself():
    # 发 turned: W = 白板, which plays as itself
    room, hands = _hands("clean/xz_ex01_indicators.jsonl")
    for events in hands:
        rows = {p.label: p for p in particulars(room, events)}
        assert ("白板 stands in" in rows) == (rows["配子 wild"].tiles != ("5z",))


def test_a_forbidden_discard_is_named_forbidden():
    rows = _rows("faulty/fault_xz_pei_discard_forbidden.jsonl", 2)
    assert rows["配子 discarded (forbidden and dead)"].tiles == ("6p",)


def test_a_logged_wild_the_indicator_does_not_make_is_said():
    rows = _rows("faulty/fault_xz_wild_kind_same.jsonl", 1)
    assert rows["配子 wild"].tiles == ("5z",)
    assert "the indicator makes 7z wild, the log names 5z" in rows["indicator 翻牌"].text
    near = _rows("faulty/fault_xz_wild_kind_same.jsonl", 0)
    assert "the log names" not in near["indicator 翻牌"].text


def test_a_hand_without_an_indicator():
    rows = _rows("faulty/fault_xz_indicator_missing.jsonl", 0)
    assert list(rows) == ["配子 wild"] and rows["配子 wild"].tiles == ()
