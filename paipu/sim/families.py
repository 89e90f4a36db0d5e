"""Where the simulator, the fault injector, the sample generators and the bench find a
rule family's own parts outside its rules.

A family is registered once, in :data:`audits.rules.FAMILIES` (its rules, in
``audits/rules/<family>/``); everything else it owns lives in its package
``paipu/sim/<family>/``, found by the family's name.  The package's ``__init__.py``
may declare ``PARTS``, a :class:`SimFamily` naming its own game player (without it,
the family plays on the shared table driver), and the package holds modules of fixed
names:

* ``faults.py`` — ``FAULTS``, its fault classes by name (:class:`.fault_kit.Fault`),
  and ``FAULT_BENCH``, the rooms ``bench/faults.py`` plants them in
  (:class:`.fault_kit.FaultBench`);
* ``coverage.py`` — ``main(args) -> exit status``, its coverage run
  (``bench/coverage.py --family F``);
* ``samples.py`` — ``main()``, its sample-log generator (``sample_logs/make_samples.py``);
* its game player, when its play is not the shared table driver's
  (:class:`paipu.sim.simulate._Game`): a class called ``(config, ruleset, rng, index,
  stats)`` whose ``play()`` returns one room's events;
* its seeded scenes and bots' choices, as it needs them.

The differential check of a family's win test against a reference lives with its
rules: ``audits/rules/<family>/differential.py`` (``DEFAULT_HANDS`` and ``main(n) ->
exit status``; ``bench/differential.py --family F``).

The packages are imported when first asked for, so no shared module imports a
family's package at import time.  A rule family with no package here (the toy
families of the tests) plays on the shared table driver and has no fault classes.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import Any, Optional

__all__ = ["SimFamily", "UnknownSimFamily", "sim_families", "sim_family", "sim_parts"]


class UnknownSimFamily(ValueError):
    """A family or preset name no family with a ``paipu/sim/<family>/`` package answers to."""


@dataclass(frozen=True)
class SimFamily:
    """One family's parts outside its rules (see the module docstring for what each holds)."""

    #: the rule family's name (``Ruleset.family``, the key of :data:`audits.rules.FAMILIES`)
    name: str
    #: ``"module:Class"`` of its game player inside its package; None: the shared table driver
    game_player: Optional[str] = None
    #: the planted anomalies (``SimConfig`` knobs) its player knows; a knob outside them is
    #: refused rather than ignored.  None: every knob (the shared table driver's).
    plants: Optional[frozenset[str]] = None

    @property
    def package(self) -> str:
        """Its package: ``paipu.sim.<family>``."""
        return f"{__package__}.{self.name}"

    def module(self, name: str) -> ModuleType:
        """The package's module ``name`` (``faults``, ``coverage``, ``samples`` …)."""
        return importlib.import_module(f"{self.package}.{name}")

    def player(self) -> Optional[Any]:
        """Its game player class, or None for the shared table driver."""
        if self.game_player is None:
            return None
        module, _, cls = self.game_player.partition(":")
        return getattr(self.module(module), cls)

    def faults(self) -> dict:
        """Its fault classes by name."""
        return self.module("faults").FAULTS

    def differential(self) -> Optional[ModuleType]:
        """The module of its differential check (``audits/rules/<family>/differential.py``), or None."""
        name = f"audits.rules.{self.name}.differential"
        return importlib.import_module(name) if importlib.util.find_spec(name) is not None else None


@lru_cache(maxsize=None)
def sim_parts(name: str) -> Optional[SimFamily]:
    """The parts of the rule family ``name`` (its package's ``PARTS``, or the defaults when
    it declares none), or None when it has no package here."""
    try:
        package = importlib.import_module(f"{__package__}.{name}")
    except ModuleNotFoundError as e:
        if e.name == f"{__package__}.{name}":
            return None
        raise
    if not hasattr(package, "__path__"):
        return None  # a shared module of paipu/sim (``bot``, ``simulate`` …), no family's package
    parts = getattr(package, "PARTS", SimFamily(name))
    if not isinstance(parts, SimFamily) or parts.name != name:
        raise TypeError(f"{package.__name__}.PARTS must be SimFamily({name!r}, …), not {parts!r}")
    return parts


def sim_families() -> dict[str, SimFamily]:
    """Every registered rule family's parts, in the registry's order
    (:data:`audits.rules.FAMILIES`), those with a package here."""
    from audits.rules import FAMILIES

    found = {name: sim_parts(name) for name in FAMILIES}
    return {name: parts for name, parts in found.items() if parts is not None}


def sim_family(name: str) -> SimFamily:
    """The family called ``name``, or the family of the preset ``name``
    (``sichuan-xuezhan`` -> ``sichuan``)."""
    from schema.ruleset import PRESETS

    families = sim_families()
    preset = PRESETS.get(name)
    got = families.get(name) or (families.get(preset.family) if preset is not None else None)
    if got is None:
        raise UnknownSimFamily(f"no family or preset {name!r}; families: {', '.join(families)}")
    return got
