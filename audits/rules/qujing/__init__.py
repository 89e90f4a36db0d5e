"""Qujing 飞小鸡 / 飞白板 / 双鬼 (qujing.md): the rule family, assembled from its modules.

* :mod:`.claims` — claim legality, priority, 过手碰 / 过手杠 / 过胡, what a hand could claim;
* :mod:`.wins` — who is one tile from complete, waits, 单吊小鸡;
* :mod:`.fans` — one function per fan, the cap, the scorer;
* :mod:`.settlement` — payments (自摸, 点炮, 抢杠 包三家, 养猪, 点鸡, 20分敲锣), the wall's
  tail pair and 黄庄, dealer rotation and billing.
"""

from __future__ import annotations

from ..family import (OwnRules, RuleFamily, SettlementRules, TableRules, WinContext, claim_rules_from,
                      scoring_rules_from, win_rules_from)
from . import claims, fans, settlement, wins


def _transfer_code(how, code: str, expected=None, actual=None) -> str:
    # 抢杠 包三家: a wrong robbed-kong payment is reported as a payer error.
    return "QIANGGANG_PAYER" if code == "TRANSFER_MISMATCH" and how == "robbed_kong" else code


def _win_context(ruleset, table, seat, how, tile, after_kong, kong_discard, winners=1) -> WinContext:
    """Qujing scores from how the hand was won, the tile, and the kong before it."""
    return WinContext(how=how, win_tile=tile, after_kong=after_kong, kong_discard=kong_discard, winners=winners)


def _winner_points(ruleset, winner, score=None) -> int:
    """P = base × 2^min(logged fan, cap): the points follow the logged fan."""
    return fans.points(winner.fan, ruleset)


def _table_facts(ruleset, table, won=None):
    """养猪 bets and 点鸡 tallies (settlement.hand_facts) from the table."""
    return settlement.hand_facts(ruleset, table.received, table.bets)


QUJING = RuleFamily(
    name="qujing",
    table=TableRules(
        wild_kinds=claims.wild_kinds,
        tail_pool=settlement.tail_pool,
        remaining=settlement.remaining,
        reserve=settlement.reserve,
        first_dealer=settlement.first_dealer,
        next_dealer=settlement.next_dealer,
        # no face-up pool (a variant with tail_pool 0): the replacement is the next wall tile
        replacement_source=lambda ruleset: "wall",
    ),
    claims=claim_rules_from(
        claims,
        tile_passes=claims.TILE_PASSES,
        pass_violation=claims.pass_violation,
    ),
    wins=win_rules_from(
        wins, fans,
        win_context=_win_context,
    ),
    scoring=scoring_rules_from(
        fans,
        score=lambda ruleset, concealed, melds, ctx, passed_win=False: fans.score_hand(
            concealed, melds, ruleset, ctx, passed_win),
        winner_points=_winner_points,
        fan_finding=lambda ruleset, winner, score: "FAN_MISMATCH",
    ),
    settlement=SettlementRules(
        hand_facts=settlement.hand_facts,
        settle=settlement.settle,
        transfer_labels={"win": "pays", "qianggang": "pays (抢杠 包三家)", "yangzhu": "pays 养猪",
                         "dianji": "pays 点鸡"},
        transfer_groups=((("win", "qianggang"), "TRANSFER_MISMATCH"), (("yangzhu",), "YANGZHU_MISMATCH")),
        transfer_code=_transfer_code,
        net_reasons=(("dianji",), "DIANJI_MISMATCH"),
        check_bet=settlement.check_bet,
        start_points=settlement.start_points,
        check_room=settlement.check_room,
        game_over=settlement.game_over,
        table_facts=_table_facts,
    ),
    billing=settlement.ROOM_FEES,
    own=OwnRules(
        event_checks=lambda ruleset, table, event: [],
    ),
    codes={"below_min_fan": "WIN_ZERO_FAN_DISCARD", "rob_kong_exposed": "ROB_CONCEALED_KONG",
           "rob_kong_concealed": "ROB_CONCEALED_KONG"},
)

__all__ = ["QUJING"]
