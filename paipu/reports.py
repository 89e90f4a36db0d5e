"""Audit reports as text: rich summary tables, finding lines, ``--explain`` text (JSON
and JUnit are in :mod:`paipu.formats`).

Every output is built from :class:`audits.audit.GameAudit` objects plus the
orphan problems (input that names no game).  Orphans are reported as
``STREAM_UNREADABLE_LINE`` findings with an empty game id, so every format
shows them.
"""

from __future__ import annotations

import shutil
from collections import Counter
from typing import IO, Iterable, Optional, Sequence

import msgspec
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from audits.audit import GameAudit
from audits.catalogue import CATALOGUE
from audits.findings import Finding
from schema.reader import LogProblem

_SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}

#: The most characters of any one value (game id, message, expected/actual) the text
#: and JUnit reports print: the report's cost stays linear in its input, however
#: long a value in the log (the JSON report keeps every value whole).
ECHO_CHARS = 200


def clip(text: str, limit: int = ECHO_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def _value(v: object) -> str:
    """``repr`` of an expected/actual value, clipped (a huge value is not rendered whole first)."""
    if isinstance(v, (str, bytes)) and len(v) > ECHO_CHARS:
        return clip(repr(v[:ECHO_CHARS + 2]), ECHO_CHARS) + f" ({len(v):,} characters)"
    return clip(repr(v))


def orphan_findings(orphans: Iterable[LogProblem]) -> list[Finding]:
    """Problems that name no game, as ``STREAM_UNREADABLE_LINE`` findings (game ``""``)."""
    c = CATALOGUE["STREAM_UNREADABLE_LINE"]
    return [Finding(code=c.code, severity=c.severity, game=p.game or "", hand=0, seq=-1, rule=c.rule,
                    message=p.message, file=p.file, line=p.line) for p in orphans]


def all_findings(audits: Iterable[GameAudit], orphans: Iterable[LogProblem] = ()) -> list[Finding]:
    """Every finding of every game, then the orphans."""
    out = [f for a in audits for f in a.findings]
    return out + orphan_findings(orphans)


# --- text -----------------------------------------------------------------------

#: The text report's width when it does not go to a terminal (a pipe or a file).
PLAIN_WIDTH = 140


def text_console(out: IO[str], terminal: bool = False) -> Console:
    """The console the text views print through.  ``terminal``: the text will be shown
    on a terminal, so it takes the terminal's width and colours the severities
    (``NO_COLOR`` still turns colour off); otherwise plain text, :data:`PLAIN_WIDTH` wide."""
    if terminal:
        width = shutil.get_terminal_size((PLAIN_WIDTH, 24)).columns
        return Console(file=out, width=max(40, width), force_terminal=True, highlight=False, soft_wrap=False)
    return Console(file=out, width=PLAIN_WIDTH, force_terminal=False, no_color=True, highlight=False,
                   soft_wrap=False)

def summary_by_code(findings: Sequence[Finding]) -> Table:
    """One row per finding code: severity, how many findings, in how many games, the rule."""
    t = Table(title="Findings by code", show_lines=False)
    for col in ("code", "severity", "findings", "games", "rule"):
        t.add_column(col, justify="right" if col in ("findings", "games") else "left")
    counts = Counter(f.code for f in findings)
    games: dict[str, set] = {}
    for f in findings:
        games.setdefault(f.code, set()).add((f.file, f.game))
    order = sorted(counts, key=lambda c: (list(CATALOGUE).index(c) if c in CATALOGUE else 999, c))
    for code in order:
        entry = CATALOGUE.get(code)
        sev = entry.severity if entry else "error"
        t.add_row(code, f"[{_SEVERITY_STYLE[sev]}]{sev}[/]", str(counts[code]), str(len(games[code])),
                  entry.rule if entry else "")
    return t


def summary_by_game(audits: Sequence[GameAudit]) -> Table:
    """One row per game: file, hands, complete, errors, warnings, the codes found."""
    t = Table(title="Findings by game")
    for col in ("game", "file", "hands", "complete", "errors", "warnings", "codes"):
        t.add_column(col, justify="right" if col in ("hands", "errors", "warnings") else "left")
    for a in audits:
        sev = Counter(f.severity for f in a.findings)
        codes = ", ".join(sorted({f.code for f in a.findings})) or "-"
        t.add_row(escape(clip(a.game, 60)), escape(clip(a.file, 80)), str(a.hands),
                  "yes" if a.complete else "[red]no[/]",
                  str(sev.get("error", 0)), str(sev.get("warning", 0)), codes)
    return t


def write_text(out: IO[str], audits: Sequence[GameAudit], orphans: Sequence[LogProblem] = (),
               limit: int = 50, terminal: bool = False) -> None:
    """The human summary: totals, the two tables, and the first ``limit`` findings
    (``terminal``: fitted to the terminal and coloured, see :func:`text_console`)."""
    console = text_console(out, terminal)
    findings = all_findings(audits, orphans)
    errors = sum(1 for f in findings if f.severity == "error")
    hands = sum(a.hands for a in audits)
    console.print(f"paipu audit: {len(audits)} games, {hands} hands, {len(findings)} findings "
                  f"({errors} at error severity)")
    if not findings:
        console.print("clean: no finding")
        return
    console.print(summary_by_code(findings))
    with_findings = [a for a in audits if a.findings]
    if with_findings:
        console.print(summary_by_game(with_findings))
    console.print("Findings:")
    for f in findings[:limit]:
        console.print(styled_finding(f))
    if len(findings) > limit:
        console.print(f"  … and {len(findings) - limit} more (use --format json for all)")


def format_finding(f: Finding) -> str:
    """One line: ``file:line: [severity] CODE game hand seq seat: message (expected … actual …)``."""
    where = f"{clip(f.file, 120)}:{f.line}: " if f.file and f.line is not None else ""
    message = clip(f.message, 2 * ECHO_CHARS)
    if not f.game:  # input that names no game
        return f"{where}[{f.severity}] {f.code}: {message}"
    seat = f" seat {f.seat}" if f.seat is not None else ""
    tail = ""
    if f.expected is not None or f.actual is not None:
        tail = f" (expected {_value(f.expected)}, actual {_value(f.actual)})"
    return (f"{where}[{f.severity}] {f.code} game {clip(f.game, 80)} hand {f.hand} seq {f.seq}{seat}: "
            f"{message}{tail}")


def styled_finding(f: Finding) -> Text:
    """:func:`format_finding` indented, with its severity coloured (shown only on a terminal)."""
    line = format_finding(f)
    tag = f"[{f.severity}]"
    text = Text("  " + line)
    at = line.find(tag)
    if at >= 0:
        text.stylize(_SEVERITY_STYLE.get(f.severity, ""), 2 + at, 2 + at + len(tag))
    return text


# --- JSON lines ---------------------------------------------------------------------

def read_json_lines(data: bytes) -> list[Finding]:
    """Decode ``paipu audit --format json`` output back into findings (game summary records,
    ``"record": "summary"``, are skipped)."""
    out = []
    for line in data.splitlines():
        if line.strip():
            obj = msgspec.json.decode(line)
            if not (isinstance(obj, dict) and obj.get("record") == "summary"):
                out.append(msgspec.convert(obj, Finding))
    return out


# --- --explain ---------------------------------------------------------------------------

def write_explain(out: IO[str], lines: Sequence[str], terminal: bool = False) -> None:
    """Print an ``explain_game`` derivation (no markup interpretation; on a terminal,
    fitted to its width with the findings' severities coloured).  A ``paipu hand`` command
    line is never broken, on a terminal or not, so it can be pasted whole (the terminal folds
    it for the eye only); piped text is not broken at all."""
    console = text_console(out, terminal)
    for line in lines:
        whole = not terminal or line.lstrip().startswith("paipu hand ")
        sev: Optional[str] = next((k for k in _SEVERITY_STYLE if line.lstrip().startswith(f"[{k}]")), None)
        if sev is not None and terminal:
            console.print(Text(line, style=_SEVERITY_STYLE[sev]), soft_wrap=whole)
        else:
            console.print(line, markup=False, soft_wrap=whole)


__all__ = ["all_findings", "format_finding", "orphan_findings", "read_json_lines",
           "styled_finding", "summary_by_code", "summary_by_game", "text_console", "write_explain", "write_text"]
