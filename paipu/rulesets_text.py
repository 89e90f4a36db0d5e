"""The rulesets paipu audits, in words, read from the family registry.

The README's first paragraph and every command's ``--help`` name them; reading
them from :data:`audits.rules.FAMILIES` (and the presets of each family) keeps the
sentence true when a family is added.
"""

from __future__ import annotations


def audited_rulesets() -> str:
    """``Qujing (qujing-xiaoji, …), Sichuan (sichuan, sichuan-xuezhan), Guangdong (…)``: each
    registered rule family with its presets, in registry order."""
    from audits.rules import FAMILIES
    from schema.ruleset import PRESETS

    parts = []
    for name in FAMILIES:
        presets = [p for p, rules in PRESETS.items() if rules.family == name]
        parts.append(f"{name.capitalize()} ({', '.join(presets)})" if presets else name.capitalize())
    return ", ".join(parts)


def rulesets_line() -> str:
    """The line every ``--help`` ends with."""
    return f"Rulesets audited: {audited_rulesets()}."


__all__ = ["audited_rulesets", "rulesets_line"]
