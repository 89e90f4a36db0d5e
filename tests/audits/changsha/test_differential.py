"""Changsha's win check by its tiles against the reference of
``audits/rules/changsha/differential.py`` (the ``mahjong`` package's hand divider; no code
shared with :mod:`audits.rules.changsha.wins`)."""

from __future__ import annotations

import os

from audits.rules.changsha import differential

#: hands compared per run (``CHANGSHA_DIFF_HANDS=200000`` for the issue's full run)
HANDS = int(os.environ.get("CHANGSHA_DIFF_HANDS", "4000"))


def test_against_the_reference():
    done, wins, bad = differential.run(HANDS)
    assert bad == [] and done == HANDS and wins > HANDS // 10


def _c(text):
    from schema.tiles import parse_hand
    c = [0] * 27
    for t in parse_hand(text):
        c[t] += 1
    return c


def test_reference_is_not_vacuous():
    assert differential._reference(_c("123m456m789p234s55s"), []) is True
    assert differential._reference(_c("123m456m789p234s33s"), []) is False  # no 将 pair, no unit
    assert differential._reference(_c("2s5m8p8p2p"), [("pong", 1), ("pong", 13), ("pong", 25)]) is True
    assert differential._reference(_c("444p999p66p"), [("pong", 10), ("pong", 15)]) is True  # 碰碰胡
    assert differential._reference(_c("444p999p66p"), [("chow", 9), ("pong", 15)]) is True  # 清一色
    assert differential._reference(_c("444p999s66p"), [("chow", 9), ("pong", 15)]) is False
