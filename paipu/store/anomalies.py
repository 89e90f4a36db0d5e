"""The anomaly library: named SQL checks over the history store.

Each check is one file ``paipu/store/sql/<code>.sql``.  Its header comment states the
statistic and the threshold, and declares its parameters::

    -- title: wrong 点鸡 payouts
    -- statistic: …
    -- threshold: …
    -- param tolerance INTEGER = 0: points of difference tolerated

Parameters appear in the query as ``$name`` placeholders and are always bound
by DuckDB, never pasted into the SQL text.  Every check returns only failing
rows, with the columns of :data:`COLUMNS`: ``game``, ``hand``, ``seq`` and
``seat`` locate the fault (aggregate checks leave what does not apply NULL),
``detail`` says it in a sentence, and the evidence is data too: ``statistic``
names the statistic the threshold is on (``z``, ``chi2``, ``difference``,
``score``, ``copies``), ``value`` is its value, ``rate`` the observed rate,
``baseline`` what the rule or the population expects, ``n`` the sample size
(NULL where one does not apply).

A user's own checks (``paipu anomalies --checks-dir DIR``) are files in the same
format, run beside the library's (:func:`load_all`).
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from typing import Any, Iterable, Mapping, Optional, Sequence

import duckdb

#: The folder of the check files.
SQL_DIR = os.path.join(os.path.dirname(__file__), "sql")

#: The columns every check returns, in order.
COLUMNS = ("game", "hand", "seq", "seat", "player", "detail", "statistic", "value", "rate", "baseline", "n")

#: The columns of :func:`summary_rows`: one row per check that fired, with its strongest evidence.
SUMMARY_COLUMNS = ("code", "rows", "statistic", "value", "rate", "baseline", "n", "game", "hand", "seq", "seat",
                   "player", "detail", "title")

#: Parameter types a check may declare.
PARAM_TYPES = ("INTEGER", "DOUBLE", "VARCHAR", "TIMESTAMPTZ")

_PARAM = re.compile(r"^param\s+(\w+)\s+(\w+)\s*=\s*(\S+)\s*:\s*(.*)$")


class AnomalyError(ValueError):
    """A bad check name, parameter or check file (one sentence for the user)."""


class LimitHit(AnomalyError):
    """A check stopped at the time limit (``limit == "time"``: the connection was
    interrupted) or the memory limit (``"memory"``); the command line names the limit
    and how to raise it."""

    def __init__(self, check: str, limit: str):
        super().__init__(f"check {check} stopped at the {limit} limit")
        self.check = check
        self.limit = limit


@dataclass(frozen=True)
class Param:
    """One declared parameter of a check."""

    name: str
    type: str
    default: Any
    doc: str


@dataclass(frozen=True)
class Check:
    """One anomaly check, parsed from its ``.sql`` file."""

    code: str
    path: str
    title: str
    statistic: str
    threshold: str
    params: tuple[Param, ...]
    sql: str


@dataclass
class CheckResult:
    """The failing rows of one check, and how long it took."""

    check: Check
    rows: list[tuple] = field(default_factory=list)
    seconds: float = 0.0
    params: dict[str, Any] = field(default_factory=dict)


def convert(value: str, type_: str, name: str = "value") -> Any:
    """Turn a command-line string into a value of a parameter type (``null`` is NULL)."""
    text = value.strip()
    if text.lower() in ("null", "none", ""):
        return None
    try:
        if type_ == "INTEGER":
            return int(text)
        if type_ == "DOUBLE":
            return float(text)
        if type_ == "TIMESTAMPTZ":
            dt = datetime.fromisoformat(text.replace("Z", "+00:00")) if "T" in text or ":" in text else \
                datetime.combine(date.fromisoformat(text), datetime.min.time())
            return dt if dt.tzinfo else dt.replace(tzinfo=timezone.utc)
        return text
    except ValueError:
        kind = {"INTEGER": "an integer", "DOUBLE": "a number",
                "TIMESTAMPTZ": "a date or time (2026-01-31 or 2026-01-31T12:00)"}.get(type_, "text")
        raise AnomalyError(f"parameter {name}={value!r} is not {kind}") from None


def parse_check(path: str) -> Check:
    """Read one check file and its header."""
    code = os.path.basename(path).removesuffix(".sql")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    header: dict[str, str] = {}
    params: list[Param] = []
    key = None
    for line in text.splitlines():
        if not line.startswith("--"):
            break
        body = line[2:].strip()
        m = _PARAM.match(body)
        if m:
            name, type_, default, doc = m.groups()
            if type_ not in PARAM_TYPES:
                raise AnomalyError(f"{path}: parameter {name} has unknown type {type_}")
            params.append(Param(name, type_, convert(default, type_, name), doc.strip()))
            key = None
            continue
        if ":" in body and body.split(":", 1)[0] in ("title", "statistic", "threshold"):
            key, _, rest = body.partition(":")
            header[key] = rest.strip()
        elif key is not None and body:
            header[key] += " " + body
    for k in ("title", "statistic", "threshold"):
        if not header.get(k):
            raise AnomalyError(f"{path}: the header has no `{k}:` line")
    for p in params:
        if f"${p.name}" not in text:
            raise AnomalyError(f"{path}: parameter {p.name} is declared but not used")
    return Check(code, path, header["title"], header["statistic"], header["threshold"], tuple(params), text)


def load_checks(directory: str = SQL_DIR) -> dict[str, Check]:
    """Every check in ``directory``, by code, sorted by code."""
    names = sorted(f for f in os.listdir(directory) if f.endswith(".sql"))
    return {c.code: c for c in (parse_check(os.path.join(directory, f)) for f in names)}


def load_all(checks_dir: Optional[str] = None) -> dict[str, Check]:
    """The library's checks, plus the user's checks in ``checks_dir`` (same format, one file each)."""
    checks = load_checks()
    if not checks_dir:
        return checks
    if not os.path.isdir(checks_dir):
        raise AnomalyError(f"--checks-dir {checks_dir} is not a folder")
    mine = load_checks(checks_dir)
    if not mine:
        raise AnomalyError(f"--checks-dir {checks_dir} holds no .sql check files")
    for code, check in mine.items():
        if code in checks:
            raise AnomalyError(f"{check.path}: a check named {code!r} is already in the library; rename the file")
    return {**checks, **mine}


def strongest(result: CheckResult) -> Optional[tuple]:
    """The row of ``result`` with the largest ``|value|`` (the first such row), or ``None``."""
    i = COLUMNS.index("value")
    best = None
    for row in result.rows:
        v = row[i]
        if v is None:
            continue
        if best is None or abs(v) > abs(best[i]):
            best = row
    return best if best is not None else (result.rows[0] if result.rows else None)


def summary_rows(results: Iterable[CheckResult]) -> list[tuple]:
    """One row per check that fired (:data:`SUMMARY_COLUMNS`): its row count and strongest evidence."""
    out = []
    col = {c: k for k, c in enumerate(COLUMNS)}
    for r in results:
        row = strongest(r)
        if row is None:
            continue
        out.append((r.check.code, len(r.rows), row[col["statistic"]], row[col["value"]], row[col["rate"]],
                    row[col["baseline"]], row[col["n"]], row[col["game"]], row[col["hand"]], row[col["seq"]],
                    row[col["seat"]], row[col["player"]], row[col["detail"]], r.check.title))
    return out


def summary_line(row: tuple) -> str:
    """One line for a fired check: code, rows, the statistic of its strongest evidence, and that evidence."""
    d = dict(zip(SUMMARY_COLUMNS, row))
    parts = [f"{d['statistic']} = {_num(d['value'])}"]
    if d["rate"] is not None:
        parts.append(f"rate {d['rate']:.1%}")
    if d["baseline"] is not None:
        parts.append(f"baseline {d['baseline']:.1%}" if d["rate"] is not None else f"baseline {_num(d['baseline'])}")
    if d["n"] is not None:
        parts.append(f"n = {d['n']}")
    where = ", ".join(f"{k} {d[k]}" for k in ("player", "game", "hand") if d[k] is not None)
    rows = f"{d['rows']} row" + ("s" if d["rows"] != 1 else "")
    return (f"{d['code']}: {rows}; strongest {', '.join(parts)}" + (f" ({where})" if where else "")
            + f" — {d['detail']}")


def _num(v: Any) -> str:
    if v is None:
        return "NULL"
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return str(int(v))
    return f"{v:.2f}" if isinstance(v, float) else str(v)


def parse_params(pairs: Iterable[str]) -> dict[str, str]:
    """``["z=3", "since=2026-01-01"]`` → ``{"z": "3", "since": "2026-01-01"}``."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise AnomalyError(f"parameter {pair!r} is not name=value")
        out[name] = value
    return out


def select(checks: Mapping[str, Check], only: Optional[Sequence[str]] = None) -> list[Check]:
    """The checks named in ``only`` (any case), or all of them."""
    if not only:
        return list(checks.values())
    out = []
    for name in only:
        code = name.strip().lower()
        if code not in checks:
            raise AnomalyError(f"no anomaly check named {name!r}; checks: {', '.join(checks)}")
        if checks[code] not in out:
            out.append(checks[code])
    return out


def bind(check: Check, given: Mapping[str, str]) -> dict[str, Any]:
    """The values to bind for ``check``: its defaults, overridden by ``given`` strings."""
    values = {}
    for p in check.params:
        values[p.name] = convert(given[p.name], p.type, p.name) if p.name in given else p.default
    return values


def run_checks(con: duckdb.DuckDBPyConnection, only: Optional[Sequence[str]] = None,
               params: Optional[Mapping[str, str]] = None,
               checks: Optional[Mapping[str, Check]] = None) -> list[CheckResult]:
    """Run the selected checks on the store behind ``con``; return each one's failing rows.

    A parameter no selected check declares is an error (a typo would otherwise
    pass silently).
    """
    checks = load_checks() if checks is None else checks
    chosen = select(checks, only)
    given = dict(params or {})
    known = {p.name for c in chosen for p in c.params}
    unknown = sorted(set(given) - known)
    if unknown:
        raise AnomalyError(f"no selected check takes parameter {unknown[0]!r}; "
                           f"parameters: {', '.join(sorted(known)) or 'none'}")
    results = []
    for check in chosen:
        values = bind(check, given)
        t0 = time.perf_counter()
        try:
            cur = con.execute(check.sql, values)
            rows = cur.fetchall()
            names = tuple(d[0] for d in cur.description)
        except duckdb.InterruptException:
            raise LimitHit(check.code, "time") from None
        except duckdb.OutOfMemoryException:
            raise LimitHit(check.code, "memory") from None
        except duckdb.Error as e:
            msg = str(e).strip().splitlines()[0]
            raise AnomalyError(f"check {check.code} failed: {msg}") from None
        if names != COLUMNS:
            raise AnomalyError(f"check {check.code} returns columns {', '.join(names)}, not {', '.join(COLUMNS)}")
        results.append(CheckResult(check, rows, time.perf_counter() - t0, values))
    return results


__all__ = ["AnomalyError", "COLUMNS", "LimitHit", "Check", "CheckResult", "Param", "SQL_DIR", "SUMMARY_COLUMNS", "bind",
           "convert", "load_all", "load_checks", "parse_check", "parse_params", "run_checks", "select", "strongest",
           "summary_line", "summary_rows"]
