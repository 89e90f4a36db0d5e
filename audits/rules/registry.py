"""The registry of rule families: ``Ruleset.family`` -> its :class:`RuleFamily`.

The families are imported here, and only here: adding a family is one line in
:data:`FAMILIES`.  The package ``audits.rules`` re-exports this module's names
lazily, so the package's ``__init__`` imports none of its family subpackages
(they import ``audits.rules.family`` and ``audits.rules.hands``; nothing imports
back into a package still being initialised).
"""

from __future__ import annotations

from schema.ruleset import Ruleset

from .family import RuleFamily
from .guangdong import GUANGDONG
from .qujing import QUJING
from .sichuan import SICHUAN
from .wuhan import WUHAN
from .xuzhou import XUZHOU

#: ``Ruleset.family`` -> its rule family (one line per family).
FAMILIES: dict[str, RuleFamily] = {
    QUJING.name: QUJING,  # Qujing 飞小鸡 / 飞白板 / 双鬼 (qujing.md)
    SICHUAN.name: SICHUAN,  # Sichuan 四川麻将 and 血战到底 (sichuan.md)
    GUANGDONG.name: GUANGDONG,  # Guangdong 鸡平和 (guangdong.md)
    XUZHOU.name: XUZHOU,  # Xuzhou 徐州麻将 (xuzhou.md)
    WUHAN.name: WUHAN,  # Wuhan 红中赖子杠 (wuhan.md)
}


class UnknownFamily(ValueError):
    """A ruleset names a family paipu has no rules for."""


def register(family: RuleFamily) -> None:
    """Add (or replace) a rule family under its name (a test's toy family)."""
    FAMILIES[family.name] = family


def family_of(ruleset: Ruleset) -> RuleFamily:
    """The rule family the ruleset belongs to."""
    try:
        return FAMILIES[ruleset.family]
    except KeyError:
        raise UnknownFamily(f"no rules for family {ruleset.family!r}; known: {', '.join(FAMILIES)}") from None


__all__ = ["FAMILIES", "RuleFamily", "UnknownFamily", "family_of", "register"]
