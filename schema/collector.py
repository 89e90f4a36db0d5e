"""The cyclic garbage collector while games are read, audited or stored.

An audit or an ingest makes millions of small, short-lived containers (decoded
events, per-seat tallies, findings, rows) that form no reference cycles: they are
freed by reference counting the moment they are dropped.  At Python's default
first threshold (700 allocations) the cyclic collector still runs every few
hundred of them, scanning every young object each time, which costs the audit 5–10%
of its CPU and the ingest's row building up to 10× on a tuple per event.

While paipu works it raises the first threshold to :data:`GC_THRESHOLD`: the
collector still runs (a game's context does hold cycles, collected a little later),
only less often.  Worker processes paipu starts keep the setting for their life
(:func:`collect_less`); in a caller's process it holds only inside
:func:`few_collections` and is put back after.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

#: The collector's first threshold while paipu audits or stores games.
GC_THRESHOLD = 200_000


def collect_less() -> None:
    """Raise the collector's first threshold to :data:`GC_THRESHOLD` for the rest of this
    process (a worker process of paipu's own; a caller's process uses :func:`few_collections`)."""
    first, *rest = gc.get_threshold()
    gc.set_threshold(max(first, GC_THRESHOLD), *rest)


@contextmanager
def few_collections() -> Iterator[None]:
    """Run the block with the collector's first threshold at :data:`GC_THRESHOLD` (the
    collector still runs, only less often); the thresholds are put back after."""
    before = gc.get_threshold()
    collect_less()
    try:
        yield
    finally:
        gc.set_threshold(*before)


__all__ = ["GC_THRESHOLD", "collect_less", "few_collections"]
