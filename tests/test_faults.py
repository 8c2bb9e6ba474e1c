"""Every fault is bounded and reported in one plain line: a server that stalls, drops, sends bad bytes or
never stops; empty and prose director answers; retries only where worth it; the turn's own deadline."""

from __future__ import annotations

import json
import time

import pytest
from pydantic import BaseModel, ValidationError

from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from maic_tui.llm.errors import describe
from maic_tui.orchestration.graph.engine_context import EngineContext
from tests.engine_helpers import assert_well_formed, classroom, done, kinds, pick, play, spoken, text
from tests.fake_openai import Reply, fake_openai

CLASS_NAMES = ("Error:", "Exception", "ValidationError", "JSONDecodeError", "UnicodeDecodeError", "pydantic.dev",
               "Traceback")


def _session(url: str, **options: object) -> ClassroomSession:
    settings = {"base_url": url, "retries": 0, "timeout": 5.0, "pace": 0.0} | options  # shown as it streams
    return ClassroomSession(classroom(), "openai:fake-model", ModelOptions(**settings))


def _errors(events: list) -> list[str]:
    return [e.data.message for e in events if e.type == "error"]


def _plain(message: str) -> None:
    assert "\n" not in message and not any(name in message for name in CLASS_NAMES), message


async def test_a_server_that_never_answers_costs_one_timeout_not_three() -> None:
    with fake_openai(Reply(pick("teacher"), stall=30), Reply(pick("teacher"), stall=30),
                     Reply(pick("teacher"), stall=30)) as server:
        started = time.monotonic()
        events = await play(_session(server.url, timeout=2.0, retries=2), "Hi?")
        took = time.monotonic() - started
    assert took < 5, took  # the timeout bounds the whole call, retries included (three tries would be 6 s)
    assert kinds(events) == ["thinking:director", "error", "done"] and done(events).data.end_reason == "error"
    assert "timed out" in events[1].data.message
    _plain(events[1].data.message)


async def test_an_agent_that_never_answers_ends_the_turn_after_one_timeout() -> None:
    with fake_openai(Reply(pick("teacher")), Reply(stall=30), Reply(stall=30), Reply(pick("teacher"))) as server:
        started = time.monotonic()
        events = await play(_session(server.url, timeout=2.0, retries=2), "Hi?")
        took = time.monotonic() - started
    assert took < 5, took
    assert_well_formed(events)
    assert len(_errors(events)) == 1 and done(events).data.end_reason == "error"
    assert len(server.requests) == 2  # nobody is sent again after the failure


async def test_a_director_stream_that_never_ends_is_cut_once_the_decision_closed() -> None:
    replies = [Reply(pick("teacher"), forever=True), Reply(text("Hello.")), Reply(pick("END"), forever=True)]
    with fake_openai(*replies) as server:
        started = time.monotonic()
        events = await play(_session(server.url, timeout=30.0), "Hi?")
        took = time.monotonic() - started
    assert took < 5, took
    assert spoken(events) == "Hello." and done(events).data.end_reason == "director_end"
    assert server.hung_up >= 1  # we stopped reading; the server noticed


async def test_a_decision_to_end_is_taken_once_read_whatever_follows_it() -> None:
    """Ending the turn needs no instruction: reading stops at the END, before a rambling instruction that never
    closes (a small model writes one for nobody), and the trace keeps what was read."""
    ramble = '{"next_agent": "END", "instruction": "Go to the next question and answer the previous one'
    replies = [Reply(pick("teacher")), Reply(text("Hello.")), Reply(ramble, forever=True)]
    with fake_openai(*replies) as server:
        started = time.monotonic()
        events = await play(_session(server.url, timeout=30.0), "Hi?")
        took = time.monotonic() - started
    assert took < 5, took
    record = done(events).data.director_trace[-1]
    assert done(events).data.end_reason == "director_end" and record.final == "END" and record.path == "model"
    assert record.raw is not None and record.raw.startswith('{"next_agent": "END",') and "previous" not in record.raw
    assert server.hung_up >= 1


async def test_a_director_that_rambles_without_json_is_capped_then_reasked() -> None:
    replies = [Reply("Let me think about who should speak", forever=True), Reply(pick("teacher")),
               Reply(text("Here is the answer.")), Reply(pick("END"))]
    with fake_openai(*replies) as server:
        started = time.monotonic()
        events = await play(_session(server.url, timeout=30.0), "What is a limit?")
        took = time.monotonic() - started
    assert took < 10, took
    trace = done(events).data.director_trace
    assert trace[0].guards[0].rule == "parse" and not trace[0].guards[0].passed
    assert len(trace[0].raw or "") <= 4_100  # the cap, plus the re-ask's answer
    assert spoken(events) == "Here is the answer." and not _errors(events)


@pytest.mark.parametrize("first", ["", "I think the teacher should answer this one."])
async def test_an_empty_or_prose_director_answer_is_reasked_then_someone_speaks(first: str) -> None:
    replies = [Reply(first), Reply(first), Reply(text("The teacher answers.")), Reply(pick("END"))]
    with fake_openai(*replies) as server:
        events = await play(_session(server.url), "What is a limit?")
    assert not _errors(events)
    assert spoken(events) == "The teacher answers."  # the fallback sent the teacher
    assert done(events).data.director_trace[0].path == "fallback"


@pytest.mark.parametrize(("reply", "words"), [
    (Reply(raw=b"data: \xff\xfe{\n\n"), "not UTF-8"),
    (Reply(raw=b'data: {"choices": [{"delta": {"content": "x"\n\n'), "malformed stream"),
    (Reply(pick("teacher") + " " * 20, drop_after=2), "dropped in the middle of the answer"),
])
async def test_bad_bytes_bad_json_and_a_dropped_connection_are_one_plain_line(reply: Reply, words: str) -> None:
    with fake_openai(reply) as server:
        events = await play(_session(server.url), "Hi?")
    (message,) = _errors(events)
    assert words in message and message.startswith("director: ")
    _plain(message)
    assert done(events).data.end_reason == "error"


async def test_a_429_is_retried_after_its_retry_after_within_the_deadline() -> None:
    replies = [Reply(status=429, text="slow down", headers={"Retry-After": "0.2"}), Reply(pick("teacher")),
               Reply(text("Fine.")), Reply(pick("END"))]
    with fake_openai(*replies) as server:
        events = await play(_session(server.url, retries=2), "Hi?")
    assert not _errors(events) and spoken(events) == "Fine."
    assert len(server.requests) == 4


async def test_a_retry_after_longer_than_the_deadline_is_not_waited_for() -> None:
    with fake_openai(Reply(status=429, text="slow down", headers={"Retry-After": "100"})) as server:
        started = time.monotonic()
        events = await play(_session(server.url, retries=2, timeout=3.0), "Hi?")
    assert time.monotonic() - started < 1.5
    assert "rate limiting" in _errors(events)[0] and len(server.requests) == 1


async def test_5xx_is_retried_and_4xx_is_not() -> None:
    with fake_openai(Reply(status=503, text="busy"), Reply(pick("teacher")), Reply(text("Ok.")),
                     Reply(pick("END"))) as server:
        events = await play(_session(server.url, retries=1), "Hi?")
    assert spoken(events) == "Ok." and len(server.requests) == 4
    with fake_openai(Reply(status=400, text="bad request"), Reply(pick("teacher"))) as server:
        events = await play(_session(server.url, retries=3), "Hi?")
    assert "answered 400" in _errors(events)[0] and len(server.requests) == 1


async def test_an_agent_server_error_is_one_error_and_ends_the_turn() -> None:
    replies = [Reply(pick("teacher")), Reply(status=500, text="exploded"), Reply(pick("teacher")),
               Reply(status=500, text="exploded")]
    with fake_openai(*replies) as server:
        events = await play(_session(server.url), "What is a limit?")
    assert_well_formed(events)
    assert len(_errors(events)) == 1 and done(events).data.end_reason == "error"
    assert len(server.requests) == 2


async def test_the_turn_has_a_deadline_of_its_own(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(EngineContext, "turn_budget_seconds", lambda self: 0.6)
    script = {"director": [{"text": pick("teacher"), "delay_ms": 100}, {"text": pick("ta"), "delay_ms": 100}],
              "agents": {"teacher": [{"chunks": [text("Slow.")], "delay_ms": 400}],
                         "ta": [{"chunks": [text("Slower.")], "delay_ms": 400}]}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    session = ClassroomSession(classroom(), f"script:{path}", ModelOptions(timeout=5.0))
    events = await play(session, "Hi?")
    assert_well_formed(events)
    assert any("the turn ran past its limit" in m for m in _errors(events))
    assert done(events).data.end_reason == "error"


class _Chunk(BaseModel):
    role: str


@pytest.mark.parametrize("exc", [
    json.JSONDecodeError("Expecting ',' delimiter", '{"a" 1}', 5),
    UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"),
    KeyError("choices"),
    RuntimeError(""),
])
def test_describe_never_shows_a_class_name(exc: Exception) -> None:
    message = describe(exc, who="director").message
    _plain(message)
    assert message.startswith("director: the ")


def test_describe_reads_a_validation_error_in_words() -> None:
    with pytest.raises(ValidationError) as caught:
        _Chunk.model_validate({"role": None})
    message = describe(caught.value, who="Ms. Hale").message
    _plain(message)
    assert "cannot read" in message and "role" in message


async def test_an_answer_that_reaches_its_token_cap_is_the_answer_not_an_error() -> None:
    replies = [Reply(pick("teacher"), finish="length"), Reply(text("Cut sho"), finish="length"),
               Reply(pick("END"))]
    with fake_openai(*replies) as server:
        events = await play(_session(server.url, structured="json_schema"), "What is a limit?")
    assert not _errors(events), _errors(events)
    assert spoken(events).startswith("Cut sho")


async def test_one_huge_chunk_is_cut_at_the_cap_for_the_director_and_for_an_agent() -> None:
    huge_speech = text("la " * 1_000_000)  # 3 MB of speech in one chunk
    replies = [Reply(pick("teacher") + " " * 5_000_000, chunk_size=10**8), Reply(huge_speech, chunk_size=10**8),
               Reply(pick("END"))]
    with fake_openai(*replies) as server:
        session = _session(server.url, timeout=30.0)
        events = await play(session, "What is a limit?")
    assert_well_formed(events)
    said = spoken(events)
    assert 0 < len(said) <= 16_000  # the agent's output cap, whatever the chunk size
    summary = done(events).data.director_state.agent_responses[0]
    assert "output cut at 16000 characters" in summary.action_warnings
    assert all(len(record.raw or "") <= 4_000 for record in done(events).data.director_trace)
    assert len(session.history[-1].text) <= 16_000
