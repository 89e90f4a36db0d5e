"""The reference simulator: legal, replayable, audited clean, deterministic."""

import collections
import random

import pytest
import typer
from typer.testing import CliRunner

from audits import audit_game
from paipu.sim import simulate as sim
from paipu.sim_cmd import register
from paipu.sim.simulate import SimConfig, SimStats, simulate_games, write_log
from replay import Replayer
from schema import events as ev
from schema.builder import GameBuilder
from schema.reader import GameLog, read_games
from schema.tiles import TILE_INDEX
from tests.audits.helpers import added_kong_of_7z

COMBOS = [
    ("qujing-xiaoji", {}, 4),
    ("qujing-xiaoji", {"chow": True, "dianji": True}, 4),
    ("qujing-baiban", {"yangzhu": True, "chow": True}, 4),
    ("qujing-shuanggui", {"qiaoluo": True}, 4),
    ("qujing-xiaoji", {"dianji": True, "qiaoluo": True, "qiaoluo_points": 8}, 3),
    ("qujing-shuanggui", {"yangzhu": True, "fan_cap": 4, "base": 2}, 4),
    ("qujing-baiban", {"draw_reserve_by_kongs": [20, 14, 16], "draw_reserve_counts_tail": False}, 3),
]


def _log(events):
    return GameLog(events[0].game, "sim", list(events), list(range(1, len(events) + 1)), closed=True)


@pytest.fixture(scope="module")
def run():
    """About 200 hands across every preset and option, with the stats."""
    stats = SimStats()
    games = []
    for k, (preset, opts, players) in enumerate(COMBOS):
        cfg = SimConfig(preset=preset, options=opts, players=players, games=4, seed=500 + k, max_hands=7)
        games += list(simulate_games(cfg, stats))
    return games, stats


def test_simulated_games_audit_clean(run):
    games, stats = run
    assert stats.hands >= 150
    for g in games:
        a = audit_game(_log(g))
        assert a.complete
        assert [(f.code, f.seq, f.message) for f in a.findings] == []


def test_simulated_games_replay_with_tiles_conserved_and_scores_zero_sum(run):
    games, _ = run
    for g in games:
        r = Replayer()
        opened = g[0]
        for e in g:
            r.apply(e)
            w = r.table
            if type(e) in (ev.HandWon, ev.HandDrawn):
                # every tile is somewhere: concealed, in a meld, in the discards (unclaimed) or undrawn
                held = sum(sum(h) for h in w.hands)
                melded = sum(len(m.tiles) for ms in w.melds for m in ms)
                thrown = sum(1 for ds in w.discards for d in ds if d[1] < 0)
                # the tile won on (a discard or the robbed kong tile) sits with no one
                robbed = 1 if type(e) is ev.HandWon and e.how != "self_draw" else 0
                assert held + melded + thrown + w.undrawn + robbed == 136
            if type(e) is ev.HandSettled:
                assert sum(e.scores) == opened.start_points * len(w.players)
                if w.ruleset.qiaoluo:
                    assert min(e.scores) >= 0
        assert type(g[-1]) is ev.GameClosed


def test_the_run_covers_the_moves(run):
    games, stats = run
    types = collections.Counter(type(e).__name__ for g in games for e in g)
    for name in ("Chowed", "Ponged", "KongExposed", "KongAdded", "KongConcealed", "ClaimDeclared",
                 "ClaimPassed", "TailTurned", "HandDrawn", "PigBetPlaced", "RoomResized", "FeeRefunded"):
        assert types[name] > 0, name
    assert stats.claims.get("win_declined", 0) > 0  # 过胡 arises
    assert stats.claims.get("kong_after_call", 0) > 0  # 吃杠 / 碰杠
    hows = collections.Counter(e.how for g in games for e in g if type(e) is ev.HandWon)
    assert hows["self_draw"] and hows["discard"]
    closes = collections.Counter(g[-1].reason for g in games)
    assert closes["knocked_out"] > 0 and closes["hands_done"] > 0


def test_each_discard_win_is_declared_first(run):
    games, _ = run
    for g in games:
        for i, e in enumerate(g):
            if type(e) is ev.HandWon and e.how != "self_draw":
                declared = set()
                j = i - 1
                while type(g[j]) in (ev.ClaimDeclared, ev.ClaimPassed):
                    if type(g[j]) is ev.ClaimDeclared and g[j].claim == "win":
                        declared.add(g[j].seat)
                    j -= 1
                assert declared == {x.seat for x in e.winners}


def test_wall_order_is_logged():
    g = next(simulate_games(SimConfig(seed=3, max_hands=1)))
    start = next(e for e in g if type(e) is ev.HandStarted)
    dealt = next(e for e in g if type(e) is ev.TilesDealt)
    tail = next(e for e in g if type(e) is ev.TailTurned)
    wall = start.wall
    assert len(wall) == 136
    n = len(dealt.hands)
    assert sorted(dealt.hands[start.dealer]) == sorted(wall[0:14], key=TILE_INDEX.get) or \
        sorted(dealt.hands[start.dealer], key=TILE_INDEX.get) == sorted(wall[0:14], key=TILE_INDEX.get)
    pos = 14
    for k in range(1, n):
        s = (start.dealer + k) % n
        assert sorted(dealt.hands[s], key=TILE_INDEX.get) == sorted(wall[pos:pos + 13], key=TILE_INDEX.get)
        pos += 13
    assert tail.tiles == [wall[-1], wall[-2]]
    first_draw = next(e for e in g if type(e) is ev.TileDrawn)
    assert first_draw.tile == wall[pos]
    g2 = next(simulate_games(SimConfig(seed=3, max_hands=1, include_wall=False)))
    assert all(e.wall is None for e in g2 if type(e) is ev.HandStarted)


def test_same_seed_same_bytes_other_seed_other_bytes(tmp_path):
    cfg = dict(preset="qujing-baiban", options={"chow": True, "yangzhu": True}, games=3, max_hands=3)
    a, b, c = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    write_log(str(a), simulate_games(SimConfig(seed=9, **cfg)))
    write_log(str(b), simulate_games(SimConfig(seed=9, **cfg)))
    write_log(str(c), simulate_games(SimConfig(seed=10, **cfg)))
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()
    gz1, gz2 = tmp_path / "a.jsonl.gz", tmp_path / "b.jsonl.gz"
    write_log(str(gz1), simulate_games(SimConfig(seed=9, **cfg)))
    write_log(str(gz2), simulate_games(SimConfig(seed=9, **cfg)))
    assert gz1.read_bytes() == gz2.read_bytes()
    logs, _ = read_games([str(gz1)])
    assert len(logs) == 3 and all(g.closed for g in logs)


def test_anomaly_knobs_show_in_the_audit():
    # illegal claimer: pongs with a chicken as wild
    codes = collections.Counter()
    for g in simulate_games(SimConfig(games=6, seed=21, illegal_claimer=2, max_hands=6)):
        codes.update(f.code for f in audit_game(_log(g)).findings)
    assert codes["CLAIM_WILD_IN_PONG"] > 0
    # one build underpays 点鸡; the other build is clean
    by_build = collections.defaultdict(collections.Counter)
    for g in simulate_games(SimConfig(games=8, seed=22, options={"dianji": True}, builds=("2.3", "2.4"),
                                      dianji_underpay_build="2.4", max_hands=3)):
        a = audit_game(_log(g))
        by_build[a.build].update(f.code for f in a.findings)
    assert by_build["2.4"]["DIANJI_MISMATCH"] > 0
    assert sum(by_build["2.3"].values()) == 0


def test_colluders_feed_each_other():
    def pair_wins(cfg):
        n = 0
        for g in simulate_games(cfg):
            for e in g:
                if type(e) is ev.HandWon and e.how == "discard" and e.from_seat in (0, 2) \
                        and any(x.seat in (0, 2) for x in e.winners):
                    n += 1
        return n

    base = pair_wins(SimConfig(games=10, seed=23, max_hands=8))
    colluding = pair_wins(SimConfig(games=10, seed=23, max_hands=8, colluding_pair=(0, 2)))
    assert colluding > base


def test_biased_shuffle_skews_first_draws_low():
    def low_share(cfg):
        low = total = 0
        for g in simulate_games(cfg):
            draws_in_hand = 0
            for e in g:
                if type(e) is ev.HandStarted:
                    draws_in_hand = 0
                if type(e) is ev.TileDrawn and e.source == "wall" and draws_in_hand < 12:
                    draws_in_hand += 1
                    t = TILE_INDEX[e.tile]
                    total += 1
                    low += t < 27 and t % 9 <= 2
        return low / total

    assert low_share(SimConfig(games=6, seed=24, biased_shuffle=True)) > \
        low_share(SimConfig(games=6, seed=24)) + 0.1


def test_cli_simulate(tmp_path):
    app = typer.Typer()
    register(app)
    runner = CliRunner()
    out = tmp_path / "x.jsonl"
    res = runner.invoke(app, ["simulate", "--preset", "qujing-xiaoji", "--option", "chow=true", "--games", "2",
                              "--seed", "4", "-o", str(out), "--hands", "2"])
    assert res.exit_code == 0, res.output
    assert "2 games" in res.output and "hands/s" in res.output
    logs, _ = read_games([str(out)])
    assert len(logs) == 2 and logs[0].events[0].options.chow is True
    res = runner.invoke(app, ["simulate", "--preset", "nope", "-o", str(out)])
    assert res.exit_code == 2 and "unknown preset" in res.output and "Traceback" not in res.output
    res = runner.invoke(app, ["simulate", "--option", "dianji=true", "--option", "yangzhu=true", "-o", str(out)])
    assert res.exit_code == 2 and "cannot both be on" in res.output
    res = runner.invoke(app, ["simulate", "--players", "5", "-o", str(out)])
    assert res.exit_code == 2
    res = runner.invoke(app, ["simulate", "-o", str(tmp_path / "no" / "dir.jsonl")])
    assert res.exit_code == 2 and "cannot write" in res.output


def _ids(runner, app, out, *args: str) -> list[str]:
    res = runner.invoke(app, ["simulate", "-n", "2", "--hands", "1", "-q", "-o", str(out), *args])
    assert res.exit_code == 0, res.output
    return [g.game for g in read_games([str(out)])[0]]


def test_simulated_ids_name_the_preset_so_two_presets_never_collide(tmp_path):
    app = typer.Typer()
    register(app)
    runner = CliRunner()
    a = _ids(runner, app, tmp_path / "a.jsonl", "--preset", "xuzhou")
    b = _ids(runner, app, tmp_path / "b.jsonl", "--preset", "wenzhou")
    assert a == ["sim-xuzhou-0-00000", "sim-xuzhou-0-00001"] and not set(a) & set(b)
    # near miss: a prefix given names no preset, so the same seed gives the same ids
    c = _ids(runner, app, tmp_path / "c.jsonl", "--preset", "xuzhou", "--id-prefix", "room-")
    d = _ids(runner, app, tmp_path / "d.jsonl", "--preset", "wenzhou", "--id-prefix", "room-")
    assert c == d == ["room-0-00000", "room-0-00001"]


def test_a_family_name_given_as_preset_is_told_its_presets(tmp_path):
    app = typer.Typer()
    register(app)
    res = CliRunner().invoke(app, ["simulate", "--preset", "wuhan", "-o", str(tmp_path / "x.jsonl")])
    assert res.exit_code == 2 and "did you mean wuhan-hzlzg?" in res.output
    res = CliRunner().invoke(app, ["simulate", "--preset", "nothing-like-it", "-o", str(tmp_path / "x.jsonl")])
    assert res.exit_code == 2 and "did you mean" not in res.output  # near miss: no preset is close


def test_worker_processes_write_the_same_bytes():
    from paipu.sim.simulate import simulate_encoded

    cfg = SimConfig(preset="qujing-xiaoji", options={"dianji": True}, games=6, seed=31, max_hands=2)
    one = b"".join(simulate_encoded(cfg, jobs=1))
    two = b"".join(simulate_encoded(cfg, jobs=2))
    assert one == two
    stats = SimStats()
    b"".join(simulate_encoded(cfg, stats, jobs=2))
    assert stats.games == 6 and stats.hands == 12


def test_rare_hand_seeding_deals_wind_triplets_or_quads_and_stays_clean():
    from schema.tiles import WINDS
    games = list(simulate_games(SimConfig(preset="qujing-xiaoji", games=6, seed=3, max_hands=3, rare_hands=1.0)))
    seeded = 0
    for g in games:
        assert audit_game(_log(g)).findings == []
        for e in g:
            if type(e) is ev.TilesDealt:
                for hand in e.hands:
                    c = collections.Counter(TILE_INDEX[t] for t in hand)
                    wind_triplets = sum(1 for t in WINDS if c[t] >= 3)
                    quads = sum(1 for n in c.values() if n == 4)
                    if wind_triplets >= 3 or quads >= 3:
                        seeded += 1
                        break
    hands = sum(1 for g in games for e in g if type(e) is ev.HandStarted)
    assert seeded == hands
    plain = list(simulate_games(SimConfig(preset="qujing-xiaoji", games=6, seed=3, max_hands=3)))
    assert plain != games


# --- the bots play by the family's rules: 过胡 bars robbing, 四小鸡 is a self-draw ------

def test_no_rob_during_guohu_and_no_sixiaoji_on_a_discard(run):
    games, _ = run
    for g in games:
        passed: set[int] = set()  # seats that let a win go since their own last draw or claim
        for e in g:
            kind = type(e)
            if kind is ev.ClaimPassed and "win" in e.claims:
                passed.add(e.seat)
            elif kind in (ev.TileDrawn, ev.Chowed, ev.Ponged, ev.KongExposed, ev.KongAdded, ev.KongConcealed):
                passed.discard(e.seat)
            elif kind is ev.HandStarted:
                passed.clear()
            elif kind is ev.HandWon and e.how != "self_draw":
                assert not passed & {x.seat for x in e.winners}, (e.game, e.seq)
                assert all("sixiaoji" not in x.fans for x in e.winners), (e.game, e.seq)


class _Always(random.Random):
    """A bot's chance that always says yes (random() = 0)."""

    def random(self) -> float:
        return 0.0


def _hand_at(builder: GameBuilder, options: dict = None):
    """The simulator's hand, at the table ``builder``'s events leave (seat 0 deals)."""
    cfg = SimConfig(options=options or {})
    game = sim._Game(cfg, sim._ruleset(cfg), _Always(0), 0, SimStats())
    game.b = builder
    game.r = Replayer()
    for e in builder.events:
        game.r.apply(e)
    game.table = game.r.table
    return sim._Hand(game, 1, 0)


def test_a_seat_robs_an_added_kong_it_can_win_on():
    b = GameBuilder("g-rob")
    added_kong_of_7z(b)
    hand = _hand_at(b)
    with pytest.raises(sim._HandOver) as over:
        hand._robbing(3, TILE_INDEX["7z"])
    assert over.value.args[0].winners == (2,) and over.value.args[0].how == "robbed_kong"
    assert [type(e) for e in b.events[-3:]] == [ev.ClaimDeclared, ev.HandWon, ev.HandSettled]


def test_a_seat_in_guohu_does_not_rob():
    for let_go in (lambda book: book.let_go(2, "win", TILE_INDEX["9p"]), lambda book: book.let_rob_go(2)):
        b = GameBuilder("g-rob")
        added_kong_of_7z(b)
        before = len(b.events)
        hand = _hand_at(b)
        let_go(hand.book)
        hand._robbing(3, TILE_INDEX["7z"])  # no _HandOver: nobody robs
        assert len(b.events) == before


def _four_chickens() -> GameBuilder:
    """Seat 1 holds four chickens and nothing that completes; the dealer throws 9s."""
    b = GameBuilder("g-4j")
    b.open()
    b.hand(1, dealer=0)
    b.deal("123456789m2345p9s", "1111s2468m3579p1z", "147m258p369s1234z", "369m147p258s5676z")
    b.tail("9s", "8s")
    b.discard(0, "9s")
    return b


def test_sixiaoji_is_no_discard_win_for_the_bots():
    hand = _hand_at(_four_chickens())
    assert hand.ask.discard_win(1, TILE_INDEX["9s"], False) is None
    # near miss: a room that lets 四小鸡 win on a discard
    hand = _hand_at(_four_chickens(), {"sixiaoji_on_discard": True})
    assert hand.ask.discard_win(1, TILE_INDEX["9s"], False).fans == ["sixiaoji"]


def test_sixiaoji_wins_on_the_bots_own_draw():
    b = _four_chickens()
    b.draw(1, "5z")
    hand = _hand_at(b)
    assert hand.ask.self_draw_win(1, TILE_INDEX["5z"], False).fans == ["sixiaoji"]


def test_a_seats_wait_entry_lives_until_its_own_hand_changes():
    from tests.audits.helpers import before_added_kong_of_7z

    b = GameBuilder("g-waits")
    before_added_kong_of_7z(b)
    hand = _hand_at(b)
    entry = hand.ask.wait_entry(2)  # seat 2 holds a chicken: one tile from complete
    assert entry and hand.ask.wait_entry(2) is entry
    # 7z completes it; a fourth 2z cannot (the chicken would be a fifth 2z)
    assert hand.ask.completes(2, TILE_INDEX["7z"]) and not hand.ask.completes(2, TILE_INDEX["2z"])
    hand.emit(ev.TileDrawn, seat=3, tile="7z", source="wall")  # another seat's hand changes
    assert hand.ask.wait_entry(2) is entry
    # near miss: seat 2's own hand changes (14 tiles: no longer one tile from complete)
    hand.emit(ev.TileDrawn, seat=2, tile="9s", source="wall")
    assert hand.ask.wait_entry(2) is False and not hand.ask.completes(2, TILE_INDEX["7z"])
