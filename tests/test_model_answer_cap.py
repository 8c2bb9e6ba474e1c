"""The model server's answers are capped in bytes before anything is decoded (issue 54): a stream line that
never ends, or an error body of many megabytes, is one line, read no further than the cap."""

from __future__ import annotations

from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from maic_tui.llm.answer_cap import MAX_ANSWER_BYTES
from tests.engine_helpers import assert_well_formed, classroom, done, kinds, pick, play, text
from tests.fake_openai import Reply, fake_openai


def _session(url: str) -> ClassroomSession:
    options = ModelOptions(base_url=url, retries=0, timeout=30.0, pace=0.0)
    return ClassroomSession(classroom(), "openai:fake-model", options)


async def test_a_stream_larger_than_the_cap_is_one_line_and_the_turn_ends() -> None:
    endless = text("la " * (MAX_ANSWER_BYTES // 3 + 1_000_000))  # one line of stream over 32 MB
    with fake_openai(Reply(pick("teacher")), Reply(endless, chunk_size=10**9), Reply(pick("END"))) as server:
        events = await play(_session(server.url), "Hi?")
    assert_well_formed(events)
    errors = [event.data.message for event in events if event.type == "error"]
    assert any("answer is larger than 32 MB" in message for message in errors), (kinds(events), errors)
    assert done(events) is not None


async def test_an_error_body_larger_than_the_cap_is_one_line() -> None:
    with fake_openai(Reply(status=500, text="x" * (MAX_ANSWER_BYTES + 10))) as server:
        events = await play(_session(server.url), "Hi?")
    errors = [event.data.message for event in events if event.type == "error"]
    assert len(errors) == 1 and "answer is larger than 32 MB" in errors[0], errors
