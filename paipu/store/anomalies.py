"""The anomaly library: named SQL checks over the history store.

Each check is one file ``paipu/store/sql/<code>.sql``.  Its header comment states the
statistic and the threshold, and declares its parameters::

    -- title: wrong 点鸡 payouts
    -- statistic: …
    -- threshold: …
    -- param tolerance INTEGER = 0: points of difference tolerated

Parameters appear in the query as ``$name`` placeholders and are always bound
by DuckDB, never pasted into the SQL text.  Every check returns only failing
rows, with the columns of :data:`COLUMNS` (``game``, ``hand``, ``seq`` and
``seat`` locate the fault; aggregate checks leave what does not apply NULL).
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
COLUMNS = ("game", "hand", "seq", "seat", "player", "detail")

#: Parameter types a check may declare.
PARAM_TYPES = ("INTEGER", "DOUBLE", "VARCHAR", "TIMESTAMPTZ")

_PARAM = re.compile(r"^param\s+(\w+)\s+(\w+)\s*=\s*(\S+)\s*:\s*(.*)$")


class AnomalyError(ValueError):
    """A bad check name, parameter or check file (one sentence for the user)."""


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
        except duckdb.Error as e:
            msg = str(e).strip().splitlines()[0]
            raise AnomalyError(f"check {check.code} failed: {msg}") from None
        if names != COLUMNS:
            raise AnomalyError(f"check {check.code} returns columns {', '.join(names)}, not {', '.join(COLUMNS)}")
        results.append(CheckResult(check, rows, time.perf_counter() - t0, values))
    return results


__all__ = ["AnomalyError", "COLUMNS", "Check", "CheckResult", "Param", "SQL_DIR", "bind", "convert",
           "load_checks", "parse_check", "parse_params", "run_checks", "select"]
