"""The win check's per-suit minima, precomputed for every suit a hand can hold.

:mod:`audits.rules.hands` decides completeness per suit from two minima: the
wilds a suit needs to be sets only, and to be sets plus the pair (``_solve``,
a dynamic programme that honours the four-copy limit on what a wild may stand
for).  The programme is slow to run once per new suit (about 0.1 ms), and an
audit meets thousands of distinct suits, so a cold process spent more time
filling the table than judging.  This module runs the same programme once for
every suit of at most 14 tiles (405,350 suit count vectors and 43,130 honour
ones) and stores the results beside the code; the hands module reads them on
its first miss.  It is a cache of the rule, not a second copy: every entry is
``hands._solve``'s answer, and the tests re-derive a random sample.

    python -m audits.rules.suit_minima            # regenerate (a few minutes)
    python -m audits.rules.suit_minima --check    # re-derive 2,000 random entries

File layout (``suit_minima.bin``): ``zlib`` of ``2 · (5**9 + 5**7)`` bytes: for
each base-5 suit key (``hands.suit_key``), then each honour key, the byte pair
``(sets only, sets + pair)``, each ``min(minimum, 99)``; ``255, 255`` where the
suit holds more than 14 tiles (never met in a hand; the programme runs then).
"""

from __future__ import annotations

import argparse
import random
import sys
import zlib
from typing import Iterator

from . import hands

#: Where the precomputed minima live (package data).
PATH = hands.MINIMA_PATH
#: Largest suit the file covers (a concealed hand holds at most 14 tiles).
MAX_TILES = 14


def _vectors(n: int, budget: int) -> Iterator[tuple[int, ...]]:
    """Every count vector of ``n`` kinds (0–4 each) with at most ``budget`` tiles."""
    if n == 0:
        yield ()
        return
    for d in range(min(4, budget) + 1):
        for rest in _vectors(n - 1, budget - d):
            yield (d,) + rest


def _key(counts: tuple[int, ...]) -> int:
    k = 0
    for x in counts:
        k = k * 5 + x
    return k


def derive(counts: tuple[int, ...], runs: bool) -> tuple[int, int]:
    """The two minima of one suit, from the rule itself (``hands._solve``), capped at 99."""
    a, b = hands._solve(counts, tuple(4 - c for c in counts), runs)
    return min(a, hands.INF), min(b, hands.INF)


def build() -> bytes:
    """Run the programme for every suit of at most :data:`MAX_TILES` tiles (minutes)."""
    parts = []
    for n, runs in ((9, True), (7, False)):
        out = bytearray(b"\xff" * (2 * 5 ** n))
        for counts in _vectors(n, MAX_TILES):
            k = _key(counts)
            out[2 * k], out[2 * k + 1] = derive(counts, runs)
            if len(hands._SUB_MEMO) > 400_000:
                hands._SUB_MEMO.clear()
        parts.append(bytes(out))
    return zlib.compress(b"".join(parts), 9)


def check(samples: int = 2000, seed: int = 1) -> list[str]:
    """Re-derive ``samples`` random entries of the stored file; the disagreements."""
    rng = random.Random(seed)
    suits, honours = hands.stored_minima()
    bad = []
    for _ in range(samples):
        n, runs, table = rng.choice(((9, True, suits), (7, False, honours)))
        counts = tuple(rng.randint(0, 4) for _ in range(n))
        if sum(counts) > MAX_TILES:
            continue
        k = _key(counts)
        want = derive(counts, runs)
        got = (table[2 * k], table[2 * k + 1])
        if got != want:
            bad.append(f"{counts}: stored {got}, derived {want}")
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="re-derive random entries instead of regenerating")
    args = ap.parse_args(argv)
    if args.check:
        bad = check()
        print("\n".join(bad) or "stored minima agree with the programme")
        return 1 if bad else 0
    data = build()
    with open(PATH, "wb") as f:
        f.write(data)
    print(f"wrote {PATH} ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
