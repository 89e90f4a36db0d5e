"""Xuzhou 徐州麻将 (xuzhou.md): the rule family, assembled from its modules.

* :mod:`.pei` — the 配子: the wild of a turned indicator, 白板 standing in for it;
* :mod:`.claims` — 吃 碰 杠 with natural tiles only, the dead (or forbidden) 配子 discard;
* :mod:`.wins` — 平和 with 配子, 七对, 乱牌, the 八枝 gate; waits;
* :mod:`.fans` — 不计番: the shape names, fan 0, P = U × B;
* :mod:`.settlement` — the flat payments with the 坐庄 bonus and 下嘴, dealer rotation.

过胡 and 一炮多响 are Qujing's rules, reused by reference.
"""

from __future__ import annotations

from typing import Sequence

from schema import events as ev
from schema.ruleset import Ruleset
from schema.tiles import NUM_KINDS, TILE_INDEX, TILE_NAMES

from ..family import (OwnRules, Particular, RuleFamily, SettlementRules, TableRules, WinContext,
                      claim_rules_from, scoring_rules_from, win_rules_from)
from ..guangdong import table as guangdong_table
from ..qujing import claims as qujing_claims
from ..qujing import settlement as qujing_settlement
from .. import passes, wilds
from . import claims, fans, pei, settlement, wins


def win_context(ruleset, table, seat, how, tile, after_kong, kong_discard, winners=1) -> WinContext:
    """How a Xuzhou hand was won: 天和 (the dealer's dealt 14, before any discard or kong,
    §7.5) is the one moment the score names; the rule is Guangdong's 天和 test."""
    tian = guangdong_table.heavenly(ruleset, table, seat, how) == "tianhe"
    return WinContext(how=how, win_tile=tile, after_kong=after_kong, kong_discard=kong_discard,
                      heavenly="tianhe" if tian else "", winners=winners)


def event_checks(ruleset, table, event) -> list:
    """Before a claim or kong (§2, Guangdong's rule reused): a kong needs a drawable tile
    (KONG_WITHOUT_REPLACEMENT); under ``last_discard_claims = win_only`` the last discard
    is only won on (CLAIM_ON_LAST_DISCARD).  (No winds: a hand's start is not judged here.)"""
    if type(event) is ev.HandStarted:
        return []
    return guangdong_table.event_checks(ruleset, table, event)


def particulars(room: Ruleset, events: Sequence[ev.Event]) -> list[Particular]:
    """``OwnRules.particulars`` (§3): the hand's indicator, its 配子 W (and 白板 standing in
    for it while W is another kind), and the 配子 discarded, which the family's
    ``discard_rule`` makes dead (nobody may claim or win on them) or forbidden.  Read
    from the hand's ``IndicatorTurned`` (the walker plays the hand with its logged W)."""
    turned = next((e for e in events if type(e) is ev.IndicatorTurned), None)
    if turned is None:
        return [Particular("配子 wild", (), "no indicator turned: the hand has no 配子")] \
            if room.wild_from != "preset" else []
    rules = wilds.hand_rules(room, turned.wild)
    hand_pei = pei.pei(rules)
    indicator = TILE_INDEX[turned.tile]
    how = "the next kind" if room.wild_from == "next" else "the indicator's own kind"
    named = ""
    if indicator < NUM_KINDS and pei.wild_of(room, indicator) != hand_pei.wild:
        named = f"; the indicator makes {TILE_NAMES[pei.wild_of(room, indicator)]} wild, the log names {turned.wild}"
    rows = [Particular("indicator 翻牌", (turned.tile,), f"turned from the {turned.source}; 配子 = {how} "
                                                         f"(wild_from = {room.wild_from}){named}"),
            Particular("配子 wild", (turned.wild,), "in a win it stands for any kind with room (four a kind, "
                                                    "the indicator counted) or for itself; in no meld", wild=True)]
    if hand_pei.stand_in is not None:
        rows.append(Particular("白板 stands in", (TILE_NAMES[hand_pei.stand_in],),
                               f"a natural {turned.wild} in every use (no 配子 stands for 白板)"))
    rule = XUZHOU.table.discard_rule  # the family's word on a discard; Xuzhou's reads no table
    dead = [e for e in events if type(e) is ev.TileDiscarded and TILE_INDEX[e.tile] < NUM_KINDS
            and rule(rules, None, e.seat, TILE_INDEX[e.tile]).dead]
    if dead:
        state = "forbidden and dead" if room.wild_discard == "forbidden" else "dead"
        rows.append(Particular(f"配子 discarded ({state})", tuple(e.tile for e in dead),
                               "by " + ", ".join(f"seat {e.seat}" for e in dead)
                               + ": nobody may claim or win on them"))
    return rows


XUZHOU = RuleFamily(
    name="xuzhou",
    table=TableRules(
        # the events only some rulesets log: the 配子 indicator (翻牌)
        events=frozenset({ev.IndicatorTurned}),
        # the hand's 配子 kind: the logged W the walker swaps into ``wilds``
        wild_kinds=qujing_claims.wild_kinds,
        # §2: no face-up tail; replacements from the tail; 流局 at draw_reserve
        tail_pool=guangdong_table.tail_pool,
        remaining=guangdong_table.remaining,
        reserve=guangdong_table.reserve,
        first_dealer=guangdong_table.first_dealer,
        # asked only where ``dealer_after`` is not: the dealer stays after a draw or a win, else the 下家
        next_dealer=guangdong_table.next_dealer,
        dealer_after=settlement.dealer_after,
        replacement_source=guangdong_table.replacement_source,
        wild_of=pei.wild_of,
        # §3.3: a discarded 配子 is dead or forbidden (the shared wild_discard rule)
        discard_rule=wilds.default_discard_rule,
    ),
    claims=claim_rules_from(
        claims,
        can_rob=qujing_claims.can_rob,
        # 过胡 (§6), Qujing's rule: the shared guohu = any_discard; no 过手碰 / 过手杠
        tile_passes=(),
        pass_violation=passes.pass_violation,
    ),
    wins=win_rules_from(
        wins, fans,
        win_context=win_context,
    ),
    scoring=scoring_rules_from(
        fans,
        payer_points=settlement.payer_points,
    ),
    settlement=SettlementRules(
        hand_facts=settlement.hand_facts,
        settle=settlement.settle,
        transfer_labels=settlement.LABELS,
        transfer_groups=((("win",), "TRANSFER_MISMATCH"), (("yangzhu",), "YANGZHU_MISMATCH"),
                         (("kong",), "KONG_PAYMENT_MISMATCH")),
        transfer_code=settlement.transfer_code,
        net_reasons=((), "TRANSFER_MISMATCH"),
        check_bet=settlement.check_bet,
        start_points=qujing_settlement.start_points,
        check_room=qujing_settlement.check_room,
        game_over=settlement.game_over,
        table_facts=settlement.table_facts,
        derivation=settlement.derivation,
        # §8: transfers compare as sums per (payer, payee, reason); their order is no finding
        payment_order=False,
    ),
    billing=qujing_settlement.ROOM_FEES,
    own=OwnRules(
        event_checks=event_checks,
        particulars=particulars,
    ),
    codes={"below_min_fan": "WIN_BELOW_MIN_FAN", "rob_kong_exposed": "ROB_EXPOSED_KONG",
           "rob_kong_concealed": "ROB_CONCEALED_KONG"},
)

__all__ = ["XUZHOU", "particulars", "pei", "win_context"]
