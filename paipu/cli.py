"""The ``paipu`` command line.  Exit codes are listed in :mod:`paipu.console` and the README.

``paipu --version`` prints the installed version; ``python -m paipu`` is the
same command line; ``paipu --install-completion`` installs shell completion
(bash, zsh, fish, PowerShell) and ``paipu --show-completion SHELL`` prints it.
"""

from __future__ import annotations

import sys
from typing import Optional

import typer
from rich.console import Console

from .console import EXIT_INTERNAL

app = typer.Typer(
    name="paipu",
    help="Replay and audit mahjong game logs against the ruleset each room played.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,
    # -h as well as --help, for the app and every command (click hands it down)
    context_settings={"help_option_names": ["-h", "--help"]},
)
err = Console(stderr=True)


def version() -> str:
    """The installed paipu version (from the package metadata)."""
    from importlib.metadata import PackageNotFoundError, version as _version

    try:
        return _version("paipu")
    except PackageNotFoundError:  # pragma: no cover - running from an uninstalled checkout
        return "unknown"


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"paipu {version()}")
        raise typer.Exit()


@app.callback()
def _root(
    show_version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                      help="Print the paipu version and exit."),
) -> None:
    """Replay and audit mahjong game logs against the ruleset each room played."""


@app.command("schema")
def schema_cmd(
    output: Optional[str] = typer.Option(None, "--output", "-o", help="Write to this file instead of stdout."),
) -> None:
    """Print the strict JSON Schema of one event-log line (for server teams in any language).

    One branch per event ``type``, with seat and seq bounds, RFC 3339 times, the known
    schema versions, presets and options; the same text as schema/paipu-events.schema.json.
    """
    from schema.json_schema import schema_text

    text = schema_text().rstrip("\n")
    if output:
        from .outfiles import open_output

        with open_output(output, text=True) as f:
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


COMMAND_MODULES = ("hand_cmd", "audit_cmd", "report_cmd", "sim_cmd", "store_cmd", "seal_cmd")


def _register_commands() -> None:
    """Add every command to the app; the app's and every command's help end with the rulesets
    paipu audits (read from the family registry, so the line stays true)."""
    import importlib

    from .rulesets_text import rulesets_line

    for name in COMMAND_MODULES:
        importlib.import_module(f"paipu.{name}").register(app)
    line = rulesets_line()
    app.info.epilog = line
    for command in app.registered_commands:
        command.epilog = f"{command.epilog}\n\n{line}" if command.epilog else line


def _from_ctrl_c(x: BaseException) -> bool:
    """Whether an exit was caused by a KeyboardInterrupt somewhere down its chain."""
    seen = 0
    e: "BaseException | None" = x
    while e is not None and seen < 8:
        if isinstance(e, KeyboardInterrupt):
            return True
        e, seen = e.__cause__ or e.__context__, seen + 1
    return False


def main() -> None:
    """Console entry point: never shows a traceback to the user."""
    try:
        _register_commands()
        app()
    except KeyboardInterrupt:
        err.print("paipu: interrupted")
        sys.exit(130)
    except SystemExit as x:
        if _from_ctrl_c(x):  # typer turns Ctrl-C into a silent exit 130: say why
            err.print("paipu: interrupted")
        raise
    except BrokenPipeError:
        sys.exit(0)
    except Exception as e:  # a bug in paipu: one sentence, no traceback
        from .store.errors import interrupted

        if interrupted(e):  # Ctrl-C during a DuckDB statement (DuckDB raises its own error)
            err.print("paipu: interrupted")
            sys.exit(130)
        err.print(f"[bold red]paipu: internal error:[/] {type(e).__name__}: {e}", highlight=False)
        sys.exit(EXIT_INTERNAL)


if __name__ == "__main__":  # pragma: no cover
    main()
