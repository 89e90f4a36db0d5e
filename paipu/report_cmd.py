"""``paipu report LOG [--game ID] -o FILE.html``: the dispute report of one game.

One self-contained HTML page (inline CSS, JavaScript and SVG tiles; no network
request) with the room, the verdict, every hand step by step, each settlement
derived, the corrected ledger and who owes whom (:mod:`paipu.report`).

Exit codes: 0 the report was written and the game is clean (no finding at
error severity); 1 written, and the game has findings at error severity (or
breaks); 2 unreadable input, no such game, or an output that cannot be written;
3 an internal error in paipu.
"""

from __future__ import annotations

import os
import sys
from typing import Optional

import typer

from .console import EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, fail


def _pick(path: str, game: Optional[str]):
    """The game to report: ``game`` by id, else the first game of the log."""
    from schema.reader import LogReader

    if path != "-" and not os.path.exists(path):
        fail(f"{path}: no such file")
    if path != "-" and os.path.isdir(path):
        fail(f"{path} is a folder; name one log file")
    reader = LogReader([path])
    chosen = None
    others = 0
    try:
        for log in reader.games():
            if chosen is None and (game is None or log.game == game):
                chosen = log
                if game is not None:
                    return chosen
            elif game is None:
                others += 1
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror or e}")
    if chosen is not None:
        if others:
            typer.echo(f"paipu: {path} holds {others + 1} games; reporting the first, {chosen.game} "
                       "(choose one with --game)", err=True)
        return chosen
    problems = "; ".join(str(p) for p in reader.orphans[:3])
    what = f"game {game!r} is not in {path}" if game else f"no game in {path}"
    fail(what + (f" ({problems})" if problems else ""))


def run_report(path: str, game: Optional[str], output: Optional[str]) -> int:
    """Write the report of one game of ``path``; returns the exit code (module docstring)."""
    from . import report

    log = _pick(path, game)
    try:
        html, model = report.render_report(log)
    except Exception as x:  # a bug in paipu: one sentence, exit 3
        fail(f"internal error while making the report of {log.game}: {type(x).__name__}: {x}; please report it",
             EXIT_INTERNAL)
    data = html.encode("utf-8")
    if not output or output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        try:
            from .outfiles import open_output

            with open_output(output) as f:
                f.write(data)
        except OSError as e:
            fail(f"cannot write {output}: {e.strerror or e}")
        typer.echo(f"paipu: wrote {output} ({len(data) // 1024} KB): game {log.game}, "
                   f"{'clean' if model['clean'] else str(len(model['findings'])) + ' finding(s)'}", err=True)
    if any(f["code"] == "INTERNAL_ERROR" for f in model["findings"]):
        return EXIT_INTERNAL
    return EXIT_FINDINGS if model["errors"] or model["broken"] else EXIT_OK


def register(app: typer.Typer) -> None:
    """Add ``paipu report`` to the command-line app."""

    @app.command("report")
    def report_cmd(
        log: str = typer.Argument(..., help="A .jsonl or .jsonl.gz log, or - for stdin."),
        game: Optional[str] = typer.Option(None, "--game", "-g", help="Game id (default: the first game)."),
        output: Optional[str] = typer.Option(None, "--output", "-o", help="The HTML file to write (- or none: stdout)."),
    ) -> None:
        """Write one game's dispute report: a self-contained HTML page for a player.

        The room, a verdict in plain words, every hand step by step with the tiles
        drawn, each settlement derived (recomputed beside logged), the corrected
        ledger and who owes whom.  Exit 0 clean, 1 findings at error severity,
        2 bad input, 3 internal error.
        """
        raise typer.Exit(run_report(log, game, output))
