"""Guangdong's win check against ``mahjong``'s agari: ``python bench/guangdong_differential.py [N]``."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from audits.rules.guangdong.differential import run  # noqa: E402

if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    done, bad, wins = run(n)
    print(f"guangdong win check vs mahjong Agari: {done} hands, {bad} disagreements, {wins} wins")
    sys.exit(1 if bad else 0)
