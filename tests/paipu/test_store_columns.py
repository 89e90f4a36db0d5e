"""The events table as typed columns and the rows built from the decoded games (paipu.store.columns).

The per-event Python derivation (``engine="python"``, ``ingest.game_rows``) is the
reference for every table but events; the events' typed columns put back together
(:func:`paipu.store.columns.event_json_sql`) must give each event the reader decoded.
"""

from __future__ import annotations

import json

import duckdb
import msgspec
import pytest

from paipu import store
from paipu.store.columns import event_json_sql
from paipu.store.tables import STORE_VERSION, TABLES
from schema.reader import encode_events, read_games
from tests.paipu.test_store import q
from tests.paipu.test_store_sql import contents

#: Every family's presets, with the Qujing options that change the rows (点鸡, 养猪, 敲锣, chows).
PRESETS = [("qujing-xiaoji", {"chow": True, "dianji": True}), ("qujing-baiban", {"yangzhu": True}),
           ("qujing-shuanggui", {"qiaoluo": True}), ("guangdong-jipinghu", {}), ("sichuan", {}),
           ("sichuan-xuezhan", {}), ("xuzhou", {})]


@pytest.fixture(scope="module")
def families(tmp_path_factory) -> str:
    """A simulated corpus of every family (a few rooms of each preset)."""
    from paipu.sim.simulate import SimConfig, simulate_games

    path = tmp_path_factory.mktemp("families") / "families.jsonl"
    with open(path, "wb") as f:
        for k, (preset, options) in enumerate(PRESETS):
            cfg = SimConfig(preset=preset, options=options, games=3, seed=500 + k, max_hands=4, game_prefix=f"f{k}-")
            for game in simulate_games(cfg):
                f.write(encode_events(game))
    return str(path)


def test_every_table_holds_the_rows_of_the_per_event_derivation_on_every_family(tmp_path, families):
    new, ref = str(tmp_path / "new.duckdb"), str(tmp_path / "ref.duckdb")
    a = store.ingest([families], new)
    b = store.ingest([families], ref, engine="python")
    assert (a.games_read, a.added, a.events, a.findings) == (b.games_read, b.added, b.events, b.findings)
    mine, reference = contents(new), contents(ref)
    for t in TABLES:
        assert mine[t.name] == reference[t.name], t.name
    # every family is in it, each with hands and players
    presets = {p for (p,) in q(new, "SELECT DISTINCT preset FROM games")}
    assert presets == {p for p, _o in PRESETS}
    assert q(new, "SELECT count(DISTINCT game) FROM hand_players")[0][0] == a.added


def _decoded(path: str) -> dict[tuple, dict]:
    games, _ = read_games([path])
    return {(e.game, e.seq): {k: v for k, v in msgspec.to_builtins(e).items() if k != "at" and v is not None}
            for g in games for e in g.events}


def _rebuilt(db: str) -> dict[tuple, dict]:
    return {(g, s): {k: v for k, v in json.loads(d).items() if v is not None}
            for g, s, d in q(db, f"SELECT game, seq, {event_json_sql()} FROM events")}


def test_each_event_is_its_typed_columns_and_extra_put_back_together(tmp_path, families):
    db = str(tmp_path / "s.duckdb")
    store.ingest([families], db, audit=False)
    assert _rebuilt(db) == _decoded(families)
    # the times are the events' own (an instant; the log's UTC offset is in `raw` with --keep-raw)
    games, _ = read_games([families])
    first = games[0].events[5]
    assert q(db, "SELECT happened_at FROM events WHERE game = $g AND seq = 5", {"g": first.game})[0][0] == first.at
    # draws and discards, most of a log, need no JSON at all
    assert q(db, "SELECT count(*) FROM events WHERE type IN ('TileDrawn', 'TileDiscarded') AND extra IS NOT NULL"
              )[0][0] == 0


def test_a_changed_typed_value_is_seen_by_the_rebuild(tmp_path, families):
    """Near miss: one tile changed in the store no longer rebuilds the event read."""
    db = str(tmp_path / "s.duckdb")
    store.ingest([families], db, audit=False)
    con = duckdb.connect(db)
    con.execute("UPDATE events SET tile = '9s' WHERE rowid = (SELECT min(rowid) FROM events "
                "WHERE type = 'TileDiscarded' AND tile <> '9s')")
    con.close()
    assert _rebuilt(db) != _decoded(families)


def test_the_typed_columns_have_their_types(tmp_path, families):
    db = str(tmp_path / "s.duckdb")
    store.ingest([families], db, audit=False)
    types = dict(q(db, "SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = 'events'"))
    assert types["type"].startswith("ENUM(") and types["tile"].startswith("ENUM(")
    assert types["seat"] == "UTINYINT" and types["tiles"].endswith("[]")
    # the ENUM's order is the schema's, so an unknown type cannot be stored
    con = duckdb.connect(db)
    with pytest.raises(duckdb.ConversionException):
        con.execute("INSERT INTO events (game, seq, type) VALUES ('x', 0, 'NoSuchEvent')")
    con.close()


def test_a_store_of_the_previous_layout_is_refused_with_how_to_ingest_again(tmp_path, families):
    db = str(tmp_path / "old.duckdb")
    store.ingest([families], db, audit=False)
    con = duckdb.connect(db)
    con.execute("UPDATE meta SET value = '1' WHERE key = 'store_version'")
    con.close()
    with pytest.raises(store.StoreError) as e:
        store.ingest([families], db, audit=False)
    msg = str(e.value)
    assert "layout version 1" in msg and "paipu ingest LOGS --db NEW.duckdb" in msg and "\n" not in msg
    # near miss: the store of this layout opens and takes the same logs again (all unchanged)
    con = duckdb.connect(db)
    con.execute("UPDATE meta SET value = $v WHERE key = 'store_version'", {"v": str(STORE_VERSION)})
    con.close()
    assert store.ingest([families], db, audit=False).added == 0


def test_with_jobs_the_workers_build_the_rows_and_the_ingest_reads_no_log(tmp_path, families, monkeypatch):
    """``--jobs 2``: each worker reads its share, audits and builds the rows; the ingest itself
    never reads a log (its reader refuses to), and the store is the one-job store."""
    import sys

    one, two = str(tmp_path / "one.duckdb"), str(tmp_path / "two.duckdb")
    r1 = store.ingest([families], one)

    class NoReading:
        def __init__(self, paths):
            self.orphans = []

        def games(self):
            raise AssertionError("the ingest read a log itself")

    monkeypatch.setattr(sys.modules["paipu.store.ingest"], "LogReader", NoReading)
    r2 = store.ingest([families], two, jobs=2)
    assert (r2.added, r2.events, r2.findings) == (r1.added, r1.events, r1.findings) and not r2.refused
    assert contents(one) == contents(two)
    # near miss: with one job the ingest reads the logs itself, and so meets the refusing reader
    with pytest.raises(AssertionError, match="read a log itself"):
        store.ingest([families], str(tmp_path / "three.duckdb"))


def _columns_of(log, keep_raw=False):
    """One game's events as the events table's columns, made on their own (the reference)."""
    from paipu.store.columns import EventColumns
    from paipu.store.rows import fast_game_rows, game_lines

    _rows, types, seats, hands = fast_game_rows(log, "", "", None)
    cols = EventColumns(keep_raw)
    cols.add(log.game, log.events, log.lines, types, seats, hands, game_lines(log)[1] if keep_raw else None)
    return cols.take(), (log.game, log.events, log.lines, types, seats, hands,
                         game_lines(log)[1] if keep_raw else None)


@pytest.mark.parametrize("keep_raw", [False, True])
def test_a_workers_games_share_one_batch_sent_once_and_each_game_is_its_own_rows(families, keep_raw):
    """The games a worker builds go into one record batch, made when the reply is pickled; each
    game's slice of it is the game's own columns made alone; once sent, the group takes no game."""
    import pickle

    from paipu.store.columns import EventGroup

    logs = read_games([families])[0][:5]
    group = EventGroup(keep_raw)
    refs = []
    for log in logs:
        alone, args = _columns_of(log, keep_raw)
        refs.append(alone)
        assert group.add(*args) == len(refs) - 1
    arrived = pickle.loads(pickle.dumps(group))
    assert arrived.batch().num_rows == sum(len(log.events) for log in logs)
    for slot, alone in enumerate(refs):
        start, n = arrived.spans[slot]
        game = arrived.batch().slice(start, n)
        assert arrived.broken[slot] is None
        assert pa_table(game).equals(pa_table(alone))
    # sealed once sent: a game built after goes into another group
    assert group.add(*_columns_of(logs[0], keep_raw)[1]) is None
    # near miss: a group not yet sent takes it
    assert EventGroup(keep_raw).add(*_columns_of(logs[0], keep_raw)[1]) == 0


def pa_table(batch):
    """A record batch as a table with its dictionaries decoded (two batches can differ in dictionary)."""
    import pyarrow as pa

    table = pa.Table.from_batches([batch])
    return pa.table({name: (col.cast(col.type.value_type) if pa.types.is_dictionary(col.type) else col)
                     for name, col in zip(table.column_names, table.columns)})


def test_a_game_arrow_refuses_is_broken_alone_and_the_ingest_refuses_only_it(families):
    """A game whose columns Arrow cannot hold (a bug in paipu) is left out of its group's batch with
    why; the group's other games keep their own rows, and the ingest refuses that game only."""
    from paipu.store.columns import EventGroup
    from paipu.store.ingest import BuiltGame

    logs = read_games([families])[0][:3]
    bad = logs[1]
    bad.events[3] = msgspec.structs.replace(bad.events[3], seq=2 ** 40)  # no int32 holds it
    group = EventGroup(False)
    refs = {}
    for k, log in enumerate(logs):
        if log is not bad:
            refs[k] = _columns_of(log)[0]
        from paipu.store.rows import fast_game_rows

        _r, types, seats, hands = fast_game_rows(log, "", "", None)
        group.add(log.game, log.events, log.lines, types, seats, hands, None)
    batch = group.batch()
    assert group.spans[1] is None and group.broken[1]
    assert group.broken[0] is None and group.broken[2] is None
    assert batch.num_rows == len(logs[0].events) + len(logs[2].events)
    for slot in (0, 2):
        start, n = group.spans[slot]
        assert pa_table(batch.slice(start, n)).equals(pa_table(refs[slot]))
    built = [BuiltGame(log.game, log.file, events=group, slot=k, n_events=len(log.events)) for k, log in enumerate(logs)]
    for b in built:
        b.settle()
    assert [b.broken is not None for b in built] == [False, True, False]


def test_duckdb_keeps_to_one_thread_only_when_the_workers_are_on_this_machine():
    """``--cluster``: the workers count as this machine's (DuckDB then on one thread) only when
    every one of them runs here; one elsewhere, or no word from the scheduler, and they do not."""
    from paipu.store.ingest import _all_here

    class Client:
        def __init__(self, hosts):
            self.hosts = hosts

        def scheduler_info(self):
            if self.hosts is None:
                raise OSError("scheduler gone")
            return {"workers": {f"tcp://{h}:{k}": {"host": h} for k, h in enumerate(self.hosts)}}

    assert _all_here(Client(["127.0.0.1", "127.0.0.1"]))
    assert not _all_here(Client(["127.0.0.1", "10.9.8.7"]))
    assert not _all_here(Client([]))
    assert not _all_here(Client(None))
