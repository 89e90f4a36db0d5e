"""``kill -9`` during ingest: ``python bench/kill_ingest.py [TRIALS] [--seed S] [--concurrent]``.

Builds a corpus of small games in several files, ingests it once cleanly into a
reference store, then for each trial starts ``paipu ingest`` on the corpus (into
a fresh store, or one already holding part of the corpus), kills it with SIGKILL
after a random delay, and checks:

* the store opens (read-write, as the next ingest needs it);
* it never holds part of a game: every game's events, hands and findings are all
  there (the counts its ``games`` row states) and no table has rows of a game
  that ``games`` lacks;
* a re-ingest (the same command) sweeps the killed run's spool folder and ends
  equal, table by table, row by row, to the clean reference.

Prints the trials, how many kills landed while the ingest was still writing,
and each check's count; exit 1 if any check failed.

Each killed ingest is ``paipu ingest`` forked from an interpreter that imported
paipu once (``--cold``: a new interpreter each time, whose start-up then takes
most of a trial); the kill lands at a random moment between about when the
store is made and a little past the end of a clean ingest, timed on one.

``--jobs N`` runs each ingest with N audit workers and checks that none is left running
after the kill (they die with their parent); ``--parquet`` ingests into a Parquet dataset
instead of a DuckDB file (its uncommitted batches and the killed run's spool in ``$TMPDIR``
are swept by the re-ingest).  Every mode also checks that no process of the killed ingest
is left behind and that the children's ``$TMPDIR`` is empty after the re-ingest.

``--concurrent`` runs the other promise instead: in each trial two ingests of the
corpus start at once into one store (fresh, or already holding part of the
corpus); each must succeed or fail at once with the clear "in use by another
paipu process" message (exit 2, no traceback), at least one succeeds, and the
store then opens, holds no part of a game, and a re-ingest ends equal to one
clean ingest.

The work folder (``paipu-kill-<pid>-…`` in the temporary directory) is removed
at the end, also when the script is stopped by SIGTERM, SIGHUP or Ctrl-C (its
ingests are killed first); folders left by a run that was itself killed with
SIGKILL are removed by the next run.  A first SIGTERM or SIGHUP lets the trial
under way finish and prints the figures of the trials run; a second stops at once.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import duckdb  # noqa: E402

from paipu import store  # noqa: E402
from paipu.store.tables import TABLES  # noqa: E402

CLI = "import sys; from paipu.cli import main; sys.argv = ['paipu'] + sys.argv[1:]; main()"


def build_corpus(folder: str, files: int = 3, games_per_file: int = 10) -> list[str]:
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


#: Set by ``--parquet``: the stores are Parquet datasets (folders), read through their views.
PARQUET = False
#: Set by ``--jobs``: the audit workers of each ingest.
JOBS = 1


def _open(db: str, write: bool = False) -> "duckdb.DuckDBPyConnection":
    if PARQUET:
        from paipu.store.parquet import open_dataset

        return open_dataset(db)
    return store.connect(db) if write else duckdb.connect(db, read_only=True)


def snapshot(db: str) -> dict[str, list]:
    """Every table's rows in a fixed order (without the ingest time)."""
    con = _open(db)
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
    con = _open(db, write=True)  # read-write: what the next ingest needs
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


#: The ingests' own temporary directory (inside the work folder): empty after each re-ingest.
CHILD_TMP: list[str] = []


def prefill(paths: list[str], db: str, batch_events: int) -> None:
    """Ingest ``paths`` into ``db`` in this process (a store already holding part of the corpus,
    as the command would leave it: audited, in batches of ``batch_events``)."""
    if PARQUET:
        store.ingest(paths, ":memory:", parquet=db, batch_events=batch_events)
    else:
        store.ingest(paths, db, batch_events=batch_events)


def reingest(paths: list[str], db: str, batch_events: int) -> Optional[str]:
    """The ingest after a kill: the same ``paipu ingest`` command, forked from the warm
    interpreter (``--cold``: a new one): ``None``, or why it failed (its exit code)."""
    p = start_ingest(paths, db, batch_events)
    _, err = p.communicate()
    if p.returncode != 0:
        return f"exit {p.returncode}: {(err or b'').decode(errors='replace')[-300:]}"
    return None


def store_made(db: str) -> bool:
    """Whether the ingest has made its store yet (a DuckDB file, or a dataset's metadata)."""
    return os.path.exists(os.path.join(db, "_paipu")) if PARQUET else os.path.exists(db)


def time_to_store(paths: list[str], db: str, batch_events: int) -> tuple[float, float, int]:
    """One clean ingest into a fresh ``db``: seconds until its store appears (the command's start-up
    before it: Python, imports, reading the options), seconds to its end, and its exit code."""
    t0 = time.perf_counter()
    p = start_ingest(paths, db, batch_events)
    opened = None
    while p.poll() is None:
        if opened is None and store_made(db):
            opened = time.perf_counter() - t0
        time.sleep(0.005)
    p.communicate()
    total = time.perf_counter() - t0
    return (opened if opened is not None else total), total, p.returncode


#: The warm interpreter the killed ingests are forked from: ``paipu.cli`` imported once (and
#: nothing else run: no DuckDB connection, no thread), then for each line of JSON on stdin
#: (arguments, environment, a file for the exit code) a child that runs ``paipu`` with those
#: arguments exactly as the command does, prints its pid, and is reaped by the kernel.
ZYGOTE = r"""
import json, os, signal, sys, tempfile
from paipu.cli import main
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
print("ready", flush=True)
for line in sys.stdin:
    args, env, code_file = json.loads(line)
    pid = os.fork()
    if pid == 0:
        os.environ.update(env)
        tempfile.tempdir = None
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        sys.argv = ["paipu", *args]
        code = 0
        try:
            main()
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        except BaseException:
            code = 99
        with open(code_file, "w") as f:
            f.write(str(code))
        os._exit(code)
    print(pid, flush=True)
"""


class Forked:
    """A ``paipu ingest`` forked from the warm interpreter (:data:`ZYGOTE`): a real command
    process, killed like one, without the interpreter's start-up in each trial."""

    def __init__(self, pid: int, code_file: str):
        self.pid, self.code_file, self.returncode = pid, code_file, None

    def poll(self) -> "int | None":
        # running until its pid is gone: the warm interpreter lets the kernel reap it, and only
        # then is every thread of it gone and the store's lock free (a leader shown as a zombie
        # may still have threads finishing their exit)
        try:
            os.kill(self.pid, 0)
            return None
        except ProcessLookupError:
            pass
        if self.returncode is None:
            try:
                with open(self.code_file) as f:
                    self.returncode = int(f.read() or "-9")
            except (OSError, ValueError):
                self.returncode = -9  # killed before it could say
        return self.returncode

    def send_signal(self, sig: int) -> None:
        try:
            os.kill(self.pid, sig)
        except ProcessLookupError:
            pass

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def communicate(self, timeout: "float | None" = None) -> tuple[bytes, bytes]:
        end = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if end is not None and time.monotonic() > end:
                raise subprocess.TimeoutExpired("paipu ingest", timeout or 0)
            time.sleep(0.01)
        return b"", b""


class Zygote:
    """Starts :data:`ZYGOTE` once; :meth:`ingest` forks one ``paipu ingest`` from it."""

    def __init__(self, work: str):
        self.work, self.n = work, 0
        self.proc = subprocess.Popen([sys.executable, "-c", ZYGOTE], cwd=ROOT, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env={**os.environ, "TMPDIR": CHILD_TMP[0]})
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != b"ready":  # imported: the trials' clocks start after this
            raise RuntimeError("the warm interpreter did not start")

    def ingest(self, args: list[str]) -> Forked:
        self.n += 1
        code_file = os.path.join(self.work, f"exit-{self.n}")
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write((json.dumps([args, {"TMPDIR": CHILD_TMP[0]}, code_file]) + "\n").encode())
        self.proc.stdin.flush()
        child = Forked(int(self.proc.stdout.readline()), code_file)
        _FORKED.append(child)
        return child

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


_FORKED: list[Forked] = []
#: Set by main unless ``--cold``: the killed ingests are forked from it.
ZYGOTES: list[Zygote] = []


def ingest_args(paths: list[str], db: str, batch_events: int) -> list[str]:
    target = ["--parquet", db] if PARQUET else ["--db", db]
    return ["ingest", *paths, *target, "--batch-events", str(batch_events), "--jobs", str(JOBS)]


def start_ingest(paths: list[str], db: str, batch_events: int) -> "Forked | subprocess.Popen":
    """The ingest a trial kills: forked from the warm interpreter, or (``--cold``) a new one."""
    if ZYGOTES:
        return ZYGOTES[0].ingest(ingest_args(paths, db, batch_events))
    return run_ingest(paths, db, batch_events)


def run_ingest(paths: list[str], db: str, batch_events: int) -> subprocess.Popen:
    target = ["--parquet", db] if PARQUET else ["--db", db]
    env = {**os.environ, **({"TMPDIR": CHILD_TMP[0]} if CHILD_TMP else {})}
    p = subprocess.Popen([sys.executable, "-c", CLI, "ingest", *paths, *target, "--batch-events",
                          str(batch_events), "--jobs", str(JOBS)], cwd=ROOT, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env=env)
    _CHILDREN.append(p)
    return p


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie waiting for its reaper has stopped running
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return True


def descendants(pid: int) -> list[int]:
    """The processes ``pid`` started, and theirs (Linux ``/proc``; empty elsewhere)."""
    out: list[int] = []
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            tids = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{p}/task/{tid}/children") as f:
                    kids = [int(x) for x in f.read().split()]
            except OSError:
                continue
            out += kids
            todo += kids
    return out


def left_behind(pids: list[int], seconds: float = 10.0) -> list[int]:
    """The processes of ``pids`` still running ``seconds`` after their parent was killed."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not any(_alive(p) for p in pids):
            return []
        time.sleep(0.1)
    left = [p for p in pids if _alive(p)]
    for p in left:  # do not leave them to the next trial
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass
    return left


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


#: Set by the first SIGTERM or SIGHUP: finish the trial under way, then report the trials run.
STOPPING: list[bool] = []


def _stop(signum: int, _frame: object) -> None:
    if not STOPPING:
        STOPPING.append(True)
        return
    raise SystemExit(128 + signum)  # again: the ``finally`` kills the ingests and removes the work folder


def _kill_children() -> None:
    for f in _FORKED:
        if f.poll() is None:
            f.kill()
    _FORKED.clear()
    for z in ZYGOTES:
        z.close()
    ZYGOTES.clear()
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
        made = os.path.exists(os.path.join(db, "_paipu", "dataset.json")) if PARQUET else os.path.exists(db)
        bad = partial_games(db) if made else []  # killed before the store was made: nothing to check
        tally["opened"] += 1
    except Exception as x:  # the store must always open
        failures.append(f"trial {trial}: the store does not open: {type(x).__name__}: {x}")
        return
    if bad:
        failures.append(f"trial {trial}: part of a game stored: {bad[:5]}")
    else:
        tally["whole"] += 1
    why = reingest(paths, db, batch_events)
    if why is not None:
        failures.append(f"trial {trial}: the re-ingest failed: {why[-300:]}")
        return
    if snapshot(db) == want:
        tally["equal"] += 1
    else:
        failures.append(f"trial {trial}: the re-ingested store differs from one clean ingest")
    left = [n for n in os.listdir(work) if n.startswith(f".{os.path.basename(db)}.ingest-")]
    left += [f"$TMPDIR/{n}" for n in os.listdir(CHILD_TMP[0])] if CHILD_TMP else []
    if PARQUET:
        meta = os.path.join(db, "_paipu")
        left += [f"pending/{n}" for n in os.listdir(os.path.join(meta, "pending"))] \
            if os.path.isdir(os.path.join(meta, "pending")) else []
        left += ["_paipu/tmp"] if os.path.isdir(os.path.join(meta, "tmp")) and os.listdir(os.path.join(meta, "tmp")) \
            else []
    if not left:
        tally["swept"] += 1
    else:
        failures.append(f"trial {trial}: left by the killed ingest after the re-ingest: {left[:3]}")


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
    ap.add_argument("--batch-events", type=int, default=150, help="small batches: many transactions to land in")
    ap.add_argument("--files", type=int, default=3, help="files in the corpus")
    ap.add_argument("--cold", action="store_true", help="start each killed ingest as a new interpreter "
                    "(default: forked from one with paipu imported)")
    ap.add_argument("--games", type=int, default=10, help="games per file")
    ap.add_argument("--concurrent", action="store_true", help="two ingests at once into one store, no kill")
    ap.add_argument("--jobs", type=int, default=1, help="audit workers of each ingest (ingest --jobs N)")
    ap.add_argument("--parquet", action="store_true", help="ingest into a Parquet dataset (ingest --parquet)")
    args = ap.parse_args()
    global PARQUET, JOBS
    PARQUET, JOBS = args.parquet, args.jobs
    rng = random.Random(args.seed)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop)
    tmp = tempfile.gettempdir()
    old = sweep_dead_work_folders(tmp)
    work = tempfile.mkdtemp(prefix=f"{WORK_PREFIX}{os.getpid()}-")
    t_start = time.perf_counter()
    try:
        CHILD_TMP[:] = [os.path.join(work, "tmp")]
        os.makedirs(CHILD_TMP[0])
        # this process's own ingests (the pre-filled stores, the re-ingests) spool there too
        os.environ["TMPDIR"] = tempfile.tempdir = CHILD_TMP[0]
        paths = build_corpus(work, args.files, args.games)
        if not args.cold and not args.concurrent:
            ZYGOTES.append(Zygote(work))
        ref = os.path.join(work, "ref.duckdb")
        opened_after, clean_seconds, code = time_to_store(paths, ref, args.batch_events)
        if code != 0:
            print(f"the clean ingest failed (exit {code})")
            return 1
        want = snapshot(ref)
        print(f"corpus: {len(paths)} files, {len(want['games'])} games, {len(want['events']):,} events; "
              f"one clean ingest takes {clean_seconds:.2f} s, its store made after {opened_after:.2f} s "
              f"(batches of {args.batch_events} events)"
              + (f"; {old} work folders of killed runs removed" if old else ""), flush=True)
        landed = before_store = 0
        tally = dict.fromkeys(("opened", "whole", "equal", "swept", "one_succeeded", "refused_clearly",
                               "both_succeeded", "no_process_left"), 0)
        failures: list[str] = []
        done = 0
        for trial in range(args.trials):
            db = os.path.join(work, f"t{trial}.duckdb")
            if trial % 3 == 2:  # a store already holding part of the corpus (made here: set-up, not the test)
                prefill(paths[:2], db, args.batch_events)
            if args.concurrent:
                concurrent_trial(paths, db, args.batch_events, rng, trial, failures, tally)
            else:
                # the kill lands anywhere in the ingest's own work (from about when its store is
                # made to a little past its end), not in the interpreter's start-up
                p = start_ingest(paths, db, args.batch_events)
                time.sleep(rng.uniform(opened_after, clean_seconds * 1.1))
                kids: list[int] = []
                if p.poll() is None:
                    landed += 1
                    before_store += trial % 3 != 2 and not store_made(db)
                    kids = descendants(p.pid)
                    p.send_signal(signal.SIGKILL)
                p.communicate()
                left = left_behind(kids)
                if left:
                    failures.append(f"trial {trial}: {len(left)} process(es) of the killed ingest left running")
                else:
                    tally["no_process_left"] += 1
            check_store(db, want, paths, args.batch_events, work, trial, failures, tally)
            _CHILDREN.clear()
            done = trial + 1
            if done % 5 == 0:
                print(f"  {done} trials, {len(failures)} failures, {time.perf_counter() - t_start:.0f} s: "
                      + ", ".join(f"{k} {v}" for k, v in tally.items() if v), file=sys.stderr, flush=True)
            if os.path.isdir(db):
                shutil.rmtree(db, ignore_errors=True)
            for suffix in ("", ".wal"):
                if os.path.isfile(db + suffix):
                    os.remove(db + suffix)
            if STOPPING:
                break
        n = done
        took = f"in {time.perf_counter() - t_start:.0f} s"
        if STOPPING:
            took += f" (stopped after {n} of {args.trials})"
        if args.concurrent:
            print(f"{n} trials of two concurrent ingests into one store {took}")
            print(f"  one ingest succeeded:               {tally['one_succeeded']}/{n}")
            print(f"  the other refused with the message: {tally['refused_clearly']}/{n} "
                  f"(both succeeded, one after the other: {tally['both_succeeded']})")
            print(f"  store opened after both:            {tally['opened']}/{n}")
        else:
            mode = ("ingest" + (f" --jobs {JOBS}" if JOBS > 1 else "") + (" --parquet" if PARQUET else ""))
            print(f"{n} trials of `{mode}` ({landed} killed while the ingest ran, {before_store} of them before "
                  f"its store was made; {n - landed} after it finished) {took}")
            print(f"  store opened after the kill:        {tally['opened']}/{n}")
            print(f"  no process left behind:             {tally['no_process_left']}/{n}")
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
