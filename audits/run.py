"""Running the audit over files and folders: serially here, in worker processes
(:mod:`audits.parallel`) or on a Dask cluster (:mod:`audits.cluster`), with the
same results in input order."""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Optional

from schema.reader import LogProblem

from .ledger import GameAudit
from .serial import SealFindings, attach_seals, audit_serial


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
    seals = SealFindings()
    if jobs > 1:
        from .parallel import audit_parallel

        for audit in audit_parallel(paths, jobs, orphans):
            yield seals.attach(audit)
        return
    for audit in audit_serial(paths, orphans):
        yield seals.attach(audit)


__all__ = ["attach_seals", "audit_paths", "audit_serial"]
