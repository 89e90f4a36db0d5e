"""The rule families: one per ruleset family, each the only home of its rules.

``family_of(ruleset)`` is how the audit, the simulator, the fault injector and
``paipu hand`` reach the rules.  The families are registered in one place,
:mod:`audits.rules.registry` (see ``docs/architecture.md``, "Adding a ruleset");
this package re-exports its names on first use, so importing the package (or a
family's own modules, which import ``audits.rules.family`` and ``.hands``) never
runs into a package still importing its families.
"""

from __future__ import annotations

from typing import Any

#: the names this package re-exports from :mod:`audits.rules.registry`
_REGISTRY_NAMES = frozenset({"FAMILIES", "RuleFamily", "UnknownFamily", "family_of", "register"})


def __getattr__(name: str) -> Any:
    if name in _REGISTRY_NAMES:
        from . import registry
        return getattr(registry, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = sorted(_REGISTRY_NAMES)
