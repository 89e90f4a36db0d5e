"""The Sichuan family's own fast paths checked against the rules they stand for: the
no-wild readings against the shared engine's readings, the 查大叫 shortcut through the
audit's wait entry against the full wait search, and the family's draw and discard
wrappers against ``observe``."""

from __future__ import annotations

import random

import msgspec

from audits.rules.hands import readings
from audits.rules.sichuan import fans as F
from audits.rules.sichuan import play
from paipu.sim.simulate import SimConfig, simulate_games
from replay import Replayer
from schema import events as ev
from schema.ruleset import PRESETS

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


def _pongs(rng: random.Random, counts: list[int], n: int) -> list:
    """``n`` pong or kong melds of kinds the concealed counts leave room for."""
    from replay.melds import Meld

    out = []
    while len(out) < n:
        t = rng.randrange(27)
        size = rng.choice((3, 4))
        if counts[t] + size <= 4 and all(m.of != t for m in out):
            out.append(Meld("pong" if size == 3 else "kong_exposed", t, (t,) * size))
    return out


def test_only_pinghu_when_no_reading_earns_a_shape_fan():
    # score()'s shortcut: where _only_pinghu holds, every reading is 平胡 (jihu) alone
    rng = random.Random(11)
    rules = [preset for preset in (PRESETS["sichuan"], msgspec.structs.replace(PRESETS["sichuan"],
                                                                                  yaojiu_jiangdui=False))]
    shortcut = special = 0
    for _ in range(6000):
        c, n = _random_hand(rng)
        if not F.is_shape(c, [None] * n):
            continue
        melds = _pongs(rng, c, n)
        for r in rules:
            readings_ = F._shape_readings(c, melds, r)
            if F._only_pinghu(c, melds, r):
                shortcut += 1
                assert all(names == ["jihu"] for names, _ in readings_), (c, melds)
            else:
                special += any(names != ["jihu"] for names, _ in readings_)
    assert shortcut > 1000 and special > 300


def test_only_pinghu_near_misses():
    def counts(text):
        c = [0] * 34
        for t in text.split():
            c[int(t)] += 1
        return c
    sc = PRESETS["sichuan"]
    chows = counts("0 1 2 3 4 5 12 13 14 21 22 23 24 24")  # 123456m 456p 4566s: chows, a 4-5-6 in them
    assert F._only_pinghu(chows, [], sc)
    pongs = counts("3 3 3 4 4 4 12 12 12 21 21 21 24 24")  # the same kinds as pongs: 大对子
    assert not F._only_pinghu(pongs, [], sc)
    pairs = counts("3 3 4 4 5 5 12 12 13 13 14 14 24 24")  # seven pairs
    assert not F._only_pinghu(pairs, [], sc)
    yaojiu = counts("0 1 2 6 7 8 9 10 11 9 10 11 26 26")  # 123789m 123123p 99s: 带幺九 possible
    assert not F._only_pinghu(yaojiu, [], sc)
    assert F._only_pinghu(yaojiu, [], msgspec.structs.replace(sc, yaojiu_jiangdui=False))


def _tables(games: int, seed: int, kind: type):
    """The table of simulated 血战 rooms as it stands before each event of type ``kind``."""
    for g in simulate_games(SimConfig(preset="sichuan-xuezhan", games=games, seed=seed, max_hands=4)):
        r = Replayer()
        for e in g:
            if type(e) is kind:
                yield r.table
            r.apply(e)


def test_an_empty_wait_entry_means_no_wait():
    # 查大叫's shortcut (play.classify): a 3k+1 hand whose wait entry is empty waits on nothing
    empty = waiting = 0
    for t in _tables(12, 5, ev.TileDiscarded):
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
    for t in _tables(40, 9, ev.HandDrawn):
        drawn += 1
        rules = t.ruleset

        def entry(s, t=t, rules=rules):
            return F.seat_waits(rules, t.hands[s], t.keys[s], t.held[s], t.melds[s])
        assert play.classify(rules, t, entry) == play.classify(rules, t)
    assert drawn > 20


def test_best_hand_d_only_where_chadajiao_pays_it():
    # 查大叫 pays a ready seat its best hand D only from a seat that is not ready
    paid = unpaid = 0
    for t in _tables(40, 9, ev.HandDrawn):
        rules = t.ruleset
        classes = play.classify(rules, t)
        idle = any(c == "not_ready" for c, _ in classes.values())
        for s, (c, d) in classes.items():
            if c != "ready":
                continue
            if idle:
                paid += 1
                assert d == F.best_hand(rules, t.hands[s], t.melds[s], t.voids[s])[0]
            else:
                unpaid += 1
                assert d is None
        # near miss: with 查大叫 off nobody is paid D
        off = play.classify(msgspec.structs.replace(rules, chadajiao=False), t)
        assert all(d is None for c, d in off.values() if c == "ready")
    assert paid > 5 and unpaid > 5


def test_the_wrappers_report_what_observe_reports():
    # the family's wrapped draw and discard handlers against the generic wrapper of observe
    from audits import audit as A
    from audits.audit import audit_game
    from paipu.sim.mutate import mutate
    from paipu.sim.sichuan.faults import SOURCES
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
    from paipu.sim.sichuan.script import Script

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


def test_the_short_path_bounds_follow_the_hand_book():
    # a draw takes the short path only in play (the dealer has acted, the hand has not ended),
    # with no added kong awaiting its replacement and R above the last four; a discard only in
    # play with R > 4; the bounds change with those facts, in either order
    for window, last_four in (("fourth_last_draw", 3), ("four_remaining", 4)):
        rules = msgspec.structs.replace(PRESETS["sichuan-xuezhan"], last_four_window=window)
        hb = play.HandBook(rules)
        never = hb.draws_plain_above
        assert never > 108 and hb.discards_plain_above == never  # the dealer has not acted: no R is above
        hb.dealer_acted = True
        assert (hb.draws_plain_above, hb.discards_plain_above) == (last_four, 4)
        hb.pending_added = 2  # an added kong waits for its replacement: draws are judged, discards not
        assert (hb.draws_plain_above, hb.discards_plain_above) == (never, 4)
        hb.pending_added = None
        assert (hb.draws_plain_above, hb.discards_plain_above) == (last_four, 4)
        hb.ended = True
        assert (hb.draws_plain_above, hb.discards_plain_above) == (never, never)
        hb = play.HandBook(rules)
        hb.pending_added = 1  # before the dealer acts, an added kong leaves both at never
        hb.dealer_acted = True
        assert (hb.draws_plain_above, hb.discards_plain_above) == (never, 4)


def test_a_discard_is_open_to_the_seats_still_in():
    # 血战: the seats a discard is open to (for a win, a pong or a kong) are the others still in,
    # kept per count of seats out; checked at every discard of simulated hands with one and two
    # winners gone, and in the hand after them (where every seat is in again)
    from audits.audit import audit_game
    from audits.checks import claims
    from schema.reader import GameLog

    own = claims.open_discard
    seen = {0: 0, 1: 0, 2: 0}

    def checked(ctx, seat, tile, seq):
        own(ctx, seat, tile, seq)
        out = ctx.table.out
        want = {s for s in range(ctx.n) if s != seat and s not in out}
        assert set(ctx.open_discard.open_to_win) == want, (seat, out)
        assert all(s in want for s in ctx.open_discard.could_pong | ctx.open_discard.could_kong)
        seen[len(out)] += 1

    claims.open_discard = checked
    try:
        for g in simulate_games(SimConfig(preset="sichuan-xuezhan", games=4, seed=5, max_hands=4)):
            audit_game(GameLog(g[0].game, "x", g, list(range(1, len(g) + 1)), None, True))
    finally:
        claims.open_discard = own
    assert all(n > 20 for n in seen.values()), seen
