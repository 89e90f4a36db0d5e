"""The fault injector: plant exactly one fault of a named class in a clean game log.

The fault classes are the families' own (``paipu/sim/<family>/faults.py``, found
through :func:`paipu.sim.families.sim_families`); each knows the situation it needs,
finds the places in a game where it arises, picks one with the caller's
``random.Random`` and rewrites the events there.  :func:`mutate` returns the new
events and the finding the audit must report: ``[(code, seq)]``, the codes being
those of :data:`audits.catalogue.CATALOGUE`.

A fault class whose situation the game lacks, or that is written for another
family's rooms, gives ``None`` ("not applicable"); the command then tries the next
game.
"""

from __future__ import annotations

import random
from typing import Optional, Sequence

import msgspec

from schema import events as ev

from .fault_kit import Events, Expected, Fault, NotApplicable, _Ctx, _renumber
from .families import sim_families

__all__ = ["Fault", "FAULTS", "mutate", "Expected", "NotApplicable"]


def _all_faults() -> dict[str, Fault]:
    out: dict[str, Fault] = {}
    for family in sim_families().values():
        for name, fault in family.faults().items():
            assert name not in out, f"fault class {name!r} registered twice"
            out[name] = fault
    return out


#: Every fault class of every registered family by name: the one mapping from fault to
#: the audit's finding code.
FAULTS: dict[str, Fault] = _all_faults()


def mutate(events: Sequence[ev.Event], fault: "Fault | str", rng: random.Random
           ) -> Optional[tuple[Events, Expected]]:
    """Plant one fault of class ``fault`` in one game's events.

    Returns ``(events, [(code, seq)])`` — the new events (renumbered) and the
    finding the audit must report — or ``None`` when the game has no place for
    this fault class.
    """
    f = FAULTS[fault] if isinstance(fault, str) else fault
    if events and type(events[0]) is ev.GameOpened:
        from schema.ruleset import PRESETS
        rules = PRESETS.get(events[0].preset)
        if rules is not None and rules.family not in f.families:
            return None  # the class is written for another family's rooms
    ctx = _Ctx(events, rng)
    try:
        new, at = f.apply(ctx)
    except (NotApplicable, StopIteration):
        return None
    if at <= -1000000:
        i = -(at + 1000000)
        return _renumber(new[:i + 1]) + [new[i + 1]] + _renumber_from(new[i + 2:], i + 1), [(f.code, i)]
    if at < 0:
        return new, [(f.code, -at)]
    return _renumber(new), [(f.code, at)]


def _renumber_from(events: Events, start: int) -> Events:
    return [msgspec.structs.replace(e, seq=start + k) if e.seq != start + k else e for k, e in enumerate(events)]
