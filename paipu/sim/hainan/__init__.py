"""Hainan 海南麻将's parts outside its rules: its scenes and worked examples (:mod:`.scenes`,
:mod:`.examples`), its fault classes, its coverage run and its sample generator."""
