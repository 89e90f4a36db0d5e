"""Every finding code the Wuhan family emits, with the near miss (a log) that triggers it
alone; the clean worked examples are the holding cases (test_logs.py)."""

from __future__ import annotations

from paipu.sim.wuhan.examples import NEAR_MISSES

#: the codes the Wuhan rooms trigger alone (test_audit_codes' coverage)
COVERED = frozenset(code for _, codes in NEAR_MISSES.values() for code in codes)


def test_each_wuhan_family_code_has_a_near_miss():
    assert {"WIN_NOT_OPENED", "WIN_HOLDING_PI", "WIN_LAIZI_LIMIT", "WIN_PAIR_NOT_258", "SET_ASIDE_INVALID",
            "CLAIM_SPECIAL_TILE", "SEA_BOTTOM_ORDER", "SPECIAL_TILE_DISCARDED", "KONG_WITHOUT_REPLACEMENT",
            "BAO_PAYER", "BAO_UNDUE", "QIANGGANG_PAYER", "WIN_BELOW_MIN_FAN", "DEALER_ROTATION"} <= COVERED
