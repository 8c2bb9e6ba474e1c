"""The ``gbnf`` mode's grammars (llm/gbnf.py): what they let through, checked by matching text against them. The
class's grammars have no recursion, so each is one regular expression: its rules inlined."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import pytest

from maic_tui.actions import ACTION_SCHEMAS
from maic_tui.actions.json_schema import params_schema
from maic_tui.llm.gbnf import Unsupported, gbnf
from maic_tui.llm.openai_model import request_options
from maic_tui.orchestration.routing.director_schema import (
    SPEECH_FIRST,
    agent_schema,
    director_schema,
    speech_first_schema,
)
from tests.test_action_json_schema import smallest

_TOKEN = re.compile(r'\s*("(?:[^"\\]|\\.)*"|\[(?:[^\]\\]|\\.)*\]|[a-zA-Z0-9-]+|\{\d*,?\d*\}|[()|?*+])')


def matcher(grammar: str) -> re.Pattern[str]:
    """``grammar`` (its ``root``) as a regular expression."""
    rules = dict(line.split(" ::= ", 1) for line in grammar.strip().splitlines())

    @cache
    def regex(name: str) -> str:
        out = []
        for token in _TOKEN.findall(rules[name]):
            if token.startswith('"'):
                out.append(re.escape(json.loads(token)))
            elif token.startswith("[") or token.startswith("{") or token in ("|", ")", "?", "*", "+"):
                out.append(token)
            elif token == "(":
                out.append("(?:")
            else:
                out.append(f"(?:{regex(token)})")
        return "".join(out)

    return re.compile(regex("root"), re.DOTALL)


def lets_through(grammar: str, text: str) -> bool:
    return matcher(grammar).fullmatch(text) is not None


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_a_decision_is_compact_json_with_its_keys_in_order_and_a_choice_the_guards_left() -> None:
    grammar = gbnf(director_schema(["reyes", "theo", "USER", "END"]))
    assert lets_through(grammar, '{"next_agent":"END"}')
    assert lets_through(grammar, '{"next_agent":"theo","instruction":"Ask about x³ – \\"why\\"?"}')
    assert lets_through(grammar, '{"next_agent":"USER","prompt":"Which one?","options":["a","b"]}')
    for refused in ('{ "next_agent":"END"}', '{"next_agent": "END"}', '{"next_agent":"kim"}',
                    '{"instruction":"go","next_agent":"END"}', '{"next_agent":"END","mood":"happy"}',
                    '{"next_agent":"USER","options":["a","b","c","d","e"]}',
                    '{"next_agent":"END","instruction":"' + "x" * 121 + '"}'):
        assert not lets_through(grammar, refused), refused


def test_an_answer_under_the_grammar_starts_with_speech() -> None:
    grammar = gbnf(speech_first_schema(["wb_draw_line", "wb_open"]))
    line = {"type": "action", "name": "wb_draw_line", "params": {"startX": 10, "startY": 20.5, "endX": -3, "endY": 4}}
    speech = {"type": "text", "content": "A slope is a rate."}
    assert lets_through(grammar, compact([speech]))
    assert lets_through(grammar, compact([speech, line, {"type": "text", "content": "See?"},
                                          {"type": "action", "name": "wb_open", "params": {}}]))
    assert compact([speech]).startswith(SPEECH_FIRST)
    for refused in (
        [line, speech],  # an action first: the learner would wait for its words
        [{"content": "Look.", "type": "text"}],  # the keys in another order than every prompt shows
        [{"type": "text", "content": ""}],
        [speech, {**line, "params": {"x1, y1:": [5.0]}}],  # what a free object let through
        [speech, {**line, "params": {**line["params"], "startY": 2.5639714386674886e-29}}],
        [speech, {"type": "action", "name": "wb_draw_text", "params": {"content": "x", "x": 1, "y": 1}}],
    ):
        assert not lets_through(grammar, compact(refused)), refused
    assert not lets_through(grammar, '[ {"type":"text","content":"Look."}]')
    assert not lets_through(grammar, '[{"type": "text","content":"Look."}]')


@pytest.mark.parametrize("name", list(ACTION_SCHEMAS))
def test_each_actions_parameters_required_first_then_in_the_schemas_order_and_nothing_else(name: str) -> None:
    schema = params_schema(name)
    grammar = gbnf(schema)
    assert lets_through(grammar, compact(smallest(schema)))
    required = [key for key in schema["properties"] if key in schema.get("required", ())]
    order = required + [key for key in schema["properties"] if key not in required]
    everything = {key: smallest(schema["properties"][key]) for key in order}
    assert lets_through(grammar, compact(everything))  # the required keys, then every optional one, in order
    assert not lets_through(grammar, compact({**everything, "stray": 1}))
    if len(everything) > 1:
        assert not lets_through(grammar, compact(dict(reversed(everything.items()))))


def test_objects_with_no_required_keys_and_maps() -> None:
    reveal = gbnf(params_schema("widget_reveal"))  # target and content, both optional
    for text in ("{}", '{"target":"n1"}', '{"content":"Here."}', '{"target":"n1","content":"Here."}'):
        assert lets_through(reveal, text), text
    assert not lets_through(reveal, '{"content":"Here.","target":"n1"}')
    assert not lets_through(reveal, '{,"content":"Here."}')
    state = gbnf(params_schema("widget_setState"))  # a map of 1 to 8 numbers
    assert lets_through(state, '{"state":{"h":0.5}}')
    assert lets_through(state, compact({"state": {f"v{i}": i for i in range(8)}}))
    assert not lets_through(state, '{"state":{}}')
    assert not lets_through(state, compact({"state": {f"v{i}": i for i in range(9)}}))
    assert not lets_through(state, '{"state":{"h":"half"}}')


def test_a_schema_it_does_not_read_goes_to_the_server_as_a_schema() -> None:
    odd = {"type": "object", "properties": {"code": {"type": "string", "pattern": "^[A-Z]+$"}}, "required": ["code"]}
    with pytest.raises(Unsupported, match="pattern"):
        gbnf(odd)
    sent = request_options("gbnf", "odd", odd, 100, True)["extra_body"]
    assert "grammar" not in sent and sent["response_format"] == {"type": "json_object", "schema": odd}
    agent = request_options("gbnf", "agent_turn", agent_schema(["wb_open"]), 100, True,
                            speech_first_schema(["wb_open"]))["extra_body"]
    assert "response_format" not in agent and agent["grammar"] == gbnf(speech_first_schema(["wb_open"]))
    assert agent["max_tokens"] == 100


def test_a_long_bound_is_left_to_validation() -> None:
    grammar = gbnf({"type": "string", "maxLength": 5000})
    assert "5000" not in grammar and lets_through(grammar, '"' + "x" * 6000 + '"')
    assert not lets_through(gbnf({"type": "string", "maxLength": 200}), '"' + "x" * 201 + '"')
