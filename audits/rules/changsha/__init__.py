"""Changsha 长沙麻将 (changsha.md): the rule family, assembled from its modules.

* :mod:`.wins` — the small-win shape with a 2/5/8 将 pair, the shape units (碰碰胡, 将将胡
  without shape, 清一色, 七小对 / 豪华, 全求人), waits;
* :mod:`.fans` — the units (大胡), U, the tiers and the hand base H;
* :mod:`.qishou` — the opening small wins (起手胡) and their declarations;
* :mod:`.birds` — 扎鸟: count, source, origin, seats hit and the pair factor;
* :mod:`.settlement` — the pair money (opening base, hand base, birds, 庄闲) and the dealer;
* :mod:`.play` — the hand book: opening wins, 开杠 (ready, reveal, locked hand), 海底, birds.

Chow, pong and kong shapes are Qujing's with no wild tiles; 过胡 is the shared ``guohu``
(``any_discard`` = until one's own turn); the end-of-wall and kong claims are Guangdong's
table rules with ``draw_reserve = 0``.
"""

from __future__ import annotations

from typing import Optional

from replay.table import KEY_STEP, SUIT_OF
from schema import events as ev

from .. import money, passes
from ..family import (HandFacts, OwnRules, RuleFamily, SettlementRules, TableRules, Violation, WinContext,
                      WinRules, claim_rules_from, scoring_rules_from)
from ..guangdong import table as guangdong_table
from ..hands import is_complete_keys
from ..qujing import claims as qujing_claims
from ..qujing import settlement as qujing_settlement
from . import birds, fans, play, qishou, settlement, wins


def _seat_waits(ruleset, counts, keys, held, melds):
    """``WinRules.seat_waits``: the wait entry ``[{tile: completes}, suit keys, all 将]`` when one
    tile could complete the hand (a superset: one free tile in the shared suit tables, seven
    pairs one short with no meld, or every tile a 将 tile for 将将胡, which needs no shape),
    else False."""
    if held % 3 != 1:
        return False
    jiang = wins.all_jiang(counts, melds)
    if jiang or is_complete_keys(keys[0], keys[1], keys[2], keys[3], 1) or \
            (not melds and counts.count(1) + counts.count(3) <= 1):
        return [{}, tuple(keys), jiang]
    return False


def _completes(ruleset, entry, counts, melds, tile) -> bool:
    """``WinRules.completes``: the hand with ``tile`` from another seat is a legal win by its
    tiles (§9.1 item 2): the shape tables or 将将胡 first, then the exact test; cached."""
    cache = entry[0]
    got = cache.get(tile)
    if got is None:
        k = list(entry[1])
        k[SUIT_OF[tile]] += KEY_STEP[tile]
        got = False
        if (entry[2] and wins.is_jiang(tile)) or is_complete_keys(k[0], k[1], k[2], k[3], 0) or \
                (not melds and counts[tile] & 1):
            c = list(counts)
            c[tile] += 1
            got = wins.is_winning(ruleset, c, melds, "discard")
        cache[tile] = got
    return got


def _completing(ruleset, table, seat: int) -> int:
    """How many of the revealed tiles complete the konger's hand (双杠开花, §6.2)."""
    n = 0
    for t in table.revealed:
        c = list(table.hands[seat])
        c[t] += 1
        if wins.is_winning(ruleset, c, table.melds[seat], "self_draw"):
            n += 1
    return n


def _tiandi(ruleset, table, seat: int, how: str) -> str:
    """天胡: the dealer's dealt 14 as its first action; 地胡: a non-dealer on the dealer's first
    discard (``dealer_first_discard``) or its own first draw (``first_draw``), before any
    claim or kong."""
    if any(table.melds):
        return ""
    heavenly = guangdong_table.heavenly(ruleset, table, seat, how)
    if heavenly == "tianhe":
        return heavenly
    if ruleset.dihe_scope == "first_draw":
        return "dihe" if heavenly == "dihe" else ""
    last = table.last_discard
    if how == "discard" and seat != table.dealer and sum(len(d) for d in table.discards) == 1 \
            and last is not None and last[0] == table.dealer:
        return "dihe"
    return ""


def win_context(ruleset, table, seat, how, tile, after_kong, kong_discard, winners=1) -> WinContext:
    """How a Changsha hand was won: a tile revealed by 开杠 (the konger's own: 杠上开花, how many
    complete; another's: 杠上炮, also for a passed chance recorded with ``play.REVEALED``), the
    海底 tile taken after an offer, 天胡 / 地胡."""
    reveal = 0
    if how == "discard" and kong_discard == play.REVEALED:
        reveal = 1  # a win chance on a revealed tile, judged after the reveal closed (过胡)
    elif tile is not None and tile in table.revealed:
        if how == "self_draw" and seat == table.revealed_by:
            reveal = _completing(ruleset, table, seat)
        elif how == "discard":
            reveal = 1
    offers = table.sea_offers
    sea = bool(offers) and any(acc for _s, acc in offers)
    key = (how, tile, after_kong and not reveal, kong_discard, sea, _tiandi(ruleset, table, seat, how), winners,
           reveal)
    got = _CONTEXTS.get(key)
    if got is None:
        if len(_CONTEXTS) > 4096:  # bounded: the moments repeat (few kinds of win, 27 tiles)
            _CONTEXTS.clear()
        got = _CONTEXTS[key] = WinContext(how=how, win_tile=tile, after_kong=key[2], kong_discard=kong_discard,
                                          sea_bottom=sea, tiandi=key[5], winners=winners, kong_reveal=reveal)
    return got


#: The contexts made (frozen, so one serves every win of the same moment): the fields of
#: :func:`win_context` -> WinContext.
_CONTEXTS: dict[tuple, WinContext] = {}


_CLAIMS = frozenset({ev.Chowed, ev.Ponged, ev.KongExposed})


def event_checks(ruleset, table, event) -> list[Violation]:
    """Only 胡 on the last discard (R = 0, §7.7) and on a revealed tile (§6.2)."""
    t = type(event)
    if t in _CLAIMS:
        if table.revealed and ruleset.kaigang_claims == "win_only":
            return [Violation("CLAIM_ON_KONG_REVEAL", f"seat {event.seat} claimed a tile revealed by 开杠 "
                              "(only 胡 is allowed on it)", "win", t.__name__)]
        if settlement.undrawn(table) <= 0:
            return [Violation("CLAIM_ON_LAST_DISCARD", f"seat {event.seat} claimed the last discard "
                              "(only 胡 is allowed on it)", "win", t.__name__)]
    return []


def next_drawer(ruleset, table) -> Optional[int]:
    """海底漫游 (§7.1): the seat that accepted the offered last tile draws it (None: the turn's
    seat).  The walker asks only once the 海底 has been offered (``play._sea_drawer``)."""
    offers = table.sea_offers
    if not offers:
        return None
    for seat, accepted in offers:
        if accepted:
            return seat
    return None


def table_facts(ruleset, table, won=None) -> HandFacts:
    """The hand's dealer, its opening wins and birds as the table holds them (the audit's hand
    book replaces them with the valid opening wins, the whole moment and the judged birds)."""
    openings = [0] * len(table.hands)
    for seat, names, _tiles in table.opening_wins:
        openings[seat] += len(names)
    cf = settlement.ChangshaFacts(tuple(openings), tuple(table.birds), table.bird_origin)
    return HandFacts(None, None, cf, table.dealer)


CHANGSHA = RuleFamily(
    name="changsha",
    table=TableRules(
        # the events only some rulesets log: 起手胡, 开杠 reveals, 海底 offers, 扎鸟 birds
        events=frozenset({ev.OpeningWinDeclared, ev.KongRevealed, ev.LastTileOffered, ev.BirdsDrawn}),
        wild_kinds=lambda ruleset: frozenset(),
        tail_pool=guangdong_table.tail_pool,
        remaining=guangdong_table.remaining,
        reserve=guangdong_table.reserve,
        first_dealer=guangdong_table.first_dealer,
        next_dealer=guangdong_table.next_dealer,
        dealer_after=settlement.dealer_after,
        dealer_reads_table=True,
        replacement_source=guangdong_table.replacement_source,
        next_drawer=next_drawer,
    ),
    claims=claim_rules_from(
        qujing_claims,  # the ranks 胡 > 杠 = 碰 > 吃 (§5.1)
        tile_passes=(),
        # 过胡 (§8): the shared guohu option
        pass_violation=passes.pass_violation,
        pass_values=True,
    ),
    wins=WinRules(
        is_winning=lambda ruleset, counts, melds, plain=None: wins.is_winning(ruleset, counts, melds),
        waits=wins.waits,
        seat_waits=_seat_waits,
        completes=_completes,
        fan_enough=lambda ruleset, how, fan: True,
        win_context=win_context,
    ),
    scoring=scoring_rules_from(fans),
    settlement=SettlementRules(
        hand_facts=lambda ruleset, received, bets: HandFacts(None, None),
        settle=settlement.settle,
        transfer_labels=settlement.LABELS,
        transfer_groups=((settlement.PAIR_REASONS, "TRANSFER_MISMATCH"), (("kong",), "KONG_PAYMENT_MISMATCH")),
        transfer_code=settlement.transfer_code,
        net_reasons=((), "TRANSFER_MISMATCH"),
        check_bet=money.no_side_bets,
        start_points=qujing_settlement.start_points,
        check_room=qujing_settlement.check_room,
        game_over=settlement.game_over,
        table_facts=table_facts,
        derivation=settlement.derivation,
        birds_due=play.birds_due,
        payment_order=False,
        # §10.6: a pair's money is compared as its total; birds and opening bases name a wrong one
        pair_totals=True,
        explain_pair=settlement.explain_pair,
    ),
    billing=qujing_settlement.ROOM_FEES,
    own=OwnRules(hand_book=play.hand_book, observes=play.OBSERVES, observe=play.observe,
                 event_checks=event_checks),
    codes={"below_min_fan": "WIN_BELOW_MIN_FAN", "rob_kong_exposed": "ROB_EXPOSED_KONG",
           "rob_kong_concealed": "ROB_CONCEALED_KONG"},
    # the shared ground's simulator moves (new-families.md §1): 起手胡 declared after the deal,
    # 开杠 when ready after the kong, the 海底 offered round the table
    data={"observe_after": play.OBSERVE_AFTER, "observers": play.OBSERVERS,
          "opening_wins": qishou.declaration,
          "may_reveal": wins.is_ready,
          "reveal_count": lambda ruleset: ruleset.kaigang_count,
          # kaigang_claims = all (§6.2.3): a revealed tile nobody won on may be claimed
          "reveal_claims": lambda ruleset: ruleset.kaigang_claims == "all",
          "sea_offer": True},
)

__all__ = ["CHANGSHA", "birds", "fans", "play", "qishou", "settlement", "wins"]
