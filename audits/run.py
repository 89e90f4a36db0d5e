"""Running the audit over files and folders: serially here, in worker processes
(:mod:`audits.parallel`) or on a Dask cluster (:mod:`audits.cluster`), with the
same results in input order."""

from __future__ import annotations

import os
from typing import Any, Iterable, Iterator, Optional, Union

import msgspec

from schema.reader import FileSpan, LogProblem, LogReader
from schema.seal import problems_by_game

from .audit import audit_game
from .catalogue import CATALOGUE
from .findings import Finding
from .ledger import GameAudit


def audit_paths(paths: Iterable[str], jobs: int = 1, orphans: Optional[list[LogProblem]] = None,
                cluster: Any = None) -> Iterator[GameAudit]:
    """Audit every game in ``paths`` (files, folders, ``-``), in input order.

    Pass a list as ``orphans`` to collect the problems that name no game
    (missing files, lines without a game id); it is complete once the iterator
    is exhausted.  ``jobs > 1`` audits games in that many worker processes;
    ``cluster`` (a Dask scheduler address, ``local:N`` or a ``distributed.Client``)
    audits them on a Dask cluster (:mod:`audits.cluster`; ``jobs`` is then unused).
    """
    if cluster is not None:
        from .cluster import audit_cluster

        yield from audit_cluster(paths, cluster, orphans)
        return
    seals = _SealFindings()
    if jobs > 1:
        from .parallel import audit_parallel

        for audit in audit_parallel(paths, jobs, orphans):
            yield seals.attach(audit)
        return
    for audit in audit_serial(paths, orphans):
        yield seals.attach(audit)


def audit_serial(paths: Iterable[Union[str, FileSpan]], orphans: Optional[list[LogProblem]] = None
                 ) -> Iterator[GameAudit]:
    """The one-process audit of ``paths`` (or :class:`~schema.reader.FileSpan` parts of files),
    without the tamper evidence (see :func:`attach_seals`)."""
    reader = LogReader(paths)
    try:
        for log in reader.games():
            yield audit_game(log)
    finally:
        if orphans is not None:
            orphans.extend(reader.orphans)


def attach_seals(audit: GameAudit, problems: dict) -> GameAudit:
    """``audit`` with the tamper-evidence problems of its game (from
    :func:`schema.seal.problems_by_game` on its file) among its findings."""
    mine = problems.get(audit.game)
    if not mine:
        return audit
    path = audit.file
    found = [Finding(code=p.code, severity=CATALOGUE[p.code].severity, game=audit.game, hand=0,
                     seq=p.seq if p.seq is not None else 0, rule=CATALOGUE[p.code].rule, message=p.message,
                     file=path, line=p.line) for p in mine]
    return msgspec.structs.replace(audit, findings=list(audit.findings) + found)


class _SealFindings:
    """Tamper evidence (docs/seal.md): a file that uses the optional hash chain and wall
    commitments is verified once, and each game's broken promises join its findings.
    A file that does not use the scheme costs one probe of its first block; stdin
    cannot be read twice and is not verified here (``paipu seal --check`` can)."""

    def __init__(self) -> None:
        self.by_file: dict[str, dict] = {}

    def attach(self, audit: GameAudit) -> GameAudit:
        path = audit.file
        if path in ("-", "<stdin>", "") or not os.path.isfile(path):
            return audit
        problems = self.by_file.get(path)
        if problems is None:
            problems = self.by_file[path] = problems_by_game(path)
        return attach_seals(audit, problems)


__all__ = ["attach_seals", "audit_paths", "audit_serial"]
