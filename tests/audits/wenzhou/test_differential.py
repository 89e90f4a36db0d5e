"""Wenzhou's win check against the independent brute force (audits/rules/wenzhou/differential.py;
``bench/differential.py --family wenzhou`` runs the full 200,000 hands)."""

from audits.rules.wenzhou import differential
from schema.tiles import TILE_INDEX as T

from .helpers import counts


def test_the_reference_decides_known_hands():
    w = T["5p"]
    # a 财神 standing for 7p below the lowest natural 8p of its run
    assert differential.reference(w, counts("567m 888m 999m 89p 5p 66s 666z"), [])
    assert not differential.reference(w, counts("567m 888m 999m 89p 1p 66s 666z"), [])  # near miss
    # 硬八对 with the 财神 归位; three 财神 bare
    assert differential.reference(w, counts("11m 22m 33m 44s 55s 66s 77s 55p 9m"), [])
    assert differential.reference(w, counts("1m 4m 7m 1p 3p 7p 1s 4s 7s 1z 2z 3z 4z 6z 5p 5p 5p"), [])
    # 白板 is a natural W: 白板 + a 财神 归位 make the pair of W
    assert differential.reference(w, counts("123m 456m 789m 123s 456s 5z 5p"), [])
    # near miss: the 财神 completes 45s, leaving three 白板 (a pong of W) and no pair
    assert not differential.reference(w, counts("123m 456m 789m 123s 45s 5z 5z 5z 5p"), [])


def test_no_disagreement_on_random_hands():
    total, bad = differential.run(3000, seed=7)
    assert total == 3000 and bad == []
