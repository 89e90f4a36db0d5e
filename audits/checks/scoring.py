"""Checks of money: pig bets, every transfer recomputed by the family's settlement, the
scores, the game's end; and the corrected ledger (catalogue group ``scoring``).

The checks are step-wise (transfers against the logged points, scores against the
logged transfers), so one server bug gives one finding; the corrected ledger
instead carries the true amounts forward.
"""

from __future__ import annotations

import typing
from typing import Callable, Optional

from schema import events as ev
from schema.tiles import TILE_NAMES

from ..catalogue import CATALOGUE
from ..context import AuditContext
from ..explain import settlement_record, winner_record
from ..ledger import expected_transfers, net_of, show_pairs, sums_by_pair
from . import billing


def bet_placed(ctx: AuditContext, e: ev.PigBetPlaced) -> None:
    seat = e.seat
    if 0 <= seat < ctx.n:
        dealt = ctx.table.phase != "dealing"
        v = ctx.family.settlement.check_bet(ctx.rules, e.bet, ctx.bet_placed[seat], dealt)
        if v is not None:
            ctx.find(v.code, e, seat=seat, expected=v.expected, actual=v.actual, message=v.message)
        else:
            # the family's own rules on a side bet (Wenzhou 买底: only before a dealership's first hand)
            ctx.family_checks(e, seat)
        ctx.bet_placed[seat] = True
    ctx.apply(e)


def game_should_have_ended(ctx: AuditContext, e: ev.HandStarted) -> None:
    """The family's end condition (敲锣: a player at 0) holds, yet a hand starts."""
    if ctx.rules is not None and ctx.settled_hands and not ctx.knocked_reported \
            and ctx.family.settlement.game_over(ctx.rules, ctx.logged):
        ctx.knocked_reported = True
        ctx.find("GAME_NOT_ENDED_AT_ZERO", e, expected="GameClosed", actual=f"hand {e.hand}",
                 message=f"a player is at 0 ({ctx.logged}) yet hand {e.hand} starts")


def hand_settled(ctx: AuditContext, e: ev.HandSettled) -> None:
    t = ctx.table
    fam, rules, n = ctx.family, ctx.rules, ctx.n
    before = list(ctx.logged)
    won = ctx.won
    book = ctx.hand_book
    if t.phase not in ("won", "drawn") and book is None:  # a family with a hand book judges the end itself
        ctx.find("STRUCTURAL_BREAK", e, actual="settlement", message="a hand settled before it ended")
    facts = fam.settlement.table_facts(rules, t, won) if fam.settlement.table_facts is not None else \
        fam.settlement.hand_facts(rules, t.received, t.bets)
    logged_level = facts.dealer_level
    facts = ctx.at_due_level(facts)  # a wrong logged dealer level: priced at the rotation's
    note = f" (dealer pairs priced at dealer level {facts.dealer_level}, the rotation's; the log names level " \
        f"{logged_level})" if facts.dealer_level != logged_level else ""
    if book is not None:  # the family's hand book: the logged amounts first, the audit's own below
        facts = facts._replace(extra=(book, False))
    how = won.how if won else None
    frm = won.from_seat if won else None
    logged_winners = [(x.seat, x.points) for x in won.winners] if won else []
    paid = expected_transfers(rules, n, how, logged_winners, frm, facts, before)
    got = list(e.transfers)
    # what is due without the floor is settled only when a group differs (the floor's question)
    _compare_transfers(ctx, e, how, lambda: expected_transfers(rules, n, how, logged_winners, frm, facts),
                       paid, got, before, (logged_winners, frm, facts), note)
    want_scores = [b + d for b, d in zip(before, net_of(got, n))]
    if list(e.scores) != want_scores:
        ctx.find("SCORE_CONTINUITY", e, expected=want_scores, actual=list(e.scores))
    # the corrected ledger: the family's fans for every legal win, corrections carried forward
    true_winners = list(ctx.true_winners) if won else []
    if book is not None:
        facts = facts._replace(extra=(book, True))
    if book is None and true_winners == logged_winners and ctx.ledger == before:
        corrected = paid  # the same settlement of the same winners from the same scores
    else:
        corrected = expected_transfers(rules, n, how, true_winners, frm, facts, ctx.ledger)
    ctx.ledger = [b + d for b, d in zip(ctx.ledger, net_of(corrected, n))]
    if ctx.explained is not None:
        pictures, contexts = ctx.won_pictures, ctx.won_contexts
        indicator = TILE_NAMES[t.indicator] if t.indicator is not None else None
        winners = [winner_record(fam, rules, x, sc, pictures[i] if i < len(pictures) else "", indicator,
                                 contexts[i] if i < len(contexts) else None)
                   for i, (x, sc) in enumerate(zip(won.winners, ctx.won_scores))] if won else []
        rec = settlement_record(fam, won, winners, facts, corrected, e, ctx.ledger)
        if book is not None:
            rec["steps"] = list(getattr(book, "lines", []))
        elif fam.settlement.derivation is not None:
            rec["steps"] = fam.settlement.derivation(rules, n, true_winners, how, frm, facts)
        ctx.explained.append(rec)
    billing.first_settlement(ctx, e)
    ctx.settled_hands += 1
    ctx.apply(e)
    ctx.logged = list(e.scores)
    ctx.audit.logged_scores.append(list(e.scores))
    ctx.audit.ledger.append(list(ctx.ledger))
    ctx.audit.ledger_hands.append(t.hand)
    first = ctx.first_won
    if fam.table.rotation is not None:
        ctx.next_dealer, ctx.next_level = fam.table.rotation(
            rules, t, ([x.seat for x in first.winners], first.how, first.from_seat) if first else None, n)
    elif fam.table.dealer_after is not None:
        more = {"table": t, "book": book} if fam.table.dealer_reads_table else {}
        ctx.next_dealer = fam.table.dealer_after(rules, t.dealer, ([x.seat for x in first.winners], first.how,
                                                                   first.from_seat) if first else None, n, **more)
    elif won:
        ctx.next_dealer = fam.table.next_dealer(t.dealer, [x.seat for x in won.winners], won.how, won.from_seat)
    else:
        ctx.next_dealer = fam.table.next_dealer(t.dealer, [], None, None)


#: The payments compared as per-player nets, in words (点鸡 is the only such group today).
_NET_WORDS = {"dianji": "点鸡 chicken"}

#: Every payment reason a log may carry.
_ALL_REASONS: tuple[str, ...] = typing.get_args(ev.TransferReason)
_GROUPS: dict[tuple, tuple] = {}


def transfer_groups(settlement) -> tuple[tuple[tuple[str, ...], str], ...]:
    """The family's groups of compared reasons, its first (the win's) also taking every reason
    it names in no group: a payment the family's rules never make (kong money in Qujing, birds
    outside 长沙) is a wrong payment, never one the audit leaves unseen."""
    key = (settlement.transfer_groups, settlement.net_reasons[0])
    got = _GROUPS.get(key)
    if got is None:
        named = {r for reasons, _code in key[0] for r in reasons} | set(key[1])
        (first, code), *rest = key[0]
        got = _GROUPS[key] = ((first + tuple(r for r in _ALL_REASONS if r not in named), code), *rest)
    return got


def _nets(transfers, reasons: tuple[str, ...], n: int) -> list[int]:
    return net_of((t for t in transfers if t.reason in reasons), n)


def _compare_transfers(ctx: AuditContext, e: ev.HandSettled, how: Optional[str],
                       due_of: Callable[[], list[ev.Transfer]], paid: list[ev.Transfer], got: list[ev.Transfer],
                       before: list[int], hand=None, note: str = "") -> None:
    """Each group of transfers (the family's groups) against what the settlement pays
    (``due_of``: what it would pay without the floor, settled when asked); a family with
    ``pair_totals`` compares each group's total per (payer, payee).  ``note``: what the
    settlement was priced at besides the log (a corrected dealer level), added to a mismatch."""
    fam, n = ctx.family, ctx.n
    if fam.settlement.pair_totals:
        _compare_pair_totals(ctx, e, how, paid, got, hand)
        return
    net_reasons, net_code = fam.settlement.net_reasons
    groups = transfer_groups(fam.settlement)
    if sums_by_pair(paid) == sums_by_pair(got):
        # every pair's amount per reason agrees, so does every group and every net: only
        # the order of a 一炮多响's payments is left to judge
        bad, nets_bad = [], False
    else:
        bad = [(reasons, code) for reasons, code in groups
               if sums_by_pair(paid, reasons) != sums_by_pair(got, reasons)]
        nets_bad = _nets(paid, net_reasons, n) != _nets(got, net_reasons, n)
    if (bad or nets_bad) and sums_by_pair(due := due_of()) != sums_by_pair(paid):
        # a floor (20分敲锣) cut some payment: the server paid the full amounts instead
        if all(sums_by_pair(due, r) == sums_by_pair(got, r) for r, _ in groups) \
                and _nets(due, net_reasons, n) == _nets(got, net_reasons, n):
            ctx.find("SCORE_BELOW_ZERO", e, expected=show_pairs(sums_by_pair(paid)),
                     actual=show_pairs(sums_by_pair(got)),
                     message=f"a payer paid more than they held (scores before {before})")
            return
    win_group = groups[0]
    # 一炮多响 paid in the settlement's order, where the family says the order is a rule
    if how == "discard" and fam.settlement.payment_order and _paid_out_of_order(ctx, e, win_group[0], paid, got):
        bad = [b for b in bad if b != win_group]  # the order explains the amounts (a floor clamps by order)
    for reasons, code in bad:
        code = fam.settlement.transfer_code(how, code, sums_by_pair(paid, reasons), sums_by_pair(got, reasons))
        ctx.find(code, e, expected=show_pairs(sums_by_pair(paid, reasons)),
                 actual=show_pairs(sums_by_pair(got, reasons)), message=CATALOGUE[code].rule + note if note else "")
    if nets_bad:
        ctx.find(net_code, e, expected=_nets(paid, net_reasons, n), actual=_nets(got, net_reasons, n),
                 message=f"what each player nets from the {' and '.join(_NET_WORDS.get(r, r) for r in net_reasons)} "
                         "payments differs from what the rules give")


def _compare_pair_totals(ctx: AuditContext, e: ev.HandSettled, how: Optional[str], paid: list[ev.Transfer],
                         got: list[ev.Transfer], hand) -> None:
    """Each group's total per (payer, payee) against the settlement's; the family's
    ``explain_pair`` may name what explains a wrong total (its birds, its opening base)."""
    fam = ctx.family
    if paid == got:  # the same transfers in the same order: every group's pair totals agree
        return
    for reasons, code in transfer_groups(fam.settlement):
        want, have = sums_by_pair(paid, reasons, True), sums_by_pair(got, reasons, True)
        if want == have:
            continue
        named = None
        if fam.settlement.explain_pair is not None and hand is not None:
            winners, frm, facts = hand
            named = fam.settlement.explain_pair(ctx.rules, ctx.n, how, winners, frm, facts, want, have)
        ctx.find(named or fam.settlement.transfer_code(how, code, want, have), e,
                 expected=show_pairs(want), actual=show_pairs(have))


def _paid_out_of_order(ctx: AuditContext, e: ev.HandSettled, win_reasons: tuple[str, ...],
                       paid: list[ev.Transfer], got: list[ev.Transfer]) -> bool:
    """一炮多响: the winners are paid in the order the settlement pays them (seat order from
    the discarder's next seat); reported on the order alone."""
    want = [t.payee for t in paid if t.reason in win_reasons]
    order = [t.payee for t in got if t.reason in win_reasons]
    if len(set(want)) > 1 and order != want and sorted(order) == sorted(want):
        ctx.find("MULTI_WIN_ORDER", e, expected=want, actual=order)
        return True
    return False


def game_closed_scores(ctx: AuditContext, e: ev.GameClosed) -> None:
    if list(e.scores) != ctx.logged:
        ctx.find("SCORE_MISMATCH", e, expected=list(ctx.logged), actual=list(e.scores))
