"""Toy families for the new families' shared ground (shared/design/new-families.md §1, §4),
each defined here and nowhere in paipu: an indicator-wild toy, a 16+1 toy, a flower toy and
a bird toy.  Each audits a game clean and catches a planted fault through the walker's
shared checks or its own hooks, with no edit to the walker: a new piece is options, data
and small functions of a family."""

from __future__ import annotations

import msgspec
import pytest

from audits import audit_game
from audits.rules import FAMILIES, register
from audits.rules.family import Score, Settlement, Violation, variant
from audits.rules.qujing import QUJING
from schema import events as ev
from schema import ruleset as rs
from schema.builder import GameBuilder
from schema.reader import GameLog
from schema.tiles import TILE_INDEX, TILE_NAMES

from .helpers import log_of
from .test_toy_family import TOY, toy_game, toy_reading_fans, toy_score

#: The shared codes the walker emits for every family (they leave catalogue.AWAITING_FAMILY).
GROUND_CODES = frozenset({"WILD_INDICATOR_MISSING", "WILD_KIND_MISMATCH", "SPECIAL_TILE_DISCARDED",
                          "CLAIM_ON_DEAD_DISCARD"})


def codes(b: GameBuilder) -> list[str]:
    return [f.code for f in audit_game(log_of(b)).findings]


def rebuild(src: GameBuilder, preset: str, edit) -> GameBuilder:
    """A copy of ``src`` in the room ``preset``: ``edit(b, event)`` writes each event
    (return False to write it unchanged afterwards)."""
    b = GameBuilder(src.game, preset=preset, fee=0)
    for e in src.events:
        t = type(e)
        if t is ev.GameOpened:
            b.open()
            continue
        if edit(b, e):
            continue
        b.add(t, **{f: getattr(e, f) for f in t.__struct_fields__ if f not in ("game", "seq", "at")})
    return b


def _register(monkeypatch, family, **options):
    monkeypatch.setitem(rs.PRESETS, family.name, rs.Ruleset(family=family.name, chow=False, **options))
    register(family)


# --- 1. an indicator-wild toy: W turned per hand, dead wild discards ---------------------------
# The toy family is the walker's defaults alone: no wild_of (wild_from decides the cycle), no
# discard_rule (wild_discard decides): its wilds are the room's options, nothing more.

WILD = variant(TOY, name="toy-wild")


@pytest.fixture
def wild_room(monkeypatch):
    def room(**options):
        opts = dict(wilds=(), wild_from="next", wild_discard="dead") | options
        monkeypatch.setitem(rs.PRESETS, "toy-wild", rs.Ruleset(family="toy-wild", chow=False, **opts))
    room()
    register(WILD)
    yield room
    FAMILIES.pop("toy-wild", None)


def wild_game(indicator=("1s", "2s"), source="wall", seat1="123p456p789p456s3p", at_deal=True) -> GameBuilder:
    """The toy game (seat 1 wins seat 0's 3p) with the indicator turned after the deal."""
    def edit(b, e):
        if type(e) is ev.TilesDealt:
            hands = list(e.hands)
            hands[1] = seat1
            b.deal(*hands)
            if indicator is not None and at_deal:
                b.indicator(*indicator, source=source)
            return True
        if type(e) is ev.KongConcealed and indicator is not None and not at_deal:
            b.kong_concealed(e.seat, e.kind, e.tiles)
            b.indicator(*indicator, source=source)
            return True
        return False
    return rebuild(toy_game(), "toy-wild", edit)


def test_wild_toy_a_turned_indicator_audits_clean(wild_room):
    assert codes(wild_game()) == []


def test_wild_toy_the_hand_plays_with_the_turned_wild(wild_room):
    # 245s + 3p3p wins only with 2s (the wild after 1s) standing for 6s
    assert codes(wild_game(seat1="123p456p789p245s3p")) == []
    # near miss: 9s turned makes 1s wild (9 -> 1 in the suit): the 2s is plain and the hand is incomplete
    assert codes(wild_game(indicator=("9s", "1s"), seat1="123p456p789p245s3p")) == ["WIN_INCOMPLETE"]
    # wild_from = same: 2s turned is the wild itself
    wild_room(wild_from="same")
    assert codes(wild_game(indicator=("2s", "2s"), seat1="123p456p789p245s3p")) == []


def test_wild_toy_a_wrong_wild_is_found(wild_room):
    assert codes(wild_game(indicator=("1s", "3s"))) == ["WILD_KIND_MISMATCH"]
    wild_room(wild_from="same")
    assert codes(wild_game(indicator=("1s", "2s"))) == ["WILD_KIND_MISMATCH"]
    assert codes(wild_game(indicator=("1s", "1s"))) == []


def test_wild_toy_a_missing_late_or_misplaced_indicator_is_found(wild_room):
    found = audit_game(log_of(wild_game(indicator=None))).findings
    assert [f.code for f in found] == ["WILD_INDICATOR_MISSING"]
    assert found[0].actual == "KongConcealed"  # the dealer's first action
    # late: turned after the dealer's kong (reported once, at the kong)
    assert codes(wild_game(at_deal=False)) == ["WILD_INDICATOR_MISSING"]
    # from the tail where indicator_from = head, and the reverse
    assert codes(wild_game(source="tail")) == ["WILD_INDICATOR_MISSING"]
    wild_room(indicator_from="tail")
    assert codes(wild_game(source="tail")) == []
    assert codes(wild_game(source="wall")) == ["WILD_INDICATOR_MISSING"]


def test_wild_toy_an_indicator_before_the_deal_is_found(wild_room):
    def edit(b, e):
        if type(e) is ev.TilesDealt:
            b.indicator("1s", "2s")
        return False
    assert codes(rebuild(toy_game(), "toy-wild", edit)) == ["WILD_INDICATOR_MISSING"]


def test_wild_toy_the_indicator_follows_the_logged_wall(wild_room):
    src = toy_game(dealer_kong=False)
    deal = next(e for e in src.events if type(e) is ev.TilesDealt)
    dealt = [t for h in deal.hands for t in h]
    rest = [TILE_INDEX[t] for t in dealt]
    left = [k for k in range(34) for _ in range(4 - rest.count(k))]
    # the dealer's 14, then 13 each from seat 1 on, then the indicator 1s, the rest in any order
    order = list(deal.hands[0]) + list(deal.hands[1]) + list(deal.hands[2]) + list(deal.hands[3])
    left.remove(TILE_INDEX["1s"])
    wall = order + ["1s"] + [TILE_NAMES[k] for k in left]

    def with_wall(indicator):
        def edit(b, e):
            if type(e) is ev.HandStarted:
                b.hand(e.hand, dealer=e.dealer, wall=wall)
                return True
            if type(e) is ev.TilesDealt:
                b.deal(*e.hands)
                b.indicator(*indicator)
                return True
            return False
        return rebuild(src, "toy-wild", edit)
    assert codes(with_wall(("1s", "2s"))) == []
    assert codes(with_wall(("2s", "3s"))) == ["DRAW_NOT_WALL_ORDER"]


def dead_game(discard_wild=True) -> GameBuilder:
    """Seat 0 discards 3p, the hand's wild (indicator 2p), and seat 1 wins on it."""
    return wild_game(indicator=("2p", "3p") if discard_wild else ("1s", "2s"))


def test_wild_toy_no_win_on_a_dead_wild_discard(wild_room):
    a = audit_game(log_of(dead_game()))
    assert "CLAIM_ON_DEAD_DISCARD" in [f.code for f in a.findings]
    assert a.ledger == [[0, 0, 0, 0]]  # the win is no win: the corrected ledger pays nothing
    # near miss: the wild discarded is a plain tile where wild_discard = plain
    wild_room(wild_discard="plain")
    assert "CLAIM_ON_DEAD_DISCARD" not in codes(dead_game())
    # and a discard that is no wild is never dead
    wild_room()
    assert codes(dead_game(discard_wild=False)) == []


def test_wild_toy_a_forbidden_wild_discard_is_found(wild_room):
    wild_room(wild_discard="forbidden")
    found = codes(dead_game())
    assert found[0] == "SPECIAL_TILE_DISCARDED" and "CLAIM_ON_DEAD_DISCARD" in found
    assert codes(dead_game(discard_wild=False)) == []


def test_wild_toy_no_pong_on_a_dead_discard(wild_room):
    def game(indicator):
        # the default dragon ring 中 -> 发 -> 白 -> 中: 5z (白) turned makes 7z (中) wild
        b = GameBuilder("toy-wild-pong", preset="toy-wild", fee=0)
        b.open()
        b.hand(1, dealer=0)
        b.deal("2222m345m678m234p7z", "123p456p789p456s3p", "147m258p369s127z7z", "369m147p258s5616z")
        b.indicator(*indicator)
        b.discard(0, "7z")
        b.pong(2, 0, "7z", "7z7z")
        b.discard(2, "1m")
        b.exhausted(0)
        b.settle([], [0, 0, 0, 0])
        b.close("hands_done", [0, 0, 0, 0])
        return b
    assert "CLAIM_ON_DEAD_DISCARD" in codes(game(("5z", "7z")))
    # near miss: with 1s turned (2s wild) the 中 discarded is plain and the pong stands
    assert "CLAIM_ON_DEAD_DISCARD" not in codes(game(("1s", "2s")))
