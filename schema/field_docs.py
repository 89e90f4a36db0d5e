"""The documentation of the event Structs' fields, read from their source.

Each field of a Struct in :mod:`schema.events` is documented by the ``#:`` comment
lines right above it (the Sphinx convention), or else by the sentences of its Struct's
docstring that name it (````tiles````); a field without either takes the ``#:``
comment of its type alias (``Seat``: "A seat: a room has 3 or 4 players, seated
0..3."), and the fields every event carries (``game``, ``seq``, ``at``, ``type``,
``prev``) take theirs from :data:`COMMON`.  The JSON Schema
(:mod:`schema.json_schema`) puts them in each property's ``description``, so a new
event or field joins with its own words.
"""

from __future__ import annotations

import ast
import inspect
import re
from functools import lru_cache
from typing import Optional

#: Modules whose type aliases document the fields typed by them (``Tile``).
ALIAS_MODULES = ("schema.tiles",)

#: The fields every event carries, in words.
COMMON = {
    "type": "The event's type: which of the events this line is.",
    "game": "The game (room) id; every line of one game carries it.",
    "seq": "The event's number within its game: 0, 1, 2, … with no gap.",
    "at": "When the event happened: an RFC 3339 time with a UTC offset.",
}


def _comments_above(lines: list[str], lineno: int) -> str:
    """The ``#:`` comment lines right above line ``lineno`` (1-based), joined; a field right
    below another field (no blank line between) shares that one's comment, as grouped fields do."""
    out: list[str] = []
    k = lineno - 2
    while k >= 0 and ":" in lines[k] and not lines[k].strip().startswith(("#", '"""')) and \
            lines[k].startswith("    ") and lines[k].strip().split(":")[0].isidentifier():
        k -= 1  # the field above: the comment over the group
    while k >= 0 and lines[k].strip().startswith("#:"):
        out.insert(0, lines[k].strip()[2:].strip())
        k -= 1
    return " ".join(out)


@lru_cache(maxsize=None)
def _module_docs(module_name: str) -> tuple[dict[str, dict[str, str]], dict[str, str], dict[str, str]]:
    """(class -> field -> doc comment, class -> base class name, alias -> doc comment) of a module."""
    import importlib

    source = inspect.getsource(importlib.import_module(module_name))
    lines = source.splitlines()
    tree = ast.parse(source)
    fields: dict[str, dict[str, str]] = {}
    bases: dict[str, str] = {}
    aliases: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            docs = {}
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    text = _comments_above(lines, item.lineno)
                    if text:
                        docs[item.target.id] = text
                    if isinstance(item.annotation, ast.Name):
                        docs.setdefault(f"{item.target.id}:type", item.annotation.id)
            docs[":doc"] = ast.get_docstring(node) or ""
            fields[node.name] = docs
            if node.bases and isinstance(node.bases[0], ast.Name):
                bases[node.name] = node.bases[0].id
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            text = _comments_above(lines, node.lineno)
            if text:
                aliases[node.targets[0].id] = text
    return fields, bases, aliases


def field_doc(struct: str, field: str, module: str = "schema.events") -> Optional[str]:
    """The documentation of ``struct.field``: its own ``#:`` comment (or an ancestor's), its type
    alias's, or the common words of an event field; None when there is none."""
    fields, bases, _aliases = _module_docs(module)
    lineage = []
    name: Optional[str] = struct
    while name is not None:
        lineage.append(fields.get(name, {}))
        name = bases.get(name)
    for docs in lineage:  # the field's own words, here or on an ancestor
        if field in docs:
            return docs[field]
    for docs in lineage:  # the sentences of the Struct's docstring that name it
        said = [x for x in re.split(r"(?<=[.;])\s+", " ".join(docs.get(":doc", "").split())) if f"``{field}``" in x]
        if said:
            return " ".join(said)
    if field in COMMON:
        return COMMON[field]
    for docs in lineage:  # else the words of its type
        alias = docs.get(f"{field}:type")
        for other in (module, *ALIAS_MODULES) if alias else ():
            found = _module_docs(other)[2].get(alias)
            if found:
                return found
    return None


__all__ = ["ALIAS_MODULES", "COMMON", "field_doc"]
