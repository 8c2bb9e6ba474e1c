"""Each action's parameters as a JSON schema (actions/json_schema.py), and the agent's answer schema built from them:
what a server's grammar lets a model write is what the board applies."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator, ValidationError, validate

from maic_tui.actions import ACTION_SCHEMAS, InvalidAction, parse_params
from maic_tui.actions.json_schema import params_schema
from maic_tui.orchestration.routing.director_schema import agent_schema


def smallest(schema: dict[str, Any]) -> Any:
    """The shortest instance a grammar built from ``schema`` lets through: required keys only, the fewest items."""
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    if kind == "object" and "properties" not in schema:  # a map: its values' schema, the fewest keys
        return {f"k{n}": smallest(schema["additionalProperties"]) for n in range(schema.get("minProperties", 0))}
    if kind == "object":
        return {key: smallest(schema["properties"][key]) for key in schema.get("required", ())}
    if kind == "array":
        if "prefixItems" in schema:
            return [smallest(item) for item in schema["prefixItems"]]
        return [smallest(schema["items"]) for _ in range(schema.get("minItems", 0))]
    if kind == "string":
        return "a" * max(1, schema.get("minLength", 1))
    assert kind == "number", schema
    return 1


@pytest.mark.parametrize("name", list(ACTION_SCHEMAS))
def test_the_shortest_parameters_a_grammar_allows_are_ones_the_board_takes(name: str) -> None:
    schema = params_schema(name)
    Draft202012Validator.check_schema(schema)
    params = smallest(schema)
    validate(params, schema)
    parse_params(name, params)  # raises InvalidAction when the grammar lets through what the board refuses


@pytest.mark.parametrize("name", list(ACTION_SCHEMAS))
def test_the_schema_requires_what_the_board_requires_and_lets_no_other_key_through(name: str) -> None:
    schema = params_schema(name)
    model = ACTION_SCHEMAS[name]
    wire = {field.alias or key: field for key, field in model.model_fields.items()}
    assert set(schema["properties"]) == set(wire)
    assert set(schema.get("required", ())) == {key for key, field in wire.items() if field.is_required()}
    assert schema["additionalProperties"] is False
    for key in schema.get("required", ()):  # each required key left out is refused by both
        params = smallest(schema)
        del params[key]
        with pytest.raises(ValidationError):
            validate(params, schema)
        with pytest.raises(InvalidAction):
            parse_params(name, params)


def test_only_what_a_grammar_reads_is_kept() -> None:
    kept = {"type", "properties", "required", "items", "prefixItems", "enum", "const", "minItems", "maxItems",
            "minLength", "maxLength", "minProperties", "maxProperties", "anyOf", "additionalProperties"}

    def keys(node: Any) -> set[str]:
        if isinstance(node, list):
            return set().union(*(keys(item) for item in node)) if node else set()
        if not isinstance(node, dict):
            return set()
        found = set(node) - {"properties"}
        values = list(node.get("properties", {}).values()) + [v for k, v in node.items() if k != "properties"]
        return found.union(*(keys(value) for value in values))

    for name in ACTION_SCHEMAS:
        assert keys(params_schema(name)) <= kept, name
    # nested models are inlined, and an optional value is the value, never null
    table = params_schema("wb_draw_table")
    assert table["properties"]["outline"]["properties"]["style"]["enum"] == ["solid", "dashed", "dotted"]
    assert table["properties"]["theme"] == {"type": "object", "properties": {"color": {"type": "string"}},
                                            "required": ["color"], "additionalProperties": False}
    assert params_schema("wb_draw_text")["properties"]["elementId"] == {"type": "string"}


def test_the_answer_schema_takes_speech_and_the_allowed_actions_with_their_parameters() -> None:
    schema = agent_schema(["wb_draw_line", "wb_open"])
    Draft202012Validator.check_schema(schema)
    line = {"startX": 10, "startY": 20, "endX": 300, "endY": 20}
    validate([{"type": "text", "content": "Look at this line."},
              {"type": "action", "name": "wb_draw_line", "params": {**line, "style": "dashed"}},
              {"type": "action", "name": "wb_open", "params": {}}], schema)
    refused: list[dict[str, Any]] = [
        # what SmolLM2-135M wrote when its parameters were free (make bench-real): the board refused it
        {"type": "action", "name": "wb_draw_line", "params": {"x1, y1:": [5.0], "y2: { x: 6.9 }}, {": False}},
        {"type": "action", "name": "wb_draw_line", "params": {**line, "style": "wavy"}},
        {"type": "action", "name": "wb_draw_line", "params": {**line, "startX": "left"}},
        {"type": "action", "name": "wb_draw_text", "params": {"content": "x", "x": 1, "y": 1}},  # not allowed here
        {"type": "action", "name": "wb_open", "params": {"anything": 1}},
        {"type": "text", "content": ""},
    ]
    for item in refused:
        with pytest.raises(ValidationError):
            validate([item], schema)
    with pytest.raises(InvalidAction):
        parse_params("wb_draw_line", refused[0]["params"])
    with pytest.raises(ValidationError):
        validate([], schema)


def test_an_agent_without_actions_is_asked_for_speech_only() -> None:
    schema = agent_schema([])
    validate([{"type": "text", "content": "Hello."}], schema)
    with pytest.raises(ValidationError):
        validate([{"type": "action", "name": "wb_open", "params": {}}], schema)
