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
from typing import Any, Callable

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
    return best


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    report(sys.argv[1])
