"""Differential run: the Sichuan void-gated win check vs ``mahjong``'s agari check
restricted to two suits (sichuan.md §8).  Usage: python bench/sichuan_differential.py [N]"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from audits.rules.sichuan.differential import run  # noqa: E402


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    done, wins, bad = run(n)
    print(f"sichuan differential: {done} hands, {wins} winning, {len(bad)} disagreements")
    for b in bad[:5]:
        print("  ", b)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
