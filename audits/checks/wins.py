"""Checks of wins: complete hands, enough fan, 过胡, 抢杠 and 一炮多响, then the fans and
points each winner logged (catalogue groups ``wins`` and ``scoring``)."""

from __future__ import annotations

from typing import Optional

from replay.claims import discard_win_has_tile
from replay.errors import ReplayError
from schema import events as ev
from schema.tiles import TILE_INDEX, format_hand

from ..context import AuditContext
from ..rules.family import Score
from . import claims, wild
from .tileset import check_played


_KONG_KINDS = {ev.KongAdded: "kong_added", ev.KongExposed: "kong_exposed", ev.KongConcealed: "kong_concealed",
               ev.TileSetAside: "tile_set_aside"}


def robbed_other_kong(ctx: AuditContext, e: ev.HandWon) -> bool:
    """The kong just declared is one the family does not let be robbed (a concealed or
    exposed kong, or a tile set aside: a single-tile kong such as 红中杠 / 癞子杠, or 补花)."""
    k = ctx.last_kong
    if k is None:
        return False
    kind = _KONG_KINDS[type(k)]
    return not ctx.family.claims.can_rob(kind)


def hand_won(ctx: AuditContext, e: ev.HandWon) -> None:
    # the table stands still until the win applies: each score asked while it is judged is made once
    ctx.win_scores = {}
    try:
        _judge_win(ctx, e)
    finally:
        ctx.win_scores = None


def _judge_win(ctx: AuditContext, e: ev.HandWon) -> None:
    t = ctx.table
    check_played(ctx, e, (e.tile,), None)
    ctx.family_checks(e, None)
    if e.how == "discard" and not discard_win_has_tile(t, e):
        # no tile to win on (not the last discard, nor a revealed one): the reducer names the
        # structural break before anything is scored on a table that never offered the tile
        ctx.apply(e)
    seats = [x.seat for x in e.winners]
    tile = TILE_INDEX[e.tile]
    # a single-winner rule (截和): the first legal declarer from the discarder's (adder's) 下家
    first = claims.single_winner(ctx, e)
    if ctx.indicator_due:
        wild.indicator_missed(ctx, e, seats[0] if seats else None)
    dead: list[int] = []
    missed: list[int] = []  # declared legal winners the log left out (一炮多响)
    if e.how == "discard":
        # a win on a dead discard is no win: the corrected ledger pays it nothing
        dead = [s for s in seats if wild.dead_claim(ctx, e, s, "win")]
        missed = claims.missed_wins(ctx, e, seats)
    elif e.how == "self_draw":
        # 自摸: the winner holds the turn with a fresh draw (or the dealer's first 14 tiles).
        ld = ctx.last_draw
        s0 = seats[0] if seats else -1
        fresh = (ld is not None and ld.seat == s0) or (ctx.first_turn and s0 == t.dealer)
        # a win on a tile revealed after the winner's own kong (开杠) is its self-draw
        revealed = 0 <= s0 < ctx.n and ctx.own_revealed(s0, tile)
        if len(seats) != 1 or not (revealed or fresh and t.phase == "discard" and t.turn == s0):
            ctx.find("TURN_ORDER", e, seat=seats[0] if seats else None,
                     expected=ld.seat if ld else "a player who just drew", actual=seats,
                     message="a self-draw win by a player who did not just draw")
    elif e.how == "robbed_kong":
        if robbed_other_kong(ctx, e) and e.from_seat == getattr(ctx.last_kong, "seat", None):
            kind = "rob_kong_exposed" if type(ctx.last_kong) is ev.KongExposed else "rob_kong_concealed"
            ctx.find(ctx.family.codes.get(kind, "ROB_CONCEALED_KONG"), e, seat=e.from_seat, expected="KongAdded",
                     actual=type(ctx.last_kong).__name__, message="抢杠 on a kong that was not an added kong (补杠)")
            raise ReplayError("reported", "", game=e.game, hand=t.hand, seq=e.seq)
        if not ctx.robbable:
            ctx.find("ROB_LATE", e, seat=seats[0] if seats else None, expected="right after KongAdded",
                     actual="after play moved on",
                     message="抢杠 logged after the adder took the replacement (play had moved on)")
        missed = claims.missed_robs(ctx, e, seats)
    late_rob = e.how == "robbed_kong" and not ctx.robbable
    scores, count, (scored_with, legal) = _scored(ctx, e, tile, late_rob, first)
    for x, (sc, barred, _legal) in zip(e.winners, scores):
        if sc is not None:
            _judge_winner(ctx, e, x, sc, tile, barred, count)
    for x, (sc, _b, _l) in zip(e.winners, scores):
        logged = ctx.family.scoring.winner_points
        want = logged(ctx.rules, x, sc) if logged is not None else ctx.family.scoring.points(x.fan, ctx.rules)
        if x.points != want:
            ctx.find("POINTS_MISMATCH", e, seat=x.seat, expected=want, actual=x.points,
                     message=f"{x.fan} fan pays {want} per payer, not {x.points}")
    if ctx.family.scoring.payer_points is not None:
        _payer_points(ctx, e, [sc for sc, _b, _l in scores])
    ctx.true_winners = _paid(ctx, e, tile, scores, first)
    ctx.missed_winners = frozenset(missed) if first is None else frozenset()
    if ctx.missed_winners:
        ctx.true_winners = _with_missed(ctx, e, tile, ctx.true_winners, missed)
    if dead:
        ctx.true_winners = [w for w in ctx.true_winners if w[0] not in dead]
    if e.how == "robbed_kong":
        claims.rob_chance_passed(ctx, seats)  # a seat that could rob and did not has let a win go
    ctx.rob_chance = None
    ctx.open_discard = None
    if ctx.explained is not None:
        ctx.won_pictures = [ctx.picture(x.seat, tile, e.how) if 0 <= x.seat < ctx.n else "?" for x in e.winners]
        # each winner's context as scored (the table before the win): its pasted paipu hand command
        ctx.won_contexts = [ctx.win_context(x.seat, tile, e.how, winners=scored_with, co_winners=legal - {x.seat})
                            if 0 <= x.seat < ctx.n else None for x in e.winners]
    ctx.apply(e)
    ctx.won = e
    ctx.won_scores = [sc for sc, _b, _l in scores]
    if ctx.first_won is None:
        ctx.first_won = e
    ctx.last_draw = None


def _payer_points(ctx: AuditContext, e: ev.HandWon, scores: list[Optional[Score]]) -> None:
    """Where pairs differ (dealer pairs, 连庄, caps), each payer's logged share (``Winner.payers``)
    against the family's ``payer_points``: POINTS_MISMATCH per payer."""
    fam, t = ctx.family, ctx.table
    facts = None
    for x, sc in zip(e.winners, scores):
        if not x.payers:
            continue
        if facts is None:
            facts = ctx.at_due_level(fam.settlement.table_facts(ctx.rules, t, e) if fam.settlement.table_facts
                                     is not None else fam.settlement.hand_facts(ctx.rules, t.received, t.bets))
        want = fam.scoring.payer_points(ctx.rules, x, sc, facts)
        for share in x.payers:
            due = want.get(share.seat)
            if due is not None and share.amount != due:
                ctx.find("POINTS_MISMATCH", e, seat=x.seat, expected=due, actual=share.amount,
                         message=f"seat {share.seat} owes seat {x.seat} {due}, not {share.amount}")


def _scored(ctx: AuditContext, e: ev.HandWon, tile: int, late_rob: bool, first: Optional[int]
            ) -> tuple[list[tuple[Optional[Score], Optional[str], bool]], int, tuple[int, frozenset]]:
    """Each logged winner's (score, the pass rule barring it or None, legal), the number of
    legal winners on the tile, and what the winners were scored with (the ``winners`` count,
    the legal winners whose co-winners they are).  Every count of winners (一炮三响's floor)
    counts legal winners only: under a single-winner rule that is the first legal declarer
    alone (a late rob is judged as late alone: the chance it let go is the same one)."""
    how = e.how
    out: list[tuple[Optional[Score], Optional[str], bool]] = []
    legal = _legal_winners(ctx, e, tile)
    for x in e.winners:
        s = x.seat
        if not 0 <= s < ctx.n:
            out.append((None, None, False))
            continue
        sc = ctx.score(s, tile, how, winners=len(e.winners), co_winners=legal - {s})
        barred = ctx.barred(s, "win", tile, how) if how != "self_draw" and not late_rob else None
        out.append((sc, barred, _wins(ctx, how, sc) and barred is None))
    count = 1 if first is not None else sum(1 for _, _, ok in out if ok)
    scored_with = len(e.winners)
    if how == "discard" and max(count, 1) != len(e.winners) and ctx.family.wins.win_context is not None:
        # the family scores a winner by how many win the discard (一炮三响): rescore by the legal ones
        scored_with = max(count, 1)
        out = [(ctx.score(x.seat, tile, how, winners=scored_with, co_winners=legal - {x.seat}), barred, ok)
               if sc is not None else (sc, barred, ok) for x, (sc, barred, ok) in zip(e.winners, out)]
    return out, max(count, 1), (scored_with, legal)


def _legal_winners(ctx: AuditContext, e: ev.HandWon, tile: int) -> frozenset:
    """The declarers that win legally where a winner's legality depends on who else wins the
    tile (``WinRules.legal_winners``: the seats that win do not pay), else none: each winner
    is then scored alone."""
    judge = ctx.family.wins.legal_winners
    if judge is None or len(e.winners) < 2:
        return frozenset()

    def wins_alone(seat: int, co_winners: frozenset) -> bool:
        sc = ctx.score(seat, tile, e.how, winners=len(e.winners), co_winners=co_winners)
        return _wins(ctx, e.how, sc) and ctx.barred(seat, "win", tile, e.how) is None

    return judge(ctx.rules, e, wins_alone) or frozenset()


def _wins(ctx: AuditContext, how: str, sc: Score) -> bool:
    """A complete hand that wins as scored: no family reason against it (缺门), enough fan."""
    return sc.complete and not sc.code and ctx.family.wins.fan_enough(ctx.rules, how, sc.capped)


def _paid(ctx: AuditContext, e: ev.HandWon, tile: int, scores, first: Optional[int]) -> list[tuple[int, int]]:
    """The winners the corrected ledger pays, as (seat, P): every legal winner, or under a
    single-winner rule the first legal declarer, whichever declarer the log paid."""
    if first is not None:
        for x, (sc, _b, _l) in zip(e.winners, scores):
            if x.seat == first and sc is not None:
                return [(first, sc.points)]
        return [(first, ctx.score(first, tile, e.how).points)]
    return [(x.seat, sc.points) for x, (sc, _b, ok) in zip(e.winners, scores) if ok]


def _with_missed(ctx: AuditContext, e: ev.HandWon, tile: int, paid: list[tuple[int, int]],
                 missed: list[int]) -> list[tuple[int, int]]:
    """The winners the corrected ledger pays under 一炮多响, the declared legal winners the log
    left out (``missed``, each a WIN_MISSED_MULTI) among them: every seat that declared a legal
    win on the tile wins it (new-families.md §1b: the ledger pays what the rules give for the
    declarations the log holds), in turn order from the discarder's (adder's) 下家, each scored
    with them all (a family may price a win by how many win the tile, 一炮三响, or by who else
    wins it and so does not pay)."""
    n, frm = ctx.n, e.from_seat
    seats = sorted({s for s, _p in paid} | set(missed), key=lambda s: (s - frm - 1) % n)
    everyone = frozenset(seats)
    return [(s, ctx.score(s, tile, e.how, winners=len(seats), co_winners=everyone - {s}).points) for s in seats]


def _judge_winner(ctx: AuditContext, e: ev.HandWon, x: ev.Winner, sc: Score, tile: int, barred: Optional[str],
                  winners: int) -> None:
    """One winner: complete, enough fan, not barred by a pass rule (``barred``: its code), and
    the fans logged (``winners``: the legal winners on the tile)."""
    s = x.seat
    if sc.complete and sc.code:  # the family names why a complete hand does not win (缺门)
        ctx.find(sc.code, e, seat=s, actual=format_hand(ctx.hand_tiles(s, tile, e.how)),
                 message=f"seat {s}'s hand with {e.tile} does not win: {sc.reason}")
        return
    if not sc.complete:
        ctx.find("WIN_INCOMPLETE", e, seat=s, actual=format_hand(ctx.hand_tiles(s, tile, e.how)),
                 message=f"seat {s}'s hand is not complete with {e.tile}")
        return
    if not ctx.family.wins.fan_enough(ctx.rules, e.how, sc.capped):
        t = ctx.table
        code = ctx.family.codes.get("below_min_fan", "WIN_ZERO_FAN_DISCARD")
        describe = ctx.family.wins.describe_wait
        special = describe(ctx.rules, t.hands[s], t.melds[s], tile) if describe is not None else ""
        if code == "WIN_ZERO_FAN_DISCARD":
            ctx.find(code, e, seat=s, expected=">= 1 fan", actual=sc.fan,
                     message=(f"{special} seat {s} won on a discarded {e.tile} without fan" if special else
                              f"seat {s} won on a discard with {sc.fan} fan (底和 is self-draw only)"))
        else:
            ctx.find(code, e, seat=s, expected=f">= {ctx.rules.min_fan} fan", actual=sc.capped,
                     message=f"seat {s} won with {sc.capped} fan, below the room's minimum")
    elif barred is not None:
        rule = {"WIN_DURING_GUOHU": "过胡", "WIN_DURING_GUOSHUI": "过水"}.get(barred, "漏和")
        ctx.find(barred, e, seat=s, message=f"seat {s} let a win go ({rule}) and has not drawn or claimed since")
    if (sorted(x.fans) != sorted(sc.fans) or x.fan != sc.fan) \
            and not _equal_reading(ctx, s, tile, e.how, x, sc, winners):
        finding = ctx.family.scoring.fan_finding
        code = finding(ctx.rules, x, sc) if finding is not None else "FAN_MISMATCH"
        if code:
            ctx.find(code, e, seat=s, expected={"fans": sc.fans, "fan": sc.fan},
                     actual={"fans": list(x.fans), "fan": x.fan})


def _equal_reading(ctx: AuditContext, seat: int, tile: int, how: str, logged: ev.Winner, best: Score,
                   winners: int = 1) -> bool:
    """Whether the logged fans are those of *another* reading with the same highest total
    (a hand read two ways scores either; both are right)."""
    if logged.fan != best.fan:
        return False
    fam = ctx.family
    ctx_win = ctx.win_context(seat, tile, how, winners=winners)
    want = sorted(logged.fans)
    return any(sorted(names) == want and total == best.fan
               for names, total, _ in fam.scoring.reading_fans(ctx.rules, ctx.hand_tiles(seat, tile, how),
                                                               ctx.table.melds[seat], ctx_win))
