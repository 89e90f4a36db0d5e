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
(NULL where one does not apply), and ``ruleset`` the ruleset the row was judged in.

Every population and baseline is taken within one ruleset: the view
``game_rulesets`` (:func:`rulesets_view_sql`) gives each game its ruleset — the
preset and every option the log set to another value than the preset's own, except
those that only scale the money (:data:`MONEY_ONLY_OPTIONS`) — and the tile kinds of its set, which the shuffle
check reads.  Qujing, Guangdong and Sichuan (and 血战到底 beside plain Sichuan)
are won, drawn and claimed at their own rates, so one pooled baseline would
flag every player of the rarer ruleset.

The checks also live inside the store (:func:`install_statements`, run when a store is opened to write): ``anomaly_<code>(…)``
table macros with the same parameters and defaults, and the ``anomalies`` view of
every library check at its defaults, so ``duckdb store.duckdb`` alone runs them.

A user's own checks (``paipu anomalies --checks-dir DIR``) are files in the same
format, run beside the library's (:func:`load_all`); one written before the
``ruleset`` column may leave it out.
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
COLUMNS = ("game", "hand", "seq", "seat", "player", "detail", "statistic", "value", "rate", "baseline", "n",
           "ruleset")

#: The columns a user's check written before ``ruleset`` returns (its rows get a NULL ruleset).
LEGACY_COLUMNS = COLUMNS[:-1]

#: The columns of :func:`summary_rows`: one row per check and ruleset that fired, with its strongest evidence.
SUMMARY_COLUMNS = ("code", "ruleset", "rows", "statistic", "value", "rate", "baseline", "n", "game", "hand", "seq",
                   "seat", "player", "detail", "title")

#: Options that only scale what a hand pays (底分 ``base``): games that differ in them alone are
#: one population.  Every other option can change how hands are won, drawn or claimed (吃, 血战到底,
#: the draw reserve, 起和番 …), so it makes a ruleset of its own.
MONEY_ONLY_OPTIONS = ("base",)

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


def by_ruleset(result: CheckResult) -> list[CheckResult]:
    """``result`` split by the ruleset its rows were judged in (first appearance order)."""
    i = COLUMNS.index("ruleset")
    groups: dict[Any, list[tuple]] = {}
    for row in result.rows:
        groups.setdefault(row[i], []).append(row)
    return [CheckResult(result.check, rows, result.seconds, result.params) for rows in groups.values()]


def summary_rows(results: Iterable[CheckResult]) -> list[tuple]:
    """One row per check and ruleset that fired (:data:`SUMMARY_COLUMNS`): the row count and
    the strongest evidence within that ruleset."""
    out = []
    col = {c: k for k, c in enumerate(COLUMNS)}
    for whole in results:
        for r in by_ruleset(whole):
            row = strongest(r)
            if row is None:
                continue
            out.append((r.check.code, row[col["ruleset"]], len(r.rows), row[col["statistic"]], row[col["value"]],
                        row[col["rate"]], row[col["baseline"]], row[col["n"]], row[col["game"]], row[col["hand"]],
                        row[col["seq"]], row[col["seat"]], row[col["player"]], row[col["detail"]], r.check.title))
    return out


def summary_line(row: tuple) -> str:
    """One line for a check fired in a ruleset: code, ruleset, rows, the statistic of its
    strongest evidence, and that evidence."""
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
    code = d["code"] + (f" ({d['ruleset']})" if d["ruleset"] is not None else "")
    return (f"{code}: {rows}; strongest {', '.join(parts)}" + (f" ({where})" if where else "")
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
    ensure_rulesets(con)
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
        if names == LEGACY_COLUMNS:
            rows = [(*row, None) for row in rows]
        elif names != COLUMNS:
            raise AnomalyError(f"check {check.code} returns columns {', '.join(names)}, not {', '.join(COLUMNS)}")
        results.append(CheckResult(check, rows, time.perf_counter() - t0, values))
    return results


# ---------------------------------------------------------------------------
# the rulesets view and the checks inside the store


def _literal(value: Any) -> str:
    """``value`` as a SQL literal (the defaults of the stored macros; never user input)."""
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, datetime):
        return f"TIMESTAMPTZ '{value.isoformat()}'"
    return "'" + str(value).replace("'", "''") + "'"


#: What the columns of ``game_rulesets`` hold (the store's COMMENTs and docs/store.md).
RULESETS_COLUMNS = (
    ("game", "game id"),
    ("family", "the rule family (qujing, sichuan, changsha …; unknown when the ruleset did not resolve)"),
    ("preset", "the preset the room named"),
    ("ruleset", "the population the anomaly checks judge the game in: the preset and every option the log "
                "set to another value than the preset's own, except those that only scale the money (base)"),
    ("tile_kinds", "the tile kinds of the set, four of each (34, or 27 for the 108-tile sets of Sichuan and Changsha)"),
)

#: What the ``game_rulesets`` view is, for its COMMENT.
RULESETS_DOC = ("Each game's ruleset as the anomaly checks group it (every population and baseline is taken "
                "within one ruleset), and the tile kinds of its set.")


def _preset_options() -> str:
    """Every preset and its options as one JSON object, as ``(preset, options)`` SQL rows (the view
    spreads them with ``json_each``: a few rows to plan, not one per option)."""
    import msgspec

    from schema.ruleset import PRESETS

    return ", ".join(f"({_literal(name)}, {_literal(msgspec.json.encode(rules).decode())})"
                     for name, rules in PRESETS.items())


def rulesets_view_sql(temp: bool = False) -> str:
    """The ``game_rulesets`` view: each game's family, preset, ruleset label and tile kinds.

    The label is the preset and the options the log set to another value than the preset's
    own (an option written out at the preset's value plays the preset's rules: the same
    population), except the money-only ones.  The kinds come from the presets' rulesets
    (``Ruleset.tile_kinds``), one list per family; a family without a preset has NULL kinds
    (the shuffle check leaves it out).
    """
    from schema.ruleset import PRESETS

    kinds: dict[str, tuple[str, ...]] = {}
    for rules in PRESETS.values():
        kinds.setdefault(rules.family, rules.tile_kinds)
    values = ", ".join(f"({_literal(fam)}, [{', '.join(_literal(k) for k in ks)}])" for fam, ks in kinds.items())
    money = ", ".join(_literal(o) for o in MONEY_ONLY_OPTIONS)
    return f"""CREATE OR REPLACE {'TEMP ' if temp else ''}VIEW game_rulesets AS
WITH kinds(family, tile_kinds) AS (VALUES {values}),
presets(preset, options) AS (VALUES {_preset_options()}),
preset_values AS (SELECT p.preset, o.key, o.value::VARCHAR AS value FROM presets p, json_each(p.options) o)
SELECT g.game, f.family, coalesce(g.preset, 'unknown') AS preset,
       coalesce(g.preset, 'unknown') || coalesce(' ' || (
           SELECT string_agg(o.key || '=' || (o.value ->> '$'), ' ' ORDER BY o.key)
           FROM json_each(g.options) o
           LEFT JOIN preset_values pv ON pv.preset = g.preset AND pv.key = o.key
           WHERE o.key NOT IN ({money}) AND o.value::VARCHAR IS DISTINCT FROM pv.value), '') AS ruleset,
       k.tile_kinds
FROM games g
CROSS JOIN LATERAL (SELECT coalesce(g.ruleset ->> 'family', 'unknown') AS family) f
LEFT JOIN kinds k ON k.family = f.family"""


def ensure_rulesets(con: duckdb.DuckDBPyConnection) -> None:
    """Give ``con`` this paipu's ``game_rulesets`` (a temporary view over the store's, so a
    store written by an older paipu, read-only, or a Parquet dataset runs the checks too)."""
    con.execute(rulesets_view_sql(temp=True))


_PLACEHOLDER = re.compile(r"\$(\w+)")


def _body(check: Check) -> str:
    """The check's query without its header comment."""
    lines = check.sql.splitlines()
    k = 0
    while k < len(lines) and lines[k].startswith("--"):
        k += 1
    return "\n".join(lines[k:]).strip().rstrip(";")


def macro_sql(check: Check) -> list[str]:
    """The statements that store ``check`` as the table macro ``anomaly_<code>(name := default, …)``.

    Each ``$name`` placeholder becomes ``(SELECT CAST(name AS type))``: the parameter, typed
    as declared (a subquery, so it may stand in HAVING too).  A macro parameter takes the
    place of any unqualified column of its name, so a library check never names a column
    or table after one of its parameters (tests/audits/test_anomalies.py checks it).
    """
    types = {p.name: p.type for p in check.params}
    query = _PLACEHOLDER.sub(lambda m: f"(SELECT CAST({m.group(1)} AS {types[m.group(1)]}))", _body(check))
    params = ", ".join(f"{p.name} := {_literal(p.default)}" for p in check.params)
    doc = f"{check.title}. Statistic: {check.statistic} Threshold: {check.threshold}"
    for p in check.params:
        doc += f" Parameter {p.name} ({p.type}, default {p.default}): {p.doc}."
    return [f"CREATE OR REPLACE MACRO anomaly_{check.code}({params}) AS TABLE {query}",
            f"COMMENT ON MACRO TABLE anomaly_{check.code} IS {_literal(doc)}"]


def install_statements() -> list[str]:
    """The statements that store the checks (run once per store and version of them): ``game_rulesets``, each library check as
    ``anomaly_<code>(…)``, the ``anomalies`` view, and their COMMENTs."""
    out = [rulesets_view_sql(), f"COMMENT ON VIEW game_rulesets IS {_literal(RULESETS_DOC)}"]
    out += [f"COMMENT ON COLUMN game_rulesets.{name} IS {_literal(doc)}" for name, doc in RULESETS_COLUMNS]
    checks = load_checks()
    for check in checks.values():
        out += macro_sql(check)
    union = "\nUNION ALL BY NAME\n".join(f"SELECT '{c}' AS code, * FROM anomaly_{c}()" for c in checks)
    out.append(f"CREATE OR REPLACE VIEW anomalies AS {union}")
    out.append("COMMENT ON VIEW anomalies IS " + _literal(
        "Every row of every library anomaly check at its default parameters (code: the check); "
        "call anomaly_<code>(name := value) for other thresholds; `paipu anomalies --list` describes them."))
    for name, doc in (("code", "the check (paipu/store/sql/<code>.sql)"),) + tuple(COLUMN_DOCS.items()):
        out.append(f"COMMENT ON COLUMN anomalies.{name} IS {_literal(doc)}")
    return out


#: What each column of a check's rows holds.
COLUMN_DOCS = {
    "game": "game id of the row's evidence (NULL for an aggregate row)",
    "hand": "hand number (NULL where it does not apply)",
    "seq": "event number in the game (NULL where it does not apply)",
    "seat": "seat at fault (NULL where it does not apply)",
    "player": "player id at fault (NULL where it does not apply)",
    "detail": "the finding in one sentence",
    "statistic": "the statistic the threshold is on: z, chi2, difference, score or copies",
    "value": "the statistic's value",
    "rate": "the observed rate (NULL where none applies)",
    "baseline": "what the rule or the ruleset's population expects",
    "n": "the sample size (NULL where none applies)",
    "ruleset": "the ruleset the row was judged in (game_rulesets.ruleset)",
}


def checks_markdown() -> str:
    """The table of the library's checks (``docs/store.md``), from their headers."""
    lines = ["| code | checks | statistic | threshold | parameters |", "|---|---|---|---|---|"]
    for c in load_checks().values():
        params = ", ".join(f"`{p.name}`={'null' if p.default is None else p.default}" for p in c.params) or "—"
        cells = [f"`{c.code}`", c.title, c.statistic, c.threshold, params]
        lines.append("| " + " | ".join(x.replace("|", "\\|") for x in cells) + " |")
    return "\n".join(lines) + "\n"

__all__ = ["AnomalyError", "COLUMNS", "checks_markdown", "COLUMN_DOCS", "LEGACY_COLUMNS", "LimitHit", "MONEY_ONLY_OPTIONS", "Check",
           "CheckResult", "Param", "RULESETS_COLUMNS", "SQL_DIR", "SUMMARY_COLUMNS", "bind", "by_ruleset", "convert",
           "ensure_rulesets", "install_statements", "load_all", "load_checks", "macro_sql", "parse_check", "parse_params",
           "rulesets_view_sql", "run_checks", "select", "strongest", "summary_line", "summary_rows"]
