"""The Wuhan win shapes against the independent brute force (audits/rules/wuhan/differential.py;
``bench/differential.py --family wuhan`` runs the large count)."""

from __future__ import annotations

from audits.rules.wuhan import differential, wins
from audits.rules.wuhan.laizi import split
from schema.tiles import parse_hand

from .helpers import pong, rules


def _counts(text):
    c = [0] * 34
    for t in parse_hand(text):
        c[t] += 1
    return c


def test_random_hands_agree():
    done, bad, won = differential.run(120, lambda w: rules(w))
    assert done == 120 and bad == 0 and won > 10


def test_the_reference_reads_example_12_as_jiangyise_and_the_near_miss_not():
    r = rules("6m")
    naturals, w = split(r, _counts("5m8m2s5s8p6m6m5p"))
    melds = [pong("2p", 1), pong("8s", 2)]
    ref = differential.reference(r, naturals, w, melds, 4)  # the indicator 5m
    assert ref.jiangyise and ref == wins.shapes(r, naturals, w, melds, 4)
    naturals2, w2 = split(r, _counts("5m8m2s5s7p6m6m5p"))  # a 7p: not every tile a 2, 5 or 8
    ref2 = differential.reference(r, naturals2, w2, melds, 4)
    assert not ref2.jiangyise and ref2 == wins.shapes(r, naturals2, w2, melds, 4)
