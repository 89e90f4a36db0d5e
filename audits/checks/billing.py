"""Checks of the room's billing (钻石 diamonds): when the fee is charged, by whom, how
much, and refunds (catalogue group ``billing``).  What is due is the family's answer."""

from __future__ import annotations

from schema import events as ev

from ..context import AuditContext


def fee_charged(ctx: AuditContext, e: ev.FeeCharged) -> None:
    opened = ctx.table.opened
    if ctx.settled_hands == 0:
        ctx.early_fees.append(e)  # judged at the first settlement, or at close
    elif ctx.fee_events and (not ctx.fee_open or opened.billing == "creator"
                             or any(f.seat == e.seat for f in ctx.fee_events)):
        ctx.find("FEE_CHARGED_TWICE", e, seat=e.seat, actual=e.amount,
                 message=f"seat {e.seat} charged again; the fee was already charged at seq {ctx.fee_events[0].seq}")
    ctx.fee_events.append(e)
    ctx.fee_lines[e.seq] = ctx.line
    ctx.apply(e)


def fee_refunded(ctx: AuditContext, e: ev.FeeRefunded) -> None:
    opened = ctx.table.opened
    if not ctx.resized or opened.billing != "creator" or e.seat != ctx.table.creator:
        ctx.find("REFUND_UNEXPECTED", e, seat=e.seat, actual=e.amount,
                 message="a refund goes only to the creator of a 4→3 room under creator billing")
    ctx.refunds.append(e)
    ctx.apply(e)


def first_settlement(ctx: AuditContext, e: ev.HandSettled) -> None:
    """The first settlement opens the fee window; charges made before it were early."""
    if ctx.settled_hands:
        return
    ctx.fee_open = not ctx.early_fees
    for f in ctx.early_fees:
        ctx.find("FEE_CHARGED_EARLY", f, seat=f.seat, actual=f.amount, seq=f.seq,
                 message=f"the fee was charged at seq {f.seq}, before the first settlement at seq {e.seq}")


def close_fee_window(ctx: AuditContext, e: ev.Event) -> None:
    """The first settlement's billing window closes at ``e``: judge the charges made in it."""
    if not ctx.fee_open:
        return
    ctx.fee_open = False
    opened = ctx.table.opened
    due = [f for f in ctx.family.billing.fees_at_first_settlement(opened.billing, ctx.table.creator, opened.fee,
                                                                  len(opened.seats), ctx.n) if f.kind == "charged"]
    if not due:
        return
    if not ctx.fee_events:
        ctx.find("FEE_NOT_CHARGED", e, expected=opened.fee, actual=0,
                 message=f"the first hand was settled but the fee of {opened.fee} was not charged")
        return
    want = sorted((f.seat, f.amount) for f in due)
    got = sorted((f.seat, f.amount) for f in ctx.fee_events)
    if want != got and not any(x.code == "FEE_CHARGED_TWICE" for x in ctx.findings):
        # reported at the (first) FeeCharged line that does not match
        wrong = next((f for f in ctx.fee_events if (f.seat, f.amount) not in want), ctx.fee_events[0])
        ctx.find("FEE_AMOUNT", wrong, seat=wrong.seat, expected=[list(x) for x in want],
                 actual=[list(x) for x in got], message=f"{opened.billing} billing: charges (seat, amount) differ",
                 line=ctx.fee_lines.get(wrong.seq))


def game_closed(ctx: AuditContext, e: ev.GameClosed) -> None:
    """At the close: no fee for a dissolved room, and the 4→3 refund."""
    close_fee_window(ctx, e)
    opened = ctx.table.opened
    if ctx.settled_hands == 0 and ctx.fee_events:
        ctx.find("FEE_ON_DISSOLVED", e, expected=0, actual=sum(f.amount for f in ctx.fee_events),
                 message="no hand was settled, yet the room's fee was charged")
    if ctx.resized and ctx.fee_events:
        due = sum(f.amount for f in ctx.family.billing.fees_at_first_settlement(
            opened.billing, ctx.table.creator, opened.fee, len(opened.seats), ctx.n) if f.kind == "refunded")
        if due > 0:
            mine = [r for r in ctx.refunds if r.seat == ctx.table.creator]
            if not mine:
                ctx.find("REFUND_MISSING", e, seat=ctx.table.creator, expected=due, actual=0,
                         message="the room went from 4 to 3 seats but the creator got no refund")
            elif sum(r.amount for r in mine) != due:
                ctx.find("FEE_AMOUNT", e, seat=ctx.table.creator, expected=due, actual=sum(r.amount for r in mine),
                         message="the 4→3 refund is not fee // 4")
