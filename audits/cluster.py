"""The audit on a Dask cluster: the same results, in the same order, as the one-process audit.

:func:`audit_cluster` gives exactly what ``audit_paths(paths, jobs=1)`` gives,
with the work spread over the workers of a Dask ``distributed`` cluster (an
existing scheduler, or a ``LocalCluster`` of worker processes started here):

* **Tasks are parts of files.**  A plain log no larger than ``split_bytes`` is one
  task; a larger one is cut into :class:`~schema.reader.FileSpan` byte ranges, each
  cut guessed here from the bytes alone (just after a line naming ``GameClosed``,
  as :mod:`audits.parallel` cuts), so the workers start at once.  The task of the
  span before a cut checks the guess: if a game is still open at its end, its
  results and those of the file's later spans are dropped, and the rest of the file
  is cut by a task on the cluster (:func:`plan_spans`) where no game is open, so
  every game lies whole in one span.  A file this process cannot see is cut by
  :func:`plan_spans` from the start.  A ``.gz`` log is one task (it cannot be
  entered in the middle).
* **Workers read their own share.**  A task holds a path and a byte range; the
  worker opens the file, reads the range with :class:`~schema.reader.LogReader`
  and audits each game with :func:`audits.audit.audit_game`, exactly as one
  process does.  Only the results (:class:`~audits.ledger.GameAudit`: findings,
  summary, ledger) travel back, never decoded events; so the paths must name
  the same files on the workers as here (a shared or network file system).
* **Input order.**  Results are taken from the tasks in input order (files in
  :func:`schema.reader.find_logs` order, spans in file order, games in each span
  in reader order), while at most ``window`` tasks are in flight; the tamper
  evidence of each file (docs/seal.md) is verified by one task per file and
  joined to its games here, as :func:`audits.run.audit_paths` does.
* **A worker that dies** has its tasks run again on another worker by the
  scheduler (up to Dask's ``distributed.scheduler.allowed-failures``).  A task
  is a pure function of its span, and each task's result is taken exactly once,
  so no game is lost or counted twice.

Standard input cannot be shared with workers: ``-`` is refused with
:class:`ClusterError`, as is a scheduler that cannot be reached.
"""

from __future__ import annotations

import logging
import os
from collections import deque
from functools import partial
from typing import Any, Callable, Iterable, Iterator, Optional

import msgspec

from schema import limits as _limits
from schema.collector import few_collections
from schema.events import AnyEvent, GameClosed
from schema.reader import FileSpan, LogProblem, LogReader, decode_line, find_logs

from .parallel import _plan as guess_cuts
from .serial import attach_seals, audit_serial

#: Plain logs are cut into spans of at most about this size ...
SPLIT_BYTES = 32 << 20
#: ... and at least this size (a file is cut into about :data:`SPANS_PER_THREAD` spans per worker
#: thread in between).
MIN_SPLIT_BYTES = 1 << 20
#: Spans per worker thread of a file between those sizes: small enough that results stream back
#: while the workers go on (a caller storing them works alongside), and the last ones end together.
SPANS_PER_THREAD = 8
#: Where the span size is paipu's to choose, a file's spans shrink as it is read (guided
#: self-scheduling): each is the bytes left over this many spans per worker thread, between
#: :data:`MIN_SPLIT_BYTES` and :data:`SPLIT_BYTES`.  The first spans are twice the even cut
#: (fewer tasks: each costs the client and the workers about 8 ms of CPU), the last ones the
#: least, so the workers end close together and the results left to take at the end are few.
GUIDED_SPANS_PER_THREAD = SPANS_PER_THREAD // 2
#: Tasks in flight per worker thread (results wait here only until their turn).
WINDOW_PER_WORKER = 4
#: Seconds to wait for a scheduler to answer, and for a local cluster's workers to start.
CONNECT_SECONDS = 10

_READ_BYTES = 1 << 22


class ClusterError(RuntimeError):
    """A cluster that cannot be used, or input it cannot read (one sentence for the user)."""


# ---------------------------------------------------------------------------
# tasks (run on the workers; module-level functions so any worker can import them)


def plan_spans(path: str, split_bytes: int = SPLIT_BYTES, start: int = 0, first_line: int = 1) -> list[FileSpan]:
    """Cut the plain log ``path`` (from byte ``start``, line ``first_line``: a place where no game
    is open) into spans of at least ``split_bytes`` at game boundaries.

    A cut is made after a line at which no game is open, as
    :class:`~schema.reader.LogReader` groups lines: a line opens the game it
    names (an event's ``game``, or the game a bad line is attributed to by
    :func:`~schema.reader.decode_line`), and a line that decodes as
    ``GameClosed`` closes it.  A file whose games never all close at once
    between two cuts stays one span there.  A file too short to cut, a ``.gz``
    file, or one that cannot be read is one span (the audit reports its problem).
    """
    whole = [FileSpan(path, start, None, first_line) if start else FileSpan(path)]
    if path == "-" or path.endswith(".gz"):
        return whole
    try:
        if os.path.getsize(path) - start <= split_bytes:
            return whole
        f = open(path, "rb")
        f.seek(start)
    except OSError:
        return whole
    decoder = msgspec.json.Decoder(AnyEvent)
    lim = _limits.current()
    spans: list[FileSpan] = []
    open_games: set[str] = set()
    start_line = first_line  # where the span being measured begins (``start``)
    offset, line = start, first_line  # the byte and line number of the next line

    def passed(lines: int, size: int) -> None:
        """Account for lines read; cut after them if no game is open and the span is long enough."""
        nonlocal offset, line, start, start_line
        offset += size
        line += lines
        if not open_games and offset - start >= split_bytes:
            spans.append(FileSpan(path, start, offset, start_line))
            start, start_line = offset, line

    with f:
        rest = b""
        eof = False
        while not eof:
            chunk = f.read(_READ_BYTES)
            eof = not chunk
            block = rest + chunk
            rest = b""
            if not eof:
                cut = block.rfind(b"\n") + 1
                if cut == 0 and len(block) > lim.max_line_bytes:
                    # an overlong line: the reader skips it and reports it on the game its head names
                    head, size = block[:_limits.GAME_SEARCH_BYTES], len(block)
                    while True:
                        more = f.read(_READ_BYTES)
                        if not more:
                            eof = True
                            break
                        nl = more.find(b"\n")
                        if nl >= 0:
                            size += nl + 1
                            rest = more[nl + 1:]
                            break
                        size += len(more)
                    _follow(open_games, LogProblem(path, 0, "", game=_limits.game_hint(head)))
                    passed(1, size)
                    continue
                rest = block[cut:]
                block = block[:cut]
            if not block:
                continue
            pieces = block.split(b"\n")
            if block.endswith(b"\n"):
                pieces.pop()
            last = len(pieces) - 1
            if b"\r" in block and block.count(b"\r") != block.count(b"\r\n"):
                # a bare CR also ends a line for the reader: a piece between newlines may be several lines
                for k, piece in enumerate(pieces):
                    lines = piece.splitlines() or [b""]
                    for n, raw in enumerate(lines, line):
                        _follow(open_games, decode_line(raw, path, n) if raw.strip() else None)
                    passed(len(lines), len(piece) + (1 if k < last or block.endswith(b"\n") else 0))
                continue
            items: Optional[list] = None
            if _limits.screen(block, lim) is block:
                if _follow_block(open_games, pieces, block.endswith(b"\n"), decoder, passed):
                    continue
                try:
                    items = decoder.decode_lines(block)
                except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
                    items = None
                if items is not None and len(items) != len(pieces):
                    items = None
            if items is None:
                items = [decode_line(raw, path, n) if raw.strip() else None for n, raw in enumerate(pieces, line)]
            for k, (raw, item) in enumerate(zip(pieces, items)):
                _follow(open_games, item)
                passed(1, len(raw) + (1 if k < last or block.endswith(b"\n") else 0))
    if not spans:
        return whole
    if start < offset:
        spans.append(FileSpan(path, start, None, start_line))
    else:  # the last cut fell at the end of the file
        spans[-1] = FileSpan(path, spans[-1].start, None, spans[-1].first_line)
    return spans


class _PeekLine(msgspec.Struct):
    """A line's game id and type (the rest skipped): enough to follow the open games."""

    game: Optional[str] = None
    type: Any = None


_peek_line = msgspec.json.Decoder(_PeekLine)
#: The longest game id the schema takes (``schema.events.Name``): a longer one names no game.
_LONGEST_ID = 256


def _follow_block(open_games: set[str], pieces: list[bytes], ends_in_newline: bool, decoder: Any,
                  passed: Callable[[int, int], None]) -> bool:
    """:func:`_follow` and ``passed`` over a whole block of lines at once, from each line's game
    id and type only (no full decode but of the lines that say ``GameClosed``, each decoded to
    see that it closes its game as the reader would): lines that only open games are taken
    together, and a cut is looked for only where the open games can have run out (after a
    closing line, or a line naming no game).  False (nothing done) for a block this cannot
    follow exactly (a line that is not a JSON object with a string ``game``, or an id longer
    than the schema takes): the caller follows it line by line."""
    try:
        peeked = _peek_line.decode_lines(b"\n".join(pieces))
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
        return False
    if len(peeked) != len(pieces):
        return False
    games = [p.game for p in peeked]
    if max(map(len, filter(None, games)), default=0) > _LONGEST_ID:
        return False
    stops = [i for i, p in enumerate(peeked) if p.game is None or p.type == "GameClosed"]
    last = len(pieces) - 1
    sizes = [len(raw) + 1 for raw in pieces]
    if not ends_in_newline:
        sizes[-1] -= 1
    done = 0  # lines of the block accounted for
    for i in stops:
        open_games.update(filter(None, games[done:i + 1]))
        if games[i] is not None:
            try:
                closing = type(decoder.decode(pieces[i])) is GameClosed
            except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
                closing = False
            if closing:
                open_games.discard(games[i])
        passed(i + 1 - done, sum(sizes[done:i + 1]))
        done = i + 1
    if done <= last:
        open_games.update(filter(None, games[done:]))
        passed(last + 1 - done, sum(sizes[done:]))
    return True


def _follow(open_games: set[str], item: Any) -> None:
    """Track the open games past one line (an event, a problem, or ``None`` for a blank line)."""
    if item is None:
        return
    game = item.game
    if game is None:
        return
    if type(item) is GameClosed:
        open_games.discard(game)
    else:
        open_games.add(game)


def audit_span(span: FileSpan, max_line_bytes: Optional[int] = None, max_depth: Optional[int] = None,
               audit: Optional[Callable[[Any], Any]] = None, guessed: bool = False) -> tuple[list[Any], list[LogProblem]]:
    """Audit every game of one span, as :func:`audits.run.audit_paths` does in one process.

    Returns the :class:`~audits.ledger.GameAudit` results in reader order and the
    problems that name no game.  The input limits of the caller are passed along
    (a worker process does not share the caller's settings).  ``audit`` replaces
    :func:`audits.audit.audit_game` (it must not raise; its result may carry the audit as
    ``.audit``, see :func:`audit_cluster`); an ``audit`` with a ``finish()`` method has it
    called once the span's games are all audited, before the result is returned: the
    result is sent whenever the client asks for it, while the worker goes on with other
    tasks, so what ``audit`` shares across games (the ingest's record batches) must be
    complete by then.  A span whose end is a ``guessed`` cut (no
    game known to be open there) returns ``None`` instead when the guess was wrong: a game
    still open at its end, or a part of the file it could not read (nothing is audited then).
    """
    previous = _apply_limits(max_line_bytes, max_depth)
    try:
        with few_collections():  # the task reads and audits games: the collector runs less often
            return _audit_span(span, audit, guessed)
    finally:
        _limits.set_limits(previous)


def _audit_span(span: FileSpan, audit: Optional[Callable[[Any], Any]], guessed: bool
                ) -> Optional[tuple[list[Any], list[LogProblem]]]:
    """:func:`audit_span`'s work, under the caller's input limits."""
    orphans: list[LogProblem] = []
    if audit is None and not guessed:
        return list(audit_serial([span], orphans)), orphans
    reader = LogReader([span])
    logs = list(reader.games()) if guessed else reader.games()
    if guessed and (any(not log.closed for log in logs) or any(p.line <= 0 for p in reader.orphans)):
        return None
    if audit is None:
        from .audit import audit_game as audit
    out = [audit(log) for log in logs]
    finish = getattr(audit, "finish", None)
    if finish is not None:
        finish()
    orphans.extend(reader.orphans)
    return out, orphans


def _with_seals(result: Any, problems: dict) -> Any:
    """:func:`attach_seals` on a result: a :class:`~audits.ledger.GameAudit`, or a struct that
    carries one as ``.audit`` (left as it is when that is None)."""
    if hasattr(result, "findings"):
        return attach_seals(result, problems)
    inner = getattr(result, "audit", None)
    return msgspec.structs.replace(result, audit=attach_seals(inner, problems)) if inner is not None else result


def seal_problems(path: str) -> dict:
    """The tamper evidence of one file by game (``{}`` for a file that does not use the scheme)."""
    from schema.seal import problems_by_game

    if path == "-" or not os.path.isfile(path):
        return {}
    return problems_by_game(path)


def _apply_limits(max_line_bytes: Optional[int], max_depth: Optional[int]) -> Any:
    lim = _limits.current()
    if max_line_bytes is None and max_depth is None:
        return _limits.set_limits(lim)
    return _limits.set_limits(_limits.Limits(max_line_bytes=max_line_bytes or lim.max_line_bytes,
                                             max_depth=max_depth or lim.max_depth))


# ---------------------------------------------------------------------------
# this process


#: What ``--cluster`` says when Dask's ``distributed`` is not installed (it is the ``cluster`` extra).
MISSING_EXTRA = ("--cluster needs Dask's distributed scheduler, which this install of paipu lacks; "
                 "install the cluster extra: pip install 'paipu[cluster]'")


#: Dask settings of the workers ``local:N`` starts.  Their statistical profiler is off: it samples
#: the running task's stack every 10 ms for the dashboard's profile page (which nobody of a
#: ``local:N`` run is shown), and cost 8% of each task's CPU (auditing one 2.5 MB span of the
#: bench's corpus: 0.175 s against 0.162 s of the task's thread, median of 30 alternating runs).
LOCAL_WORKER_CONFIG = {"distributed.worker.profile.enabled": False}


def connect(cluster: str) -> tuple[Any, Any]:
    """A Dask client for ``cluster``: ``local:N`` starts a ``LocalCluster`` of N worker
    processes (one thread each, :data:`LOCAL_WORKER_CONFIG`); anything else is a scheduler address
    (``tcp://host:8786``).  Returns ``(client, local cluster or None)``; close both."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError(MISSING_EXTRA) from None
    spec = cluster.strip()
    if spec.startswith("local:") or spec == "local":
        text = spec.partition(":")[2] or str(os.cpu_count() or 1)
        try:
            n = int(text)
        except ValueError:
            n = 0
        if n < 1:
            raise ClusterError(f"--cluster {cluster!r}: give local:N with N worker processes (N ≥ 1)")
        import dask

        try:
            with dask.config.set(LOCAL_WORKER_CONFIG):  # the workers (in their own processes) take it as they start
                local = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                                     silence_logs=logging.ERROR)
        except Exception as e:
            raise ClusterError(f"could not start {n} local Dask workers: {_one_line(e)}") from None
        try:
            return Client(local, timeout=CONNECT_SECONDS), local
        except Exception as e:
            local.close()
            raise ClusterError(f"could not connect to the local Dask cluster: {_one_line(e)}") from None
    try:
        return Client(spec, timeout=CONNECT_SECONDS), None
    except Exception as e:
        raise ClusterError(f"cannot reach the Dask scheduler at {spec} ({_one_line(e)}); "
                           "give its address as tcp://host:port, or local:N") from None


def _one_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def audit_cluster(paths: Iterable[str], cluster: Any, orphans: Optional[list[LogProblem]] = None, *,
                  split_bytes: Optional[int] = None, window: Optional[int] = None,
                  audit: Optional[Callable[[Any], Any]] = None) -> Iterator[Any]:
    """Audit every game in ``paths`` on a Dask cluster, in input order (see the module docs).

    ``cluster`` is an address or ``local:N`` (see :func:`connect`), or a
    ``distributed.Client`` to use (and leave open).  Pass a list as ``orphans``
    to collect the problems that name no game.  ``audit`` replaces
    :func:`audits.audit.audit_game` on the workers (a function that never raises; see
    :func:`audit_span`).  ``split_bytes`` is the span size
    (default: :data:`SPANS_PER_THREAD` spans per worker thread, between :data:`MIN_SPLIT_BYTES` and
    :data:`SPLIT_BYTES`).  Nothing is sent to the cluster before the first result is asked
    for; :class:`ClusterAudit` starts at once.
    """
    paths = list(paths)
    if "-" in paths:
        raise ClusterError(STDIN_REFUSED)
    own = not hasattr(cluster, "submit")
    client, local = connect(cluster) if own else (cluster, None)
    run = None
    try:
        run = ClusterAudit(paths, client, orphans, split_bytes=split_bytes, window=window, audit=audit)
        yield from run
    finally:
        if run is not None:
            run.close()
        if own:
            client.close()
            if local is not None:
                local.close()


#: Why ``-`` is refused (the workers cannot read this process's standard input).
STDIN_REFUSED = ("standard input cannot be shared with cluster workers; write it to a file "
                 "the workers can read, or audit it without --cluster")


def _guided_bytes(size: int, threads: int, start: int) -> int:
    """The size of a span of a ``size``-byte file that starts at byte ``start`` (:data:`GUIDED_SPANS_PER_THREAD`)."""
    return min(SPLIT_BYTES, max(MIN_SPLIT_BYTES, (size - start) // (GUIDED_SPANS_PER_THREAD * threads)))


class ClusterAudit:
    """:func:`audit_cluster` on a ``distributed.Client``, already under way: its first
    ``window`` tasks are submitted when it is made, so the workers audit while the caller
    gets ready (``ingest --cluster`` opens its store meanwhile).  Iterate it for the results,
    in input order; :meth:`close` lets go of the tasks not taken (a worker then drops them)."""

    def __init__(self, paths: Iterable[str], client: Any, orphans: Optional[list[LogProblem]] = None, *,
                 split_bytes: Optional[int] = None, window: Optional[int] = None,
                 audit: Optional[Callable[[Any], Any]] = None):
        paths = list(paths)
        if "-" in paths:
            raise ClusterError(STDIN_REFUSED)
        self.client = client
        self.orphans = orphans
        self.audit = audit
        self.split_bytes = split_bytes
        lim = _limits.current()
        self._lim_args = (lim.max_line_bytes, lim.max_depth)
        self.threads = sum(client.nthreads().values()) or 1
        self.window = window or WINDOW_PER_WORKER * self.threads
        #: path -> future of its tamper evidence
        self._seals: dict[str, Any] = {}
        #: path -> (byte, line, cut size) of the span whose guessed end fell inside a game
        self._wrong: dict[str, tuple[int, int, int]] = {}
        self._queue: deque[tuple[str, FileSpan, Any, int]] = deque()
        self._source = self._tasks(paths)
        self._exhausted = False
        self._fill()
        self._results = self._take()

    def __iter__(self) -> "ClusterAudit":
        return self

    def __next__(self) -> Any:
        return next(self._results)

    def close(self) -> None:
        """Stop: the results not taken are let go (their tasks released on the cluster)."""
        self._results.close()
        for entry in self._queue:
            entry[2].release()
        self._queue.clear()
        self._exhausted = True

    def _submit(self, path: str, span: FileSpan, guessed: bool, cut: int) -> tuple[str, FileSpan, Any, int]:
        future = self.client.submit(audit_span, span, *self._lim_args, self.audit, guessed, pure=False)
        return path, span, future, cut

    def _tasks(self, paths: list[str]) -> Iterator[tuple[str, FileSpan, Any, int]]:
        client = self.client
        for path in find_logs(paths):
            self._seals[path] = client.submit(seal_problems, path, pure=False, priority=1)
            try:
                size: Optional[int] = os.path.getsize(path)
            except OSError:  # not visible here: the workers decide
                size = None
            cut = self.split_bytes or (SPLIT_BYTES if size is None else min(
                SPLIT_BYTES, max(MIN_SPLIT_BYTES, size // (SPANS_PER_THREAD * self.threads))))
            if (size is not None and size <= cut) or path.endswith(".gz"):
                yield self._submit(path, FileSpan(path), False, cut)
            elif size is None:  # only the workers see it: one of them plans the cuts
                for span in client.submit(plan_spans, path, cut, pure=False, priority=2).result():
                    yield self._submit(path, span, False, cut)
            else:
                # cuts guessed here from the bytes alone (no pass over the file on the cluster
                # before the work starts); the task of the span before each cut checks it
                sizes = cut if self.split_bytes else partial(_guided_bytes, size, self.threads)
                for start, end, first in guess_cuts(path, sizes):
                    if path in self._wrong:
                        break
                    if end is None and start >= size:  # the last cut fell at the end of the file
                        break
                    yield self._submit(path, FileSpan(path, start, end, first), end is not None, cut)

    def _fill(self) -> None:
        """Submit tasks until ``window`` are in flight (or none are left)."""
        while not self._exhausted and len(self._queue) < self.window:
            try:
                self._queue.append(next(self._source))
            except StopIteration:
                self._exhausted = True

    def _take(self) -> Iterator[Any]:
        try:
            yield from self._take_in_order()
        except ClusterError:
            raise
        except Exception as e:
            if type(e).__name__ == "KilledWorker":
                raise ClusterError(f"a task failed on every worker it was given ({_one_line(e)}); "
                                   "see the workers' logs") from None
            raise

    def _take_in_order(self) -> Iterator[Any]:
        client = self.client
        while True:
            self._fill()
            if not self._queue:
                return
            path, span, future, cut = self._queue.popleft()
            got = future.result()
            future.release()
            if got is None:
                # a guessed cut fell inside a game (tables logged into one file at once): this
                # span and the file's later ones are dropped, and the rest of the file is cut
                # where no game is open (plan_spans) and audited before the files after it
                self._wrong[path] = (span.start, span.first_line, cut)
                for entry in self._queue:
                    if entry[0] == path:
                        entry[2].release()
                rest = client.submit(plan_spans, path, cut, span.start, span.first_line, pure=False,
                                     priority=2).result()
                self._queue = deque([self._submit(path, s, False, cut) for s in rest] +
                                    [e for e in self._queue if e[0] != path])
                continue
            games, lost = got
            if self.orphans is not None:
                self.orphans.extend(lost)
            if games:
                problems = self._seals[path].result()
                for result in games:
                    yield _with_seals(result, problems)


__all__ = ["CONNECT_SECONDS", "ClusterAudit", "ClusterError", "LOCAL_WORKER_CONFIG", "MIN_SPLIT_BYTES", "MISSING_EXTRA", "SPANS_PER_THREAD", "SPLIT_BYTES", "audit_cluster", "audit_span", "connect",
           "plan_spans", "seal_problems"]
