"""Generate the sample logs: ``python sample_logs/make_samples.py [--family F]`` (from the
repo root).  Each registered family's generator (``paipu/sim/<family>/samples.py``) writes
its own logs, ``NAME.expected.json`` files and README section; without ``--family`` every
family's, in the registry's order (:data:`audits.rules.FAMILIES`; Qujing first: it writes
the README the others extend)."""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from paipu.sim.families import sim_families  # noqa: E402


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    families = sim_families()
    parser.add_argument("--family", choices=list(families), help="only this family's samples")
    args = parser.parse_args(argv)
    for family in families.values():
        if args.family in (None, family.name):
            family.module("samples").main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
