"""Running the audit over files and folders: serially here, or in worker processes
(:mod:`audits.parallel`), with the same results in input order."""

from __future__ import annotations

from typing import Iterable, Iterator, Optional

from schema.reader import LogProblem, LogReader

from .audit import audit_game
from .ledger import GameAudit


def audit_paths(paths: Iterable[str], jobs: int = 1, orphans: Optional[list[LogProblem]] = None
                ) -> Iterator[GameAudit]:
    """Audit every game in ``paths`` (files, folders, ``-``), in input order.

    Pass a list as ``orphans`` to collect the problems that name no game
    (missing files, lines without a game id); it is complete once the iterator
    is exhausted.  ``jobs > 1`` audits games in that many worker processes.
    """
    if jobs > 1:
        from .parallel import audit_parallel

        yield from audit_parallel(paths, jobs, orphans)
        return
    reader = LogReader(paths)
    try:
        for log in reader.games():
            yield audit_game(log)
    finally:
        if orphans is not None:
            orphans.extend(reader.orphans)


__all__ = ["audit_paths"]
