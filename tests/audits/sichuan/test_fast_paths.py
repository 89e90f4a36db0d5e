"""The Sichuan family's own fast paths checked against the rules they stand for: the
no-wild readings against the shared engine's readings, the 查大叫 shortcut through the
audit's wait entry against the full wait search, and the family's draw and discard
wrappers against ``observe``."""

from __future__ import annotations

import random

from audits.rules.hands import readings
from audits.rules.sichuan import fans as F
from audits.rules.sichuan import play
from paipu.sim.simulate import SimConfig, simulate_games
from replay import Replayer
from schema import events as ev

YAOJIU = {t for t in range(27) if t % 9 in (0, 8)}


def _reference(counts, has_melds):
    """(seven pairs, no chow among the sets, every group holds a 1 or a 9) of each reading
    of the shared engine, in its order."""
    out = []
    for r in readings(counts, 0, None, has_melds, exhaustive=False):
        if r.seven_pairs:
            out.append((True, False, False))
        else:
            out.append((False, all(g.kind == "pong" for g in r.sets),
                        all(any(t in YAOJIU for t in g.tiles) for g in r.groups)))
    return out


def _random_hand(rng: random.Random) -> tuple[list[int], int]:
    """A complete concealed part (or, now and then, any 14 tiles) and its number of melds."""
    melds = rng.choice((0, 0, 0, 1, 2, 3, 4))
    c = [0] * 34
    suits = rng.sample(range(3), rng.choice((1, 2, 2, 3)))
    if not melds and rng.random() < 0.25:  # seven pairs, four equal tiles now and then
        while sum(c) < 14:
            t = 9 * rng.choice(suits) + rng.randrange(9)
            if c[t] <= 2:
                c[t] += 2
        return c, 0
    if rng.random() < 0.1:  # any tiles: most are no hand at all
        while sum(c) < 14 - 3 * melds:
            t = 9 * rng.choice(suits) + rng.randrange(9)
            if c[t] < 4:
                c[t] += 1
        return c, melds
    while True:
        c = [0] * 34
        for _ in range(4 - melds):
            s = 9 * rng.choice(suits)
            if rng.random() < 0.5:
                r = s + rng.randrange(7)
                for t in (r, r + 1, r + 2):
                    c[t] += 1
            else:
                c[s + rng.randrange(9)] += 3
        c[9 * rng.choice(suits) + rng.randrange(9)] += 2
        if max(c) <= 4:
            return c, melds


def test_plain_readings_are_the_engines_readings():
    rng = random.Random(7)
    seen = 0
    for _ in range(6000):
        c, melds = _random_hand(rng)
        want = _reference(c, bool(melds))
        assert F.plain_readings(c, bool(melds)) == want, c
        seen += len(want) > 1
    assert seen > 100  # hands read more than one way are among them


def test_plain_readings_near_miss():
    # 111222333m: three pongs or three chows; with 789p 55s: chows are not all pong
    c = [0] * 34
    for t in (0, 1, 2):
        c[t] = 3
    c[15] = c[16] = c[17] = 1
    c[22] = 2
    got = F.plain_readings(c, False)
    assert got == _reference(c, False) and len(got) == 2
    c[22] = 1  # 13 tiles: no reading
    assert F.plain_readings(c, False) == []


def _tables(preset: str, games: int, seed: int):
    """Each table of simulated rooms as it stands before each event."""
    for g in simulate_games(SimConfig(preset=preset, games=games, seed=seed, max_hands=4)):
        r = Replayer()
        for e in g:
            yield r.table, e
            r.apply(e)


def test_an_empty_wait_entry_means_no_wait():
    # 查大叫's shortcut (play.classify): a 3k+1 hand whose wait entry is empty waits on nothing
    empty = waiting = 0
    for t, e in _tables("sichuan-xuezhan", 12, 5):
        if type(e) is not ev.TileDiscarded:
            continue
        rules = t.ruleset
        for s in range(len(t.players)):
            if t.held[s] % 3 != 1:
                continue
            entry = F.seat_waits(rules, t.hands[s], t.keys[s], t.held[s], t.melds[s])
            waits = F.waits_on(rules, t.hands[s], t.melds[s], t.voids[s])
            if not entry:
                empty += 1
                assert waits == [], (t.hands[s], t.melds[s])
            waiting += bool(waits)
    assert empty > 100 and waiting > 10


def test_classify_with_the_wait_entries_is_classify():
    drawn = 0
    for t, e in _tables("sichuan-xuezhan", 40, 9):
        if type(e) is not ev.HandDrawn:
            continue
        drawn += 1
        rules = t.ruleset

        def entry(s, t=t, rules=rules):
            return F.seat_waits(rules, t.hands[s], t.keys[s], t.held[s], t.melds[s])
        assert play.classify(rules, t, entry) == play.classify(rules, t)
    assert drawn > 20


def test_the_wrappers_report_what_observe_reports():
    # the family's wrapped draw and discard handlers against the generic wrapper of observe
    from audits import audit as A
    from audits.audit import audit_game
    from paipu.sim.mutate import mutate
    from paipu.sim.sichuan_faults import SOURCES
    from schema.reader import GameLog

    games = []
    for name in ("sichuan_void_discard", "sichuan_last_four_not_taken", "sichuan_tile_not_in_set",
                 "sichuan_action_after_win", "sichuan_play_after_win"):
        preset, options = SOURCES[name]
        rng = random.Random(name)
        planted = 0
        for g in simulate_games(SimConfig(preset=preset, options=options, games=300, seed=11, max_hands=4,
                                          arrange=0.0)):
            got = mutate(g, name, rng)
            if got is not None:
                games.append(got[0])
                planted += 1
                if planted == 4:
                    break
    assert len(games) >= 15

    def findings():
        return [[(f.code, f.seq, f.seat, f.expected, f.actual) for f in audit_game(
            GameLog(g[0].game, "x", g, list(range(1, len(g) + 1)), None, True)).findings] for g in games]

    fast = findings()
    saved = dict(A._WATCHED)
    try:
        from audits.rules.sichuan import SICHUAN
        generic = {t: A._watching(SICHUAN, A.HANDLERS[t], t in play.OBSERVE_AFTER) for t in play.OBSERVES}
        A._WATCHED["sichuan"] = {**A.HANDLERS, **generic}
        slow = findings()
    finally:
        A._WATCHED.clear()
        A._WATCHED.update(saved)
    assert fast == slow and any(fast)


def test_a_discard_by_a_seat_not_at_the_table_is_a_break():
    # the discard path reads the seat's void only for a seat at the table: the log breaks
    # at the event (a structural break), paipu does not fail (no INTERNAL_ERROR)
    from audits.audit import audit_game
    from paipu.sim.sichuan import Script

    deal = {0: "111p222p333p444p56s", 1: "234p567p33s456s78s", 2: "111m222m444m666m5s", 3: "999s333m222s55m24m"}
    g = Script("t-seat")
    g.hand(1, 0, deal, "pmpp")
    g.discard(0, "5s")
    g.draw(1, "1p")
    try:
        g._do(g.b.discard, 7, "1p")  # the builder logs the event, the table refuses it
    except Exception:
        pass
    found = [(f.code, f.seq) for f in audit_game(g.log()).findings]
    assert ("STRUCTURAL_BREAK", g.log().events[-1].seq) in found
    assert not any(code == "INTERNAL_ERROR" for code, _ in found)


def test_waits_on_is_every_tile_that_completes_the_hand_legally():
    # 查大叫's wait search tries only the kinds near a concealed tile: against every kind
    from audits.rules.hands import meld_use_of
    from .helpers import SC, kong, pong

    rng = random.Random(3)
    ready = 0
    for k in range(3000):
        c, n_melds = _random_hand(rng)
        held = [t for t in range(27) for _ in range(c[t])]
        c[rng.choice(held)] -= 1  # a 3k+1 hand, most of them one tile from complete
        kinds = [t for t in range(27) if not c[t]]
        melds = [(pong if rng.random() < 0.5 else kong)(f"{t % 9 + 1}{'mps'[t // 9]}")
                 for t in rng.sample(kinds, min(n_melds, len(kinds)))]
        void = rng.choice((0, 1, 2))
        use = meld_use_of(melds)
        want = []
        if F.void_ok(c, melds, void, SC):
            for t in range(27):
                if c[t] + use[t] < 4 and t // 9 != void:
                    c[t] += 1
                    if F.is_shape(c, melds):
                        want.append(t)
                    c[t] -= 1
        assert F.waits_on(SC, c, melds, void) == want, (c, melds, void)
        ready += bool(want)
    assert ready > 300
