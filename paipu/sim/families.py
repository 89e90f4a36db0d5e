"""Where the simulator, the fault injector, the sample generators and the bench find a
rule family's own parts outside its rules: one registration line per family.

A family's rules live in ``audits/rules/<family>/`` (reached through
:func:`audits.rules.family_of`); everything else it owns lives in its package
``paipu/sim/<family>/``, in modules of fixed names:

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
rules (``audits/rules/<family>/differential.py``: ``DEFAULT_HANDS`` and ``main(n) ->
exit status``; ``bench/differential.py --family F``).

The modules are imported when first asked for, so registering a family costs nothing
at import time and no shared module imports a family's package.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Optional

__all__ = ["SimFamily", "SIM_FAMILIES", "sim_family", "UnknownSimFamily"]


class UnknownSimFamily(ValueError):
    """A family or preset name no registered family answers to."""


@dataclass(frozen=True)
class SimFamily:
    """One family's parts outside its rules (see the module docstring for what each holds)."""

    #: the rule family's name (``Ruleset.family``)
    name: str
    #: its package: ``paipu.sim.<family>``
    package: str
    #: ``"module:Class"`` of its game player inside the package; None: the shared table driver
    game_player: Optional[str] = None
    #: the module of its differential check; None: it has none
    differential: Optional[str] = None

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

    def differential_module(self) -> Optional[ModuleType]:
        """The module of its differential check, or None."""
        return None if self.differential is None else importlib.import_module(self.differential)


#: ``Ruleset.family`` -> that family's parts; one registration line per family, in the
#: order the fault classes are listed (``paipu mutate --list``).
SIM_FAMILIES: dict[str, SimFamily] = {f.name: f for f in (
    SimFamily("qujing", "paipu.sim.qujing", differential="audits.rules.qujing.differential"),
    SimFamily("sichuan", "paipu.sim.sichuan", "game:SichuanGame", "audits.rules.sichuan.differential"),
    SimFamily("guangdong", "paipu.sim.guangdong", differential="audits.rules.guangdong.differential"),
)}


def sim_family(name: str) -> SimFamily:
    """The registered family called ``name``, or the family of the preset ``name``
    (``sichuan-xuezhan`` -> ``sichuan``)."""
    got = SIM_FAMILIES.get(name)
    if got is not None:
        return got
    from schema.ruleset import PRESETS

    preset = PRESETS.get(name)
    if preset is not None and preset.family in SIM_FAMILIES:
        return SIM_FAMILIES[preset.family]
    raise UnknownSimFamily(f"no family or preset {name!r}; families: {', '.join(SIM_FAMILIES)}")
