"""The audit on a Dask cluster gives what the one-process audit gives: the same findings,
summaries and ledgers, in the same order, even when a worker dies mid-run."""

from __future__ import annotations

import os
import re
import signal
import time

import msgspec
import pytest

from audits import cluster
from audits.cluster import ClusterAudit, ClusterError, audit_cluster, plan_spans
from paipu.sim.simulate import SimConfig, simulate_games
from schema.reader import FileSpan, LogReader, encode_events
from tests.audits.helpers import faulty_games, interleave, selfdraw_game
from tests.audits.test_parallel import one_job

distributed = pytest.importorskip("distributed")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = os.path.join(ROOT, "sample_logs")

#: One room mix per preset/option family, so the corpus exercises them all.
MIXES = [("qujing-xiaoji", {}), ("qujing-xiaoji", {"chow": True, "dianji": True}),
         ("qujing-baiban", {"yangzhu": True}), ("qujing-shuanggui", {"qiaoluo": True})]


def corpus_2000(path) -> str:
    """2,000 games: 100 simulated one-hand rooms over the mixes, each copied 20 times under new ids."""
    rooms = []
    for k, (preset, options) in enumerate(MIXES):
        cfg = SimConfig(preset=preset, options=options, games=25, seed=40 + k, max_hands=1, game_prefix=f"m{k}-")
        rooms += [encode_events(g) for g in simulate_games(cfg)]
    base = b"".join(rooms)
    path.write_bytes(b"".join(base.replace(b'"game":"', b'"game":"c%d-' % c) for c in range(20)))
    return str(path)


def dump(audits) -> bytes:
    """Everything an audit result holds (findings, summary fields, ledger), as bytes to compare."""
    return msgspec.json.encode(list(audits))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    path = corpus_2000(tmp_path_factory.mktemp("corpus") / "corpus.jsonl")
    expected, orphans = one_job([path])
    return path, expected, orphans


def on_cluster(paths, client, **kw):
    orphans = []
    return list(audit_cluster(paths, client, orphans, **kw)), orphans


# --- spans: reading a file in parts is reading it whole ---------------------------


def _read(paths):
    r = LogReader(paths)
    games = list(r.games())
    return [(g.game, g.lines, g.events, g.problem, g.closed) for g in games], r.orphans


def test_spans_cut_only_where_no_game_is_open(tmp_path):
    one = selfdraw_game("s-one").jsonl()
    two = selfdraw_game("s-two").jsonl()
    path = tmp_path / "mixed.jsonl"
    # interleaved pairs (no cut inside them), a blank line, bare CRs, the ids again, then odd lines
    # (a game whose GameClosed does not decode stays open to the end: no cut after it)
    path.write_bytes(b"".join([interleave(one, two), b"\n", one.replace(b"\n", b"\r", 3),
                               interleave(two, one), faulty_games()]))
    spans = plan_spans(str(path), 200)
    assert len(spans) >= 4
    assert spans[0].start == 0 and spans[-1].end is None
    assert all(a.end == b.start for a, b in zip(spans, spans[1:]))
    data = path.read_bytes()
    for s in spans[1:]:
        assert data[s.start - 1:s.start] == b"\n"
        assert s.first_line == 1 + len(data[:s.start].splitlines())
    assert _read(spans) == _read([str(path)])
    # each span holds whole games: every game of a span closes in it or the file ends there
    for s in spans[:-1]:
        assert all(g.closed for g in LogReader([s]).games())


def test_an_overlong_line_keeps_its_game_whole(tmp_path, monkeypatch):
    from schema import limits

    one = selfdraw_game("l-one").jsonl().splitlines(keepends=True)
    long_line = b'{"type":"TileDrawn","game":"l-one","seq":3,"pad":"' + b"x" * 5000 + b'"}\n'
    path = tmp_path / "long.jsonl"
    path.write_bytes(b"".join(one[:3] + [long_line] + one[3:]) + selfdraw_game("l-two").jsonl())
    previous = limits.set_limits(limits.Limits(max_line_bytes=1024))
    try:
        spans = plan_spans(str(path), 100)  # the long line inside a block
        assert _read(spans) == _read([str(path)])
        monkeypatch.setattr(cluster, "_READ_BYTES", 1500)  # the long line spanning blocks
        spans = plan_spans(str(path), 100)
        assert len(spans) == 2 and spans[1].start == len(b"".join(one)) + len(long_line)
        assert _read(spans) == _read([str(path)])
    finally:
        limits.set_limits(previous)


def test_small_and_gz_files_are_one_span(tmp_path):
    p = tmp_path / "a.jsonl"
    p.write_bytes(selfdraw_game("g").jsonl())
    assert plan_spans(str(p), 1 << 20) == [FileSpan(str(p))]
    assert plan_spans(str(tmp_path / "a.jsonl.gz"), 1) == [FileSpan(str(tmp_path / "a.jsonl.gz"))]


# --- on a LocalCluster of 2 worker processes ---------------------------------------


def test_sample_logs_give_the_one_process_audit(client):
    expected, expected_orphans = one_job([SAMPLES])
    got, orphans = on_cluster([SAMPLES], client)
    assert dump(got) == dump(expected) and orphans == expected_orphans
    assert sum(len(a.findings) for a in got) >= 38  # the samples hold planted findings


def test_odd_files_in_many_spans_give_the_one_process_audit(client, folder):  # noqa: F811
    paths = [str(folder), str(folder / "missing.jsonl")]
    expected, expected_orphans = one_job(paths)
    got, orphans = on_cluster(paths, client, split_bytes=300, window=3)
    assert got == expected and orphans == expected_orphans
    assert {o.message.split(" ")[0] for o in orphans} >= {"no", "not", "missing", "cannot"}


def test_2000_games_give_the_one_process_audit(client, corpus):
    path, expected, expected_orphans = corpus
    assert len(expected) == 2000 and len({a.game for a in expected}) == 2000
    got, orphans = on_cluster([path], client, split_bytes=2 << 20)
    assert dump(got) == dump(expected) and orphans == expected_orphans
    assert any(a.ledger for a in got) and sum(a.hands for a in got) == 2000


def _guess_fails_in(path: str, split_bytes: int) -> bool:
    """Whether a cut guessed in ``path`` (:func:`audits.cluster.guess_cuts`) falls inside a game."""
    for start, end, first in cluster.guess_cuts(path, split_bytes):
        if end is not None and not all(g.closed for g in LogReader([FileSpan(path, start, end, first)]).games()):
            return True
    return False


def test_a_guessed_cut_inside_a_game_gives_the_one_process_audit(client, tmp_path):
    # clean games, then two tables logged at once (after one's GameClosed the other is still
    # open, where a cut is guessed), then clean games again: the span with the wrong cut and the
    # file's later spans are dropped, and the rest of the file is planned where no game is open
    clean = [selfdraw_game(f"q{k}").jsonl() for k in range(8)]
    path = tmp_path / "tables.jsonl"
    path.write_bytes(b"".join(clean[:4] + [interleave(selfdraw_game("t-a").jsonl(), selfdraw_game("t-b").jsonl())]
                              + clean[4:]))
    assert _guess_fails_in(str(path), 300)
    expected, expected_orphans = one_job([str(path)])
    got, orphans = on_cluster([str(path)], client, split_bytes=300, window=3)
    assert dump(got) == dump(expected) and orphans == expected_orphans
    assert [a.game for a in got][4:6] == ["t-a", "t-b"] and len(got) == 10


def test_guessed_cuts_between_games_hold_near_miss(client, tmp_path):
    path = tmp_path / "one-table.jsonl"
    path.write_bytes(b"".join(selfdraw_game(f"q{k}").jsonl() for k in range(8)))
    assert not _guess_fails_in(str(path), 300)
    expected, expected_orphans = one_job([str(path)])
    got, orphans = on_cluster([str(path)], client, split_bytes=300)
    assert dump(got) == dump(expected) and orphans == expected_orphans


def test_standard_input_is_refused(client):
    with pytest.raises(ClusterError, match="standard input"):
        on_cluster(["-"], client)


def test_a_worker_killed_mid_run_loses_and_repeats_nothing(client, corpus):
    path, expected, expected_orphans = corpus
    pids = client.run(os.getpid)
    orphans: list = []
    got = []
    it = audit_cluster([path], client, orphans, split_bytes=1 << 20, window=4)
    got.append(next(it))
    victim = sorted(pids.values())[0]
    os.kill(victim, signal.SIGKILL)
    got += list(it)
    assert dump(got) == dump(expected) and orphans == expected_orphans
    deadline = time.time() + 30
    while victim in client.run(os.getpid).values() and time.time() < deadline:
        time.sleep(0.2)
    assert victim not in client.run(os.getpid).values()  # the worker really died (and was replaced)


def _audit_tasks(client) -> int:
    """How many span audits the client holds (submitted and not yet let go)."""
    return sum(1 for k in list(client.futures) if str(k).startswith("audit_span"))


def _settled(client, want: int) -> int:
    """The client's span audits once they come to ``want``, or after 10 s."""
    deadline = time.time() + 10
    while (n := _audit_tasks(client)) != want and time.time() < deadline:
        time.sleep(0.05)
    return n


def test_a_cluster_audit_sends_its_first_tasks_when_made(client, corpus):
    # ingest --cluster makes it before opening its store: the workers audit meanwhile
    path, expected, expected_orphans = corpus
    before = _settled(client, 0)
    orphans: list = []
    run = ClusterAudit([path], client, orphans, split_bytes=1 << 20, window=4)
    assert _audit_tasks(client) == before + 4  # the window, before any result is asked for
    got = list(run)
    assert dump(got) == dump(expected) and orphans == expected_orphans
    assert _settled(client, before) == before  # every task let go once its result is taken
    # closed unread, its tasks are let go too
    ClusterAudit([path], client, [], split_bytes=1 << 20, window=3).close()
    assert _settled(client, before) == before


def test_audit_cluster_sends_nothing_before_it_is_read_near_miss(client, corpus):
    path, expected, expected_orphans = corpus
    before = _settled(client, 0)
    lazy = audit_cluster([path], client, [], split_bytes=1 << 20, window=4)
    time.sleep(0.2)
    assert _audit_tasks(client) == before  # a generator: the audit command reads it as it prints
    assert dump([next(lazy)]) == dump(expected[:1])
    assert _audit_tasks(client) > before
    lazy.close()
    assert _settled(client, before) == before


def _spans_sent(monkeypatch) -> list:
    """The spans a :class:`ClusterAudit` sends, as it sends them."""
    sent: list = []
    submit = ClusterAudit._submit

    def record(self, path, span, guessed, cut):
        sent.append(span)
        return submit(self, path, span, guessed, cut)

    monkeypatch.setattr(ClusterAudit, "_submit", record)
    return sent


def test_default_spans_shrink_as_the_file_is_read(client, corpus, monkeypatch):
    # guided self-scheduling: large first spans (few tasks), small last ones (the workers end together)
    assert cluster._guided_bytes(40 << 20, 2, 0) == 5 << 20 and cluster._guided_bytes(40 << 20, 2, 36 << 20) == 1 << 20
    path, expected, expected_orphans = corpus
    size = os.path.getsize(path)
    monkeypatch.setattr(cluster, "MIN_SPLIT_BYTES", size // 40)
    sent = _spans_sent(monkeypatch)
    orphans: list = []
    got = list(ClusterAudit([path], client, orphans))
    assert dump(got) == dump(expected) and orphans == expected_orphans
    lengths = [(s.end or size) - s.start for s in sent]
    assert all(n > 0 for n in lengths)  # no empty span at the end
    assert lengths[0] >= size // 8 > 3 * lengths[-2] and min(lengths[:-1]) >= size // 40  # the last: what is left


def test_spans_of_a_given_size_stay_even_near_miss(client, corpus, monkeypatch):
    path, expected, expected_orphans = corpus
    size = os.path.getsize(path)
    sent = _spans_sent(monkeypatch)
    orphans: list = []
    got = list(ClusterAudit([path], client, orphans, split_bytes=size // 10))
    assert dump(got) == dump(expected) and orphans == expected_orphans
    lengths = [(s.end or size) - s.start for s in sent[:-1]]
    assert len(lengths) >= 8 and max(lengths) < 1.2 * min(lengths)


def test_a_local_cluster_started_here_does_not_profile_its_tasks(client):
    import dask

    def profiles(dask_worker) -> bool:
        return "profile" in dask_worker.periodic_callbacks

    local_client, local = cluster.connect("local:1")
    try:
        assert list(local_client.run(profiles).values()) == [False]
    finally:
        local_client.close()
        local.close()
    # the setting is the workers' only: this process's Dask settings are as they were
    assert dask.config.get("distributed.worker.profile.enabled") is True
    # near miss: workers started with Dask's defaults (the fixture's) sample every task's stack
    assert list(client.run(profiles).values()) == [True, True]


# --- the command ---------------------------------------------------------------------


def test_audit_command_on_local_cluster_prints_and_exits_as_one_process(tmp_path):
    from typer.testing import CliRunner

    from tests.paipu.test_audit_cmd import _app

    runner = CliRunner()
    for fmt in ("json", "junit"):
        one = runner.invoke(_app(), ["audit", SAMPLES, "--format", fmt])
        many = runner.invoke(_app(), ["audit", SAMPLES, "--format", fmt, "--cluster", "local:2"])
        untimed = [re.sub(r'(time|timestamp)="[^"]*"', "", r.stdout) for r in (one, many)]
        assert many.exit_code == one.exit_code and untimed[0] == untimed[1]
        assert one.exit_code == 1  # the samples hold error findings
    bad = runner.invoke(_app(), ["audit", SAMPLES, "--cluster", "local:zero"])
    assert bad.exit_code == 2 and "local:N" in bad.stderr and "Traceback" not in bad.output
    mixed = runner.invoke(_app(), ["audit", SAMPLES, "--cluster", "local:2", "--jobs", "2"])
    assert mixed.exit_code == 2 and "do not mix" in mixed.stderr


def test_audit_command_reaches_a_running_scheduler_by_its_address(client):
    from typer.testing import CliRunner

    from tests.paipu.test_audit_cmd import _app

    runner = CliRunner()
    one = runner.invoke(_app(), ["audit", SAMPLES, "--format", "json"])
    many = runner.invoke(_app(), ["audit", SAMPLES, "--format", "json", "--cluster", client.scheduler.address])
    assert many.exit_code == one.exit_code == 1 and many.stdout == one.stdout
    assert client.scheduler.address.startswith("tcp://")
