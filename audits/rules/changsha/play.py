"""Changsha's own checks and its memory of one hand (changsha.md §4, §6, §7, §10.3):
the opening wins (QISHOU_INVALID), 开杠 (KAIGANG_NOT_READY, KAIGANG_REVEAL_WRONG,
KAIGANG_HAND_LOCKED, CLAIM_ON_KONG_REVEAL), the 海底 offer (SEA_BOTTOM_ORDER) and the birds
(BIRD_TILES_WRONG); the hand's winning moment for the settlement (several HandWon on one
开杠 reveal are one moment).
"""

from __future__ import annotations

from typing import Any, Optional

from schema import events as ev
from schema.ruleset import Ruleset
from schema.tiles import TILE_INDEX

from ..family import Violation
from . import birds as bird_rules
from . import qishou, wins
from .settlement import ChangshaFacts

OBSERVES = frozenset({
    ev.TilesDealt, ev.OpeningWinDeclared, ev.TileDrawn, ev.TileDiscarded, ev.Chowed, ev.Ponged,
    ev.KongExposed, ev.KongAdded, ev.KongConcealed, ev.KongRevealed, ev.LastTileOffered, ev.HandWon,
    ev.BirdsDrawn, ev.HandSettled,
})
#: observed after the walker's handler too: the deal (the dealt counts) and the wins (the
#: walker's legal winners)
OBSERVE_AFTER = frozenset({ev.TilesDealt, ev.HandWon})
_NONE: list = []
_KONGS = (ev.KongExposed, ev.KongAdded, ev.KongConcealed)


class HandBook:
    """One hand's memory: the dealt counts, the valid opening wins, the dealer's first action,
    the 开杠 konger's locked hand, the winning moment and the birds."""

    def __init__(self, ruleset: Ruleset, n: int = 4, dealer: int = 0) -> None:
        self.rules = ruleset
        self.n = n
        self.dealer = dealer
        self.dealt: list[Optional[list[int]]] = [None] * n
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
        self.how: Optional[str] = None
        self.giver: Optional[int] = None
        self.birds: tuple[int, ...] = ()
        self.logged_origin: Optional[int] = None

    @property
    def lines(self) -> list[str]:
        """The corrected settlement's derivation, one line per pair (``--explain``)."""
        from .settlement import derive
        return derive(self.rules, self.n, self.dealer, self.facts(True), (), self.how, self.giver)[1]

    def facts(self, corrected: bool) -> ChangshaFacts:
        """The settlement's facts: the log's moment and birds as logged (``corrected`` False),
        or the legal winners with the rules' bird origin (True)."""
        if corrected:
            return ChangshaFacts(tuple(self.openings), self.birds, None, tuple(self.true))
        return ChangshaFacts(tuple(self.openings), self.birds, self.logged_origin, tuple(self.logged))


def hand_book(ruleset: Ruleset, n: int, dealer: int) -> HandBook:
    """``RuleFamily.own.hand_book``."""
    return HandBook(ruleset, n, dealer)


def _v(seat, code: str, message: str, expected: Any = None, actual: Any = None) -> list:
    return [(seat, Violation(code, message, expected, actual))]


def undrawn(table) -> int:
    """R: the undrawn wall tiles."""
    return table.undrawn - len(table.tail)


def observe(ruleset: Ruleset, table, e: ev.Event, hb: HandBook, ctx, after: bool) -> list:
    """``RuleFamily.own.observe``: [(seat, Violation)] for one watched event."""
    t = type(e)
    if after:
        if t is ev.TilesDealt:
            hb.dealt = [list(table.hands[s][:27]) for s in range(hb.n)]
        elif t is ev.HandWon:
            _won_after(table, e, hb, ctx)
        return _NONE
    if t is ev.TileDrawn:
        hb.dealer_acted = True
        if hb.reveal_due is not None:
            seat, hb.reveal_due = hb.reveal_due, None
            return _v(seat, "KAIGANG_REVEAL_WRONG", f"seat {seat}'s 开杠 was followed by a draw, not by its "
                      "revealed tiles", "KongRevealed", "TileDrawn")
        hb.drawn[e.seat] = TILE_INDEX[e.tile] if e.seat < hb.n else None
        if e.source == "wall" and undrawn(table) == 1 and not any(acc for _s, acc in table.sea_offers):
            return _v(e.seat, "SEA_BOTTOM_ORDER", "the last tile (海底) is drawn only after it is offered",
                      "LastTileOffered", "TileDrawn")
        return _NONE
    if t is ev.TileDiscarded:
        hb.dealer_acted = True
        if table.sea_offers and undrawn(table) == 0 and e.seat < hb.n and TILE_INDEX[e.tile] != hb.drawn[e.seat]:
            return _v(e.seat, "SEA_BOTTOM_ORDER", "the 海底 taker throws the 海底 tile and no other",
                      "the 海底 tile", e.tile)
        if e.seat < hb.n and hb.locked[e.seat] and TILE_INDEX[e.tile] != hb.drawn[e.seat]:
            return _v(e.seat, "KAIGANG_HAND_LOCKED", f"seat {e.seat} is locked by its 开杠: it discards only the "
                      "tile it drew", "the drawn tile", e.tile)
        return _NONE
    if t is ev.OpeningWinDeclared:
        return _opening(ruleset, e, hb)
    if t in (ev.Chowed, ev.Ponged, ev.KongExposed) and table.sea_offers:
        return _v(e.seat, "SEA_BOTTOM_ORDER", "no chow, pong or kong on the 海底 tile", "win only", t.__name__)
    if t in (ev.Chowed, ev.Ponged):
        hb.dealer_acted = True
        if e.seat < hb.n and hb.locked[e.seat]:
            return _v(e.seat, "KAIGANG_HAND_LOCKED", f"seat {e.seat} is locked by its 开杠: no chow or pong",
                      "draw and discard", t.__name__)
        return _NONE
    if t in _KONGS:
        hb.dealer_acted = True
        return _kong(ruleset, table, e, hb)
    if t is ev.KongRevealed:
        return _revealed(ruleset, table, e, hb)
    if t is ev.LastTileOffered:
        return _sea_offer(table, e)
    if t is ev.HandWon:
        hb.dealer_acted = True
        return _NONE
    if t is ev.BirdsDrawn:
        return _birds(ruleset, table, e, hb)
    if t is ev.HandSettled:
        return _birds_missing(ruleset, table, hb)
    return _NONE


def _opening(ruleset: Ruleset, e: ev.OpeningWinDeclared, hb: HandBook) -> list:
    """QISHOU_INVALID (§4.1); a valid declaration counts its wins for the opening base Q."""
    s = e.seat
    if not 0 <= s < hb.n:
        return _NONE
    shown = [TILE_INDEX[x] for x in e.tiles]
    v = qishou.check_declaration(ruleset, hb.dealt[s], list(e.names), shown, hb.declared[s], hb.dealer_acted)
    if v is not None:
        return [(s, v)]
    hb.declared[s].extend(e.names)
    hb.openings[s] += len(e.names)
    return _NONE


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
    return bool(wins.waits(ruleset, c, melds))


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
    hb.reveal_due = None
    if 0 <= s < hb.n:
        hb.locked[s] = True
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
    hb.true.extend(ctx.true_winners)


def _birds(ruleset: Ruleset, table, e: ev.BirdsDrawn, hb: HandBook) -> list:
    """BIRD_TILES_WRONG (§10.3): the count (``bird_count`` or what remains, one ``last`` on an
    empty wall), the source and the origin."""
    hb.birds = tuple(TILE_INDEX[x] for x in e.tiles)
    hb.logged_origin = e.origin
    count, source = bird_rules.count_due(ruleset, undrawn(table))
    seats = [s for s, _ in hb.true]
    origin = bird_rules.origin_of(ruleset, hb.dealer, seats, hb.giver)
    if len(e.tiles) != count:
        return _v(None, "BIRD_TILES_WRONG", f"{len(e.tiles)} birds drawn; the rules give {count}", count, len(e.tiles))
    if e.source != source:
        return _v(None, "BIRD_TILES_WRONG", f"birds from {e.source}; the rules draw them from {source}", source, e.source)
    if origin is not None and e.origin != origin:
        return _v(None, "BIRD_TILES_WRONG", f"birds counted from seat {e.origin}, not seat {origin}", origin, e.origin)
    return _NONE


def _birds_missing(ruleset: Ruleset, table, hb: HandBook) -> list:
    """BIRD_TILES_WRONG (§10.3): birds are drawn after every winning moment the rules give
    them to, and never on a drawn hand."""
    if hb.true and not hb.birds and hb.logged_origin is None:
        count, _source = bird_rules.count_due(ruleset, undrawn(table))
        if count:
            return _v(None, "BIRD_TILES_WRONG", "no birds drawn after the win", count, 0)
    return _NONE


def birds_due(ruleset: Ruleset, table, won) -> Optional[tuple[int, str, int]]:
    """``SettlementRules.birds_due``: (count, source, origin) after the win, or None."""
    if won is None:
        return None
    count, source = bird_rules.count_due(ruleset, undrawn(table))
    if count == 0:
        return None
    seats = [x.seat for x in won.winners]
    return count, source, bird_rules.origin_of(ruleset, table.dealer, seats, won.from_seat)


__all__ = ["HandBook", "OBSERVES", "OBSERVE_AFTER", "birds_due", "hand_book", "observe", "undrawn"]
