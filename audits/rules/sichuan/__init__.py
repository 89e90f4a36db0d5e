"""Sichuan 四川麻将 (成都) and 血战到底 (sichuan.md): the rule family, assembled from its modules.

* :mod:`.fans` — the void-suit gate, the win check, 成都计番 with 根, the best hand (查大叫);
* :mod:`.settlement` — 刮风下雨, win payments, 呼叫转移, 查花猪 / 查大叫 / 退税, next dealer;
* :mod:`.play` — the 108-tile set, 换三张 and 定缺, void-first, melds of the void suit, 血战
  seats that have left, how a hand ends, the last four tiles, the hand's money moments.

Claim shapes and billing are the same rules as Qujing's with no wild tiles, so those
functions are reused by reference; the questions the audit asks on every discard are the
family's own: the wait entry (:func:`.fans.seat_waits`: the shared suit tables with no wild
bookkeeping) and whether a seat could kong it (three equal tiles, no chicken to look for).
"""

from __future__ import annotations

from schema import events as ev

from ..family import (HandFacts, OwnRules, RuleFamily, SettlementRules, TableRules, WinRules,
                      claim_rules_from, scoring_rules_from)
from .. import money
from ..qujing import claims as qclaims
from ..qujing import settlement as qsettlement
from . import fans, play, settlement

#: 胡 > 杠 = 碰 (§5): two seats can never both pong or kong one discard.
CLAIM_RANK = {"win": 4, "kong": 2, "pong": 2, "chow": 1}


def _shape_waits(ruleset, counts, melds=()):
    """The tiles that complete the 3k+1 hand's shape (the void suit is judged per seat)."""
    c = list(counts)
    out = []
    for t in range(27):
        c[t] += 1
        if fans.is_shape(c, melds):
            out.append(t)
        c[t] -= 1
    return out


def _could_kong(ruleset, counts, tile):
    """直杠 on a discard needs three equal tiles in hand (no wild tiles, §5)."""
    return counts[tile] >= 3


SICHUAN = RuleFamily(
    name="sichuan",
    table=TableRules(
        # the events only some rulesets log: 定缺, and 换三张 where the room plays it
        events=frozenset({ev.VoidDeclared, ev.TilesExchanged}),
        wild_kinds=lambda ruleset: frozenset(),
        tail_pool=lambda ruleset: 0,
        remaining=lambda ruleset, undrawn, face_up: undrawn - face_up,
        reserve=lambda ruleset, kongs: 0,
        first_dealer=lambda creator: None,
        next_dealer=lambda dealer, winners, how=None, from_seat=None: dealer,
        dealer_after=play.dealer_after,
    ),
    claims=claim_rules_from(
        qclaims,
        claim_rank=CLAIM_RANK,
        could_kong=_could_kong,
        chow_options=lambda *a, **k: [],
        tile_passes=("pong", "kong"),
        pass_violation=play.pass_violation,
        pass_values=True,
    ),
    wins=WinRules(
        is_winning=lambda ruleset, counts, melds, plain=None: fans.is_shape(counts, melds),
        waits=_shape_waits,
        seat_waits=fans.seat_waits,
        completes=fans.completes,
        fan_enough=lambda ruleset, how, fan: True,
        win_extras=play.win_extras,
    ),
    scoring=scoring_rules_from(
        fans,
        score=fans.score_tiles,
    ),
    settlement=SettlementRules(
        hand_facts=lambda ruleset, received, bets: HandFacts(None, None),
        settle=play.settle,
        transfer_labels=settlement.LABELS,
        transfer_groups=settlement.GROUPS,
        transfer_code=settlement.transfer_code,
        net_reasons=((), "TRANSFER_MISMATCH"),
        check_bet=money.no_side_bets,  # 四川 rooms play no side bets
        start_points=lambda ruleset: 0,
        check_room=qsettlement.check_room,
        game_over=lambda ruleset, scores: False,
    ),
    billing=qsettlement.ROOM_FEES,
    own=OwnRules(
        hand_book=play.hand_book,
        observes=play.OBSERVES,
        observe=play.observe,
    ),
    data={"observe_after": play.OBSERVE_AFTER, "observers": play.OBSERVERS},
)

__all__ = ["SICHUAN", "fans", "play", "settlement"]
