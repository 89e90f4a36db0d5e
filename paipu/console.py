"""Exit codes and the one way every command reports a user error.

  0  success; for ``audit``, no finding at error severity
  1  ``audit``: findings at error severity; ``anomalies``: failing rows found;
     ``replay``: the game breaks before the event asked for
  2  unreadable input or bad usage
  3  an internal error in paipu (a bug: please report it)
"""

from __future__ import annotations

from typing import NoReturn

import typer

EXIT_OK, EXIT_FINDINGS, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3


def fail(message: str, code: int = EXIT_INPUT) -> NoReturn:
    """Print one clear sentence on stderr (never a traceback) and exit with ``code``."""
    typer.echo(f"paipu: {message.rstrip()}", err=True)
    raise typer.Exit(code)
