"""The director's decision after an answer goes on from the call that wrote it (ARCHITECTURE.md, *One learner turn*):
the agent's messages, its output word for word, then the director's request, so a server that keeps its last prompt
cached reads only the request. An answer cut short or interrupted is not gone on from. Against the fake
OpenAI-compatible server: the path real models take."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from maic_tui.events import Event
from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from maic_tui.orchestration.prompts.director_request import DIRECTS
from tests.engine_helpers import classroom, learner_turn, pick, requested, routed, text
from tests.fake_openai import FakeServer, Reply, fake_openai

# as a server writes it, spaces and all: what is sent back must be these very characters
ANSWER = '[ {"type": "text",  "content": "Rise over run, Sam."}]'


def director_calls(server: FakeServer) -> list[list[dict[str, Any]]]:
    return [body["messages"] for body in server.requests if DIRECTS in requested(body)]


async def turn(session: ClassroomSession, message: str) -> list[Event]:
    return [event async for event in learner_turn(session, message)]


def session_on(server: FakeServer, **settings: Any) -> ClassroomSession:
    session = ClassroomSession(classroom(), "openai:fake-model",
                               ModelOptions(base_url=server.url, retries=0, timeout=5.0, pace=0))
    session.context.settings = replace(session.context.settings, **settings)
    return session


async def test_the_decision_after_an_answer_goes_on_from_the_call_that_wrote_it() -> None:
    with fake_openai() as server:
        server.answer = routed([pick("teacher"), pick("USER")], {"teacher": [ANSWER]})
        await turn(session_on(server), "What is a slope?")
        teacher = next(body["messages"] for body in server.requests if DIRECTS not in requested(body))
    first, after = director_calls(server)
    assert [m["role"] for m in first] == ["system", "user"]  # nobody spoke yet: nothing to go on from
    assert after[:2] == teacher  # the teacher's call as the server read it...
    assert after[2] == {"role": "assistant", "content": ANSWER}  # ...what it wrote, character for character...
    assert after[3]["role"] == "user" and after[3]["content"].startswith(DIRECTS)  # ...then the director's own
    assert len(after) == 4


async def test_an_answer_cut_at_its_cap_is_not_gone_on_from() -> None:
    long = text("Rise over run, Sam: how far up for how far across, whatever the line.")
    with fake_openai() as server:
        server.answer = routed([pick("teacher"), pick("USER")], {"teacher": [long]})
        await turn(session_on(server, output_char_cap=40), "What is a slope?")
    after = director_calls(server)[1]
    # the server did not write the answer the class heard: the conversation says what was said, in the system message
    assert [m["role"] for m in after] == ["system", "user"]
    assert after[0]["content"].endswith('[Ms. Hale]: [{"type":"text","content":"Rise over"}]')  # what was heard


async def test_the_next_question_after_a_continued_decision_sees_the_answer_in_the_conversation() -> None:
    with fake_openai() as server:
        server.answer = routed([pick("teacher"), pick("USER"), pick("teacher"), pick("END")],
                               {"teacher": [ANSWER, Reply(text("Steeper means larger."))]})
        session = session_on(server)
        await turn(session, "What is a slope?")
        await turn(session, "And a steep one?")
    teachers = [body["messages"] for body in server.requests if "(teacher), the" in requested(body)
                and DIRECTS not in requested(body)]
    assert len(teachers) == 2
    assert "Rise over run, Sam." in teachers[1][0]["content"]  # in the shared part's conversation, as always
    assert '"type":"text"' in teachers[1][0]["content"]  # the class's own rendering, not the server's spaces
