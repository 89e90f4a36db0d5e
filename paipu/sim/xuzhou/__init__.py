"""Xuzhou 徐州麻将's parts outside its rules: its seeded scenes and worked examples
(:mod:`.scenes`, :mod:`.examples`), its fault classes and its sample generator."""
