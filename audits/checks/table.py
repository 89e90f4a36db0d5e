"""Checks of the table: the room, the wall and the tail, hand sizes, whose turn, the
exhaustive draw and the dealer (catalogue group ``table``).

Each handler judges one event against the family's rules, applies it through the
context (the reducer's one checked path) and updates the context's memories.
"""

from __future__ import annotations

from msgspec import UNSET

from schema import events as ev
from schema.ruleset import RulesetError, resolve
from schema.tiles import ALL_KINDS, NUM_KINDS, TILE_INDEX, TILE_NAMES, copies_in_set, format_hand

from ..context import AuditContext
from ..rules.family import PLAIN_DISCARD
from ..explain import game_record
from . import billing, claims, scoring, wild
from .tileset import SET_LABELS, check_in_set


def opened(ctx: AuditContext, e: ev.GameOpened) -> None:
    """After the opening was applied: adopt the ruleset and judge the room as opened."""
    ctx.adopt_rules()
    a = ctx.audit
    a.server = e.server
    a.build = e.build
    # The seats a log names must match its players option; the table plays with the seats.
    try:
        declared = resolve(e.preset, {k: v for k, v in _options(e).items() if v is not None})
    except RulesetError:
        declared = ctx.rules
    ctx.violated(ctx.family.settlement.check_room(declared, e.seats, e.start_points), e, None)
    if ctx.explained is not None:
        ctx.explained.append(game_record(e))


def _options(e: ev.GameOpened) -> dict:
    import msgspec
    return msgspec.structs.asdict(e.options)


def resized(ctx: AuditContext, e: ev.RoomResized) -> None:
    ctx.apply(e)
    ctx.resized = True
    ctx.adopt_rules()


def hand_started(ctx: AuditContext, e: ev.HandStarted) -> None:
    if ctx.rules is not ctx.table.ruleset:  # the last hand played with its turned wild
        ctx.bind_rules(ctx.table.ruleset)
    billing.close_fee_window(ctx, e)
    scoring.game_should_have_ended(ctx, e)
    # The dealer: the family's first dealer, then its rotation from the last result.
    want = ctx.next_dealer
    if want is None and ctx.table.hand == 0:
        want = ctx.family.table.first_dealer(ctx.table.creator)
    if want is not None and e.dealer != want:
        ctx.find("DEALER_ROTATION", e, seat=e.dealer, expected=want, actual=e.dealer)
    # a logged dealer level (连庄): 1 in the first hand, then the family's rotation
    level = e.dealer_level
    ctx.level_due = None
    if level is not UNSET:
        want_level = 1 if ctx.table.hand == 0 else ctx.next_level
        if want_level is not None and level != want_level:
            ctx.find("DEALER_ROTATION", e, seat=e.dealer, expected=f"dealer_level {want_level}",
                     actual=f"dealer_level {level}",
                     message=f"hand {e.hand} is logged at dealer level {level}, not {want_level}; its money "
                             f"is judged and corrected at level {want_level}")
            # the hand's dealer pairs are priced at the rotation's level (the corrected ledger)
            ctx.level_due = want_level
    elif ctx.table.hand > 0 and ctx.next_level is not None:
        # no logged level (it is optional): the hand is at the rotation's level, which a drawn
        # hand may keep (stay_same_level) where the dealer's streak counts on
        ctx.level_due = ctx.next_level
    if e.wall and max(map(TILE_INDEX.__getitem__, e.wall)) >= ctx.set_limit:
        label = SET_LABELS[ctx.set_limit][0]
        ctx.find("TILE_NOT_IN_SET", e, message=f"the wall holds tiles outside {label}")
    ctx.apply(e)
    # the family's own rules on the hand as started (Guangdong: the logged winds)
    ctx.family_checks(e, None)
    ctx.reset_hand()
    if ctx.family.own.hand_book is not None:
        ctx.hand_book = ctx.family.own.hand_book(ctx.rules, ctx.n, e.dealer)
    if ctx.explained is not None:
        ctx.explained.append({"kind": "hand", "hand": e.hand, "dealer": e.dealer})


def dealt(ctx: AuditContext, e: ev.TilesDealt) -> None:
    t = ctx.table
    wall = t.wall
    dealt_tiles = [TILE_INDEX[x] for h in e.hands for x in h]
    if dealt_tiles and max(dealt_tiles) >= ctx.set_limit:
        check_in_set(ctx, e, [x for h in e.hands for x in h], None)
    ctx.apply(e)
    # a room that turns its wild awaits the indicator before the dealer's first action
    ctx.indicator_due = ctx.rules.wild_from != "preset" and t.indicator is None
    dealer = t.dealer
    seen = ctx.seen
    size = ctx.rules.hand_size
    for s, tiles in enumerate(e.hands):
        want = size + 1 if s == dealer else size
        if len(tiles) != want:
            ctx.find("HAND_SIZE", e, seat=s, expected=want, actual=len(tiles),
                     message=f"seat {s} was dealt {len(tiles)} tiles, not {want}")
            ctx.size_reported.add(s)
    for k in dealt_tiles:
        seen[k] += 1
    check_overcount(ctx, e)
    if wall is not None and len(wall) == t.total:
        # The dealer takes the wall's first hand_size + 1 tiles (14), then hand_size (13) each
        # from the dealer's next seat on.
        pos = size + 1
        spans = {dealer: (0, pos)}
        for k in range(1, ctx.n):
            spans[(dealer + k) % ctx.n] = (pos, pos + size)
            pos += size
        for s, tiles in enumerate(e.hands):
            a, b = spans.get(s, (0, 0))
            if sorted(map(TILE_INDEX.__getitem__, tiles)) != sorted(wall[a:b]):
                ctx.find("DRAW_NOT_WALL_ORDER", e, seat=s, expected=format_hand(wall[a:b]),
                         actual=format_hand([TILE_INDEX[x] for x in tiles]),
                         message=f"seat {s}'s deal is not wall[{a}:{b}]")


def none_over(seen: list[int]) -> bool:
    """No kind seen more often than the set holds it (:func:`~schema.tiles.copies_in_set`:
    four copies of each kind, one of each flower)."""
    return max(seen[:NUM_KINDS]) <= 4 and max(seen[NUM_KINDS:], default=0) <= 1


def check_overcount(ctx: AuditContext, e: ev.Event) -> None:
    """No tile appears in one hand's play more often than the set holds it: four copies of
    each kind, one of each flower."""
    seen = ctx.seen
    if none_over(seen):  # the usual answer (every flower drawn asks), without a pass per kind
        return
    for k in range(ALL_KINDS):
        copies = copies_in_set(k)
        if seen[k] > copies and k not in ctx.overcount_reported:
            ctx.overcount_reported.add(k)
            ctx.find("TILE_OVERCOUNT", e, expected=copies, actual=seen[k],
                     message=f"{TILE_NAMES[k]} appears {seen[k]} times in this hand")


def tail_turned(ctx: AuditContext, e: ev.TailTurned) -> None:
    check_in_set(ctx, e, e.tiles, None)
    t = ctx.table
    wall = t.wall
    if wall is not None and len(wall) == t.total:
        want = [wall[t.wall_tail - k] for k in range(len(e.tiles)) if t.wall_tail - k >= 0]
        got = [TILE_INDEX[x] for x in e.tiles]
        if got != want:
            ctx.find("DRAW_NOT_WALL_ORDER", e, expected=[TILE_NAMES[x] for x in want], actual=list(e.tiles),
                     message="the turned tail tiles are not the wall's last tiles in order")
    pool = ctx.tail_pool
    if len(t.tail) + len(e.tiles) > pool:
        ctx.find("TAIL_REFILL_WRONG", e, expected=pool, actual=len(t.tail) + len(e.tiles),
                 message=f"more than {pool} tail tiles face up")
    ctx.apply(e)
    for name in e.tiles:
        k = TILE_INDEX[name]
        ctx.seen[k] += 1
        if ctx.seen[k] > 4 or k >= NUM_KINDS:
            check_overcount(ctx, e)
    ctx.tail_reported = False


def tile_drawn(ctx: AuditContext, e: ev.TileDrawn) -> None:
    if ctx.rob_chance is not None:
        claims.moment_passed(ctx, e)
    else:
        d = ctx.open_discard
        if d is not None:  # the last discard, untaken: settled here (claims.moment_passed, inline)
            if d.declared:
                claims.missed_wins(ctx, e, [])
            claims.discard_settled(ctx)
    t = ctx.table
    seat = e.seat
    tile = TILE_INDEX[e.tile]
    if tile >= ctx.set_limit:
        check_in_set(ctx, e, (e.tile,), seat)
    if e.source == "wall":
        # the turn's draw (most events) is no kong replacement and in turn: only an
        # off-turn draw needs the replacement and turn checks (or the family names the drawer)
        drawer = None
        if ctx.next_drawer is not None and t.phase == "draw":
            # the family's drawer, else the turn's seat
            drawer = ctx.next_drawer(ctx.rules, t)
            if drawer is None:
                drawer = t.turn
        elif ctx.next_drawer is not None and t.phase == "discard":
            # a draw-only turn (a 海底 phase) where the family names who draws while the last
            # drawer keeps its tiles
            drawer = ctx.next_drawer(ctx.rules, t)
        if drawer is not None:
            # a wall draw in a family that names the drawer at times: no replacement, and the
            # drawer must be that seat
            replacement = False
            if seat != drawer:
                ctx.find("TURN_ORDER", e, seat=seat, expected=drawer, actual=seat,
                         message=f"seat {seat} draws out of turn")
        else:
            replacement = (t.phase != "draw" or seat != t.turn) and _off_turn_wall_draw(ctx, e, t, seat)
        if not replacement and t.undrawn <= ctx.max_reserve:
            exhaustion_missed(ctx, e, seat)
        wall = t.wall
        if wall is not None and len(wall) == t.total and t.wall_head <= t.wall_tail and wall[t.wall_head] != tile:
            ctx.find("DRAW_NOT_WALL_ORDER", e, seat=seat, expected=TILE_NAMES[wall[t.wall_head]],
                     actual=e.tile, message=f"draw #{t.wall_head} of the wall")
        seen = ctx.seen
        seen[tile] += 1
        if seen[tile] > 4 or tile >= NUM_KINDS:
            check_overcount(ctx, e)
    else:
        replacement = _tail_draw(ctx, e, t, seat, tile)
    ctx.apply_drawn(e)
    # 过手碰 / 过手杠 / 过胡 last until the player's own next draw.
    ctx.passes.clear(seat)
    # the seat's hand changed (seat_changed, inline on this hot path); what was known of
    # the hand before the draw is kept for a discard of the drawn tile (摸切)
    ctx.kept_tile[seat] = tile
    waits = ctx.waits
    ctx.kept_waits[seat] = waits[seat]
    waits[seat] = None
    legal = ctx.win_legal
    ctx.kept_legal[seat] = legal[seat]
    legal[seat] = None
    ctx.robbable = False
    ctx.last_draw = e
    ctx.tail_drawn[seat] = replacement or e.source == "tail"
    if replacement and ctx.set_aside_pending is not None:
        _set_aside_replaced(ctx, e, seat)


def _set_aside_replaced(ctx: AuditContext, e: ev.TileDrawn, seat: int) -> None:
    """The replacement of a tile set aside: after a flower (补花) it is no kong's replacement
    (no 杠上开花, no 杠上炮; a win on it is 花上开花), after a single-tile kong it is one."""
    pending_seat, flower = ctx.set_aside_pending
    ctx.set_aside_pending = None
    if pending_seat == seat and flower:
        ctx.tail_drawn[seat] = False
        ctx.flower_draw = e


def _replacement(ctx: AuditContext, e: ev.TileDrawn, t, seat: int) -> bool:
    """Whether the draw is the seat's kong replacement; with no face-up pool, the family
    says how a replacement is logged."""
    replacement = t.phase == "replacement" and t.pending_kong == seat
    source = ctx.replacement_source
    if replacement and not ctx.tail_pool and source is not None and e.source != source(ctx.rules):
        want = source(ctx.rules)
        ctx.find("KONG_REPLACEMENT_NOT_FROM_TAIL", e, seat=seat, expected=want, actual=e.source,
                 message=f"seat {seat}'s kong replacement came from the {e.source}, not the {want}")
    return replacement


def _off_turn_wall_draw(ctx: AuditContext, e: ev.TileDrawn, t, seat: int) -> bool:
    """A wall draw that is not the turn's draw: a kong replacement (from the wall where the
    family keeps no tail pool) or a draw out of turn.  Whether it is a replacement."""
    replacement = _replacement(ctx, e, t, seat)
    if replacement and ctx.tail_pool:
        ctx.find("KONG_REPLACEMENT_NOT_FROM_TAIL", e, seat=seat, expected="tail", actual="wall",
                 message=f"seat {seat} drew from the wall after a kong, not from the tail pair")
    elif not replacement:
        ctx.find("TURN_ORDER", e, seat=seat, expected=t.turn if t.phase == "draw" else "a discard",
                 actual=seat, message=f"seat {seat} draws out of turn")
    return replacement


def _tail_draw(ctx: AuditContext, e: ev.TileDrawn, t, seat: int, tile: int) -> bool:
    """A tail draw: only a kong replacement takes one.  Whether it is a replacement."""
    replacement = _replacement(ctx, e, t, seat)
    if not ctx.tail_pool and not t.tail_turned and ctx.replacement_source is not None:
        # no face-up pool: a tail draw is the wall's last undrawn tile (its next one, by option)
        wall = t.wall
        at = t.wall_head if ctx.rules.kong_replacement == "head" else t.wall_tail
        if wall is not None and len(wall) == t.total and t.wall_head <= t.wall_tail and wall[at] != tile:
            ctx.find("DRAW_NOT_WALL_ORDER", e, seat=seat, expected=TILE_NAMES[wall[at]],
                     actual=e.tile, message=f"replacement draw #{at} of the wall")
        if not replacement:
            ctx.find("TAIL_DRAW_WITHOUT_KONG", e, seat=seat, message=f"seat {seat} took a tail tile without a kong")
        ctx.seen[tile] += 1
        if ctx.seen[tile] > 4 or tile >= NUM_KINDS:
            check_overcount(ctx, e)
    elif not replacement:
        ctx.find("TAIL_DRAW_WITHOUT_KONG", e, seat=seat, message=f"seat {seat} took a tail tile without a kong")
    elif len(t.tail) != ctx.tail_pool:
        claims.tail_full(ctx, e)
    return replacement


def exhaustion_missed(ctx: AuditContext, e: ev.Event, seat: int) -> None:
    """黄庄: no draw from the wall once the remaining tiles are down to the family's reserve."""
    t = ctx.table
    if ctx.exhaust_reported or t.undrawn > ctx.max_reserve:
        return
    fam, rules = ctx.family, ctx.rules
    remaining = fam.table.remaining(rules, t.undrawn, len(t.tail))
    reserve = fam.table.reserve(rules, sum(t.kongs))
    if remaining <= reserve:
        ctx.exhaust_reported = True
        ctx.find("EXHAUSTIVE_DRAW_MISSED", e, seat=seat, expected=reserve, actual=remaining,
                 message=f"{remaining} tiles remain (reserve {reserve}): the hand should have ended in 黄庄")


def tile_discarded(ctx: AuditContext, e: ev.TileDiscarded) -> None:
    t = ctx.table
    if ctx.open_discard is not None:
        claims.discard_settled(ctx)
    seat = e.seat
    tile = TILE_INDEX[e.tile]
    if tile >= ctx.set_limit:
        check_in_set(ctx, e, (e.tile,), seat)
    if ctx.indicator_due:
        wild.indicator_missed(ctx, e, seat)
    rule = ctx.discard_rule
    if rule is not None and 0 <= seat < ctx.n and (ctx.discard_kinds is None or tile in ctx.discard_kinds):
        # the family's word on the discard, on the table before it applies (most are plain)
        verdict = rule(t, seat, tile)
        if verdict is not PLAIN_DISCARD:
            wild.judge_discard(ctx, e, seat, verdict)
    if t.phase != "discard" or seat != t.turn:
        ctx.set_aside_pending = None
        if t.phase == "replacement":
            ctx.find("KONG_REPLACEMENT_NOT_FROM_TAIL", e, seat=seat, expected="a tail draw", actual="discard",
                     message=f"seat {seat} discarded after a kong without taking a replacement")
        else:
            ctx.find("TURN_ORDER", e, seat=seat, expected=t.turn, actual=seat,
                     message=f"seat {seat} discards out of turn")
    if len(t.tail) != ctx.tail_pool:
        claims.tail_full(ctx, e)
    if 0 <= seat < ctx.n and seat not in ctx.size_reported:
        held = t.held[seat] + 3 * len(t.melds[seat])
        if held != ctx.discard_size:
            ctx.size_reported.add(seat)
            want = ctx.discard_size
            ctx.find("HAND_SIZE", e, seat=seat, expected=want, actual=held,
                     message=f"seat {seat} holds {held} tiles (sets as 3) before discarding, not {want}")
    ctx.apply_discarded(e)
    ctx.first_turn = False
    tail_drawn = ctx.tail_drawn
    ctx.kong_discard = tail_drawn[seat]
    tail_drawn[seat] = False
    ctx.last_draw = None
    ctx.robbable = False
    kept = ctx.kept_tile
    if kept[seat] == tile:  # 摸切: the hand is again the one before the draw
        ctx.waits[seat] = ctx.kept_waits[seat]
        ctx.win_legal[seat] = ctx.kept_legal[seat]
    else:  # the seat's hand changed (seat_changed, inline on this hot path)
        ctx.waits[seat] = ctx.win_legal[seat] = None
    kept[seat] = -1
    claims.open_discard(ctx, seat, tile, e.seq)
    if rule is not None and ctx.dead_seq == e.seq:
        claims.dead_discard(ctx)


def hand_drawn(ctx: AuditContext, e: ev.HandDrawn) -> None:
    if ctx.indicator_due:
        wild.indicator_missed(ctx, e)
    claims.missed_wins(ctx, e, [])
    claims.discard_settled(ctx)
    t = ctx.table
    remaining = ctx.family.table.remaining(ctx.rules, t.undrawn, len(t.tail))
    if e.remaining != remaining:
        # the count the log reports is the table's, as the family counts it (a 海底 declined
        # by all leaves the offered tile among them)
        ctx.find("REMAINING_MISMATCH", e, expected=remaining, actual=e.remaining,
                 message=f"黄庄 reports {e.remaining} tiles remaining; the table has {remaining}")
    reserve = ctx.family.table.reserve(ctx.rules, sum(t.kongs))
    offers = t.sea_offers
    if offers and len(offers) >= ctx.n and not any(taken for _seat, taken in offers):
        # the last tile offered to every seat and declined by all (海底, LastTileOffered):
        # the hand ends with it undrawn (new-families.md §1; the family judges the offers)
        remaining -= 1
    if remaining > reserve:
        ctx.find("EXHAUSTIVE_DRAW_EARLY", e, expected=reserve, actual=remaining,
                 message=f"黄庄 declared with {remaining} tiles remaining (reserve {reserve})")
    ctx.apply(e)
    ctx.won = None


def not_in_ruleset(ctx: AuditContext, e: ev.Event) -> None:
    """A room logs only the events its ruleset has (``TableRules.events``): no 定缺 outside
    Sichuan, no birds outside 长沙, …  The event is still applied (the log's own table goes on)."""
    fam = ctx.family
    if fam is not None and type(e) not in fam.table.events:
        name = type(e).__name__
        has = ", ".join(sorted(t.__name__ for t in fam.table.events)) or "none of these"
        ctx.find("EVENT_NOT_IN_RULESET", e, seat=getattr(e, "seat", None), expected=has, actual=name,
                 message=f"a {name} in a {fam.name} room, whose rules log {has}")


# --- declarations before play: 换三张 and 定缺 (families that play them: Sichuan) ------
# The family judges them (``RuleFamily.own.observe``); the walker applies them.

def exchanged(ctx: AuditContext, e: ev.TilesExchanged) -> None:
    """The three-tile exchange: every seat's hand changes."""
    not_in_ruleset(ctx, e)
    check_in_set(ctx, e, [x for g in e.given for x in g], None)
    ctx.apply(e)
    for s in range(ctx.n):
        ctx.seat_changed(s)


def void_declared(ctx: AuditContext, e: ev.VoidDeclared) -> None:
    """A void-suit declaration (the table records the suit)."""
    not_in_ruleset(ctx, e)
    ctx.apply(e)
    if 0 <= e.seat < ctx.n:
        ctx.seat_changed(e.seat)
