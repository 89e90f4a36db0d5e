"""Bounded work per input: limits checked on raw bytes before any line is decoded.

A hostile or broken log must never hang paipu or crash its decoder.  Every line
passes these checks before msgspec sees it:

* **Line length** (:attr:`Limits.max_line_bytes`): a longer line is skipped
  without being held in memory whole; its place is kept, so it is reported as
  ``file:line: line too long`` and the next line is read as usual.
* **Nesting depth** (:attr:`Limits.max_depth`): JSON nested deeper than a real
  event ever is (an event is at most 4 levels deep) would exhaust the decoder's
  recursion; such a line is reported, not decoded.

String and list lengths, seat counts and integer ranges are bounded by the schema
itself (``schema.events``: msgspec ``Meta`` constraints, checked as the line is
decoded, so a bad value costs no more than reading it).

A line that fails a limit is replaced, in the block of lines handed to the
decoders, by a one-line *rejection marker* (``{"paipu_rejected": …}``) that keeps
the line count, names the game when the line's ``"game"`` field can be found
cheaply, and turns into the right :class:`~schema.reader.LogProblem` in
:func:`schema.reader.decode_line`.  Every check is linear in the size of the
block: overlong lines are found by jumping from newline to newline at most
``max_line_bytes`` apart, and only lines with many brackets get an exact depth
count.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from itertools import accumulate
from typing import Mapping, Optional

import msgspec

#: Default longest line (bytes).  A real event is under 2 KB (a HandStarted with its
#: 136-tile wall is about 1 KB).
DEFAULT_MAX_LINE_BYTES = 1 << 20
#: Default deepest nesting of arrays and objects in one line (a real event: 4).
DEFAULT_MAX_DEPTH = 32
#: How far into a rejected line to look for its ``"game"`` field.
GAME_SEARCH_BYTES = 1 << 16


@dataclass(frozen=True)
class Limits:
    """The bounds every input line is held to (see the module docs)."""

    max_line_bytes: int = DEFAULT_MAX_LINE_BYTES
    max_depth: int = DEFAULT_MAX_DEPTH

    def __post_init__(self) -> None:
        if self.max_line_bytes < 1024:
            raise ValueError("the line length limit must be at least 1024 bytes")
        if not 8 <= self.max_depth <= 256:
            raise ValueError("the nesting limit must be between 8 and 256")


DEFAULT_LIMITS = Limits()

#: Environment variables that set the limits for every command and every worker
#: process (which inherit the environment): bytes per line, nesting levels.
ENV_MAX_LINE_BYTES = "PAIPU_MAX_LINE_BYTES"
ENV_MAX_DEPTH = "PAIPU_MAX_DEPTH"


def from_env(env: Optional[Mapping[str, str]] = None) -> Limits:
    """The limits the environment asks for (defaults for unset variables).

    Raises ``ValueError`` with one sentence for a value that is not a number in range.
    """
    env = os.environ if env is None else env
    kw = {}
    for var, name in ((ENV_MAX_LINE_BYTES, "max_line_bytes"), (ENV_MAX_DEPTH, "max_depth")):
        text = env.get(var)
        if text:
            try:
                kw[name] = int(text)
            except ValueError:
                raise ValueError(f"{var}={text!r} is not a whole number") from None
    try:
        return Limits(**kw)
    except ValueError as e:
        raise ValueError(f"{e} ({ENV_MAX_LINE_BYTES} / {ENV_MAX_DEPTH})") from None


_current: list[Optional[Limits]] = [None]


def current() -> Limits:
    """The limits in force: set by :func:`set_limits`, else from the environment, else the defaults.

    A malformed environment value falls back to the defaults here (the commands
    check it first with :func:`from_env` and report it).
    """
    lim = _current[0]
    if lim is None:
        try:
            lim = from_env()
        except ValueError:
            lim = DEFAULT_LIMITS
        _current[0] = lim
    return lim


def set_limits(limits: Optional[Limits]) -> Optional[Limits]:
    """Make ``limits`` the ones in force for this process (``None``: back to the environment's);
    returns the previous ones."""
    old = _current[0]
    _current[0] = limits
    return old


# --- the rejection marker ----------------------------------------------------------

_MARK = b'{"paipu_rejected":'


class Rejected(msgspec.Struct, forbid_unknown_fields=True):
    """The marker a rejected line is replaced by (one line, so line numbers hold)."""

    paipu_rejected: str  # "too_long" or "too_deep"
    size: int
    limit: int
    game: Optional[str] = None


_mark_enc = msgspec.json.Encoder()
_mark_dec = msgspec.json.Decoder(Rejected)

# the first "game": "…" field of a line (a short id, escapes allowed)
_GAME = re.compile(rb'"game"\s*:\s*"((?:[^"\\\n]|\\.){0,256})"')


def game_hint(raw: bytes) -> Optional[str]:
    """The line's ``"game"`` value if it appears, short, near the start; else ``None``."""
    m = _GAME.search(raw, 0, GAME_SEARCH_BYTES)
    if m is None:
        return None
    try:
        return msgspec.json.decode(b'"' + m.group(1) + b'"', type=str)
    except msgspec.DecodeError:
        return None


def marker(kind: str, size: int, limit: int, head: bytes) -> bytes:
    """The one-line marker for a rejected line (``head``: its first bytes, to find the game)."""
    return _mark_enc.encode(Rejected(kind, size, limit, game_hint(head)))


def rejection(raw: bytes) -> Optional[Rejected]:
    """The marker ``raw`` is, or ``None`` for any other line."""
    if not raw.startswith(_MARK):
        return None
    try:
        return _mark_dec.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def describe(r: Rejected) -> str:
    """The one-sentence problem for a rejected line."""
    if r.paipu_rejected == "too_long":
        return (f"line too long: {r.size:,} bytes, over the limit of {r.limit:,} "
                f"(raise it with {ENV_MAX_LINE_BYTES}, or --max-line-bytes of paipu ingest); the line was skipped")
    return f"JSON nested deeper than {r.limit} levels (a log event is at most 4); the line was skipped"


# --- nesting depth -------------------------------------------------------------------

# a JSON string, escapes included (unrolled: linear, no backtracking)
_STRING = re.compile(rb'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')
_NOT_BRACKET = re.compile(rb'[^\[\]{}]+')
_STEP = [0] * 256
_STEP[ord("[")] = _STEP[ord("{")] = 1
_STEP[ord("]")] = _STEP[ord("}")] = -1


def depth(raw: bytes) -> int:
    """How deep arrays and objects nest in one line (brackets inside strings do not count)."""
    brackets = _NOT_BRACKET.sub(b"", _STRING.sub(b"", raw))
    if not brackets:
        return 0
    return max(accumulate(map(_STEP.__getitem__, brackets)))


# every byte but the opening brackets and the newline, to delete: what is left of a block
# is one run of opening brackets per line, whose length bounds the line's depth
_KEEP_OPENS = bytes(b for b in range(256) if b not in b"[{\n")


def too_deep(raw: bytes, max_depth: int) -> bool:
    """Whether one line nests deeper than ``max_depth``."""
    if raw.count(b"[") + raw.count(b"{") <= max_depth:
        return False
    return depth(raw) > max_depth


def screen(block: bytes, limits: Optional[Limits] = None) -> bytes:
    """``block`` (whole lines) with every line that breaks a limit replaced by its marker."""
    lim = limits or current()
    max_line, max_depth = lim.max_line_bytes, lim.max_depth
    bad: list[tuple[int, int, bytes]] = []  # (start, end, marker) of each rejected line
    size = len(block)
    if size > max_line:
        # jump newline to newline, at most max_line apart: a window with no newline is a long line
        pos = 0
        while size - pos > max_line:
            nl = block.rfind(b"\n", pos, pos + max_line + 1)
            if nl >= 0:
                pos = nl + 1
                continue
            end = block.find(b"\n", pos)
            end = size if end < 0 else end
            bad.append((pos, end, marker("too_long", end - pos, max_line, block[pos:pos + GAME_SEARCH_BYTES])))
            pos = end + 1
    # deep lines: a line with at most max_depth opening brackets cannot nest deeper; the
    # few lines with more get an exact count
    opens = block.translate(None, _KEEP_OPENS)
    run = re.compile(rb"[^\n]{%d}" % (max_depth + 1))
    if run.search(opens) is not None:
        starts = {s for s, _e, _m in bad}
        pos = 0
        for line in block.split(b"\n"):
            end = pos + len(line)
            if pos not in starts and too_deep(line, max_depth):
                bad.append((pos, end, marker("too_deep", len(line), max_depth, line)))
            pos = end + 1
    if not bad:
        return block
    bad.sort()
    out = bytearray()
    pos = 0
    for start, end, mark in bad:
        out += block[pos:start]
        out += mark
        pos = end
    out += block[pos:]
    return bytes(out)


__all__ = ["DEFAULT_LIMITS", "DEFAULT_MAX_DEPTH", "DEFAULT_MAX_LINE_BYTES", "ENV_MAX_DEPTH", "ENV_MAX_LINE_BYTES",
           "Limits", "from_env", "Rejected", "current",
           "depth", "describe", "game_hint", "marker", "rejection", "screen", "set_limits", "too_deep"]
