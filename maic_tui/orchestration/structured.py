"""JSON schemas for servers that can constrain output (structured output, off by default)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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


def agent_schema(actions: Sequence[str]) -> dict[str, Any]:
    text = {
        "type": "object",
        "properties": {"type": {"const": "text"}, "content": {"type": "string", "minLength": 1}},
        "required": ["type", "content"],
    }
    # At least one item: under a grammar, small models otherwise take the shortest valid answer, "[]".
    if not actions:
        return {"type": "array", "minItems": 1, "items": text}
    action = {
        "type": "object",
        "properties": {"type": {"const": "action"}, "name": {"type": "string", "enum": list(actions)},
                       "params": {"type": "object"}},
        "required": ["type", "name", "params"],
    }
    return {"type": "array", "minItems": 1, "items": {"anyOf": [text, action]}}
