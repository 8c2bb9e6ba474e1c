"""A JSON schema as a GBNF grammar (llama.cpp's grammar format), for the ``gbnf`` structured mode.

A server's own schema converter lets a space through between any two tokens of JSON, and a small model takes it: a
token read for nothing, and in an agent's answer some of the tokens before its first word (ARCHITECTURE.md,
*Models*). This grammar allows no whitespace outside strings, writes properties in the schema's order (required
first, then each optional one), honours ``prefixItems`` as the first items of an array that goes on with ``items``
(what lets an answer start with speech), and keeps numbers short. Only the keywords the class's schemas use are
read; any other raises ``Unsupported``, and that call is sent with the schema instead."""

from __future__ import annotations

import json
import re
from typing import Any

_CHAR = r'[^"\\\x7F\x00-\x1F] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})'
# A coordinate, a size or a simulation's value: a model writing 2.5639714386674886e-29 spends twenty tokens on it.
_NUMBER = r'"-"? [0-9]{1,7} ("." [0-9]{1,6})?'
_KNOWN = frozenset({"type", "properties", "required", "items", "prefixItems", "enum", "const", "minItems", "maxItems",
                    "minLength", "maxLength", "minProperties", "maxProperties", "anyOf", "additionalProperties",
                    "title", "description", "default", "$defs"})


class Unsupported(ValueError):
    """A schema this converter does not read."""


def _literal(value: Any) -> str:
    """``value`` as compact JSON, quoted as a GBNF string."""
    return json.dumps(json.dumps(value, ensure_ascii=False, separators=(",", ":")), ensure_ascii=False)


_COMMA = ' "," '
# llama.cpp expands x{0,n} into n nested rules: a longer bound (a generated scene's text) is left to validation
_LONGEST_BOUND = 200


def _repeat(rule: str, low: int, high: int | None) -> str:
    if high == 0:
        return ""
    low = min(low, _LONGEST_BOUND)
    if high is not None and high > _LONGEST_BOUND:
        high = None
    if high is None:
        return f"{rule}{{{low},}}" if low else f"{rule}*"
    return f"{rule}{{{low},{high}}}"


class _Grammar:
    def __init__(self, defs: dict[str, Any]) -> None:
        self.defs = defs
        self.rules: dict[str, str] = {"char": _CHAR, "number": _NUMBER, "string": r'"\"" char* "\""'}

    def add(self, name: str, body: str) -> str:
        name = re.sub(r"[^a-zA-Z0-9-]+", "-", name).strip("-") or "r"
        taken = self.rules.get(name)
        if taken is not None and taken != body:
            suffix = 2
            while f"{name}-{suffix}" in self.rules and self.rules[f"{name}-{suffix}"] != body:
                suffix += 1
            name = f"{name}-{suffix}"
        self.rules[name] = body
        return name

    def rule(self, schema: Any, name: str) -> str:
        """The name of a rule for ``schema`` (added with its parts)."""
        if not isinstance(schema, dict):
            raise Unsupported(f"a schema that is not an object at {name}")
        if "$ref" in schema:
            target = str(schema["$ref"]).rsplit("/", 1)[-1]
            if target not in self.defs:
                raise Unsupported(f"an unknown reference {schema['$ref']}")
            return self.rule(self.defs[target], name)
        unknown = set(schema) - _KNOWN
        if unknown:
            raise Unsupported(f"{', '.join(sorted(unknown))} at {name}")
        if "const" in schema:
            return self.add(name, _literal(schema["const"]))
        if "enum" in schema:
            return self.add(name, " | ".join(_literal(value) for value in schema["enum"]))
        if "anyOf" in schema:
            options = [self.rule(option, f"{name}-{i}") for i, option in enumerate(schema["anyOf"])]
            return self.add(name, " | ".join(options))
        kind = schema.get("type")
        if kind == "object":
            return self._object(schema, name)
        if kind == "array":
            return self._array(schema, name)
        if kind == "string":
            low, high = schema.get("minLength", 0), schema.get("maxLength")
            return self.add(name, f'"\\"" {_repeat("char", low, high)} "\\""')
        if kind in ("number", "integer"):
            return "number" if kind == "number" else self.add("integer", r'"-"? [0-9]{1,7}')
        if kind == "boolean":
            return self.add("boolean", '"true" | "false"')
        if kind == "null":
            return self.add("null", '"null"')
        raise Unsupported(f"type {kind!r} at {name}")

    def _object(self, schema: dict[str, Any], name: str) -> str:
        properties: dict[str, Any] = schema.get("properties", {})
        if not properties:
            values = schema.get("additionalProperties")
            if not isinstance(values, dict):
                return self.add(name, '"{}"')  # no keys are let through: {} is the one object
            pair = self.add(f"{name}-kv", f'string ":" {self.rule(values, f"{name}-value")}')
            low, high = schema.get("minProperties", 0), schema.get("maxProperties")
            more = _repeat(f'("," {pair})', max(low - 1, 0), None if high is None else max(high - 1, 0))
            body = f'"{{" {pair} {more} "}}"'
            return self.add(name, body if low else f'"{{" ({pair} {more})? "}}"')
        if schema.get("additionalProperties", False) is not False:
            raise Unsupported(f"other keys beside the properties at {name}")
        required = [key for key in properties if key in schema.get("required", ())]
        optional = [key for key in properties if key not in required]
        pairs = {key: f'{_literal(key)} ":" {self.rule(properties[key], f"{name}-{key}")}' for key in properties}
        tail = " ".join(f'("," {pairs[key]})?' for key in optional)
        if required:
            return self.add(name, f'"{{" {_COMMA.join(pairs[key] for key in required)} {tail} "}}"')
        # none required: whichever optional key comes first, then any of those after it
        firsts = [" ".join([pairs[key], *(f'("," {pairs[later]})?' for later in optional[i + 1:])])
                  for i, key in enumerate(optional)]
        return self.add(name, f'"{{" ({" | ".join(f"({first})" for first in firsts)})? "}}"')

    def _array(self, schema: dict[str, Any], name: str) -> str:
        first = [self.rule(item, f"{name}-first-{i}") for i, item in enumerate(schema.get("prefixItems", ()))]
        items = schema.get("items")
        low, high = schema.get("minItems", 0), schema.get("maxItems")
        if items is None or items is False:
            if not first:
                raise Unsupported(f"an array without items at {name}")
            return self.add(name, f'"[" {_COMMA.join(first)} "]"')
        item = self.rule(items, f"{name}-item")
        if first:
            rest_high = None if high is None else max(high - len(first), 0)
            rest = _repeat(f'("," {item})', max(low - len(first), 0), rest_high)
            return self.add(name, f'"[" {_COMMA.join(first)} {rest} "]"')
        more = _repeat(f'("," {item})', max(low - 1, 0), None if high is None else max(high - 1, 0))
        body = f'"[" {item} {more} "]"'
        return self.add(name, body if low else f'"[" ({item} {more})? "]"')


def gbnf(schema: dict[str, Any]) -> str:
    """The grammar of ``schema``, rooted at ``root``. Raises ``Unsupported`` for a schema it does not read."""
    grammar = _Grammar(schema.get("$defs", {}))
    top = grammar.rule(schema, "value")
    rules = {"root": top, **grammar.rules}
    return "\n".join(f"{name} ::= {body}" for name, body in rules.items()) + "\n"
