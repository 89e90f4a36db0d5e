"""Qujing's parts outside its rules (audits/rules/qujing/): its fault classes, its
coverage run and its sample logs; it plays on the shared table driver
(:mod:`paipu.sim.simulate`).  Found by its name (:mod:`paipu.sim.families`)."""
