"""The rule families: one per ruleset family, each the only home of its rules.

``family_of(ruleset)`` is how the audit, the simulator, the fault injector and
``paipu hand`` reach the rules.  A new family registers itself with
:func:`register` (see ``docs/architecture.md``, "Adding a ruleset").
"""

from __future__ import annotations

from schema.ruleset import Ruleset

from .family import RuleFamily
from .qujing import QUJING
from .sichuan import SICHUAN

#: ``Ruleset.family`` -> its rule family.
FAMILIES: dict[str, RuleFamily] = {QUJING.name: QUJING}
FAMILIES[SICHUAN.name] = SICHUAN

# Guangdong 鸡平和 (guangdong.md)
from .guangdong import GUANGDONG  # noqa: E402

FAMILIES[GUANGDONG.name] = GUANGDONG


class UnknownFamily(ValueError):
    """A ruleset names a family paipu has no rules for."""


def register(family: RuleFamily) -> None:
    """Add (or replace) a rule family under its name."""
    FAMILIES[family.name] = family


def family_of(ruleset: Ruleset) -> RuleFamily:
    """The rule family the ruleset belongs to."""
    try:
        return FAMILIES[ruleset.family]
    except KeyError:
        raise UnknownFamily(f"no rules for family {ruleset.family!r}; known: {', '.join(FAMILIES)}") from None


__all__ = ["FAMILIES", "RuleFamily", "UnknownFamily", "family_of", "register"]
