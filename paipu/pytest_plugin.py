"""The paipu pytest plugin: every game of a log is a test item.

Installed with paipu (the ``pytest11`` entry point ``paipu``) and inactive
unless ``--paipu`` is given, so it never touches a project's own tests::

    pytest --paipu logs/ night.jsonl.gz --paipu-waivers paipu.toml --junitxml audit.xml

With ``--paipu``, every ``.jsonl`` / ``.jsonl.gz`` file among the paths pytest
collects (files, folders; globs as the shell expands them) becomes a
collector whose items are its games, named ``FILE::GAME``, so ``-k GAME``,
``-x``, ``--junitxml``, markers and parallel runners work as usual.  An item
fails when its game has a selected, unwaived finding at or above the fail-on
level; its report lists those findings with ``file:line``, code, rule and the
expected and actual values.  Lines of a file that name no game form one more
item, ``<unreadable input>``, which fails.

The options mirror ``paipu audit``: ``--paipu-select``, ``--paipu-ignore``,
``--paipu-fail-on`` and ``--paipu-waivers`` (default: ``paipu.toml`` in the
working directory).  They build the same :class:`paipu.policy.Policy`, so the
verdicts are the CLI's.  A bad option, an unknown code or an expired waiver
stops the run as a usage error (pytest exit 4).  Waivers that matched no
finding are listed in the terminal summary.
"""

from __future__ import annotations

from typing import Any, Iterator, Optional

import pytest

from .policy import FAIL_ON, Policy, PolicyError, Verdict, Waiver, build_policy, judge, unmatched_waivers

LOG_SUFFIXES = (".jsonl", ".jsonl.gz")
_STATE = pytest.StashKey["_Session"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("paipu", "audit mahjong game logs with paipu (each game is a test)")
    group.addoption("--paipu", action="store_true", default=False,
                    help="collect .jsonl/.jsonl.gz logs among the given paths; each game is a test item.")
    group.addoption("--paipu-select", action="append", default=None, metavar="CODES",
                    help="report only these finding codes (comma-separated; * patterns).")
    group.addoption("--paipu-ignore", action="append", default=None, metavar="CODES",
                    help="never report these finding codes (comma-separated; * patterns).")
    group.addoption("--paipu-fail-on", default=None, choices=FAIL_ON,
                    help="lowest severity that fails a game: error (default) or warning.")
    group.addoption("--paipu-waivers", default=None, metavar="FILE",
                    help="TOML waivers file (default: ./paipu.toml when it exists).")


class _Session:
    """The run's policy and the waivers that matched so far."""

    def __init__(self, policy: Policy):
        self.policy = policy
        #: The waivers that matched, by identity, and how many findings they waived.
        self.used: dict[int, Waiver] = {}
        self.waived = 0
        self.games = 0

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        unused = unmatched_waivers(self.policy, self.used.values()) if self.games else []
        waived = self.waived
        if not (unused or waived):
            return
        terminalreporter.section("paipu waivers")
        if waived:
            terminalreporter.line(f"{waived} finding(s) waived")
        for w in unused:
            terminalreporter.line(f"{w.origin} ({w.describe()}) matched no finding in the games run")


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("paipu"):
        return
    try:
        policy = build_policy(config.getoption("paipu_select"), config.getoption("paipu_ignore"),
                              config.getoption("paipu_fail_on"), config.getoption("paipu_waivers"),
                              cwd=str(config.invocation_params.dir))
    except PolicyError as e:
        raise pytest.UsageError(f"paipu: {e}") from None
    state = _Session(policy)
    config.stash[_STATE] = state
    config.pluginmanager.register(state, "paipu-session")
    config.addinivalue_line("markers", "paipu: a game audited by paipu")


def pytest_collect_file(file_path: Any, parent: pytest.Collector) -> Optional[pytest.Collector]:
    if _STATE not in parent.config.stash or not str(file_path).endswith(LOG_SUFFIXES):
        return None
    return LogFile.from_parent(parent, path=file_path)


class GameFailed(Exception):
    """Raised by a game item whose verdict fails; carries the verdict for the report."""

    def __init__(self, verdict: Verdict, policy: Policy):
        super().__init__(f"{len(verdict.failures)} finding(s)")
        self.verdict = verdict
        self.policy = policy


class InputFailed(Exception):
    """Raised by the ``<unreadable input>`` item: lines of the file that name no game."""


class LogFile(pytest.File):
    """One log file: its games are collected by reading it once (decoding, no audit);
    they are audited when their items run, reading the file again as a stream."""

    @property
    def log_path(self) -> str:
        """The file as findings name it: relative to the directory pytest was started in, when inside it."""
        here = self.config.invocation_params.dir
        try:
            return str(self.path.relative_to(here))
        except ValueError:
            return str(self.path)

    def collect(self) -> Iterator[pytest.Item]:
        from schema.reader import LogReader

        reader = LogReader([self.log_path])
        seen: dict[str, int] = {}
        for index, log in enumerate(reader.games()):
            n = seen[log.game] = seen.get(log.game, 0) + 1
            name = log.game if n == 1 else f"{log.game}#{n}"
            yield GameItem.from_parent(self, name=name, index=index, game=log.game)
        if reader.orphans:
            yield InputItem.from_parent(self, name="<unreadable input>", problems=[str(p) for p in reader.orphans])

    # --- the games, streamed in the order the items ask for them ---------------------
    _games: Optional[Iterator[Any]] = None
    _pos = 0
    _cache: Optional[dict[int, Any]] = None
    _wanted: Optional[set[int]] = None

    def take(self, index: int) -> Any:
        """The ``index``-th game of the file, keeping only games whose items are still to run."""
        from schema.reader import LogReader

        if self._wanted is None:
            self._wanted = {i.index for i in self.session.items if isinstance(i, GameItem) and i.parent is self}
            self._cache = {}
        assert self._cache is not None
        self._wanted.discard(index)
        if index in self._cache:
            return self._cache.pop(index)
        if self._games is None or index < self._pos:
            self._games, self._pos = iter(LogReader([self.log_path]).games()), 0
        for log in self._games:
            pos = self._pos
            self._pos += 1
            if pos == index:
                return log
            if pos in self._wanted:
                self._cache[pos] = log
        raise LookupError(f"game #{index} is no longer in {self.path}")


class GameItem(pytest.Item):
    """One game: passes when no selected finding reaches the fail-on level; fails when an
    unwaived one does; an expected failure (xfailed, the waivers' reasons shown) when only
    waived findings reach it."""

    def __init__(self, *, index: int, game: str, **kw: Any):
        super().__init__(**kw)
        self.index = index
        self.game = game
        self.add_marker("paipu")

    def runtest(self) -> None:
        from audits import audit_game

        state = self.config.stash[_STATE]
        parent = self.parent
        assert isinstance(parent, LogFile)
        audit = audit_game(parent.take(self.index))
        verdict = judge(audit, state.policy)
        state.games += 1
        state.used.update((id(w), w) for _f, w in verdict.waived)
        state.waived += len(verdict.waived)
        from .formats import ruleset_label

        for name, value in (("server", audit.server), ("build", audit.build),
                            ("ruleset", ruleset_label(audit.ruleset)), ("hands", audit.hands),
                            ("waived", len(verdict.waived))):
            self.user_properties.append((name, value))
        notes = _notes(verdict)
        if notes:
            self.add_report_section("call", "paipu", notes)
        if verdict.failed:
            raise GameFailed(verdict, state.policy)
        waived = [(f, w) for f, w in verdict.waived if state.policy.fails(f)]
        if waived:
            # the game would fail but for its waivers: an expected failure, with the waivers' reasons
            pytest.xfail("; ".join(f"{f.code} waived: {w.reason} (until {w.expires.isoformat()})"
                                   for f, w in waived))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, GameFailed):
            return failure_text(excinfo.value.verdict, excinfo.value.policy)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Any, Optional[int], str]:
        return self.path, None, f"paipu game {self.game}"


class InputItem(pytest.Item):
    """The lines of a log file that name no game (or a file that cannot be read): always fails."""

    def __init__(self, *, problems: list[str], **kw: Any):
        super().__init__(**kw)
        self.problems = problems

    def runtest(self) -> None:
        raise InputFailed("\n".join(self.problems))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, InputFailed):
            return f"unreadable input (STREAM_UNREADABLE_LINE):\n{excinfo.value}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Any, Optional[int], str]:
        return self.path, None, "paipu unreadable input"


def _finding_lines(f: Any) -> list[str]:
    where = f"{f.file}:{f.line}" if f.file and f.line is not None else (f.file or "<input>")
    seat = f" seat {f.seat}" if f.seat is not None else ""
    out = [f"{where}: {f.code} [{f.severity}] hand {f.hand} seq {f.seq}{seat}",
           f"    rule: {f.rule}"]
    if f.expected is not None or f.actual is not None:
        out.append(f"    expected: {f.expected!r}")
        out.append(f"    actual:   {f.actual!r}")
    if f.message and f.message != f.rule:
        out.append(f"    {f.message}")
    return out


def failure_text(verdict: Verdict, policy: Policy) -> str:
    """The failure report of one game: every finding that fails it, then the rest of its findings."""
    lines = [f"game {verdict.game} in {verdict.file}: {len(verdict.failures)} finding(s) at or above "
             f"{policy.fail_on}"]
    for f in verdict.failures:
        lines += _finding_lines(f)
    rest = _notes(verdict)
    if rest:
        lines += ["", rest]
    return "\n".join(lines)


def _notes(verdict: Verdict) -> str:
    lines = []
    for f in verdict.reported:
        if f not in verdict.failures:
            lines += ["not failing: " + _finding_lines(f)[0]] + _finding_lines(f)[1:]
    for f, w in verdict.waived:
        lines.append(f"waived ({w.reason}; until {w.expires.isoformat()}): {_finding_lines(f)[0]}")
    return "\n".join(lines)
