"""Every event type changes the state as the log says; structural breaks are typed errors."""

import msgspec
import pytest

from replay import ReplayError, Replayer, state_at, states
from schema import events as ev
from schema.builder import GameBuilder
from schema.tiles import parse_hand, tile_index

from .games import drawn_game, melds_game

T = tile_index


def replay_all(b: GameBuilder) -> Replayer:
    r = Replayer()
    for e in b.events:
        r.apply(e)
    return r


def at(b, seq):
    return state_at(b.events, seq)


def test_game_opened_seats_scores_and_dealer():
    b = GameBuilder("g", options={"qiaoluo": True}, start_points=20, creator=2)
    b.open()
    s = at(b, 0)
    assert s.players == ("A", "B", "C", "D") and s.scores == (20, 20, 20, 20)
    assert s.dealer == 2 and s.phase == "between_hands"


def test_room_resized_to_three_seats():
    b = GameBuilder("g")
    b.open()
    b.resize(["A", "B", "C"])
    s = at(b, 1)
    assert s.players == ("A", "B", "C") and len(s.scores) == 3 and len(s.concealed) == 3


def test_fee_charged_and_refunded():
    b = GameBuilder("g", fee=8)
    b.open()
    b.refund(0, 2)
    b.fee(0, 8)
    assert at(b, 1).fees_charged == (-2, 0, 0, 0)
    assert at(b, 2).fees_charged == (6, 0, 0, 0)


def test_hand_started_deal_and_tail():
    b = drawn_game()
    s1, s2, s3 = at(b, 1), at(b, 2), at(b, 3)
    assert s1.hand == 1 and s1.phase == "dealing" and s1.undrawn == 136
    assert [len(h) for h in s2.concealed] == [14, 13, 13, 13] and s2.undrawn == 136 - 53
    assert s2.wall_next is not None
    assert len(s3.tail) == 2 and s3.phase == "discard" and s3.turn == 0


def test_pig_bet_placed():
    b = GameBuilder("g", options={"yangzhu": True})
    b.open()
    b.hand(1, dealer=0)
    b.bet(1, 2)
    assert at(b, 2).bets == (0, 2, 0, 0)


def test_discard_and_draw_move_tiles_and_turn():
    b = melds_game()
    s4 = at(b, 4)
    assert s4.discards[0] == ((T("5m"), -1),) and s4.turn == 1 and s4.last_discard == (0, T("5m"))
    assert len(s4.concealed[0]) == 13
    s5 = at(b, 5)
    assert len(s5.concealed[1]) == 14 and s5.undrawn == s4.undrawn - 1 and s5.phase == "discard"


def test_pong_records_meld_and_marks_the_discard_claimed():
    s = at(melds_game(), 7)
    m = s.melds[3][0]
    assert (m.kind, m.of, m.from_seat, m.wilds) == ("pong", T("9p"), 1, 0)
    assert s.discards[1][-1] == (T("9p"), 3) and s.turn == 3 and s.phase == "discard"


def test_concealed_kong_then_tail_draw_and_refill():
    b = melds_game()
    s10 = at(b, 10)
    assert s10.melds[0][0].kind == "kong_concealed" and s10.phase == "replacement" and s10.kongs[0] == 1
    s11 = at(b, 11)
    assert s11.tail == (T("5z"),) and T("9m") in s11.concealed[0]
    assert at(b, 12).tail == (T("5z"), T("2s"))


def test_added_kong_upgrades_the_pong():
    s = at(melds_game(), 19)
    m = s.melds[3][0]
    assert m.kind == "kong_added" and m.tiles == (T("9p"),) * 4


def test_chow_records_a_run():
    b = GameBuilder("g", options={"chow": True})
    b.open()
    b.hand(1, dealer=0)
    b.deal("1234m" + "5555p6666p777p", "23m" + "1111z2222z333z", "9999m8888m777m", "4444s5555s666s")
    b.discard(0, "1m")
    b.chow(1, 0, "1m", "2m3m")
    s = at(b, 4)
    assert s.melds[1][0].kind == "chow" and s.melds[1][0].tiles == tuple(parse_hand("123m"))


def test_exposed_kong_with_a_chicken_counts_one_wild():
    b = GameBuilder("g")
    b.open()
    b.hand(1, dealer=0)
    b.deal("2p" + "3333m4444m5555m1p", "2p2p1s" + "1111z2222z33z", "9999m8888m777m", "4444s5555s666s")
    b.discard(0, "2p")
    b.kong_exposed(1, 0, "2p", "2p2p1s")
    m = at(b, 4).melds[1][0]
    assert m.kind == "kong_exposed" and m.wilds == 1 and m.tiles.count(T("1s")) == 1


def test_claim_declared_and_passed_change_nothing_but_seq():
    b = melds_game()
    b.events = b.events[:5]
    b.pass_(1, ["pong"])
    b.declare(2, "win")
    before, after = at(b, 4), at(b, 6)
    assert msgspec.structs.replace(after, seq=4) == before


def test_hand_won_on_discard_and_settled():
    b = melds_game()
    b.events = b.events[:5]
    b.win([(1, ["wuji"], 1, 2)], "discard", "5m", from_seat=0)
    b.settle([(0, 1, 2, "win")], [-2, 2, 0, 0])
    s = at(b, 5)
    assert s.phase == "won" and s.discards[0][-1] == (T("5m"), 1)
    assert at(b, 6).scores == (-2, 2, 0, 0) and at(b, 6).phase == "between_hands"


def test_robbed_kong_turns_the_added_kong_back_into_a_pong():
    b = melds_game()
    b.events = b.events[:20]
    b.win([(0, ["dihu"], 0, 1)], "robbed_kong", "9p", from_seat=3)
    s = at(b, 20)
    assert s.melds[3][0].kind == "pong" and s.kongs[3] == 0


def test_hand_drawn_and_game_closed():
    b = drawn_game()
    last = list(states(b.events))
    assert last[-3].phase == "drawn" and last[-3].undrawn == 20
    assert last[-1].phase == "closed"


def test_chicken_tally_counts_held_and_discarded_chickens():
    b = GameBuilder("g", options={"dianji": True})
    b.open()
    b.hand(1, dealer=0)
    b.deal("1s1s" + "3333m4444m5555m", "1s2p2p" + "1111z2222z33z", "9999m8888m777m", "4444s5555s666s")
    b.discard(0, "1s")           # seat 0 answers for this chicken even when ponged
    b.pong(1, 0, "1s", "1s1s")   # seat 1 holds one 1s: a pong needs two, a structural break
    with pytest.raises(ReplayError) as e:
        replay_all(b)
    assert e.value.kind == "tile_not_in_hand" and e.value.seq == 4 and e.value.seat == 1
    b.events = b.events[:4]
    s = at(b, 3)
    # the reducer records the neutral fact (what reached each hand from the wall); the
    # family reads the 点鸡 tally from it (tests/audits/test_settlement.py)
    assert [got[T("1s")] for got in s.received] == [2, 1, 0, 0]


def test_states_are_immutable_and_deterministic():
    b = melds_game()
    first = list(states(b.events))
    second = list(states(b.events))
    assert first == second
    with pytest.raises(AttributeError):
        first[5].scores = (1, 2, 3, 4)  # type: ignore[misc]
    assert isinstance(first[5].concealed[0], tuple)


# -- structural breaks --------------------------------------------------------

def broken(b: GameBuilder, seq_index: int, **changes):
    b.events[seq_index] = msgspec.structs.replace(b.events[seq_index], **changes)
    with pytest.raises(ReplayError) as e:
        replay_all(b)
    return e.value


def test_sequence_gap():
    e = broken(melds_game(), 6, seq=7)
    assert e.kind == "seq_gap" and e.seq == 7 and e.game == "g-melds" and "jumps from 5 to 7" in e.message


def test_sequence_repeat():
    e = broken(melds_game(), 6, seq=5)
    assert e.kind == "seq_repeat"


def test_tile_not_in_hand_carries_game_hand_seq_and_summary():
    e = broken(melds_game(), 4, tile="9s")
    assert (e.kind, e.game, e.hand, e.seq, e.seat) == ("tile_not_in_hand", "g-melds", 1, 4, 0)
    assert "seat 0:" in e.summary and "does not hold 9s" in e.message


def test_draw_from_an_empty_wall():
    b = drawn_game(reserve=2)
    r = Replayer()
    with pytest.raises(ReplayError):
        # every tile but the two face-up tail tiles is drawn; one draw more breaks
        for e in b.events[:-3]:
            r.apply(e)
        r.apply(ev.TileDrawn(b.game, b.events[-4].seq + 1, b.events[-4].at, seat=0, tile="1m"))
    assert r.state().undrawn == 2


def test_tail_draw_must_be_a_face_up_tile():
    e = broken(melds_game(), 11, tile="8m")
    assert e.kind == "not_in_tail"


def test_claim_of_a_tile_that_was_not_the_last_discard():
    e = broken(melds_game(), 7, tile="8p", tiles=["8p", "8p"])
    assert e.kind in ("no_such_discard", "tile_not_in_hand")


def test_event_before_game_opened():
    b = melds_game()
    with pytest.raises(ReplayError) as e:
        Replayer().apply(b.events[1])
    assert e.value.kind == "not_opened"


def test_event_of_another_game():
    e = broken(melds_game(), 5, game="other")
    assert e.kind == "wrong_game"
