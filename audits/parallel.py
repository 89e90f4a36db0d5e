"""The audit in several processes: each worker reads the input itself and audits its share of the games.

:func:`audit_parallel` gives exactly what the single-process audit gives
(``audit_paths(paths, jobs=1)``), only faster on several cores:

* **Each worker** reads every file (plain or ``.gz``) in blocks of whole lines
  and finds each line's game id with one msgspec ``decode_lines`` call per block
  into a one-field struct (the rest of the line is skipped, not built; a block
  holding an odd line is scanned line by line, exactly as
  :func:`schema.reader.decode_line` would name the game).  Every worker deals
  the lines the same way (a new game goes to the least loaded worker, a game's
  lines all go to one worker), so each one knows its own share without being
  told: it decodes only its own lines, groups them into games the way
  :class:`schema.reader.LogReader` does, audits each game as it closes (and the
  ones still open at the end of a file), and sends back the
  :class:`~audits.audit.GameAudit` results with their place in the input.
* **This process** only merges the results in input order.  No decoded event
  and no :class:`~schema.reader.GameLog` crosses a process boundary.
* **Stdin** (``-``) can be read once only: then this process reads and deals
  the lines and sends each worker its share of every block.

Order guaranteed (the order of ``LogReader.games()``, hence of the one-job
audit): files in :func:`schema.reader.find_logs` order; within a file, each game
when its ``GameClosed`` line is read (line order), then the games still open at
the end of the file in the order of their first line.  Results are merged by
that key as soon as every worker has read past it, so output streams while the
input is read.  Orphan problems (missing or unreadable files, lines naming no
game) are collected in file and line order, like ``LogReader.orphans``, and are
complete once the iterator is exhausted.

Memory stays bounded: a worker runs at most ``window`` blocks ahead of the
slowest one (of this process, when it deals stdin); a result waits only until
every worker has read past its line.  A game whose
audit raises is reported as an incomplete audit with an ``INTERNAL_ERROR``
finding (as :func:`audits.audit.audit_game` does itself); it never stops the
others.  A worker that dies stops the audit with a one-line :class:`RuntimeError`.

Workers start with ``fork`` on Linux and ``spawn`` elsewhere; they take
everything they need as arguments (no module state set after import).
"""

from __future__ import annotations

import heapq
import os
import sys
import traceback
import zlib
from itertools import compress
from operator import attrgetter
from typing import Any, Callable, Iterable, Iterator, Optional

import msgspec

from schema.events import AnyEvent, GameClosed
from schema.reader import GameLog, LogProblem, decode_line, find_logs, line_blocks, open_source

#: Lines are dealt in blocks of about this many bytes (smaller blocks start the workers sooner).
DEAL_BYTES = 1 << 20
#: Blocks a worker may have queued before this process waits for it.
WINDOW = 6


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



def _read_blocks(src: Any, deal_bytes: int) -> Iterator[bytes]:
    """Whole lines in blocks of about ``deal_bytes``, cut from the reader's own blocks
    (so an unreadable file stops at the same line as in one process)."""
    for block in line_blocks(src):
        start, size = 0, len(block)
        while size - start > deal_bytes:
            end = block.find(b"\n", start + deal_bytes) + 1
            if end == 0 or end >= size:
                break
            yield block[start:end]
            start = end
        yield block[start:] if start else block


def _dealt(files: list[str], jobs: int, lost: list[tuple[tuple, LogProblem]], deal_bytes: int) -> Iterator[tuple]:
    """The input dealt to ``jobs`` workers, block by block, the same way in every process that reads it.

    Yields ``("block", fidx, name, first_line, end_line, lines, who)`` per block
    (``who``: one owner byte per line, see :meth:`_Dealer.deal`) and ``("eof", fidx)``
    at the end of each file that exists; problems of whole files go to ``lost``.
    """
    peek = msgspec.json.Decoder(_PeekGame)
    full = msgspec.json.Decoder(AnyEvent)
    dealer = _Dealer(jobs)
    for fidx, path in enumerate(files):
        name = "<stdin>" if path == "-" else path
        if path != "-" and not os.path.exists(path):
            lost.append(((fidx, 0, 0), LogProblem(name, 0, "no such file")))
            continue
        first = 1
        try:
            src = open_source(path)
        except OSError as e:
            lost.append(((fidx, 1, 0), LogProblem(name, 0, f"cannot read: {e}")))
            src = None
        if src is not None:
            try:
                blocks = _read_blocks(src, deal_bytes)
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
        dealer.clear()  # the next file's games are new games, as in the reader
        yield ("eof", fidx)


def _owner_table(w: int) -> bytes:
    """A ``bytes.translate`` table turning owner bytes into 1 for worker ``w``'s lines, else 0."""
    return bytes(1 if i == w else 0 for i in range(256))


def _share(dealt: tuple, table: bytes) -> tuple:
    """One worker's share of a dealt block: ``("lines", fidx, name, first, end, payload, sel)``."""
    _, fidx, name, first, end, lines, who = dealt
    sel = who.translate(table)
    return ("lines", fidx, name, first, end, b"\n".join(compress(lines, sel)), sel)


# ---------------------------------------------------------------------------
# the worker


def _failed_audit(log: GameLog, x: BaseException) -> Any:
    from audits.catalogue import CATALOGUE
    from audits.findings import Finding
    from audits.ledger import GameAudit

    c = CATALOGUE["INTERNAL_ERROR"]
    return GameAudit(game=log.game, file=log.file, complete=False, findings=[Finding(
        code="INTERNAL_ERROR", severity=c.severity, game=log.game, hand=0, seq=0, rule=c.rule,
        actual=type(x).__name__, message=f"paipu failed on this game (a bug in paipu): {type(x).__name__}: {x}",
        file=log.file)])


class _Games:
    """One worker's games: decodes the lines dealt to it, groups them into games the way
    :class:`schema.reader.LogReader` does, and audits each game as it closes."""

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

    def handle(self, msg: tuple) -> tuple[tuple, list[tuple[tuple, Any]], list[tuple[tuple, LogProblem]]]:
        """One ``("lines", …)`` or ``("eof", fidx)`` message: (mark, results, problems)."""
        fidx = msg[1]
        results: list[tuple[tuple, Any]] = []
        problems: list[tuple[tuple, LogProblem]] = []
        open_games = self.open
        if msg[0] == "eof":
            for log, first in open_games.values():
                results.append(((fidx, 1, first), self.run(log)))
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
                results.append(((fidx, 0, n), self.run(log)))
        return (fidx, 0, end_line), results, problems


def _report_bug(wid: int, out: Any, x: BaseException) -> None:
    """Tell the parent about a bug in a worker (one line) rather than leave it waiting."""
    where = traceback.extract_tb(x.__traceback__)[-1] if x.__traceback__ else None
    at = f" at {os.path.basename(where.filename)}:{where.lineno}" if where else ""
    out.put((wid, None, f"{type(x).__name__}: {x}{at}", None))


def _worker(wid: int, conn: Any, out: Any, audit: Optional[Callable[[GameLog], Any]]) -> None:
    """Decode and audit the lines this process deals (stdin); reply once per message received."""
    try:
        games = _Games(audit)
        while True:
            msg = conn.recv()
            if msg[0] == "stop":
                return
            out.put((wid, *games.handle(msg)))
    except BaseException as x:
        _report_bug(wid, out, x)
    finally:
        out.close()
        out.join_thread()


def _reader(wid: int, jobs: int, files: list[str], deal_bytes: int, out: Any, credits: Any,
            audit: Optional[Callable[[GameLog], Any]]) -> None:
    """Read every file, deal each block as every worker deals it, decode and audit this worker's
    share.  One reply per block and per file end (after taking a credit: the parent gives one back
    once every worker has read past it), then a last one marked past every line."""
    try:
        games = _Games(audit)
        table = _owner_table(wid)
        lost: list[tuple[tuple, LogProblem]] = []
        for dealt in _dealt(files, jobs, lost, deal_bytes):
            mark, results, problems = games.handle(_share(dealt, table) if dealt[0] == "block" else dealt)
            if lost:  # whole-file problems: every worker meets them, worker 0 reports them
                if wid == 0:
                    problems += lost
                lost.clear()
            credits.acquire()
            out.put((wid, mark, results, problems))
        out.put((wid, (len(files), 0, 0), [], lost if wid == 0 else []))
    except BaseException as x:
        _report_bug(wid, out, x)
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


def audit_parallel(paths: Iterable[str], jobs: int = 2, orphans: Optional[list[LogProblem]] = None, *,
                   audit: Optional[Callable[[GameLog], Any]] = None, start_method: Optional[str] = None,
                   window: int = WINDOW) -> Iterator[Any]:
    """Audit every game in ``paths`` (files, folders, ``-``) in ``jobs`` worker processes, in input order.

    The same results, in the same order, as ``audit_paths(paths, jobs=1)``; see
    the module docs.  ``audit`` replaces :func:`audits.audit.audit_game` (a
    module-level function, so it reaches ``spawn`` workers too).  Pass a list as
    ``orphans`` to collect the problems that name no game.
    """
    files = list(find_logs(paths))
    jobs = max(1, min(int(jobs), _BLANK))
    ctx = _context(start_method)
    out = ctx.Queue()
    procs: list[Any] = []
    conns: list[Any] = []
    # stdin can be read once only: then this process reads and deals, else each worker reads for itself
    dealing = "-" in files
    credits = [ctx.Semaphore(window) for _ in range(jobs)]
    for w in range(jobs):
        if dealing:
            r, s = ctx.Pipe(duplex=False)
            args: tuple = (w, r, out, audit)
        else:
            args = (w, jobs, files, DEAL_BYTES, out, credits[w], audit)
        p = ctx.Process(target=_worker if dealing else _reader, args=args, daemon=True, name=f"paipu-audit-{w}")
        p.start()
        if dealing:
            r.close()
            conns.append(s)
        procs.append(p)

    lost: list[tuple[tuple, LogProblem]] = []
    pending = [0] * jobs  # messages sent and not yet answered, per worker (this process dealing)
    held: list[list[tuple]] = [[] for _ in range(jobs)]  # marks of replies whose credit is not yet back
    marks: list[tuple] = [(-1, 0, 0)] * jobs  # each worker has answered for every line up to its mark
    done = (len(files), 0, 0)  # the mark of a worker that read everything
    ready: list[tuple[tuple, int, Any]] = []  # heap of (key, tiebreak, GameAudit)
    tie = 0
    finished = False

    def receive() -> None:
        nonlocal tie
        import queue

        while True:
            try:
                wid, mark, results, problems = out.get(timeout=1.0)
                break
            except queue.Empty:
                dead = [p for p in procs if p.exitcode not in (None, 0)]
                if dead:
                    raise RuntimeError(f"audit worker {dead[0].name} died (exit code {dead[0].exitcode})")
        if mark is None:
            raise RuntimeError(f"audit worker {wid} failed: {results}")
        pending[wid] -= 1
        marks[wid] = mark
        for key, res in results:
            heapq.heappush(ready, (key, tie, res))
            tie += 1
        lost.extend(problems)
        if not dealing:
            if mark != done:
                held[wid].append(mark)
            # a reply's credit comes back once every worker has read past it, so results
            # wait here for at most ``window`` blocks of a worker that runs ahead
            low = min(marks)
            for w in range(jobs):
                h = held[w]
                while h and h[0] <= low:
                    h.pop(0)
                    credits[w].release()

    def drain() -> Iterator[Any]:
        low = min(marks)
        while ready and ready[0][0] <= low:
            yield heapq.heappop(ready)[2]

    def answered() -> bool:
        """Whether a worker's answer is waiting (so results stream while input is dealt)."""
        try:
            return not out.empty()
        except (OSError, ValueError):
            return False

    def send(w: int, msg: tuple) -> Iterator[Any]:
        while pending[w] >= window:
            receive()
            yield from drain()
        conns[w].send(msg)
        pending[w] += 1
        while answered():
            receive()
        yield from drain()

    try:
        if dealing:
            tables = [_owner_table(w) for w in range(jobs)]
            for dealt in _dealt(files, jobs, lost, DEAL_BYTES):
                for w in range(jobs):
                    yield from send(w, _share(dealt, tables[w]) if dealt[0] == "block" else dealt)
            while any(pending):
                receive()
                yield from drain()
        else:
            while min(marks) != done:
                receive()
                yield from drain()
        yield from drain()
        finished = True
    finally:
        for c in conns:
            try:
                if finished:
                    c.send(("stop",))
                c.close()
            except OSError:
                pass
        for p in procs:
            if finished:
                p.join(timeout=5)
            if p.is_alive():
                p.terminate()
                p.join()
        out.close()
        out.join_thread()
        if orphans is not None:
            lost.sort(key=lambda kp: kp[0])
            orphans.extend(p for _k, p in lost)


__all__ = ["DEAL_BYTES", "WINDOW", "audit_parallel"]
