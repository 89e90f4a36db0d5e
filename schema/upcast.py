"""Schema evolution: upcasters bring an older log's events to the current schema version.

When the event schema changes incompatibly, :data:`schema.events.SCHEMA_VERSION`
goes up by one and a **step** is registered here that turns one event of the
old version, as a decoded JSON object, into the same event in the new
version::

    @step(1)                       # from version 1 to version 2
    def upcast_v1_v2(event: dict) -> dict:
        if event["type"] == "TileDrawn":
            event["from_tail"] = event.pop("source", "wall") == "tail"
        return event

A log declares its version once per game, in ``GameOpened.schema_version``;
:func:`upcast_lines` reads that and runs every later line of the game through
the steps ``v -> v+1 -> … -> target`` (``GameOpened`` itself gets the new
``schema_version``).  Games already at the target version are passed through
byte for byte, so a current log costs one game-id look-up per line.  A version
with no chain of steps to the target is an :class:`UpcastError`; the versions
that do have one are :func:`known_versions` (the strict JSON Schema accepts
exactly these).

Rules for a step: it is pure (no state between events), keeps ``type``,
``game``, ``seq`` and ``at``, and maps one event to one event, so line numbers
and sequence numbers stay those of the file as written.

Today the schema is at version 1 and there is no step: every version-1 log
passes through unchanged.
"""

from __future__ import annotations

import json
from typing import Callable, Iterable, Iterator, Optional

from .events import SCHEMA_VERSION

#: One step: an event of version ``v`` (decoded JSON object) -> the same event in version ``v + 1``.
Step = Callable[[dict], dict]

#: Registered steps by the version they start from.
STEPS: dict[int, Step] = {}


class UpcastError(ValueError):
    """A log's version has no chain of steps to the target version."""


def step(from_version: int) -> Callable[[Step], Step]:
    """Register ``fn`` as the step from ``from_version`` to ``from_version + 1``."""
    def register(fn: Step) -> Step:
        if from_version in STEPS:
            raise ValueError(f"a step from schema version {from_version} is already registered")
        STEPS[from_version] = fn
        return fn
    return register


def known_versions(target: int = SCHEMA_VERSION) -> tuple[int, ...]:
    """Versions that can be read: ``target`` and every older version with steps all the way up."""
    out = [target]
    v = target - 1
    while v >= 1 and v in STEPS:
        out.append(v)
        v -= 1
    return tuple(sorted(out))


def upcast_event(event: dict, version: int, target: int = SCHEMA_VERSION) -> dict:
    """``event`` (of ``version``) brought to ``target`` through every step in between."""
    if version > target:
        raise UpcastError(f"schema version {version} is newer than this paipu reads ({target})")
    for v in range(version, target):
        fn = STEPS.get(v)
        if fn is None:
            raise UpcastError(f"no upcaster from schema version {v} to {v + 1}")
        event = fn(dict(event))
        if event.get("type") == "GameOpened":
            event["schema_version"] = v + 1
    return event


def upcast_lines(lines: Iterable[bytes], target: int = SCHEMA_VERSION) -> Iterator[bytes]:
    """Log lines with every game brought to ``target``; current games' lines are passed through as they are.

    A line that is not a JSON object, or belongs to a game whose ``GameOpened``
    was not seen, is passed through for the reader to report.
    """
    versions: dict[str, int] = {}
    for raw in lines:
        event = _decode(raw)
        if event is None:
            yield raw
            continue
        game = event.get("game")
        if event.get("type") == "GameOpened" and isinstance(event.get("schema_version"), int):
            versions[game] = event["schema_version"]
        version = versions.get(game, target)
        if version == target:
            yield raw
            continue
        end = b"\n" if raw.endswith(b"\n") else b""
        yield json.dumps(upcast_event(event, version, target), ensure_ascii=False,
                         separators=(",", ":")).encode() + end


def _decode(raw: bytes) -> Optional[dict]:
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


__all__ = ["STEPS", "Step", "UpcastError", "known_versions", "step", "upcast_event", "upcast_lines"]
