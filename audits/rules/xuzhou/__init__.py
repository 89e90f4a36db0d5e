"""Xuzhou 徐州麻将 (xuzhou.md): the rule family, assembled from its modules.

* :mod:`.pei` — the 配子: the wild of a turned indicator, 白板 standing in for it;
* :mod:`.claims` — 吃 碰 杠 with natural tiles only, the dead (or forbidden) 配子 discard;
* :mod:`.wins` — 平和 with 配子, 七对, 乱牌, the 八枝 gate; waits;
* :mod:`.fans` — 不计番: the shape names, fan 0, P = U × B;
* :mod:`.settlement` — the flat payments with the 坐庄 bonus and 下嘴, dealer rotation.

过胡 and 一炮多响 are Qujing's rules, reused by reference.
"""
