"""``paipu audit PATHS...``: audit game logs against the rules they declare.

Which findings count is the :class:`paipu.policy.Policy` built from
``--select``, ``--ignore``, ``--fail-on`` and the waivers file.

Exit codes: 0 no game fails (no unwaived, selected finding at or above the
fail-on level, ``error`` by default); 1 some game fails; 2 unreadable input (a
missing or unreadable file, lines that name no game) or bad usage (an unknown
code, an expired waiver, a bad waivers file).
"""

from __future__ import annotations

import contextlib
import io
import sys
import time
from typing import IO, Iterator, List, Optional

import msgspec
import typer

from .console import EXIT_FINDINGS, EXIT_INPUT, EXIT_INTERNAL, EXIT_OK, fail as _fail

FORMATS = ("text", "json", "junit")


def _with_progress(items: Iterator, paths: List[str], enabled: bool) -> Iterator:
    """``items`` (game audits) with a progress bar on stderr (games, rate, time left), only when enabled."""
    from .progress import bar_for

    with bar_for("auditing", paths, enabled) as bar:
        yield from bar.track(items)


def _timed(items: Iterator) -> Iterator[tuple[object, float]]:
    """Each item with the seconds spent waiting for it (for one job: that game's read and audit)."""
    it = iter(items)
    while True:
        t0 = time.perf_counter()
        try:
            item = next(it)
        except StopIteration:
            return
        yield item, time.perf_counter() - t0


def run_audit(paths: List[str], fmt: str = "text", output: Optional[str] = None, jobs: int = 1,
              explain: Optional[str] = None, progress: Optional[bool] = None,
              select: Optional[List[str]] = None, ignore: Optional[List[str]] = None,
              fail_on: Optional[str] = None, waivers: Optional[str] = None, cluster: Optional[str] = None) -> int:
    """Run the audit command; returns the exit code (see the module docstring).

    ``cluster`` (a Dask scheduler address or ``local:N``) audits on a Dask
    cluster (:mod:`audits.cluster`): the same report and exit code as one process.

    ``select``/``ignore`` (codes or patterns, comma-separated), ``fail_on`` and
    ``waivers`` (a TOML file; default ``paipu.toml`` in the working directory)
    form the :class:`paipu.policy.Policy` every format applies.
    """
    from audits import explain_game
    from schema.reader import LogReader

    from . import reports
    from .policy import PolicyError, build_policy

    if fmt not in FORMATS:
        _fail(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if jobs < 1:
        _fail("--jobs must be at least 1")
    if explain is not None and fmt == "junit":
        _fail("--explain prints text or json, not junit")
    if not paths:
        _fail("no input: name log files, folders, or - for stdin")
    if cluster is not None and jobs > 1:
        _fail("--jobs and --cluster do not mix: the cluster's workers are the jobs")
    if cluster is not None and "-" in paths and explain is None:
        _fail("standard input cannot be shared with cluster workers; write it to a file the workers "
              "can read, or audit it without --cluster")
    try:
        policy = build_policy(select, ignore, fail_on, waivers)
    except PolicyError as e:
        _fail(str(e))
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
        if fmt == "json":
            return _explain_json(found, output)
        lines = explain_game(found)
        reports.write_explain(out_text, lines, terminal=_to_terminal(output))
        code = EXIT_FINDINGS if any(line.startswith("  [error]") for line in lines) else EXIT_OK
        if any(" INTERNAL_ERROR " in line for line in lines):
            code = EXIT_INTERNAL
        _emit(out_text.getvalue(), output)
        return code

    client = None
    if cluster is not None:
        from audits.cluster import ClusterError, connect

        try:
            client = connect(cluster)
        except ClusterError as e:
            _fail(str(e))
    try:
        return _audit_report(paths, fmt, output, jobs, progress, policy, client)
    finally:
        if client is not None:
            for part in client:
                if part is not None:
                    part.close()


def _audit_report(paths: List[str], fmt: str, output: Optional[str], jobs: int, progress: Optional[bool],
                  policy, client) -> int:
    """The audit of ``paths`` in one of the report formats; returns the exit code."""
    from audits import audit_paths

    from . import reports
    from .formats import GameResult, JsonStream, junit_xml
    from .policy import judge, unmatched_waivers

    out_text = io.StringIO()
    orphans: list = []
    show = sys.stderr.isatty() if progress is None else progress
    on = {"cluster": client[0]} if client else {}
    games = _timed(_with_progress(audit_paths(paths, jobs=jobs, orphans=orphans, **on), paths, show))
    if client is not None:
        games = _cluster_errors(games)
    failed = False
    internal = False  # some game hit a bug in paipu (INTERNAL_ERROR)
    used: dict = {}  # the waivers that matched, by identity (bounded by the waivers file)
    if fmt == "json":
        with _binary_output(output) as out:
            stream = JsonStream(out)
            for audit, _seconds in games:
                internal |= audit.internal_error
                v = judge(audit, policy)
                failed |= v.failed
                used.update((id(w), w) for _f, w in v.waived)
                stream.write_game(v)
            stream.write_orphans(orphans)
    else:
        results = []
        for audit, seconds in games:
            internal |= audit.internal_error
            v = judge(audit, policy)
            failed |= v.failed
            used.update((id(w), w) for _f, w in v.waived)
            results.append(GameResult(v, seconds))
        if fmt == "junit":
            _emit(junit_xml(results, orphans, policy), output)
        else:
            shown = [msgspec.structs.replace(r.verdict.audit, findings=r.verdict.reported) for r in results]
            reports.write_text(out_text, shown, orphans, terminal=_to_terminal(output))
            _write_policy_notes(out_text, results, policy)
            _emit(out_text.getvalue(), output)
    for w in unmatched_waivers(policy, used.values()):
        typer.echo(f"paipu: {w.origin} ({w.describe()}) matched no finding", err=True)
    if internal:
        # a bug in paipu (INTERNAL_ERROR on its game): the other games were audited
        typer.echo("paipu: internal error on some game (INTERNAL_ERROR findings); please report it", err=True)
        return EXIT_INTERNAL
    if orphans:
        for p in orphans[:5]:
            typer.echo(f"paipu: {p}", err=True)
        return EXIT_INPUT
    return EXIT_FINDINGS if failed else EXIT_OK


def _cluster_errors(items: Iterator) -> Iterator:
    """``items``, with a cluster that fails mid-run reported in one sentence (exit 2)."""
    from audits.cluster import ClusterError

    try:
        yield from items
    except ClusterError as e:
        _fail(str(e))


def _explain_json(log, output: Optional[str]) -> int:
    """``--explain`` with ``--format json``: the derivation records (``audits.explain``:
    kinds ``game``, ``hand``, ``settlement``), then the game's findings, then its
    summary record, one JSON object per line.  The exit code is as for text."""
    from audits.audit import explain_records
    from audits.corrections import summary_record

    from .formats import file_fingerprint

    audit, records = explain_records(log)
    enc = msgspec.json.Encoder()
    buf = bytearray()
    summary = summary_record(audit)
    source = file_fingerprint(audit.file)
    if source is not None:
        summary["source"] = source  # as in the JSON stream's summary records
    from .formats import finding_record

    # every record says what it is: the derivation's kind, "finding", "summary"
    items = [{"record": r["kind"], **r} for r in records] + [finding_record(f) for f in audit.findings] + [summary]
    for item in items:
        enc.encode_into(item, buf, len(buf))
        buf.extend(b"\n")
    with _binary_output(output) as out:
        out.write(bytes(buf))
        out.flush()
    if audit.internal_error:
        return EXIT_INTERNAL
    return EXIT_FINDINGS if audit.errors else EXIT_OK


def _write_policy_notes(out: io.StringIO, results: list, policy) -> None:
    """Text report tail: the waived findings, and the verdict under fail-on."""
    from .reports import format_finding

    waived = [(f, w) for r in results for f, w in r.verdict.waived]
    if waived:
        out.write(f"Waived ({len(waived)}):\n")
        for f, w in waived[:50]:
            out.write(f"  {format_finding(f)} [waived: {w.reason}; until {w.expires.isoformat()}]\n")
        if len(waived) > 50:
            out.write(f"  … and {len(waived) - 50} more waived\n")
    dropped = sum(r.verdict.dropped for r in results)
    if dropped:
        out.write(f"Not selected: {dropped} finding(s) (--select/--ignore)\n")
    failing = sum(1 for r in results if r.verdict.failed)
    out.write(f"Verdict (fail on {policy.fail_on}): {failing} of {len(results)} games fail\n")


@contextlib.contextmanager
def _binary_output(output: Optional[str]) -> Iterator[IO[bytes]]:
    """The report's byte stream: stdout for no ``--output`` or ``-``, else the file (opened now)."""
    if not output or output == "-":
        yield sys.stdout.buffer
        return
    from .outfiles import open_output

    try:
        f = open_output(output)
    except OSError as e:
        _fail(f"cannot write {output}: {e.strerror or e}")
    with f:
        yield f


def _to_terminal(output: Optional[str]) -> bool:
    """The text goes to a terminal (standard output, not piped): fit it and colour it."""
    return (not output or output == "-") and sys.stdout.isatty()


def _emit(text: str, output: Optional[str]) -> None:
    if output and output != "-":
        from .outfiles import open_output

        try:
            with open_output(output, text=True) as f:
                f.write(text)
        except OSError as e:
            _fail(f"cannot write {output}: {e.strerror or e}")
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def _codes_option(values: Optional[List[str]]) -> Optional[List[str]]:
    return list(values) if values else None


def register(app: typer.Typer) -> None:
    """Add ``paipu audit`` to the command-line app."""

    @app.command("audit")
    def audit_cmd(
        paths: List[str] = typer.Argument(None, help="Log files, folders (recursive .jsonl/.jsonl.gz), or - for stdin."),
        fmt: str = typer.Option("text", "--format", "-f", help="text (summary tables), json (JSON lines of "
                                "findings and a summary record per game, streamed game by game) or junit (JUnit XML, one testcase per game)."),
        output: Optional[str] = typer.Option(None, "--output", "-o", help="Write the report to this file (- for stdout)."),
        jobs: int = typer.Option(1, "--jobs", "-j", help="Audit games in this many processes."),
        explain: Optional[str] = typer.Option(None, "--explain", help="Derive one game's settlements step by step "
                                              "(with --format json: the derivation records, findings and summary)."),
        select: Optional[List[str]] = typer.Option(None, "--select", help="Report only these finding codes "
                                                   "(comma-separated; * patterns such as CLAIM_*)."),
        ignore: Optional[List[str]] = typer.Option(None, "--ignore", help="Never report these finding codes "
                                                   "(comma-separated; * patterns)."),
        fail_on: Optional[str] = typer.Option(None, "--fail-on", help="error (default) or warning: the lowest "
                                              "severity that fails a game and sets exit 1."),
        waivers: Optional[str] = typer.Option(None, "--waivers", help="TOML file of waivers and [audit] defaults "
                                              "(default: ./paipu.toml when it exists)."),
        cluster: Optional[str] = typer.Option(None, "--cluster", help="Audit on a Dask cluster: a scheduler "
                                              "address (tcp://host:8786) or local:N for N local worker "
                                              "processes; the workers read the files themselves (docs/scale.md; needs "
                                              "the paipu[cluster] extra)."),
    ) -> None:
        """Audit game logs against the ruleset each room declares; report every deviation.

        Exit 0: no game fails (no unwaived finding at or above --fail-on); 1: some game
        fails; 2: unreadable input or bad usage (including an expired waiver or an
        unknown code).
        """
        raise typer.Exit(run_audit(list(paths or []), fmt, output, jobs, explain, None,
                                   _codes_option(select), _codes_option(ignore), fail_on, waivers, cluster))
