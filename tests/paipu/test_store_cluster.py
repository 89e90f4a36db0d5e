"""``ingest --cluster``: the audit of each batch runs on a Dask cluster and the store ends
exactly as a one-process ingest leaves it, even when a worker dies mid-run."""
from __future__ import annotations

import glob
import os
import signal

import duckdb
import pytest
from typer.testing import CliRunner

from paipu import store
from paipu.store.tables import TABLES
from schema.reader import LogReader

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = sorted(glob.glob(os.path.join(ROOT, "sample_logs", "*", "*.jsonl")))


def contents(db: str, parquet: bool = False) -> dict[str, list]:
    """Every table's rows (the write time left out), sorted, to compare two stores."""
    from paipu.store.parquet import open_dataset

    con = open_dataset(db) if parquet else duckdb.connect(db, read_only=True)
    try:
        return {t.name: con.execute(f"SELECT * EXCLUDE (ingested_at) FROM {t.name} ORDER BY ALL" if t.name == "games"
                                    else f"SELECT * FROM {t.name} ORDER BY ALL").fetchall()
                for t in TABLES}
    finally:
        con.close()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A simulated corpus with planted faults, and its one-process store."""
    from paipu.sim.simulate import SimConfig, simulate_games, write_log

    d = tmp_path_factory.mktemp("cluster-ingest")
    log = str(d / "planted.jsonl")
    write_log(log, simulate_games(SimConfig(games=40, seed=9, options={"dianji": True}, builds=("1.0", "1.1"),
                                            illegal_claimer=1, dianji_underpay_build="1.1")))
    one = str(d / "one.duckdb")
    r = store.ingest([log, *SAMPLES], one)
    assert r.audited and r.findings > 0
    return d, [log, *SAMPLES], contents(one)


def test_cluster_ingest_stores_what_one_process_stores(client, corpus):
    d, paths, expected = corpus
    db = str(d / "cluster.duckdb")
    r = store.ingest(paths, db, cluster=client, batch_events=5_000)
    assert r.batches > 2
    got = contents(db)
    assert got == expected
    assert got["findings"] and got["ledger"] and got["corrections"]
    ds = str(d / "dataset")
    store.ingest(paths, parquet=ds, cluster=client, batch_events=5_000)
    assert contents(ds, parquet=True) == expected


def test_cluster_ingest_sends_work_not_games(client, corpus, monkeypatch):
    # the workers read byte ranges of the files themselves (as audit --cluster does): no decoded
    # game is shipped, so the path that ships games may fail and the store is still the same
    import importlib

    ingest_module = importlib.import_module("paipu.store.ingest")  # the module (paipu.store.ingest is also a function)

    shipped = []
    def ship(self, logs):
        shipped.append(len(logs))
        raise AssertionError("decoded games shipped to the cluster")

    monkeypatch.setattr(ingest_module._ClusterAuditor, "map", ship)
    d, paths, expected = corpus
    db = str(d / "work.duckdb")
    r = store.ingest(paths, db, cluster=client, batch_events=5_000)
    assert r.findings > 0 and contents(db) == expected and shipped == []
    # near miss: standard input cannot be read by the workers, so its games are shipped
    assert ingest_module._stream_auditor(object(), ["-"], 1, client, None) is None
    pool = ingest_module._stream_auditor(object(), paths, 1, client, None)
    try:
        assert pool is not None and pool.cluster
    finally:
        pool.close()


def test_a_cluster_task_sends_its_games_events_in_record_batches_of_its_own(corpus):
    # Dask sends a task's result whenever the client asks, while the worker goes on with the
    # next task: the task seals its games' record batch before it returns, so the next task's
    # games go into a batch of their own and no event is sent twice
    from audits.cluster import audit_span
    from audits.parallel import _plan
    from paipu.store.ingest import GameBuilder, built_game, seal_open_group
    from schema.reader import FileSpan

    d, paths, _expected = corpus
    spans = [FileSpan(paths[0], a, b, first) for a, b, first in _plan(paths[0], 1)][:3]
    assert len(spans) == 3
    builder = GameBuilder()
    tasks = [audit_span(span, audit=builder)[0] for span in spans]
    groups = [{id(g.events) for g in games} for games in tasks]
    assert all(games for games in tasks) and not (groups[0] & groups[1] or groups[1] & groups[2])
    assert all(g.events._batch is not None for games in tasks for g in games)  # made in the task
    # near miss: without the task's end (game by game, as --jobs N's workers build), the next
    # span's games join the group still open
    seal_open_group()
    plain = [audit_span(span, audit=built_game)[0] for span in spans[:2]]
    assert {id(g.events) for g in plain[0]} & {id(g.events) for g in plain[1]}
    seal_open_group()


def test_cluster_ingest_ships_each_event_once_and_starts_before_the_store_opens(client, corpus, monkeypatch):
    import importlib

    from paipu.store import columns

    ingest_module = importlib.import_module("paipu.store.ingest")
    shipped: list[int] = []
    arrived = columns._arrived_group

    def count(batch, *rest):
        shipped.append(batch.num_rows)
        return arrived(batch, *rest)

    monkeypatch.setattr(columns, "_arrived_group", count)
    opened = ingest_module._open_target
    out_when_opened: list[int] = []

    def open_target(*args):
        out_when_opened.append(sum(1 for k in list(client.futures) if str(k).startswith("audit_span")))
        return opened(*args)

    monkeypatch.setattr(ingest_module, "_open_target", open_target)
    d, paths, expected = corpus
    db = str(d / "once.duckdb")
    r = store.ingest(paths, db, cluster=client, batch_events=5_000)
    assert contents(db) == expected
    read = sum(len(log.events) for log in LogReader(paths).games())  # games refused as read twice too
    assert sum(shipped) == read and len(shipped) > 1 and r.events < read
    assert out_when_opened and out_when_opened[0] > 0  # the workers were auditing as the store opened


def test_a_worker_killed_mid_ingest_loses_and_repeats_nothing(client, corpus):
    d, paths, expected = corpus
    db = str(d / "killed.duckdb")
    victims = sorted(client.run(os.getpid).values())
    killed = []

    def kill_once(report: store.IngestReport) -> None:
        if not killed:
            os.kill(victims[0], signal.SIGKILL)
            killed.append(victims[0])

    store.ingest(paths, db, cluster=client, batch_events=5_000, progress=kill_once)
    assert killed and contents(db) == expected


def test_ingest_command_on_a_local_cluster_reports_as_one_process(tmp_path):
    import typer

    from paipu.store_cmd import register

    app = typer.Typer()
    register(app)
    runner = CliRunner()
    one = runner.invoke(app, ["ingest", "--db", str(tmp_path / "a.duckdb"), *SAMPLES])
    many = runner.invoke(app, ["ingest", "--db", str(tmp_path / "b.duckdb"), "--cluster", "local:2", *SAMPLES])
    assert one.exit_code == many.exit_code == 0, many.output
    counts = lambda out: [x.split(" written to ")[0] for x in out.splitlines() if " games read: " in x]  # noqa: E731
    assert counts(one.output) == counts(many.output) and counts(one.output)
    assert contents(str(tmp_path / "a.duckdb")) == contents(str(tmp_path / "b.duckdb"))
    bad = runner.invoke(app, ["ingest", "--db", str(tmp_path / "c.duckdb"), "--cluster", "local:0", *SAMPLES])
    assert bad.exit_code == 2 and "local:N" in bad.output and "Traceback" not in bad.output
