"""Xuzhou's win check against the independent brute force of
``audits/rules/xuzhou/differential.py`` (no code shared with ``hands.py``)."""

from __future__ import annotations

import os

from audits.rules.xuzhou import differential

from .helpers import counts, rules

#: hands compared per run (``XUZHOU_DIFF_HANDS=200000`` for the issue's full run)
HANDS = int(os.environ.get("XUZHOU_DIFF_HANDS", "6000"))


def test_against_brute_force():
    done, bad, won = differential.run(HANDS, rules)
    print(f"{done} hands compared, {won} wins, {bad} disagreements")
    assert bad == 0 and done >= HANDS - 4 and won > HANDS // 20


def test_reference_is_not_vacuous():
    r = rules("5p")
    assert differential.reference(r, counts("234m 567m 78s 99p 4p 5z 5p 9s")) is True
    assert differential.reference(r, counts("234m 567m 78s 99p 4p 5z 1z 9s")) is False
    assert differential.reference(r, counts("11m 33m 55m 77m 99m 444p 5p")) is False  # fifth 4p
    assert differential.reference(rules("6p"), counts("11m 33m 55m 77m 99m 444p 6p")) is True
