"""Reading logs: ``.jsonl``, ``.jsonl.gz`` and stdin, streamed, one game at a time.

A line that is not JSON, or does not match the schema, becomes a
:class:`LogProblem` naming file, line and field; it never stops the other games.
Games may be interleaved in one file: each is handed out when its
``GameClosed`` arrives, or at the end of input (then it is *truncated*).
"""

from __future__ import annotations

import gzip
import os
import sys
import zlib
from dataclasses import dataclass, field
from itertools import groupby
from operator import attrgetter
from typing import IO, Iterable, Iterator, Optional, Union

import msgspec

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


def _explain(err: msgspec.ValidationError) -> tuple[str, Optional[str]]:
    text = str(err)
    message, sep, path = text.partition(" - at `")
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


def decode_line(raw: bytes, file: str, line: int) -> Union[Event, LogProblem]:
    """Decode one log line into an event, or a problem naming file, line and field."""
    try:
        return _decoder.decode(raw)
    except msgspec.ValidationError as e:
        message, fld = _explain(e)
        try:
            game = _game_decoder.decode(raw).game
        except (msgspec.DecodeError, msgspec.ValidationError):
            game = None
        return LogProblem(file, line, message, game=game, field=fld)
    except msgspec.DecodeError as e:
        return LogProblem(file, line, f"not JSON ({e})")


def open_source(path: str) -> IO[bytes]:
    """Open a log for binary reading: ``-`` is stdin; ``.gz`` is decompressed."""
    if path == "-":
        return sys.stdin.buffer
    f = open(path, "rb")
    if path.endswith(".gz"):
        return gzip.GzipFile(fileobj=f)  # type: ignore[return-value]
    return f


CHUNK_BYTES = 1 << 22


def line_blocks(src: IO[bytes]) -> Iterator[bytes]:
    """Whole lines in blocks of about :data:`CHUNK_BYTES`."""
    rest = b""
    while True:
        block = src.read(CHUNK_BYTES)
        if not block:
            if rest:
                yield rest
            return
        block = rest + block
        cut = block.rfind(b"\n") + 1
        if cut == 0:
            rest = block
            continue
        rest = block[cut:]
        yield block[:cut]


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


def _blocks(path: str) -> Iterator[tuple[int, Optional[list[Event]], list[tuple[int, Union[Event, LogProblem]]]]]:
    """The log in blocks: ``(first line number, events, [])`` for a block whose every
    line is an event, else ``(first, None, [(line number, event or problem), ...])``."""
    name = "<stdin>" if path == "-" else path
    src = open_source(path)
    first = 1
    try:
        for block in line_blocks(src):
            lines = block.splitlines()
            try:
                events = _decoder.decode_lines(block)
            except (msgspec.ValidationError, msgspec.DecodeError):
                events = None
            if events is not None and len(events) == len(lines):
                yield first, events, []
            else:
                yield first, None, [(n, decode_line(raw, name, n))
                                    for n, raw in enumerate(lines, first) if raw.strip()]
            first += len(lines)
    except (OSError, EOFError, gzip.BadGzipFile, zlib.error) as e:
        yield -1, None, [(-1, LogProblem(name, 0, f"cannot read: {e}"))]
    finally:
        if src is not sys.stdin.buffer:
            src.close()


def find_logs(paths: Iterable[str]) -> Iterator[str]:
    """Files named, and ``.jsonl``/``.jsonl.gz`` files under folders named, sorted."""
    for p in paths:
        if p != "-" and os.path.isdir(p):
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
    """

    def __init__(self, paths: Iterable[str]):
        self.paths = list(paths)
        self.orphans: list[LogProblem] = []

    def games(self) -> Iterator[GameLog]:
        for path in find_logs(self.paths):
            name = "<stdin>" if path == "-" else path
            if path != "-" and not os.path.exists(path):
                self.orphans.append(LogProblem(name, 0, "no such file"))
                continue
            yield from self._games_in(path, name)

    def _games_in(self, path: str, name: str) -> Iterator[GameLog]:
        open_games: dict[str, GameLog] = {}
        get = open_games.get
        closed_type = GameClosed
        for first, events, items in _blocks(path):
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


def encode_events(events: Iterable[Event]) -> bytes:
    """Encode events as JSON lines."""
    enc = msgspec.json.Encoder()
    buf = bytearray()
    for e in events:
        enc.encode_into(e, buf, len(buf))
        buf.extend(b"\n")
    return bytes(buf)


__all__ = [
    "GameLog", "LogProblem", "LogReader", "decode_line", "encode_events",
    "find_logs", "iter_lines", "open_source", "read_games", "GameOpened",
]
