"""Where the store's time goes, per piece, in CPU seconds for one corpus (issue 37's floor).

    python bench/store_cost.py LOG

Each piece runs on its own over the decoded games (the decode is timed too): the audit,
the content hash, the body hash, the rows of the derived tables, the events table's columns
(one record batch for all games), and DuckDB alone creating a store and appending every
table's rows (Arrow) in one transaction, then closing it.  From them, the least time the
store can add to the audit on 2 cores, and so the best ``ingest --jobs 2 / audit --jobs 2``
speed any split of this work between processes can reach.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from typing import Any, Callable, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def _cpu(fn: Callable[[], Any], runs: int = 2) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(runs):
        t = time.process_time()
        out = fn()
        best = min(best, time.process_time() - t)
    return best, out


def pieces(path: str, runs: int = 2) -> dict[str, float]:
    """CPU seconds of each piece of the ingest of ``path`` (best of ``runs``), with the cyclic
    collector set as the ingest and the audit set it (``schema.collector``)."""
    from schema.collector import few_collections

    with few_collections():
        return _pieces(path, runs)


def _pieces(path: str, runs: int) -> dict[str, float]:
    from audits.audit import audit_game
    from paipu.store.columns import EventColumns, rows_table
    from paipu.store.rows import body_hash, fast_game_rows, game_lines
    from paipu.store.tables import TABLE, connect
    from schema.reader import LogReader

    out: dict[str, float] = {}
    out["decode (LogReader)"], logs = _cpu(lambda: list(LogReader([path]).games()), runs)
    out["audit"], _ = _cpu(lambda: [audit_game(g) for g in logs], runs)
    out["content hash"], _ = _cpu(lambda: [game_lines(g) for g in logs], runs)
    out["body hash"], _ = _cpu(lambda: [body_hash(g.events) for g in logs], runs)
    out["rows (games, hands, …)"], built = _cpu(lambda: [fast_game_rows(g, "", "", None) for g in logs], runs)

    def columns() -> Any:
        cols = EventColumns(False)
        for g, (_r, types, seats, hands) in zip(logs, built):
            cols.add(g.game, g.events, g.lines, types, seats, hands, None)
        return cols.take()

    out["events columns (Arrow)"], events = _cpu(columns, runs)

    def duck() -> None:
        cols = lambda t: [(c.name, c.type) for c in TABLE[t].columns]  # noqa: E731
        with tempfile.TemporaryDirectory() as d:
            con = connect(os.path.join(d, "floor.duckdb"))
            con.execute("SET threads = 1")
            con.execute("BEGIN")
            con.register("_ev", events)
            con.execute("INSERT INTO events SELECT * FROM _ev")
            for table in ("games", "hands", "wins", "hand_players", "transfers"):
                rows = [r for rs, *_ in built for r in rs.rows[table]]
                con.register("_t", rows_table(cols(table), rows))
                con.execute(f"INSERT INTO {table} SELECT * FROM _t")
                con.unregister("_t")
            con.execute("COMMIT")
            con.close()

    out["DuckDB: create, append, close (1 thread)"], _ = _cpu(duck, runs)
    return out


def parquet_writer(path: str, runs: int = 2) -> float:
    """CPU seconds of pyarrow writing the same tables as Parquet files (the store's
    ``--parquet`` kind, zstd as its files are, one thread), the rows already built: what
    the other store kind costs in place of DuckDB's append (for comparison; not in the sum)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from paipu.store.columns import EventColumns, rows_table
    from paipu.store.rows import fast_game_rows
    from paipu.store.tables import TABLE
    from schema.collector import few_collections
    from schema.reader import LogReader

    with few_collections():
        logs = list(LogReader([path]).games())
        built = [fast_game_rows(g, "", "", None) for g in logs]
        cols = EventColumns(False)
        for g, (_r, types, seats, hands) in zip(logs, built):
            cols.add(g.game, g.events, g.lines, types, seats, hands, None)
        tables = {"events": pa.Table.from_batches([cols.take()])}
        for table in ("games", "hands", "wins", "hand_players", "transfers"):
            tables[table] = rows_table([(c.name, c.type) for c in TABLE[table].columns],
                                       [r for rs, *_ in built for r in rs.rows[table]])

    def write() -> None:
        with tempfile.TemporaryDirectory() as d:
            for name, t in tables.items():
                pq.write_table(t, os.path.join(d, f"{name}.parquet"), compression="zstd")

    threads = pa.cpu_count()
    pa.set_cpu_count(1)
    try:
        return _cpu(write, runs)[0]
    finally:
        pa.set_cpu_count(threads)


def native_readers(path: str, runs: int = 2) -> dict[str, float]:
    """CPU seconds of the events table's typed columns made by a C++ JSON reader instead of
    Python (each with the cyclic collector as the ingest sets it), for comparison with the
    ``events columns (Arrow)`` piece: pyarrow's reader of the canonical lines the content hash
    encodes (one thread and its own threads), and DuckDB's ``read_json`` of the log file
    (one thread).  Both leave out what the Python columns hold besides (the hand number, the
    line, the ``extra`` JSON): a floor for moving that piece into C++, not a replacement."""
    import io

    import duckdb
    import pyarrow as pa
    import pyarrow.json as pj

    from paipu.store.rows import game_lines
    from schema.collector import few_collections
    from schema.reader import LogReader

    with few_collections():
        logs = list(LogReader([path]).games())
        text = b"".join(game_lines(g)[1] for g in logs)
    tile = pa.string()
    schema = pa.schema([("game", pa.string()), ("seq", pa.int32()), ("type", pa.string()),
                        ("at", pa.timestamp("us", tz="UTC")), ("seat", pa.uint8()), ("tile", tile),
                        ("from_seat", pa.uint8()), ("kind", tile), ("tiles", pa.list_(tile)), ("source", pa.string()),
                        ("amount", pa.int32()), ("bet", pa.int32())])
    parse = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore")
    out: dict[str, float] = {}
    for threads in (False, True):
        read = pj.ReadOptions(use_threads=threads, block_size=1 << 24)
        name = f"pyarrow JSON reader ({'its threads' if threads else '1 thread'})"
        out[name], _ = _cpu(lambda: pj.read_json(io.BytesIO(text), read_options=read, parse_options=parse), runs)
    columns = ", ".join(f"{f.name!r}: '{t}'" for f, t in zip(schema, (
        "VARCHAR", "INTEGER", "VARCHAR", "TIMESTAMPTZ", "UTINYINT", "VARCHAR", "UTINYINT", "VARCHAR", "VARCHAR[]",
        "VARCHAR", "INTEGER", "INTEGER")))

    def duck() -> None:
        con = duckdb.connect()
        con.execute("SET threads = 1")
        con.execute(f"CREATE TABLE e AS SELECT * FROM read_json(?, format = 'newline_delimited', "
                    f"columns = {{{columns}}})", [path])
        con.close()

    out["DuckDB read_json (1 thread)"], _ = _cpu(duck, runs)
    return out


def report(path: str, runs: int = 2) -> float:
    """Print the pieces and the best ``ingest --jobs 2 / audit --jobs 2`` speed; returns it."""
    p = pieces(path, runs)
    for name, secs in p.items():
        print(f"  {name:<42} {secs:6.2f} s CPU")
    audit = p["decode (LogReader)"] + p["audit"]
    store = sum(v for k, v in p.items() if k not in ("decode (LogReader)", "audit"))
    best = audit / (audit + store)
    print(f"  the audit (decode + audit) {audit:.2f} s; the store on top {store:.2f} s = {store / audit:.0%} of it "
          f"(the target allows 25%): at best ingest/audit = {best:.2f}× the speed, whatever the split")
    print("  the events table's typed columns by a C++ JSON reader instead (for comparison; not in the sum):")
    native = native_readers(path, runs)
    for name, secs in native.items():
        print(f"    {name:<40} {secs:6.2f} s CPU  ({secs / p['events columns (Arrow)']:.2f}× the Python columns)")
    parquet = parquet_writer(path, runs)
    print(f"  pyarrow writing the same tables as Parquet (zstd, 1 thread; the --parquet store) "
          f"{parquet:6.2f} s CPU  ({parquet / p['DuckDB: create, append, close (1 thread)']:.2f}× DuckDB's append)")
    bounds(p, min([p["events columns (Arrow)"], *native.values()]), _floor_cpu(path, runs), parquet)
    return best


def _floor_cpu(path: str, runs: int) -> float:
    """CPU seconds of the decode floor (``bench/checks_cost.py``'s: msgspec decoding every line
    into the typed events)."""
    from checks_cost import decode_floor

    return _cpu(lambda: decode_floor(path), runs)[0]


def bounds(p: dict[str, float], events_least: float, floor: float, parquet: Optional[float] = None
           ) -> tuple[float, float]:
    """The best two of issue 37's store ratios can be on 2 cores, from the pieces ``p``.

    ``ingest --jobs 2 / audit --jobs 2`` is at most the audit's CPU over the audit's plus what
    the store adds (both cores busy in either, so CPU adds up; the ingest no better spread over
    them than the audit is).  Per store kind (DuckDB's append, or pyarrow writing the Parquet
    files: ``parquet``), the store's least share is shown piece by piece: the writer and the
    events table's columns by the cheapest reader measured (``events_least``, which still lacks
    the hand, line and extra columns), then the two hashes the store keys games on (content,
    body), then the rows of the other tables at today's cost.  The ingest of an audit's output
    is at most the decode floor (``floor``) over the reader, the rows, the cheapest events
    columns and DuckDB's append shared by 2 cores, and, with 1 job, over the pieces that stay
    in its one Python thread (the reader, the rows, the hashes).  Printed and returned (the
    first bound of each)."""
    audit = p["decode (LogReader)"] + p["audit"]
    duck = p["DuckDB: create, append, close (1 thread)"]
    rows, hashes = p["rows (games, hands, …)"], p["content hash"] + p["body hash"]
    jobs = audit / (audit + duck + events_least)
    joined = floor / ((p["decode (LogReader)"] + rows + events_least + duck) / 2)
    print("  bounds on 2 cores: the store's least CPU as a share of the audit's, and the best "
          "ingest --jobs 2 / audit --jobs 2 it leaves (target: ≤ 25%, ≥ 0.8×)")
    writers = {"DuckDB": duck, **({"Parquet": parquet} if parquet is not None else {})}
    for kind, writer in writers.items():
        steps = [("writer + cheapest events columns", writer + events_least), ("+ content and body hash", hashes),
                 ("+ the rows at today's cost", rows)]
        added, cells = 0.0, []
        for name, secs in steps:
            added += secs
            cells.append(f"{name} {added / audit:.0%} → {audit / (audit + added):.2f}×")
        print(f"    {kind + ':':<9}" + ";  ".join(cells))
    print(f"    audit-output ingest / decode floor ≤ floor {floor:.2f} s / ((reader + rows + cheapest events columns "
          f"+ DuckDB) / 2) = {joined:.0%}  (target ≥ 50%; every piece on both cores at once)")
    print(f"      with 1 job the reader, the rows and the hashes stay in one Python thread: "
          f"≤ floor / (reader + rows + hashes) = {floor / (p['decode (LogReader)'] + rows + hashes):.0%}")
    return jobs, joined


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    report(sys.argv[1])
