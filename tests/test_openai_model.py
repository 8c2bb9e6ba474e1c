"""``openai:`` models against a local fake server: streaming, failures, no key leaks, structured output."""

from __future__ import annotations

import json

import pytest

from maic_tui.events import to_json
from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from maic_tui.llm.gbnf import gbnf
from maic_tui.orchestration.routing.director_schema import director_schema
from tests.engine_helpers import assert_well_formed, classroom, done, kinds, pick, play, spoken, text
from tests.fake_openai import Reply, closed_port_url, fake_openai
from tests.test_gbnf import lets_through

KEY = "sk-test-SECRET-0123456789"


def _session(url: str, **options: object) -> ClassroomSession:
    settings = {"base_url": url, "api_key": KEY, "retries": 0, "timeout": 5.0} | options
    return ClassroomSession(classroom(), "openai:fake-model", ModelOptions(**settings))


def _no_secret(events: list) -> None:
    assert all(KEY not in to_json(e) for e in events)


async def test_a_turn_streams_from_the_server() -> None:
    with fake_openai(Reply(pick("teacher")), Reply(text("Hello from a server.")), Reply(pick("END"))) as server:
        events = await play(_session(server.url), "Hi?")
    assert_well_formed(events)
    assert spoken(events) == "Hello from a server."
    assert done(events).data.end_reason == "director_end"
    assert {k.lower(): v for k, v in server.headers[0].items()}["authorization"] == f"Bearer {KEY}"
    assert server.requests[0]["response_format"]["type"] == "json_schema"  # auto: tried first
    assert done(events).data.structured_output == "json_schema"
    assert server.requests[1]["stream"] is True


async def test_unreachable_server_ends_the_turn_at_once() -> None:
    session = _session(closed_port_url())
    events = await play(session, "Hi?")
    assert kinds(events) == ["thinking:director", "error", "done"]
    assert "cannot reach the model server" in events[1].data.message
    assert done(events).data.end_reason == "error"
    again = await play(session, "Still there?")  # the session stays usable
    assert done(again).data.end_reason == "error"
    _no_secret(events)


@pytest.mark.parametrize(("status", "words"), [(401, "refused the API key"), (429, "rate limiting"),
                                               (500, "answered 500")])
async def test_http_errors_become_one_clear_line(status: int, words: str) -> None:
    with fake_openai(Reply(status=status, text=f"bad thing with key {KEY}")) as server:
        events = await play(_session(server.url), "Hi?")
    assert [e.type for e in events] == ["thinking", "error", "done"]
    assert words in events[1].data.message and "\n" not in events[1].data.message
    assert done(events).data.end_reason == "error"
    _no_secret(events)


async def test_an_agent_failure_mid_stream_keeps_the_turn_going() -> None:
    replies = [Reply(pick("teacher")), Reply(text("A long answer that breaks off"), drop_after=8),
               Reply(pick("ta")), Reply(text("I can add to that.")), Reply(pick("END"))]
    with fake_openai(*replies) as server:
        events = await play(_session(server.url), "Hi?")
    assert_well_formed(events)
    errors = [e.data.message for e in events if e.type == "error"]
    assert len(errors) == 1 and errors[0].startswith("Ms. Hale: the model stream broke off")
    assert spoken(events, "teacher") == "A long ans"  # what arrived before the drop is kept
    assert spoken(events, "ta") == "I can add to that."
    assert done(events).data.end_reason == "director_end"


async def test_an_agent_401_stops_the_turn_instead_of_failing_for_every_agent() -> None:
    replies = [Reply(pick("teacher")), Reply(status=401, text="no")]
    with fake_openai(*replies) as server:
        events = await play(_session(server.url), "Hi?")
    assert_well_formed(events)
    assert [e.type for e in events].count("error") == 1
    assert done(events).data.end_reason == "error" and len(server.requests) == 2


async def test_a_slow_server_times_out() -> None:
    with fake_openai(Reply(pick("teacher"), stall=2.0)) as server:
        events = await play(_session(server.url, timeout=0.3), "Hi?")
    assert "timed out" in events[1].data.message
    assert done(events).data.end_reason == "error"


@pytest.mark.parametrize("mode", ["json_schema", "json_object"])
async def test_structured_output_sends_the_schema(mode: str) -> None:
    with fake_openai(Reply(pick("teacher")), Reply(text("Fine.")), Reply(pick("END"))) as server:
        events = await play(_session(server.url, structured=mode), "Hi?")
    assert_well_formed(events)
    director_format, agent_format = server.requests[0]["response_format"], server.requests[1]["response_format"]
    assert director_format["type"] == mode and agent_format["type"] == mode
    schema = director_format["json_schema"]["schema"] if mode == "json_schema" else director_format["schema"]
    assert schema["properties"]["next_agent"]["enum"] == ["teacher", "ta", "kim", "lee", "USER", "END"]
    agent_schema = agent_format["json_schema"]["schema"] if mode == "json_schema" else agent_format["schema"]
    assert agent_schema["type"] == "array" and agent_schema["minItems"] == 1
    assert "metadata" not in json.dumps(server.requests[1])  # nothing of ours leaks into the request


async def test_a_rejected_choice_is_reasked_with_the_reason_in_the_request() -> None:
    replies = [Reply(pick("kim")), Reply(pick("teacher")), Reply(text("First things first.")), Reply(pick("END"))]
    with fake_openai(*replies) as server:
        events = await play(_session(server.url), "What is a limit?")
    assert_well_formed(events)
    first, second = server.requests[0]["messages"], server.requests[1]["messages"]
    assert len(second) == len(first) + 2
    assert second[-2] == {"role": "assistant", "content": pick("kim")}
    assert second[-1]["role"] == "user" and "rejected" in second[-1]["content"]
    assert "should answer it before a student reacts" in second[-1]["content"]


REFUSED = Reply(status=400, text="response_format type 'json_schema' is not supported by this server")


KEPT = '[{{"type":"text","content":"{}"}}]'  # an answer as the gbnf mode's grammar lets it be written


def _formats(server) -> list[str | None]:
    """Each request's way of constraining output: its response format's type, "gbnf" for a grammar, or None."""
    return ["gbnf" if "grammar" in r else r.get("response_format", {}).get("type") for r in server.requests]


async def test_auto_takes_the_grammar_when_json_schema_is_refused_and_remembers(tmp_path) -> None:
    replies = [REFUSED, Reply(pick("teacher")), Reply(KEPT.format("Fine.")), Reply(pick("END")),
               Reply(pick("teacher")), Reply(KEPT.format("Again.")), Reply(pick("END"))]
    with fake_openai(*replies) as server:
        options = ModelOptions(base_url=server.url, retries=0, timeout=5.0)
        session = ClassroomSession(classroom(), "openai:fake-model", options, data_dir=tmp_path)
        session.warming.enabled = False  # the replies are the calls' own, in order (tests/test_warming.py)
        events = await play(session, "Hi?")
        later = ClassroomSession(classroom(), "openai:fake-model", options, data_dir=tmp_path)  # a later session
        later.warming.enabled = False
        await play(later, "Hi?")
    assert_well_formed(events)
    assert _formats(server) == ["json_schema"] + ["gbnf"] * 6  # the later session starts with what worked
    assert spoken(events) == "Fine." and done(events).data.structured_output == "gbnf"
    director, agent = server.requests[1], server.requests[2]
    assert director["grammar"] == gbnf(director_schema(["teacher", "ta", "kim", "lee", "USER", "END"]))
    assert lets_through(agent["grammar"], KEPT.format("Fine."))  # the answer's own grammar: speech first
    assert not lets_through(agent["grammar"], '[{"type":"action","name":"wb_open","params":{}}]')
    assert "response_format" not in director and "response_format" not in agent
    assert "gbnf" in (tmp_path / "structured-output.json").read_text(encoding="utf-8")


async def test_a_server_that_takes_the_grammar_field_but_not_its_rule_is_asked_with_json_object(tmp_path) -> None:
    """Its answer does not start as the grammar has it: the calls after it go as json_object, remembered."""
    replies = [REFUSED, Reply(pick("teacher")), Reply(text("Fine.")), Reply(pick("END")),
               Reply(pick("teacher")), Reply(text("Again.")), Reply(pick("END"))]
    with fake_openai(*replies) as server:
        options = ModelOptions(base_url=server.url, retries=0, timeout=5.0)
        session = ClassroomSession(classroom(), "openai:fake-model", options, data_dir=tmp_path)
        session.warming.enabled = False
        events = await play(session, "Hi?")
        later = ClassroomSession(classroom(), "openai:fake-model", options, data_dir=tmp_path)
        later.warming.enabled = False
        await play(later, "Hi?")
    assert _formats(server) == ["json_schema", "gbnf", "gbnf"] + ["json_object"] * 4
    assert spoken(events) == "Fine." and done(events).data.structured_output == "json_object"
    assert not [e for e in events if e.type == "error"]
    assert "json_object" in (tmp_path / "structured-output.json").read_text(encoding="utf-8")


async def test_auto_falls_back_to_json_object_when_the_grammar_is_refused_too() -> None:
    grammar_refused = Reply(status=400, text="Unrecognized request argument supplied: grammar")
    replies = [REFUSED, grammar_refused, Reply(pick("teacher")), Reply(text("Fine.")), Reply(pick("END"))]
    with fake_openai(*replies) as server:
        events = await play(_session(server.url), "Hi?")
    assert _formats(server) == ["json_schema", "gbnf", "json_object", "json_object", "json_object"]
    assert spoken(events) == "Fine." and done(events).data.structured_output == "json_object"


async def test_auto_ends_with_no_response_format_when_every_mode_is_refused() -> None:
    second = Reply(status=400, text="unknown field: response_format")
    replies = [REFUSED, Reply(status=400, text="grammar: not supported"), second, Reply(pick("teacher")),
               Reply(text("Plain.")), Reply(pick("END"))]
    with fake_openai(*replies) as server:
        events = await play(_session(server.url), "Hi?")
    assert spoken(events) == "Plain." and done(events).data.structured_output == "off"
    assert _formats(server)[:4] == ["json_schema", "gbnf", "json_object", None]


async def test_a_forced_mode_is_not_changed_when_refused() -> None:
    with fake_openai(REFUSED) as server:
        events = await play(_session(server.url, structured="json_schema"), "Hi?")
    assert "answered 400" in next(e.data.message for e in events if e.type == "error")
    assert len(server.requests) == 1


async def test_auto_reads_llama_cpp_pythons_500_about_the_response_format_as_a_refusal() -> None:
    refusal = Reply(status=500, text="1 validation error: loc ('body', 'response_format', 'type'): Input should "
                                     "be 'text' or 'json_object'")
    answer = Reply(KEPT.format("Ok."))  # as the grammar has it: the server took the grammar field
    with fake_openai(refusal, Reply(pick("teacher")), answer, Reply(pick("END"))) as server:
        events = await play(_session(server.url, retries=2), "Hi?")
    assert spoken(events) == "Ok." and done(events).data.structured_output == "gbnf"
    assert len(server.requests) == 4  # the refusal was not retried as a 5xx, it changed the mode


async def test_every_call_carries_a_cap_suited_to_it_in_both_forms() -> None:
    with fake_openai(Reply(pick("kim")), Reply(pick("teacher")), Reply(text("Fine.")), Reply(pick("END"))) as server:
        await play(_session(server.url), "Hi?")
    director, teacher = server.requests[0], server.requests[2]
    assert director["max_completion_tokens"] == director["max_tokens"] == 300
    assert teacher["max_completion_tokens"] == teacher["max_tokens"] == 800


async def test_a_server_that_refuses_max_tokens_gets_only_max_completion_tokens() -> None:
    refusal = Reply(status=400, text="Unsupported parameter: 'max_tokens' is not supported with this model. "
                                     "Use 'max_completion_tokens' instead.")
    with fake_openai(refusal, Reply(pick("teacher")), Reply(text("Ok.")), Reply(pick("END"))) as server:
        events = await play(_session(server.url), "Hi?")
    assert spoken(events) == "Ok."
    assert "max_tokens" in server.requests[0] and all("max_tokens" not in r for r in server.requests[1:])
    assert all(r["max_completion_tokens"] for r in server.requests)


def test_a_second_event_loop_in_the_same_process_still_reaches_the_server() -> None:
    """eval plays each run in its own event loop: the HTTP client must not belong to the first one."""
    import asyncio

    replies = [Reply(pick("teacher")), Reply(text("A.")), Reply(pick("END"))] * 2
    with fake_openai(*replies) as server:
        for _ in range(2):
            events = asyncio.run(play(_session(server.url), "Hi?"))
            assert not [e for e in events if e.type == "error"] and spoken(events) == "A."
