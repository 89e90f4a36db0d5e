"""Each anomaly check counts the population its header names: a review of the SQL, check by check.

Every test builds a small store whose answer is known by hand, shows the check firing on
the planted case, and shows it quiet on a clean near miss beside it.  Stores are built
from logs (:class:`schema.builder.GameBuilder`, ingested without the audit) where the
check reads what the ingest derives, and from rows written directly where the check
reads the audit's tables (findings, audited games).
"""

from __future__ import annotations

import json

import duckdb
import pytest

from paipu import store
from paipu.store import anomalies as A
from schema.builder import GameBuilder
from tests.paipu.test_store import dianji_game, first_round, write

CHECKS = A.load_checks()
COL = {c: k for k, c in enumerate(A.COLUMNS)}


def run_db(db: str, code: str, **params) -> list[tuple]:
    con = store.connect(db, read_only=True)
    try:
        return run_con(con, code, **params)
    finally:
        con.close()


def run_con(con, code: str, **params) -> list[tuple]:
    return A.run_checks(con, [code], {k: str(v) for k, v in params.items()})[0].rows


def ingest(tmp_path, name: str, builders) -> str:
    db = str(tmp_path / f"{name}.duckdb")
    store.ingest([write(tmp_path / f"{name}.jsonl", *builders)], db, audit=False)
    return db


# --- win_rate: every win of a hand counts, not only the last HandWon's ---------------------------


def xuezhan_game(gid: str, seats, hands: int, order) -> GameBuilder:
    """血战到底 hands that each see two self-draw wins, ``order(h)`` = (first winner, second
    winner), and then run out of wall (HandDrawn): the first winner has left the hand, the
    second's HandWon is the hand's last."""
    b = GameBuilder(gid, preset="sichuan-xuezhan", seats=seats)
    b.open()
    for h in range(1, hands + 1):
        first, second = order(h)
        b.hand(h, dealer=0)
        b.draw(first, "5m")
        b.win([(first, ["pinghu"], 0, 1)], "self_draw", "5m")
        b.draw(second, "6m")
        b.win([(second, ["pinghu"], 0, 1)], "self_draw", "6m")
        b.exhausted(0)
        b.settle([(p, w, 1, "win") for w in (first, second) for p in range(4) if p not in (first, second)],
                 [0, 0, 0, 0])
    b.close("hands_done", [0, 0, 0, 0])
    return b


def _xuezhan_store(tmp_path, planted: bool) -> str:
    """Three tables of 100 hands.  At the two plain tables the winners turn round: every seat
    wins half its hands.  At the first table X (seat 0) wins first every hand when
    ``planted`` (else it takes its turn like everyone), and the second win goes round the others."""
    plain = lambda h: (h % 4, (h + 1) % 4)  # noqa: E731
    strong = (lambda h: (0, 1 + h % 3)) if planted else plain
    games = [xuezhan_game("xz-x", ("X", "A1", "A2", "A3"), 100, strong),
             xuezhan_game("xz-b", ("B0", "B1", "B2", "B3"), 100, plain),
             xuezhan_game("xz-c", ("C0", "C1", "C2", "C3"), 100, plain)]
    return ingest(tmp_path, "planted" if planted else "clean", games)


def test_win_rate_counts_a_first_winner_of_a_xuezhan_hand(tmp_path):
    # X wins every one of its 100 hands (always first, never the hand's last HandWon): the
    # median player wins half of theirs, so X is 10 sigma above it
    rows = run_db(_xuezhan_store(tmp_path, planted=True), "win_rate")
    assert [(r[COL["player"]], r[COL["rate"]], r[COL["baseline"]]) for r in rows] == [("X", 1.0, 0.5)]
    assert rows[0][COL["value"]] == pytest.approx(10.0) and "won 100 of 100 hands" in rows[0][COL["detail"]]


def test_win_rate_is_quiet_when_every_xuezhan_winner_takes_turns(tmp_path):
    # near miss: the same tables, X winning first only in its turn like every other player
    assert run_db(_xuezhan_store(tmp_path, planted=False), "win_rate") == []


# --- findings_by_build / findings_by_player: unaudited games have no findings to count -------------


def _audit_store(con, *, audited_b: bool, findings_b: int):
    """Build 1.0: 100 hands of audited games (two of 50 with players P0..P3), an error finding
    in 40 of them, naming seat h % 4 in hand h: each player has findings in 10 of their 100
    hands.  Build 2.0: 900 hands of nine other tables with ``findings_b`` findings (on seat 0),
    audited or not (``audited_b``)."""
    rules = json.dumps({"family": "qujing"})

    def game(gid, build, audited, hands, bad, players, spread=4):
        con.execute("INSERT INTO games (game, server, build, preset, ruleset, options, opened_at, audited, players) "
                    "VALUES (?, 's', ?, 'qujing-xiaoji', ?, '{}', TIMESTAMPTZ '2026-01-05 00:00:00+00', ?, ?)",
                    [gid, build, rules, audited, players])
        con.execute("INSERT INTO hands (game, hand, seats, result) SELECT ?, h, 4, 'won' FROM range(1, ? + 1) t(h)",
                    [gid, hands])
        con.execute("INSERT INTO hand_players (game, hand, seat, player, seats) "
                    "SELECT ?, h, s, ?[s + 1], 4 FROM range(1, ? + 1) t(h), range(4) u(s)", [gid, players, hands])
        con.execute("INSERT INTO findings (game, hand, seq, seat, player, code, severity, message) "
                    "SELECT ?, h, h * 10, h % ?, ?[h % ? + 1], 'CLAIM_ILLEGAL', 'error', 'a claim the rules forbid' "
                    "FROM range(1, ? + 1) t(h)", [gid, spread, players, spread, bad])

    for k in range(2):
        game(f"a{k}", "1.0", True, 50, 20, [f"P{s}" for s in range(4)])
    for k in range(9):
        game(f"b{k}", "2.0", audited_b, 100, findings_b // 9, [f"Q{k}{s}" for s in range(4)], spread=1)


@pytest.mark.parametrize("code", ["findings_by_build", "findings_by_player"])
def test_unaudited_games_do_not_dilute_the_findings_baseline(code):
    # 40 hands in 100 with findings at build 1.0 (each of its players: 10 of 100) is all this
    # store's audit saw: the 900 hands of build 2.0 were never audited, so they say nothing
    con = store.connect(":memory:")
    _audit_store(con, audited_b=False, findings_b=0)
    assert run_con(con, code) == []


@pytest.mark.parametrize("code, flagged, rate", [("findings_by_build", {"build 1.0"}, 0.4),
                                                  ("findings_by_player", {"P0", "P1", "P2", "P3"}, 0.1)])
def test_findings_above_audited_games_baseline_fire(code, flagged, rate):
    # near miss: the same 900 hands audited, with 9 findings among them (1 %, Q00..Q80 one
    # each): build 1.0's 40 % and its players' 10 % stand out
    con = store.connect(":memory:")
    _audit_store(con, audited_b=True, findings_b=9)
    rows = run_con(con, code)
    who = {r[COL["player"]] for r in rows} if code == "findings_by_player" else \
        {" ".join(r[COL["detail"]].split()[2:4]) for r in rows}
    assert who == flagged
    assert {round(r[COL["rate"]], 3) for r in rows} == {rate} and all(r[COL["value"]] > 4 for r in rows)


# --- dianji_payout: the evidence names the table's chickens --------------------------------------


def test_dianji_payout_detail_counts_every_seats_chickens(tmp_path):
    # seat 3 paid seat 0 one point short: seats 0 and 3 are flagged; the table held 2 + 1 + 0 + 0
    db = ingest(tmp_path, "d", [dianji_game("d-bad", underpay=True)])
    rows = run_db(db, "dianji_payout")
    assert [(r[COL["seat"]], r[COL["value"]]) for r in rows] == [(0, -1.0), (3, 1.0)]
    assert all("chickens of 3 at the table" in r[COL["detail"]] for r in rows), [r[COL["detail"]] for r in rows]


# --- yangzhu_payout: the discard and 抢杠 shares ----------------------------------------------------


BETS = (1, 2, 0, 0)


def yangzhu_hand(gid: str, how: str, pig: int) -> GameBuilder:
    """养猪 with bets A 1, B 2, C 0, D 0 and P = 2.  ``discard``: B wins on C's discard, C pays
    2 and the bets 2 + 0.  ``robbed_kong``: A robs D's added kong, D pays 包三家 3 × 2 and the
    bets of the three shares, (1 + 2) + (1 + 0) + (1 + 0) = 5.  ``pig``: the 养猪 amount paid."""
    b = GameBuilder(gid, options={"yangzhu": True})
    b.open()
    b.hand(1, dealer=0)
    for seat, bet in enumerate(BETS):
        b.bet(seat, bet)
    first_round(b)
    if how == "discard":
        b.win([(1, ["pinghu"], 1, 2)], "discard", "1p", from_seat=2)
        transfers = [(2, 1, 2, "win"), (2, 1, pig, "yangzhu")]
    else:
        b.kong_added(3, "4p")
        b.win([(0, ["qianggang"], 1, 2)], "robbed_kong", "4p", from_seat=3)
        transfers = [(3, 0, 6, "qianggang"), (3, 0, pig, "yangzhu")]
    scores = [0] * 4
    for p, r, a, _ in transfers:
        scores[p] -= a
        scores[r] += a
    b.settle(transfers, scores)
    b.close("hands_done", scores)
    return b


@pytest.mark.parametrize("how, due", [("discard", [0, 0, 4, 0]), ("robbed_kong", [0, 0, 0, 11])])
def test_the_store_holds_what_the_family_settles_each_payer_to_pay(tmp_path, how, due):
    """wins.due is the family's settlement of the logged points (C owes B 2 + the bets 2 + 0 on
    the discard; D owes A 包三家 6 + the bets' shares 5 on the 抢杠): the check compares with it and
    restates no rule.  Near miss: a room without 养猪 holds no due amounts."""
    db = ingest(tmp_path, "y", [yangzhu_hand("ok", how, 2 if how == "discard" else 5)])
    con = duckdb.connect(db, read_only=True)
    try:
        assert con.execute("SELECT due FROM wins").fetchall() == [(due,)]
    finally:
        con.close()
    plain = ingest(tmp_path, "p", [dianji_game("p")])
    con = duckdb.connect(plain, read_only=True)
    try:
        assert con.execute("SELECT due FROM wins").fetchall() == [(None,)]
        # 点鸡: the family's net for the table's chickens 2, 1, 0, 0 (base 1)
        assert con.execute("SELECT dianji_due FROM hand_players ORDER BY seat").fetchall() == [
            (5,), (1,), (-3,), (-3,)]
    finally:
        con.close()
    con = duckdb.connect(db, read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM hand_players WHERE dianji_due IS NOT NULL").fetchall() == [(0,)]
    finally:
        con.close()


@pytest.mark.parametrize("how, right, wrong", [("discard", 2, 1), ("robbed_kong", 5, 1)])
def test_yangzhu_payout_judges_the_discard_and_robbed_kong_shares(tmp_path, how, right, wrong):
    db = ingest(tmp_path, "y", [yangzhu_hand("ok", how, right), yangzhu_hand("bad", how, wrong)])
    rows = run_db(db, "yangzhu_payout")
    payer, winner = (2, 1) if how == "discard" else (3, 0)
    assert [(r[COL["game"]], r[COL["seat"]], r[COL["value"]], r[COL["baseline"]]) for r in rows] == [
        ("bad", payer, float(wrong - right), float((6 if how != "discard" else 2) + right))]
    assert f"seat {payer} paid seat {winner}" in rows[0][COL["detail"]]


# --- deal_in_rate and draw_rate: a planted outlier fires, the same table without it does not --------


def table_game(gid: str, seats, hands: int, result, build: str = "1.0", options=None) -> GameBuilder:
    """Hands of ``result(h)``: ``("discard", winner, discarder)`` or ``("drawn",)``, each settled."""
    b = GameBuilder(gid, seats=seats, build=build, options=options)
    b.open()
    for h in range(1, hands + 1):
        b.hand(h, dealer=0)
        r = result(h)
        if r[0] == "discard":
            _, w, d = r
            b.discard(d, "1p")
            b.win([(w, ["pinghu"], 1, 2)], "discard", "1p", from_seat=d)
            b.settle([(d, w, 2, "win")], [0, 0, 0, 0])
        else:
            b.exhausted(20)
            b.settle([], [0, 0, 0, 0])
    b.close("hands_done", [0, 0, 0, 0])
    return b


def _rotating(h):
    """Every seat deals in one hand in four, into the next seat."""
    return ("discard", (h + 1) % 4, h % 4)


def _deal_in_store(tmp_path, planted: bool) -> str:
    # X (seat 0 of the first table) deals in every other hand when planted: 50 % against the
    # median 25 %; the other hands go round A1..A3 (about 17 % each: 1.9 sigma low, quiet)
    first = (lambda h: ("discard", 1, 0) if h % 2 == 0 else ("discard", 0, 1 + h // 2 % 3)) if planted else _rotating
    games = [table_game("t-x", ("X", "A1", "A2", "A3"), 100, first),
             table_game("t-b", ("B0", "B1", "B2", "B3"), 100, _rotating),
             table_game("t-c", ("C0", "C1", "C2", "C3"), 100, _rotating)]
    return ingest(tmp_path, f"dealin-{planted}", games)


def test_deal_in_rate_flags_a_player_who_feeds_every_hand(tmp_path):
    rows = run_db(_deal_in_store(tmp_path, planted=True), "deal_in_rate")
    assert [(r[COL["player"]], r[COL["rate"]], r[COL["baseline"]], r[COL["n"]]) for r in rows] == [
        ("X", 0.5, 0.25, 100)]
    assert rows[0][COL["value"]] == pytest.approx(25 / 18.75 ** 0.5) and "dealt in 50 of 100" in rows[0][5]


def test_deal_in_rate_is_quiet_when_every_seat_deals_in_alike(tmp_path):
    assert run_db(_deal_in_store(tmp_path, planted=False), "deal_in_rate") == []


def _draw_store(tmp_path, planted: bool, options=None) -> str:
    """Four tables of 100 hands, one hand in five drawn; build 2.0's table (its room opened
    with ``options``) draws every other hand when ``planted``."""
    fifth = lambda h: ("drawn",) if h % 5 == 0 else _rotating(h)  # noqa: E731
    half = (lambda h: ("drawn",) if h % 2 == 0 else _rotating(h)) if planted else fifth
    games = [table_game(f"t-{k}", [f"P{k}{s}" for s in range(4)], 100, fifth, build="1.0") for k in range(3)]
    games.append(table_game("t-z", ("Z0", "Z1", "Z2", "Z3"), 100, half, build="2.0", options=options))
    return ingest(tmp_path, f"draw-{planted}", games)


@pytest.mark.parametrize("options", [None, {"chow": False, "draw_reserve": 20, "base": 2}],
                         ids=["no options", "the preset's own values written out"])
def test_draw_rate_flags_the_build_and_its_players(tmp_path, options):
    # an option the log writes at the preset's own value (or a money-only one) changes no
    # rate: build 2.0 stays in build 1.0's population and is judged against it
    rows = run_db(_draw_store(tmp_path, planted=True, options=options), "draw_rate", z=3)
    # 50 of 100 drawn against the pooled (60 + 50) / 400 = 27.5 %: z = 22.5 / 4.47 = 5.04 for the
    # build and each of its four players; build 1.0's 20 % is 1.7 sigma below: quiet
    got = {(r[COL["player"]], r[COL["detail"]].split(":")[0]) for r in rows}
    assert got == {(None, "build paipu-sim 2.0"), *(((f"Z{s}", f"player Z{s}")) for s in range(4))}
    assert all(r[COL["rate"]] == 0.5 and r[COL["baseline"]] == 0.275 and r[COL["n"]] == 100 for r in rows)
    assert all(r[COL["value"]] == pytest.approx(22.5 / (100 * 0.275 * 0.725) ** 0.5) for r in rows)
    assert {r[COL["ruleset"]] for r in rows} == {"qujing-xiaoji"}


def test_an_option_at_another_value_than_the_presets_is_its_own_population(tmp_path):
    # near miss: build 2.0's room plays 吃 (chow=true, not qujing's own false): another ruleset,
    # alone in it, judged against itself
    assert run_db(_draw_store(tmp_path, planted=True, options={"chow": True}), "draw_rate", z=3) == []


def test_draw_rate_is_quiet_when_every_build_draws_alike(tmp_path):
    assert run_db(_draw_store(tmp_path, planted=False), "draw_rate", z=3) == []


# --- duplicate_games and negative_scores: the near misses beside the planted cases -------------------


def test_duplicate_games_leaves_empty_rooms_and_a_one_event_difference_alone(tmp_path):
    def empty(gid):
        b = GameBuilder(gid)
        b.open()
        b.close("dissolved", [0, 0, 0, 0])
        return b

    other = dianji_game("d-other", start_hour=3)
    other.events[-2] = type(other.events[-2])(other.game, other.events[-2].seq, other.events[-2].at,
                                               transfers=other.events[-2].transfers, scores=[0, 0, 0, 1])
    db = ingest(tmp_path, "dup", [empty("e1"), empty("e2"), dianji_game("d-1"), other])
    assert run_db(db, "duplicate_games") == []
    store.ingest([write(tmp_path / "copy.jsonl", dianji_game("d-copy", start_hour=5))], db, audit=False)
    rows = run_db(db, "duplicate_games")
    assert sorted((r[COL["game"]], r[COL["value"]]) for r in rows) == [("d-1", 2.0), ("d-copy", 2.0)]


def qiaoluo_knockout(gid: str, paid: int, final_of_payer: int) -> GameBuilder:
    """20分敲锣: seat 3 pays ``paid`` from its 20 on seat 1's discard win, and closes with
    ``final_of_payer``."""
    b = GameBuilder(gid, options={"qiaoluo": True}, start_points=20)
    b.open()
    b.hand(1, dealer=0)
    first_round(b)
    b.win([(1, ["qingyise"], 2, paid)], "discard", "1p", from_seat=3)
    scores = [20, 20 + paid, 20, 20 - paid]
    b.settle([(3, 1, paid, "win")], scores)
    b.close("knocked_out", [20, 20 + paid, 20, final_of_payer])
    return b


def test_negative_scores_allow_zero_and_flag_below(tmp_path):
    # a knock-out to exactly 0 is the rule; −1 after the hand, or in GameClosed alone, is not
    db = ingest(tmp_path, "q", [qiaoluo_knockout("zero", 20, 0), qiaoluo_knockout("under", 21, -1),
                                qiaoluo_knockout("closed", 20, -2)])
    rows = run_db(db, "negative_scores")
    assert [(r[COL["game"]], r[COL["hand"]], r[COL["seat"]], r[COL["value"]]) for r in rows] == [
        ("closed", None, 3, -2.0), ("under", 1, 3, -1.0), ("under", None, 3, -1.0)]
    assert run_db(db, "negative_scores", floor=-2) == []


# --- collusion_pairs: under 血战到底 a deal-in can only go to a seat still in the hand ---------------


def xuezhan_deal_ins(gid: str, hands: int, fed_first: bool) -> GameBuilder:
    """血战到底 hands at a table of D, A, B, C in which D deals into C every hand.  ``fed_first``:
    C wins first, on D's discard, while A and B are still in (then they self-draw); else A and
    B self-draw first and leave, and D's deal-in to C is the hand's last win, when C is the
    only seat left that could take it."""
    b = GameBuilder(gid, preset="sichuan-xuezhan", seats=("D", "A", "B", "C"))
    b.open()
    for h in range(1, hands + 1):
        b.hand(h, dealer=0)
        if fed_first:
            b.discard(0, "5m")
            b.win([(3, ["pinghu"], 0, 1)], "discard", "5m", from_seat=0)
        for seat in (1, 2):
            b.draw(seat, "6m")
            b.win([(seat, ["pinghu"], 0, 1)], "self_draw", "6m")
        if not fed_first:
            b.discard(0, "5m")
            b.win([(3, ["pinghu"], 0, 1)], "discard", "5m", from_seat=0)
        b.settle([], [0, 0, 0, 0])
    b.close("hands_done", [0, 0, 0, 0])
    return b


def test_collusion_pairs_flags_a_xuezhan_pair_fed_while_others_could_win(tmp_path):
    # D's 30 deal-ins all went to C while A and B were in the hand too: 30 against 10 expected
    rows = run_db(ingest(tmp_path, "fed", [xuezhan_deal_ins("xf", 30, fed_first=True)]), "collusion_pairs")
    assert {(r[COL["player"]], r[COL["rate"]], r[COL["n"]]) for r in rows} == {("D", 1.0, 30)} and len(rows) == 30
    assert rows[0][COL["baseline"]] == pytest.approx(1 / 3) and rows[0][COL["value"]] == pytest.approx(20 / (30 * 2 / 9) ** 0.5)
    assert rows[0][COL["detail"]].startswith("D dealt into C: 30 of 30")


def test_collusion_pairs_leave_a_xuezhan_deal_in_to_the_last_seat_in_the_hand_alone(tmp_path):
    # near miss: the same 30 deal-ins from D to C, each when A and B had already won and left:
    # C was the only seat that could take D's tile, so it says nothing about the pair
    assert run_db(ingest(tmp_path, "last", [xuezhan_deal_ins("xl", 30, fed_first=False)]), "collusion_pairs") == []


# --- first_draw_shuffle: flowers set aside, a kind outside the set ---------------------------------


def _shuffle_game(con, game: str, preset: str, first_draws: list[str]):
    from tests.audits.test_anomalies_rulesets import _add_game

    _add_game(con, game, preset, {}, first_draws)


def test_first_draw_shuffle_sets_a_flower_aside_and_counts_a_kind_outside_the_set():
    from schema.tiles import TILE_NAMES

    con = store.connect(":memory:")
    # Hainan's 144 tiles: 6 first draws of each of the 34 kinds, and 40 flowers (set aside and
    # replaced from the tail, never a kind of four): a fair shuffle
    flowers = [f"{k}f" for k in range(1, 9)] * 5
    _shuffle_game(con, "h1", "hainan", [t for t in TILE_NAMES[:34] for _ in range(6)] + flowers)
    # Sichuan: 8 of each of its 27 suited kinds, fair too
    _shuffle_game(con, "s1", "sichuan", [t for t in TILE_NAMES[:27] for _ in range(8)])
    assert run_con(con, "first_draw_shuffle", min_draws=100) == []
    # near miss: one honour drawn first in a 108-tile room cannot come from a fair wall of that set
    _shuffle_game(con, "s2", "sichuan", ["1z"])
    rows = run_con(con, "first_draw_shuffle", min_draws=100)
    assert [(r[COL["ruleset"]], r[COL["value"]], r[COL["n"]]) for r in rows] == [("sichuan", float("inf"), 217)]
    assert "1z 1" in rows[0][COL["detail"]]


# --- findings_by_build: its period and its time window -----------------------------------------------


def _monthly_findings(con):
    """One build; January: findings in 40 of 100 hands; February and March: 9 of 900."""
    rules = json.dumps({"family": "qujing"})
    for gid, month, hands, bad in [("jan", 1, 100, 40), *((f"feb{k}", 2, 100, 1) for k in range(5)),
                                   *((f"mar{k}", 3, 100, 1) for k in range(4))]:
        con.execute("INSERT INTO games (game, server, build, preset, ruleset, options, opened_at, audited) "
                    "VALUES (?, 's', '1.0', 'qujing-xiaoji', ?, '{}', make_timestamptz(2026, ?, 10, 0, 0, 0), true)",
                    [gid, rules, month])
        con.execute("INSERT INTO hands (game, hand, seats, result) SELECT ?, h, 4, 'won' FROM range(1, ? + 1) t(h)",
                    [gid, hands])
        con.execute("INSERT INTO findings (game, hand, seq, seat, player, code, severity, message) "
                    "SELECT ?, h, h, 0, 'P', 'CLAIM_ILLEGAL', 'error', 'x' FROM range(1, ? + 1) t(h)", [gid, bad])


def test_findings_by_build_flags_the_bad_month_of_a_build():
    con = store.connect(":memory:")
    _monthly_findings(con)
    rows = run_con(con, "findings_by_build")
    assert [(r[COL["game"]], r[COL["rate"]], r[COL["n"]]) for r in rows] == [("jan", 0.4, 100)]
    assert "month from 2026-01-01" in rows[0][COL["detail"]] and "CLAIM_ILLEGAL ×40" in rows[0][COL["detail"]]


@pytest.mark.parametrize("params", [dict(period="year"), dict(since="2026-02-01"), dict(until="2026-02-01")],
                         ids=["one year, one bucket", "since February", "until February"])
def test_findings_by_build_is_quiet_without_another_period_to_compare(params):
    # near miss: a build-period judged against its own ruleset's baseline over the window;
    # with one bucket (a year, or one month left in the window) nothing stands out
    con = store.connect(":memory:")
    _monthly_findings(con)
    assert run_con(con, "findings_by_build", **params) == []


# --- underpayment_by_build: a ruleset where every build shorts players -------------------------------


@pytest.mark.parametrize("shorted, fires", [(10, True), (4, False)])
def test_underpayment_by_build_flags_a_lone_build_whose_shorted_share_passes_rate(shorted, fires):
    # one build, nothing to stand out against (z = 0): 10 % of hands shorted passes rate = 5 %,
    # the near miss at 4 % does not
    con = store.connect(":memory:")
    con.execute("INSERT INTO games (game, server, build, preset, ruleset, options, audited) "
                "VALUES ('g', 's', '1.0', 'qujing-xiaoji', '{\"family\": \"qujing\"}', '{}', true)")
    con.execute("INSERT INTO hands (game, hand, seats, settled_seq) SELECT 'g', h, 4, h * 10 FROM range(1, 101) t(h)")
    con.execute("INSERT INTO ledger (game, hand, seat, player, error) "
                "SELECT 'g', h, s, 'P' || s, CASE WHEN h <= ? AND s = 2 THEN 3 WHEN h <= ? AND s = 1 THEN -3 ELSE 0 END "
                "FROM range(1, 101) t(h), range(4) u(s)", [shorted, shorted])
    rows = run_con(con, "underpayment_by_build")
    if not fires:
        assert rows == []
        return
    assert [(r[COL["hand"]], r[COL["seq"]], r[COL["seat"]], r[COL["player"]], r[COL["rate"]], r[COL["value"]])
            for r in rows] == [(1, 10, 2, "P2", 0.1, 0.0)]
    assert f"{shorted * 3} points in all" in rows[0][COL["detail"]]
