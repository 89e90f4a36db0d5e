"""Checks of claims: 吃 碰 杠 on discards, kongs from the hand, priority and the passing
restrictions (catalogue group ``claims``).

Which seats could take a discard, whether a claim is legal, which claim ranks
higher and what a pass bars are the family's answers; this module keeps the
memories (the open discard, the declared claims, the pass book) and reports.
"""

from __future__ import annotations

from typing import Collection, Optional

from schema import events as ev
from schema.tiles import TILE_INDEX, TILE_NAMES

from ..context import NOBODY, AuditContext, OpenDiscard
from . import wild
from .tileset import check_played


def open_discard(ctx: AuditContext, seat: int, tile: int, seq: int) -> None:
    """Note who the discard is open to and which seats could pong or kong it (for the
    passes and priority).  A win on it is judged only when asked: by a declaration, a
    claim or a pass rule (the seat's hand stands until its own next draw or claim, when
    its passes end, so the judgement then is the judgement now)."""
    table = ctx.table
    could_pong, could_kong, rules, hands = ctx.could_pong, ctx.could_kong, ctx.rules, table.hands
    # most discards interest nobody: the sets are made only for a seat that could take it
    pong: "set[int] | frozenset[int]" = NOBODY
    kong: "set[int] | frozenset[int]" = NOBODY
    out = table.out  # seats that have won and left (血战); empty in most families
    if out:
        # the seats still in change only as a winner leaves (out only grows within a hand)
        known = ctx.others_in
        if known[0] != len(out):
            known = ctx.others_in = (len(out), tuple(tuple(s for s in o if s not in out) for o in ctx.others))
        others = known[1][seat]
    else:
        others = ctx.others[seat]
    for s in others:
        counts = hands[s]
        if counts[tile] >= 2:  # cheap pre-test: every pong or kong of a discard needs a pair of it
            if could_pong(rules, counts, tile):
                pong = {s} if pong is NOBODY else pong | {s}
            if could_kong(rules, counts, tile):
                kong = {s} if kong is NOBODY else kong | {s}
    # one record per game, filled afresh for each discard (no allocation on this hot path)
    d = ctx.discard_record
    d.seat, d.tile, d.seq, d.open_to_win, d.could_pong, d.could_kong = seat, tile, seq, others, pong, kong
    d.kong_discard = ctx.kong_discard
    if d.declared:
        d.declared = {}
    ctx.open_discard = d


def dead_discard(ctx: AuditContext) -> None:
    """The open discard is dead (the family's ``discard_rule``): it is open to no win and no
    claim, so no seat lets anything go by not taking it."""
    d = ctx.open_discard
    if d is not None:
        d.open_to_win = d.could_pong = d.could_kong = NOBODY


def moment_passed(ctx: AuditContext, e: ev.Event) -> None:
    """A new moment (a draw, a tile set aside): the 抢杠 chance and the open discard are
    settled with no taker, so a declared winner left out is WIN_MISSED_MULTI and every seat
    the chance was open to has let it go."""
    if ctx.rob_chance is not None:
        if ctx.rob_declared:
            missed_robs(ctx, e, [])
        rob_chance_passed(ctx)
    d = ctx.open_discard
    if d is not None:
        if d.declared:
            missed_wins(ctx, e, [])
        discard_settled(ctx)


def discard_settled(ctx: AuditContext, takers: Collection[int] = ()) -> None:
    """The open discard is settled: every seat it was open to that did not take it has let
    a win chance go (judged, like every chance, only if a pass rule asks), and every seat
    that could have ponged or konged it and did not has let that go (the family's pass
    book decides what each bars)."""
    d = ctx.open_discard
    if d is None:
        return
    ctx.open_discard = None
    passes = ctx.passes
    passes.let_wins_go(d.open_to_win, takers, d.tile, d.kong_discard)
    if not (d.could_pong or d.could_kong):
        return
    took = set(takers)
    for s in d.could_pong - took:
        passes.let_go(s, "pong", d.tile)
    for s in d.could_kong - took:
        passes.let_go(s, "kong", d.tile)


def rob_chance_passed(ctx: AuditContext, robbers: Collection[int] = ()) -> None:
    """The added kong's rob chance is over (nobody robbed it, or ``robbers`` did): every
    other seat that could have robbed it has let a win go."""
    if ctx.rob_chance is not None:
        for s in ctx.rob_chance[2]:
            if s not in robbers:
                ctx.passes.let_rob_go(s, ctx.rob_chance[1])
        ctx.rob_chance = None


def _legal_declared(ctx: AuditContext, d: OpenDiscard, seat: int, claim: str) -> bool:
    """A declared claim counts only if the seat could make it and no pass rule bars it."""
    if seat not in d.could(claim):
        return False
    if claim == "win" and not ctx.legal_win_on(seat, d.tile, d.kong_discard):
        return False
    tile = d.tile
    return ctx.barred(seat, claim, tile) is None


def missed_wins(ctx: AuditContext, e: ev.Event, winners: list[int]) -> list[int]:
    """一炮多响: every seat that declared a legal win on the discard is a winner (a room
    with ``multi_win`` off lets one seat win a discard: :func:`single_winner`, 截和).
    Returns the declared legal winners left out (each a WIN_MISSED_MULTI)."""
    d = ctx.open_discard
    if d is None or not d.declared or not ctx.rules.multi_win:
        return []
    missed = []
    for s, declared in sorted(d.declared.items()):
        if "win" in declared and s not in winners and _legal_declared(ctx, d, s, "win"):
            missed.append(s)
            ctx.find("WIN_MISSED_MULTI", e, seat=s, expected=sorted(winners + [s]), actual=winners,
                     message=f"seat {s} declared a legal win on seat {d.seat}'s {TILE_NAMES[d.tile]} "
                             "but is not a winner")
    return missed


def missed_robs(ctx: AuditContext, e: ev.Event, winners: list[int]) -> list[int]:
    """一炮多响 on an added kong: every seat that declared a legal rob of it robs it (a
    declared legal robber left out is WIN_MISSED_MULTI; ``multi_win`` off: :func:`single_winner`).
    Returns the declared legal robbers left out."""
    declared = ctx.rob_declared
    if not declared or ctx.rob_chance is None or not ctx.rules.multi_win:
        return []
    adder, tile = ctx.rob_chance[0], ctx.rob_chance[1]
    missed = []
    for s in sorted(declared):
        if s not in winners and s != adder and 0 <= s < ctx.n and ctx.legal_rob(s, tile):
            missed.append(s)
            ctx.find("WIN_MISSED_MULTI", e, seat=s, expected=sorted(winners + [s]), actual=winners,
                     message=f"seat {s} declared a legal rob of seat {adder}'s added kong of {TILE_NAMES[tile]} "
                             "but is not a winner")
    return missed


def first_legal_declarer(ctx: AuditContext, e: ev.HandWon) -> Optional[int]:
    """The first seat in turn order from the discarder's (the kong adder's) 下家 that declared
    a legal win on the tile (a logged winner counts as declared), or None."""
    n = ctx.n
    tile = TILE_INDEX[e.tile]
    winners = {x.seat for x in e.winners}
    if e.how == "discard":
        d = ctx.open_discard
        if d is None:
            return None
        declared = winners | {s for s, claims in d.declared.items() if "win" in claims}

        def legal(s: int) -> bool:
            return s in d.open_to_win and ctx.legal_win_on(s, d.tile, d.kong_discard, declared_win=s in winners) \
                and ctx.barred(s, "win", d.tile) is None
    else:
        declared = winners | ctx.rob_declared

        def legal(s: int) -> bool:
            return s != e.from_seat and ctx.legal_rob(s, tile)
    order = [(e.from_seat + k) % n for k in range(1, n)]
    return next((s for s in order if s in declared and legal(s)), None)


def single_winner(ctx: AuditContext, e: ev.HandWon) -> Optional[int]:
    """A single-winner rule (``multi_win`` off, 截和): only the first legal declarer in turn
    order from the discarder's (the kong adder's) 下家 wins a discard or a robbed kong.  A
    winner after it (a second winner paid, or the wrong one winning alone) took the tile
    over a higher claim: CLAIM_PRIORITY on that winner.  Returns the seat the corrected
    ledger pays (the first legal declarer, whichever declarer the log paid), or None
    where the rule does not apply (``multi_win`` on, a self-draw) or nobody could win."""
    if ctx.rules.multi_win or e.how == "self_draw" or e.from_seat is None or not 0 <= e.from_seat < ctx.n:
        return None
    first = first_legal_declarer(ctx, e)
    if first is not None:
        for x in e.winners:
            if x.seat != first:
                ctx.find("CLAIM_PRIORITY", e, seat=x.seat, expected=f"seat {first} win", actual=f"seat {x.seat} win",
                         message=f"single winner (multi_win off, 截和): seat {x.seat} won seat {e.from_seat}'s "
                                 f"{e.tile} over seat {first}'s win, first in turn order")
    return first


def claim_declared(ctx: AuditContext, e: ev.ClaimDeclared) -> None:
    d = ctx.open_discard
    if d is not None and 0 <= e.seat < ctx.n:
        d.declared.setdefault(e.seat, set()).add(e.claim)
    elif ctx.robbable and e.claim == "win":  # a declaration on the added kong's tile (抢杠)
        ctx.rob_declared.add(e.seat)
    ctx.apply(e)


def claim_passed(ctx: AuditContext, e: ev.ClaimPassed) -> None:
    ctx.apply(e)


def _priority(ctx: AuditContext, e: ev.Event, seat: int, claim: str) -> None:
    """No one takes a discard over a higher legal claim declared on it (the family's ranks)."""
    d = ctx.open_discard
    by_seat = d.declared if d is not None else None
    if not by_seat or (len(by_seat) == 1 and seat in by_seat):  # no other seat declared a claim
        return
    rank = ctx.family.claims.claim_rank
    mine = rank[claim]
    for s, declared in sorted(d.declared.items()):
        if s == seat:
            continue
        for c in declared:
            if rank.get(c, 0) > mine and _legal_declared(ctx, d, s, c):
                ctx.find("CLAIM_PRIORITY", e, seat=seat, expected=f"seat {s} {c}", actual=f"seat {seat} {claim}",
                         message=f"seat {seat}'s {claim} was taken over seat {s}'s declared {c}")
                return


def _pass_rule(ctx: AuditContext, e: ev.Event, seat: int, claim: str, tile: int) -> None:
    """A pong or a kong barred by a pass of it (过手碰 / 过手杠)."""
    code = ctx.barred(seat, claim, tile) if 0 <= seat < ctx.n else None
    if code is not None:
        name = TILE_NAMES[tile]
        what = {"GUOSHOU_PENG": "a pong", "GUOSHOU_GANG": "a kong"}.get(code, "a win")
        ctx.find(code, e, seat=seat, actual=name,
                 message=f"seat {seat} passed {what} of {name} since its last draw or claim")


def _after_meld(ctx: AuditContext, seat: int) -> None:
    ctx.passes.clear(seat)
    ctx.seat_changed(seat)
    ctx.last_draw = None
    ctx.tail_drawn[seat] = False


def chowed(ctx: AuditContext, e: ev.Chowed) -> None:
    seat = e.seat
    check_played(ctx, e, (e.tile, *e.tiles), seat)
    wild.dead_claim(ctx, e, seat, "chow")
    ctx.family_checks(e, seat)
    ctx.violated(ctx.family.claims.check_chow(ctx.rules, ctx.n, seat, e.from_seat, TILE_INDEX[e.tile],
                                              [TILE_INDEX[x] for x in e.tiles]), e, seat)
    _priority(ctx, e, seat, "chow")
    discard_settled(ctx, (seat,))
    ctx.apply(e)
    _after_meld(ctx, seat)


def ponged(ctx: AuditContext, e: ev.Ponged) -> None:
    seat = e.seat
    check_played(ctx, e, (e.tile, *e.tiles), seat)
    wild.dead_claim(ctx, e, seat, "pong")
    ctx.family_checks(e, seat)
    tile = TILE_INDEX[e.tile]
    ctx.violated(ctx.family.claims.check_pong(ctx.rules, seat, e.from_seat, tile, [TILE_INDEX[x] for x in e.tiles]),
                 e, seat)
    _pass_rule(ctx, e, seat, "pong", tile)
    _priority(ctx, e, seat, "pong")
    discard_settled(ctx, (seat,))
    ctx.apply(e)
    _after_meld(ctx, seat)


def kong_exposed(ctx: AuditContext, e: ev.KongExposed) -> None:
    seat = e.seat
    check_played(ctx, e, (e.tile, *e.tiles, e.kind), seat)
    wild.dead_claim(ctx, e, seat, "kong")
    ctx.family_checks(e, seat)
    kind = TILE_INDEX[e.kind]
    ctx.violated(ctx.family.claims.check_exposed_kong(ctx.rules, seat, e.from_seat, kind, TILE_INDEX[e.tile],
                                                      [TILE_INDEX[x] for x in e.tiles]), e, seat)
    _pass_rule(ctx, e, seat, "kong", kind)
    _priority(ctx, e, seat, "kong")
    discard_settled(ctx, (seat,))
    tail_full(ctx, e)
    ctx.apply(e)
    _after_meld(ctx, seat)
    ctx.last_kong = e


def _own_turn(ctx: AuditContext, e: ev.Event, seat: int) -> None:
    if ctx.indicator_due:
        wild.indicator_missed(ctx, e, seat)
    t = ctx.table
    if t.phase != "discard" or seat != t.turn:
        ctx.find("TURN_ORDER", e, seat=seat, expected=t.turn, actual=seat,
                 message=f"seat {seat} declares a kong from hand out of turn")


def kong_added(ctx: AuditContext, e: ev.KongAdded) -> None:
    seat = e.seat
    check_played(ctx, e, (e.tile, e.kind), seat)
    kind = TILE_INDEX[e.kind]
    tile = TILE_INDEX[e.tile]
    discard_settled(ctx)
    _own_turn(ctx, e, seat)
    ctx.family_checks(e, seat)
    ctx.violated(ctx.family.claims.check_added_kong(ctx.rules, kind, tile), e, seat)
    tail_full(ctx, e)
    ctx.apply(e)
    _after_meld(ctx, seat)
    ctx.last_kong = e
    ctx.robbable = ctx.family.claims.can_rob("kong_added")
    if ctx.rob_declared:
        ctx.rob_declared = set()
    # 抢杠: the seats whose hand is complete with the added tile may rob it
    robbers = [s for s in range(ctx.n) if s != seat and ctx.completes(s, tile)] if ctx.robbable else []
    ctx.rob_chance = (seat, tile, robbers) if robbers else None


def kong_concealed(ctx: AuditContext, e: ev.KongConcealed) -> None:
    seat = e.seat
    check_played(ctx, e, (*e.tiles, e.kind), seat)
    discard_settled(ctx)
    _own_turn(ctx, e, seat)
    ctx.family_checks(e, seat)
    ctx.violated(ctx.family.claims.check_concealed_kong(ctx.rules, TILE_INDEX[e.kind],
                                                        [TILE_INDEX[x] for x in e.tiles]), e, seat)
    tail_full(ctx, e)
    ctx.apply(e)
    _after_meld(ctx, seat)
    ctx.last_kong = e
    ctx.robbable = False


def tail_full(ctx: AuditContext, e: ev.Event) -> None:
    """The family's face-up tail pool (翻屁股: two tiles) is full whenever play goes on."""
    pool = ctx.tail_pool
    if len(ctx.table.tail) != pool and not ctx.tail_reported:
        ctx.tail_reported = True
        ctx.find("TAIL_REFILL_WRONG", e, expected=pool, actual=len(ctx.table.tail),
                 message=f"{len(ctx.table.tail)} tail tiles face up, not {pool}")
