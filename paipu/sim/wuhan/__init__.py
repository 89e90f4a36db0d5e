"""Wuhan 红中赖子杠's parts outside its rules: scenes, worked examples, samples (paipu.sim.families)."""
