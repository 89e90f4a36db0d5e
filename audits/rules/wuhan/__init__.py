"""Wuhan 红中赖子杠 (wuhan.md): the rule family, assembled from its modules.

* :mod:`.laizi` — the 癞子 (the kind after a turned indicator, 痞 kinds skipped) and the 痞子;
* :mod:`.claims` — 吃 碰 杠 with natural tiles only, 红中杠 / 癞子杠 (tiles set aside), the 海底
  phase's turns, kongs only while a replacement is drawable;
* :mod:`.wins` — the standard shape, 乱将 and 乱风 with 癞子, soft and hard;
* :mod:`.fans` — the legal readings, 屁胡 and the 大胡, the reading that pays most;
* :mod:`.money` — each pair's multiple (开口番 / 口口番), the cap, 金顶, 起胡, 包;
* :mod:`.settlement` — the win context, the transfers, dealer rotation.

Shared ground reused: the 海底-free table rules of Guangdong (reserve, tail replacements),
Qujing's meld rules and the shared ``guohu`` pass rule (:mod:`audits.rules.passes`).
"""

from __future__ import annotations

from schema import events as ev

from ..family import (OwnRules, RuleFamily, SettlementRules, TableRules, claim_rules_from,
                      scoring_rules_from, win_rules_from)
from ..guangdong import table as guangdong_table
from ..qujing import claims as qujing_claims
from ..qujing import settlement as qujing_settlement
from .. import passes
from . import claims, fans, laizi, money, settlement, wins

WUHAN = RuleFamily(
    name="wuhan",
    table=TableRules(
        # the events only some rulesets log: the 癞子 indicator (翻牌); 红中 and 癞子 set aside as single-tile kongs
        events=frozenset({ev.IndicatorTurned, ev.TileSetAside}),
        # the hand's 癞子 kind: the logged W the walker swaps into ``wilds``
        wild_kinds=qujing_claims.wild_kinds,
        # §2, §6: no face-up tail; replacements from the tail; 黄庄 at draw_reserve (10)
        tail_pool=guangdong_table.tail_pool,
        remaining=guangdong_table.remaining,
        reserve=guangdong_table.reserve,
        first_dealer=guangdong_table.first_dealer,
        next_dealer=guangdong_table.next_dealer,
        dealer_after=settlement.dealer_after,
        # §4: the next dealer follows the legal winners (the hand book's), not the logged ones
        dealer_reads_table=True,
        replacement_source=guangdong_table.replacement_source,
        wild_of=laizi.wild_of,
        discard_rule=claims.discard_rule,
        next_drawer=claims.next_drawer,
    ),
    claims=claim_rules_from(
        claims,
        # §5.1: no 过手碰 / 过手杠; passed wins by the shared guohu (off, or same_tile = 漏和)
        tile_passes=(),
        pass_violation=passes.pass_violation,
    ),
    wins=win_rules_from(
        wins, fans,
        win_context=settlement.win_context,
        legal_winners=settlement.legal_winners,
        request_context=settlement.request_context,
        request_of=settlement.request_of,
    ),
    scoring=scoring_rules_from(
        fans,
        payer_points=settlement.payer_points,
    ),
    settlement=SettlementRules(
        hand_facts=settlement.hand_facts,
        settle=settlement.settle,
        transfer_labels=settlement.LABELS,
        transfer_groups=((("win", "qianggang") + money.BAO_REASONS, "TRANSFER_MISMATCH"),),
        transfer_code=settlement.transfer_code,
        net_reasons=((), "TRANSFER_MISMATCH"),
        check_bet=settlement.check_bet,
        start_points=qujing_settlement.start_points,
        check_room=qujing_settlement.check_room,
        game_over=settlement.game_over,
        table_facts=settlement.table_facts,
        derivation=settlement.derivation,
        score_transfers=settlement.score_transfers,
        # §9.7: transfers compare as sums per (payer, payee, reason); their order is no finding
        payment_order=False,
    ),
    billing=qujing_settlement.ROOM_FEES,
    own=OwnRules(
        hand_book=settlement.hand_book,
        observes=frozenset({ev.HandWon}),
        observe=settlement.observe,
        event_checks=claims.event_checks,
    ),
    codes={"below_min_fan": "WIN_BELOW_MIN_FAN", "rob_kong_exposed": "ROB_EXPOSED_KONG",
           "rob_kong_concealed": "ROB_CONCEALED_KONG"},
    data={"observe_after": frozenset({ev.HandWon})},
)

__all__ = ["WUHAN", "laizi"]
