"""The walker applies each of the new families' events (shared/design/new-families.md §1) and
hands it to the family's ``event_checks``: a log holding them audits to the end, and what the
family reports is a finding at the event."""

from __future__ import annotations

import pytest

from audits import audit_game
from audits.rules import FAMILIES, register
from audits.rules.family import Violation, variant
from schema import events as ev
from schema import ruleset as rs

from .helpers import log_of
from .test_toy_family import TOY, toy_game

NEW_EVENTS = (ev.IndicatorTurned, ev.TileSetAside, ev.OpeningWinDeclared, ev.KongRevealed,
              ev.LastTileOffered, ev.BirdsDrawn)
SEEN: list[type] = []


def _checks(ruleset, table, event) -> list[Violation]:
    """Records what reaches it; reports a set-aside of a tile that is no flower."""
    SEEN.append(type(event))
    if isinstance(event, ev.TileSetAside) and not event.tile.endswith("f"):
        return [Violation("SET_ASIDE_INVALID", f"{event.tile} is not a flower", "a flower", event.tile)]
    return []


WATCHER = variant(TOY, name="toy-new", own={"event_checks": _checks}, table={"events": frozenset(NEW_EVENTS)})


@pytest.fixture
def watcher(monkeypatch):
    monkeypatch.setitem(rs.PRESETS, "toy-new", rs.Ruleset(family="toy-new", wilds=(), chow=False))
    register(WATCHER)
    SEEN.clear()
    yield WATCHER
    FAMILIES.pop("toy-new", None)


def with_new_events(reveal: bool = False):
    """The toy game with an indicator, an opening win and a 海底 offer after the deal, a tile
    set aside and replaced as the toy replaces a kong (the next wall tile), birds after the win; with ``reveal`` the
    dealer's kong reveals its replacement tile instead of drawing it."""
    src = toy_game()
    b = type(src)("toy-new-1", preset="toy-new", fee=0)
    for e in src.events:
        t = type(e)
        if t is ev.GameOpened:
            b.open()
            continue
        if reveal and t is ev.KongConcealed:
            b.kong_concealed(e.seat, e.kind, e.tiles, mode="reveal")
            b.reveal(0, ["9s"])
            continue
        if reveal and t in (ev.TileDrawn, ev.TileDiscarded) and e.tile == "9s" and e.seat == 0:
            continue  # the revealed tile is no replacement draw and becomes a discard by itself
        if t is ev.HandSettled:
            b.birds(["1m"], origin=1)
        b.add(t, **{f: getattr(e, f) for f in t.__struct_fields__ if f not in ("game", "seq", "at")})
        if t is ev.TilesDealt:
            b.indicator("1s", "2s")
            b.opening_win(2, ["jiangyise"], "258p")
            b.offer_last(1, False)
            b.set_aside(0, "7z")
            b.draw(0, "9m")  # the toy's replacement is the next wall tile (its replacement_source)
    return b


def test_a_log_with_every_new_event_audits_to_the_end(watcher):
    b = with_new_events()
    a = audit_game(log_of(b))
    assert a.complete
    assert [f.code for f in a.findings] == ["SET_ASIDE_INVALID"]  # the family's finding, at the event
    set_aside = next(e for e in b.events if isinstance(e, ev.TileSetAside))
    assert a.findings[0].seq == set_aside.seq
    assert {t for t in SEEN if t in NEW_EVENTS} == set(NEW_EVENTS) - {ev.KongRevealed}


def test_a_kong_revealing_its_tile_audits_to_the_end(watcher):
    a = audit_game(log_of(with_new_events(reveal=True)))
    assert a.complete
    assert not {f.code for f in a.findings} & {"STRUCTURAL_BREAK", "INTERNAL_ERROR"}
    assert ev.KongRevealed in SEEN


def test_near_miss_a_set_aside_of_a_tile_not_held_breaks_the_log(watcher):
    b = with_new_events()
    aside = next(i for i, e in enumerate(b.events) if isinstance(e, ev.TileSetAside))
    import msgspec
    b.events[aside] = msgspec.structs.replace(b.events[aside], tile="6z")
    a = audit_game(log_of(b))
    assert not a.complete
    assert [f.code for f in a.findings][-1] == "STRUCTURAL_BREAK"


def test_an_indicator_that_is_a_fifth_copy_is_an_overcount(watcher):
    b = with_new_events()
    i = next(i for i, e in enumerate(b.events) if isinstance(e, ev.IndicatorTurned))
    import msgspec
    b.events[i] = msgspec.structs.replace(b.events[i], tile="2m")  # the dealer holds 2222m
    a = audit_game(log_of(b))
    assert "TILE_OVERCOUNT" in [f.code for f in a.findings]


# --- the set's tiles (TILE_NOT_IN_SET, from Ruleset.tile_count) and copies (TILE_OVERCOUNT) ----

@pytest.fixture
def flower_room(monkeypatch):
    """The toy's rules under a 144-tile family name (the set is the family's, TILE_SETS)."""
    monkeypatch.setitem(rs.TILE_SETS, "toy-144", 144)
    monkeypatch.setitem(rs.PRESETS, "toy-144", rs.Ruleset(family="toy-144", wilds=(), chow=False))
    register(variant(TOY, name="toy-144", table={"events": frozenset({ev.TileSetAside})}))
    yield
    FAMILIES.pop("toy-144", None)


def flower_drawn(preset: str, flowers=("3f",)):
    """The toy game with seat 1's first draw a flower, set aside and replaced (the toy's way)."""
    src = toy_game()
    b = type(src)("toy-f", preset=preset, fee=0)
    first = True
    for e in src.events:
        t = type(e)
        if t is ev.GameOpened:
            b.open()
            continue
        if first and t is ev.TileDrawn and e.seat == 1:
            first = False
            for f in flowers:
                b.draw(1, f)
                b.set_aside(1, f)
        b.add(t, **{f: getattr(e, f) for f in t.__struct_fields__ if f not in ("game", "seq", "at")})
    return b


def test_a_flower_is_in_the_144_tile_set(flower_room):
    a = audit_game(log_of(flower_drawn("toy-144")))
    assert a.complete and a.findings == []


def test_near_miss_a_flower_is_not_in_the_136_tile_set(watcher):
    a = audit_game(log_of(flower_drawn("toy-new")))
    codes = [f.code for f in a.findings]
    # drawn, then set aside (the watcher's own SET_ASIDE_INVALID: 3f is a flower, so none)
    assert a.complete and codes == ["TILE_NOT_IN_SET", "TILE_NOT_IN_SET"]
    assert next(f for f in a.findings if f.code == "TILE_NOT_IN_SET").expected == "1m..7z"


def test_a_flower_has_one_copy(flower_room):
    a = audit_game(log_of(flower_drawn("toy-144", flowers=("3f", "3f"))))
    assert [f.code for f in a.findings] == ["TILE_OVERCOUNT"]
    assert (a.findings[0].expected, a.findings[0].actual) == (1, 2)
