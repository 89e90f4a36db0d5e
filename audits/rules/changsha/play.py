"""Changsha's own checks and its memory of one hand (changsha.md §4, §6, §7, §10.3):
the opening wins (QISHOU_INVALID), 开杠 (KAIGANG_NOT_READY, KAIGANG_REVEAL_WRONG,
KAIGANG_HAND_LOCKED, CLAIM_ON_KONG_REVEAL), the 海底 offer (SEA_BOTTOM_ORDER) and the birds
(BIRD_TILES_WRONG); the hand's winning moment for the settlement (several HandWon on one
开杠 reveal are one moment).
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Optional

from schema import events as ev
from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX, TILE_NAMES

from ..family import Violation
from . import birds as bird_rules
from . import qishou, wins
from .settlement import ChangshaFacts, undrawn

OBSERVES = frozenset({
    ev.TilesDealt, ev.OpeningWinDeclared, ev.TileDrawn, ev.TileDiscarded, ev.Chowed, ev.Ponged,
    ev.KongExposed, ev.KongAdded, ev.KongConcealed, ev.KongRevealed, ev.LastTileOffered, ev.HandWon,
    ev.BirdsDrawn, ev.HandSettled, ev.ClaimDeclared, ev.HandDrawn, ev.HandStarted,
})
#: observed after the walker's handler too: the wins (the walker's legal winners)
OBSERVE_AFTER = frozenset({ev.HandWon})
_NONE: list = []
_KONGS = (ev.KongExposed, ev.KongAdded, ev.KongConcealed)
_CLAIMS = (ev.Chowed, ev.Ponged, ev.KongExposed)
#: The context of a win chance on a revealed tile in the pass book (过胡, §8): the walker's
#: ``kong_discard`` slot, which Changsha's units do not otherwise read (a discard after a 补张
#: is no 杠上炮), so the passed win is valued with its 杠上炮 under ``guohu = higher_value``.
REVEALED = 2


class HandBook:
    """One hand's memory: the dealt counts, the valid opening wins, the dealer's first action,
    the 开杠 konger's locked hand, the winning moment and the birds."""

    def __init__(self, ruleset: Ruleset, n: int = 4, dealer: int = 0) -> None:
        self.rules = ruleset
        self.n = n
        self.dealer = dealer
        #: the deal (TilesDealt), read for the opening wins' dealt counts (:func:`dealt_counts`)
        self.deal: Optional[ev.TilesDealt] = None
        self.declared: list[list[str]] = [[] for _ in range(n)]
        self.openings = [0] * n
        self.dealer_acted = False
        #: seats locked by their 开杠 (§6.3) and each one's last drawn tile
        self.locked = [False] * n
        self.drawn: list[Optional[int]] = [None] * n
        #: a kong of mode ``reveal`` waiting for its KongRevealed: (seat,)
        self.reveal_due: Optional[int] = None
        #: the moment: logged winners (seat, points), legal winners (seat, H), how, from_seat
        self.logged: list[tuple[int, int]] = []
        self.true: list[tuple[int, int]] = []
        #: beside them, each winner's (how, from_seat): a moment may mix a self-draw and others
        self.logged_hows: list[tuple[str, Optional[int]]] = []
        self.true_hows: list[tuple[str, Optional[int]]] = []
        #: seats whose win came after the hand had ended (HAND_END_WRONG): paid nothing
        self.ended_wins: set[int] = set()
        #: the declared legal winners the log left out (一炮多响, WIN_MISSED_MULTI): paid by the
        #: corrected ledger, not counted in judging the log's own birds
        self.missed: set[int] = set()
        self.how: Optional[str] = None
        self.giver: Optional[int] = None
        self.birds: tuple[int, ...] = ()
        #: the birds the rules draw where the logged ones are wrong and the right ones are known
        #: (a logged wall, the 海底 tile, none due): the corrected ledger's birds (§10.6); None:
        #: the logged birds
        self.true_birds: Optional[tuple[int, ...]] = None
        self.logged_origin: Optional[int] = None
        #: the open 开杠 reveal (§6.2): its konger and tiles, the seats that declared a win on
        #: it and the seats that won on it; closed at the next event that is not a win
        self.reveal_by: Optional[int] = None
        self.reveal_tiles: tuple[int, ...] = ()
        self.reveal_declared: set[int] = set()
        self.reveal_winners: set[int] = set()
        #: 截胡 on the reveal (``multi_win`` off, §5.1, §6.2.3): the one seat that wins it, and the
        #: logged winners that took it over that seat (CLAIM_PRIORITY, paid nothing)
        self.reveal_first: Optional[int] = None
        self.jiehu_out: set[int] = set()
        #: whether each seat could legally win on the open reveal, judged once, before its own
        #: win on it changes its hand
        self.reveal_legal: dict[int, bool] = {}
        #: a winner logged on a revealed tile that scores less than another it could win on:
        #: seat -> H of the better tile, paid by the corrected ledger (§6.2.2–6.2.3)
        self.reveal_best: dict[int, int] = {}

    @property
    def lines(self) -> list[str]:
        """The corrected settlement's derivation, one line per pair (``--explain``)."""
        from .settlement import derive
        return derive(self.rules, self.n, self.dealer, self.facts(True), (), self.how, self.giver)[1]

    def facts(self, corrected: bool) -> ChangshaFacts:
        """The settlement's facts: the log's moment and birds as logged (``corrected`` False),
        or the legal winners with the rules' bird origin (True)."""
        if corrected:
            birds = self.birds if self.true_birds is None else self.true_birds
            return ChangshaFacts(tuple(self.openings), birds, None, tuple(self.true), _mixed(self.true_hows))
        return ChangshaFacts(tuple(self.openings), self.birds, self.logged_origin, tuple(self.logged),
                             _mixed(self.logged_hows))


def _mixed(hows: list) -> Optional[tuple]:
    """The winners' own (how, from_seat): the moment's, not the last HandWon's (a seat's win
    after the konger's own on its reveal mixes them, §6.2.2)."""
    return tuple(hows) if hows else None


def hand_book(ruleset: Ruleset, n: int, dealer: int) -> HandBook:
    """``RuleFamily.own.hand_book``."""
    return HandBook(ruleset, n, dealer)


def _v(seat, code: str, message: str, expected: Any = None, actual: Any = None) -> list:
    return [(seat, Violation(code, message, expected, actual))]


def _declared(hb: HandBook, e: ev.ClaimDeclared) -> None:
    """A declared win on an open 开杠 reveal (for WIN_MISSED_MULTI and CLAIM_PRIORITY)."""
    if hb.reveal_by is not None and e.claim == "win" and e.seat != hb.reveal_by:
        hb.reveal_declared.add(e.seat)


def _claim_declared_observer(handler, report):
    """``data["observers"]``: a declaration is noted on a short path (most are on discards,
    with no reveal open); the walker's handler takes it as usual."""
    def declared(ctx, e: ev.ClaimDeclared) -> None:
        hb = ctx.hand_book
        if hb is not None and hb.reveal_by is not None:
            _declared(hb, e)
        handler(ctx, e)
    return declared


#: The event types the family judges only while the dealer has not acted (the opening wins,
#: §4.1), a seat is locked by its 开杠 (§6.3), a reveal is open (§6.2) or the 海底 has been
#: offered (§7): its checks of them are switched off in the rest of a hand (:func:`_quiet`).
QUIET = (ev.TileDiscarded, ev.Chowed, ev.Ponged, ev.ClaimDeclared)


def _quiet(table, hb: HandBook) -> bool:
    """A discard, a chow, a pong or a declaration has nothing left for the family to judge
    this hand: the dealer has acted, no seat is locked, no reveal is open, no 海底 offered.
    None of these comes back before the next hand but by a reveal (:func:`_revealed`) or an
    offer (:func:`_sea_offer`), which switch the checks back on."""
    return hb.dealer_acted and hb.reveal_by is None and not table.sea_offers and True not in hb.locked


def _loud(ctx) -> None:
    """The family's checks of :data:`QUIET` on again (a new hand, a reveal, the 海底 offered)."""
    if ctx is not None:
        ctx.observing(QUIET, True)


def _sea_drawer(ctx, offered: bool) -> None:
    """海底漫游 (§7.1): the seat that accepts the offered last tile draws it
    (``next_drawer``); before the 海底 is offered each draw is the turn's seat's, so the
    walker asks the family for the drawer only once it has been offered this hand."""
    if ctx is not None:
        ctx.naming_drawer(offered)


def _play_observer(judge, quiets: bool = False):
    """``data["observers"]`` for a draw, a discard, a chow or a pong, the most frequent events:
    the family's check (``judge``) on a short path while no 开杠 reveal is open; with one open,
    the whole :func:`observe` (which closes the reveal first).  The walker's handler follows.
    ``quiets``: a type of :data:`QUIET`, whose checks are switched off once :func:`_quiet` holds."""
    def wrap(handler, report):
        def played(ctx, e) -> None:
            hb = ctx.hand_book
            table = ctx.table
            if hb.reveal_by is None:
                found = judge(table, e, hb)
            else:
                found = observe(ctx.rules, table, e, hb, ctx, False)
            if found:
                report(ctx, e, found)
            if quiets and _quiet(table, hb):
                ctx.observing(QUIET, False)
            handler(ctx, e)
        return played
    return wrap


def observe(ruleset: Ruleset, table, e: ev.Event, hb: HandBook, ctx, after: bool) -> list:
    """``RuleFamily.own.observe``: [(seat, Violation)] for one watched event."""
    t = type(e)
    if t is ev.HandStarted:
        _loud(ctx)  # a new hand: its dealer has not acted
        _sea_drawer(ctx, False)  # nor has its 海底 been offered
        return _first_dealer(ruleset, table, e)
    if after:
        if t is ev.HandWon:
            _won_after(table, e, hb, ctx)
        return _NONE
    if hb.reveal_by is not None and t is not ev.HandWon and t is not ev.ClaimDeclared:
        closed = _reveal_closed(ruleset, table, hb, ctx, e.seat if t in _CLAIMS else None)
        if closed:
            return closed + observe(ruleset, table, e, hb, ctx, after)
    judge = _BEFORE.get(t)
    return _NONE if judge is None else judge(ruleset, table, e, hb, ctx)


def _dealt(ruleset: Ruleset, table, e: ev.TilesDealt, hb: HandBook, ctx) -> list:
    """The deal, kept for the opening wins (its counts are made when one is declared)."""
    hb.deal = e
    return _NONE


def _declared_before(ruleset: Ruleset, table, e: ev.ClaimDeclared, hb: HandBook, ctx) -> list:
    _declared(hb, e)
    return _NONE


def _kong_before(ruleset: Ruleset, table, e, hb: HandBook, ctx) -> list:
    if type(e) is ev.KongExposed and table.sea_offers:
        return _no_claim_on_sea(e)
    hb.dealer_acted = True
    return _kong(ruleset, table, e, hb)


def _won_before(ruleset: Ruleset, table, e: ev.HandWon, hb: HandBook, ctx) -> list:
    """A win: the dealer has acted; a win on an open 开杠 reveal is judged against the konger's
    own (§6.2.2), the better revealed tile and 截胡 (§6.2.3).  With no reveal open, a win breaks
    none of these."""
    hb.dealer_acted = True
    if hb.reveal_by is None:
        return _NONE
    return _won_on_konger_reveal(ruleset, table, e, hb) + _reveal_best_tile(e, hb, ctx) + \
        _reveal_single_winner(ruleset, e, hb, ctx)


def _drawn(table, e: ev.TileDrawn, hb: HandBook) -> list:
    """A draw: KAIGANG_REVEAL_WRONG when a 开杠 kong awaits its reveal (§6.2); the 海底 is drawn
    only after it is offered (SEA_BOTTOM_ORDER, §7).  The drawn tile is noted for the locked
    hand (§6.3) and the 海底 taker's discard."""
    hb.dealer_acted = True
    if hb.reveal_due is not None:
        seat, hb.reveal_due = hb.reveal_due, None
        return _v(seat, "KAIGANG_REVEAL_WRONG", f"seat {seat}'s 开杠 was followed by a draw, not by its "
                  "revealed tiles", "KongRevealed", "TileDrawn")
    seat = e.seat
    hb.drawn[seat] = TILE_INDEX[e.tile] if seat < hb.n else None
    if e.source == "wall" and table.undrawn - len(table.tail) == 1 and \
            not any(acc for _s, acc in table.sea_offers):
        return _v(seat, "SEA_BOTTOM_ORDER", "the last tile (海底) is drawn only after it is offered",
                  "LastTileOffered", "TileDrawn")
    return _NONE


def _discarded(table, e: ev.TileDiscarded, hb: HandBook) -> list:
    """A discard: the 海底 taker throws the 海底 tile (SEA_BOTTOM_ORDER, §7.3); a seat locked by
    its 开杠 throws the tile it drew (KAIGANG_HAND_LOCKED, §6.3)."""
    hb.dealer_acted = True
    seat = e.seat
    if seat >= hb.n:
        return _NONE
    if table.sea_offers and table.undrawn - len(table.tail) == 0 and TILE_INDEX[e.tile] != hb.drawn[seat] \
            and (seat, True) in table.sea_offers:  # the taker's rule, not a later discarder's
        return _v(seat, "SEA_BOTTOM_ORDER", "the 海底 taker throws the 海底 tile and no other",
                  "the 海底 tile", e.tile)
    if hb.locked[seat] and TILE_INDEX[e.tile] != hb.drawn[seat]:
        return _v(seat, "KAIGANG_HAND_LOCKED", f"seat {seat} is locked by its 开杠: it discards only the "
                  "tile it drew", "the drawn tile", e.tile)
    return _NONE


def _no_claim_on_sea(e) -> list:
    return _v(e.seat, "SEA_BOTTOM_ORDER", "no chow, pong or kong on the 海底 tile", "win only", type(e).__name__)


def _chowed_or_ponged(table, e, hb: HandBook) -> list:
    """No chow or pong on the 海底 tile (SEA_BOTTOM_ORDER, §7.6) nor by a seat locked by its
    开杠 (KAIGANG_HAND_LOCKED, §6.3)."""
    if table.sea_offers:
        return _no_claim_on_sea(e)
    hb.dealer_acted = True
    if e.seat < hb.n and hb.locked[e.seat]:
        return _v(e.seat, "KAIGANG_HAND_LOCKED", f"seat {e.seat} is locked by its 开杠: no chow or pong",
                  "draw and discard", type(e).__name__)
    return _NONE


#: The event types the family wraps itself (``data["observers"]``, see ``audits.audit.handlers_for``).
OBSERVERS = {ev.ClaimDeclared: _claim_declared_observer, ev.TileDrawn: _play_observer(_drawn),
             ev.TileDiscarded: _play_observer(_discarded, quiets=True),
             ev.Chowed: _play_observer(_chowed_or_ponged, quiets=True),
             ev.Ponged: _play_observer(_chowed_or_ponged, quiets=True)}


def _first_dealer(ruleset: Ruleset, table, e: ev.HandStarted) -> list:
    """§3 ``first_dealer``: ``creator``: the room's creator deals the first hand (DEALER_ROTATION);
    ``any``: the first dealer is not judged."""
    if table.hand == 0 and ruleset.first_dealer == "creator" and e.dealer != table.creator:
        return _v(e.dealer, "DEALER_ROTATION", f"the room's creator, seat {table.creator}, deals the first hand "
                  "(first_dealer = creator)", table.creator, e.dealer)
    return _NONE


def _opening(ruleset: Ruleset, e: ev.OpeningWinDeclared, hb: HandBook) -> list:
    """QISHOU_INVALID (§4.1); a valid declaration counts its wins for the opening base Q."""
    s = e.seat
    if not 0 <= s < hb.n:
        return _NONE
    shown = [TILE_INDEX[x] for x in e.tiles]
    v = qishou.check_declaration(ruleset, dealt_counts(hb, s), list(e.names), shown, hb.declared[s], hb.dealer_acted)
    if v is not None:
        return [(s, v)]
    hb.declared[s].extend(e.names)
    hb.openings[s] += len(e.names)
    return _NONE


def dealt_counts(hb: HandBook, seat: int) -> Optional[list[int]]:
    """The seat's dealt tiles as counts of the 27 suited kinds (what the table held right
    after the deal), or None before the deal."""
    deal = hb.deal
    if deal is None:
        return None
    counts = [0] * 27
    for name in deal.hands[seat]:
        k = TILE_INDEX[name]
        if k < 27:
            counts[k] += 1
    return counts


def _kong(ruleset: Ruleset, table, e, hb: HandBook) -> list:
    """§5.2 and §6.1: R at least the mode's minimum; a 开杠 only when ready after the kong.
    A locked seat's kong must use its drawn tile (§6.3)."""
    s = e.seat
    mode = e.mode if e.mode is not ev.UNSET else "replace"
    need = ruleset.kaigang_count if mode == "reveal" else 1
    out: list = []
    if 0 <= s < hb.n and hb.locked[s] and (type(e) is ev.KongExposed or TILE_INDEX[e.kind] != hb.drawn[s]):
        out += _v(s, "KAIGANG_HAND_LOCKED", f"seat {s} is locked by its 开杠: a kong only with the tile it drew",
                  "a kong of the drawn tile", e.kind)
    if undrawn(table) < need and not (type(e) is ev.KongExposed and undrawn(table) <= 0):
        # (an exposed kong of the last discard is CLAIM_ON_LAST_DISCARD, the claim's finding)
        out += _v(s, "KONG_WITHOUT_REPLACEMENT", f"a {mode} kong with {undrawn(table)} undrawn tile(s)",
                  f">= {need}", undrawn(table))
    if mode == "reveal" and 0 <= s < hb.n:
        if not _ready_after(ruleset, table, e):
            out += _v(s, "KAIGANG_NOT_READY", f"seat {s} declared 开杠 without being ready after the kong",
                      "a hand waiting on some tile", "not ready")
        hb.reveal_due = s
    return out


def _ready_after(ruleset: Ruleset, table, e) -> bool:
    """§6.1: the concealed tiles left after the kong wait on some kind (dead waits count)."""
    s = e.seat
    c = list(table.hands[s])
    kind = TILE_INDEX[e.kind]
    if kind >= len(c):
        return True  # a kong of a flower is no kong at all: the meld's own check reports it
    melds = list(table.melds[s])
    t = type(e)
    if t is ev.KongConcealed:
        c[kind] -= 4
        melds = melds + [None]
    elif t is ev.KongExposed:
        c[kind] -= 3
        melds = melds + [None]
    else:
        c[kind] -= 1
    if min(c) < 0:
        return False
    from replay.melds import Meld
    melds = [m if m is not None else Meld("kong_exposed", kind, (kind,) * 4) for m in melds]
    return wins.is_ready(ruleset, c, melds)


def _revealed(ruleset: Ruleset, table, e: ev.KongRevealed, hb: HandBook) -> list:
    """KAIGANG_REVEAL_WRONG (§6.2): only after a ``reveal`` kong, ``kaigang_count`` tiles,
    from the tail under ``kaigang_source = tail``.  The konger is locked from now on."""
    s = e.seat
    out: list = []
    if hb.reveal_due != s:
        out += _v(s, "KAIGANG_REVEAL_WRONG", "tiles revealed without a 开杠 kong", "a reveal kong first", "none")
    elif len(e.tiles) != min(ruleset.kaigang_count, undrawn(table)):
        out += _v(s, "KAIGANG_REVEAL_WRONG", f"{len(e.tiles)} tiles revealed; 开杠 turns {ruleset.kaigang_count}",
                  ruleset.kaigang_count, len(e.tiles))
    elif ruleset.kaigang_source == "tail" and e.source != "tail":
        out += _v(s, "KAIGANG_REVEAL_WRONG", "the 开杠 tiles come from the wall's tail", "tail", e.source)
    else:
        out += _revealed_off_the_wall(table, e)
    hb.reveal_due = None
    if 0 <= s < hb.n:
        hb.locked[s] = True
        hb.reveal_by, hb.reveal_tiles = s, tuple(TILE_INDEX[x] for x in e.tiles)
        hb.reveal_declared, hb.reveal_winners = set(), set()
        hb.reveal_first, hb.reveal_legal = None, {}
    return out


def logged_wall(table) -> Optional[list[int]]:
    """The logged wall (§2) when the log gives one whole and undrawn tiles remain, else None."""
    wall = table.wall
    if wall is None or len(wall) != table.total or table.wall_head > table.wall_tail:
        return None
    return wall


def wall_tiles(table, source: str, count: int) -> Optional[list[int]]:
    """The ``count`` next undrawn tiles of the logged wall from its head (``wall``) or its
    tail, last first (``tail``), or None (no logged wall, or not that many left)."""
    wall = logged_wall(table)
    if wall is None or table.wall_tail - table.wall_head + 1 < count:
        return None
    if source == "tail":
        return [wall[table.wall_tail - k] for k in range(count)]
    return wall[table.wall_head:table.wall_head + count]


def _revealed_off_the_wall(table, e: ev.KongRevealed) -> list:
    """KAIGANG_REVEAL_WRONG (§2, §6.2), tile by tile against a logged wall: the revealed tiles are
    the next undrawn ones from the end they name (``wall``: the head; ``tail``: the last, last
    first); ``free`` tiles are only undrawn ones (any positions)."""
    got = [TILE_INDEX[x] for x in e.tiles]
    if e.source == "free":
        wall = logged_wall(table)
        if wall is None:
            return _NONE
        left = Counter(wall[table.wall_head:table.wall_tail + 1])
        left.subtract(got)
        if min(left.values(), default=0) < 0:
            missing = sorted(TILE_NAMES[k] for k, c in left.items() if c < 0)
            return _v(e.seat, "KAIGANG_REVEAL_WRONG", f"revealed tile(s) {' '.join(missing)} not among the "
                      "logged wall's undrawn tiles", "undrawn tiles", e.tiles)
        return _NONE
    want = wall_tiles(table, e.source, len(got))
    if want is not None and want != got:
        return _v(e.seat, "KAIGANG_REVEAL_WRONG", f"the revealed tiles are not the logged wall's next tiles "
                  f"from the {'tail' if e.source == 'tail' else 'head'}", [TILE_NAMES[t] for t in want], e.tiles)
    return _NONE


def _reveal_closed(ruleset: Ruleset, table, hb: HandBook, ctx, claimer: Optional[int] = None) -> list:
    """The 开杠 reveal is over (the next event that is not a win on it).  一炮多响 (§5.1, §6.2.3):
    unless the konger won on it, every other seat that declared a legal win on one of the
    revealed tiles is a winner (WIN_MISSED_MULTI).  ``claimer``: the seat whose chow, pong or kong
    took a revealed tile (``kaigang_claims = all``) over such a declared win: CLAIM_PRIORITY (胡 first)."""
    by, tiles = hb.reveal_by, hb.reveal_tiles
    declared, winners = hb.reveal_declared, hb.reveal_winners
    first, hb.reveal_first = hb.reveal_first, None
    hb.reveal_legal = {}
    hb.reveal_by, hb.reveal_tiles = None, ()
    hb.reveal_declared, hb.reveal_winners = set(), set()
    if by in winners:
        return _NONE
    if first is not None and first not in winners:
        _pay_first(hb, ctx, by, first, tiles)
    out = _declared_left_out(ruleset, hb, ctx, by, tiles, declared, winners, claimer)
    # 过胡 (§8): every other seat that could win on a revealed tile and did not has let it go
    others = tuple(s for s in range(hb.n) if s != by)
    for t in tiles:
        ctx.passes.let_wins_go(others, tuple(winners), t, REVEALED)
    return out


def _declared_left_out(ruleset: Ruleset, hb: HandBook, ctx, by: int, tiles, declared: set, winners: set,
                       claimer: Optional[int]) -> list:
    """The declared legal wins on the reveal left out: WIN_MISSED_MULTI, or CLAIM_PRIORITY on a
    claim that took a revealed tile over one."""
    claimed = claimer is not None
    if not declared:
        return _NONE
    if claimed and ruleset.kaigang_claims != "all":
        return _NONE  # the claim itself is CLAIM_ON_KONG_REVEAL
    if not claimed and not ruleset.multi_win:
        return _NONE
    out: list = []
    for s in sorted(declared - winners):
        if 0 <= s < hb.n and any(ctx.legal_win_on(s, t, False) and ctx.barred(s, "win", t) is None for t in tiles):
            if claimed:
                return _v(claimer, "CLAIM_PRIORITY", f"seat {claimer} took a revealed tile of seat {by}'s 开杠 "
                          f"over seat {s}'s declared win", f"seat {s} win", "a claim")
            out += _v(s, "WIN_MISSED_MULTI", f"seat {s} declared a legal win on seat {by}'s revealed tiles "
                      "but is not a winner", sorted(winners | {s}), sorted(winners))
    return out


def _sea_offer(table, e: ev.LastTileOffered) -> list:
    """SEA_BOTTOM_ORDER (§7): the 海底 is offered when one tile is left, in turn order from the
    seat due to draw, and no more after an acceptance."""
    offers = table.sea_offers
    if undrawn(table) != 1:
        return _v(e.seat, "SEA_BOTTOM_ORDER", "the 海底 is offered only when one tile is left", 1, undrawn(table))
    if any(acc for _s, acc in offers):
        return _v(e.seat, "SEA_BOTTOM_ORDER", "an offer after the 海底 was taken", "no offer", e.seat)
    want = (offers[-1][0] + 1) % len(table.hands) if offers else table.turn
    if e.seat != want:
        return _v(e.seat, "SEA_BOTTOM_ORDER", "the 海底 is offered in turn order", want, e.seat)
    return _NONE


def _won_after(table, e: ev.HandWon, hb: HandBook, ctx) -> None:
    """The moment's winners: consecutive HandWon (a 开杠 reveal's) add up."""
    if hb.how is None:
        hb.how, hb.giver = e.how, e.from_seat
    hb.logged.extend((x.seat, x.points) for x in e.winners)
    hb.logged_hows.extend((e.how, e.from_seat) for _x in e.winners)
    true = [w for w in ctx.true_winners if w[0] not in hb.ended_wins]
    hb.missed.update(ctx.missed_winners)
    if hb.reveal_best:  # a reveal's winner is paid on its better revealed tile (§6.2.2–6.2.3)
        true = [(s, max(h, hb.reveal_best.get(s, h))) for s, h in true]
    hb.true.extend(true)
    hb.true_hows.extend((e.how, e.from_seat) for _w in true)
    if hb.jiehu_out:  # 截胡: a winner found to have taken the reveal over the first seat is paid nothing
        kept = [k for k, (s, _h) in enumerate(hb.true) if s not in hb.jiehu_out]
        hb.true = [hb.true[k] for k in kept]
        hb.true_hows = [hb.true_hows[k] for k in kept]
    if hb.reveal_by is not None:
        hb.reveal_winners.update(x.seat for x in e.winners)


def _won_on_konger_reveal(ruleset: Ruleset, table, e: ev.HandWon, hb: HandBook) -> list:
    """§6.2.2: when a revealed tile completes the konger's hand, the konger wins first and its
    win is the moment: another seat's win on its reveal is HAND_END_WRONG, paid nothing."""
    by = hb.reveal_by
    if by is None or e.how != "discard" or e.from_seat != by:
        return _NONE
    if by not in hb.reveal_winners:
        counts, melds = table.hands[by], table.melds[by]
        if not any(_completes_own(ruleset, counts, melds, t) for t in hb.reveal_tiles):
            return _NONE
    out: list = []
    for x in e.winners:
        hb.ended_wins.add(x.seat)
        out += _v(x.seat, "HAND_END_WRONG", f"seat {by}'s revealed tile completes its own hand: its 杠上开花 "
                  f"ends the hand, seat {x.seat} wins nothing on the reveal", f"seat {by} alone", x.seat)
    return out


def _reveal_best_tile(e: ev.HandWon, hb: HandBook, ctx) -> list:
    """§6.2.2–6.2.3: a win on a 开杠 reveal is scored on the revealed tile that scores more: the
    konger's 杠上开花 on its best completing tile, another seat that could win on two of the
    tiles once, on the better (by H; a tie keeps the logged tile).  A winner logged on a lesser
    tile with that tile's units is FAN_MISMATCH (its units are not the win's highest reading);
    the corrected ledger pays it the better tile's H (``HandBook.reveal_best``)."""
    by = hb.reveal_by
    if by is None or ctx is None or len(hb.reveal_tiles) < 2:
        return _NONE
    own = e.how == "self_draw"
    if not own and (e.how != "discard" or e.from_seat != by):
        return _NONE
    tile = TILE_INDEX[e.tile]
    out: list = []
    for x in e.winners:
        s = x.seat
        if not 0 <= s < hb.n or s in hb.ended_wins or (s == by) != own:
            continue
        logged = ctx.score(s, tile, e.how)
        best_tile, best = tile, logged
        for t in dict.fromkeys(hb.reveal_tiles):
            if t == tile or (not own and ctx.barred(s, "win", t) is not None):
                continue
            sc = ctx.score(s, t, e.how)
            if sc.wins and sc.points > best.points:
                best_tile, best = t, sc
        if best_tile == tile:
            continue
        hb.reveal_best[s] = best.points
        if logged.wins and x.fan == logged.fan:  # else the walker names the logged units already
            rule = f"seat {s}'s 杠上开花 is scored on its best completing tile" if own else \
                f"seat {s} wins once on the revealed tile that scores more"
            out += _v(s, "FAN_MISMATCH", f"{rule}: {TILE_NAMES[best_tile]} (U = {best.fan}, H = {best.points}), "
                      f"not {e.tile} (U = {logged.fan})", best.fan, x.fan)
    return out


def _reveal_single_winner(ruleset: Ruleset, e: ev.HandWon, hb: HandBook, ctx) -> list:
    """截胡 on a 开杠 reveal (§5.1 with ``multi_win`` off, §6.2.3): of the seats that declared or
    took a legal win on the revealed tiles, only the first in turn order from the konger's 下家
    wins.  A logged winner after it took the reveal over a higher claim: CLAIM_PRIORITY on that
    winner, paid nothing (as 截和 on a discard); the first seat is the moment's winner."""
    by = hb.reveal_by
    if ruleset.multi_win or by is None or e.how != "discard" or e.from_seat != by or by in hb.reveal_winners:
        return _NONE
    now = [x.seat for x in e.winners if x.seat not in hb.ended_wins]
    candidates = hb.reveal_declared | hb.reveal_winners | set(now)
    tiles = hb.reveal_tiles
    legal = hb.reveal_legal
    for s in candidates - set(legal):
        legal[s] = _legal_on_reveal(ctx, s, tiles)
    first = next((s for s in ((by + k) % hb.n for k in range(1, hb.n))
                  if s in candidates and s not in hb.ended_wins and legal[s]), None)
    if first is None:
        return _NONE
    hb.reveal_first = first
    out: list = []
    for s in sorted(hb.reveal_winners - hb.jiehu_out - {first}) + [s for s in now if s != first]:
        if s in hb.jiehu_out:
            continue
        hb.jiehu_out.add(s)
        out += _v(s, "CLAIM_PRIORITY", f"single winner (multi_win off, 截胡): seat {s} won seat {by}'s revealed "
                  f"tile over seat {first}'s win, first in turn order", f"seat {first} win", f"seat {s} win")
    return out


def _pay_first(hb: HandBook, ctx, by: int, first: int, tiles) -> None:
    """截胡: the first seat declared a legal win on the reveal that the log gave to a later
    seat; the corrected ledger pays it on the revealed tile that scores more (§6.2.3)."""
    best = max((ctx.score(first, t, "discard").points for t in tiles
                if ctx.legal_win_on(first, t, False) and ctx.barred(first, "win", t) is None), default=None)
    if best is not None:
        hb.true.append((first, best))
        hb.true_hows.append(("discard", by))


def _legal_on_reveal(ctx, seat: int, tiles) -> bool:
    """``seat`` could legally win on one of the revealed tiles (complete, not barred by 过胡)."""
    return 0 <= seat < len(ctx.table.hands) and any(
        ctx.legal_win_on(seat, t, False) and ctx.barred(seat, "win", t) is None for t in tiles)


def _completes_own(ruleset: Ruleset, counts, melds, tile: int) -> bool:
    c = list(counts)
    c[tile] += 1
    return wins.is_winning(ruleset, c, melds, "self_draw")


def _birds(ruleset: Ruleset, table, e: ev.BirdsDrawn, hb: HandBook) -> list:
    """BIRD_TILES_WRONG (§10.3): the count (``bird_count`` or what remains, one ``last`` on an
    empty wall), the source and the origin."""
    if table.phase == "drawn":  # §10.3, §14: birds follow a winning moment, never a drawn hand
        return _v(None, "BIRD_TILES_WRONG", "birds drawn on a drawn hand (黄庄): the rules draw none", 0,
                  len(e.tiles))
    hb.birds = tuple(map(TILE_INDEX.__getitem__, e.tiles))
    hb.logged_origin = e.origin
    count, source = bird_rules.count_due(ruleset, undrawn(table))
    # the logged birds are judged by the log's own legal winners (a winner it left out is its
    # own finding, WIN_MISSED_MULTI); the corrected ledger counts every legal winner
    seats = [s for s, _ in hb.true if s not in hb.missed]
    origin = bird_rules.origin_of(ruleset, hb.dealer, seats, hb.giver)
    want = _due_birds(table, hb, source, count)
    if want is not None and want != list(hb.birds):
        hb.true_birds = tuple(want)  # §10.6: the right birds give the corrected ledger
    if len(e.tiles) != count:
        return _v(None, "BIRD_TILES_WRONG", f"{len(e.tiles)} birds drawn; the rules give {count}", count, len(e.tiles))
    if e.source != source:
        return _v(None, "BIRD_TILES_WRONG", f"birds from {e.source}; the rules draw them from {source}", source, e.source)
    if origin is not None and e.origin != origin:
        return _v(None, "BIRD_TILES_WRONG", f"birds counted from seat {e.origin}, not seat {origin}", origin, e.origin)
    if want is not None and want != list(hb.birds):
        if source == "last":
            return _v(None, "BIRD_TILES_WRONG", "on an empty wall the bird is the last tile that left it, the "
                      f"海底 tile {TILE_NAMES[want[0]]}", [TILE_NAMES[t] for t in want], e.tiles)
        return _v(None, "BIRD_TILES_WRONG", f"the birds are not the logged wall's next tiles from the "
                  f"{'tail' if source == 'tail' else 'head'}", [TILE_NAMES[t] for t in want], e.tiles)
    return _NONE


def _due_birds(table, hb: HandBook, source: str, count: int) -> Optional[list[int]]:
    """The birds the rules draw, where the table knows them (§10.3): none when none are due;
    on an empty wall after the 海底 was taken, the 海底 tile (the last tile that left the wall);
    else the logged wall's next tiles from ``source``.  None: not known (no logged wall, or the
    wall ran out through a kong, §15)."""
    if count == 0:
        return []
    if source == "last":
        taker = next((s for s, accepted in table.sea_offers if accepted), None)
        drawn = hb.drawn[taker] if taker is not None and taker < hb.n else None
        return None if drawn is None else [drawn] * count
    return wall_tiles(table, source, count)


def _birds_missing(ruleset: Ruleset, table, hb: HandBook) -> list:
    """BIRD_TILES_WRONG (§10.3): birds are drawn after every winning moment the rules give
    them to, and never on a drawn hand."""
    if hb.true and not hb.birds and hb.logged_origin is None:
        count, _source = bird_rules.count_due(ruleset, undrawn(table))
        if count:
            return _v(None, "BIRD_TILES_WRONG", "no birds drawn after the win", count, 0)
    return _NONE


#: The family's judge of each watched event before the walker's handler (see :func:`observe`).
_BEFORE = {
    ev.TilesDealt: _dealt,
    ev.ClaimDeclared: _declared_before,
    ev.TileDrawn: lambda ruleset, table, e, hb, ctx: _drawn(table, e, hb),
    ev.TileDiscarded: lambda ruleset, table, e, hb, ctx: _discarded(table, e, hb),
    ev.OpeningWinDeclared: lambda ruleset, table, e, hb, ctx: _opening(ruleset, e, hb),
    ev.Chowed: lambda ruleset, table, e, hb, ctx: _chowed_or_ponged(table, e, hb),
    ev.Ponged: lambda ruleset, table, e, hb, ctx: _chowed_or_ponged(table, e, hb),
    ev.KongExposed: _kong_before,
    ev.KongAdded: _kong_before,
    ev.KongConcealed: _kong_before,
    ev.KongRevealed: lambda ruleset, table, e, hb, ctx: _loud(ctx) or _revealed(ruleset, table, e, hb),
    ev.LastTileOffered: lambda ruleset, table, e, hb, ctx: _loud(ctx) or _sea_drawer(ctx, True) or
    _sea_offer(table, e),
    ev.HandWon: _won_before,
    ev.BirdsDrawn: lambda ruleset, table, e, hb, ctx: _birds(ruleset, table, e, hb),
    ev.HandSettled: lambda ruleset, table, e, hb, ctx: _birds_missing(ruleset, table, hb),
}


def birds_due(ruleset: Ruleset, table, won) -> Optional[tuple[int, str, int]]:
    """``SettlementRules.birds_due``: (count, source, origin) after the win, or None."""
    if won is None:
        return None
    count, source = bird_rules.count_due(ruleset, undrawn(table))
    if count == 0:
        return None
    seats = [x.seat for x in won.winners]
    return count, source, bird_rules.origin_of(ruleset, table.dealer, seats, won.from_seat)


__all__ = ["HandBook", "OBSERVES", "OBSERVE_AFTER", "birds_due", "hand_book", "observe",
           "undrawn"]
