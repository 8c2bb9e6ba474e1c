"""Each action's parameters as a JSON schema, for a server that constrains what a model writes (structured output).

Derived from the parameter models in ``schemas.py``, like the prompt's documentation (``docs.py``), so the grammar a
server builds lets through only parameters the board can apply: a small model that is free to write any object
writes ones it refuses (``wb_draw_line`` with no ``startX``), and spends a second of the class's time on each. Only
what a grammar needs is kept: types, names, choices, lengths and counts; titles, defaults and descriptions are the
prompt's. Optional parameters stay optional, and no other keys are let through."""

from __future__ import annotations

from functools import cache
from typing import Any

from maic_tui.actions.catalogue import ACTION_SCHEMAS

# The JSON-schema keywords servers' grammar converters read (llama.cpp's, llama-cpp-python's, OpenAI's); numeric
# bounds such as pydantic's "gt" are left to validation, as converters ignore or refuse them.
_KEPT = frozenset({"type", "properties", "required", "items", "prefixItems", "enum", "const", "minItems", "maxItems",
                   "minLength", "maxLength", "minProperties", "maxProperties", "anyOf", "additionalProperties"})


def _grammar_part(node: Any, defs: dict[str, Any]) -> Any:
    """``node`` with references inlined, ``null`` dropped from optional values and only the kept keywords."""
    if isinstance(node, list):
        return [_grammar_part(item, defs) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return _grammar_part(defs[node["$ref"].rsplit("/", 1)[-1]], defs)
    alternatives = [option for option in node.get("anyOf", ()) if option.get("type") != "null"]
    if len(alternatives) == 1:  # an optional value: leaving the key out says "none", so null is never needed
        return _grammar_part(alternatives[0], defs)
    part: dict[str, Any] = {}
    for key, value in node.items():
        if key == "properties":
            part[key] = {name: _grammar_part(schema, defs) for name, schema in value.items()}
        elif key in _KEPT:
            part[key] = _grammar_part(value, defs)
    if part.get("type") == "object" and "properties" in part:
        part["additionalProperties"] = False  # stray keys are dropped by validation anyway: not worth a token
    return part


@cache
def params_schema(name: str) -> dict[str, Any]:
    """The JSON schema of action ``name``'s ``params``, in their wire (camelCase) names."""
    model_schema = ACTION_SCHEMAS[name].model_json_schema(by_alias=True, mode="validation")
    part = _grammar_part(model_schema, model_schema.get("$defs", {}))
    part.setdefault("properties", {})  # an action without parameters takes {}
    part["additionalProperties"] = False
    return dict(part)
