"""``kill -9`` during ingest: ``python bench/kill_ingest.py [TRIALS] [--seed S] [--concurrent]``.

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

``--concurrent`` runs the other promise instead: in each trial two ingests of the
corpus start at once into one store (fresh, or already holding part of the
corpus); each must succeed or fail at once with the clear "in use by another
paipu process" message (exit 2, no traceback), at least one succeeds, and the
store then opens, holds no part of a game, and a re-ingest ends equal to one
clean ingest.

The work folder (``paipu-kill-<pid>-…`` in the temporary directory) is removed
at the end, also when the script is stopped by SIGTERM, SIGHUP or Ctrl-C (its
ingests are killed first); folders left by a run that was itself killed with
SIGKILL are removed by the next run.
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
from paipu.store.tables import TABLES  # noqa: E402

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


_CHILDREN: list[subprocess.Popen] = []
WORK_PREFIX = "paipu-kill-"


def run_ingest(paths: list[str], db: str, batch_events: int) -> subprocess.Popen:
    p = subprocess.Popen([sys.executable, "-c", CLI, "ingest", *paths, "--db", db, "--batch-events",
                          str(batch_events)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _CHILDREN.append(p)
    return p


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def sweep_dead_work_folders(tmp: str) -> int:
    """Remove the work folders of earlier runs of this script that were killed (their process is gone)."""
    swept = 0
    for n in os.listdir(tmp):
        if not n.startswith(WORK_PREFIX):
            continue
        pid = n[len(WORK_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            shutil.rmtree(os.path.join(tmp, n), ignore_errors=True)
            swept += 1
    return swept


def _stop(signum: int, _frame: object) -> None:
    raise SystemExit(128 + signum)  # runs the ``finally`` that kills the ingests and removes the work folder


def _kill_children() -> None:
    for p in _CHILDREN:
        if p.poll() is None:
            p.kill()
        try:
            p.communicate(timeout=30)
        except (subprocess.TimeoutExpired, ValueError, OSError):
            pass
    _CHILDREN.clear()


def check_store(db: str, want: dict, paths: list[str], batch_events: int, work: str, trial: int,
                failures: list[str], tally: dict[str, int]) -> None:
    """After a kill or a race: the store opens, holds no part of a game, and a re-ingest
    sweeps the spools and ends equal to one clean ingest (``tally`` counts each check passed)."""
    try:
        bad = partial_games(db) if os.path.exists(db) else []
        tally["opened"] += 1
    except Exception as x:  # the store must always open
        failures.append(f"trial {trial}: the store does not open: {type(x).__name__}: {x}")
        return
    if bad:
        failures.append(f"trial {trial}: part of a game stored: {bad[:5]}")
    else:
        tally["whole"] += 1
    again = run_ingest(paths, db, batch_events)
    _, err = again.communicate()
    if again.returncode != 0:
        failures.append(f"trial {trial}: the re-ingest failed ({again.returncode}): {err.decode()[-300:]}")
        return
    if snapshot(db) == want:
        tally["equal"] += 1
    else:
        failures.append(f"trial {trial}: the re-ingested store differs from one clean ingest")
    if not [n for n in os.listdir(work) if n.startswith(f".{os.path.basename(db)}.ingest-")]:
        tally["swept"] += 1
    else:
        failures.append(f"trial {trial}: a spool folder was left beside the store")


BUSY = "is in use by another paipu process"


def concurrent_trial(paths: list[str], db: str, batch_events: int, rng: random.Random, trial: int,
                     failures: list[str], tally: dict[str, int]) -> None:
    """Two ingests into one store at once: each succeeds or fails at once with the clear message."""
    first = run_ingest(paths, db, batch_events)
    time.sleep(rng.uniform(0.0, 0.5))
    second = run_ingest(paths, db, batch_events)
    codes, refused = [], 0
    for p in (first, second):
        _, err = p.communicate()
        text = err.decode(errors="replace")
        codes.append(p.returncode)
        if p.returncode == 0:
            continue
        if p.returncode == 2 and BUSY in text and "Traceback" not in text:
            refused += 1
        else:
            failures.append(f"trial {trial}: an ingest ended {p.returncode} without the clear message: "
                            f"{text[-300:]}")
    if 0 in codes:
        tally["one_succeeded"] += 1
    else:
        failures.append(f"trial {trial}: neither ingest succeeded ({codes})")
    tally["refused_clearly" if refused else "both_succeeded"] += 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trials", type=int, nargs="?", default=100)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--batch-events", type=int, default=300, help="small batches: many transactions to land in")
    ap.add_argument("--concurrent", action="store_true", help="two ingests at once into one store, no kill")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop)
    tmp = tempfile.gettempdir()
    old = sweep_dead_work_folders(tmp)
    work = tempfile.mkdtemp(prefix=f"{WORK_PREFIX}{os.getpid()}-")
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
              f"one clean ingest takes {clean_seconds:.2f} s (batches of {args.batch_events} events)"
              + (f"; {old} work folders of killed runs removed" if old else ""))
        landed = 0
        tally = dict.fromkeys(("opened", "whole", "equal", "swept", "one_succeeded", "refused_clearly",
                               "both_succeeded"), 0)
        failures: list[str] = []
        for trial in range(args.trials):
            db = os.path.join(work, f"t{trial}.duckdb")
            if trial % 3 == 2:  # a store already holding part of the corpus
                pre = run_ingest(paths[:2], db, args.batch_events)
                pre.communicate()
            if args.concurrent:
                concurrent_trial(paths, db, args.batch_events, rng, trial, failures, tally)
            else:
                p = run_ingest(paths, db, args.batch_events)
                time.sleep(rng.uniform(0.0, clean_seconds * 1.1))
                if p.poll() is None:
                    landed += 1
                    p.send_signal(signal.SIGKILL)
                p.communicate()
            check_store(db, want, paths, args.batch_events, work, trial, failures, tally)
            _CHILDREN.clear()
            for suffix in ("", ".wal"):
                if os.path.exists(db + suffix):
                    os.remove(db + suffix)
        n = args.trials
        took = f"in {time.perf_counter() - t_start:.0f} s"
        if args.concurrent:
            print(f"{n} trials of two concurrent ingests into one store {took}")
            print(f"  one ingest succeeded:               {tally['one_succeeded']}/{n}")
            print(f"  the other refused with the message: {tally['refused_clearly']}/{n} "
                  f"(both succeeded, one after the other: {tally['both_succeeded']})")
            print(f"  store opened after both:            {tally['opened']}/{n}")
        else:
            print(f"{n} trials ({landed} killed while the ingest ran, {n - landed} after it finished) {took}")
            print(f"  store opened after the kill:        {tally['opened']}/{n}")
        print(f"  no part of a game stored:           {tally['whole']}/{n}")
        print(f"  re-ingest equal to one clean ingest: {tally['equal']}/{n}")
        print(f"  spool folders swept:                {tally['swept']}/{n}")
        for f in failures[:20]:
            print("  " + f)
        return 1 if failures else 0
    finally:
        _kill_children()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
