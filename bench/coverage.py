"""Coverage run of one family: simulate N hands over its presets and option mixes (and,
where it has them, its arranged rooms), audit every one, and print the findings (there
must be none) and how often each fan, claim, payment and rare moment occurred.

    python bench/coverage.py --family qujing|guangdong|sichuan [HANDS] [family arguments]

``--family`` also takes a preset (``sichuan-xuezhan``: the Sichuan run, which plays both
Sichuan presets).  The run is the family's own ``paipu/sim/<family>/coverage.py``
(``main(args)``), which reads HANDS and its own further arguments (Sichuan: HANDS per
preset and the share of hands arranged by seeding, ``1000 0.02``).  Exit status 1 on a
finding (Guangdong also on a fan or liability never seen).

Not part of the test suite (tests/paipu/test_simulate.py and the families' simulator
tests run smaller fixed-seed sets).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from paipu.sim.families import UnknownSimFamily, sim_families, sim_family  # noqa: E402


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="the coverage run of one family")
    parser.add_argument("--family", required=True, help=f"{' | '.join(sim_families())}, or one of their presets")
    parser.add_argument("args", nargs="*", help="HANDS, then the family's own arguments")
    args = parser.parse_args(argv)
    try:
        family = sim_family(args.family)
    except UnknownSimFamily as e:
        parser.error(str(e))
    return family.module("coverage").main(args.args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
