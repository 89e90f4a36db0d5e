"""Wuhan 红中赖子杠's parts outside its rules (audits/rules/wuhan/): its game player (:mod:`.game`:
the shared driver with 红中杠 / 癞子杠, the 海底 phase and per-payer shares), its scenes and
worked examples, its fault classes, coverage run and sample logs.  Found by its name
(:mod:`paipu.sim.families`)."""

from ..families import SimFamily

#: what :mod:`paipu.sim.families` reads: Wuhan plays with its own game player
PARTS = SimFamily("wuhan", game_player="game:WuhanGame")
