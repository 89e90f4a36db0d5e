"""``paipu seal IN -o OUT``: add tamper evidence to a log; ``paipu seal --check LOG``: verify it.

The scheme is in ``docs/seal.md`` and :mod:`schema.seal`.  Exit codes: 0 sealed /
intact; 1 (``--check``) the log breaks the scheme somewhere; 2 unreadable input or
bad usage.
"""

from __future__ import annotations

import gzip
import os
from typing import IO, Iterator, Optional

import typer

from .console import EXIT_FINDINGS, EXIT_OK, fail


def _raw_lines(path: str) -> Iterator[bytes]:
    """The lines of ``path`` as written (``.gz`` decompressed), without line endings."""
    from schema.reader import line_blocks, open_source

    src = open_source(path)
    try:
        for block in line_blocks(src):
            parts = block.split(b"\n")
            if block.endswith(b"\n"):
                parts.pop()
            yield from parts
    finally:
        if path != "-":
            src.close()


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def seal_file(src: str, out: str, key: Optional[bytes] = None) -> tuple[int, int]:
    """Seal ``src`` into ``out`` (written whole or not at all), signing each game under ``key``
    when given; returns (games, lines)."""
    from schema.seal import seal_lines

    tmp = f"{out}.partial-{os.getpid()}"
    from schema.limits import game_hint

    games: set[Optional[str]] = set()
    lines = 0
    f: IO[bytes]
    try:
        with open(tmp, "wb") as raw_out:
            f = gzip.GzipFile(fileobj=raw_out, mode="wb", filename="") if out.endswith(".gz") else raw_out
            try:
                for line in seal_lines(_raw_lines(src), name=src, key=key):
                    f.write(line + b"\n")
                    lines += 1
                    if line.strip():
                        games.add(game_hint(line))
            finally:
                if f is not raw_out:
                    f.close()
        os.replace(tmp, out)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    return len(games), lines


def register(app: typer.Typer) -> None:
    """Add ``paipu seal`` to the command-line app."""

    @app.command("seal")
    def seal_cmd(
        log: str = typer.Argument(..., help="A .jsonl or .jsonl.gz log (or - for stdin)."),
        output: Optional[str] = typer.Option(None, "--output", "-o", help="Write the sealed log here "
                                             "(.gz to compress)."),
        check: bool = typer.Option(False, "--check", help="Verify the log's chain, seals and wall commitments "
                                   "instead of sealing it."),
        key_file: Optional[str] = typer.Option(
            None, "--key-file", help="The server's signing key (a file; else $PAIPU_SEAL_KEY_FILE names one, or "
            "$PAIPU_SEAL_KEY holds it): sealing signs every game, --check refuses a game unsealed, unsigned or "
            "signed otherwise."),
    ) -> None:
        """Add a hash chain and wall commitments to a log (docs/seal.md), or --check one.

        Without the server's key, --check detects accidental damage and edits by anyone who did
        not seal the game again; a forger who rewrites a game and seals it anew passes.  With
        the key (--key-file), each game is signed (HMAC-SHA256) and --check proves the server
        wrote it.
        """
        from schema.seal import SealError, load_key, verify_file

        if log != "-" and not os.path.exists(log):
            fail(f"no such file: {log}")
        try:
            key = load_key(key_file)
        except SealError as e:
            fail(str(e))
        if check:
            summary: dict = {}
            try:
                problems = verify_file(log, key, summary)
            except OSError as e:
                fail(f"cannot read {log}: {e}")
            for p in problems:
                where = f"{log}:{p.line}: game {p.game} seq {p.seq}"
                typer.echo(f"{where}: {p.code}: {p.message}")
            if not problems and not summary.get("sealed"):
                typer.echo(f"{log}: no sealed game ({summary.get('games', 0)} games read): nothing is proven")
                raise typer.Exit(EXIT_FINDINGS)
            if not problems:
                if key is not None:
                    typer.echo(f"{log}: intact and signed (every game's chain, seal, signature and wall "
                               "commitments check under the key)")
                else:
                    typer.echo(f"{log}: intact: every sealed game's chain, seal and wall commitments check "
                               f"({summary.get('sealed', 0)} of {summary.get('games', 0)} games sealed). Without "
                               "the server's key this shows accidental damage and edits by anyone who did not "
                               "seal the game again, not who sealed it (--key-file checks signatures)")
            raise typer.Exit(EXIT_FINDINGS if problems else EXIT_OK)
        if not output:
            fail("name the sealed log with --output FILE (the input is never changed)")
        if log != "-" and _same_file(log, output):
            fail("--output must not be the input log")
        try:
            games, lines = seal_file(log, output, key)
        except SealError as e:
            fail(str(e))
        except OSError as e:
            fail(f"cannot write {output}: {e.strerror or e}")
        typer.echo(f"sealed {games} games ({lines} lines) into {output}" + (", signed" if key is not None else ""))


__all__ = ["register", "seal_file"]
