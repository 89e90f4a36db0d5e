"""The JSON Schema names itself (``$id``) and says what every event and field is, in the
words of the Structs' own documentation (docstrings and ``#:`` field comments)."""

from __future__ import annotations

import jsonschema

from schema import events as ev
from schema.field_docs import COMMON, field_doc
from schema.json_schema import SCHEMA_ID, strict_schema


def test_the_schema_has_an_id_and_a_description_for_every_event_and_field():
    schema = strict_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == SCHEMA_ID == f"urn:paipu:schema:event-log-line:v{ev.SCHEMA_VERSION}"
    for name, definition in schema["$defs"].items():
        assert definition.get("description"), name
        for field, prop in definition.get("properties", {}).items():
            assert prop.get("description"), (name, field)


def test_the_descriptions_are_the_structs_own_words():
    defs = strict_schema()["$defs"]
    assert defs["TileDrawn"]["description"] == ev.TileDrawn.__doc__.strip()
    assert defs["HandWon"]["properties"]["from_seat"]["description"] == \
        "The discarder or the kong adder; ``None`` on a self-draw."
    # grouped fields share the comment over the group; a typed field takes its type's comment
    assert defs["HandSettled"]["properties"]["reveal_wall"]["description"] == \
        defs["HandSettled"]["properties"]["reveal_salt"]["description"]
    assert defs["TileDrawn"]["properties"]["seat"]["description"].startswith("A seat")
    assert defs["TileDrawn"]["properties"]["seq"]["description"] == COMMON["seq"]
    # ruleset options are documented where the options are
    assert defs["RulesetOverrides"]["properties"]["chow"]["description"].startswith("吃 chow allowed")


def test_a_field_without_any_documentation_has_none():
    # near miss: an undocumented field of an undocumented type is not given invented words
    assert field_doc("HandWon", "no_such_field") is None
    assert field_doc("NoSuchEvent", "whatever") is None
