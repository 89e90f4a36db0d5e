"""Tamper evidence for event logs: a hash chain per game and a commitment to each wall.

The scheme (specified in ``docs/seal.md``) is optional and additive: every field
it uses may be absent, and a log without them reads exactly as before.

* **The chain.**  Every event of a game after its first carries ``prev``: the
  SHA-256 (lower-case hex) of the previous line *of the same game*, byte for
  byte as written, without its line ending.  Games may interleave; each has its
  own chain.  The game's ``GameClosed`` line ends the chain with ``seal``: the
  SHA-256 of that line with its ``,"seal":"…"`` member (written last) removed.
* **The wall.**  ``HandStarted`` may carry ``wall_commit`` = SHA-256 of
  ``<salt>:<tile>,<tile>,…`` (the salt as written, the wall's 136 tiles head
  first).  The hand's ``HandSettled`` (or, for a hand the room closed on
  unsettled, the ``GameClosed``) reveals ``reveal_salt``, and ``reveal_wall``
  when ``HandStarted`` did not log the wall.

:func:`verify_chain` checks raw lines and returns :class:`SealProblem` items,
each with a *kind* (:data:`KINDS`), the game, seq and line; it never raises on
bad input.  :func:`seal_lines` adds the fields to a readable log.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Callable, Iterable, Iterator, Optional, Sequence, Union

import msgspec

#: Problem kinds, each with the finding code the audit reports it under and its rule.
KINDS: dict[str, tuple[str, str]] = {
    "chain_broken": ("SEAL_CHAIN_BROKEN",
                     "In a sealed game, each event's prev is the SHA-256 of the game's previous line as written."),
    "chain_missing": ("SEAL_CHAIN_MISSING",
                      "In a sealed game, every event after the first carries prev."),
    "seal_mismatch": ("SEAL_MISMATCH",
                      "GameClosed's seal is the SHA-256 of its own line without the seal member."),
    "seal_missing": ("SEAL_MISSING", "A sealed game ends with a GameClosed that carries seal."),
    "wall_commit_mismatch": ("WALL_COMMIT_MISMATCH",
                             "A committed wall, revealed after the hand, hashes with its salt to the commitment."),
    "wall_reveal_missing": ("WALL_REVEAL_MISSING",
                            "A wall committed in HandStarted is revealed (salt, and wall if not logged) "
                            "in the hand's HandSettled, or in GameClosed if the hand was never settled."),
}


#: The problems only a check with the server's key finds (``paipu seal --check --key-file``):
#: not audit findings (the audit holds no key), so they are not in :data:`KINDS`.
SIGNED_KINDS: dict[str, tuple[str, str]] = {
    "unsigned": ("SEAL_UNSIGNED", "Under a key, every game is sealed and its GameClosed carries sig."),
    "signature_mismatch": ("SEAL_SIGNATURE_MISMATCH",
                           "sig is the HMAC-SHA256, under the server's key, of the GameClosed line without sig "
                           "and seal."),
    "nothing_sealed": ("SEAL_NOTHING_SEALED", "A checked log holds at least one sealed game."),
}


class SealProblem(msgspec.Struct, frozen=True):
    """One broken promise of the scheme: where, which kind, in one sentence."""

    kind: str
    game: Optional[str]
    seq: Optional[int]
    line: int
    message: str

    @property
    def code(self) -> str:
        """The finding code the audit reports this kind under (or, for a check under a key, its code)."""
        return (KINDS.get(self.kind) or SIGNED_KINDS[self.kind])[0]


class _Peek(msgspec.Struct):
    """The fields the scheme reads from a line; everything else is skipped."""

    type: Optional[str] = None
    game: Optional[str] = None
    seq: Optional[int] = None
    prev: Optional[str] = None
    seal: Optional[str] = None
    wall: Optional[list] = None
    wall_commit: Optional[str] = None
    reveal_salt: Optional[str] = None
    reveal_wall: Optional[list] = None


_peek = msgspec.json.Decoder(_Peek)
_SEAL_TAIL = re.compile(rb',"seal":"([0-9a-f]{64})"\}\s*$')
_SIG_TAIL = re.compile(rb',"sig":"([0-9a-f]{64})"$')

#: Where the server's key is read from when no file is named: a file named by the first,
#: or the key itself in the second.
ENV_KEY_FILE = "PAIPU_SEAL_KEY_FILE"
ENV_KEY = "PAIPU_SEAL_KEY"
#: The shortest key taken (bytes): a signature is only as strong as its key.
MIN_KEY_BYTES = 16


def load_key(path: Optional[str] = None) -> Optional[bytes]:
    """The server's signing key: the file ``path``, else the file named by ``PAIPU_SEAL_KEY_FILE``,
    else ``PAIPU_SEAL_KEY``; None when none is given.  One trailing newline of a file is not
    part of the key.  Raises :class:`SealError` for an unreadable or short key."""
    import os

    path = path or os.environ.get(ENV_KEY_FILE) or None
    if path is not None:
        try:
            with open(path, "rb") as f:
                key = f.read()
        except OSError as e:
            raise SealError(f"cannot read the key file {path}: {e.strerror or e}") from None
        key = key[:-2] if key.endswith(b"\r\n") else key[:-1] if key.endswith(b"\n") else key
        where = f"the key file {path}"
    else:
        text = os.environ.get(ENV_KEY)
        if not text:
            return None
        key, where = text.encode(), ENV_KEY
    if len(key) < MIN_KEY_BYTES:
        raise SealError(f"{where} holds {len(key)} bytes; a signing key has at least {MIN_KEY_BYTES}")
    return key


def sign(key: bytes, unsigned_line: bytes) -> str:
    """The ``sig`` of a ``GameClosed`` line (without ``sig`` and ``seal``): HMAC-SHA256 in hex."""
    import hmac

    return hmac.new(key, unsigned_line, hashlib.sha256).hexdigest()


def _check_sig(raw: bytes, p: "_Peek", key: bytes, n: int, out: list["SealProblem"]) -> None:
    """The signature of a sealed ``GameClosed`` line under ``key``."""
    import hmac

    m = _SEAL_TAIL.search(raw)
    body = raw[:m.start()] if m is not None else raw
    s = _SIG_TAIL.search(body)
    if s is None:
        out.append(SealProblem("unsigned", p.game, p.seq, n, "the game is not signed (its GameClosed has no sig "
                               "just before its seal): it was sealed without the server's key"))
    elif not hmac.compare_digest(s.group(1).decode(), sign(key, body[:s.start()] + b"}")):
        out.append(SealProblem("signature_mismatch", p.game, p.seq, n,
                               "sig is not this line's signature under the key: the game was changed and "
                               "sealed again without the server's key, or another key signed it"))


def digest(raw: bytes) -> str:
    """SHA-256 of ``raw`` in lower-case hex."""
    return hashlib.sha256(raw).hexdigest()


def wall_commitment(salt: str, wall: Sequence[str]) -> str:
    """The commitment to ``wall`` under ``salt``: SHA-256 of ``salt:t1,t2,…``."""
    return digest(f"{salt}:{','.join(wall)}".encode())


def _strip(raw: bytes) -> bytes:
    return raw.rstrip(b"\r\n")


def _peek_line(raw: bytes) -> Optional[_Peek]:
    try:
        p = _peek.decode(raw)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None
    return p if isinstance(p.game, str) else None


class _Game:
    __slots__ = ("last", "last_line", "chained", "commit", "commit_seq", "commit_line", "wall", "closed")

    def __init__(self) -> None:
        self.last: Optional[bytes] = None  # the previous line of the game, as written
        self.last_line = 0
        self.chained = False
        self.commit: Optional[str] = None  # an open wall commitment
        self.commit_seq: Optional[int] = None
        self.commit_line = 0
        self.wall: Optional[list] = None
        self.closed = False


def verify_chain(raw_lines: Iterable[Union[bytes, tuple[int, bytes]]],
                 key: Optional[bytes] = None, summary: Optional[dict] = None) -> list[SealProblem]:
    """Check the chain, seals and wall commitments of every game in ``raw_lines``.

    ``raw_lines`` are the log's lines as written (bytes, with or without line
    endings), or ``(line number, bytes)`` pairs; plain bytes are numbered from 1.
    A game with no ``prev`` or ``seal`` anywhere is unsealed and not checked.  A
    line that cannot be read is skipped (the reader reports it); the chain then
    breaks at its game's next line.  Never raises.

    With the server's ``key``, the check is strict (:data:`SIGNED_KINDS`): every game
    must be sealed and signed, and the log must hold a game.  Without it, the chain
    shows accidental damage and edits by anyone who did not seal the game again; a
    forger who rewrites a game and reseals it passes (only a signature stops that).
    ``summary`` (a dict) is given ``games`` and ``sealed``: the games seen and those sealed.
    """
    games: dict[str, _Game] = {}
    out: list[SealProblem] = []
    for n, item in enumerate(raw_lines, 1):
        if isinstance(item, tuple):
            n, raw = item
        else:
            raw = item
        raw = _strip(raw)
        if not raw.strip():
            continue
        p = _peek_line(raw)
        if p is None:
            continue
        g = games.get(p.game)
        if g is None or g.closed:
            g = games[p.game] = _Game()  # a new game (or a later game reusing a closed id)
        sealed_line = p.prev is not None or p.seal is not None
        if sealed_line:
            g.chained = True
        if g.last is not None:
            if p.prev is None:
                if g.chained:
                    out.append(SealProblem("chain_missing", p.game, p.seq, n,
                                           "the game is sealed but this event carries no prev"))
            elif p.prev != digest(g.last):
                out.append(SealProblem("chain_broken", p.game, p.seq, n,
                                       "prev is not the hash of the game's previous line: that line was changed, "
                                       "or lines were removed, added or reordered"))
        elif p.prev is not None:
            out.append(SealProblem("chain_broken", p.game, p.seq, n,
                                   "the game's first line carries prev: the lines before it are missing"))
        # the wall commitment: opened by HandStarted, settled by the reveal
        if p.type == "HandStarted":
            _close_commit(g, p.game, out)
            if p.wall_commit is not None:
                g.commit, g.commit_seq, g.commit_line = p.wall_commit, p.seq, n
                g.wall = p.wall
        elif p.type in ("HandSettled", "GameClosed") and g.commit is not None:
            wall = p.reveal_wall if p.reveal_wall is not None else g.wall
            if p.reveal_salt is None or wall is None:
                what = "salt" if p.reveal_salt is None else "wall"
                out.append(SealProblem("wall_reveal_missing", p.game, p.seq, n,
                                       f"the wall committed at seq {g.commit_seq} is not revealed here "
                                       f"(no {what})"))
            elif not all(isinstance(t, str) for t in wall) or wall_commitment(p.reveal_salt, wall) != g.commit:
                out.append(SealProblem("wall_commit_mismatch", p.game, g.commit_seq, g.commit_line,
                                       f"the wall revealed at seq {p.seq} does not match the commitment made "
                                       "before the deal"))
            g.commit = None
        if p.type == "GameClosed":
            _close_commit(g, p.game, out)
            if p.seal is not None:
                m = _SEAL_TAIL.search(raw)
                if m is None or m.group(1).decode() != p.seal or \
                        digest(raw[:m.start()] + b"}") != p.seal:
                    out.append(SealProblem("seal_mismatch", p.game, p.seq, n,
                                           "the seal is not the hash of this line without it: the line was "
                                           "changed (or seal is not its last member)"))
            elif g.chained:
                out.append(SealProblem("seal_missing", p.game, p.seq, n, "the sealed game's GameClosed has no seal"))
            if key is not None:
                if p.seal is not None:
                    _check_sig(raw, p, key, n, out)
                elif not g.chained:
                    out.append(SealProblem("unsigned", p.game, p.seq, n, "the game is not sealed, so not signed"))
            g.closed = True
        g.last = raw
        g.last_line = n
    if key is not None and not games:
        out.append(SealProblem("nothing_sealed", None, None, 0, "the log holds no game to check"))
    if summary is not None:
        summary["games"] = summary.get("games", 0) + len(games)
        summary["sealed"] = summary.get("sealed", 0) + sum(1 for g in games.values() if g.chained)
    for gid, g in games.items():
        _close_commit(g, gid, out)
        if key is not None and not g.chained and not g.closed:
            out.append(SealProblem("unsigned", gid, None, g.last_line, "the game is not sealed, so not signed"))
        if g.chained and not g.closed:
            # the seal is the only check on a game's last line: a sealed game must reach it
            out.append(SealProblem("seal_missing", gid, None, g.last_line,
                                   "the sealed game ends without a sealed GameClosed (cut short, or its last "
                                   "line is unreadable)"))
    return out


def _close_commit(g: _Game, gid: str, out: list[SealProblem]) -> None:
    if g.commit is not None:
        out.append(SealProblem("wall_reveal_missing", gid, g.commit_seq, g.commit_line,
                               "the wall committed here is never revealed before the next hand or the end"))
        g.commit = None


def verify_file(path: str, key: Optional[bytes] = None, summary: Optional[dict] = None) -> list[SealProblem]:
    """:func:`verify_chain` over one log file (``.jsonl``, ``.jsonl.gz`` or ``-``), read as the reader reads it.

    Damage that stops the reading is the reader's to report; the lines before it are checked.
    """
    from .reader import line_blocks, open_source

    def lines() -> Iterator[tuple[int, bytes]]:
        n = 0
        src = open_source(path)
        try:
            for block in line_blocks(src):
                for raw in block.split(b"\n")[:-1] if block.endswith(b"\n") else block.split(b"\n"):
                    n += 1
                    yield n, raw
        except (OSError, EOFError):
            return
        finally:
            if path != "-":
                src.close()

    return verify_chain(lines(), key, summary)


def looks_sealed(path: str, probe_bytes: int = 1 << 20) -> bool:
    """Whether the first ``probe_bytes`` of the log mention the scheme's fields (a cheap test
    before :func:`verify_file`, so unsealed logs cost nothing more)."""
    from .reader import open_source

    if path == "-":
        return False
    try:
        src = open_source(path)
        try:
            head = src.read(probe_bytes)
        finally:
            src.close()
    except OSError:
        return False
    return b'"prev":' in head or b'"seal":' in head or b'"wall_commit":' in head


def problems_by_game(path: str) -> dict[Optional[str], list[SealProblem]]:
    """:func:`verify_file` grouped by game id (what the audit attaches to each game's findings);
    empty, without reading the whole file, for a log that does not use the scheme."""
    if not looks_sealed(path):
        return {}
    out: dict[Optional[str], list[SealProblem]] = {}
    for p in verify_file(path):
        out.setdefault(p.game, []).append(p)
    return out


# --- sealing ---------------------------------------------------------------------------------


class SealError(ValueError):
    """A log that cannot be sealed (one sentence naming the line)."""


def _append(raw: bytes, members: list[tuple[str, str]]) -> bytes:
    """``raw`` (one JSON object) with ``"key":"value"`` members added before its closing brace."""
    body = raw.rstrip()
    if not body.endswith(b"}"):
        raise SealError("not a JSON object")
    extra = b"".join(b',"%s":"%s"' % (k.encode(), v.encode()) for k, v in members)
    return body[:-1] + extra + b"}"


def seal_lines(raw_lines: Iterable[bytes], salt: Optional[Callable[[], str]] = None,
               name: str = "<input>", key: Optional[bytes] = None) -> Iterator[bytes]:
    """Seal a log: the same lines, byte for byte, with ``prev``, ``seal``, ``wall_commit`` and
    ``reveal_salt`` added as :mod:`docs/seal.md <schema.seal>` specifies (yields lines without newlines).

    Raises :class:`SealError` for a line that is not a readable event or is already sealed.
    ``salt`` makes each hand's salt (default: 16 random bytes, hex).  With the server's
    ``key`` each ``GameClosed`` is also signed (``sig``, before ``seal``).
    """
    from .reader import LogProblem, decode_line

    make_salt = salt or (lambda: secrets.token_hex(16))
    last: dict[str, bytes] = {}
    pending: dict[str, str] = {}  # game -> the salt of its open wall commitment
    for n, raw in enumerate(raw_lines, 1):
        raw = _strip(raw)
        if not raw.strip():
            yield raw
            continue
        e = decode_line(raw, name, n)
        if isinstance(e, LogProblem):
            raise SealError(f"{e}; seal only a log whose every line reads")
        if e.prev is not msgspec.UNSET or getattr(e, "seal", msgspec.UNSET) is not msgspec.UNSET or \
                getattr(e, "sig", msgspec.UNSET) is not msgspec.UNSET:
            raise SealError(f"{name}:{n}: the line is already sealed")
        kind = type(e).__name__
        members: list[tuple[str, str]] = []
        if kind == "GameOpened" and e.game in last:
            last.pop(e.game)  # a new game reusing a closed id starts a new chain
        if kind == "HandStarted" and e.wall is not None:
            s = make_salt()
            pending[e.game] = s
            members.append(("wall_commit", wall_commitment(s, e.wall)))
        elif kind in ("HandSettled", "GameClosed") and e.game in pending:
            members.append(("reveal_salt", pending.pop(e.game)))
        prior = last.get(e.game)
        if prior is not None:
            members.append(("prev", digest(prior)))
        out = _append(raw, members) if members else raw
        if kind == "GameClosed":
            if key is not None:
                out = _append(out, [("sig", sign(key, out))])
            out = _append(out, [("seal", digest(out))])
        last[e.game] = out
        yield out


__all__ = ["ENV_KEY", "ENV_KEY_FILE", "KINDS", "SIGNED_KINDS", "SealError", "load_key", "sign", "SealProblem", "digest", "looks_sealed", "problems_by_game", "seal_lines",
           "verify_chain", "verify_file", "wall_commitment"]
