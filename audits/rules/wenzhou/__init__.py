"""Wenzhou 温州麻将 (wenzhou.md): the rule family, assembled from its modules.

* :mod:`.caishen` — the 财神: the turned tile's own kind, 白板 standing in, 烧中发;
* :mod:`.wins` — 17 tiles: five sets and a pair, 硬八对, the bare 三财神, 财神单钓;
* :mod:`.fans` — the multiple M: 软 ×1, 硬 ×2, 双翻 ×4, 辣子辣 ×8; fan = log2 M;
* :mod:`.settlement` — every loser pays at the pair base (dealer levels, 买底), 财神钱,
  杠算分, the rotation with levels;
* :mod:`.play` — the discard order, the 财神 never discarded, 天和 / 地和, kongs on the reserve.

The claims are Xuzhou's (natural tiles only, a wild kind in no meld: CLAIM_SPECIAL_TILE;
白板 read as W), reused by reference; 截和 is the walker's shared single-winner rule
(``multi_win`` off); no pass rule (``tile_passes`` empty, passing a win is never a finding).
"""

from __future__ import annotations

from schema import events as ev

from ..family import (OwnRules, RuleFamily, SettlementRules, TableRules, claim_rules_from,
                      scoring_rules_from, win_rules_from)
from ..guangdong import table as guangdong_table
from ..qujing import claims as qujing_claims
from ..qujing import settlement as qujing_settlement
from ..xuzhou import claims
from .. import passes
from . import caishen, fans, play, settlement, wins


WENZHOU = RuleFamily(
    name="wenzhou",
    table=TableRules(
        # the events only some rulesets log: the 财神 indicator (翻牌)
        events=frozenset({ev.IndicatorTurned}),
        # the hand's 财神 kind: the logged W the walker swaps into ``wilds``
        wild_kinds=qujing_claims.wild_kinds,
        # §2: no face-up tail; replacements from the tail; 流局 at draw_reserve (16)
        tail_pool=guangdong_table.tail_pool,
        remaining=guangdong_table.remaining,
        reserve=guangdong_table.reserve,
        first_dealer=guangdong_table.first_dealer,
        next_dealer=settlement.next_dealer,
        rotation=settlement.rotation,
        replacement_source=guangdong_table.replacement_source,
        wild_of=caishen.wild_of,
        discard_rule=play.discard_rule,
        discard_rule_for=play.discard_rule_for,
    ),
    claims=claim_rules_from(
        claims,
        can_rob=qujing_claims.can_rob,
        # §5: no pass rule (the shared guohu = off): passing a win or a claim is never a finding
        tile_passes=(),
        pass_violation=passes.pass_violation,
    ),
    wins=win_rules_from(
        wins, fans,
        win_context=play.win_context,
        # ``paipu hand``: a self-draw after a chow or pong (``--context after_call=true``, §7.3)
        request_context=play.request_context,
        request_of=play.request_of,
    ),
    scoring=scoring_rules_from(
        fans,
        payer_points=settlement.payer_points,
    ),
    settlement=SettlementRules(
        hand_facts=settlement.hand_facts,
        settle=settlement.settle,
        transfer_labels=settlement.LABELS,
        transfer_groups=((("win",), "TRANSFER_MISMATCH"), (("caishen",), "CAISHEN_MONEY_MISMATCH"),
                         (("kong",), "KONG_PAYMENT_MISMATCH")),
        transfer_code=settlement.transfer_code,
        net_reasons=((), "TRANSFER_MISMATCH"),
        check_bet=settlement.check_bet,
        start_points=qujing_settlement.start_points,
        check_room=qujing_settlement.check_room,
        game_over=settlement.game_over,
        table_facts=settlement.table_facts,
        derivation=settlement.derivation,
        # §9.7: transfers compare as sums per (payer, payee, reason); their order is no finding
        payment_order=False,
    ),
    billing=qujing_settlement.ROOM_FEES,
    own=OwnRules(
        event_checks=play.event_checks,
    ),
    codes={"below_min_fan": "WIN_BELOW_MIN_FAN", "rob_kong_exposed": "ROB_EXPOSED_KONG",
           "rob_kong_concealed": "ROB_CONCEALED_KONG"},
)

__all__ = ["WENZHOU", "caishen", "fans", "play", "settlement", "wins"]
