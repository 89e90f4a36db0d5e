"""Which findings count: selection, waivers and the fail-on level, as data and pure functions.

One implementation shared by ``paipu audit`` and the pytest plugin
(:mod:`paipu.pytest_plugin`), so both give the same verdict on the same game.

* **Selection** — ``select`` (only these codes; ``None`` means every code) and
  ``ignore`` (never these codes).  Codes are catalogue codes
  (:data:`audits.catalogue.CATALOGUE`) or ``*`` patterns over them
  (``CLAIM_*``); a name that matches no code is a :class:`PolicyError`.
  Ignored or unselected findings are dropped from every report.
* **Waivers** — entries of a TOML file naming a finding ``code`` and any of
  ``server``, ``build``, ``game``, ``hand``, with a ``reason`` and an
  ``expires`` date.  A finding matched by a waiver is reported as *waived* and
  never fails.  An expired waiver, an unknown code or key, or a missing reason
  or expiry is a :class:`PolicyError` (``paipu audit`` exits 2).  Waivers that
  matched no finding are listed after the audit.
* **fail-on** — ``error`` (default: only error findings fail a game) or
  ``warning`` (warnings fail too).  ``info`` findings never fail.

The file is ``--waivers FILE``, or ``paipu.toml`` in the working directory
when it exists.  Its optional ``[audit]`` table sets defaults for ``select``,
``ignore`` and ``fail-on``; options given on the command line win::

    [audit]
    ignore = ["FEE_NOT_CHARGED"]
    fail-on = "error"

    [[waiver]]
    code = "DEALER_ROTATION"
    build = "4.2.0"
    reason = "server bug #812, fixed in 4.2.1"
    expires = 2026-09-30
"""

from __future__ import annotations

import datetime as _dt
import fnmatch
import os
import tomllib
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Optional, Sequence

from audits import Finding, GameAudit
from audits.catalogue import CATALOGUE

#: The file looked for in the working directory when no ``--waivers`` is given.
DEFAULT_FILE = "paipu.toml"
FAIL_ON = ("error", "warning")
_RANK = {"info": 0, "warning": 1, "error": 2}
_WAIVER_KEYS = {"code", "server", "build", "game", "hand", "reason", "expires"}
_AUDIT_KEYS = {"select", "ignore", "fail-on"}


class PolicyError(ValueError):
    """Bad selection, fail-on level or waivers file: the message is one sentence for the user."""


@dataclass(frozen=True)
class Waiver:
    """One accepted deviation: ``code`` on the games matching every given field, until ``expires``."""

    code: str
    reason: str
    expires: _dt.date
    server: Optional[str] = None
    build: Optional[str] = None
    game: Optional[str] = None
    hand: Optional[int] = None
    #: Where the waiver was written (``file: waiver N``), for messages.
    origin: str = ""

    def matches(self, finding: Finding, server: str = "", build: str = "") -> bool:
        """Whether this waiver covers ``finding`` of a game played on ``server`` / ``build``."""
        return (finding.code == self.code
                and (self.server is None or self.server == server)
                and (self.build is None or self.build == build)
                and (self.game is None or self.game == finding.game)
                and (self.hand is None or self.hand == finding.hand))

    def describe(self) -> str:
        """``CODE (server=…, game=…) until DATE: reason``."""
        scope = ", ".join(f"{k}={getattr(self, k)}" for k in ("server", "build", "game", "hand")
                          if getattr(self, k) is not None)
        return f"{self.code}{f' ({scope})' if scope else ''} until {self.expires.isoformat()}: {self.reason}"


@dataclass(frozen=True)
class Policy:
    """What counts: selected codes (``None`` = all), ignored codes, waivers, and the fail-on level."""

    select: Optional[frozenset[str]] = None
    ignore: frozenset[str] = frozenset()
    fail_on: str = "error"
    waivers: tuple[Waiver, ...] = ()
    #: The waivers file the policy came from, if any.
    source: Optional[str] = None

    def selected(self, code: str) -> bool:
        """Whether findings with ``code`` are reported at all."""
        return (self.select is None or code in self.select) and code not in self.ignore

    def fails(self, finding: Finding) -> bool:
        """Whether an unwaived, selected ``finding`` fails its game."""
        return _RANK.get(finding.severity, 2) >= _RANK[self.fail_on]


@dataclass
class Verdict:
    """One game judged under a policy."""

    audit: GameAudit
    #: Selected findings that no waiver covers, in audit order.
    reported: list[Finding] = field(default_factory=list)
    #: Selected findings a waiver covers, each with its waiver.
    waived: list[tuple[Finding, Waiver]] = field(default_factory=list)
    #: How many findings selection dropped.
    dropped: int = 0
    #: The reported findings that fail the game (at or above fail-on).
    failures: list[Finding] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        """The game fails: some reported finding is at or above the fail-on level."""
        return bool(self.failures)

    @property
    def game(self) -> str:
        return self.audit.game

    @property
    def file(self) -> str:
        return self.audit.file


def judge(audit: GameAudit, policy: Policy) -> Verdict:
    """Apply selection, waivers and fail-on to one game's findings."""
    v = Verdict(audit)
    for f in audit.findings:
        if not policy.selected(f.code):
            v.dropped += 1
            continue
        w = next((w for w in policy.waivers if w.matches(f, audit.server, audit.build)), None)
        if w is not None:
            v.waived.append((f, w))
            continue
        v.reported.append(f)
        if policy.fails(f):
            v.failures.append(f)
    return v


def unmatched_waivers(policy: Policy, verdicts_waived: Iterable[Waiver]) -> list[Waiver]:
    """The policy's waivers not among ``verdicts_waived`` (the waivers that matched a finding)."""
    used = set(id(w) for w in verdicts_waived)
    return [w for w in policy.waivers if id(w) not in used]


# --- building a policy -------------------------------------------------------------

def parse_codes(items: Iterable[str], what: str = "--select") -> frozenset[str]:
    """Comma-separated codes or ``*`` patterns (from options or a file) to a set of catalogue codes."""
    out: set[str] = set()
    for item in items:
        for name in str(item).split(","):
            name = name.strip().upper()
            if not name:
                continue
            if any(c in name for c in "*?["):
                hits = fnmatch.filter(CATALOGUE, name)
                if not hits:
                    raise PolicyError(f"{what}: the pattern {name!r} matches no finding code")
                out.update(hits)
            elif name in CATALOGUE:
                out.add(name)
            else:
                raise PolicyError(f"{what}: unknown finding code {name!r} (the codes are listed in "
                                  f"docs/findings.md)")
    return frozenset(out)


def _date(value: Any, where: str) -> _dt.date:
    if isinstance(value, _dt.datetime):
        return value.date()
    if isinstance(value, _dt.date):
        return value
    if isinstance(value, str):
        try:
            return _dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise PolicyError(f"{where}: expires must be a date such as 2026-12-31, not {value!r}")


def parse_waivers(data: Mapping[str, Any], origin: str, today: _dt.date) -> tuple[Waiver, ...]:
    """The ``[[waiver]]`` entries of a decoded TOML document, checked; raises :class:`PolicyError`."""
    entries = data.get("waiver", [])
    if not isinstance(entries, list):
        raise PolicyError(f"{origin}: waivers are written as [[waiver]] tables")
    out = []
    for n, e in enumerate(entries, 1):
        where = f"{origin}: waiver {n}"
        if not isinstance(e, dict):
            raise PolicyError(f"{where} is not a table")
        unknown = sorted(set(e) - _WAIVER_KEYS)
        if unknown:
            raise PolicyError(f"{where}: unknown key {unknown[0]!r} (keys: {', '.join(sorted(_WAIVER_KEYS))})")
        code = e.get("code")
        if not isinstance(code, str) or not code:
            raise PolicyError(f"{where}: names no finding code (code = \"…\")")
        if code not in CATALOGUE:
            raise PolicyError(f"{where}: unknown finding code {code!r}")
        reason = e.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise PolicyError(f"{where} ({code}): gives no reason")
        if "expires" not in e:
            raise PolicyError(f"{where} ({code}): has no expiry date (expires = 2026-12-31)")
        expires = _date(e["expires"], f"{where} ({code})")
        if expires < today:
            raise PolicyError(f"{where} ({code}) expired on {expires.isoformat()}: renew it or fix the finding")
        for k in ("server", "build", "game"):
            if k in e and not isinstance(e[k], str):
                raise PolicyError(f"{where} ({code}): {k} must be a string")
        hand = e.get("hand")
        if hand is not None and (not isinstance(hand, int) or isinstance(hand, bool) or hand < 0):
            raise PolicyError(f"{where} ({code}): hand must be a hand number")
        out.append(Waiver(code=code, reason=reason.strip(), expires=expires, server=e.get("server"),
                          build=e.get("build"), game=e.get("game"), hand=hand, origin=where))
    return tuple(out)


def read_file(path: str) -> dict[str, Any]:
    """Decode a TOML policy file; raises :class:`PolicyError` with one sentence."""
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise PolicyError(f"waivers file {path} does not exist") from None
    except OSError as e:
        raise PolicyError(f"cannot read waivers file {path}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise PolicyError(f"waivers file {path} is not valid TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise PolicyError(f"waivers file {path} is not UTF-8 text (byte {e.start}: {e.reason}); "
                          "save it as UTF-8") from None
    except RecursionError:
        raise PolicyError(f"waivers file {path} nests its values too deeply to read; a policy "
                          "holds tables of strings, dates and lists of codes") from None


def build_policy(select: Optional[Sequence[str]] = None, ignore: Optional[Sequence[str]] = None,
                 fail_on: Optional[str] = None, waivers: Optional[str] = None, *,
                 cwd: Optional[str] = None, today: Optional[_dt.date] = None) -> Policy:
    """The policy from command-line values (``None`` = not given) and the waivers file.

    The file is ``waivers``, else ``paipu.toml`` in ``cwd`` (the working
    directory) when it exists.  Its ``[audit]`` table gives defaults for
    ``select``, ``ignore`` and ``fail-on``.  Raises :class:`PolicyError`.
    """
    today = today or _dt.date.today()
    path = waivers
    if path is None:
        candidate = os.path.join(cwd or os.getcwd(), DEFAULT_FILE)
        path = candidate if os.path.isfile(candidate) else None
    data: dict[str, Any] = read_file(path) if path else {}
    unknown_tables = sorted(set(data) - {"audit", "waiver"})
    if unknown_tables:
        raise PolicyError(f"{path}: unknown table {unknown_tables[0]!r} (expected [audit] and [[waiver]])")
    defaults = data.get("audit", {})
    if not isinstance(defaults, dict):
        raise PolicyError(f"{path}: [audit] must be a table")
    bad = sorted(set(defaults) - _AUDIT_KEYS)
    if bad:
        raise PolicyError(f"{path}: unknown key {bad[0]!r} in [audit] (keys: {', '.join(sorted(_AUDIT_KEYS))})")

    def codes(given: Optional[Sequence[str]], key: str, what: str) -> Optional[frozenset[str]]:
        if given:
            return parse_codes(given, what)
        value = defaults.get(key)
        if value is None:
            return None
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            raise PolicyError(f"{path}: [audit] {key} must be a list of codes")
        return parse_codes(value, f"{path}: [audit] {key}")

    sel = codes(select, "select", "--select")
    ign = codes(ignore, "ignore", "--ignore") or frozenset()
    level = fail_on if fail_on is not None else defaults.get("fail-on", "error")
    if level not in FAIL_ON:
        raise PolicyError(f"fail-on must be one of {', '.join(FAIL_ON)}, not {level!r}")
    return Policy(select=sel, ignore=ign, fail_on=level,
                  waivers=parse_waivers(data, path, today) if path else (), source=path)


__all__ = ["DEFAULT_FILE", "FAIL_ON", "Policy", "PolicyError", "Verdict", "Waiver", "build_policy", "judge",
           "parse_codes", "parse_waivers", "read_file", "unmatched_waivers"]
