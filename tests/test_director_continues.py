"""The director's decision after an answer goes on from the call that wrote it (ARCHITECTURE.md, *One learner turn*):
the agent's messages, its output word for word, then the director's request, so a server that keeps its last prompt
cached reads only the request. The agent a model's decision sends goes on from that decision's call in turn. An
answer cut short or interrupted is not gone on from. Against the fake OpenAI-compatible server: the path real models
take."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise
from typing import Any

from maic_tui.events import Event
from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from maic_tui.orchestration.prompts.director_request import DIRECTS
from tests.engine_helpers import classroom, learner_turn, pick, requested, routed, text
from tests.fake_openai import FakeServer, Reply, fake_openai

# as a server writes it, spaces and all: what is sent back must be these very characters
ANSWER = '[ {"type": "text",  "content": "Rise over run, Sam."}]'
DECISION = '{"next_agent": "teacher",  "instruction": "Keep it short."}'


def director_calls(server: FakeServer) -> list[list[dict[str, Any]]]:
    return [body["messages"] for body in server.requests if DIRECTS in requested(body)]


async def turn(session: ClassroomSession, message: str) -> list[Event]:
    return [event async for event in learner_turn(session, message)]


def session_on(server: FakeServer, **settings: Any) -> ClassroomSession:
    session = ClassroomSession(classroom(), "openai:fake-model",
                               ModelOptions(base_url=server.url, retries=0, timeout=5.0, pace=0))
    session.context.settings = replace(session.context.settings, **settings)
    return session


def agent_calls(server: FakeServer, agent_id: str) -> list[list[dict[str, Any]]]:
    return [body["messages"] for body in server.requests if requested(body).startswith("You are ")
            and f"({agent_id}), the" in requested(body)]


async def test_the_decision_after_an_answer_goes_on_from_the_call_that_wrote_it() -> None:
    with fake_openai() as server:
        server.answer = routed([pick("teacher"), pick("USER")], {"teacher": [ANSWER]})
        await turn(session_on(server), "What is a slope?")
    [teacher] = agent_calls(server, "teacher")
    first, after = director_calls(server)
    assert [m["role"] for m in first] == ["system", "user"]  # nobody spoke yet: nothing to go on from
    assert after[:len(teacher)] == teacher  # the teacher's call as the server read it...
    assert after[len(teacher)] == {"role": "assistant", "content": ANSWER}  # ...what it wrote, to the character...
    assert after[-1]["role"] == "user" and after[-1]["content"].startswith(DIRECTS)  # ...then the director's own
    assert len(after) == len(teacher) + 2


async def test_the_agent_a_decision_sends_goes_on_from_the_call_that_made_it() -> None:
    with fake_openai() as server:
        server.answer = routed([DECISION, pick("kim"), pick("USER")],
                               {"teacher": [ANSWER], "kim": [text("So it is a rate?")]})
        await turn(session_on(server), "What is a slope?")
    first, second, _ = director_calls(server)
    [teacher], [kim] = agent_calls(server, "teacher"), agent_calls(server, "kim")
    # the director's call, its decision as the server wrote it, then the agent's own request, instruction and all
    assert teacher[:2] == first and teacher[2] == {"role": "assistant", "content": DECISION}
    assert teacher[3]["role"] == "user" and "Keep it short." in teacher[3]["content"] and len(teacher) == 4
    # and along the turn: kim's call holds the teacher's, the answer, the decision after it, then kim's request
    assert kim[:len(second)] == second and second[:len(teacher)] == teacher
    assert kim[len(second)] == {"role": "assistant", "content": pick("kim")}
    assert kim[-1]["content"].startswith("You are Kim (kim)") and len(kim) == len(second) + 2
    # the answer is in the prompt once: where the server wrote it, not again in the conversation
    assert "Rise over run" not in kim[0]["content"] and ANSWER in [m["content"] for m in kim]


async def test_an_agent_no_model_sent_starts_from_the_class_and_the_conversation() -> None:
    with fake_openai() as server:  # the rule's pick: nothing the server wrote sent the teacher
        server.answer = routed([pick("USER")], {"teacher": [ANSWER]})
        room = classroom(routing={"rules": ["teacher_first"]})
        session = ClassroomSession(room, "openai:fake-model", ModelOptions(base_url=server.url, retries=0,
                                                                          timeout=5.0, pace=0))
        await turn(session, "What is a slope?")
    [teacher] = agent_calls(server, "teacher")
    assert [m["role"] for m in teacher] == ["system", "user"]


async def test_the_agent_sent_after_a_re_ask_goes_on_from_the_re_ask() -> None:
    with fake_openai() as server:  # the teacher twice in a row is refused, then kim is sent
        server.answer = routed([pick("teacher"), pick("teacher"), pick("kim"), pick("USER")],
                               {"teacher": [ANSWER], "kim": [text("So it is a rate?")]})
        await turn(session_on(server), "What is a slope?")
    asked_again = director_calls(server)[2]
    [kim] = agent_calls(server, "kim")
    assert asked_again[-1]["content"].startswith("That choice was rejected")
    assert kim[:len(asked_again)] == asked_again and kim[len(asked_again)]["content"] == pick("kim")


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


async def test_along_a_discussion_round_every_call_goes_on_from_the_one_before() -> None:
    """The round car-free-city plays: the opener by its trigger, a student the model picks, the teacher by the rule.
    The teacher's call, which no model decided, goes on from the answer before it."""
    room = classroom(session={"type": "discussion", "topic": "Cars", "trigger_agent": "kim"},
                     routing={"rules": ["discussion_rounds"]})
    with fake_openai() as server:
        server.answer = routed([pick("lee")], {"kim": [text("Ban them!")], "lee": [text("Not so fast.")],
                                               "teacher": [text("Both have a point.")]})
        session = ClassroomSession(room, "openai:fake-model", ModelOptions(base_url=server.url, retries=0,
                                                                          timeout=5.0, pace=0))
        await turn(session, "Cars are noisy.")
    calls = [body["messages"] for body in server.requests]
    assert [m["role"] for m in calls[0]] == ["system", "user"]  # kim opens: nothing of this turn to go on from
    for before, after in pairwise(calls):  # the director, lee, the teacher
        assert after[:len(before)] == before and after[len(before)]["role"] == "assistant"
        assert len(after) == len(before) + 2
    assert calls[-1][-1]["content"].startswith("You are Ms. Hale (teacher)") and len(calls) == 4
