"""``paipu ingest``, ``paipu query`` and ``paipu anomalies``: the history store on the command line."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import sys
from datetime import date, datetime
from decimal import Decimal
from typing import Any, List, Optional

import duckdb
import typer
from rich.console import Console
from rich.table import Table as RichTable

from . import store
from .console import EXIT_FINDINGS, EXIT_INTERNAL, fail
from .store.query import (  # noqa: F401  (re-exported: the guard lives in paipu.store.query)
    DEFAULT_MEMORY, DEFAULT_TIMEOUT, QueryRefused, check_output, check_read_only, limit_message, open_read_only,
    run_query, time_limit,
)

EXIT_FOUND = EXIT_FINDINGS
FORMATS = ("table", "csv", "json", "parquet")


def _err() -> Console:
    return Console(stderr=True)


_fail = fail


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def _plain(v: Any) -> Any:
    if isinstance(v, float) and not math.isfinite(v):
        # JSON has no infinity (an X² of a pattern no chance could make): its name, as text
        return "NaN" if v != v else ("Infinity" if v > 0 else "-Infinity")
    if isinstance(v, (datetime, date)):
        return v.isoformat()
    if isinstance(v, Decimal):
        return float(v)
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    return v


def render(cols: list[str], rows: list[tuple], fmt: str, out: io.TextIOBase, title: Optional[str] = None) -> None:
    """Write rows as a rich table, CSV or JSON (a list of objects)."""
    if fmt == "csv":
        w = csv.writer(out, lineterminator="\n")
        w.writerow(cols)
        for r in rows:
            w.writerow(["" if v is None else json.dumps(_plain(v), ensure_ascii=False)
                        if isinstance(v, (list, dict)) else _plain(v) for v in r])
    elif fmt == "json":
        out.write(json.dumps([dict(zip(cols, map(_plain, r))) for r in rows], ensure_ascii=False, indent=1,
                             allow_nan=False))
        out.write("\n")
    else:
        t = RichTable(title=title, show_lines=False)
        for c in cols:
            t.add_column(c, overflow="fold")
        for r in rows:
            t.add_row(*("" if v is None else str(_plain(v)) for v in r))
        Console(file=out, width=200 if not getattr(out, "isatty", lambda: False)() else None).print(t)


def _emit(cols: list[str], rows: list[tuple], fmt: str, output: Optional[str]) -> None:
    if output:
        try:
            from .outfiles import open_output

            with open_output(output, text=True, newline="") as f:
                render(cols, rows, fmt, f)
        except OSError as e:
            _fail(f"cannot write {output}: {e.strerror}")
    else:
        render(cols, rows, fmt, sys.stdout)


def _apply_limits(max_line_bytes: Optional[int]) -> Any:
    """Check the input limits (environment and option) and put them in force, or fail with one sentence."""
    from schema import limits

    try:
        lim = limits.from_env()
        if max_line_bytes is not None:
            lim = limits.Limits(max_line_bytes=max_line_bytes, max_depth=lim.max_depth)
    except ValueError as e:
        _fail(str(e))
    return limits.set_limits(lim)  # ingest reads every file in this process (workers only audit)


# ---------------------------------------------------------------------------
# the commands


def ingest_cmd(
    paths: List[str] = typer.Argument(..., help="Logs (.jsonl, .jsonl.gz), folders of logs, or - for stdin."),
    db: str = typer.Option(store.DEFAULT_DB, "--db", help="The store (a DuckDB file; created if missing)."),
    no_audit: bool = typer.Option(False, "--no-audit", help="Skip the audit (no findings are stored)."),
    batch_events: int = typer.Option(store.DEFAULT_BATCH_EVENTS, "--batch-events", min=1,
                                     help="Events per transaction (a batch is cut at this many events "
                                     "or at --batch-games games, whichever comes first)."),
    batch_games: int = typer.Option(store.DEFAULT_BATCH_GAMES, "--batch-games", min=1,
                                    help="Games per transaction at most."),
    jobs: int = typer.Option(1, "--jobs", "-j", min=1,
                             help="Worker processes for the audit (each reads its own share of the logs)."),
    max_line_bytes: Optional[int] = typer.Option(
        None, "--max-line-bytes", help="Longest log line read (default 1 MiB; a longer line is reported "
        "and skipped)."),
    parquet: Optional[str] = typer.Option(None, "--parquet", help="Write a hive-partitioned Parquet dataset "
                                          "in this folder or fsspec URL instead of the DuckDB file "
                                          "(docs/scale.md)."),
    cluster: Optional[str] = typer.Option(None, "--cluster", help="Run the audit on a Dask cluster: a "
                                          "scheduler address (tcp://host:8786) or local:N worker processes (needs the "
                                          "paipu[cluster] extra)."),
    audit_output: Optional[str] = typer.Option(
        None, "--audit-output", help="Store the findings and ledger of a finished audit instead of auditing "
        "here: the file `paipu audit LOGS --format json -o FILE` wrote for these same logs (refused if the "
        "logs changed since)."),
    keep_raw: bool = typer.Option(False, "--keep-raw", help="Keep each event's whole JSON too (the events "
                                  "table's `raw` column); without it the event's fields are in the typed "
                                  "columns and `extra`."),
) -> None:
    """Load games into the history store: events, games, hands, players, transfers, findings.

    Every game read is counted once: added, replaced, unchanged or refused (with why).
    Exit 3 if paipu hit an internal error on a game (every other game is stored).
    """
    missing = [p for p in paths if p != "-" and not os.path.exists(p)]
    if missing:
        _fail(f"no such file or folder: {missing[0]}")
    if audit_output is not None and no_audit:
        _fail("--audit-output stores an audit's findings; it cannot go with --no-audit")
    if audit_output is not None and not os.path.isfile(audit_output):
        _fail(f"no such audit output: {audit_output}")
    previous_limits = _apply_limits(max_line_bytes)
    err = _err()
    bar = None
    progress = None
    if sys.stderr.isatty():
        from .progress import bar_for

        bar = bar_for("ingesting", paths, True).start()

        def show(r: store.IngestReport) -> None:
            bar.update(r.games_read, f"{r.events:,} events written")
        progress = show
    client = local = None
    if cluster is not None and not no_audit:
        from audits.cluster import ClusterError, connect

        try:
            client, local = connect(cluster)
        except ClusterError as e:
            _fail(str(e))
    try:
        report = store.ingest(paths, db, audit=not no_audit, jobs=jobs, batch_events=batch_events,
                              batch_games=batch_games,
                              progress=progress, parquet=parquet, cluster=client, audit_output=audit_output,
                              keep_raw=keep_raw)
    except store.StoreError as e:
        _fail(str(e))
    except duckdb.Error as e:
        _fail(f"the store {parquet or db} could not be written: {_first_line(e)}")
    except OSError as e:
        _fail(f"the store {parquet or db} could not be written: {e}")
    finally:
        from schema import limits

        limits.set_limits(previous_limits)
        if bar is not None:
            bar.stop()
        if client is not None:
            client.close()
        if local is not None:
            local.close()
    # one line each, never wrapped (paths and ids stay greppable)
    for o in report.orphans:
        typer.echo(f"paipu: {o}", err=True)
    for g in report.replaced:
        typer.echo(f"paipu: game {g} changed since it was stored; replaced", err=True)
    for why in report.refused[:20]:
        typer.echo(f"paipu: refused {why}", err=True)
    if len(report.refused) > 20:
        typer.echo(f"paipu: … and {len(report.refused) - 20} more games refused", err=True)
    if report.audit_note:
        err.print(f"paipu: {report.audit_note}", highlight=False)
    rate = f", {report.events_per_second:,.0f} events/s" if report.events else ""
    typer.echo(f"{report.games_read} games read: {report.added} added, {len(report.replaced)} replaced, "
               f"{report.unchanged} unchanged, {len(report.refused)} refused; {report.events:,} events, "
               f"{report.findings:,} findings written to {parquet or db} in {report.seconds:.1f}s{rate}")
    if report.internal_errors:
        _fail(f"{report.internal_errors} game(s) hit an internal error in paipu (a bug; please report it "
              "with the input); every other game was stored", EXIT_INTERNAL)
    if report.audit_internal_errors:
        first = ", ".join(report.audit_internal_errors[:3])
        _fail(f"the audit hit an internal error in paipu on {len(report.audit_internal_errors)} game(s) "
              f"({first}{', …' if len(report.audit_internal_errors) > 3 else ''}; an INTERNAL_ERROR finding, "
              "a bug: please report it with the input); they and every other game were stored", EXIT_INTERNAL)

def query_cmd(
    sql: str = typer.Argument(..., help="One SELECT (or WITH/SHOW/DESCRIBE/EXPLAIN) statement."),
    db: str = typer.Option(store.DEFAULT_DB, "--db", help="The store."),
    fmt: str = typer.Option("table", "--format", "-f", help="table, csv, json or parquet."),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="Write here instead of stdout."),
    timeout: float = typer.Option(DEFAULT_TIMEOUT, "--timeout", help="Stop the query after this many seconds."),
    memory: str = typer.Option(DEFAULT_MEMORY, "--memory", help="Memory limit of the query (e.g. 500MB, 2GB)."),
    parquet: Optional[str] = typer.Option(None, "--parquet", help="Query the Parquet dataset in this folder "
                                          "or URL instead of the DuckDB file."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing --output that is not an "
                               "earlier output of this format (never the store's own files)."),
) -> None:
    """Run read-only SQL on the store (writes, ATTACH, COPY, INSTALL, EXPLAIN ANALYZE … are refused)."""
    if fmt not in FORMATS:
        _fail(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")
    if fmt == "parquet" and not output:
        _fail("--format parquet needs --output FILE")
    try:
        cols, rows = run_query(db, sql, fmt, output, timeout=timeout, memory=memory, parquet=parquet,
                               force=force)
    except (store.StoreError, QueryRefused) as e:
        _fail(str(e))
    if fmt != "parquet":
        _emit(cols, rows, fmt, output)

def anomalies_cmd(
    db: str = typer.Option(store.DEFAULT_DB, "--db", help="The store."),
    parquet: Optional[str] = typer.Option(None, "--parquet", help="Run on the Parquet dataset in this folder "
                                          "or URL instead of the DuckDB file."),
    only: Optional[List[str]] = typer.Option(None, "--only", help="Run only this check (repeatable)."),
    param: Optional[List[str]] = typer.Option(None, "--param", "-p", help="name=value (repeatable)."),
    rows_out: bool = typer.Option(False, "--rows", help="Every failing row, not one line per fired check and ruleset."),
    checks_dir: Optional[str] = typer.Option(None, "--checks-dir", help="A folder of your own checks "
                                             "(<code>.sql, the library's format), run with the library's."),
    fmt: str = typer.Option("text", "--format", "-f", help="text (default), table, csv, json or parquet "
                            "(parquet needs --output)."),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="Write here instead of stdout."),
    list_checks: bool = typer.Option(False, "--list", help="List the checks, their statistics and parameters."),
    timeout: float = typer.Option(DEFAULT_TIMEOUT, "--timeout", help="Stop the checks after this many seconds."),
    memory: str = typer.Option(DEFAULT_MEMORY, "--memory", help="Memory limit of the checks (e.g. 500MB, 2GB)."),
) -> None:
    """Run the anomaly checks (paipu/store/sql/*.sql and --checks-dir); report the ones that fire.

    Every population and baseline is one ruleset's (preset and options).  By default
    one line per check and ruleset that fired: its row count and its strongest
    evidence (the statistic, its value, rate, baseline and sample size).  --rows
    gives every failing row with the same columns.  Exit code 1 when any check fires.
    """
    from paipu.store import anomalies as A

    if fmt not in ANOMALY_FORMATS:
        _fail(f"unknown format {fmt!r}; formats: {', '.join(ANOMALY_FORMATS)}")
    if fmt == "parquet" and not output:
        _fail("--format parquet needs --output FILE")
    try:
        checks = A.load_all(checks_dir)
        if list_checks:
            for c in A.select(checks, only):
                typer.echo(f"{c.code}: {c.title}\n  statistic: {c.statistic}\n  threshold: {c.threshold}")
                for p in c.params:
                    typer.echo(f"  --param {p.name}=… ({p.type}, default {p.default}): {p.doc}")
            return
        params = A.parse_params(param or [])
        if parquet is not None:
            from .store.query import check_dataset_output

            check_dataset_output(parquet, output)
        else:
            check_output(db, output)
        con = open_read_only(db, memory=memory, parquet=parquet)
        dog = None
        try:
            with time_limit(con, timeout, memory) as dog:
                results = A.run_checks(con, only, params, checks)
        finally:
            con.close()
    except A.LimitHit as e:
        # the watchdog knows which limit it interrupted for (a check sees only the interruption)
        limit = dog.hit if dog is not None and dog.hit is not None else e.limit
        _fail(limit_message(f"check {e.check}", limit, timeout if limit == "time" else memory))
    except (A.AnomalyError, store.StoreError, QueryRefused) as e:
        _fail(str(e))
    if rows_out:
        cols = ["code", *A.COLUMNS]
        rows = [(r.check.code, *row) for r in results for row in r.rows]
    else:
        cols = list(A.SUMMARY_COLUMNS)
        rows = A.summary_rows(results)
    if fmt == "parquet":
        _write_parquet(cols, rows, output)
    elif fmt == "text":
        text = "".join(A.summary_line(r) + "\n" for r in rows) if not rows_out else None
        if rows_out:
            _emit(cols, rows, "table", output)
        else:
            from .audit_cmd import _emit as emit_text

            emit_text(text, output)
    else:
        _emit(cols, rows, fmt, output)
    err = _err()
    fired = sum(1 for r in results if r.rows)
    err.print(f"{len(results)} checks run, {fired} fired, "
              f"{sum(len(r.rows) for r in results)} rows in {sum(r.seconds for r in results) * 1000:.0f} ms"
              + ("" if rows_out or not fired else "; --rows lists every row"), highlight=False)
    if fired:
        raise typer.Exit(EXIT_FOUND)

def export_cmd(
    db: str = typer.Option(store.DEFAULT_DB, "--db", help="The DuckDB store to read."),
    parquet: str = typer.Option(..., "--parquet", help="The Parquet dataset to write (folder or fsspec URL)."),
) -> None:
    """Copy the DuckDB store into a Parquet dataset (idempotent by content hash).

    The way out when another DuckDB cannot read the store: export with the paipu that
    wrote it, then `paipu import` with the new one.
    """
    from .store.parquet import export_store

    try:
        n, skipped = export_store(db, parquet)
    except store.StoreError as e:
        _fail(str(e))
    except (duckdb.Error, OSError) as e:
        _fail(f"the dataset {parquet} could not be written: {_first_line(e)}")
    typer.echo(f"{n} games exported from {db} to {parquet} ({skipped} already there)")

def import_cmd(
    parquet: str = typer.Option(..., "--parquet", help="The Parquet dataset to read (folder or fsspec URL)."),
    db: str = typer.Option(store.DEFAULT_DB, "--db", help="The DuckDB store to write (created if missing)."),
) -> None:
    """Load a Parquet dataset into a DuckDB store (idempotent by content hash; changed games replaced)."""
    from .store.parquet import import_dataset

    try:
        added, replaced, unchanged = import_dataset(parquet, db)
    except store.StoreError as e:
        _fail(str(e))
    except (duckdb.Error, OSError) as e:
        _fail(f"the store {db} could not be written: {_first_line(e)}")
    typer.echo(f"{added} games added, {replaced} replaced, {unchanged} unchanged in {db} from {parquet}")


def register(app: typer.Typer) -> None:
    """Add ``ingest``, ``query``, ``anomalies``, ``export`` and ``import`` to the paipu app (each
    command is its own function below)."""
    app.command("ingest")(ingest_cmd)
    app.command("query")(query_cmd)
    app.command("anomalies")(anomalies_cmd)
    app.command("export")(export_cmd)
    app.command("import")(import_cmd)


ANOMALY_FORMATS = ("text", "table", "csv", "json", "parquet")


def _write_parquet(cols: list[str], rows: list[tuple], output: str) -> None:
    """Rows as a Parquet file (written by DuckDB from the rows given)."""
    con = duckdb.connect()
    try:
        values = {c: [r[k] for r in rows] for k, c in enumerate(cols)}
        rel = con.sql("SELECT " + ", ".join(f"unnest($c{k}) AS \"{c}\"" for k, c in enumerate(cols)),
                      params={f"c{k}": values[c] for k, c in enumerate(cols)}) if rows else None
        if rel is None:
            con.execute("CREATE TABLE empty_rows (" + ", ".join(f'"{c}" VARCHAR' for c in cols) + ")")
            rel = con.table("empty_rows")
        rel.write_parquet(os.path.abspath(output))
    except (duckdb.Error, OSError) as e:
        _fail(f"cannot write {output}: {_first_line(e)}")
    finally:
        con.close()


__all__ = ["QueryRefused", "check_output", "check_read_only", "open_read_only", "register", "render", "run_query"]
