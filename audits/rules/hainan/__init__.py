"""Hainan 海南麻将 (hainan.md): the rule family, assembled from its modules.

* :mod:`.table` — 144 tiles with flowers (补花 from the tail), the end of the wall at 15,
  the seat and 令 winds, the win context (position, flowers), the family's own checks;
* :mod:`.wins` — 4 sets + a pair, 七对, 十三幺 (十三烂 / 幺九 by ``luanpai``); waits;
* :mod:`.fans` — the 番 gate (a self-draw needs none), the rate 1 / 2 / 3 and the hand multiplier;
* :mod:`.settlement` — the win with the feeder's extra, 包牌 (无番抢杠, 三道, 四道, 海底),
  kong money and 包杠, 跟牌, flower money.

Claims (吃 only from 上家, 碰, 杠) are Qujing's functions with no wild kinds; the dealer
rotation (the dealer stays after its win or a 黄庄, else the 下家 deals) is Guangdong's
``next_dealer``; 截胡 is the walker's shared single-winner check (``multi_win`` off); passed
wins are the shared ``guohu`` rule.  All reused by reference: the rules are the same.
"""

from __future__ import annotations

from schema import events as ev

from .. import passes
from ..family import (OwnRules, RuleFamily, SettlementRules, TableRules, claim_rules_from,
                      scoring_rules_from, win_rules_from)
from ..guangdong import table as guangdong_table
from ..qujing import claims as qujing_claims
from ..qujing import settlement as qujing_settlement
from . import fans, settlement, table, wins

HAINAN = RuleFamily(
    name="hainan",
    table=TableRules(
        # the events only some rulesets log: flowers set aside (补花)
        events=frozenset({ev.TileSetAside}),
        wild_kinds=lambda ruleset: frozenset(),
        tail_pool=table.tail_pool,
        remaining=table.remaining,
        reserve=table.reserve,
        first_dealer=guangdong_table.first_dealer,
        # §3: the dealer stays after its own win or a 黄庄; otherwise the 下家 deals
        next_dealer=guangdong_table.next_dealer,
        replacement_source=table.replacement_source,
    ),
    claims=claim_rules_from(
        qujing_claims,  # the ranks 胡 > 杠 = 碰 > 吃
        # §4: no pass rule by default; guohu = same_tile is 漏和 (the shared rule)
        tile_passes=(),
        pass_violation=passes.pass_violation,
    ),
    wins=win_rules_from(
        wins, fans,
        win_context=table.win_context,
    ),
    scoring=scoring_rules_from(
        fans,
        payer_points=settlement.payer_points,
    ),
    settlement=SettlementRules(
        hand_facts=settlement.hand_facts,
        settle=settlement.settle,
        transfer_labels=settlement.LABELS,
        transfer_groups=((("win",) + settlement.BAO_REASONS, "TRANSFER_MISMATCH"),
                         (("kong", "bao_gang"), "KONG_PAYMENT_MISMATCH"),
                         (("genpai",), "GENPAI_MISMATCH"),
                         (("flower",), "FLOWER_PAYMENT_MISMATCH")),
        transfer_code=settlement.transfer_code,
        net_reasons=((), "TRANSFER_MISMATCH"),
        check_bet=qujing_settlement.check_bet,
        start_points=qujing_settlement.start_points,
        check_room=qujing_settlement.check_room,
        game_over=settlement.game_over,
        table_facts=settlement.table_facts,
        derivation=settlement.derivation,
        # §9: transfers compare as sums per (payer, payee, reason); their order is no finding
        payment_order=False,
        # ``paipu hand``: 无番抢杠 decided by the win's score (the same rule as the ledger's)
        request_facts=settlement.request_facts,
    ),
    billing=qujing_settlement.ROOM_FEES,
    own=OwnRules(
        event_checks=table.event_checks,
        # a discard is watched on a short path (``data["observers"]``): the flower checks
        observes=frozenset({ev.TileDiscarded}),
        observe=table.observe,
    ),
    codes={"below_min_fan": "WIN_BELOW_MIN_FAN", "rob_kong_exposed": "ROB_EXPOSED_KONG",
           "rob_kong_concealed": "ROB_CONCEALED_KONG"},
    data={"observers": {ev.TileDiscarded: table.discard_observer}, "observe_after": frozenset(),
          # the simulator's opening 补花 (by seat or by round, ``opening_buhua``) before the dealer acts
          "opening_set_aside": True,
          # the report page's lines on what is particular to the room (flowers, seat flowers, rates)
          "particulars": table.particulars},
)

__all__ = ["HAINAN", "fans", "settlement", "table", "wins"]
