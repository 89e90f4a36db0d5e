"""Wenzhou 温州麻将's parts outside its rules: its seeded scenes and worked examples
(:mod:`.scenes`, :mod:`.examples`), its fault classes, its coverage run and its sample
generator.  It plays on the shared table driver (16 + 1 tiles from the ruleset)."""
