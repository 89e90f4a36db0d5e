"""``paipu ingest --audit-output FILE``: store a finished audit's findings and ledger.

``FILE`` is what ``paipu audit LOGS --format json`` wrote: per game its findings
(one JSON object each), then its summary record (``"record": "summary"``: complete
or not, the logged and corrected score per settled hand, who owes whom) carrying
``"source"``, the size and BLAKE2b digest of the log file the game was read from
(:func:`paipu.formats.file_fingerprint`).

:class:`AuditOutput` reads the file once, checks it against the logs being
ingested and loads its rows into temporary tables the batches join:

* every log file the audit read and the ingest reads must have the same
  fingerprint now as then, else the output is refused (the logs changed since
  the audit, or the output belongs to other logs);
* every game the ingest writes must have a summary from the same file, else the
  ingest stops (the batches before it stay stored);
* a game's findings must number what its summary says (an output filtered with
  ``--codes`` or cut short is refused).

The ledger rows are computed with :mod:`audits.corrections` (``gaps``,
``hand_deltas``) from the summary's logged and corrected scores, as the
in-process audit's rows are; who owes whom is the summary's ``owes``.
"""

from __future__ import annotations

import os
from typing import Any, Sequence

import duckdb
import msgspec

from schema.reader import find_logs

from .derive import CORRECTION_COLUMNS, FINDING_COLUMNS, LEDGER_COLUMNS, read_sql
from .errors import StoreError


def _real(path: str, seen: dict[str, str]) -> str:
    """The real path of ``path`` (each distinct name resolved once: a log's games all name it)."""
    real = seen.get(path)
    if real is None:
        real = seen[path] = os.path.realpath(path)
    return real


class AuditOutput:
    """An audit's JSON output, checked against the logs of ``paths`` and loaded into ``con``.

    ``tables`` names the temp tables (findings, ledger, corrections) that
    :func:`paipu.store.derive.write_batch` joins to each batch's games.
    """

    tables = ("_jf", "_jl", "_jc")

    def __init__(self, con: duckdb.DuckDBPyConnection, path: str, paths: Sequence[str], spool_dir: str):
        self.con = con
        self.path = path
        #: game id -> (complete, findings, real path of its file)
        self.games: dict[str, tuple[bool, int, str]] = {}
        #: ids of the games on which that audit hit an internal error (``INTERNAL_ERROR``)
        self.internal: set[str] = set()
        self._reals: dict[str, str] = {}
        inputs = {}
        for item in find_logs(paths):
            name = item if isinstance(item, str) else item.path
            if name == "-":
                raise StoreError("--audit-output cannot be checked against logs read from stdin; "
                                 "ingest the log file the audit read")
            inputs[_real(name, self._reals)] = name
        self._load(spool_dir, inputs)

    def _load(self, spool_dir: str, inputs: dict[str, str]) -> None:
        from audits.corrections import gaps, hand_deltas

        from paipu.formats import file_fingerprint

        files = {}
        for name in ("findings", "ledger", "corrections"):
            files[name] = open(os.path.join(spool_dir, f"audit-{name}.ndjson"), "wb")
        enc = msgspec.json.Encoder()
        block: list[dict] = []
        sources: dict[str, dict] = {}  # real path -> fingerprint the audit recorded
        skip = set()
        try:
            try:
                f = open(self.path, "rb")
            except OSError as e:
                raise StoreError(f"cannot read the audit output {self.path}: {e.strerror}") from None
            with f:
                for n, line in enumerate(f, 1):
                    if not line.strip():
                        continue
                    try:
                        rec = msgspec.json.decode(line)
                    except msgspec.DecodeError:
                        raise StoreError(f"{self.path}:{n}: not JSON; give --audit-output the file "
                                         "`paipu audit LOGS --format json -o FILE` wrote") from None
                    if not isinstance(rec, dict):
                        raise StoreError(f"{self.path}:{n}: not a finding or a summary record of "
                                         "`paipu audit --format json`")
                    if rec.get("record") != "summary":
                        if "code" not in rec or "game" not in rec:
                            raise StoreError(f"{self.path}:{n}: not a finding or a summary record of "
                                             "`paipu audit --format json`")
                        block.append(rec)
                        continue
                    game, file = rec.get("game"), rec.get("file")
                    found, block = block, []
                    if game in self.games or game in skip:
                        continue  # a second copy of the id: the ingest stores the first one read
                    source = rec.get("source")
                    if source is None:
                        raise StoreError(f"{self.path}:{n}: the summary of game {game} does not record its log's "
                                         "content (`source`); run the audit again with this paipu")
                    if len(found) != rec.get("findings"):
                        raise StoreError(f"{self.path}:{n}: game {game} has {len(found)} findings in the audit "
                                         f"output but the audit found {rec.get('findings')} (an output filtered "
                                         "or cut short?); run `paipu audit LOGS --format json` again unfiltered")
                    real = _real(file, self._reals)
                    sources.setdefault(real, source)
                    if real not in inputs:
                        skip.add(game)  # a log this ingest does not read
                        continue
                    self.games[game] = (bool(rec.get("complete")), len(found), real)
                    if any(x.get("code") == "INTERNAL_ERROR" for x in found):
                        self.internal.add(game)
                    mine = inputs[real]
                    rows = [{"game": x.get("game") or game, "hand": x.get("hand"), "seq": x.get("seq"),
                             "seat": x.get("seat"), "code": x.get("code"), "severity": x.get("severity"),
                             "rule": x.get("rule", ""), "expected": x.get("expected"), "actual": x.get("actual"),
                             "message": x.get("message", ""),
                             "file": mine if x.get("file") in (None, file) else x.get("file"), "line": x.get("line")}
                            for x in found]
                    if rows:
                        files["findings"].write(enc.encode_lines(rows))
                    ledger = rec.get("ledger") or []
                    logged = [h["logged"] for h in ledger]
                    corrected = [h["corrected"] for h in ledger]
                    out = [{"game": game, "hand": h["hand"], "seat": s, "logged": a, "corrected": b, "gap": g,
                            "error": d}
                           for h, gap, err in zip(ledger, gaps(logged, corrected), hand_deltas(logged, corrected))
                           for s, (a, b, g, d) in enumerate(zip(h["logged"], h["corrected"], gap, err))]
                    if out:
                        files["ledger"].write(enc.encode_lines(out))
                    pays = [{"game": game, "idx": i, "debtor_seat": p["from_seat"], "creditor_seat": p["to_seat"],
                             "amount": p["amount"]} for i, p in enumerate(rec.get("owes") or [])]
                    if pays:
                        files["corrections"].write(enc.encode_lines(pays))
        finally:
            for fh in files.values():
                fh.close()
        if not self.games and not skip:
            raise StoreError(f"{self.path} holds no game summary; give --audit-output the file "
                             "`paipu audit LOGS --format json -o FILE` wrote")
        # the logs must be the ones the audit read: same size, same digest
        for real, name in inputs.items():
            then = sources.get(real)
            if then is None:
                continue
            now = file_fingerprint(name)
            if now != then:
                size = f"{then.get('bytes'):,} bytes then, {now['bytes']:,} now" if now else "unreadable now"
                raise StoreError(f"the audit output {self.path} was made from other content of {name} "
                                 f"({size}; the content differs); run the audit again on the logs to ingest")
        for (name, cols), table in zip((("findings", FINDING_COLUMNS), ("ledger", LEDGER_COLUMNS),
                                        ("corrections", CORRECTION_COLUMNS)), self.tables):
            path = os.path.join(spool_dir, f"audit-{name}.ndjson")
            if os.path.getsize(path):
                self.con.execute(f"CREATE OR REPLACE TEMP TABLE {table} AS SELECT * FROM {read_sql(path, cols)}")
            else:
                spec = ", ".join(f"{k} {v}" for k, v in cols.items())
                self.con.execute(f"CREATE OR REPLACE TEMP TABLE {table} ({spec})")
            os.remove(path)

    def check(self, games: Sequence[tuple[str, str]]) -> None:
        """Every game (id, file) about to be written has its summary, from the same file (else
        :class:`StoreError`)."""
        for game, file in games:
            got = self.games.get(game)
            if got is None or got[2] != _real(file, self._reals):
                raise StoreError(f"game {game} of {file} is not in the audit output {self.path} "
                                 "(the audit read other logs, or did not finish); run `paipu audit LOGS "
                                 "--format json` on the logs to ingest")

    def meta(self, game: str) -> dict[str, Any]:
        """The game row's audit columns (audited, audit_complete, findings)."""
        complete, findings, _file = self.games[game]
        return {"audited": True, "audit_complete": complete, "findings": findings}

    def close(self) -> None:
        """Drop the temp tables."""
        for t in self.tables:
            try:
                self.con.execute(f"DROP TABLE IF EXISTS {t}")
            except duckdb.Error:
                pass


__all__ = ["AuditOutput"]
