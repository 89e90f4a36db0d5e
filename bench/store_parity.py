"""Every store table, row for row, against the store paipu wrote before the typed events table.

    python bench/store_parity.py [--jobs N] REF_TREE [LOGS ...]

``REF_TREE`` is a checkout of paipu from before the change (``git worktree add /tmp/ref
423cd64``); its ingest writes the reference store, this tree's ingest the new one, both
with the audit, of the same logs (by default the sample logs and a simulated corpus of
every family).  Every table but ``events`` must hold the same rows (``games.ingested_at``
aside); the events table is compared on the columns both shapes keep (game, seq, type, time,
hand, seat, tile) and, for every event, the new shape's columns put back together must give
the old one's JSON.  Exit 1 on any difference.  Not part of the test suite (it needs the
reference tree); ``tests/paipu/test_store_columns.py`` holds the same comparison against this
tree's per-event reference derivation.

Against a reference tree that already has the typed events table (e.g. ``main``), the events
table is compared row for row on every column.  ``--jobs N`` makes this tree's store with
``ingest --jobs N`` (the workers build the rows), the reference's with one job.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

import duckdb  # noqa: E402

SKIP = {"games": ("ingested_at",)}


def ingest_with(tree: str, paths: list[str], db: str, jobs: int = 1) -> None:
    code = ("import sys; sys.path.insert(0, sys.argv[1]); from paipu.store import ingest\n"
            "if __name__ == '__main__':\n"
            "    r = ingest(sys.argv[4:], sys.argv[2], jobs=int(sys.argv[3]))\n"
            "    print(r.games_read, r.added, len(r.refused), r.events)")
    out = subprocess.run([sys.executable, "-c", code, tree, db, str(jobs), *paths], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": tree}, cwd=tree)
    if out.returncode:
        raise SystemExit(out.stderr)
    print(f"  {tree}: games read, added, refused, events = {out.stdout.strip()}")


def corpus(d: str) -> list[str]:
    """A simulated corpus of every family's presets (a few rooms each)."""
    from paipu.sim.simulate import SimConfig, simulate_games
    from schema.reader import encode_events

    presets = ["qujing-xiaoji", "qujing-baiban", "guangdong-jipinghu", "sichuan", "sichuan-xuezhan", "xuzhou"]
    opts = [{}, {"chow": True, "dianji": True}, {"yangzhu": True}, {"qiaoluo": True}]
    path = os.path.join(d, "families.jsonl")
    with open(path, "wb") as f:
        for k, preset in enumerate(presets):
            for j, o in enumerate(opts if preset.startswith("qujing") else [{}]):
                cfg = SimConfig(preset=preset, options=o, games=6, seed=1000 + 10 * k + j, max_hands=6,
                                game_prefix=f"p{k}-{j}-")
                for game in simulate_games(cfg):
                    f.write(encode_events(game))
    return [path]


def rows(db: str, table: str, cols: list[str]) -> list:
    con = duckdb.connect(db, read_only=True)
    try:
        return con.execute(f"SELECT {', '.join(cols)} FROM {table} ORDER BY ALL").fetchall()
    finally:
        con.close()


def compare(ref: str, new: str) -> int:
    from paipu.store.tables import TABLES

    bad = 0
    con = duckdb.connect(ref, read_only=True)
    ref_cols = {t: [c[0] for c in con.execute(f"DESCRIBE {t}").fetchall()] for t in [x.name for x in TABLES]}
    con.close()
    for t in TABLES:
        if t.name == "events":
            continue
        # the columns both layouts have (a later layout may add some: named, not compared)
        cols = [c for c in t.names if c not in SKIP.get(t.name, ()) and c in ref_cols[t.name]]
        added = [c for c in t.names if c not in ref_cols[t.name]]
        a, b = rows(ref, t.name, cols), rows(new, t.name, cols)
        same = a == b
        bad += not same
        print(f"  {t.name:<13} {len(a):>8} rows in the reference, {len(b):>8} here: {'same' if same else 'DIFFER'}"
              + (f" (columns new here, not compared: {', '.join(added)})" if added else ""))
        if not same:
            diff = [c for k, c in enumerate(cols) if [repr(r[k]) for r in a] != [repr(r[k]) for r in b]]
            ra, rb = {repr(r) for r in a}, {repr(r) for r in b}
            gone, new_rows = ra - rb, rb - ra
            print(f"      {len(gone)} rows only in the reference, {len(new_rows)} only here; "
                  f"the columns whose values differ: {', '.join(diff) or 'none'}")
    common = ["game", "seq", "type::VARCHAR", "happened_at", "hand", "seat::INTEGER", "tile::VARCHAR"]
    a, b = rows(ref, "events", common), rows(new, "events", common)
    same = a == b
    bad += not same
    print(f"  events        {len(a):>8} rows in the reference, {len(b):>8} here: common columns "
          f"{'same' if same else 'DIFFER'}")
    if "data" not in ref_cols["events"]:  # a reference of the typed layout: every column, row for row
        cols = [f"{c}::VARCHAR" if c in ("type", "tile", "kind", "tiles", "source") else c
                for c in ref_cols["events"]]
        a, b = rows(ref, "events", cols), rows(new, "events", cols)
        same = a == b
        print(f"  events        every column, row for row: {'same' if same else 'DIFFER'}")
        return bad + (not same)
    # the whole event, put back together from the new columns, against the old JSON
    from paipu.store.columns import event_json_sql

    # (a field set to null reads as one left out: every such field's default is null)
    old = dict(((g, s), {k: v for k, v in json.loads(d).items() if k != "at" and v is not None})
               for g, s, d in rows(ref, "events", ["game", "seq", "data"]))
    back = dict(((g, s), {k: v for k, v in json.loads(d).items() if v is not None})
                for g, s, d in rows(new, "events", ["game", "seq", event_json_sql()]))
    same = old == back
    bad += not same
    print(f"  events        the whole event from the typed columns and extra: {'same' if same else 'DIFFER'}")
    if not same:
        for k in old:
            if old[k] != back.get(k):
                print("   ", k, old[k], back.get(k))
                break
    return bad


def main() -> None:
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    args = sys.argv[1:]
    jobs = 1
    if args[0] == "--jobs":
        jobs, args = int(args[1]), args[2:]
    tree = os.path.abspath(args[0])
    with tempfile.TemporaryDirectory() as d:
        paths = [os.path.abspath(p) for p in args[1:]] or [os.path.join(ROOT, "sample_logs"), *corpus(d)]
        ref, new = os.path.join(d, "ref.duckdb"), os.path.join(d, "new.duckdb")
        ingest_with(tree, paths, ref)
        ingest_with(ROOT, paths, new, jobs)
        sizes = os.path.getsize(ref), os.path.getsize(new)
        print(f"  store size: reference {sizes[0] / 1e6:.2f} MB, here {sizes[1] / 1e6:.2f} MB")
        bad = compare(ref, new)
    print("every table the same" if not bad else f"{bad} tables differ")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
