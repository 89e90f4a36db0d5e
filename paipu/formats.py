"""Audit outputs judged under a :class:`paipu.policy.Policy`: streamed JSON lines and JUnit XML.

* :class:`JsonStream` writes each game's findings as soon as the game is
  judged (one JSON object per line, decodable into
  :class:`audits.Finding`; a waived finding carries an extra ``waived``
  object with the waiver's reason and expiry), then the game's summary record
  (``"record": "summary"``: complete or not, logged scores and corrected
  ledger per hand, net corrections by player, who owes whom; see
  :func:`audits.corrections.summary_record`, plus ``"source"``: the size and
  digest of the log file the game was read from, see :func:`file_fingerprint`),
  then the orphan problems.
* :func:`junit_xml` writes one ``testcase`` per game with its time, server,
  build and ruleset as properties; a game fails only when a finding at or
  above the fail-on level is left unwaived.  Findings that do not fail the
  game (warnings under ``--fail-on error``, waived ones) go to the case's
  ``system-out``.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
from collections import Counter
from dataclasses import dataclass
from typing import IO, Any, Iterable, Optional, Sequence
from xml.etree import ElementTree as ET

import msgspec

from audits.corrections import summary_record
from schema.reader import LogProblem
from schema.ruleset import PRESETS, Ruleset

from .policy import Policy, Verdict
from .reports import format_finding, orphan_findings


@dataclass
class GameResult:
    """A judged game and the seconds its audit took (wall time, as this process saw it)."""

    verdict: Verdict
    seconds: float


def ruleset_label(rules: Optional[Ruleset]) -> str:
    """The preset a ruleset is closest to and the options that differ, e.g. ``qujing-xiaoji chow=true``."""
    if rules is None:
        return ""
    mine = msgspec.structs.asdict(rules)
    best = None
    for name, preset in PRESETS.items():
        theirs = msgspec.structs.asdict(preset)
        diff = {k: v for k, v in mine.items() if theirs.get(k) != v}
        if best is None or len(diff) < len(best[1]):
            best = (name, diff)
    assert best is not None
    name, diff = best
    opts = " ".join(f"{k}={msgspec.json.encode(list(v) if isinstance(v, tuple) else v).decode()}"
                    for k, v in sorted(diff.items()))
    return f"{name} {opts}".strip()


# --- JSON lines, streamed ------------------------------------------------------------

#: The key that says what a JSON record is, on every record paipu writes as JSON lines:
#: ``finding``, ``summary`` (a game's results), and for ``--explain`` the derivation's
#: ``game``, ``hand`` and ``settlement`` records.
RECORD = "record"


def finding_record(f: Any) -> dict:
    """A finding as a JSON record: ``"record": "finding"`` first, then the finding's fields."""
    return {RECORD: "finding", **msgspec.to_builtins(f)}


def file_fingerprint(path: str) -> Optional[dict]:
    """Size and BLAKE2b digest of a log file's bytes (None for stdin or a file that cannot be read).

    Each game's summary record carries the fingerprint of the file it was read from
    (``"source"``), so ``paipu ingest --audit-output`` can tell that the logs it
    stores are the ones this audit read.
    """
    if path in ("-", "<stdin>"):
        return None
    h = hashlib.blake2b(digest_size=16)
    size = 0
    try:
        with open(path, "rb") as f:
            while True:
                block = f.read(1 << 20)
                if not block:
                    break
                size += len(block)
                h.update(block)
    except OSError:
        return None
    return {"bytes": size, "blake2b": h.hexdigest()}


class JsonStream:
    """Writes judged games to a binary stream as JSON lines, flushing after every game."""

    def __init__(self, out: IO[bytes]):
        self.out = out
        self._enc = msgspec.json.Encoder()
        self.lines = 0
        self._sources: dict[str, Optional[dict]] = {}

    def write_game(self, verdict: Verdict) -> None:
        """The game's reported findings, then its waived ones, in audit order within each,
        then its summary record (with ``reported`` and ``failed`` under the policy)."""
        buf = bytearray()
        for f in verdict.reported:
            self._enc.encode_into(finding_record(f), buf, len(buf))
            buf.extend(b"\n")
        for f, w in verdict.waived:
            record = finding_record(f) | {"waived": {"reason": w.reason, "expires": w.expires.isoformat()}}
            self._enc.encode_into(record, buf, len(buf))
            buf.extend(b"\n")
        summary = summary_record(verdict.audit) | {"reported": len(verdict.reported), "failed": verdict.failed}
        file = verdict.audit.file
        if file not in self._sources:
            self._sources[file] = file_fingerprint(file)
        if self._sources[file] is not None:
            summary["source"] = self._sources[file]
        self._enc.encode_into(summary, buf, len(buf))
        buf.extend(b"\n")
        self.out.write(buf)
        self.out.flush()
        self.lines += len(verdict.reported) + len(verdict.waived) + 1

    def write_orphans(self, orphans: Iterable[LogProblem]) -> None:
        """Problems that name no game, as ``STREAM_UNREADABLE_LINE`` findings."""
        buf = bytearray()
        for f in orphan_findings(orphans):
            self._enc.encode_into(finding_record(f), buf, len(buf))
            buf.extend(b"\n")
        if buf:
            self.out.write(buf)
            self.out.flush()


# --- JUnit XML ---------------------------------------------------------------------------

def junit_xml(results: Sequence[GameResult], orphans: Sequence[LogProblem] = (), policy: Policy = Policy(),
              timestamp: Optional[_dt.datetime] = None) -> str:
    """JUnit XML: one ``testcase`` per game (classname = file, name = game id, ``time`` in
    seconds) with properties server, build, ruleset, hands, complete and waived; a failing
    game has one ``failure`` listing the findings that fail it.  Problems that name no
    game form one extra failing case ``<unreadable input>``."""
    stamp = (timestamp or _dt.datetime.now(_dt.timezone.utc)).replace(microsecond=0).isoformat()
    failures = sum(1 for r in results if r.verdict.failed) + (1 if orphans else 0)
    tests = len(results) + (1 if orphans else 0)
    total = sum(r.seconds for r in results)
    suite = ET.Element("testsuite", name="paipu audit", tests=str(tests), failures=str(failures), errors="0",
                       skipped="0", time=f"{total:.3f}", timestamp=stamp)
    sprops = ET.SubElement(suite, "properties")
    ET.SubElement(sprops, "property", name="fail-on", value=policy.fail_on)
    if policy.source:
        ET.SubElement(sprops, "property", name="waivers", value=policy.source)
    for r in results:
        v, a = r.verdict, r.verdict.audit
        tc = ET.SubElement(suite, "testcase", classname=a.file, name=a.game or "<no game>", time=f"{r.seconds:.3f}")
        props = ET.SubElement(tc, "properties")
        for name, value in (("server", a.server), ("build", a.build), ("ruleset", ruleset_label(a.ruleset)),
                            ("hands", a.hands), ("complete", str(a.complete).lower()), ("waived", len(v.waived))):
            ET.SubElement(props, "property", name=name, value=str(value))
        if v.failures:
            codes = Counter(f.code for f in v.failures)
            msg = f"{len(v.failures)} finding(s): " + ", ".join(f"{c}×{n}" for c, n in sorted(codes.items()))
            fail = ET.SubElement(tc, "failure", message=msg, type=v.failures[0].code)
            fail.text = "\n".join(format_finding(f) for f in v.failures)
        notes = [format_finding(f) for f in v.reported if f not in v.failures]
        notes += [f"waived: {format_finding(f)} [{w.reason}; until {w.expires.isoformat()}]" for f, w in v.waived]
        if notes:
            ET.SubElement(tc, "system-out").text = "\n".join(notes)
    if orphans:
        tc = ET.SubElement(suite, "testcase", classname="<input>", name="<unreadable input>", time="0.000")
        found = orphan_findings(orphans)
        fail = ET.SubElement(tc, "failure", message=f"{len(found)} unreadable input problem(s)",
                             type="STREAM_UNREADABLE_LINE")
        fail.text = "\n".join(format_finding(f) for f in found)
    root = ET.Element("testsuites", tests=str(tests), failures=str(failures), time=f"{total:.3f}")
    root.append(suite)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


__all__ = ["GameResult", "JsonStream", "junit_xml", "ruleset_label"]
