"""JSON schemas for servers that can constrain output (structured output, off by default)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from maic_tui.actions.json_schema import params_schema

SENTENCE = 120  # characters of an instruction, a cue's question or one of its options


def director_schema(choices: Sequence[str]) -> dict[str, Any]:
    """A decision whose ``next_agent`` is one of ``choices`` (agent ids, USER, END): only what the guards accept."""
    return {
        "type": "object",
        "properties": {
            "next_agent": {"type": "string", "enum": list(choices)},
            # "One short sentence": a bound the server keeps, so a small model cannot ramble while the class waits.
            "instruction": {"type": "string", "maxLength": SENTENCE},
            "prompt": {"type": "string", "maxLength": SENTENCE},
            "options": {"type": "array", "items": {"type": "string", "maxLength": SENTENCE}, "maxItems": 4},
        },
        "required": ["next_agent"],
    }


def _text() -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"type": {"const": "text"}, "content": {"type": "string", "minLength": 1}},
        "required": ["type", "content"],
    }


def agent_schema(actions: Sequence[str]) -> dict[str, Any]:
    text = _text()
    # At least one item: under a grammar, small models otherwise take the shortest valid answer, "[]".
    if not actions:
        return {"type": "array", "minItems": 1, "items": text}
    # One kind of item per action, its parameters as the board takes them: free parameters are ones a small model
    # gets wrong (ARCHITECTURE.md, *Models*).
    kinds = [{
        "type": "object",
        "properties": {"type": {"const": "action"}, "name": {"const": name}, "params": params_schema(name)},
        "required": ["type", "name", "params"],
    } for name in actions]
    return {"type": "array", "minItems": 1, "items": {"anyOf": [text, *kinds]}}


SPEECH_FIRST = '[{"type":"text","content":"'  # how an answer under the grammar below starts, whatever follows


def speech_first_schema(actions: Sequence[str]) -> dict[str, Any]:
    """The agent's answer for a grammar (the ``gbnf`` mode): the same items, the first of them speech. Its first word
    then comes as soon as the model can write it, the answer never being only actions; a schema cannot say this to
    the servers' own converters (llama-cpp-python reads ``prefixItems`` as the whole array), so only the grammar does.
    The first item keeps the layout of every other (``type`` first): with ``content`` first, SmolLM2 spoke of JSON
    and copied the slide into actions instead of speaking (measured)."""
    return {**agent_schema(actions), "prefixItems": [_text()]}
