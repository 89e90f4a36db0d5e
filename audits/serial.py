"""The one-process audit of logs or parts of logs, and the tamper evidence joined to its
results: the pieces :mod:`audits.run` and :mod:`audits.cluster` both build on."""

from __future__ import annotations

import os
from typing import Iterable, Iterator, Optional, Union

import msgspec

from schema.collector import few_collections
from schema.reader import FileSpan, LogProblem, LogReader
from schema.seal import problems_by_game

from .audit import audit_game
from .catalogue import CATALOGUE
from .findings import Finding
from .ledger import GameAudit


def audit_serial(paths: Iterable[Union[str, FileSpan]], orphans: Optional[list[LogProblem]] = None
                 ) -> Iterator[GameAudit]:
    """The one-process audit of ``paths`` (or :class:`~schema.reader.FileSpan` parts of files),
    without the tamper evidence (see :func:`attach_seals`).  Each game is read and audited
    with the cyclic collector run less often (:func:`~schema.collector.few_collections`;
    put back while the caller holds the result)."""
    reader = LogReader(paths)
    games = reader.games()
    try:
        while True:
            with few_collections():
                log = next(games, None)
                if log is None:
                    return
                audited = audit_game(log)
            yield audited
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


class SealFindings:
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


__all__ = ["SealFindings", "attach_seals", "audit_serial"]
