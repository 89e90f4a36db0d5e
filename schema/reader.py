"""Reading logs: ``.jsonl``, ``.jsonl.gz`` and stdin, streamed, one game at a time.

A line that is not JSON, or does not match the schema, becomes a
:class:`LogProblem` naming file, line and field; it never stops the other games.
Games may be interleaved in one file: each is handed out when its
``GameClosed`` arrives, or at the end of input (then it is *truncated*).

Work per input is bounded (:mod:`schema.limits`): an overlong or too deeply
nested line is reported and skipped before any decoder sees it, and a problem
message never echoes more than :data:`ECHO_CHARS` characters of the input.  A
damaged ``.gz`` (cut short, missing its trailer, corrupt) yields every line read
before the damage, then the damage as a problem on that file.
"""

from __future__ import annotations

import os
import sys
import zlib
from dataclasses import dataclass, field
from itertools import groupby
from operator import attrgetter
from typing import IO, Iterable, Iterator, Optional, Union

import msgspec

from . import limits as _limits
from .events import AnyEvent, Event, GameClosed, GameOpened, SCHEMA_VERSION

_decoder = msgspec.json.Decoder(AnyEvent)


class _GameOnly(msgspec.Struct):
    game: Optional[str] = None


_game_decoder = msgspec.json.Decoder(_GameOnly)


class LogProblem(msgspec.Struct, frozen=True):
    """A line that could not be read as an event: ``file:line: message``."""

    file: str
    line: int
    message: str
    game: Optional[str] = None
    field: Optional[str] = None

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass
class GameLog:
    """One game's events as read, with the line each came from."""

    game: str
    file: str
    events: list[Event] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    #: The first line of this game that could not be read, if any; events after
    #: it are dropped, because the game can no longer be replayed past it.
    problem: Optional[LogProblem] = None
    closed: bool = False

    @property
    def truncated(self) -> bool:
        """The input ended before the game's ``GameClosed``."""
        return not self.closed


#: The most characters of the input a problem message quotes (longer values are cut
#: with an ellipsis): a message stays one short sentence whatever the line holds.
ECHO_CHARS = 120


def clip(text: str, limit: int = ECHO_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def _explain(err: msgspec.ValidationError) -> tuple[str, Optional[str]]:
    # the field path comes last; a value echoed in the message is clipped, the path kept
    message, sep, path = str(err).rpartition(" - at `")
    if not sep:
        message, path = path, ""
    message, path = clip(message), clip(path)
    fld = None
    if sep:
        fld = path.rstrip("`").removeprefix("$").removeprefix(".") or None
    message = message[:1].lower() + message[1:]
    if fld == "type" and message.startswith("invalid value"):
        message = f"unknown event type {message.removeprefix('invalid value ')} (schema version {SCHEMA_VERSION})"
    elif message.startswith("object missing required field"):
        missing = message.rsplit("`", 2)[-2]
        fld = f"{fld}.{missing}" if fld else missing
        return f"missing required field `{fld}`", fld
    return (f"{message} at field `{fld}`" if fld else message), fld


def _screened(raw: bytes) -> Optional[LogProblem]:
    """The limits of :mod:`schema.limits` for one line not yet screened in its block."""
    lim = _limits.current()
    if len(raw) > lim.max_line_bytes:
        return _marker_problem(_limits.Rejected("too_long", len(raw), lim.max_line_bytes, _limits.game_hint(raw)))
    if _limits.too_deep(raw, lim.max_depth):
        return _marker_problem(_limits.Rejected("too_deep", len(raw), lim.max_depth, _limits.game_hint(raw)))
    return None


def _marker_problem(r: _limits.Rejected) -> LogProblem:
    return LogProblem("", 0, _limits.describe(r), game=r.game)


def decode_line(raw: bytes, file: str, line: int) -> Union[Event, LogProblem]:
    """Decode one log line into an event, or a problem naming file, line and field.

    Never raises: a line past the limits (:mod:`schema.limits`), a rejection
    marker left by :func:`line_blocks`, bad JSON and schema mismatches all
    become a :class:`LogProblem`.
    """
    mark = _limits.rejection(raw)
    if mark is not None:
        return LogProblem(file, line, _limits.describe(mark), game=mark.game)
    bad = _screened(raw)
    if bad is not None:
        return LogProblem(file, line, bad.message, game=bad.game)
    try:
        return _decoder.decode(raw)
    except msgspec.ValidationError as e:
        message, fld = _explain(e)
        try:
            game = _game_decoder.decode(raw).game
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            game = None
        if game is not None and len(game) > 256:
            game = None  # not a game id the schema accepts: the line belongs to no game
        return LogProblem(file, line, message, game=game, field=fld)
    except msgspec.DecodeError as e:
        return LogProblem(file, line, f"not JSON ({clip(str(e))})")
    except RecursionError:  # screened above; kept so no input can crash the reader
        return LogProblem(file, line, "JSON nested too deeply to read")


class GzipDamage(OSError):
    """A ``.gz`` log that ends early or is corrupt (raised after every good byte was read)."""


class GzipStream:
    """A gzip decompressor that hands out every byte it can before reporting damage.

    ``gzip.GzipFile`` loses the bytes of the read call in which it meets a
    truncated stream (a file copied while being written has every line but no
    trailer, and read whole, showed no game at all).  Here each ``read`` returns
    what was decompressed; the damage is raised as :class:`GzipDamage` on the
    next call.  Concatenated gzip members are read one after another.
    """

    #: Compressed bytes read at a time (small, so the undecompressed tail zlib hands back stays small).
    IN_BYTES = 1 << 18

    def __init__(self, raw: IO[bytes]):
        self.raw = raw
        self._d = zlib.decompressobj(31)
        self._in = b""
        self._any = False  # any compressed byte seen
        self._error: Optional[GzipDamage] = None
        self._done = False

    def _chunk(self, want: int) -> bytes:
        """Up to ``want`` decompressed bytes; ``b""`` at a clean end; raises :class:`GzipDamage`."""
        while True:
            d = self._d
            if d.eof:
                # the bytes after this member (zlib leaves them in unused_data, and again in
                # unconsumed_tail when the output was capped: take them once)
                leftover = d.unused_data
                self._in = b""
                if not leftover:
                    leftover = self.raw.read(self.IN_BYTES)
                if not leftover.strip(b"\0"):
                    # a clean end, NUL padding allowed; anything after the padding is damage
                    while leftover:
                        if leftover.strip(b"\0"):
                            raise GzipDamage("corrupt gzip data after the end of a member")
                        leftover = self.raw.read(self.IN_BYTES)
                    return b""
                self._d = d = zlib.decompressobj(31)
                self._in = leftover
            if not self._in:
                self._in = self.raw.read(self.IN_BYTES)
                if not self._in:
                    if not self._any:
                        return b""  # an empty file holds no lines
                    raise GzipDamage("the gzip data ends early (the file was cut short or is still being "
                                     "written); lines before the damage were read")
                self._any = True
            try:
                out = d.decompress(self._in, want)
            except zlib.error as e:
                raise GzipDamage(f"corrupt gzip data ({e}); lines before the damage were read") from None
            self._in = d.unconsumed_tail
            if out:
                return out

    def read(self, n: int = -1) -> bytes:
        """Up to ``n`` bytes (all with ``n < 0``); damage is raised only once nothing good is left."""
        if self._error is not None:
            err, self._error = self._error, None
            self._done = True
            raise err
        if self._done:
            return b""
        want = n if n is not None and n >= 0 else 1 << 62
        out = bytearray()
        while len(out) < want:
            try:
                chunk = self._chunk(min(want - len(out), CHUNK_BYTES))
            except GzipDamage as e:
                if out:
                    self._error = e
                    break
                self._done = True
                raise
            if not chunk:
                self._done = True
                break
            if not out and len(chunk) >= want:
                return chunk  # the usual case: one call fills the request, no copy
            out += chunk
        return bytes(out)

    def close(self) -> None:
        self.raw.close()


class FileSpan(msgspec.Struct, frozen=True):
    """Part of one plain (not ``.gz``) log: the bytes ``[start, end)``, whose first line is
    line ``first_line`` of the file (``end`` ``None``: to the end of the file).

    A span starts at the beginning of a line and ends after a newline, at a point
    where no game is open (see :func:`audits.cluster.plan_spans`), so reading the
    spans of a file one after another gives exactly the games, problems and line
    numbers of reading the file whole.
    """

    path: str
    start: int = 0
    end: Optional[int] = None
    first_line: int = 1


class _Window:
    """Reads the bytes ``[start, end)`` of a file and no more."""

    def __init__(self, span: FileSpan):
        self.f = open(span.path, "rb")
        self.f.seek(span.start)
        self.left = None if span.end is None else span.end - span.start

    def read(self, n: int = -1) -> bytes:
        if self.left is None:
            return self.f.read(n)
        want = self.left if n is None or n < 0 else min(n, self.left)
        out = self.f.read(want)
        self.left -= len(out)
        return out

    def close(self) -> None:
        self.f.close()


def open_source(path: str) -> IO[bytes]:
    """Open a log for binary reading: ``-`` is stdin; ``.gz`` is decompressed (see :class:`GzipStream`)."""
    if path == "-":
        return sys.stdin.buffer
    f = open(path, "rb")
    if path.endswith(".gz"):
        return GzipStream(f)  # type: ignore[return-value]
    return f


CHUNK_BYTES = 1 << 22
#: The UTF-8 byte-order mark some editors put at the start of a file.
UTF8_BOM = b"\xef\xbb\xbf"


def line_blocks(src: IO[bytes], limits: Optional[_limits.Limits] = None, at_start: bool = True) -> Iterator[bytes]:
    """Whole lines in blocks of about :data:`CHUNK_BYTES`, screened by :func:`schema.limits.screen`.

    A line longer than the limit is never held whole: its bytes are skipped as
    they arrive and one rejection marker stands in its place, so the cost is
    linear in its size and the next line is read as usual.  If reading fails
    (a damaged ``.gz``), every whole line before the damage is yielded first,
    then the error is raised.
    """
    lim = limits or _limits.current()
    max_line = lim.max_line_bytes
    rest = b""
    skip: Optional[list] = None  # [bytes skipped so far, head of the line] of an overlong line
    # a UTF-8 byte-order mark at the very start of a file (``at_start``: ``src`` reads from its
    # first byte) is the file's encoding mark, not a line's bytes: it is skipped
    start = at_start

    def skipped(size: int) -> bytes:
        assert skip is not None
        return _limits.marker("too_long", size, max_line, skip[1])

    while True:
        try:
            block = src.read(CHUNK_BYTES)
        except (OSError, EOFError, zlib.error):
            if skip is not None:
                yield skipped(skip[0])
            elif rest:
                yield _limits.screen(rest, lim)
            raise
        if start:
            start = False
            while len(block) < len(UTF8_BOM) and block == UTF8_BOM[:len(block)]:
                more = src.read(CHUNK_BYTES)  # a mark split across reads (a short read)
                if not more:
                    break
                block += more
            if block.startswith(UTF8_BOM):
                block = block[len(UTF8_BOM):]
        if not block:
            if skip is not None:
                yield skipped(skip[0])
            elif rest:
                yield _limits.screen(rest, lim)
            return
        if skip is not None:
            nl = block.find(b"\n")
            if nl < 0:
                skip[0] += len(block)
                continue
            yield skipped(skip[0] + nl) + b"\n"
            skip = None
            block = block[nl + 1:]
            if not block:
                continue
        block = rest + block
        cut = block.rfind(b"\n") + 1
        rest = block[cut:]
        if len(rest) > max_line:
            skip = [len(rest), rest[:_limits.GAME_SEARCH_BYTES]]
            rest = b""
        if cut:
            yield _limits.screen(block[:cut], lim)


def iter_lines(path: str) -> Iterator[tuple[int, Union[Event, LogProblem]]]:
    """Each non-blank line of a log, decoded, with its 1-based line number.

    Blocks of lines decode in one call; a block holding a bad or blank line is
    decoded again line by line, so problems still name their exact line.
    """
    for first, events, items in _blocks(path):
        if events is not None:
            yield from zip(range(first, first + len(events)), events)
        else:
            yield from items


def _blocks(path: str, span: Optional[FileSpan] = None
            ) -> Iterator[tuple[int, Optional[list[Event]], list[tuple[int, Union[Event, LogProblem]]]]]:
    """The log (or the ``span`` of it) in blocks: ``(first line number, events, [])`` for a
    block whose every line is an event, else ``(first, None, [(line number, event or problem), ...])``."""
    name = "<stdin>" if path == "-" else path
    first = 1 if span is None else span.first_line
    src = None
    try:
        src = open_source(path) if span is None or (span.start == 0 and span.end is None) else _Window(span)
        for block in line_blocks(src, at_start=span is None or span.start == 0):
            lines = block.splitlines()
            try:
                events = _decoder.decode_lines(block)
            except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
                events = None
            if events is not None and len(events) == len(lines):
                yield first, events, []
            else:
                yield first, None, [(n, decode_line(raw, name, n))
                                    for n, raw in enumerate(lines, first) if raw.strip()]
            first += len(lines)
    except (OSError, EOFError, zlib.error) as e:  # gzip.BadGzipFile and GzipDamage are OSErrors
        # the file's damage, as a problem on the file (worded as audits.parallel words it)
        yield -1, None, [(-1, LogProblem(name, 0, f"cannot read: {e}"))]
    finally:
        if src is not None and src is not sys.stdin.buffer:
            src.close()


def find_logs(paths: Iterable[Union[str, FileSpan]]) -> Iterator[Union[str, FileSpan]]:
    """Files named, and ``.jsonl``/``.jsonl.gz`` files under folders named, sorted (spans as given)."""
    for p in paths:
        if isinstance(p, FileSpan):
            yield p
        elif p != "-" and os.path.isdir(p):
            found = []
            for root, _dirs, files in os.walk(p):
                for f in files:
                    if f.endswith((".jsonl", ".jsonl.gz")):
                        found.append(os.path.join(root, f))
            yield from sorted(found)
        else:
            yield p


class LogReader:
    """Streams games out of one or more logs.

    Iterate :meth:`games` for :class:`GameLog` objects; problems that belong to
    no game (unreadable files, lines with no game id) collect in ``orphans``.
    A :class:`FileSpan` among ``paths`` reads only that part of its file.
    """

    def __init__(self, paths: Iterable[Union[str, FileSpan]]):
        self.paths = list(paths)
        self.orphans: list[LogProblem] = []

    def games(self) -> Iterator[GameLog]:
        for item in find_logs(self.paths):
            span = item if isinstance(item, FileSpan) else None
            path = span.path if span is not None else item
            name = "<stdin>" if path == "-" else path
            if path != "-" and not os.path.exists(path):
                if span is None or span.start == 0:  # a file's problem is reported once, by its first span
                    self.orphans.append(LogProblem(name, 0, "no such file"))
                continue
            yield from self._games_in(path, name, span)

    def _games_in(self, path: str, name: str, span: Optional[FileSpan] = None) -> Iterator[GameLog]:
        open_games: dict[str, GameLog] = {}
        get = open_games.get
        closed_type = GameClosed
        for first, events, items in _blocks(path, span):
            if events is not None:
                yield from self._clean_block(open_games, name, first, events)
                continue
            for n, item in items:
                if type(item) is LogProblem:
                    self._problem(open_games, name, n, item)
                    continue
                log = get(item.game)
                if log is None:
                    log = open_games[item.game] = GameLog(item.game, name)
                if log.problem is None:
                    log.events.append(item)
                    log.lines.append(n)
                if type(item) is closed_type:
                    log.closed = True
                    yield open_games.pop(item.game)
        yield from open_games.values()

    @staticmethod
    def _clean_block(open_games: dict[str, GameLog], name: str, first: int, events: list[Event]
                     ) -> Iterator[GameLog]:
        """A block with no problem line: the same grouping as the line-by-line loop, done
        a run of consecutive lines of one game at a time (a game's lines are usually
        consecutive), each run cut after a ``GameClosed``."""
        types = list(map(type, events))
        closes = []
        i = -1
        try:
            while True:
                i = types.index(GameClosed, i + 1)
                closes.append(i + 1)
        except ValueError:
            pass
        closes.append(len(events) + 1)
        c = 0  # the next cut after a GameClosed
        start = 0
        for game, run in groupby(map(attrgetter("game"), events)):
            end = start + len(list(run))
            while start < end:
                stop = min(end, closes[c])
                log = open_games.get(game)
                if log is None:
                    log = open_games[game] = GameLog(game, name)
                if log.problem is None:
                    log.events.extend(events[start:stop])
                    log.lines.extend(range(first + start, first + stop))
                if stop == closes[c]:
                    c += 1
                    log.closed = True
                    yield open_games.pop(game)
                start = stop

    def _problem(self, open_games: dict[str, GameLog], name: str, n: int, item: LogProblem) -> None:
        if item.game is None or n < 0:
            self.orphans.append(item)
            return
        log = open_games.get(item.game)
        if log is None:
            log = open_games[item.game] = GameLog(item.game, name)
        if log.problem is None:
            log.problem = item


def read_games(paths: Iterable[str]) -> tuple[list[GameLog], list[LogProblem]]:
    """Read every game of ``paths`` into memory (for tests and small inputs)."""
    reader = LogReader(paths)
    games = list(reader.games())
    return games, reader.orphans


#: one encoder for :func:`encode_events` (msgspec encoders are reusable and stateless)
_LINES_ENCODER = msgspec.json.Encoder()


def encode_events(events: Iterable[Event]) -> bytes:
    """Encode events as JSON lines (each event's JSON, then a newline)."""
    return _LINES_ENCODER.encode_lines(events)


__all__ = [
    "FileSpan", "GameLog", "LogProblem", "LogReader", "decode_line", "encode_events",
    "find_logs", "iter_lines", "open_source", "read_games", "GameOpened",
]
