"""The new families' events (shared/design/new-families.md §1): the reducer records each as
logged and raises the typed ReplayError on a structural break."""

from __future__ import annotations

import pytest

from replay import ReplayError, Replayer
from schema import ruleset as rs
from schema.builder import GameBuilder
from schema.tiles import tile_index

T = tile_index

# the dealer's 14 tiles and the others' 13: plain tiles, no flowers
HANDS = ["123456789m1234p5p", "123456789p1234s", "456789s12345z77z", "1112223334445m"]


@pytest.fixture
def rooms(monkeypatch):
    """Presets of two new-family rulesets (the reducer knows no family, only the set and hand size)."""
    monkeypatch.setitem(rs.PRESETS, "hn", rs.PRESETS["hainan"])
    monkeypatch.setitem(rs.PRESETS, "wz", rs.PRESETS["wenzhou"])


def started(preset: str = "qujing-xiaoji", hands=HANDS, dealer: int = 0) -> GameBuilder:
    b = GameBuilder("g", preset=preset)
    b.open()
    b.hand(1, dealer=dealer)
    b.deal(*hands)
    return b


def replay(b: GameBuilder) -> Replayer:
    r = Replayer()
    for e in b.events:
        r.apply(e)
    return r


def test_indicator_turned_records_the_indicator_and_the_logged_wild():
    b = started()
    before = replay(b).table.undrawn
    b.indicator("4p", "5p")
    w = replay(b).table
    assert (w.indicator, w.wild, w.undrawn) == (T("4p"), T("5p"), before - 1)
    s = replay(b).state()
    assert (s.indicator, s.wild) == (T("4p"), T("5p"))


def test_indicator_from_the_tail_leaves_the_walls_last_tile():
    b = started()
    head, tail = replay(b).table.wall_head, replay(b).table.wall_tail
    b.indicator("9s", "1s", source="tail")
    w = replay(b).table
    assert (w.wall_head, w.wall_tail) == (head, tail - 1)


def test_a_second_indicator_is_a_structural_break():
    b = started()
    b.indicator("4p", "5p")
    b.indicator("9s", "1s")
    with pytest.raises(ReplayError) as x:
        replay(b)
    assert x.value.kind == "indicator_repeated"


def test_flowers_are_held_outside_the_counts_and_set_aside(rooms):
    b = started("hn", hands=["1f123456789m1234p", "2f8f23456789p123s", "456789s12345z77z", "1112223334445m"])
    w = replay(b).table
    assert w.flowers_held[0] == [T("1f")] and sorted(w.flowers_held[1]) == [T("2f"), T("8f")]
    assert w.held[:2] == [13, 11] and w.total == 144
    b.set_aside(0, "1f")
    w = replay(b).table
    assert w.flowers_held[0] == [] and w.set_aside[0] == [T("1f")]
    assert (w.phase, w.pending_kong, w.turn) == ("replacement", 0, 0)
    b.draw(0, "9p", source="tail")
    w = replay(b).table
    assert w.phase == "discard" and w.hands[0][T("9p")] == 1 and w.held[0] == 14


def test_an_opening_set_aside_out_of_turn_returns_the_turn_once_replaced(rooms):
    """补花 in the opening by a seat other than the dealer: once its replacement is drawn the
    dealer is to act again (the turn is not left with the seat that set its flower aside)."""
    b = started("hn", hands=["123456789m1234p5p", "2f23456789p1234s", "456789s12345z77z", "1112223334445m"])
    b.set_aside(1, "2f")
    w = replay(b).table
    assert (w.phase, w.turn, w.resume_turn) == ("replacement", 1, 0)
    b.draw(1, "9p", source="tail")
    w = replay(b).table
    assert (w.phase, w.turn, w.resume_turn) == ("discard", 0, None) and w.held[1] == 13
    b.discard(0, "5p")  # the dealer's first discard is in turn
    assert replay(b).table.turn == 1


def test_a_set_aside_on_ones_own_turn_keeps_the_turn(rooms):
    """The near miss: the dealer's own 补花 leaves the turn with the dealer, nothing to resume."""
    b = started("hn", hands=["1f123456789m1234p", "123456789p1234s", "456789s12345z77z", "1112223334445m"])
    b.set_aside(0, "1f")
    b.draw(0, "9p", source="tail")
    w = replay(b).table
    assert (w.phase, w.turn, w.resume_turn) == ("discard", 0, None)


def test_a_flower_drawn_is_held_and_a_kind_can_be_set_aside():
    b = started()
    b.discard(0, "5p")
    b.draw(1, "3f")
    w = replay(b).table
    assert w.flowers_held[1] == [T("3f")] and w.held[1] == 13
    b.set_aside(1, "1s")  # a kind from the counts (红中杠, 癞子杠)
    w = replay(b).table
    assert w.set_aside[1] == [T("1s")] and w.hands[1][T("1s")] == 0 and w.held[1] == 12


@pytest.mark.parametrize("tile", ["5f", "7z"])
def test_setting_aside_a_tile_not_held_is_a_structural_break(tile):
    b = started()
    b.set_aside(0, tile)
    with pytest.raises(ReplayError) as x:
        replay(b)
    assert x.value.kind == "tile_not_in_hand"


def test_a_flower_discarded_is_a_structural_break():
    b = started()
    b.discard(0, "5p")
    b.draw(1, "3f")
    b.discard(1, "3f")
    with pytest.raises(ReplayError) as x:
        replay(b)
    assert x.value.kind == "flower_played"


def test_opening_win_declared_is_recorded():
    b = started()
    b.opening_win(2, ["jiangyise"], "77z")
    assert replay(b).table.opening_wins == [(2, ("jiangyise",), (T("7z"), T("7z")))]


def revealed_game() -> GameBuilder:
    """Seat 3 makes a concealed kong of 1m to reveal (开杠) two tiles; seat 0 wins on one."""
    b = started()
    b.discard(0, "5p")
    b.draw(1, "9m")
    b.discard(1, "9m")
    b.draw(2, "9m")
    b.discard(2, "9m")
    b.draw(3, "1m")
    b.kong_concealed(3, "1m", mode="reveal")
    b.reveal(3, ["1p", "6m"])
    return b


def test_kong_revealed_lays_tiles_open_and_unwon_they_become_the_kongers_discards():
    b = revealed_game()
    w = replay(b).table
    assert w.revealed == [T("1p"), T("6m")] and w.revealed_by == 3
    assert (w.phase, w.turn, w.pending_kong) == ("draw", 0, None)
    b.draw(0, "2s")
    w = replay(b).table
    assert w.revealed == [] and w.discards[3][-2:] == [[T("1p"), -1], [T("6m"), -1]]


def test_wins_on_revealed_tiles_take_them_and_handwon_may_repeat():
    b = revealed_game()
    b.win([(1, ["jihu"], 0, 1)], "discard", "1p", from_seat=3)
    b.win([(0, ["jihu"], 0, 1)], "discard", "6m", from_seat=3)
    w = replay(b).table
    assert w.phase == "won" and w.out == [1, 0] and w.revealed == []


def test_a_handwon_after_the_moment_is_a_structural_break():
    b = revealed_game()
    b.win([(1, ["jihu"], 0, 1)], "discard", "1p", from_seat=3)
    b.offer_last(2, False)
    b.win([(0, ["jihu"], 0, 1)], "discard", "6m", from_seat=3)
    with pytest.raises(ReplayError) as x:
        replay(b)
    assert x.value.kind == "out_of_hand"


def test_the_kongers_own_win_on_a_revealed_tile_joins_its_hand():
    b = revealed_game()
    b.win([(3, ["jihu"], 0, 1)], "self_draw", "6m")
    w = replay(b).table
    assert w.phase == "won" and w.revealed == [T("1p")] and w.hands[3][T("6m")] == 1


def test_last_tile_offered_is_recorded_in_order():
    b = started()
    b.offer_last(1, False)
    b.offer_last(2, True)
    assert replay(b).table.sea_offers == [(1, False), (2, True)]


def test_birds_drawn_after_the_win_with_their_origin():
    b = started()
    b.win([(0, ["jihu"], 0, 1)], "self_draw", "5p")
    undrawn = replay(b).table.undrawn
    b.birds(["1m", "5p"], origin=0)
    w = replay(b).table
    assert (w.birds, w.bird_origin, w.undrawn) == ([T("1m"), T("5p")], 0, undrawn - 2)


def test_birds_repeating_the_last_tile_take_nothing_from_the_wall():
    b = started()
    b.win([(0, ["jihu"], 0, 1)], "self_draw", "5p")
    undrawn = replay(b).table.undrawn
    b.birds(["5p"], origin=2, source="last")
    assert replay(b).table.undrawn == undrawn


def test_birds_while_the_hand_is_in_play_are_a_structural_break():
    b = started()
    b.birds(["1m"], origin=0)
    with pytest.raises(ReplayError) as x:
        replay(b)
    assert x.value.kind == "birds_without_win"


def test_birds_after_a_drawn_hand_are_applied_for_the_audit_to_judge():
    # near miss: the hand has ended (黄庄), so the reducer records them; the audit judges (BIRD_TILES_WRONG)
    b = started()
    b.exhausted(0)
    b.birds(["1m"], origin=0, source="last")
    w = replay(b).table
    assert (w.phase, w.birds) == ("drawn", [T("1m")])


def test_dealer_streak_and_last_bets_carry_across_hands():
    b = GameBuilder("g", options={"yangzhu": True})
    b.open()
    for hand in (1, 2, 3):
        b.hand(hand, dealer=0 if hand < 3 else 1)
        if hand == 1:
            b.bet(2, 1)
        b.deal(*HANDS)
        streak = replay(b).table.dealer_streak
        assert streak == {1: 0, 2: 1, 3: 0}[hand]
        b.exhausted(0)
        b.settle([], [0, 0, 0, 0])
    w = replay(b).table
    assert w.last_bets == [None, None, (1, 1), None] and w.bets == [0, 0, 0, 0]


def test_a_144_tile_wall_is_the_hainan_set(rooms):
    from schema.tiles import TILE_NAMES, full_set
    b = GameBuilder("g", preset="hn")
    b.open()
    b.hand(1, dealer=0, wall=[TILE_NAMES[t] for t in full_set(144)])
    assert replay(b).table.undrawn == 144
    short = GameBuilder("g", preset="hn")
    short.open()
    short.hand(1, dealer=0, wall=[TILE_NAMES[t] for t in full_set(136)])
    with pytest.raises(ReplayError) as x:
        replay(short)
    assert x.value.kind == "bad_wall"


def test_the_replay_view_shows_the_new_facts():
    import io

    from rich.console import Console

    from paipu.replay_view import render, special_lines, state_to_json
    b = started()
    b.indicator("4p", "5p")
    b.opening_win(2, ["jiangyise"], "77z")
    b.offer_last(1, False)
    state = replay(b).state()
    data = state_to_json(state)
    assert (data["indicator"], data["wild"]) == ("4p", "5p")
    assert data["opening_wins"] == [{"seat": 2, "names": ["jiangyise"], "tiles": ["7z", "7z"]}]
    assert data["sea_offers"] == [{"seat": 1, "accepted": False}] and data["birds"] == []
    lines = special_lines(state)
    assert lines[0].startswith("indicator 4p") and "wild 5p" in lines[0]
    assert any("起手胡" in x for x in lines) and any("declined" in x for x in lines)
    out = io.StringIO()
    render(state, Console(file=out, width=200))
    assert "indicator 4p" in out.getvalue()


def test_the_replay_view_shows_nothing_new_for_a_plain_hand():
    from paipu.replay_view import special_lines
    assert special_lines(replay(started()).state()) == []
