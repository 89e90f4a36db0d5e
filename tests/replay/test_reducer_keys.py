"""The suit keys and tile counts the reducer keeps up to date match a recount."""

import glob
import os

from audits.rules.hands import hand_keys
from replay import Replayer
from schema.reader import read_games

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_kept_keys_match_the_hands_after_every_event():
    paths = sorted(glob.glob(os.path.join(ROOT, "sample_logs", "clean", "*.jsonl")))
    assert paths
    games, _ = read_games(paths)
    checked = 0
    for g in games:
        r = Replayer()
        for e, line in zip(g.events, g.lines):
            r.apply(e, line)
            w = r.table
            for s, h in enumerate(w.hands):
                assert list(hand_keys(h)) == w.keys[s], (g.game, e.seq, s)
                assert sum(h) == w.held[s], (g.game, e.seq, s)
                checked += 1
    assert checked > 1000
