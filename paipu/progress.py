"""The progress bar of long commands (``simulate``, ``ingest``, ``audit``): games done, the rate and the
time left, on stderr, only when stderr is a terminal (never on a pipe or in a file).

The unit is the game (room): its total is known for ``simulate`` and estimated for
logs by counting ``GameOpened`` lines in the plain files named (a ``.gz`` file or
stdin leaves the total open: the bar then shows the count and the rate only).
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Iterable, Iterator, Optional, TypeVar

T = TypeVar("T")

_OPENED = b'"GameOpened"'


def wanted(enabled: Optional[bool] = None) -> bool:
    """Whether to draw a bar: ``enabled`` if given, else whether stderr is a terminal."""
    return sys.stderr.isatty() if enabled is None else enabled


def games_in(paths: Iterable[str]) -> Optional[int]:
    """Games in the plain logs named (files or folders), from their ``GameOpened`` lines;
    ``None`` when some input cannot be counted without decompressing it (``.gz``, stdin)."""
    from schema.reader import find_logs

    total = 0
    for path in find_logs(paths):
        if not isinstance(path, str) or path == "-" or path.endswith(".gz"):
            return None
        try:
            with open(path, "rb") as f:
                tail = b""
                while True:
                    block = f.read(1 << 22)
                    if not block:
                        break
                    block = tail + block
                    total += block.count(_OPENED)
                    # a mention cut by the block boundary is counted with the next block
                    tail = block[-(len(_OPENED) - 1):]
        except OSError:
            continue
    return total


class Bar:
    """A rich progress bar of games: ``with Bar("auditing", total) as bar: bar.advance()``.

    A bar that is not ``shown`` costs nothing and draws nothing.
    """

    def __init__(self, description: str, total: Optional[int] = None, *, shown: bool = True,
                 console: Any = None):
        self.shown = shown
        self.description = description
        self.total = total
        self.done = 0
        self._progress: Any = None
        self._task: Any = None
        self._console = console
        self._started = time.perf_counter()

    def __enter__(self) -> "Bar":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def start(self) -> "Bar":
        """Draw the bar (if shown); :meth:`stop` removes it."""
        if self.shown and self._progress is None:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)

            columns: list[Any] = [SpinnerColumn(), TextColumn("{task.description}")]
            if self.total is not None:
                columns += [BarColumn(), MofNCompleteColumn()]
            else:
                columns += [TextColumn("{task.completed} games")]
            columns += [TextColumn("{task.fields[rate]}"), TimeElapsedColumn()]
            if self.total is not None:
                columns += [TextColumn("ETA"), TimeRemainingColumn()]
            self._progress = Progress(*columns, console=self._console or Console(stderr=True), transient=True)
            self._task = self._progress.add_task(self.description, total=self.total, rate="")
            self._progress.start()
        return self

    def stop(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None

    def update(self, done: int, note: str = "") -> None:
        """``done`` games so far (and an optional ``note`` after the rate)."""
        self.done = done
        if self._progress is None:
            return
        secs = time.perf_counter() - self._started
        rate = f"{done / secs:,.0f} games/s" if secs > 0 else ""
        total = self.total
        if total is not None and done > total:  # the estimate was short: the bar stays honest
            total = self.total = done
        self._progress.update(self._task, completed=done, total=total, rate=rate + (f", {note}" if note else ""))

    def advance(self, n: int = 1, note: str = "") -> None:
        self.update(self.done + n, note)

    def track(self, items: Iterable[T]) -> Iterator[T]:
        """Each of ``items``, advancing the bar by one game after each."""
        for item in items:
            yield item
            self.advance()


def bar_for(description: str, paths: Iterable[str], enabled: Optional[bool] = None) -> Bar:
    """A bar over the games of the logs ``paths`` (total counted only when the bar is shown)."""
    shown = wanted(enabled)
    paths = list(paths)
    total = games_in(paths) if shown and all(p == "-" or os.path.exists(p) for p in paths) else None
    return Bar(description, total, shown=shown)


__all__ = ["Bar", "bar_for", "games_in", "wanted"]
