"""``kill -9`` during ingest: ``python bench/kill_ingest.py [TRIALS] [--seed S]``.

Builds a corpus of small games in several files, ingests it once cleanly into a
reference store, then for each trial starts ``paipu ingest`` on the corpus (into
a fresh store, or one already holding part of the corpus), kills it with SIGKILL
after a random delay, and checks:

* the store opens (read-write, as the next ingest needs it);
* it never holds part of a game: every game's events, hands and findings are all
  there (the counts its ``games`` row states) and no table has rows of a game
  that ``games`` lacks;
* a re-ingest sweeps the killed run's spool folder and ends equal, table by
  table, row by row, to the clean reference.

Prints the trials, how many kills landed while the ingest was still writing,
and each check's count; exit 1 if any check failed.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import duckdb  # noqa: E402

from paipu import store  # noqa: E402
from paipu.store.ingest import TABLES  # noqa: E402

CLI = "import sys; from paipu.cli import main; sys.argv = ['paipu'] + sys.argv[1:]; main()"


def build_corpus(folder: str, files: int = 6, games_per_file: int = 40) -> list[str]:
    """Files of small games (the store tests' 点鸡 game and the audit's self-draw game, renamed)."""
    from tests.audits.helpers import selfdraw_game
    from tests.paipu.test_store import dianji_game

    paths = []
    for f in range(files):
        path = os.path.join(folder, f"part{f}.jsonl")
        with open(path, "wb") as out:
            for g in range(games_per_file):
                gid = f"f{f}-g{g}"
                b = dianji_game(gid, start_hour=g) if g % 2 else selfdraw_game(gid)
                out.write(b.jsonl())
        paths.append(path)
    return paths


def snapshot(db: str) -> dict[str, list]:
    """Every table's rows in a fixed order (without the ingest time)."""
    con = duckdb.connect(db, read_only=True)
    try:
        out = {}
        for t in TABLES:
            cols = ", ".join(c for c in t.names if c != "ingested_at")
            out[t.name] = con.execute(f"SELECT {cols} FROM {t.name} ORDER BY ALL").fetchall()
        return out
    finally:
        con.close()


def partial_games(db: str) -> list[str]:
    """Games the store holds only part of, and rows of games it has no ``games`` row for."""
    con = store.connect(db)  # read-write: what the next ingest needs
    try:
        bad = [r[0] for r in con.execute("""
            SELECT g.game FROM games g
            LEFT JOIN (SELECT game, count(*) n FROM events GROUP BY game) e USING (game)
            LEFT JOIN (SELECT game, count(*) n FROM hands GROUP BY game) h USING (game)
            LEFT JOIN (SELECT game, count(*) n FROM findings GROUP BY game) f USING (game)
            WHERE coalesce(e.n, 0) <> g.events OR coalesce(h.n, 0) <> g.hands
               OR coalesce(f.n, 0) <> g.findings""").fetchall()]
        for t in TABLES:
            if t.name != "games":
                bad += [f"{t.name}:{r[0]}" for r in con.execute(
                    f"SELECT DISTINCT game FROM {t.name} WHERE game NOT IN (SELECT game FROM games)").fetchall()]
        return bad
    finally:
        con.close()


def run_ingest(paths: list[str], db: str, batch_events: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", CLI, "ingest", *paths, "--db", db, "--batch-events",
                             str(batch_events)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trials", type=int, nargs="?", default=100)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--batch-events", type=int, default=300, help="small batches: many transactions to land in")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="paipu-kill-")
    t_start = time.perf_counter()
    try:
        paths = build_corpus(work)
        ref = os.path.join(work, "ref.duckdb")
        t0 = time.perf_counter()
        p = run_ingest(paths, ref, args.batch_events)
        _, err = p.communicate()
        clean_seconds = time.perf_counter() - t0
        if p.returncode != 0:
            print(f"the clean ingest failed: {err.decode()[-500:]}")
            return 1
        want = snapshot(ref)
        print(f"corpus: {len(paths)} files, {len(want['games'])} games, {len(want['events']):,} events; "
              f"one clean ingest takes {clean_seconds:.2f} s (batches of {args.batch_events} events)")
        landed = opened = whole = equal = swept = 0
        failures: list[str] = []
        for trial in range(args.trials):
            db = os.path.join(work, f"t{trial}.duckdb")
            if trial % 3 == 2:  # a store already holding part of the corpus
                pre = run_ingest(paths[:2], db, args.batch_events)
                pre.communicate()
            p = run_ingest(paths, db, args.batch_events)
            time.sleep(rng.uniform(0.0, clean_seconds * 1.1))
            if p.poll() is None:
                landed += 1
                p.send_signal(signal.SIGKILL)
            p.communicate()
            try:
                bad = partial_games(db) if os.path.exists(db) else []
                opened += 1
            except Exception as x:  # the store must always open
                failures.append(f"trial {trial}: the store does not open: {type(x).__name__}: {x}")
                continue
            if bad:
                failures.append(f"trial {trial}: part of a game stored: {bad[:5]}")
            else:
                whole += 1
            again = run_ingest(paths, db, args.batch_events)
            _, err = again.communicate()
            if again.returncode != 0:
                failures.append(f"trial {trial}: the re-ingest failed ({again.returncode}): {err.decode()[-300:]}")
                continue
            if snapshot(db) == want:
                equal += 1
            else:
                failures.append(f"trial {trial}: the re-ingested store differs from one clean ingest")
            if not [n for n in os.listdir(work) if n.startswith(f".t{trial}.duckdb.ingest-")]:
                swept += 1
            else:
                failures.append(f"trial {trial}: a spool folder was left beside the store")
            for suffix in ("", ".wal"):
                if os.path.exists(db + suffix):
                    os.remove(db + suffix)
        n = args.trials
        print(f"{n} trials ({landed} killed while the ingest ran, {n - landed} after it finished) "
              f"in {time.perf_counter() - t_start:.0f} s")
        print(f"  store opened after the kill:        {opened}/{n}")
        print(f"  no part of a game stored:           {whole}/{n}")
        print(f"  re-ingest equal to one clean ingest: {equal}/{n}")
        print(f"  spool folders swept:                {swept}/{n}")
        for f in failures[:20]:
            print("  " + f)
        return 1 if failures else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
