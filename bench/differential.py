"""Differential run of one family's win check against the ``mahjong`` package's agari
check (the family's ``audits/rules/<family>/differential.py``):

    python bench/differential.py --family qujing|guangdong|sichuan [N]

``--family`` also takes a preset.  N defaults to the family's own count
(``DEFAULT_HANDS``, ≥100,000).  Exit status 1 on a disagreement.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from paipu.sim.families import UnknownSimFamily, sim_families, sim_family  # noqa: E402


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="the differential run of one family's win check")
    parser.add_argument("--family", required=True, help=f"{' | '.join(sim_families())}, or one of their presets")
    parser.add_argument("hands", nargs="?", type=int, help="hands to compare (the family's own count)")
    args = parser.parse_args(argv)
    try:
        family = sim_family(args.family)
    except UnknownSimFamily as e:
        parser.error(str(e))
    module = family.differential()
    if module is None:
        parser.error(f"{family.name} has no differential check")
    return module.main(module.DEFAULT_HANDS if args.hands is None else args.hands)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
