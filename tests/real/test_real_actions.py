"""Real-server tier (``make test-real``): the grammar llama.cpp's server builds from an agent's answer schema lets
SmolLM2-135M write only actions the board applies. Free parameters, it wrote ones the board refused (a line with no
``startX``, make bench-real); each action's own schema (actions/json_schema.py) leaves it no way to."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator

import pytest

from bench.llama_server import llama_server
from maic_tui.actions import InvalidAction, parse_params
from maic_tui.orchestration.routing.director_schema import agent_schema

pytestmark = pytest.mark.real_server

DRAWING = ["wb_draw_line", "wb_draw_shape", "wb_draw_table", "wb_draw_chart", "wb_draw_latex", "wb_draw_text"]


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    with llama_server() as url:
        yield url


def _actions_only(name: str) -> dict:
    """The answer schema with speech left out, so the model must write the action (and cannot answer in speech)."""
    schema = agent_schema([name])
    return {**schema, "maxItems": 1, "items": schema["items"]["anyOf"][1]}


@pytest.mark.parametrize("name", DRAWING)
def test_every_action_the_grammar_lets_a_small_model_write_is_one_the_board_takes(server_url: str, name: str) -> None:
    written = []
    for seed in range(3):
        body = {"model": "smollm2", "seed": seed, "max_tokens": 400, "temperature": 1.0,
                "messages": [{"role": "system", "content": "You teach on a whiteboard. Answer with a JSON array."},
                             {"role": "user", "content": f"Use {name} to show the slope of y = 2x."}],
                "response_format": {"type": "json_object", "schema": _actions_only(name)}}
        request = urllib.request.Request(f"{server_url}/chat/completions", json.dumps(body).encode(),
                                         {"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=300) as response:
            choice = json.load(response)["choices"][0]
        assert choice["finish_reason"] == "stop", choice  # whole: 400 tokens is room for any of these
        [item] = json.loads(choice["message"]["content"])
        assert item["name"] == name
        try:
            parse_params(name, item["params"])
        except InvalidAction as refused:
            # a table's or chart's rows of unequal length is the one check a JSON schema cannot say
            assert name in ("wb_draw_table", "wb_draw_chart") and str(refused) == "invalid_params: data", item
        written.append(item["params"])
    print(name, written)
