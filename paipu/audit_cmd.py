"""``paipu audit PATHS...``: audit game logs against the rules they declare.

Exit codes: 0 no finding at error severity; 1 findings at error severity;
2 unreadable input (a missing or unreadable file, lines that name no game) or
bad usage.
"""

from __future__ import annotations

import io
import sys
from typing import Iterator, List, Optional

import typer

from .console import EXIT_FINDINGS, EXIT_INPUT, EXIT_INTERNAL, EXIT_OK, fail as _fail

FORMATS = ("text", "json", "junit")


def _with_progress(items: Iterator, enabled: bool) -> Iterator:
    """A rich progress line on stderr (games audited), only when stderr is a terminal."""
    if not enabled:
        yield from items
        return
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("auditing: {task.completed} games"), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("audit", total=None)
        for item in items:
            progress.advance(task)
            yield item


def run_audit(paths: List[str], fmt: str = "text", output: Optional[str] = None, jobs: int = 1,
              explain: Optional[str] = None, progress: Optional[bool] = None) -> int:
    """Run the audit command; returns the exit code (see the module docstring)."""
    from audits import audit_paths, explain_game
    from schema.reader import LogReader

    from . import reports

    if fmt not in FORMATS:
        _fail(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if jobs < 1:
        _fail("--jobs must be at least 1")
    if not paths:
        _fail("no input: name log files, folders, or - for stdin")
    out_text = io.StringIO()

    if explain is not None:
        reader = LogReader(paths)
        found = None
        for log in reader.games():
            if log.game == explain:
                found = log
                break
        if found is None:
            problems = "; ".join(str(p) for p in reader.orphans[:3])
            _fail(f"game {explain!r} is not in the input" + (f" ({problems})" if problems else ""))
        lines = explain_game(found)
        reports.write_explain(out_text, lines)
        code = EXIT_FINDINGS if any(line.startswith("  [error]") for line in lines) else EXIT_OK
        if any(" INTERNAL_ERROR " in line for line in lines):
            code = EXIT_INTERNAL
        _emit(out_text.getvalue(), output)
        return code

    orphans: list = []
    show = sys.stderr.isatty() if progress is None else progress
    audits = list(_with_progress(audit_paths(paths, jobs=jobs, orphans=orphans), show))
    if fmt == "json":
        _emit(reports.json_lines(reports.all_findings(audits, orphans)).decode(), output)
    elif fmt == "junit":
        _emit(reports.junit_xml(audits, orphans), output)
    else:
        reports.write_text(out_text, audits, orphans)
        _emit(out_text.getvalue(), output)
    if any(a.internal_error for a in audits):
        # a bug in paipu (reported as INTERNAL_ERROR on its game): the other games were audited
        typer.echo("paipu: internal error on some game (INTERNAL_ERROR findings); please report it", err=True)
        return EXIT_INTERNAL
    if orphans:
        for p in orphans[:5]:
            typer.echo(f"paipu: {p}", err=True)
        return EXIT_INPUT
    if any(f.severity == "error" for a in audits for f in a.findings):
        return EXIT_FINDINGS
    return EXIT_OK


def _emit(text: str, output: Optional[str]) -> None:
    if output:
        try:
            with open(output, "w", encoding="utf-8") as f:
                f.write(text)
        except OSError as e:
            _fail(f"cannot write {output}: {e.strerror or e}")
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def register(app: typer.Typer) -> None:
    """Add ``paipu audit`` to the command-line app."""

    @app.command("audit")
    def audit_cmd(
        paths: List[str] = typer.Argument(None, help="Log files, folders (recursive .jsonl/.jsonl.gz), or - for stdin."),
        fmt: str = typer.Option("text", "--format", "-f", help="text (summary tables), json (JSON lines of "
                                "findings) or junit (JUnit XML, one testcase per game)."),
        output: Optional[str] = typer.Option(None, "--output", "-o", help="Write the report to this file."),
        jobs: int = typer.Option(1, "--jobs", "-j", help="Audit games in this many processes."),
        explain: Optional[str] = typer.Option(None, "--explain", help="Derive one game's settlements step by step."),
    ) -> None:
        """Audit game logs against the Qujing rules they declare; report every deviation.

        Exit 0: no finding at error severity; 1: findings at error severity;
        2: unreadable input or bad usage.
        """
        raise typer.Exit(run_audit(list(paths or []), fmt, output, jobs, explain))
