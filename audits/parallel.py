"""The audit in several processes: workers read their own share of the input; this process only merges.

:func:`audit_parallel` gives exactly what the single-process audit gives
(``audit_paths(paths, jobs=1)``), only faster on several cores.  No decoded
event and no :class:`~schema.reader.GameLog` crosses a process boundary: only
tasks (a path and a byte range) go out and :class:`~audits.ledger.GameAudit`
results come back.

* **Plain logs are cut into byte ranges** of up to 4 MB (whole small files are one
  range), each cut just after a line that mentions ``GameClosed`` (a guess that
  no game is open there).  A worker reads its range with
  :class:`schema.reader.LogReader` and audits each game, exactly as one process
  does, and says whether a game was still open at the range's end.  The ranges
  of a file are taken in order: while every earlier cut fell between games, a
  range read alone gives exactly what the whole file gives.  At the first cut
  that fell inside a game (logs of several tables written at once), that
  range's results are dropped and the rest of the file is dealt as below.
* **Dealt logs** (``.gz``, which cannot be entered in the middle, and the rest of
  a file whose cut failed): every worker reads the log in blocks of whole lines
  and finds each line's game id with one msgspec ``decode_lines`` call per block
  into a one-field struct (a block holding an odd line is scanned line by line,
  exactly as :func:`schema.reader.decode_line` would name the game).  Every
  worker deals the lines the same way (a new game goes to the least loaded
  worker; a game's lines all go to one worker), so each one knows its share
  without being told: it decodes only its own lines, groups them into games the
  way the reader does and audits each game as it closes (and those still open
  at the end of the file).
* **Stdin** (``-``) can be read once only: this process reads and deals it and
  sends each worker its share of every block.

Order guaranteed (the order of ``LogReader.games()``, hence of the one-job
audit): files in :func:`schema.reader.find_logs` order; within a file, each game
when its ``GameClosed`` line is read (line order), then the games still open at
the end of the file in the order of their first line.  Results stream out as
soon as everything before them is done.  Orphan problems (missing or unreadable
files, lines naming no game) are collected in file and line order, like
``LogReader.orphans``, and are complete once the iterator is exhausted.

Memory stays bounded: at most two ranges per worker are in flight, and a worker
dealing a log runs at most ``window`` blocks ahead of the slowest one.
A game whose audit raises is reported as an incomplete audit with an
``INTERNAL_ERROR`` finding (as :func:`audits.audit.audit_game` does itself); it
never stops the others.

A worker that dies (killed, out of memory, a crash) loses no game: each worker
replies on its own pipe, so its death is the end of that pipe and harms no
other worker's replies; this process then starts a new worker in its place and
gives it the dead one's unfinished tasks again: a span is read again, and a
dealt file is dealt again from its start with only what the dead worker had
not reported (every reply past its last mark) sent back.  One line on stderr
says so.  A task whose worker dies twice at the same place is given a third
time with its games (of the span, or of the next dealt block) reported as not
audited (an ``INTERNAL_ERROR`` finding naming the cause, so exit 3); only if
that dies too does the audit stop with a one-line :class:`RuntimeError`, as it
does at once when the dead worker held a share of stdin (which cannot be read
again).

Workers start with ``fork`` on Linux and ``spawn`` elsewhere; they take
everything they need as arguments (no module state set after import).
"""

from __future__ import annotations

import heapq
import os
import sys
import traceback
import zlib
import threading
from collections import deque
from functools import partial
from itertools import compress
from operator import attrgetter
from typing import Any, Callable, Iterable, Iterator, Optional

import msgspec

from schema.collector import collect_less
from schema.events import AnyEvent, GameClosed
from schema.reader import (FileSpan, GameLog, LogProblem, LogReader, _Window, decode_line, find_logs, line_blocks,
                           open_source)

#: Lines are dealt in blocks of about this many bytes (smaller blocks start the workers sooner).
DEAL_BYTES = 1 << 20
#: Blocks (or ranges) a worker may have in flight before this process waits for it.
WINDOW = 6
#: Plain logs are cut into ranges of at most about this many bytes (at least a sixteenth of
#: it, about 32 ranges per worker in between, so the workers finish close together).
SPAN_BYTES = 4 << 20
#: Ranges a worker may have in flight (the one it reads and the next).
SPANS_AHEAD = 2
_PLAN_BYTES = 1 << 22


class _PeekGame(msgspec.Struct):
    """A line's game id (as :func:`schema.reader.decode_line` names it); the rest is skipped."""

    game: Optional[str] = None


class _Peek(_PeekGame):
    """A line's game id and ``type``."""

    type: Any = None


_peek_type = msgspec.json.Decoder(_Peek)


_BLANK = 255  # owner byte of a blank line: dealt to no one
_get_game = attrgetter("game")


class _Dealer(dict):
    """Open game id → worker.

    A new game goes to the least loaded worker (lines dealt so far, plus an
    estimate for the games given to it earlier in the same block).  An entry is
    dropped when its game closes (on a ``GameClosed`` line that decodes as one,
    exactly as the worker will see it) and at the end of each file, so the map
    holds the open games only, like the reader.  A line naming no game goes to
    worker 0, which reports the problem.
    """

    def __init__(self, jobs: int):
        super().__init__()
        self.jobs = jobs
        self.load = [0] * jobs
        self.fresh = [0] * jobs
        self.games = 0
        self.dealt = 0

    def __missing__(self, game: Optional[str]) -> int:
        if game is None:
            return 0
        per_game = self.dealt / self.games if self.games else 100.0
        w = min(range(self.jobs), key=lambda k: self.load[k] + self.fresh[k] * per_game)
        self.fresh[w] += 1
        self.games += 1
        self[game] = w
        return w

    def deal(self, block: bytes, lines: list[bytes], peek: msgspec.json.Decoder,
             full: msgspec.json.Decoder) -> bytes:
        """One byte per line of ``block``: the worker owning the line's game (:data:`_BLANK` if blank).

        ``peek`` decodes a :class:`_PeekGame` (the game id only).  Every process
        dealing the same bytes deals them the same way.
        """
        try:
            found = peek.decode_lines(block)
        except (msgspec.DecodeError, msgspec.ValidationError):
            found = None
        # decode_lines splits on \n only, splitlines also on a bare \r: trust the count only without one
        if found is not None and len(found) == len(lines) and (
                b"\r" not in block or block.count(b"\r") == block.count(b"\r\n")):
            games = list(map(_get_game, found))
            who = bytes(map(self.__getitem__, games))
            # the lines that may close a game: those mentioning GameClosed (each is checked below;
            # a close missed here only keeps the game's entry, dealt as before)
            closing = []
            at = block.find(b'"GameClosed"')
            line, counted = 0, 0
            while at >= 0:
                line += block.count(b"\n", counted, at)
                counted = at
                if not closing or closing[-1] != line:
                    closing.append(line)
                at = block.find(b'"GameClosed"', at + 12)
        else:  # an odd line in the block: line by line, as the reader names a bad line's game
            games, closing, out = [], [], bytearray()
            for i, raw in enumerate(lines):
                game = None
                if raw.strip():
                    try:
                        p = _peek_type.decode(raw)
                        game = p.game
                        if p.type == "GameClosed":
                            closing.append(i)
                    except (msgspec.DecodeError, msgspec.ValidationError):
                        pass
                    out.append(self[game])
                else:
                    out.append(_BLANK)
                games.append(game)
            who = bytes(out)
        last = dict(zip(games, range(len(games)))) if closing else {}
        for i in closing:
            g = games[i]
            if g is None or g not in self:
                continue
            try:
                if type(full.decode(lines[i])) is not GameClosed:
                    continue
            except (msgspec.DecodeError, msgspec.ValidationError):
                continue  # the worker will not close the game on this line either
            if last[g] == i:  # else the id comes back in this block: a new game, same worker
                del self[g]
        for w in range(self.jobs):
            n = who.count(w)
            self.load[w] += n
            self.dealt += n
            self.fresh[w] = 0
        return who



def _read_blocks(src: Any, deal_bytes: int, at_start: bool = True) -> Iterator[bytes]:
    """Whole lines in blocks of about ``deal_bytes``, cut from the reader's own blocks
    (so an unreadable file stops at the same line as in one process)."""
    for block in line_blocks(src, at_start=at_start):
        start, size = 0, len(block)
        while size - start > deal_bytes:
            end = block.find(b"\n", start + deal_bytes) + 1
            if end == 0 or end >= size:
                break
            yield block[start:end]
            start = end
        yield block[start:] if start else block


def _dealt(fidx: int, path: str, start: int, first: int, jobs: int, lost: list[tuple[tuple, LogProblem]],
           deal_bytes: int) -> Iterator[tuple]:
    """One log (from byte ``start``, line ``first``) dealt to ``jobs`` workers, block by block,
    the same way in every process that deals it.

    Yields ``("block", fidx, name, first_line, end_line, lines, who)`` per block
    (``who``: one owner byte per line, see :meth:`_Dealer.deal`), then ``("eof", fidx)``;
    a file that cannot be read goes to ``lost``.
    """
    name = "<stdin>" if path == "-" else path
    peek = msgspec.json.Decoder(_PeekGame)
    full = msgspec.json.Decoder(AnyEvent)
    dealer = _Dealer(jobs)
    try:
        src = open_source(path) if start == 0 else _Window(FileSpan(path, start, None, first))
    except OSError as e:
        lost.append(((fidx, 1, 0), LogProblem(name, 0, f"cannot read: {e}")))
        src = None
    if src is not None:
        try:
            blocks = _read_blocks(src, deal_bytes, at_start=start == 0)
            while True:
                try:
                    block = next(blocks)
                except StopIteration:
                    break
                except (OSError, EOFError, zlib.error) as e:  # gzip.BadGzipFile is an OSError
                    lost.append(((fidx, 1, 0), LogProblem(name, 0, f"cannot read: {e}")))
                    break
                lines = block.splitlines()
                who = dealer.deal(block, lines, peek, full)
                end = first + len(lines) - 1
                yield ("block", fidx, name, first, end, lines, who)
                first = end + 1
        finally:
            if src is not sys.stdin.buffer:
                src.close()
    yield ("eof", fidx)


def _owner_table(w: int) -> bytes:
    """A ``bytes.translate`` table turning owner bytes into 1 for worker ``w``'s lines, else 0."""
    return bytes(1 if i == w else 0 for i in range(256))


def _share(dealt: tuple, table: bytes) -> tuple:
    """One worker's share of a dealt block: ``("lines", fidx, name, first, end, payload, sel)``."""
    _, fidx, name, first, end, lines, who = dealt
    sel = who.translate(table)
    return ("lines", fidx, name, first, end, b"\n".join(compress(lines, sel)), sel)


def _plan(path: str, target: "int | Callable[[int], int]") -> Iterator[tuple[int, Optional[int], int]]:
    """Cut a plain log into spans ``(start, end, first_line)`` of about ``target`` bytes (the last
    one's ``end`` is ``None``), each cut just after a line that mentions ``GameClosed``.
    ``target`` may be a function of a span's first byte, giving that span's size.

    A cut is a guess that no game is open there; the worker that reads the span before
    it finds out (see :func:`audit_parallel`).  Cuts stop at the first bare carriage
    return (the reader ends a line there too, so newlines no longer count lines).
    """
    start, first = 0, 1
    try:
        f = open(path, "rb")
    except OSError:
        yield (0, None, 1)
        return
    # one buffer read into again and again: the plan costs a copy and a count of each
    # byte, no allocation (this process's time is taken from the workers' cores)
    buf = bytearray(_PLAN_BYTES)
    size_at = target if callable(target) else (lambda _start: target)
    with f:
        offset, line = 0, 1  # the file offset and line number of the chunk read
        want = size_at(0)
        while True:
            n = f.readinto(buf)
            if not n or (buf.find(b"\r", 0, n) >= 0 and buf.count(b"\r", 0, n) != buf.count(b"\r\n", 0, n)):
                break
            i = want - offset
            counted = 0  # the chunk's newlines before ``counted`` are in ``line``
            while 0 <= i < n:
                k = buf.find(b'"GameClosed"', i, n)
                nl = buf.find(b"\n", k, n) if k >= 0 else -1
                if nl < 0:
                    break
                line += buf.count(b"\n", counted, nl + 1)
                counted = nl + 1
                cut = offset + counted
                yield (start, cut, first)
                start, first = cut, line
                want = cut + size_at(cut)
                i = want - offset
            line += buf.count(b"\n", counted, n)
            offset += n
            want = max(want, offset)
    yield (start, None, first)


# ---------------------------------------------------------------------------
# the worker


def _failed_audit(log: GameLog, x: BaseException) -> Any:
    return _internal(log, type(x).__name__, f"paipu failed on this game (a bug in paipu): {type(x).__name__}: {x}")


def _internal(log: GameLog, actual: str, message: str) -> Any:
    """An incomplete audit of ``log`` holding one ``INTERNAL_ERROR`` finding."""
    from audits.catalogue import CATALOGUE
    from audits.findings import Finding
    from audits.ledger import GameAudit

    c = CATALOGUE["INTERNAL_ERROR"]
    return GameAudit(game=log.game, file=log.file, complete=False, findings=[Finding(
        code="INTERNAL_ERROR", severity=c.severity, game=log.game, hand=0, seq=0, rule=c.rule,
        actual=actual, message=message, file=log.file)])


class _Games:
    """One worker's games: audits a span read whole, or decodes the lines dealt to it and
    groups them into games the way :class:`schema.reader.LogReader` does.

    A worker taking over a dead one's dealt file sets ``resume`` to the dead worker's
    last mark: replies up to it are built (to follow the open games) but hold no
    result or problem, and their games are not audited.  ``spare`` (why) reports the
    games of the next reply (or of a span) as not audited instead of auditing them.
    """

    resume: Optional[tuple] = None
    spare: Optional[str] = None

    def not_audited(self, log: GameLog, why: Optional[str] = None) -> Any:
        return _internal(log, "not audited", f"not audited: {why or self.spare}")

    def __init__(self, audit: Optional[Callable[[GameLog], Any]]):
        if audit is None:
            from audits.audit import audit_game as audit
        self.audit = audit
        self.dec = msgspec.json.Decoder(AnyEvent)
        self.open: dict[str, tuple[GameLog, int]] = {}

    def run(self, log: GameLog) -> Any:
        try:
            return self.audit(log)
        except Exception as x:  # one bad game never stops the others
            return _failed_audit(log, x)

    def span(self, fidx: int, span: FileSpan, last: bool) -> tuple[bool, list[Any], list[tuple[tuple, LogProblem]]]:
        """Audit the games of a span read on its own: (whether a game was left open at its end
        or the file could not be read — then the span must be dealt again —, results, problems)."""
        reader = LogReader([span])
        results = []
        redo = False
        run = self.run if self.spare is None else self.not_audited
        for log in reader.games():
            if not log.closed and not last:
                redo = True  # the cut was inside a game
                continue
            results.append(run(log))
        problems = [((fidx, 0, p.line), p) for p in reader.orphans]
        return redo or any(p.line <= 0 for p in reader.orphans), results, problems

    def handle(self, msg: tuple) -> tuple[tuple, list[tuple[tuple, Any]], list[tuple[tuple, LogProblem]]]:
        """One ``("lines", …)`` or ``("eof", fidx)`` message: (mark, results, problems)."""
        fidx = msg[1]
        results: list[tuple[tuple, Any]] = []
        problems: list[tuple[tuple, LogProblem]] = []
        open_games = self.open
        run = self.run
        if self.resume is not None or self.spare is not None:
            mark = (fidx, 2, 0) if msg[0] == "eof" else (fidx, 0, msg[4])
            if self.resume is not None and mark <= self.resume:
                # reported by the worker this one replaces: follow the games, keep nothing
                results, problems, run = _Discard(), _Discard(), _none
            else:
                self.resume = None
                if self.spare is not None:
                    run = partial(self.not_audited, why=self.spare)
                    self.spare = None
        if msg[0] == "eof":
            for log, first in open_games.values():
                results.append(((fidx, 1, first), run(log)))
            open_games.clear()
            return (fidx, 2, 0), results, problems
        _, fidx, name, first_line, end_line, payload, sel = msg
        nums = list(compress(range(first_line, first_line + len(sel)), sel))
        items: Any = None
        if nums:
            try:
                items = self.dec.decode_lines(payload)
            except (msgspec.ValidationError, msgspec.DecodeError):
                items = None
            if items is None or len(items) != len(nums):
                items = [decode_line(raw, name, n) if raw.strip() else None
                         for raw, n in zip(payload.split(b"\n"), nums)]
        get = open_games.get
        closed_type = GameClosed
        for n, item in zip(nums, items or ()):
            if item is None:
                continue
            if type(item) is LogProblem:
                if item.game is None:
                    problems.append(((fidx, 0, n), item))
                    continue
                entry = get(item.game)
                if entry is None:
                    entry = open_games[item.game] = (GameLog(item.game, name), n)
                if entry[0].problem is None:
                    entry[0].problem = item
                continue
            entry = get(item.game)
            if entry is None:
                entry = open_games[item.game] = (GameLog(item.game, name), n)
            log = entry[0]
            if log.problem is None:
                log.events.append(item)
                log.lines.append(n)
            if type(item) is closed_type:
                log.closed = True
                del open_games[item.game]
                results.append(((fidx, 0, n), run(log)))
        return (fidx, 0, end_line), results, problems


class _Discard(list):
    """A list that keeps nothing (the replies a replacement worker does not send)."""

    def append(self, _item: Any) -> None:
        pass

    def __iadd__(self, _items: Any) -> "_Discard":
        return self


def _none(_log: GameLog) -> None:
    return None


class _Replies:
    """A worker's replies, sent on its own pipe by a thread (so the worker never blocks on a
    full pipe while this process sends it work, and its death harms no other worker's replies)."""

    def __init__(self, conn: Any):
        import queue

        self.conn = conn
        self.q: Any = queue.Queue()
        self.thread = threading.Thread(target=self._send, daemon=True)
        self.thread.start()

    def _send(self) -> None:
        while True:
            msg = self.q.get()
            if msg is None:
                return
            self.conn.send(msg)
            self.q.task_done()

    def put(self, msg: tuple, sync: bool = False) -> None:
        """Send ``msg``; with ``sync``, return only once it is sent (a worker retrying a dead
        one's task: if it dies too, this process knows exactly how far it got)."""
        self.q.put(msg)
        if sync:
            self.q.join()

    def close(self) -> None:
        self.q.put(None)

    def join_thread(self) -> None:
        self.thread.join()
        self.conn.close()


#: ``prctl`` option asking the kernel for a signal when the parent dies (Linux, <sys/prctl.h>).
PR_SET_PDEATHSIG = 1
#: How often a worker looks whether its parent is still there (the portable watch).
PARENT_POLL = 0.5


def _deathsig_ok() -> bool:
    """Whether a worker started now may ask for Linux's parent-death signal: only when the
    main thread starts it (the kernel sends the signal when the *thread* that forked the
    worker ends, which for another thread can be long before the process does)."""
    return sys.platform.startswith("linux") and threading.current_thread() is threading.main_thread()


def die_with_parent(parent_pid: int, deathsig: bool) -> None:
    """Make this worker process end when the process that started it (``parent_pid``) dies,
    however it dies (``kill -9`` included), so no worker outlives its run.

    On Linux with ``deathsig``, the kernel kills the worker at once
    (``prctl(PR_SET_PDEATHSIG, SIGKILL)``, through ctypes).  Everywhere, a daemon thread
    watches the parent: on POSIX the worker's parent id changes when the parent dies
    (it is re-parented); elsewhere the parent's sentinel (``multiprocessing.parent_process``)
    becomes ready.  Either way the worker exits without cleanup (its parent, who would
    read the replies, is gone)."""
    if deathsig:
        try:
            import ctypes
            import signal

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError, TypeError):
            pass  # no prctl here: the watch below still holds
    if os.name == "posix" and os.getppid() != parent_pid:
        os._exit(1)  # the parent died before the worker got here
    threading.Thread(target=_watch_parent, args=(parent_pid,), name="paipu-parent-watch", daemon=True).start()


def _watch_parent(parent_pid: int) -> None:
    if os.name == "posix":
        import time

        while os.getppid() == parent_pid:
            time.sleep(PARENT_POLL)
        os._exit(1)
    import multiprocessing as mp
    from multiprocessing.connection import wait

    parent = mp.parent_process()
    if parent is not None and parent.sentinel is not None:
        wait([parent.sentinel])
        os._exit(1)


def _worker(wid: int, jobs: int, conn: Any, pipe: Any, credit: Any, audit: Optional[Callable[[GameLog], Any]],
            deal_bytes: int, parent_pid: Optional[int] = None, deathsig: bool = False) -> None:
    """Run the tasks this process sends, in order; see :func:`audit_parallel` for the replies."""
    if parent_pid is not None:
        die_with_parent(parent_pid, deathsig)
    collect_less()  # this process only reads and audits games (schema.collector)
    out = _Replies(pipe)
    try:
        games = _Games(audit)
        table = _owner_table(wid)
        while True:
            task = conn.recv()
            kind = task[0]
            if kind == "stop":
                return
            tid = task[1]
            if kind == "span":
                _, tid, fidx, path, start, end, first, last, games.spare, sync = task
                out.put((wid, tid, *games.span(fidx, FileSpan(path, start, end, first), last)), sync)
                games.spare = None
            elif kind == "deal":
                _, tid, fidx, path, start, first, resume, games.spare, sync = task
                games.resume = resume
                lost: list[tuple[tuple, LogProblem]] = []
                for dealt in _dealt(fidx, path, start, first, jobs, lost, deal_bytes):
                    mark, results, problems = games.handle(_share(dealt, table) if dealt[0] == "block" else dealt)
                    if resume is not None and mark <= resume:
                        lost.clear()  # sent by the worker this one replaces
                        continue
                    if lost:  # whole-file problems: every worker meets them, worker 0 reports them
                        if wid == 0:
                            problems += lost
                        lost.clear()
                    credit.acquire()
                    out.put((wid, tid, mark, results, problems), sync)
            else:  # ("lines" | "eof", tid, …): a share of stdin, dealt by this process
                out.put((wid, tid, *games.handle(task[:1] + task[2:])))
    except BaseException as x:  # a bug here: tell the parent (one line) rather than leave it waiting
        where = traceback.extract_tb(x.__traceback__)[-1] if x.__traceback__ else None
        at = f" at {os.path.basename(where.filename)}:{where.lineno}" if where else ""
        out.put((wid, None, f"{type(x).__name__}: {x}{at}", None, None))
    finally:
        out.close()
        out.join_thread()


# ---------------------------------------------------------------------------
# this process


def _context(start_method: Optional[str]) -> Any:
    import multiprocessing as mp

    if start_method is None:
        start_method = "fork" if sys.platform.startswith("linux") else "spawn"
    return mp.get_context(start_method)


class _Slot:
    """One task's place in the output: a span (one reply), or a file every worker deals
    (``deal``) or this process deals (``stdin``: replies per block, merged by key)."""

    def __init__(self, tid: int, kind: str, fidx: int, jobs: int, span: Optional[tuple] = None):
        self.tid, self.kind, self.fidx, self.span = tid, kind, fidx, span
        self.reply: Optional[tuple] = None
        self.cancelled = False
        self.marks: list[tuple] = [(-1, 0, 0)] * jobs
        self.ready: list[tuple[tuple, int, Any]] = []  # heap of (key, tiebreak, GameAudit)
        self.pending = [0] * jobs  # stdin messages sent and not yet answered, per worker

    @property
    def done(self) -> bool:
        end = (self.fidx, 2, 0)
        return all(m == end for m in self.marks) and not any(self.pending)


class _Pool:
    """The workers of one :func:`audit_parallel` run and the output they fill, slot by slot.

    Its methods are the run's named steps: start a worker (:meth:`launch`) and put
    one in a dead one's place (:meth:`replace`), give a task (:meth:`give`), take a
    reply (:meth:`receive`), yield what the head of the output has ready
    (:meth:`flush`, :meth:`barrier`), and one per kind of input (:meth:`stdin`,
    :meth:`gz`, :meth:`plain`); :meth:`close` stops the workers."""

    def __init__(self, jobs: int, audit: Optional[Callable[[GameLog], Any]], start_method: Optional[str],
                 window: int):
        self.jobs = jobs
        self.audit = audit
        self.window = window
        self.ctx = _context(start_method)
        self.procs: list[Any] = [None] * jobs
        self.conns: list[Any] = [None] * jobs  # tasks to each worker
        self.pipes: list[Any] = [None] * jobs  # each worker's replies (its own pipe: its death harms no other's)
        self.credits: list[Any] = [None] * jobs
        self.held: list[list[tuple]] = [[] for _ in range(jobs)]  # marks of deal replies whose credit is not back
        self.tasks: list[list[tuple]] = [[] for _ in range(jobs)]  # each worker's unfinished tasks: (slot, msg)
        self.deaths: dict[tuple, int] = {}  # (task, worker, mark) -> workers that died there
        self.lost: list[tuple[tuple, LogProblem]] = []
        self.slots: deque[_Slot] = deque()  # in output order
        self.by_tid: dict[int, _Slot] = {}
        self.spans_out = [0] * jobs  # span tasks sent and not yet answered, per worker
        self.fallen: set[int] = set()  # files whose cuts failed: dealt from the failed span on
        self.tie = 0
        self.turn = 0
        self.finished = False
        for w in range(jobs):
            self.launch(w)

    # --- the workers

    def launch(self, w: int) -> None:
        """Start worker ``w`` (it dies with this process, :func:`die_with_parent`)."""
        ctx = self.ctx
        r, s = ctx.Pipe(duplex=False)
        rr, ss = ctx.Pipe(duplex=False)
        self.credits[w] = ctx.Semaphore(self.window)
        self.held[w] = []
        p = ctx.Process(target=_worker, args=(w, self.jobs, r, ss, self.credits[w], self.audit, DEAL_BYTES,
                                              os.getpid(), _deathsig_ok()),
                        daemon=True, name=f"paipu-audit-{w}")
        p.start()
        r.close()
        ss.close()  # only the worker holds the sending end: its death ends the pipe
        self.procs[w], self.conns[w], self.pipes[w] = p, s, rr

    def give(self, w: int, slot: _Slot, msg: tuple) -> None:
        if slot.kind != "stdin":
            self.tasks[w].append((slot, msg))
        try:
            self.conns[w].send(msg)
        except OSError:  # the worker is dead: the end of its reply pipe says so, then the task is given again
            if slot.kind == "stdin":
                raise RuntimeError(f"audit worker {w} died ({self.cause(w)}) while auditing stdin, which cannot "
                                   "be read again; audit it with --jobs 1") from None

    def done_with(self, w: int, slot: _Slot) -> None:
        ts = self.tasks[w]
        for i, (t, _msg) in enumerate(ts):
            if t is slot:
                del ts[i]
                return

    def cause(self, w: int) -> str:
        p = self.procs[w]
        p.join(timeout=5)
        code = p.exitcode
        if code is not None and code < 0:
            import signal

            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit code {code}"

    def replace(self, w: int, why: str) -> None:
        """Worker ``w`` is gone: start another in its place and give it the unfinished tasks (module docs)."""
        if any(s.kind == "stdin" for s in self.slots):
            raise RuntimeError(f"audit worker {w} died ({why}) while auditing stdin, which cannot be read again; "
                               "audit it with --jobs 1")
        for c in (self.pipes[w], self.conns[w]):
            try:
                c.close()
            except OSError:
                pass
        pending, self.tasks[w] = self.tasks[w], []
        spare = None
        if pending:
            slot = pending[0][0]  # the task the worker was on
            key = (slot.tid, w, slot.marks[w] if slot.kind == "deal" else None)
            self.deaths[key] = n = self.deaths.get(key, 0) + 1
            if n >= 3:
                raise RuntimeError(f"audit worker {w} died three times on the same part of the input ({why}); "
                                   "audit it with --jobs 1")
            if n == 2:
                spare = (f"audit worker {w} died twice on the part of the input holding this game ({why}); "
                         "audit it with --jobs 1")
        sys.stderr.write(f"paipu: audit worker {w} died ({why}); a new worker audits the games it had not "
                         "reported\n" if spare is None else
                         f"paipu: audit worker {w} died again ({why}); the games it was on are reported as "
                         "not audited\n")
        sys.stderr.flush()
        self.launch(w)
        for i, (slot, msg) in enumerate(pending):
            if slot.kind == "span":
                if slot.cancelled:
                    self.spans_out[w] -= 1  # its reply is no longer wanted
                    continue
                self.give(w, slot, msg[:-2] + (spare if i == 0 else None, True))
            else:  # ("deal", tid, fidx, path, start, first, resume, spare, sync)
                self.give(w, slot, msg[:6] + (slot.marks[w], spare if i == 0 else None, True))

    def close(self, orphans: Optional[list[LogProblem]]) -> None:
        """Stop the workers (asked to stop after a finished run, else terminated) and hand out
        the orphan problems, in file and line order."""
        finished = self.finished
        for c in self.conns:
            try:
                if finished:
                    c.send(("stop",))
                c.close()
            except OSError:
                pass
        for p in self.procs:
            if p is None:
                continue
            if finished:
                p.join(timeout=5)
            if p.is_alive():
                p.terminate()
                p.join()
        for r in self.pipes:
            if r is not None:
                r.close()
        if orphans is not None:
            self.lost.sort(key=lambda kp: kp[0])
            orphans.extend(p for _k, p in self.lost)

    # --- the output

    def new_slot(self, kind: str, fidx: int, span: Optional[tuple] = None) -> _Slot:
        slot = _Slot(len(self.by_tid), kind, fidx, self.jobs, span)
        self.by_tid[slot.tid] = slot
        return slot

    def receive(self) -> None:
        """Take one reply (waiting for it), or put a dead worker's replacement to work."""
        from multiprocessing.connection import wait

        jobs, pipes = self.jobs, self.pipes
        while True:
            got = wait(pipes, timeout=1.0)
            if got:
                break
        # the first ready worker from ``turn`` on, so that no worker's replies wait behind another's
        w = min((k for k in range(jobs) if pipes[k] in got), key=lambda k: (k - self.turn) % jobs)
        self.turn = (w + 1) % jobs
        try:
            wid, tid, a, b, c = pipes[w].recv()
        except Exception:  # the end of the pipe, or a reply cut short: the worker died
            self.replace(w, self.cause(w))
            return
        if tid is None:  # a bug in the worker (one line); it has stopped
            self.replace(w, f"failed: {a}")
            return
        slot = self.by_tid[tid]
        if slot.kind == "span":
            self.spans_out[wid] -= 1
            slot.reply = (a, b, c)
            self.done_with(wid, slot)
            return
        mark, results, problems = a, b, c
        slot.marks[wid] = mark
        if mark == (slot.fidx, 2, 0):
            self.done_with(wid, slot)
        for key, res in results:
            heapq.heappush(slot.ready, (key, self.tie, res))
            self.tie += 1
        self.lost.extend(problems)
        if slot.kind == "stdin":
            slot.pending[wid] -= 1
            return
        self.held[wid].append(mark)
        # a reply's credit comes back once every worker has read past it, so results wait
        # here for at most ``window`` blocks of a worker that runs ahead
        low = min(slot.marks)
        for w in range(jobs):
            h = self.held[w]
            while h and h[0] <= low:
                h.pop(0)
                self.credits[w].release()

    def deal(self, slot: _Slot, path: str, start: int, first: int) -> None:
        for w in range(self.jobs):
            self.give(w, slot, ("deal", slot.tid, slot.fidx, path, start, first, None, None, False))

    def flush(self) -> Iterator[Any]:
        """Yield what the slots at the head of the output have ready."""
        slots = self.slots
        while slots:
            head = slots[0]
            if head.cancelled:
                slots.popleft()
                continue
            if head.kind == "span":
                if head.reply is None:
                    return
                redo, results, problems = head.reply
                if redo:  # a game open at the cut (or the file unreadable): deal the file from this span on
                    self.fallen.add(head.fidx)
                    for s in slots:
                        if s.fidx == head.fidx:
                            s.cancelled = True
                    path, start, _end, first, _last = head.span  # type: ignore[misc]
                    slot = self.new_slot("deal", head.fidx)
                    slots[0] = slot
                    self.deal(slot, path, start, first)
                    continue
                slots.popleft()
                self.lost.extend(problems)
                yield from results
                continue
            low = min(head.marks)
            while head.ready and head.ready[0][0] <= low:
                yield heapq.heappop(head.ready)[2]
            if not head.done:
                return
            slots.popleft()

    def barrier(self) -> Iterator[Any]:
        """Wait for every slot so far (before a task every worker takes part in)."""
        while self.slots:
            yield from self.flush()
            if self.slots:
                self.receive()

    # --- the input, one file at a time

    def stdin(self, fidx: int, path: str) -> Iterator[Any]:
        """Stdin, read once: this process deals each block and sends each worker its share."""
        yield from self.barrier()
        slot = self.new_slot("stdin", fidx)
        self.slots.append(slot)
        tables = [_owner_table(w) for w in range(self.jobs)]
        for dealt in _dealt(fidx, path, 0, 1, self.jobs, self.lost, DEAL_BYTES):
            for w in range(self.jobs):
                while slot.pending[w] >= self.window:
                    self.receive()
                    yield from self.flush()
                msg = _share(dealt, tables[w]) if dealt[0] == "block" else dealt
                self.give(w, slot, msg[:1] + (slot.tid,) + msg[1:])
                slot.pending[w] += 1
        yield from self.barrier()

    def gz(self, fidx: int, path: str) -> Iterator[Any]:
        """A ``.gz`` log: every worker reads it and audits its dealt share."""
        yield from self.barrier()
        slot = self.new_slot("deal", fidx)
        self.slots.append(slot)
        self.deal(slot, path, 0, 1)

    def plain(self, fidx: int, path: str) -> Iterator[Any]:
        """A plain log, cut into byte ranges given to the least busy worker (module docs)."""
        jobs, window, spans_out = self.jobs, self.window, self.spans_out
        try:
            size = os.path.getsize(path)
        except OSError:
            size = 0
        target = min(SPAN_BYTES, max(size // (32 * jobs), SPAN_BYTES // 16))
        plan = _plan(path, target) if size > target else iter([(0, None, 1)])
        for start, end, first in plan:
            if fidx in self.fallen:
                break
            while min(spans_out) >= min(window, SPANS_AHEAD):
                self.receive()
                yield from self.flush()
            if fidx in self.fallen:
                # a reply read while waiting found an earlier cut of this file inside a game:
                # the rest of the file is being dealt, so no span of it is given any more
                break
            w = spans_out.index(min(spans_out))
            slot = self.new_slot("span", fidx, (path, start, end, first, end is None))
            self.slots.append(slot)
            self.give(w, slot, ("span", slot.tid, fidx, path, start, end, first, end is None, None, False))
            spans_out[w] += 1
            yield from self.flush()


def audit_parallel(paths: Iterable[str], jobs: int = 2, orphans: Optional[list[LogProblem]] = None, *,
                   audit: Optional[Callable[[GameLog], Any]] = None, start_method: Optional[str] = None,
                   window: int = WINDOW) -> Iterator[Any]:
    """Audit every game in ``paths`` (files, folders, ``-``) in ``jobs`` worker processes, in input order.

    The same results, in the same order, as ``audit_paths(paths, jobs=1)``; see
    the module docs.  ``audit`` replaces :func:`audits.audit.audit_game` (a
    module-level function, so it reaches ``spawn`` workers too).  Pass a list as
    ``orphans`` to collect the problems that name no game.  The workers die with
    this process, whatever kills it (:func:`die_with_parent`).
    """
    files = list(find_logs(paths))
    pool = _Pool(max(1, min(int(jobs), _BLANK)), audit, start_method, window)
    try:
        for fidx, path in enumerate(files):
            if path != "-" and not os.path.exists(path):
                pool.lost.append(((fidx, 0, 0), LogProblem("<stdin>" if path == "-" else path, 0, "no such file")))
                continue
            if path == "-":
                yield from pool.stdin(fidx, path)
            elif path.endswith(".gz"):
                yield from pool.gz(fidx, path)
            else:
                yield from pool.plain(fidx, path)
        yield from pool.barrier()
        pool.finished = True
    finally:
        pool.close(orphans)


__all__ = ["DEAL_BYTES", "SPAN_BYTES", "WINDOW", "audit_parallel", "die_with_parent"]
