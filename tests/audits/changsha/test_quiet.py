"""Changsha's discard, chow, pong and declaration checks are switched off for the rest of a
hand once they have nothing to judge (``play.QUIET``, ``AuditContext.observing``): the dealer
has acted, no seat is locked by its 开杠, no reveal is open, no 海底 offered.  A reveal or an
offer switches them back on, and a new hand starts with them on."""

from __future__ import annotations

from audits.audit import HANDLERS, handlers_for, walk
from audits.context import AuditContext
from audits.rules.changsha import CHANGSHA, play
from paipu.sim.changsha import examples as cx
from schema import events as ev

from ..helpers import log_of


class _Recording(AuditContext):
    """The audit of one game, noting each switch of the family's checks with the event type
    the walker was handling."""

    def __init__(self, log):
        super().__init__(log)
        self.switches: list[tuple[str, bool]] = []
        self.now = ""

    def observing(self, types, on: bool) -> None:
        self.switches.append((self.now, on))
        super().observing(types, on)


def _walked(builder):
    ctx = _Recording(log_of(builder))
    log = ctx.log
    events = log.events

    class Noting(list):
        def __iter__(self):
            for e in list.__iter__(self):
                ctx.now = type(e).__name__
                yield e
    log.events = Noting(events)
    audit = walk(ctx)
    return ctx, audit


def test_off_after_the_dealers_first_discard_in_a_plain_hand():
    ctx, audit = _walked(cx.EXAMPLES["ex01_small_discard_win"]())
    assert audit.findings == []
    assert ctx.switches == [("HandStarted", True), ("TileDiscarded", False)]
    assert ctx.handlers[ev.TileDiscarded] is HANDLERS[ev.TileDiscarded]
    assert ctx.handlers[ev.Chowed] is HANDLERS[ev.Chowed]


def test_back_on_at_a_reveal_and_kept_on_while_a_seat_is_locked():
    """Near miss of the plain hand: a 开杠 reveal locks the konger, so its discards are judged
    (KAIGANG_HAND_LOCKED) to the end of the hand."""
    ctx, audit = _walked(cx.EXAMPLES["ex06_locked_discards_the_drawn_tile"]())
    assert audit.findings == []
    assert ctx.switches == [("HandStarted", True), ("TileDiscarded", False), ("KongRevealed", True)]
    assert ctx.handlers[ev.TileDiscarded] is handlers_for(CHANGSHA)[ev.TileDiscarded]
    bad = cx.NEAR_MISSES["nm_kaigang_hand_locked"][0]()
    ctx, audit = _walked(bad)
    assert [f.code for f in audit.findings] == ["KAIGANG_HAND_LOCKED"]


def test_back_on_when_the_last_tile_is_offered():
    ctx, audit = _walked(cx.EXAMPLES["ex03_opening_wins_drawn"]())
    assert audit.findings == []
    assert ("LastTileOffered", True) in ctx.switches
    assert ctx.switches[-1][1] is True
    bad = cx.NEAR_MISSES["nm_sea_out_of_order"][0]()
    assert "SEA_BOTTOM_ORDER" in [f.code for f in _walked(bad)[1].findings]


def test_the_quiet_state_of_a_hand_book():
    """_quiet holds only with the dealer acted, no reveal, no offer and no locked seat."""
    from types import SimpleNamespace
    from schema.ruleset import resolve
    hb = play.HandBook(resolve("changsha"), 4, 0)
    table = SimpleNamespace(sea_offers=[])
    assert not play._quiet(table, hb)  # the dealer has not acted (opening wins may come)
    hb.dealer_acted = True
    assert play._quiet(table, hb)
    assert not play._quiet(SimpleNamespace(sea_offers=[(1, False)]), hb)
    hb.locked[2] = True
    assert not play._quiet(table, hb)


def test_a_shared_handler_table_is_never_switched():
    ctx = AuditContext(log_of(cx.EXAMPLES["ex01_small_discard_win"]()))
    before = dict(HANDLERS)
    ctx.observing(play.QUIET, False)
    ctx.observing(play.QUIET, True)
    assert ctx.handlers is None and HANDLERS == before


class _DrawerNoting(AuditContext):
    """The audit of one game, noting each switch of the family's drawer (``naming_drawer``)."""

    def __init__(self, log):
        super().__init__(log)
        self.drawer_switches: list[bool] = []

    def naming_drawer(self, on: bool) -> None:
        self.drawer_switches.append(on)
        super().naming_drawer(on)


def test_the_drawer_is_asked_only_once_the_sea_is_offered():
    """海底漫游 (§7.1): each hand starts with the turn's seat drawing; the offer of the last tile
    makes the walker ask the family who draws (the seat that accepted it)."""
    plain = _DrawerNoting(log_of(cx.EXAMPLES["ex01_small_discard_win"]()))
    assert walk(plain).findings == []
    assert plain.drawer_switches == [False] and plain.next_drawer is None
    sea = _DrawerNoting(log_of(cx.EXAMPLES["ex08_haidi_pao"]()))
    assert walk(sea).findings == []
    assert sea.drawer_switches == [False, True, True] and sea.next_drawer is CHANGSHA.table.next_drawer


def test_the_turns_seat_drawing_the_accepted_sea_is_out_of_turn():
    """Near miss of ex08: seat 3, whose draw it was, declined the 海底 and seat 0 accepted it; a
    draw of it by seat 3 is TURN_ORDER (seat 0 draws), found only with the drawer asked."""
    import msgspec
    b = cx.EXAMPLES["ex08_haidi_pao"]()
    offered = max(i for i, e in enumerate(b.events) if type(e) is ev.LastTileOffered)
    draw = next(i for i, e in enumerate(b.events) if i > offered and type(e) is ev.TileDrawn)
    assert b.events[draw].seat == 0
    b.events[draw] = msgspec.structs.replace(b.events[draw], seat=3)
    audit = walk(AuditContext(log_of(b)))
    turn = [f for f in audit.findings if f.code == "TURN_ORDER"]
    assert turn and turn[0].seat == 3 and turn[0].expected == 0
