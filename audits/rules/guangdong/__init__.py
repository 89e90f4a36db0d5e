"""Guangdong 鸡平和 (guangdong.md): the rule family, assembled from its modules.

* :mod:`.wins` — 4 sets + a pair with no wild tiles, 十三幺, 七对 by option; waits;
* :mod:`.fans` — the hand types, additional fans, 爆和, special hands, floors, §7.6;
* :mod:`.table` — the wall with no face-up tail, winds, dealer, 漏和, 天/地/人和,
  the last discard and kongs without a replacement;
* :mod:`.settlement` — 自摸, 点炮, 一炮三响, 抢杠, the 包 liabilities, kong payments.

Claims (吃 only from 上家, 碰, 杠) are Qujing's functions with no wild kinds: the rule
is the same, so it is reused by reference.
"""

from __future__ import annotations

from ..family import (OwnRules, RuleFamily, SettlementRules, TableRules, claim_rules_from,
                      scoring_rules_from, win_rules_from)
from ..qujing import claims as qujing_claims
from ..qujing import settlement as qujing_settlement
from . import fans, settlement, table, wins

GUANGDONG = RuleFamily(
    name="guangdong",
    table=TableRules(
        wild_kinds=lambda ruleset: frozenset(),
        tail_pool=table.tail_pool,
        remaining=table.remaining,
        reserve=table.reserve,
        first_dealer=table.first_dealer,
        next_dealer=table.next_dealer,
        replacement_source=table.replacement_source,
    ),
    claims=claim_rules_from(
        qujing_claims,  # the ranks 胡 > 碰 / 杠 > 吃: two seats can never both pong or kong one discard
        # no 过手碰 / 过手杠: only 漏和 restricts a pass
        tile_passes=(),
        pass_violation=table.pass_violation,
    ),
    wins=win_rules_from(
        wins, fans,
        win_context=table.win_context,
    ),
    scoring=scoring_rules_from(fans),
    settlement=SettlementRules(
        hand_facts=settlement.hand_facts,
        settle=settlement.settle,
        transfer_labels=settlement.LABELS,
        transfer_groups=((("win", "qianggang") + settlement.BAO_REASONS, "TRANSFER_MISMATCH"),
                         (("kong",), "KONG_PAYMENT_MISMATCH")),
        transfer_code=settlement.transfer_code,
        net_reasons=((), "TRANSFER_MISMATCH"),
        check_bet=qujing_settlement.check_bet,
        start_points=qujing_settlement.start_points,
        check_room=qujing_settlement.check_room,
        game_over=settlement.game_over,
        table_facts=settlement.table_facts,
        # §8.7: transfers compare as sums per (payer, payee, reason); their order is no finding
        payment_order=False,
    ),
    billing=qujing_settlement.ROOM_FEES,
    # 截和 (multi_win off) is the shared claims check's (audits/checks/claims.single_winner)
    own=OwnRules(event_checks=table.event_checks),
    codes={"below_min_fan": "WIN_BELOW_MIN_FAN", "rob_kong_exposed": "ROB_EXPOSED_KONG",
           "rob_kong_concealed": "ROB_CONCEALED_KONG"},
)

__all__ = ["GUANGDONG"]
