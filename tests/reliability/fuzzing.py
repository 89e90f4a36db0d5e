"""A seeded fuzzer over malformed and hostile log input.

Each input is a log of a few games of the corpus (built games and every game of
every sample log under ``sample_logs/``: every family's folder, clean and faulty);
one of them (the *victim*, id ``victim-…``) is damaged by one or more operators:
byte flips, truncation, field removal, wrong types, huge numbers, deep nesting,
long strings, invalid UTF-8, odd seat and list counts, duplicated, dropped,
reordered and transplanted lines, interleaving; or the whole file is cut short or
gzipped and damaged.

Every input is read, replayed and audited in this process through the entry
points ``paipu audit`` uses (:func:`read_and_audit`, reading the file once);
sampled inputs also go through a real DuckDB ingest (batched), the Python row
derivation, the text report, and the command line in a subprocess.  The checks
are the issue's promises:

* no exception escapes (a *traceback*: the command line's exit 3);
* no internal error: no ``INTERNAL_ERROR`` finding (paipu's own failure, exit 3
  on the command line), no ``STRUCTURAL_BREAK`` saying "internal error", no
  ingest row failure, no exit 3 from the command line (an *internal error*);
* no input works longer than the per-input CPU limit or waits past the clock
  limit (a *hang*);
* every game not touched by the damage audits exactly as it does alone in a
  file of its own (the same findings, completeness and corrected ledger) (a
  *mismatch*).

``run(n, seed)`` is used by the CI test (a few hundred inputs) and by
``bench/fuzz.py N`` for long runs (worker processes, a resumable journal).
"""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Optional

from audits import audit_game
from schema.reader import LogReader

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# --- the corpus ------------------------------------------------------------------------------

#: Every sample log below this folder is read, whatever its family or folder (clean or faulty):
#: a family whose samples land there joins the fuzz without a change here.
SAMPLES = os.path.join(ROOT, "sample_logs")


def sample_files(root: str = SAMPLES) -> list[str]:
    """Every log (``.jsonl``, ``.jsonl.gz``) below ``root``, in a fixed order."""
    out = []
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        out += [os.path.join(folder, n) for n in sorted(files) if n.endswith((".jsonl", ".jsonl.gz"))]
    return out


def corpus_games(root: str = SAMPLES) -> list[list[dict]]:
    """The games inputs are made of, as lists of event dicts: small built games, then every game of
    every sample log below ``root`` (lines that are not a JSON object naming its game are left out)."""
    from tests.audits.helpers import selfdraw_game
    from tests.paipu.test_store import dianji_game

    games = [selfdraw_game("x"), dianji_game("x"), dianji_game("x", seats=("E", "F", "G", "H"))]
    out = [[json.loads(x) for x in b.jsonl().splitlines()] for b in games]
    for path in sample_files(root):
        with (gzip.open if path.endswith(".gz") else open)(path, "rb") as f:
            raw = f.read().splitlines()
        by_game: dict[str, list[dict]] = {}
        for x in raw:
            d = _loads(x)
            if isinstance(d, dict) and isinstance(d.get("game"), str):
                by_game.setdefault(d["game"], []).append(d)
        out.extend(by_game.values())
    return out


def family_of_game(game: list[dict]) -> str:
    """The rule family of a corpus game (from its ``GameOpened`` preset), ``"unknown"`` without one."""
    from schema.ruleset import resolve

    opened = next((d for d in game if d.get("type") == "GameOpened"), None)
    try:
        return str(resolve(opened["preset"], opened.get("options") or None).family)  # type: ignore[index]
    except Exception:
        try:
            return str(resolve(opened["preset"]).family)  # type: ignore[index]
        except Exception:
            return "unknown"


#: The game id in the cached lines of a corpus game, replaced by each input's own id
#: (a JSON string no log holds: ``\u0000`` is not a character of any id).
_ID_TOKEN = json.dumps("\x00fuzz-game-id\x00").encode()


def _id_free_lines(game: list[dict]) -> list[bytes]:
    return [json.dumps({**d, "game": "\x00fuzz-game-id\x00"}, ensure_ascii=False, separators=(",", ":")).encode()
            for d in game]


def _with_id(lines: list[bytes], gid: str) -> list[bytes]:
    """A corpus game's lines (from :func:`_id_free_lines`) under the game id ``gid``: the bytes
    ``json.dumps`` gives for the events with that id."""
    token = json.dumps(gid, ensure_ascii=False).encode()
    return [x.replace(_ID_TOKEN, token) for x in lines]


# --- the operators on one line (bytes without its newline) ----------------------------------

Rng = random.Random


def _loads(raw: bytes) -> Any:
    """The line decoded by the standard library, or ``None`` (not JSON, or too deep for it)."""
    try:
        d = json.loads(raw)
        _json_paths(d)
    except (ValueError, RecursionError):
        return None
    return d


def _json_paths(v: Any, path: tuple = ()) -> list[tuple]:
    """Every path to a value inside a decoded JSON line."""
    out = [path]
    if isinstance(v, dict):
        for k, x in v.items():
            out += _json_paths(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            out += _json_paths(x, path + (i,))
    return out


def _edit_json(raw: bytes, rng: Rng, fn: Callable[[Any, Rng], Any], remove: bool = False) -> bytes:
    d = _loads(raw)
    if d is None:
        return raw
    paths = [p for p in _json_paths(d) if p]
    if not paths:
        return raw
    p = rng.choice(paths)
    parent = d
    for k in p[:-1]:
        parent = parent[k]
    if remove:
        del parent[p[-1]]
    else:
        parent[p[-1]] = fn(parent[p[-1]], rng)
    return _dumps(d)


def _encode_raw(raw: bytes, rng: Rng, token: bytes) -> bytes:
    """Put a raw JSON token (possibly not valid JSON) in place of one value."""
    marker = "\x00FUZZ\x00"
    edited = _edit_json(raw, rng, lambda _v, _r: marker)
    return edited.replace(json.dumps(marker).encode(), token)


def op_flip(raw: bytes, rng: Rng) -> bytes:
    b = bytearray(raw)
    for _ in range(rng.randint(1, 4)):
        if b:
            b[rng.randrange(len(b))] ^= rng.randint(1, 255)
    return bytes(b)


def op_truncate(raw: bytes, rng: Rng) -> bytes:
    return raw[:rng.randrange(len(raw) + 1)]


def op_remove_field(raw: bytes, rng: Rng) -> bytes:
    return _edit_json(raw, rng, lambda v, r: v, remove=True)


_WRONG = ["", "x", 0, 1, -1, 1.5, True, False, None, [], {}, [1, 2], {"a": 1}, "1m", "9z", "0m", "10m"]


def op_wrong_type(raw: bytes, rng: Rng) -> bytes:
    return _edit_json(raw, rng, lambda v, r: r.choice(_WRONG))


_HUGE = [b"2147483648", b"-2147483649", b"4294967296", b"9223372036854775807", b"9223372036854775808",
         b"-9223372036854775809", b"1" + b"0" * 400, b"1e308", b"-1e400", b"1e-400", b"-0", b"NaN", b"Infinity",
         b"0.0000001", b"3.0", b"007"]


def op_huge_number(raw: bytes, rng: Rng) -> bytes:
    return _encode_raw(raw, rng, rng.choice(_HUGE))


def op_deep(raw: bytes, rng: Rng) -> bytes:
    n = rng.choice([20, 33, 100, 999, 1001, 5000, 20000])
    o, c = (b"[", b"]") if rng.random() < 0.5 else (b'{"a":', b"}")
    inner = o * n + b"1" + c * n if o == b'{"a":' else o * n + c * n
    if rng.random() < 0.2:
        inner = inner[: len(inner) // 2]  # unbalanced, not JSON
    return _encode_raw(raw, rng, inner)


def op_long_string(raw: bytes, rng: Rng) -> bytes:
    n = rng.choice([300, 5000, 70000, 1_100_000])
    return _encode_raw(raw, rng, b'"' + bytes([rng.choice(b"abc1m\xe9")]).replace(b"\xe9", b"e") * n + b'"')


_BAD_UTF8 = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80\x80", b"\xe2\x82", b"\xc0\xaf"]


def op_invalid_utf8(raw: bytes, rng: Rng) -> bytes:
    quotes = [i for i, c in enumerate(raw) if c == 0x22]
    if not quotes:
        return raw
    i = rng.choice(quotes) + 1
    return raw[:i] + rng.choice(_BAD_UTF8) + raw[i:]


def op_list_count(raw: bytes, rng: Rng) -> bytes:
    """Resize one list (seats, wall, hands, scores, tiles…) to an odd length."""
    d = _loads(raw)
    if d is None:
        return raw
    lists = [p for p in _json_paths(d) if p and isinstance(_get(d, p), list)]
    if not lists:
        return raw
    p = rng.choice(lists)
    v = _get(d, p)
    n = rng.choice([0, 1, 2, 5, 8, 135, 137, 300])
    filler = v[0] if v else "1m"
    new = (v * (n // max(1, len(v)) + 1))[:n] if v else [filler] * n
    parent = _get(d, p[:-1])
    parent[p[-1]] = new
    return _dumps(d)


def _dumps(d: Any) -> bytes:
    try:
        return json.dumps(d, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "surrogatepass")
    except (ValueError, RecursionError):
        return b"{}"


def _get(d: Any, p: tuple) -> Any:
    for k in p:
        d = d[k]
    return d


def op_seat(raw: bytes, rng: Rng) -> bytes:
    d = _loads(raw)
    if d is None:
        return raw
    if not isinstance(d, dict):
        return raw
    keys = [k for k in ("seat", "from_seat", "dealer", "creator") if k in d]
    if not keys:
        return op_wrong_type(raw, rng)
    d[rng.choice(keys)] = rng.choice([-1, 3, 4, 5, 255, 2 ** 31])
    return _dumps(d)


def op_type_swap(raw: bytes, rng: Rng) -> bytes:
    """Give the line another event type (its fields then fit the wrong schema, or by chance a right one)."""
    types = ["GameOpened", "RoomResized", "HandStarted", "TilesDealt", "TailTurned", "TileDrawn", "TileDiscarded",
             "HandWon", "HandDrawn", "HandSettled", "GameClosed", "KongAdded", "Ponged", "FeeCharged", "Nope"]
    d = _loads(raw)
    if d is None:
        return raw
    if not isinstance(d, dict):
        return raw
    d["type"] = rng.choice(types)
    return _dumps(d)


def op_junk(raw: bytes, rng: Rng) -> bytes:
    return rng.choice([b"", b"   ", b"\x00" * 10, b"\xef\xbb\xbf" + raw, b"[]", b"null", b"{}", b"{" * 50,
                       raw + b"}", raw + b" " + raw, b'{"game":' + b'"' * 3, b"\r"])


LINE_OPS: dict[str, Callable[[bytes, Rng], bytes]] = {
    "flip": op_flip, "truncate": op_truncate, "remove_field": op_remove_field, "wrong_type": op_wrong_type,
    "huge_number": op_huge_number, "deep": op_deep, "long_string": op_long_string,
    "invalid_utf8": op_invalid_utf8, "list_count": op_list_count, "seat": op_seat, "type_swap": op_type_swap,
    "junk": op_junk,
}

#: Operators on the victim's lines as a whole (order, count) or on the whole file; ``transplant``
#: puts a line of another corpus game (any family) into the victim, renamed and renumbered to
#: fit: a well-formed event where the table does not expect it (a second opening, a hand event
#: before its hand, a Sichuan event in a Qujing room …).
STREAM_OPS = ("duplicate", "drop", "swap", "interleave", "transplant")
FILE_OPS = ("file_cut", "gzip_cut", "gzip_flip", "gzip_no_trailer", "gzip_members")


# --- one input -------------------------------------------------------------------------------


@dataclass
class Case:
    """One fuzz input: the file's bytes, how it was made, and the games that must be untouched."""

    data: bytes
    ops: list[str]
    gz: bool
    keep: dict[str, tuple]  # untouched game id -> its audit alone (see signature)
    victim: str
    family: str = "unknown"  # the rule family of the damaged game


@dataclass
class Tally:
    """What a run found (two tallies add up with :meth:`add`)."""

    inputs: int = 0
    tracebacks: int = 0
    internal_errors: int = 0
    hangs: int = 0
    mismatches: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # this process's CPU time over the run (DuckDB's threads included)
    ingested: int = 0  # inputs that also went through a real DuckDB ingest
    cli_runs: int = 0  # inputs that also went through the command line in a subprocess
    slowest: float = 0.0  # CPU seconds of the slowest input
    slowest_label: str = ""
    ops: dict[str, int] = field(default_factory=dict)
    families: dict[str, int] = field(default_factory=dict)  # damaged games by rule family
    failures: list[str] = field(default_factory=list)  # seed and what went wrong, for replaying one input

    @property
    def bad(self) -> int:
        return self.tracebacks + self.internal_errors + self.hangs + self.mismatches

    def add(self, other: "Tally") -> None:
        """Add ``other``'s counts to this tally (a run split over processes; ``seconds`` is left alone)."""
        for name in ("inputs", "tracebacks", "internal_errors", "hangs", "mismatches", "cpu_seconds", "ingested",
                     "cli_runs"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        if other.slowest > self.slowest:
            self.slowest, self.slowest_label = other.slowest, other.slowest_label
        for mine, theirs in ((self.ops, other.ops), (self.families, other.families)):
            for k, v in theirs.items():
                mine[k] = mine.get(k, 0) + v
        self.failures += other.failures


class Hang(BaseException):
    """An input ran past the per-input limit.  A :class:`BaseException`, so that no
    ``except Exception`` in paipu (which turns a failure into an ``INTERNAL_ERROR``
    finding and goes on) can swallow it: a hang is always counted as a hang."""


class Fuzzer:
    """Builds inputs from the corpus and checks paipu on each (see the module docs).

    ``per_input_seconds`` bounds each input's CPU time (the machine may be shared: CPU time,
    not the clock, says how long paipu worked on it); ``wall_seconds`` bounds its time on the
    clock (an input blocked, not working).  Every input is read and audited as ``paipu audit``
    reads and audits it.  ``ingest_every`` M: every M-th input's file also goes through a real
    DuckDB ingest (``paipu.store.ingest``, the batched derivation ``paipu ingest`` runs),
    ``ingest_batch`` files per ingest (one ingest's fixed cost shared by many inputs), and its
    games' rows are derived in Python too (``game_rows``).
    ``cli_every`` K: every K-th input also goes through ``paipu audit`` and ``paipu ingest``
    in a subprocess (the command line's own error handling and exit codes).  ``report_every``
    R: every R-th input's audits are also written as the text report (the rich tables cost
    more than the audit).  ``tmp_root``:
    where the work folder is made (a memory-backed one if there is one)."""

    def __init__(self, seed: int, *, per_input_seconds: float = 10.0, ingest_every: int = 0, ingest_batch: int = 50,
                 wall_seconds: Optional[float] = None, cli_every: int = 0, report_every: int = 1,
                 tmp_root: Optional[str] = None):
        self.seed = seed
        self.corpus = corpus_games()
        self.lines = [_id_free_lines(g) for g in self.corpus]
        self.families = [family_of_game(g) for g in self.corpus]
        self.small = [k for k in range(len(self.corpus)) if len(self.corpus[k]) < 40]
        self.per_input_seconds = per_input_seconds
        self.wall_seconds = wall_seconds if wall_seconds is not None else max(60.0, 10 * per_input_seconds)
        self.ingest_every = ingest_every
        self.ingest_batch = ingest_batch
        self.cli_every = cli_every
        self.report_every = report_every
        self._ledgers: dict[int, tuple] = {}
        self._pending: list[tuple[str, str]] = []  # files waiting for the next DuckDB ingest, with their labels
        self._store: Any = None
        self._store_uses = 0
        if tmp_root is None and os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
            tmp_root = "/dev/shm"
        self.tmp = tempfile.mkdtemp(prefix="paipu-fuzz-", dir=tmp_root)

    def baseline(self, k: int) -> tuple:
        """What corpus game ``k`` audits to alone, read from a file of its own as every input is:
        its findings (without file, line and id), completeness and corrected ledger."""
        if k not in self._ledgers:
            path = os.path.join(self.tmp, "alone.jsonl")
            with open(path, "wb") as f:
                f.write(b"".join(x + b"\n" for x in _with_id(self.lines[k], "alone")))
            audits, _orphans, _failed = read_and_audit(path)
            alone = [a for a in audits if a.game == "alone"]
            self._ledgers[k] = signature(alone[0]) if alone else ("not read alone",)
        return self._ledgers[k]

    def warm(self) -> None:
        """Audit every corpus game alone now (else each is audited the first time an input uses it)."""
        for k in range(len(self.corpus)):
            self.baseline(k)

    def make(self, i: int) -> Case:
        rng = random.Random(f"{self.seed}:{i}")
        # the damaged game: mostly a small one (fast), one in seven any game of the corpus (a long
        # sample game: damage deep into a game); beside it one to three untouched games, mostly small
        def pick(p_small: float) -> int:
            return rng.choice(self.small) if rng.random() < p_small else rng.randrange(len(self.corpus))

        n_keep = rng.choice((1, 1, 1, 2, 2, 3))
        keep_idx = [pick(0.95) for _ in range(n_keep)]
        victim_idx = pick(6 / 7)
        victim = f"victim-{i}"
        keeps = {f"keep-{i}-{j}": k for j, k in enumerate(keep_idx)}
        games = {g: _with_id(self.lines[k], g) for g, k in keeps.items()}
        vlines = _with_id(self.lines[victim_idx], victim)
        ops: list[str] = []
        roll = rng.random()
        if roll < 0.12:
            op = rng.choice(STREAM_OPS)
            ops.append(op)
            vlines = self._transplant(vlines, victim, rng) if op == "transplant" else \
                self._stream_op(op, vlines, rng)
        else:
            for _ in range(1 if rng.random() < 0.8 else rng.randint(2, 4)):
                name = rng.choice(list(LINE_OPS))
                ops.append(name)
                j = rng.randrange(len(vlines))
                vlines[j] = LINE_OPS[name](vlines[j], rng)
        # lay the games out: whole games one after another, or interleaved line by line
        order = list(games.items()) + [(victim, vlines)]
        rng.shuffle(order)
        if rng.random() < 0.3:
            ops.append("interleaved")
            out: list[bytes] = []
            queues = [list(ls) for _g, ls in order]
            while any(queues):
                q = rng.choice([q for q in queues if q])
                out.append(q.pop(0))
        else:
            out = [x for _g, ls in order for x in ls]
        data = b"".join(x + b"\n" for x in out)
        keep = {g: self.baseline(k) for g, k in keeps.items()}
        gz = False
        if rng.random() < 0.1:
            op = rng.choice(FILE_OPS)
            ops.append(op)
            data, keep, gz = self._file_op(op, data, out, keep, rng)
        return Case(data, ops, gz, keep, victim, self.families[victim_idx])

    def _transplant(self, lines: list[bytes], victim: str, rng: Rng) -> list[bytes]:
        """One line of a random corpus game, as the victim's, inserted anywhere; the victim's
        lines renumbered so the sequence runs on (the table, not the numbering, is tested)."""
        donor = rng.choice(self.corpus)
        line = dict(rng.choice(donor), game=victim)
        out = [json.loads(x) for x in lines]
        out.insert(rng.randrange(len(out) + 1), line)
        return [json.dumps(dict(d, seq=i), ensure_ascii=False, separators=(",", ":")).encode()
                for i, d in enumerate(out)]

    @staticmethod
    def _stream_op(op: str, lines: list[bytes], rng: Rng) -> list[bytes]:
        lines = list(lines)
        j = rng.randrange(len(lines))
        if op == "duplicate":
            lines.insert(j, lines[j])
        elif op == "drop":
            del lines[j]
        elif op == "swap":
            k = rng.randrange(len(lines))
            lines[j], lines[k] = lines[k], lines[j]
        else:  # interleave the victim with itself: a shuffled tail
            tail = lines[j:]
            rng.shuffle(tail)
            lines[j:] = tail
        return lines

    @staticmethod
    def _file_op(op: str, data: bytes, lines: list[bytes], keep: dict, rng: Rng) -> tuple[bytes, dict, bool]:
        def whole_before(n: int) -> dict:
            # games whose every line ends within the first n bytes keep their promise
            ends: dict[str, int] = {}
            pos = 0
            for x in lines:
                pos += len(x) + 1
                d = _loads(x)
                if not isinstance(d, dict):
                    continue
                g = d.get("game")
                if isinstance(g, str):
                    ends[g] = pos
            return {g: v for g, v in keep.items() if ends.get(g, 1 << 62) <= n}

        if op == "file_cut":
            n = rng.randrange(len(data) + 1)
            return data[:n], whole_before(n), False
        if op == "gzip_members":  # several gzip members one after another: whole, nothing damaged
            cuts = sorted(rng.randrange(len(data) + 1) for _ in range(rng.randint(1, 3)))
            parts = [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)])]
            return b"".join(gzip.compress(p_) for p_ in parts), keep, True
        z = gzip.compress(data, compresslevel=rng.choice([1, 6, 9]))
        if op == "gzip_no_trailer":
            return z[:-rng.choice([1, 4, 8])], keep, True
        if op == "gzip_cut":
            z = z[:rng.randrange(10, len(z))]
        else:
            b = bytearray(z)
            b[rng.randrange(10, len(b))] ^= rng.randint(1, 255)
            z = bytes(b)
        d = zlib.decompressobj(31)
        try:
            got = d.decompress(z)
        except zlib.error:
            got = b""  # conservatively: nothing is promised past damage the decompressor could not pass
        # a flipped bit can inflate to wrong bytes before the CRC catches it: promise only the
        # games within the prefix that came out exactly as written
        same = 0
        step = 4096
        while same < len(got) and got[same:same + step] == data[same:same + step]:
            same += step
        while same < len(got) and same < len(data) and got[same] == data[same]:
            same += 1
        return z, whole_before(min(same, len(got))), True

    # -- running one input --------------------------------------------------------------------

    def check(self, i: int, tally: Tally) -> None:
        """Make input ``i`` and check paipu on it (counted in ``tally``)."""
        case = self.make(i)
        tally.inputs += 1
        for op in case.ops:
            tally.ops[op] = tally.ops.get(op, 0) + 1
        tally.families[case.family] = tally.families.get(case.family, 0) + 1
        ingest = self.ingest_every > 0 and i % self.ingest_every == 0
        keep_file = ingest or (self.cli_every > 0 and i % self.cli_every == 0)
        path = os.path.join(self.tmp, (f"in{i}" if keep_file else f"in{i % 4}") + ".jsonl" + (".gz" if case.gz else ""))
        with open(path, "wb") as f:
            f.write(case.data)
        label = f"seed {self.seed} input {i} ({'+'.join(case.ops)})"
        cpu0 = time.process_time()
        try:
            with self._limits():
                self._one(path, case, label, tally, self.report_every > 0 and i % self.report_every == 0, ingest)
        except Hang as h:
            tally.hangs += 1
            tally.failures.append(f"{label}: hang ({h})")
        except Exception as x:  # anything escaping is a traceback a user would see
            tally.tracebacks += 1
            tally.failures.append(f"{label}: {type(x).__name__}: {str(x)[:200]}")
        cpu = time.process_time() - cpu0
        if cpu > tally.slowest:
            tally.slowest, tally.slowest_label = cpu, label
        if self.cli_every > 0 and i % self.cli_every == 0:
            self._command_line(path, label, tally, json_format=(i // self.cli_every) % 2 == 1)
        if ingest:
            self._pending.append((path, label))
            if len(self._pending) >= self.ingest_batch:
                self.flush_ingest(tally)
        elif keep_file:
            os.remove(path)

    @contextmanager
    def _limits(self) -> Iterator[None]:
        """Raise :class:`Hang` in this block past ``per_input_seconds`` of CPU or ``wall_seconds`` on the clock."""
        def cpu(_sig: int, _frame: Any) -> None:
            raise Hang(f"over {self.per_input_seconds:g} s of CPU")

        def wall(_sig: int, _frame: Any) -> None:
            raise Hang(f"over {self.wall_seconds:g} s on the clock")

        old = signal.signal(signal.SIGPROF, cpu), signal.signal(signal.SIGALRM, wall)
        signal.setitimer(signal.ITIMER_PROF, self.per_input_seconds)
        signal.setitimer(signal.ITIMER_REAL, self.wall_seconds)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGPROF, old[0])
            signal.signal(signal.SIGALRM, old[1])

    def _one(self, path: str, case: Case, label: str, tally: Tally, report: bool, rows: bool) -> None:
        audits, _orphans, failed = read_and_audit(path, report, rows)
        for game, why in failed:
            tally.internal_errors += 1
            tally.failures.append(f"{label}: ingest rows of {game}: {why}")
        for a in audits:
            for f in a.findings:
                if is_internal_error(f):
                    tally.internal_errors += 1
                    tally.failures.append(f"{label}: internal error in game {a.game}: {f.message[:200]}")
        got: dict = {}
        for a in audits:  # the first game of each id (damage may forge later lines with the same id)
            got.setdefault(a.game, a)
        for g, alone in case.keep.items():
            a = got.get(g)
            if a is None or signature(a) != alone:
                tally.mismatches += 1
                why = "missing" if a is None else [f.code for f in a.findings][:5]
                tally.failures.append(f"{label}: untouched game {g} differs: {why}")

    def flush_ingest(self, tally: Tally) -> None:
        """One real DuckDB ingest (``paipu.store.ingest``, the batched derivation the command uses) of
        the files waiting: an exception out of it is a traceback, a game it counts as an internal
        error is one; when the whole ingest fails, each file is ingested alone to name the input."""
        from paipu import store

        pending, self._pending = self._pending, []
        if not pending:
            return
        paths = [p for p, _label in pending]
        try:
            try:
                with self._limits_for_ingest(len(paths)):
                    report = store.ingest(paths, ":memory:", audit=False, con=self._connection())
            except (Exception, Hang) as x:
                self._close_store()
                self._ingest_alone(pending, x, tally)
            else:
                tally.ingested += len(paths)
                if report.internal_errors:
                    tally.internal_errors += report.internal_errors
                    first, last = pending[0][1], pending[-1][1]
                    tally.failures += [f"ingest of {first} … {last}: {m[:300]}" for m in report.refused
                                       if "internal error" in m]
        finally:
            for p in paths:
                try:
                    os.remove(p)
                except OSError:
                    pass

    def _ingest_alone(self, pending: list[tuple[str, str]], batch_error: BaseException, tally: Tally) -> None:
        from paipu import store

        named = 0
        for path, label in pending:
            try:
                with self._limits_for_ingest(1):
                    report = store.ingest([path], ":memory:", audit=False)
            except Hang as h:
                tally.hangs += 1
                tally.failures.append(f"{label}: ingest: hang ({h})")
                named += 1
            except Exception as x:
                tally.tracebacks += 1
                tally.failures.append(f"{label}: ingest: {type(x).__name__}: {str(x)[:200]}")
                named += 1
            else:
                tally.ingested += 1
                if report.internal_errors:
                    tally.internal_errors += report.internal_errors
                    tally.failures.append(f"{label}: ingest: {report.refused[:2]}")
                    named += 1
        if not named:  # the batch failed, no file alone does: still a failure
            tally.tracebacks += 1
            tally.failures.append(f"ingest of {pending[0][1]} … {pending[-1][1]}: "
                                  f"{type(batch_error).__name__}: {str(batch_error)[:200]}")

    @contextmanager
    def _limits_for_ingest(self, files: int) -> Iterator[None]:
        """The clock limit for an ingest of ``files`` inputs (DuckDB works in threads: no CPU alarm)."""
        def wall(_sig: int, _frame: Any) -> None:
            raise Hang(f"ingest over {limit:g} s on the clock")

        limit = self.wall_seconds + files * self.per_input_seconds
        old = signal.signal(signal.SIGALRM, wall)
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)

    def _connection(self) -> Any:
        """The in-memory store the batches go to (a fresh one now and then, so it stays small)."""
        from paipu import store

        if self._store is None or self._store_uses >= 20:
            self._close_store()
            self._store = store.connect(":memory:")
        self._store_uses += 1
        return self._store

    def _close_store(self) -> None:
        if self._store is not None:
            try:
                self._store.close()
            except Exception:
                pass
        self._store, self._store_uses = None, 0

    def _command_line(self, path: str, label: str, tally: Tally, json_format: bool) -> None:
        """``paipu audit`` and ``paipu ingest`` on the input in a subprocess: exit 0, 1 or 2, never a
        traceback (exit 3 is an internal error; anything else, or a traceback, is counted as one)."""
        db = os.path.join(self.tmp, "cli.duckdb")
        for leftover in (db, db + ".wal"):
            if os.path.exists(leftover):
                os.remove(leftover)
        tally.cli_runs += 1
        audit = ["audit", path, *(["--format", "json"] if json_format else [])]
        for args in (audit, ["ingest", path, "--db", db]):
            code = "import sys; from paipu.cli import main; sys.argv = ['paipu'] + sys.argv[1:]; main()"
            try:
                r = subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True,
                                   timeout=self.wall_seconds * 3)
            except subprocess.TimeoutExpired:
                tally.hangs += 1
                tally.failures.append(f"{label}: paipu {args[0]}: over {self.wall_seconds * 3:g} s")
                continue
            if b"Traceback" in r.stderr or b"Traceback" in r.stdout or r.returncode not in (0, 1, 2, 3):
                tally.tracebacks += 1
                tally.failures.append(f"{label}: paipu {args[0]} exit {r.returncode}: {r.stderr[-300:]!r}")
            elif r.returncode == 3:
                tally.internal_errors += 1
                tally.failures.append(f"{label}: paipu {args[0]} exit 3: {r.stderr[-300:]!r}")

    def run(self, n: int, start: int = 0, progress: Optional[Callable[[Tally], None]] = None) -> Tally:
        """Check inputs ``start`` … ``start + n - 1`` (and ingest the last batch)."""
        tally = Tally()
        t0, c0 = time.perf_counter(), cpu_seconds()
        for i in range(start, start + n):
            self.check(i, tally)
            if progress is not None and tally.inputs % 1000 == 0:
                tally.seconds, tally.cpu_seconds = time.perf_counter() - t0, cpu_seconds() - c0
                progress(tally)
        self.flush_ingest(tally)
        tally.seconds, tally.cpu_seconds = time.perf_counter() - t0, cpu_seconds() - c0
        return tally

    def close(self) -> None:
        import shutil

        self._close_store()
        shutil.rmtree(self.tmp, ignore_errors=True)


def read_and_audit(path: str, report: bool = True, rows: bool = True) -> tuple[list, list, list[tuple[str, str]]]:
    """What ``paipu audit`` computes for one file, in this process and reading it once: every
    game read (schema), replayed and audited (``audit_game``, the file's tamper evidence joined
    as ``audit_paths`` joins it); with ``rows`` its store rows derived in Python too
    (``game_rows``, the reference the ingest's batched derivation is held to); with ``report`` the
    text report written.  Returns the audits, the problems naming no game, and the games whose
    rows failed (with why).  An exception out of it is what the command line would show as an
    internal error (exit 3)."""
    from audits.serial import SealFindings
    from paipu import reports
    from paipu.store.ingest import game_rows

    reader = LogReader([path])
    seals = SealFindings()
    audits, failed = [], []
    for log in reader.games():
        audits.append(seals.attach(audit_game(log)))
        if rows:
            try:
                game_rows(log)
            except Exception as x:
                failed.append((log.game, f"{type(x).__name__}: {str(x)[:200]}"))
    orphans = list(reader.orphans)
    if report:
        reports.write_text(io.StringIO(), audits, orphans)
    return audits, orphans, failed


def cpu_seconds() -> float:
    """CPU time of this process (every thread) and of the subprocesses it waited for (the command lines)."""
    import resource

    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + kids.ru_utime + kids.ru_stime


def is_internal_error(f: Any) -> bool:
    """Whether a finding is paipu's own failure: the ``INTERNAL_ERROR`` code (exit 3 at the end
    of a run), or an older-style structural break whose message says "internal error"."""
    return f.code == "INTERNAL_ERROR" or "internal error" in f.message


def signature(a: Any) -> tuple:
    """An audit as comparable across files and ids: findings (code, hand, seq, seat, values), complete, ledger."""
    return (tuple((f.code, f.hand, f.seq, f.seat, repr(f.expected), repr(f.actual)) for f in a.findings),
            a.complete, a.ledger)


def run(n: int, seed: int = 14, **kw: Any) -> Tally:
    """Fuzz ``n`` inputs from ``seed``; see :class:`Tally` for what is counted."""
    fz = Fuzzer(seed, **kw)
    try:
        return fz.run(n)
    finally:
        fz.close()
