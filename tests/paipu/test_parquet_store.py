"""The store as a Parquet dataset: the same answers as the DuckDB store, idempotent, atomic per batch."""

from __future__ import annotations

import os

import duckdb
import pytest
import typer
from typer.testing import CliRunner

from paipu import store
from paipu.store import anomalies as A
from paipu.store.tables import STORE_VERSION, TABLES
from paipu.store.parquet import Dataset, open_dataset
from paipu.store.query import QueryRefused, run_query
from paipu.store_cmd import register
from tests.paipu.test_store import dianji_game, kill_ingest_in_batch_2, write

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: Lower minimum sample sizes so the small corpus is actually judged (as in tests/audits/test_anomalies.py).
SMALL = {"min_hands": "60", "min_offered": "300", "min_draws": "100"}

#: Questions an analyst asks; each must get the same answer from both stores.
ANALYST_QUERIES = [
    "SELECT server, build, count(*), sum(hands), sum(events) FROM games GROUP BY ALL ORDER BY ALL",
    "SELECT * EXCLUDE (ingested_at) FROM games ORDER BY game",
    "SELECT player, count(*), sum(won::INTEGER), sum(dealt_in::INTEGER), avg(score_change) "
    "FROM hand_players GROUP BY player ORDER BY player",
    "SELECT code, severity, count(*) FROM findings GROUP BY ALL ORDER BY ALL",
    "SELECT type, count(*), min(happened_at), max(happened_at) FROM events GROUP BY type ORDER BY type",
    "SELECT game, seq, type, tile, tiles, extra FROM events WHERE seq < 5 ORDER BY game, seq",
    "SELECT date_trunc('day', opened_at) AS day, count(*) FROM games GROUP BY day ORDER BY day",
    "SELECT reason, count(*), sum(amount) FROM transfers GROUP BY reason ORDER BY reason",
    "SELECT w.player, count(*), avg(w.fan) FROM wins w JOIN hands h USING (game, hand) "
    "WHERE h.win_kind = 'discard' GROUP BY w.player ORDER BY w.player",
    "SELECT result, count(*), avg(draws), list(DISTINCT fan ORDER BY fan) FROM hands GROUP BY result ORDER BY result",
    "SELECT player, sum(error) FILTER (WHERE error > 0), sum(gap) FROM ledger GROUP BY player ORDER BY player",
    "SELECT * FROM corrections ORDER BY game, idx",
]


def _params(checks) -> dict:
    names = {p.name for c in checks.values() for p in c.params}
    return {k: v for k, v in SMALL.items() if k in names}


def answers(con: duckdb.DuckDBPyConnection) -> dict[str, list]:
    """Every anomaly check's rows (with the small-corpus parameters)."""
    checks = A.load_checks()
    return {r.check.code: r.rows for r in A.run_checks(con, None, _params(checks), checks)}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """The planted simulated corpus, ingested into a DuckDB store and a Parquet dataset."""
    from paipu.sim.simulate import SimConfig, simulate_games, write_log

    d = tmp_path_factory.mktemp("both")
    log = str(d / "planted.jsonl")
    write_log(log, simulate_games(SimConfig(games=60, seed=5, options={"dianji": True}, builds=("1.0", "1.1"),
                                            colluding_pair=(0, 2), illegal_claimer=1,
                                            dianji_underpay_build="1.1", biased_shuffle=True)))
    db, ds = str(d / "s.duckdb"), str(d / "dataset")
    r1 = store.ingest([log], db)
    r2 = store.ingest([log], parquet=ds, batch_events=10_000)
    assert (r1.added, r1.events, r1.findings) == (r2.added, r2.events, r2.findings) == (60, r1.events, r1.findings)
    assert r2.batches > 3  # several batches, several partitions
    return log, db, ds


def test_every_anomaly_check_answers_the_same_on_both_stores(corpus):
    _log, db, ds = corpus
    duck = store.connect(db, read_only=True)
    pq = open_dataset(ds)
    try:
        a, b = answers(duck), answers(pq)
    finally:
        duck.close()
        pq.close()
    assert a == b
    fired = {code for code, rows in a.items() if rows}
    assert {"collusion_pairs", "claim_rate", "dianji_payout", "first_draw_shuffle", "underpayment_by_build"} <= fired


@pytest.mark.parametrize("sql", ANALYST_QUERIES)
def test_analyst_queries_answer_the_same_on_both_stores(corpus, sql):
    _log, db, ds = corpus
    cols_a, rows_a = run_query(db, sql)
    cols_b, rows_b = run_query(db, sql, parquet=ds)
    assert (cols_a, rows_a) == (cols_b, rows_b) and rows_a


def test_dataset_is_hive_partitioned_by_date_and_server(corpus):
    _log, _db, ds = corpus
    parts = {p.split(os.sep)[-3:-1][0] + "/" + p.split(os.sep)[-2] for p in _files(ds, "games")}
    assert parts and all(p.startswith("date=2026-") and "/server=paipu-sim" in p for p in parts)
    # any engine reading the folder hive-style sees the partition columns, the table's columns and _batch
    con = duckdb.connect()
    rows = con.execute(f"SELECT DISTINCT date::VARCHAR, server FROM read_parquet('{ds}/games/**/*.parquet', "
                       "hive_partitioning = true, hive_types = {'date': DATE, 'server': VARCHAR})").fetchall()
    assert len(rows) == len(parts)
    names = [d[0] for d in con.execute(f"DESCRIBE SELECT * FROM read_parquet('{ds}/hands/**/*.parquet', "
                                       "hive_partitioning = false)").fetchall()]
    assert names == [*next(t for t in TABLES if t.name == "hands").names, "_batch"]


def _files(ds: str, table: str) -> list[str]:
    out = []
    for root, _dirs, files in os.walk(os.path.join(ds, table)):
        out += [os.path.join(root, f) for f in files]
    return sorted(out)


def _all_files(ds: str) -> list[str]:
    return sorted(os.path.join(r, f) for r, _d, fs in os.walk(ds) for f in fs if "_paipu" not in r)


def test_reingesting_changes_nothing(corpus):
    log, _db, ds = corpus
    before = _all_files(ds), len(Dataset(ds).commits())
    r = store.ingest([log], parquet=ds)
    assert (r.added, r.unchanged, r.replaced, r.refused) == (0, 60, [], [])
    assert (_all_files(ds), len(Dataset(ds).commits())) == before


def test_a_changed_game_is_replaced_and_read_once(tmp_path):
    ds, db = str(tmp_path / "ds"), str(tmp_path / "s.duckdb")
    first = write(tmp_path / "a.jsonl", dianji_game("g1"), dianji_game("g2"))
    changed = write(tmp_path / "b.jsonl", dianji_game("g2", underpay=True, build="2.0"))
    for kw in ({"parquet": ds}, {"db": db}):
        store.ingest([first], audit=False, **kw)  # no findings: an empty table beside a replaced game
        assert store.ingest([first], audit=False, **kw).unchanged == 2
        r = store.ingest([changed], audit=False, **kw)
        assert r.replaced == ["g2"]
    sql = "SELECT game, build, findings FROM games ORDER BY game"
    assert run_query(db, sql, parquet=ds) == run_query(db, sql)
    assert [r[1] for r in run_query(db, sql, parquet=ds)[1]] == ["1.0", "2.0"]
    for t in TABLES:
        q = f"SELECT * EXCLUDE (ingested_at) FROM {t.name} ORDER BY ALL" if t.name == "games" else \
            f"SELECT * FROM {t.name} ORDER BY ALL"
        assert run_query(db, q, parquet=ds) == run_query(db, q), t.name


def test_a_killed_ingest_leaves_no_partial_batch_visible(tmp_path):
    ds = str(tmp_path / "ds")
    games = [dianji_game(f"g{i}", start_hour=i) for i in range(4)]
    path = write(tmp_path / "all.jsonl", *games)
    per_game = len(games[0].events)
    # the second batch's files are in place, its commit record is not
    kill_ingest_in_batch_2(path, 2 * per_game, f"parquet={ds!r}")
    assert len({f.rsplit("part-", 1)[1] for f in _files(ds, "games")}) == 2  # two batches' files on disk
    count = "SELECT count(*), count(DISTINCT game) FROM {}"
    assert run_query("", count.format("games"), parquet=ds)[1] == [(2, 2)]
    assert run_query("", count.format("events"), parquet=ds)[1] == [(2 * per_game, 2)]
    r = store.ingest([path], parquet=ds)  # sweeps the dead batch, then finishes the job
    assert (r.added, r.unchanged) == (2, 2)
    assert run_query("", count.format("games"), parquet=ds)[1] == [(4, 4)]
    assert len({f.rsplit("part-", 1)[1] for f in _files(ds, "games")}) == 2
    assert not os.path.exists(os.path.join(ds, "_paipu", "pending")) or not os.listdir(
        os.path.join(ds, "_paipu", "pending"))


def test_an_fsspec_url_works_like_a_folder(tmp_path):
    import fsspec

    url = "memory://paipu-test/ds"
    path = write(tmp_path / "a.jsonl", dianji_game("g1"), dianji_game("g2", underpay=True))
    try:
        assert store.ingest([path], parquet=url).added == 2
        assert store.ingest([path], parquet=url).unchanged == 2
        assert run_query("", "SELECT game FROM games ORDER BY game", parquet=url)[1] == [("g1",), ("g2",)]
        with pytest.raises(QueryRefused, match="touches files"):
            run_query("", "SELECT * FROM read_csv('/etc/passwd')", parquet=url)
    finally:
        fsspec.filesystem("memory").rm("/paipu-test", recursive=True)


def test_query_guard_holds_on_the_dataset(corpus):
    _log, _db, ds = corpus
    for sql in ("COPY games TO 'x.parquet'", "CREATE TABLE t AS SELECT 1", f"SELECT * FROM read_text('{ROOT}/README.md')"):
        with pytest.raises(QueryRefused):
            run_query("", sql, parquet=ds)
    with pytest.raises(QueryRefused, match="inside the dataset"):
        run_query("", "SELECT 1", "parquet", os.path.join(ds, "games", "x.parquet"), parquet=ds)
    with pytest.raises(store.StoreError, match="no paipu Parquet dataset"):
        run_query("", "SELECT 1", parquet=os.path.join(ds, "nope"))


# --- versions and the way out ------------------------------------------------------------


def test_the_store_records_who_wrote_it_and_export_import_round_trips(corpus, tmp_path):
    _log, db, ds = corpus
    meta = dict(run_query(db, "SELECT key, value FROM meta")[1])
    assert meta["duckdb_version"] == duckdb.__version__ == meta["created_by_duckdb_version"]
    assert meta["paipu_version"] and meta["store_version"] == str(STORE_VERSION)
    assert all(c["written_by"]["duckdb"] == duckdb.__version__ for c in Dataset(ds).commits())
    out, back = str(tmp_path / "exported"), str(tmp_path / "back.duckdb")
    app = typer.Typer()
    register(app)
    runner = CliRunner()
    r = runner.invoke(app, ["export", "--db", db, "--parquet", out])
    assert r.exit_code == 0 and "60 games exported" in r.stdout
    assert "0 games exported" in runner.invoke(app, ["export", "--db", db, "--parquet", out]).stdout
    r = runner.invoke(app, ["import", "--parquet", out, "--db", back])
    assert r.exit_code == 0 and "60 games added, 0 replaced, 0 unchanged" in r.stdout
    assert "0 games added, 0 replaced, 60 unchanged" in runner.invoke(
        app, ["import", "--parquet", out, "--db", back]).stdout
    for sql in ANALYST_QUERIES[2:5]:
        assert run_query(back, sql) == run_query(db, sql)


def test_a_store_this_duckdb_cannot_read_says_how_to_get_out(tmp_path, monkeypatch):
    db = str(tmp_path / "old.duckdb")
    store.connect(db).close()

    def refuse(*_a, **_k):
        raise duckdb.IOException("IO Error: Trying to read a database file with version number 39, but we can only "
                                 "read version 64.\nThe database file was created with an older version of DuckDB.")

    monkeypatch.setattr(duckdb, "connect", refuse)
    with pytest.raises(store.StoreError) as e:
        store.connect(db, read_only=True)
    text = str(e.value)
    assert f"paipu export --db {db} --parquet DIR" in text and "paipu import --parquet DIR" in text
    assert "version number 39" in text and duckdb.__version__ in text and "\n" not in text
