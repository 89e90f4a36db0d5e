"""Sichuan's parts outside its rules (audits/rules/sichuan/): its game player and bots'
choices (:mod:`.game`, writing through the move-by-move :mod:`.script`), its fault
classes, its coverage run and its sample logs.  Found by its name
(:mod:`paipu.sim.families`)."""

from ..families import SimFamily

#: what :mod:`paipu.sim.families` reads: Sichuan plays with its own game player, whose bots
#: plant only the shuffle anomaly
PARTS = SimFamily("sichuan", game_player="game:SichuanGame", plants=frozenset({"biased_shuffle"}))
