"""Toy families for the new families' shared ground (shared/design/new-families.md §1, §4),
each defined here and nowhere in paipu: an indicator-wild toy, a 16+1 toy, a flower toy and
a bird toy.  Each audits a game clean and catches a planted fault through the walker's
shared checks or its own hooks, with no edit to the walker: a new piece is options, data
and small functions of a family."""

from __future__ import annotations

import msgspec
import pytest

from audits import audit_game
from audits.rules import FAMILIES, money, register
from audits.rules.family import Score, Settlement, Violation, variant
from audits.rules.qujing import QUJING
from schema import events as ev
from schema import ruleset as rs
from schema.builder import GameBuilder
from schema.tiles import TILE_INDEX, TILE_NAMES

from .helpers import log_of
from .test_toy_family import TOY, toy_game, toy_reading_fans

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

WILD = variant(TOY, name="toy-wild", table={"events": frozenset({ev.IndicatorTurned})})


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


# --- 2. a flower toy: 144 tiles, flowers set aside and replaced from the tail ------------------
# Its own rules are one check (only a flower is set aside, SET_ASIDE_INVALID) and one fan
# (花上开花 on ``WinContext.after_flower``); the replacement rules are the walker's, as after a kong.

def _flower_checks(ruleset, table, event) -> list[Violation]:
    if isinstance(event, ev.TileSetAside) and not event.tile.endswith("f"):
        return [Violation("SET_ASIDE_INVALID", f"{event.tile} is not a flower", "a flower", event.tile)]
    return []


def _flower_fans(ruleset, concealed, melds, ctx):
    for names, total, reading in toy_reading_fans(ruleset, concealed, melds, ctx):
        if ctx.after_flower:
            names = [n for n in names if n != "dihu"] + ["huashang"]
            total += 1
        yield names, total, reading


def _flower_score(ruleset, concealed, melds, ctx, passed_win=False):
    best = max(_flower_fans(ruleset, concealed, melds, ctx), key=lambda x: x[1], default=None)
    if best is None:
        return Score(False, False, [], 0, 0, 0, None, "not a complete hand")
    names, total, reading = best
    return Score(True, True, names, total, min(total, ruleset.fan_cap), QUJING.scoring.points(total, ruleset), reading)


FLOWER = variant(TOY, name="toy-flower", table={"replacement_source": lambda ruleset: "tail",
                                                 "events": frozenset({ev.TileSetAside})},
                 scoring={"reading_fans": _flower_fans, "score": _flower_score},
                 own={"event_checks": _flower_checks})


@pytest.fixture
def flower_room(monkeypatch):
    monkeypatch.setitem(rs.TILE_SETS, "toy-flower", 144)
    _register(monkeypatch, FLOWER, wilds=())
    yield
    FAMILIES.pop("toy-flower", None)


def flower_game(set_aside="1f", source="tail", replace=True) -> GameBuilder:
    """The toy game without the kong; the dealer's 7z is dealt as a flower, set aside and
    replaced by the 7z from the tail."""
    def edit(b, e):
        if type(e) is ev.TilesDealt:
            hands = list(e.hands)
            hands[0] = "2222m345m678m234p1f" if set_aside.endswith("f") else hands[0]
            b.deal(*hands)
            b.set_aside(0, set_aside)
            if replace:
                b.draw(0, "7z" if set_aside.endswith("f") else "1f", source=source)
            return True
        return False
    return rebuild(toy_game(dealer_kong=False), "toy-flower", edit)


def test_flower_toy_a_flower_set_aside_and_replaced_audits_clean(flower_room):
    assert codes(flower_game()) == []


def test_flower_toy_the_replacement_comes_first_and_from_the_tail(flower_room):
    assert codes(flower_game(source="wall")) == ["KONG_REPLACEMENT_NOT_FROM_TAIL"]
    found = codes(flower_game(replace=False))
    assert found[0] == "KONG_REPLACEMENT_NOT_FROM_TAIL" and "HAND_SIZE" in found


def test_flower_toy_only_a_flower_is_set_aside(flower_room):
    assert "SET_ASIDE_INVALID" in codes(flower_game(set_aside="7z"))


def test_flower_toy_a_flower_outside_its_set_is_found(flower_room, monkeypatch):
    # near miss of the set: the same log where the family's set is 136 tiles
    monkeypatch.setitem(rs.TILE_SETS, "toy-flower", 136)
    assert "TILE_NOT_IN_SET" in codes(flower_game())


def huashang_game(fans=("menqing_zimo", "huashang"), kong=False) -> GameBuilder:
    """The dealer sets its flower aside (or konges 2222m) and wins on the replacement 5p."""
    b = GameBuilder("toy-flower-2", preset="toy-flower", fee=0)
    b.open()
    b.hand(1, dealer=0)
    b.deal("2222m456m789m123p5p" if kong else "123m456m789m123p5p1f",
           "147m258p369s1234z", "369m147p258s5676z", "369m147p258s1234z")
    if kong:
        b.kong_concealed(0, "2m", "2m2m2m2m")
    else:
        b.set_aside(0, "1f")
    b.draw(0, "5p", source="tail")
    fan = len(fans)
    p = 2 ** fan
    b.win([(0, list(fans), fan, p)], "self_draw", "5p")
    b.settle([(s, 0, p, "win") for s in (1, 2, 3)], [3 * p, -p, -p, -p])
    b.close("hands_done", [3 * p, -p, -p, -p])
    return b


def test_flower_toy_a_win_on_the_flower_replacement_is_after_a_flower(flower_room):
    assert codes(huashang_game()) == []
    # planted: the fan left out
    assert codes(huashang_game(fans=("menqing_zimo",))) == ["FAN_MISMATCH"]


def test_flower_toy_a_kong_replacement_is_no_flower_replacement(flower_room):
    # near miss: the same win on a kong's replacement is after a kong (Qujing's 五梅花 on a 5p
    # replacement), not after a flower; and the flower's replacement was no kong's
    found = audit_game(log_of(huashang_game(kong=True))).findings
    assert [f.code for f in found] == ["FAN_MISMATCH"]
    assert "huashang" not in found[0].expected["fans"] and "wumeihua" in found[0].expected["fans"]


# --- 3. a 16+1 toy: 16-tile hands, a win of five sets and a pair ---------------------------------

SIXTEEN = variant(TOY, name="toy-16")


@pytest.fixture
def sixteen_room(monkeypatch):
    monkeypatch.setattr(rs, "SIXTEEN_TILE_HANDS", rs.SIXTEEN_TILE_HANDS | {"toy-16"})
    _register(monkeypatch, SIXTEEN, wilds=())
    yield
    FAMILIES.pop("toy-16", None)


def sixteen_game(seat1="123p456p789p123s456s9p", seat3="555m666m777m888m999m6z") -> GameBuilder:
    b = GameBuilder("toy-16-1", preset="toy-16", fee=0)
    b.open()
    b.hand(1, dealer=0)
    b.deal("111m222m333m444m5m9p789s", seat1, "111z222z333z444z555z6z", seat3)
    b.discard(0, "9p")
    b.win([(1, ["dihu"], 0, 1)], "discard", "9p", from_seat=0)
    b.settle([(0, 1, 1, "win")], [-1, 1, 0, 0])
    b.close("hands_done", [-1, 1, 0, 0])
    return b


def test_sixteen_toy_a_five_set_win_audits_clean(sixteen_room):
    assert codes(sixteen_game()) == []


def test_sixteen_toy_hand_sizes_and_wins_count_sixteen(sixteen_room):
    # planted: a seat dealt 15
    assert codes(sixteen_game(seat3="555m666m777m888m99m6z")) == ["HAND_SIZE"]
    # near miss of the win: four sets and a pair are not a 16+1 win
    assert "WIN_INCOMPLETE" in codes(sixteen_game(seat1="123p456p789p123s457s9p"))


def test_sixteen_toy_the_same_deal_is_the_wrong_size_in_a_13_tile_family(sixteen_room, monkeypatch):
    monkeypatch.setattr(rs, "SIXTEEN_TILE_HANDS", frozenset())
    assert "HAND_SIZE" in codes(sixteen_game())


# --- 4. a bird toy: birds after the win, a factor in the family's settlement -----------------------
# A bird of rank r counts r − 1 seats on from its origin; each bird on the winner adds one more
# P from every payer, as a ``bird`` transfer (compared with the wins).

def _bird_facts(ruleset, table, won=None):
    facts = QUJING.settlement.hand_facts(ruleset, table.received, table.bets)
    if won is None or table.bird_origin is None:
        return facts
    n = len(table.players)
    hits = sum(1 for b in table.birds if (table.bird_origin + b % 9) % n == won.winners[0].seat)
    return facts._replace(extra=hits)


def _bird_settle(ruleset, scores, winners=(), how=None, from_seat=None, facts=None, clamp=True):
    hits = facts.extra or 0
    got = QUJING.settlement.settle(ruleset, scores, winners, how, from_seat, facts._replace(extra=None), clamp)
    birds = [ev.Transfer(payer=t.payer, payee=t.payee, amount=t.amount * hits, reason="bird")
             for t in got.transfers if t.reason == "win" and hits]
    after = list(got.scores)
    for t in birds:
        after[t.payer] -= t.amount
        after[t.payee] += t.amount
    return Settlement(got.transfers + birds, after, got.game_over)


def _birds_due(ruleset, table, won):
    """One bird from the wall's head after every win, counted from the (first) winner."""
    return 1, "wall", won.winners[0].seat


BIRD = variant(TOY, name="toy-bird", table={"events": frozenset({ev.BirdsDrawn})},
               settlement={"table_facts": _bird_facts, "settle": _bird_settle, "birds_due": _birds_due,
                           "transfer_groups": ((("win", "qianggang", "bird"), "TRANSFER_MISMATCH"),
                                               (("yangzhu",), "YANGZHU_MISMATCH"))})


@pytest.fixture
def bird_room(monkeypatch):
    _register(monkeypatch, BIRD, wilds=())
    yield
    FAMILIES.pop("toy-bird", None)


def bird_game(bird="1m", paid=True) -> GameBuilder:
    """The toy game (seat 1 wins seat 0's 3p) with one bird from origin seat 1."""
    hit = bird == "1m"

    def edit(b, e):
        if type(e) is ev.HandSettled:
            b.birds([bird], origin=1)
            extra = [(0, 1, 1, "bird")] if hit and paid else []
            total = 1 + len(extra)
            b.settle([(0, 1, 1, "win"), *extra], [-total, total, 0, 0])
            return True
        if type(e) is ev.GameClosed:
            total = 2 if hit and paid else 1
            b.close("hands_done", [-total, total, 0, 0])
            return True
        return False
    return rebuild(toy_game(), "toy-bird", edit)


def test_bird_toy_a_bird_on_the_winner_is_paid(bird_room):
    assert codes(bird_game()) == []
    assert audit_game(log_of(bird_game())).ledger == [[-2, 2, 0, 0]]


def test_bird_toy_an_unpaid_bird_is_found(bird_room):
    assert codes(bird_game(paid=False)) == ["TRANSFER_MISMATCH"]
    # near miss: a bird two seats on from the origin misses the winner, and nothing more is due
    assert codes(bird_game(bird="3m")) == []


def test_bird_toy_a_bird_is_a_tile_seen(bird_room):
    # four 2m are in play (seat 0's concealed kong): a bird of 2m is a fifth
    assert "TILE_OVERCOUNT" in codes(bird_game(bird="2m"))


# --- 5. a dealer-pair toy: per-payer amounts (Winner.payers) judged by payer_points --------------
# The dealer pair pays double (``dealer_bonus = double``, audits/rules/money.py) in the
# family's settlement and in each payer's logged share.

def _dealer_facts(ruleset, table, won=None):
    return QUJING.settlement.hand_facts(ruleset, table.received, table.bets)._replace(extra=table.dealer)


def _dealer_settle(ruleset, scores, winners=(), how=None, from_seat=None, facts=None, clamp=True):
    got = QUJING.settlement.settle(ruleset, scores, winners, how, from_seat, facts._replace(extra=None), clamp)
    dealer = facts.extra
    moved = [t if dealer not in (t.payer, t.payee) else
             msgspec.structs.replace(t, amount=money.with_dealer_bonus(ruleset, t.amount, True))
             for t in got.transfers]
    after = list(scores)
    for t in moved:
        after[t.payer] -= t.amount
        after[t.payee] += t.amount
    return Settlement(moved, after, got.game_over)


def _dealer_payer_points(ruleset, winner, score, facts):
    p = score.points if score is not None else winner.points
    return {s.seat: money.with_dealer_bonus(ruleset, p, facts.extra in (s.seat, winner.seat))
            for s in winner.payers}


DEALER = variant(TOY, name="toy-dealer", scoring={"payer_points": _dealer_payer_points},
                 settlement={"table_facts": _dealer_facts, "settle": _dealer_settle})


@pytest.fixture
def dealer_room(monkeypatch):
    _register(monkeypatch, DEALER, wilds=(), dealer_bonus="double")
    yield
    FAMILIES.pop("toy-dealer", None)


def dealer_game(share: int = 2) -> GameBuilder:
    """The toy game: seat 1 wins the dealer's 3p; the dealer pair pays 2P."""
    def edit(b, e):
        if type(e) is ev.HandWon:
            b.win([(1, ["dihu"], 0, 1, [(0, 0, 2, share)])], "discard", "3p", from_seat=0)
            return True
        if type(e) is ev.HandSettled:
            b.settle([(0, 1, 2, "win")], [-2, 2, 0, 0])
            return True
        if type(e) is ev.GameClosed:
            b.close("hands_done", [-2, 2, 0, 0])
            return True
        return False
    return rebuild(toy_game(), "toy-dealer", edit)


def test_dealer_toy_per_payer_shares_audit_clean(dealer_room):
    assert codes(dealer_game()) == []


def test_dealer_toy_a_wrong_share_is_points_mismatch(dealer_room):
    found = audit_game(log_of(dealer_game(share=1))).findings
    assert [(f.code, f.expected, f.actual) for f in found] == [("POINTS_MISMATCH", 2, 1)]


# --- 6. a turn toy: the family names the drawer (next_drawer, end-of-wall turns) ------------------

@pytest.mark.parametrize("drawer, want", [
    (lambda ruleset, table: None, []),                           # the usual turn
    (lambda ruleset, table: table.turn, []),                      # the family agrees with it
    (lambda ruleset, table: (table.turn + 1) % 4, ["TURN_ORDER"]),  # near miss: another seat was due
])
def test_turn_toy_the_familys_drawer_decides_turn_order(monkeypatch, drawer, want):
    fam = variant(TOY, name="toy-turn", table={"next_drawer": drawer})
    _register(monkeypatch, fam, wilds=())
    try:
        found = audit_game(log_of(rebuild(toy_game(), "toy-turn", lambda b, e: False))).findings
        assert [f.code for f in found] == want
        if want:
            assert found[0].expected == (found[0].actual + 1) % 4
    finally:
        FAMILIES.pop("toy-turn", None)
