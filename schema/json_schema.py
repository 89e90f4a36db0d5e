"""The strict JSON Schema of one log line, for validators in any language.

:func:`strict_schema` starts from msgspec's schema of the event union
(:func:`schema.events.json_schema`) and makes it as strict as paipu's reading
of a log, shaped so that a standard validator names the failing field:

* **One branch per event type.**  The root requires ``type`` from the known
  names, then an ``if``/``then`` per type applies that event's schema, so an
  error reads "-5 is less than the minimum of 0" at ``seq`` of a
  ``TileDrawn`` rather than "not valid under any of the given schemas".
* **Bounds the reader and the audit enforce**: ``seq`` >= 0; seats (``seat``,
  ``creator``, ``dealer``, ``from_seat``, ``payer``, ``payee``) 0..3; 3 or 4
  seats, hands and scores; 养猪 bets >= 0 (0, 1 or 2 is the audit's rule); dice 1..6; amounts, fees and
  remaining tiles >= 0; hand numbers >= 1.
* **RFC 3339 times**: ``at`` has ``format: date-time`` and a pattern (a
  validator need not check formats), so ``yesterday`` is refused.
* **Known values**: ``schema_version`` one of :data:`KNOWN_VERSIONS` (the
  versions :mod:`schema.upcast` can bring to the current one), ``preset`` one
  of :data:`schema.ruleset.PRESETS`, option names and their values as
  :class:`schema.ruleset.Ruleset` allows them (unknown options refused).

Fan names and transfer reasons are checked against the full lists; whether a
fan or reason is allowed *by the room's ruleset* (a ``yangzhu`` transfer in a
room without 养猪) depends on the game's ``GameOpened`` and is the audit's
job, not a per-line schema's.

The committed file ``schema/paipu-events.schema.json`` is :func:`schema_text`;
a test fails when it is stale (regenerate with ``paipu schema -o
schema/paipu-events.schema.json``).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from .events import SCHEMA_VERSION, json_schema
from .ruleset import PRESETS
from .upcast import known_versions

#: The ``schema_version`` values a log may declare (older ones are upcast, see :mod:`schema.upcast`).
KNOWN_VERSIONS: tuple[int, ...] = known_versions()
#: Where the committed schema lives, relative to the repository root.
SCHEMA_FILE = "schema/paipu-events.schema.json"
#: The schema's ``$id``: one URI per event-log schema version (a name, not a download address).
SCHEMA_ID = f"urn:paipu:schema:event-log-line:v{SCHEMA_VERSION}"

#: RFC 3339 ``date-time``: full date, ``T``, time with optional fraction, ``Z`` or an offset.
RFC3339 = r"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt]([01][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)" \
          r"(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"

SEAT_FIELDS = ("seat", "creator", "dealer", "from_seat", "payer", "payee", "origin")
_SEAT = {"type": "integer", "minimum": 0, "maximum": 3}
_NON_NEGATIVE = {"type": "integer", "minimum": 0}

#: Extra constraints per definition and field, merged into msgspec's schema.
_FIELD_RULES: dict[str, dict[str, dict[str, Any]]] = {
    "GameOpened": {
        "schema_version": {"type": "integer", "enum": list(KNOWN_VERSIONS)},
        "preset": {"type": "string", "enum": list(PRESETS)},
        "seats": {"minItems": 3, "maxItems": 4},
        "fee": _NON_NEGATIVE,
        "server": {"minLength": 1},
    },
    "RoomResized": {"seats": {"minItems": 3, "maxItems": 3}},
    "FeeCharged": {"amount": _NON_NEGATIVE},
    "FeeRefunded": {"amount": _NON_NEGATIVE},
    "GameClosed": {"scores": {"minItems": 3, "maxItems": 4}},
    "HandStarted": {"hand": {"type": "integer", "minimum": 1},
                    "dice": {"items": {"type": "integer", "minimum": 1, "maximum": 6}}},
    # 养猪 bets: the audit judges the amount (YANGZHU_BET_INVALID), so any count is readable
    "PigBetPlaced": {"bet": _NON_NEGATIVE},
    "TilesDealt": {"hands": {"minItems": 3, "maxItems": 4}},
    "HandDrawn": {"remaining": _NON_NEGATIVE},
    "HandSettled": {"scores": {"minItems": 3, "maxItems": 4}},
    "HandWon": {"winners": {"minItems": 1, "maxItems": 3}},
    "Winner": {"fan": _NON_NEGATIVE, "points": _NON_NEGATIVE},
    "Transfer": {"amount": _NON_NEGATIVE},
    "RulesetOverrides": {
        "players": {"enum": [3, 4, None]},
        "fan_cap": {"enum": [3, 4, 5, 6, None]},
        "base": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
        "wilds": {"anyOf": [{"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": True}, {"type": "null"}]},
        "qiaoluo_points": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
        "draw_reserve": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
        "payment_cap": {"anyOf": [{"type": "integer", "minimum": 0}, {"type": "null"}]},
        # 烂牌 / 十风 / 十三幺 are not specified yet: a room cannot enable them.
        "lanpai": {"enum": [False, None]},
        "shifeng": {"enum": [False, None]},
        "shisanyao": {"enum": [False, None]},
    },
}


def _merge(prop: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """``prop`` with ``extra``; an ``anyOf`` in ``extra`` is merged branch by branch (same types)."""
    out = dict(prop)
    if "anyOf" in extra and "anyOf" in prop:
        branches = []
        for branch in prop["anyOf"]:
            match = next((e for e in extra["anyOf"] if e.get("type") == branch.get("type")), None)
            branches.append({**branch, **match} if match else branch)
        out["anyOf"] = branches
        return out
    if "enum" in extra:
        out.pop("anyOf", None)
        out.pop("type", None)
    if "items" in extra and "items" in prop:
        out["items"] = {**prop["items"], **extra["items"]}
        extra = {k: v for k, v in extra.items() if k != "items"}
    out.update(extra)
    return out


def _seat(prop: dict[str, Any]) -> dict[str, Any]:
    if "anyOf" in prop:  # Optional[Seat]
        return {**prop, "anyOf": [({**_SEAT} if b.get("type") == "integer" else b) for b in prop["anyOf"]]}
    return {**prop, **_SEAT}


def _describe(name: str, definition: dict[str, Any]) -> None:
    """Give a definition and each of its properties a ``description``: the Struct's docstring
    (msgspec's) and each field's ``#:`` comment (:func:`schema.field_docs.field_doc`; the
    options of ``RulesetOverrides`` are documented on :class:`schema.ruleset.Ruleset`)."""
    from .field_docs import field_doc

    if not definition.get("description"):
        doc = field_doc_of_alias(name)
        if doc:
            definition["description"] = doc
    for field, prop in definition.get("properties", {}).items():
        doc = (field_doc("Ruleset", field, "schema.ruleset") if name == "RulesetOverrides"
               else field_doc(name, field))
        if doc and "description" not in prop:
            prop["description"] = doc


def field_doc_of_alias(name: str) -> str:
    """The ``#:`` comment of a module-level name of :mod:`schema.events` (``RulesetOverrides``)."""
    from .field_docs import _module_docs

    return _module_docs("schema.events")[2].get(name, "")


def strict_schema() -> dict[str, Any]:
    """The strict JSON Schema (draft 2020-12) of one event-log line; see the module docstring."""
    base = json_schema()
    defs: dict[str, Any] = copy.deepcopy(base["$defs"])
    types = list(base["discriminator"]["mapping"])
    for name, d in defs.items():
        props = d.get("properties", {})
        for field in list(props):
            if field in SEAT_FIELDS:
                props[field] = _seat(props[field])
        if name in types:
            props["seq"] = {**props["seq"], "minimum": 0}
            props["at"] = {"type": "string", "format": "date-time", "pattern": RFC3339}
            props["game"] = {**props["game"], "minLength": 1}
        for field, extra in _FIELD_RULES.get(name, {}).items():
            props[field] = _merge(props[field], extra)
        _describe(name, d)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": f"paipu event-log line (schema version {SCHEMA_VERSION})",
        "description": "One JSON object per line; `type` names the event. Generated by "
                       "schema/json_schema.py; do not edit by hand.",
        "type": "object",
        "required": ["type"],
        "properties": {"type": {"enum": types}},
        "allOf": [
            {"if": {"properties": {"type": {"const": t}}, "required": ["type"]},
             "then": {"$ref": f"#/$defs/{t}"}}
            for t in types
        ],
        "$defs": defs,
    }


def schema_text() -> str:
    """:func:`strict_schema` as the committed file's text (2-space indent, UTF-8, final newline)."""
    return json.dumps(strict_schema(), indent=2, ensure_ascii=False) + "\n"


__all__ = ["KNOWN_VERSIONS", "RFC3339", "SCHEMA_FILE", "SCHEMA_ID", "schema_text", "strict_schema"]
