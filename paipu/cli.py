"""The ``paipu`` command line.  Exit codes are listed in :mod:`paipu.console` and the README."""

from __future__ import annotations

import sys
from typing import Optional

import msgspec
import typer
from rich.console import Console

from schema.events import json_schema

from .console import EXIT_INTERNAL

app = typer.Typer(
    name="paipu",
    help="Replay and audit mahjong game logs (Qujing 飞小鸡, 飞白板, 双鬼).",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
err = Console(stderr=True)


@app.command("schema")
def schema_cmd(
    output: Optional[str] = typer.Option(None, "--output", "-o", help="Write to this file instead of stdout."),
) -> None:
    """Print the JSON Schema of one event-log line (for server teams in any language)."""
    text = msgspec.json.format(msgspec.json.encode(json_schema()), indent=2).decode()
    if output:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        sys.stdout.write(text + "\n")


@app.command("replay")
def replay_cmd(
    file: str = typer.Argument(..., help="A .jsonl or .jsonl.gz log, or - for stdin."),
    game: Optional[str] = typer.Option(None, "--game", "-g", help="Game id (default: the first game in the file)."),
    at: Optional[int] = typer.Option(None, "--at", help="Show the table after this seq (default: the last event)."),
    as_json: bool = typer.Option(False, "--json", help="Print the state as JSON."),
) -> None:
    """Show the table at one event: hands, melds, discards, tail pool, scores, whose turn."""
    from .replay_view import run_replay

    raise typer.Exit(run_replay(file, game, at, as_json))


COMMAND_MODULES = ("hand_cmd", "audit_cmd", "sim_cmd", "store_cmd", "seal_cmd")


def _register_commands() -> None:
    import importlib

    for name in COMMAND_MODULES:
        importlib.import_module(f"paipu.{name}").register(app)


def main() -> None:
    """Console entry point: never shows a traceback to the user."""
    try:
        _register_commands()
        app()
    except KeyboardInterrupt:
        err.print("paipu: interrupted")
        sys.exit(130)
    except SystemExit:
        raise
    except BrokenPipeError:
        sys.exit(0)
    except Exception as e:  # a bug in paipu: one sentence, no traceback
        err.print(f"[bold red]paipu: internal error:[/] {type(e).__name__}: {e}", highlight=False)
        sys.exit(EXIT_INTERNAL)


if __name__ == "__main__":  # pragma: no cover
    main()
