"""Every Changsha finding code (changsha.md §14): a room that breaks the rule gives exactly
its code, and the room it was made from (the near miss) audits clean."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from audits import audit_game
from audits.rules.changsha import CHANGSHA
from paipu.sim.changsha import examples as cx
from schema import events as ev
from schema.ruleset import resolve
from schema.tiles import TILE_INDEX, TILE_NAMES

from ..helpers import log_of

#: code -> (the room breaking it, its near miss that holds)
CASES = {
    "QISHOU_INVALID": ("nm_opening_not_held", "ex10_classic_sheet"),
    "QISHOU_PAYMENT_MISMATCH": ("nm_opening_base_left_out", "ex10_classic_sheet"),
    "KAIGANG_NOT_READY": ("nm_kaigang_not_ready", "ex06_gangshang_pao"),
    "KAIGANG_REVEAL_WRONG": ("nm_kaigang_three_revealed", "ex06_gangshang_pao"),
    "KAIGANG_HAND_LOCKED": ("nm_kaigang_hand_locked", "ex06_locked_discards_the_drawn_tile"),
    "BIRD_TILES_WRONG": ("nm_wrong_bird_origin", "ex01_small_discard_win"),
    "BIRD_MISMATCH": ("nm_birds_left_out", "ex10_classic_sheet"),
    "SEA_BOTTOM_ORDER": ("nm_sea_out_of_order", "ex03_opening_wins_drawn"),
    "WIN_PAIR_NOT_258": ("nm_pair_not_258", "ex01_small_discard_win"),
    "WIN_DURING_GUOHU": ("nm_guohu", "ex11_guohu_after_own_draw"),
    "WIN_MISSED_MULTI": ("nm_reveal_win_missed", "ex06_two_winners_on_the_reveal"),
    "HAND_END_WRONG": ("nm_win_after_kaihua", "ex05_gangshang_kaihua"),
}
#: the same for rooms under an option (near miss from OPTION_ROOMS)
OPTION_CASES = {
    "CLAIM_ON_KONG_REVEAL": ("nm_reveal_ponged_win_only", "ex06_kaigang_claims_all_pong"),
    "CLAIM_CHOW_WRONG_SEAT": ("nm_reveal_chow_wrong_seat", "ex06_kaigang_claims_all_chow"),
    "CLAIM_PRIORITY": ("nm_reveal_claim_over_win", "ex06_kaigang_claims_all_pong"),
}
#: the codes the Changsha family emits, each tested here (test_audit_codes reads it)
COVERED = set(CASES) | set(OPTION_CASES) | {"CLAIM_ON_KONG_REVEAL", "DEALER_ROTATION"}


@pytest.mark.parametrize("code", sorted(CASES))
def test_code_and_its_near_miss(code):
    bad, near = CASES[code]
    make = cx.NEAR_MISSES[bad][0]
    assert code in [f.code for f in audit_game(log_of(make())).findings]
    assert audit_game(log_of(cx.EXAMPLES[near]())).findings == []


@pytest.mark.parametrize("code", sorted(OPTION_CASES))
def test_kaigang_claims_all(code):
    """§6.2.3 ``kaigang_claims = all``: one revealed tile may be claimed as the konger's discard
    (a pong; a chow by its 下家 only), never over a declared win; under ``win_only`` only 胡.
    Each breaking room gives exactly its code; the room it was made from audits clean."""
    bad, near = OPTION_CASES[code]
    found = audit_game(log_of(cx.NEAR_MISSES[bad][0]())).findings
    assert [f.code for f in found] == [code]
    assert audit_game(log_of(cx.OPTION_ROOMS[near]())).findings == []


def test_a_claimed_revealed_tile_is_the_kongers_discard():
    """The reducer takes the claimed tile from the reveal; the other revealed tile becomes one of
    the konger's discards (dead)."""
    from replay.state import Replayer
    r = Replayer()
    for e in cx.ex06_reveal_claimed("pong", 2).events:
        r.apply(e)
        if type(e) is ev.Ponged:
            t = r.table
            assert list(t.revealed) == [] and [x for x, _by in t.discards[1]] == [TILE_INDEX["9s"], TILE_INDEX["1p"]]
            assert [by for _x, by in t.discards[1]] == [-1, 2]
            break


def _table(revealed=(), undrawn=20):
    return SimpleNamespace(revealed=list(revealed), undrawn=undrawn, tail=[])


def test_claim_on_kong_reveal():
    r = resolve("changsha")
    pong = ev.Ponged("g", 1, None, seat=2, from_seat=1, tile="5s", tiles=["5s", "5s"])
    found = CHANGSHA.own.event_checks(r, _table([TILE_INDEX["5s"]]), pong)
    assert [v.code for v in found] == ["CLAIM_ON_KONG_REVEAL"]
    # near misses: no tile lies revealed; or the room lets a revealed tile be claimed
    assert CHANGSHA.own.event_checks(r, _table(), pong) == []
    assert CHANGSHA.own.event_checks(resolve("changsha", {"kaigang_claims": "all"}),
                                     _table([TILE_INDEX["5s"]]), pong) == []


def test_a_locked_hand_kongs_only_with_its_drawn_tile():
    from audits.rules.changsha import play
    r = resolve("changsha")
    hb = play.hand_book(r, 4, 0)
    hb.locked[1] = True
    hb.drawn[1] = TILE_INDEX["9p"]
    table = SimpleNamespace(undrawn=30, tail=[], sea_offers=())
    other = ev.KongConcealed("g", 5, None, seat=1, kind="7p", tiles=["7p"] * 4)
    drawn = ev.KongConcealed("g", 5, None, seat=1, kind="9p", tiles=["9p"] * 4)
    assert [v.code for _s, v in play.observe(r, table, other, hb, None, False)] == ["KAIGANG_HAND_LOCKED"]
    assert play.observe(r, table, drawn, hb, None, False) == []
    hb.locked[1] = False  # near miss: a free hand kongs what it likes
    assert play.observe(r, table, other, hb, None, False) == []


def test_a_reveal_kong_followed_by_a_draw():
    from tests.audits.helpers import log_of as _log
    assert [f.code for f in audit_game(_log(cx.nm_kaigang_replaced())).findings] == ["KAIGANG_REVEAL_WRONG"]
    assert audit_game(_log(cx.ex05_gangshang_kaihua())).findings == []


def _declared_before_the_win(b, seat: int):
    """``b`` with ``seat`` declaring a win just before the room's first HandWon."""
    i = next(i for i, e in enumerate(b.events) if type(e) is ev.HandWon)
    while type(b.events[i - 1]) is ev.ClaimDeclared:
        i -= 1
    import msgspec
    extra = ev.ClaimDeclared(b.game, 0, None, seat=seat, claim="win")
    b.events = [msgspec.structs.replace(e, seq=k) for k, e in
                enumerate(b.events[:i] + [extra] + b.events[i:])]
    return b


def test_win_missed_on_a_reveal_and_on_the_haidi():
    """一炮多响 on a 开杠 reveal and on the 海底 tile (§5.1, §6.2.3, §7.3): a seat that declared a
    legal win on it and is left out is WIN_MISSED_MULTI, at the event that closes the moment."""
    for bad in ("nm_reveal_win_missed", "nm_haidi_win_missed"):
        found = audit_game(log_of(cx.NEAR_MISSES[bad][0]())).findings
        assert [(f.code, f.seat) for f in found] == [("WIN_MISSED_MULTI", 2)]
    # near misses: both winners logged; a declaration by a seat that cannot win (seat 0 holds
    # no winning hand on 5s or 8m, nor seat 3 on the 海底 5p); the konger's own win (nobody
    # else wins on its reveal)
    assert audit_game(log_of(cx.EXAMPLES["ex06_two_winners_on_the_reveal"]())).findings == []
    assert audit_game(log_of(_declared_before_the_win(cx.ex06_gangshang_pao(), 0))).findings == []
    assert audit_game(log_of(_declared_before_the_win(cx.ex08_haidi_pao(), 3))).findings == []


def test_a_declared_win_on_a_reveal_is_missed_only_under_multi_win():
    """截胡 (``multi_win = false``): one winner on the reveal; a second declarer is not missed."""
    b = cx.reopened(cx.NEAR_MISSES["nm_reveal_win_missed"][0](), multi_win=False)
    assert "WIN_MISSED_MULTI" not in [f.code for f in audit_game(log_of(b)).findings]


def _wins_swapped(b):
    """``b`` with its two HandWon (one per revealed tile) logged in the other order."""
    import msgspec
    i, j = [k for k, e in enumerate(b.events) if type(e) is ev.HandWon]
    b.events[i], b.events[j] = b.events[j], b.events[i]
    b.events = [msgspec.structs.replace(e, seq=k) for k, e in enumerate(b.events)]
    return b


def test_jiehu_on_a_reveal_lets_the_first_declarer_win():
    """§5.1 截胡 (``multi_win = false``) on a 开杠 reveal (§6.2.3): seats 2 and 3 both declare a
    legal win on seat 1's reveal; only seat 2, first from the konger's 下家, wins.  A log giving
    the reveal to seat 3 (alone, or beside seat 2 in either order) is CLAIM_PRIORITY on seat 3, which is paid
    nothing: the corrected ledger pays seat 2 (1 → 2: 6 × 2 = 12), and the birds count from it."""
    holding = audit_game(log_of(cx.ex06_jiehu_on_the_reveal()))
    assert holding.findings == [] and holding.ledger[-1] == [0, -12, 12, 0]
    for wrong in (cx.ex06_jiehu_on_the_reveal(3), cx.ex06_jiehu_on_the_reveal(both=True),
                  _wins_swapped(cx.ex06_jiehu_on_the_reveal(both=True))):
        a = audit_game(log_of(wrong))
        assert [(f.code, f.seat) for f in a.findings] == [("CLAIM_PRIORITY", 3), ("BIRD_TILES_WRONG", None)]
        assert a.ledger[-1] == [0, -12, 12, 0]
    # near misses: seat 2 lets its win go (no declaration), so seat 3 is the first declarer;
    # under multi_win both declarers win (一炮多响)
    passed = audit_game(log_of(cx.ex06_jiehu_on_the_reveal(3, first_declares=False)))
    assert passed.findings == [] and passed.ledger[-1] == [0, -6, 0, 6]
    assert audit_game(log_of(cx.reopened(cx.ex06_jiehu_on_the_reveal(both=True), multi_win=True))).findings == []


def test_the_kongers_win_ends_the_hand_on_its_reveal():
    """§6.2.2: a revealed tile completes the konger's hand, so its 杠上开花 is the moment: another
    seat's win on the reveal, logged after the konger's or before it, is HAND_END_WRONG and paid
    nothing (the corrected ledger is §13.5's: +43 to seat 2)."""
    for b in (cx.nm_win_after_kaihua(), cx.nm_win_after_kaihua(others_first=True)):
        a = audit_game(log_of(b))
        assert [(f.code, f.seat) for f in a.findings] == [("HAND_END_WRONG", 3)]
        assert a.ledger[-1] == [-13, -12, 43, -18]
    # near misses: no revealed tile completes the konger's hand (§13.6: others win, 杠上炮);
    # two other seats win on one reveal
    assert audit_game(log_of(cx.ex06_gangshang_pao())).findings == []
    assert audit_game(log_of(cx.EXAMPLES["ex06_two_winners_on_the_reveal"]())).findings == []


def test_a_reveal_win_is_scored_on_the_better_revealed_tile():
    """§6.2.3: a seat that could win on two of the revealed tiles wins once, on the tile that
    scores more.  Seat 3 logged on 2s (将将胡 + 杠上炮, U = 2) where 5s gives 七小对 + 将将胡 +
    杠上炮 (U = 3): FAN_MISMATCH, and the corrected ledger pays 18 × 3 = 54, not 36.
    Near miss: the log names 5s, clean with the text's money."""
    better = audit_game(log_of(cx.ex06_better_revealed_tile("5s")))
    assert better.findings == [] and better.ledger[-1] == [0, -54, 0, 54]
    lesser = audit_game(log_of(cx.ex06_better_revealed_tile("2s")))
    assert [(f.code, f.seat, f.expected, f.actual) for f in lesser.findings] == [("FAN_MISMATCH", 3, 3, 2)]
    assert lesser.logged_scores[-1] == [0, -36, 0, 36] and lesser.ledger[-1] == [0, -54, 0, 54]


def test_the_kongers_kaihua_is_scored_on_its_best_completing_tile():
    """§6.2.2: both revealed tiles complete the konger's hand (双杠开花); it is scored on the best:
    2p gives 碰碰胡 + 将将胡 + 2 × 杠上开花 (U = 4, H = 24), 5p 将将胡 + 2 × 杠上开花 (U = 3).
    Logged on 5p: FAN_MISMATCH, the corrected ledger pays H = 24 (0 → 2: 73, 1 → 2: 72,
    3 → 2: 72).  Near miss: logged on 2p, clean; §13.5's 6m / 3m (equal scores) stay clean."""
    best = audit_game(log_of(cx.ex05_best_completing_tile("2p")))
    assert best.findings == [] and best.ledger[-1] == [-73, -72, 217, -72]
    lesser = audit_game(log_of(cx.ex05_best_completing_tile("5p")))
    assert [(f.code, f.seat, f.expected, f.actual) for f in lesser.findings] == [("FAN_MISMATCH", 2, 4, 3)]
    assert lesser.logged_scores[-1] == [-55, -54, 163, -54] and lesser.ledger[-1] == [-73, -72, 217, -72]
    assert audit_game(log_of(cx.OPTION_ROOMS["ex05_shuang_gangkai_double"]())).findings == []


def test_guohu_after_passing_a_revealed_tile():
    """§8 过胡: a seat that could win on a tile of another seat's 开杠 reveal and did not may win
    on no discard until its own next draw (WIN_DURING_GUOHU); under ``higher_value`` only with
    more units than the passed 杠上炮 (WIN_DURING_GUOSHUI); ``off`` bars nothing."""
    def codes(reveal, **options):
        return [(f.code, f.seat) for f in audit_game(log_of(cx.ex06_reveal_passed(reveal, options))).findings]
    assert codes("5s 8m") == [("WIN_DURING_GUOHU", 3)]
    assert codes("5s 8m", guohu="higher_value") == [("WIN_DURING_GUOSHUI", 3)]
    # near misses: nobody could win on the reveal (1p 9s); the pass rule off
    assert codes("1p 9s") == []
    assert codes("5s 8m", guohu="off") == []


def test_a_passed_reveal_is_valued_with_its_gangshang_pao():
    """A win chance on a revealed tile is kept in the pass book with the context ``REVEALED``:
    judged after the reveal closed, the win still counts its 杠上炮 (``higher_value`` compares
    with it); a plain discard context does not."""
    from audits.rules.changsha import play
    r = resolve("changsha")
    table = SimpleNamespace(revealed=[], revealed_by=None, sea_offers=[], melds=[[None], [], [], []])
    five = TILE_INDEX["5s"]
    got = CHANGSHA.wins.win_context(r, table, 3, "discard", five, False, play.REVEALED)
    assert got.kong_reveal == 1
    assert CHANGSHA.wins.win_context(r, table, 3, "discard", five, False, True).kong_reveal == 0


def test_the_konger_deals_after_the_wall_ran_out_through_its_kong():
    """§3 rule 5: no win, and the wall's last tile went to a kong (a 补张 replacement or a 开杠
    reveal): the konger deals.  Near misses: the 海底 taker (rule 3), a legal winner (rule 1),
    an illegal win alone (rule 6: the dealer stays), a wall that still holds tiles."""
    bad = cx.NEAR_MISSES["nm_dealer_after_wall_out_through_a_kong"][0]()
    assert [f.code for f in audit_game(log_of(bad)).findings] == ["DEALER_ROTATION"]
    assert audit_game(log_of(cx.EXAMPLES["ex14_wall_out_through_a_kong"]())).findings == []
    from audits.rules.changsha import play, settlement
    r = resolve("changsha")
    book = play.HandBook(r, 4, 0)

    def table(**kw):
        base = dict(undrawn=0, tail=[], sea_offers=[], revealed=[], revealed_by=None, turn_draw="wall",
                    last_discard=None)
        return SimpleNamespace(**(base | kw))
    assert settlement.dealer_after(r, 0, None, 4, table=table(), book=book) == 0
    # seat 3's 开杠 turned the last tiles (still face up: nobody drew after them)
    reveal = table(revealed=[TILE_INDEX["5s"]], revealed_by=3)
    assert settlement.dealer_after(r, 0, None, 4, table=reveal, book=book) == 3
    # seat 1 threw after its 补张 replacement took the last tile
    assert settlement.dealer_after(r, 0, None, 4, table=table(turn_draw="tail", last_discard=(1, 5)), book=book) == 1
    assert settlement.dealer_after(r, 0, None, 4, table=table(undrawn=3, turn_draw="tail", last_discard=(1, 5)),
                                   book=book) == 0
    assert settlement.dealer_after(r, 0, None, 4, table=table(sea_offers=[(2, True)]), book=book) == 2
    book.true, book.logged, book.how = [(2, 1)], [(2, 1)], "discard"
    assert settlement.dealer_after(r, 0, ([2], "discard", 3), 4, table=reveal, book=book) == 2
    book.true = []
    assert settlement.dealer_after(r, 0, ([2], "discard", 3), 4, table=reveal, book=book) == 0


def test_birds_and_reveals_against_a_logged_wall():
    """§2: with a logged wall the birds and the revealed tiles are the wall's next undrawn tiles
    from the end they name, tile by tile (BIRD_TILES_WRONG, KAIGANG_REVEAL_WRONG); without one
    only their count and source are judged.  Every §13 room audits clean with its wall logged."""
    from paipu.sim.changsha.scenes import with_wall
    for name, make in {**cx.EXAMPLES, **cx.OPTION_ROOMS}.items():
        assert audit_game(log_of(with_wall(make()))).findings == [], name
    for bad, code in (("nm_birds_not_off_the_wall", "BIRD_TILES_WRONG"),
                      ("nm_reveal_not_off_the_wall", "KAIGANG_REVEAL_WRONG")):
        assert [f.code for f in audit_game(log_of(cx.NEAR_MISSES[bad][0]())).findings] == [code]
    # near miss: the same swapped tiles with no logged wall are not judged tile by tile
    swapped = cx._logged_as(cx.ex01_small_discard_win(), ev.BirdsDrawn, "4p 7m")
    assert audit_game(log_of(swapped)).findings == []


def _wall_table(wall, head, tail):
    return SimpleNamespace(wall=[TILE_INDEX[x] for x in wall.split()], wall_head=head, wall_tail=tail,
                           total=len(wall.split()))


def test_tail_and_free_tiles_against_a_logged_wall():
    """Tail birds and reveals are the wall's last undrawn tiles, last first; ``free`` reveals are
    any undrawn tiles (a tile outside the undrawn span is KAIGANG_REVEAL_WRONG)."""
    from audits.rules.changsha import play
    table = _wall_table("1m 2m 3m 4m 5m 6m", 1, 4)  # undrawn: 2m 3m 4m 5m
    assert play.wall_tiles(table, "wall", 2) == [TILE_INDEX["2m"], TILE_INDEX["3m"]]
    assert play.wall_tiles(table, "tail", 2) == [TILE_INDEX["5m"], TILE_INDEX["4m"]]
    assert play.wall_tiles(table, "tail", 5) is None

    def reveal(tiles, source):
        e = ev.KongRevealed("g", 1, None, seat=1, tiles=tiles.split(), source=source)
        return [v.code for _s, v in play._revealed_off_the_wall(table, e)]
    assert reveal("5m 4m", "tail") == []
    assert reveal("4m 5m", "tail") == ["KAIGANG_REVEAL_WRONG"]
    assert reveal("3m 5m", "free") == []
    assert reveal("3m 6m", "free") == ["KAIGANG_REVEAL_WRONG"]  # 6m was drawn from the tail end
    assert play._revealed_off_the_wall(SimpleNamespace(wall=None, wall_head=0, wall_tail=0, total=108),
                                       ev.KongRevealed("g", 1, None, seat=1, tiles=["9s"], source="free")) == []


def test_a_free_reveal_inside_a_logged_wall():
    """§2, §6.2.1 ``kaigang_source = free`` with a logged wall: the revealed tiles may come from
    stacks inside the wall; the other undrawn tiles keep their order, so the draws from the head
    after the reveal and the birds from the tail are still judged against the wall as it stands.
    Holding: the free tiles inside the wall, behind the head's draws or ahead of the last one,
    audit clean; near miss: the tail birds logged out of order are BIRD_TILES_WRONG."""
    for free_at in (0, 10, 30, -1):
        a = audit_game(log_of(cx.ex06_free_reveal_inside_the_wall(free_at)))
        assert a.findings == [] and a.ledger[-1] == [0, 0, -3, 3], free_at
    bad = cx.NEAR_MISSES["nm_tail_birds_after_a_free_reveal"][0]()
    assert [(f.code, f.expected) for f in audit_game(log_of(bad)).findings] == [("BIRD_TILES_WRONG", ["1m", "5m"])]


def test_free_tiles_leave_a_logged_wall_where_they_lie():
    """The reducer moves ``free`` tiles to the wall's last undrawn positions, the others keeping
    their order: the run nearest the tail that reads them (in the logged order or last first),
    else each tile's occurrence nearest the tail; a tile that is not undrawn moves nothing."""
    from replay.special import _free_tiles_last

    def moved(wall, tiles, head=1, tail=6):
        w = SimpleNamespace(wall=[TILE_INDEX[x] for x in wall.split()], wall_head=head, wall_tail=tail,
                            total=len(wall.split()))
        _free_tiles_last(w, [TILE_INDEX[x] for x in tiles.split()])
        return " ".join(TILE_NAMES[t] for t in w.wall)
    # undrawn: positions 1..6
    assert moved("1m 3m 4m 5m 3m 4m 6m 7m", "3m 4m") == "1m 3m 4m 5m 6m 3m 4m 7m"  # the run nearest the tail
    assert moved("1m 3m 4m 5m 9m 2m 6m 7m", "4m 3m") == "1m 5m 9m 2m 6m 3m 4m 7m"  # last first
    assert moved("1m 3m 9m 4m 2m 3m 6m 7m", "3m 4m") == "1m 3m 9m 2m 6m 4m 3m 7m"  # tile by tile
    assert moved("1m 3m 9m 4m 2m 3m 6m 7m", "3m 7m") == "1m 3m 9m 4m 2m 3m 6m 7m"  # 7m was drawn: unmoved


def test_first_dealer_creator():
    """§3 ``first_dealer = creator``: the creator deals the first hand (DEALER_ROTATION); later
    hands follow the rotation.  Near misses: the creator deals; ``any`` judges no first dealer."""
    found = audit_game(log_of(cx.NEAR_MISSES["nm_first_dealer_not_creator"][0]())).findings
    assert [(f.code, f.seat, f.seq) for f in found] == [("DEALER_ROTATION", 0, 1)]
    assert audit_game(log_of(cx.OPTION_ROOMS["ex14_first_dealer_creator"]())).findings == []
    assert audit_game(log_of(cx.created_by(cx.ex01_small_discard_win(), 1, "any"))).findings == []


def _sea_taken(then: str):
    """§7: seat 3 declines the 海底, seat 0 takes it (5p) and ``then``: throws it (``"5p"``),
    throws another tile (``"other"``), or throws it and seat 1 pongs it (``"pong"``) and
    discards 9s.  Nobody wins: a drawn hand, nothing paid."""
    from paipu.sim.changsha.examples import ChangshaScene
    s = ChangshaScene(f"cs-sea-{then}")
    s.hand(0, {0: "5p 9m", 1: "55p 234m 678m 345s 9s"}, reserve="5p", avoid="5p")
    s.until(s.opening_round(0), 1)
    s.offer(3, False)
    s.offer(0, True)
    s.draw(0, "5p")
    s.discard(0, "9m" if then == "other" else "5p")
    if then == "pong":
        s.pong(1, 0, "5p")
        s.discard(1, "9s")
    s.b.exhausted(0)
    s.settle([])
    return s.close()


def test_only_the_haidi_taker_must_throw_the_haidi_tile():
    """§7.3: the 海底 taker's only discard is the 海底 tile (SEA_BOTTOM_ORDER at its other
    discard).  The rule binds the taker: after a pong of the 海底 tile (itself a finding), the
    ponger's discard is not judged as the taker's.  Near miss: the taker throws the 海底 tile."""
    assert audit_game(log_of(_sea_taken("5p"))).findings == []
    other = audit_game(log_of(_sea_taken("other"))).findings
    assert [(f.code, f.seat, f.actual) for f in other] == [("SEA_BOTTOM_ORDER", 0, "9m")]
    ponged = audit_game(log_of(_sea_taken("pong"))).findings
    assert "SEA_BOTTOM_ORDER" in [f.code for f in ponged]
    assert [f for f in ponged if f.seat == 1 and f.actual == "9s"] == []


def test_birds_on_a_drawn_hand_are_bird_tiles_wrong():
    """§10.3 / §14: birds are drawn only after a winning moment; birds on a drawn hand are
    BIRD_TILES_WRONG.  Near miss: the same drawn hand without birds is clean."""
    def drawn(with_birds: bool):
        from paipu.sim.changsha.examples import ChangshaScene
        s = ChangshaScene("cs-drawn-birds")
        s.hand(0, {})
        s.until(s.opening_round(0), 1)
        s.offer(3, True)
        t = s.draw(3)
        s.discard(3, t)
        s.b.exhausted(0)
        if with_birds:
            s.b.birds([t], 3, "last")
        s.settle([])
        return s.close()
    assert audit_game(log_of(drawn(False))).findings == []
    assert [f.code for f in audit_game(log_of(drawn(True))).findings] == ["BIRD_TILES_WRONG"]


def _first_draw_win(scope: str, dihe: bool):
    """A non-dealer's self-draw on its first draw: seat 1 (123m 456m 789p 34s 55s) draws 2s after
    the dealer's first discard; birds 1m 1m from seat 1 hit it twice (f = 3).  Logged as 地胡
    (U = 1, H = 6: 0 → 1: 19, 2 → 1: 18, 3 → 1: 18) or as a small self-draw (H = 2: 7, 6, 6)."""
    from paipu.sim.changsha.examples import ChangshaScene
    s = ChangshaScene(f"cs-dihe-{scope}-{dihe}", {"dihe_scope": scope})
    s.hand(0, {1: "123m 456m 789p 34s 55s"}, reserve="2s 1m 1m", avoid="2s 5s")
    s.discard(0)
    s.draw(1, "2s")
    h = 6 if dihe else 2
    s.win([(1, ["dihe"] if dihe else ["jihu"], int(dihe), h)], "self_draw", "2s")
    s.birds("1m 1m", 1)
    s.settle([(0, 1, 3 * h + 1, "win"), (2, 1, 3 * h, "win"), (3, 1, 3 * h, "win")])
    return s.close()


def _second_discard_win(dihe: bool):
    """§13's 地胡 room (ex13) with the dealer's 2s its second discard, after a round of play:
    seat 1 wins it, a small win (0 → 1: 1 × 3 + 1 = 4) or logged as 地胡 (19)."""
    from paipu.sim.changsha.examples import ChangshaScene
    s = ChangshaScene(f"cs-dihe-second-{dihe}")
    s.hand(0, {0: "2s", 1: "123m 456m 789p 34s 55s"}, reserve="1m 1m", avoid="2s 5s")
    s.discard(0)
    s.go_around(1, 3)
    s.draw(0)
    s.discard(0, "2s")
    h = 6 if dihe else 1
    s.win([(1, ["dihe"] if dihe else ["jihu"], int(dihe), h)], "discard", "2s", from_seat=0)
    s.birds("1m 1m", 1)
    s.settle([(0, 1, 3 * h + 1, "win")])
    return s.close()


def test_dihe_scope():
    """§9.3 地胡: ``dealer_first_discard`` (default): a non-dealer's win on the dealer's first
    discard (ex13), not on its second; ``first_draw`` (the design note's name for the text's
    ``first_self_draw``): a non-dealer's self-draw on its first draw, before any claim or kong.
    Each room logged with the text's units is clean; logged the other way, FAN_MISMATCH."""
    def codes(b):
        return [f.code for f in audit_game(log_of(b)).findings]
    assert codes(cx.ex13_dihe()) == []
    assert codes(_second_discard_win(False)) == []
    assert codes(_second_discard_win(True)) == ["FAN_MISMATCH"]
    assert codes(_first_draw_win("first_draw", True)) == []
    assert codes(_first_draw_win("first_draw", False)) == ["FAN_MISMATCH"]
    assert codes(_first_draw_win("dealer_first_discard", False)) == []
    assert codes(_first_draw_win("dealer_first_discard", True)) == ["FAN_MISMATCH"]
    # under first_draw the dealer's first discard is no 地胡: ex13 logged with it is wrong
    assert codes(cx.reopened(cx.ex13_dihe(), dihe_scope="first_draw")) == ["FAN_MISMATCH"]


def test_kaigang_count_four():
    """§6.2.1 ``kaigang_count = 4`` (杠摸4张): a 开杠 turns four tiles.  §13.6 with four revealed
    (5s 8m 1p 9s; seat 3 wins on 5s) is clean under 4 and KAIGANG_REVEAL_WRONG under the default
    2; §13.6 as written (two revealed) is KAIGANG_REVEAL_WRONG under 4."""
    four = cx.ex06_variant(reveal="5s 8m 1p 9s")
    assert [f.code for f in audit_game(log_of(cx.reopened(four, kaigang_count=4))).findings] == []
    assert [f.code for f in audit_game(log_of(cx.ex06_variant(reveal="5s 8m 1p 9s"))).findings] == \
        ["KAIGANG_REVEAL_WRONG"]
    two = cx.reopened(cx.ex06_gangshang_pao(), kaigang_count=4)
    assert [f.code for f in audit_game(log_of(two)).findings] == ["KAIGANG_REVEAL_WRONG"]


def test_wrong_bird_tiles_are_corrected_in_the_ledger():
    """§10.6: when BirdsDrawn itself is wrong (BIRD_TILES_WRONG) the right birds give the corrected
    ledger, where the table knows them.  §13.1 with its wall logged (birds 7m 4p) logged with
    5m 4p (5m hits seat 2, so 1 → 2: 1 × 3 = 3): the ledger pays the text's 2.  §13.8 on an empty
    wall with the bird logged 3p instead of the 海底 tile 5p (0 → 1: 7, 0 → 2: 37): the ledger
    pays the text's 13 and 37.  Near misses: both rooms as written are clean (test_logs)."""
    from paipu.sim.changsha.scenes import with_wall
    wrong = cx.repaid(cx._logged_as(with_wall(cx.ex01_small_discard_win()), ev.BirdsDrawn, "5m 4p"),
                      [(1, 2, 3, "win")])
    a = audit_game(log_of(wrong))
    assert [(f.code, f.expected) for f in a.findings] == [("BIRD_TILES_WRONG", ["7m", "4p"])]
    assert a.logged_scores[-1] == [0, -3, 3, 0] and a.ledger[-1] == [0, -2, 2, 0]
    sea = cx.repaid(cx._logged_as(cx.ex08_haidi_pao(), ev.BirdsDrawn, "3p"), [(0, 1, 7, "win"), (0, 2, 37, "win")])
    a = audit_game(log_of(sea))
    assert [(f.code, f.expected, f.actual) for f in a.findings] == [("BIRD_TILES_WRONG", ["5p"], ["3p"])]
    assert a.logged_scores[-1] == [-44, 7, 37, 0] and a.ledger[-1] == [-50, 13, 37, 0]
    assert audit_game(log_of(cx.ex08_haidi_pao())).findings == []
