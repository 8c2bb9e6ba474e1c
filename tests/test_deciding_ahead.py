"""Deciding ahead: a server's answer is shown at the reading pace, and the next decision (and the next agent's answer)
is made while the learner still reads the last message; taken only if what it was made from still holds, and
recorded as made ahead with the learner's wait. Against the fake OpenAI-compatible server: the path real models take.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from maic_tui.events import AgentStartEvent, DoneEvent, ErrorEvent, Event, TextDeltaEvent
from maic_tui.live.driver import TurnDriver
from maic_tui.live.session import ClassroomSession
from maic_tui.live.step_mode import StepMode
from maic_tui.llm import ModelOptions
from maic_tui.log.records import Record
from maic_tui.orchestration.prompts.director_request import DIRECTS
from maic_tui.room.decision_detail import row, sections
from maic_tui.room.decisions import SessionDecisions
from tests.engine_helpers import (
    act,
    assert_well_formed,
    classroom,
    done,
    items,
    learner_turn,
    pick,
    requested,
    routed,
    say,
    spoken,
    text,
)
from tests.fake_openai import FakeServer, Reply, fake_openai

LONG = "A limit is where a function heads as x gets close to a point, even if it never gets there at all."


def session_on(server: FakeServer, pace: float = 100.0, ahead: bool = True, **room: Any) -> ClassroomSession:
    session = ClassroomSession(classroom(**room), "openai:fake-model",
                               ModelOptions(base_url=server.url, retries=0, timeout=5.0, pace=pace))
    session.context.settings = replace(session.context.settings, decide_ahead=ahead)
    return session


async def timed_turn(session: ClassroomSession, message: str,
                     during: Callable[[Event], None] | None = None) -> list[tuple[float, Event]]:
    out = []
    async for event in learner_turn(session, message):
        out.append((asyncio.get_running_loop().time(), event))
        if during is not None:
            during(event)
    return out


def director_requests(server: FakeServer) -> list[int]:
    return [i for i, body in enumerate(server.requests) if DIRECTS in requested(body)]


async def test_the_next_decision_and_answer_are_made_while_the_last_message_is_still_read() -> None:
    with fake_openai() as server:
        server.answer = routed([pick("teacher"), pick("kim"), pick("USER")],
                               {"teacher": [text(LONG)], "kim": [text("So it never arrives?")]})
        session = session_on(server)
        timed = await timed_turn(session, "What is a limit?")
    events = [event for _, event in timed]
    assert_well_formed(events)
    assert sum(session.engine.foresight.outcomes.values()) == 2  # the decisions after an agent's message
    assert set(session.engine.foresight.outcomes) <= {"taken", "taken, but the learner waited for it"}
    teacher_words = [t for t, e in timed if isinstance(e, TextDeltaEvent) and e.data.message_id.endswith("teacher")]
    second, third = director_requests(server)[1:]
    kims = next(i for i, body in enumerate(server.requests)
                if "(kim), the" in requested(body) and DIRECTS not in requested(body))
    # the loop's clock and the server's are both time.monotonic()
    assert server.arrived[second] < teacher_words[-1] and server.arrived[kims] < teacher_words[-1]
    assert kims == second + 1 and third == kims + 1  # and nothing was asked twice
    assert len(server.requests) == 5
    trace = done(events).data.director_trace
    assert [(r.final, r.made_ahead) for r in trace] == [("teacher", False), ("kim", True), ("USER", True)]
    assert all(r.waited_ms is not None and r.waited_ms >= 0 for r in trace)
    assert spoken(events, "kim") == "So it never arrives?" and spoken(events, "teacher") == LONG
    assert [e.data.agent_id for e in events if isinstance(e, AgentStartEvent)] == ["teacher", "kim"]


async def test_speech_is_shown_no_faster_than_the_reading_pace() -> None:
    with fake_openai() as server:
        server.answer = routed([pick("teacher"), pick("END")], {"teacher": [text(LONG)]})
        timed = await timed_turn(session_on(server, pace=200.0), "What is a limit?")
    words = [(t, e.data.content) for t, e in timed if isinstance(e, TextDeltaEvent)]
    assert len(words) > 10  # shown a word or so at a time, though the server sent it in a few chunks
    shown = words[-1][0] - words[0][0]
    assert shown >= (len(LONG) - len(words[-1][1])) / 200.0 * 0.95


async def test_a_turn_goes_the_same_with_and_without_deciding_ahead() -> None:
    """The answer written ahead is asked with the same prompt, and the turn ends in the same state: the board the
    teacher drew on, a refused action's warning, an empty answer and a cue with options."""

    def replies() -> Callable[[dict[str, Any]], Reply]:
        teacher = items(say("Look at the board."), act("wb_draw_text", content="f(x) -> L", x=40, y=40, width=300,
                                                                      height=60), act("laser", element_id="nope"),
                        say(" The function heads to L."))
        return routed([pick("teacher"), pick("lee", instruction="React."), pick("kim"),
                       pick("USER", prompt="Which one?", options=["Left", "Right"])],
                      {"teacher": [teacher], "lee": [items(act("wb_draw_text", content="me too", x=40, y=40,
                                                                   width=200, height=60))],
                       "kim": [text("")]})

    results = []
    for ahead in (False, True):
        with fake_openai() as server:
            server.answer = replies()
            session = session_on(server, pace=400.0, ahead=ahead)
            events = [event for _, event in await timed_turn(session, "What is a limit?")]
        assert_well_formed(events)
        trace = done(events).data.director_trace
        results.append({
            "prompts": [body["messages"] for body in server.requests],
            "events": [e.model_dump(exclude={"data": {"director_trace"}}) for e in events if e.type != "thinking"],
            "trace": [(r.step, r.path, r.final, r.reason, r.guards, r.action_warnings, r.prompt) for r in trace],
            "board": session.board.state(),
            "history": session.history,
            "ahead": [r.made_ahead for r in trace],
        })
    without, with_ahead = results
    assert with_ahead["ahead"] == [False, True, True, True] and without["ahead"] == [False] * 4
    for key in ("prompts", "events", "trace", "board", "history"):
        assert with_ahead[key] == without[key], key


async def test_esc_while_the_message_is_read_drops_the_decision_made_ahead_unapplied() -> None:
    with fake_openai() as server:
        server.answer = routed([pick("teacher"), pick("kim")],
                               {"teacher": [text(LONG)],
                                "kim": [items(say("Me!"), act("wb_draw_text", content="kim", x=1, y=1, width=90,
                                                              height=40))]})
        session = session_on(server, pace=30.0)

        def esc_once_kim_is_asked(event: Event) -> None:
            if isinstance(event, TextDeltaEvent) and any("(kim), the" in requested(b) and DIRECTS not in requested(b)
                                                         for b in server.requests):
                session.interrupt()

        events = [event for _, event in await timed_turn(session, "What is a limit?", esc_once_kim_is_asked)]
    assert_well_formed(events)
    assert done(events).data.end_reason == "interrupted"
    assert [r.final for r in done(events).data.director_trace] == ["teacher"]  # nothing of the decision made ahead
    assert [e.data.agent_id for e in events if isinstance(e, AgentStartEvent)] == ["teacher"]
    assert session.board.elements == () and [h.agent_id for h in session.history if h.role == "agent"] == ["teacher"]
    assert session.history[-1].interrupted and LONG.startswith(session.history[-1].text)
    assert not session.context.client._calls  # kim's answer, written ahead, was hung up on


async def test_a_tester_who_turns_step_mode_on_while_the_message_is_read_gets_the_decision() -> None:
    with fake_openai() as server:
        server.answer = routed([pick("teacher"), pick("kim")],
                               {"teacher": [text(LONG)], "lee": [text("I pick myself.")]})
        session = session_on(server)
        stepping = StepMode(session.classroom)
        session.context.picker = stepping
        asked: list[int] = []

        async def tester() -> None:
            while not director_requests(server)[1:]:  # the decision made ahead was asked for
                await asyncio.sleep(0.01)
            stepping.toggle()
            for step, key in ((2, "4"), (3, "e")):  # lee, then the end
                while stepping.card is None or stepping.card.step != step:
                    await asyncio.sleep(0.01)
                asked.append(step)
                stepping.key(key)

        playing = asyncio.ensure_future(asyncio.wait_for(tester(), 20))  # a card that never comes fails, not hangs
        turn = asyncio.ensure_future(timed_turn(session, "What is a limit?"))
        await playing
        events = [event for _, event in await turn]
    trace = done(events).data.director_trace
    assert asked == [2, 3]
    assert [(r.path, r.final, r.made_ahead) for r in trace] == [("model", "teacher", False), ("manual", "lee", False),
                                                                ("manual", "END", False)]
    assert [e.data.agent_id for e in events if isinstance(e, AgentStartEvent)] == ["teacher", "lee"]


async def test_muting_the_agent_picked_ahead_makes_the_director_decide_again() -> None:
    with fake_openai() as server:
        server.answer = routed([pick("teacher"), pick("kim"), pick("lee"), pick("USER")],
                               {"teacher": [text(LONG)], "lee": [text("Not kim, then.")]})
        session = session_on(server)

        def mute_kim_once_decided(event: Event) -> None:
            decided = len(director_requests(server)) == 2
            if isinstance(event, TextDeltaEvent) and decided and not session.context.settings.muted:
                session.control(frozenset({"kim"}), None)

        events = [event for _, event in await timed_turn(session, "What is a limit?", mute_kim_once_decided)]
    trace = done(events).data.director_trace
    assert [(r.final, r.made_ahead) for r in trace][:2] == [("teacher", False), ("lee", False)]
    assert session.engine.foresight.outcomes["dropped: settings"] == 1  # what changed is said
    assert [e.data.agent_id for e in events if isinstance(e, AgentStartEvent)] == ["teacher", "lee"]


async def test_an_answer_written_ahead_that_failed_is_said_in_its_own_message() -> None:
    with fake_openai() as server:
        server.answer = routed([pick("teacher"), pick("kim"), pick("USER")],
                               {"teacher": [text(LONG)], "kim": [Reply(status=400, text="kim's request refused")]})
        events = [event for _, event in await timed_turn(session_on(server), "What is a limit?")]
    assert_well_formed(events)
    order = [(e.type, getattr(e.data, "agent_id", None)) for e in events if e.type in ("agent_start", "error")]
    assert order == [("agent_start", "teacher"), ("agent_start", "kim"), ("error", None)]
    assert "refused" in next(e for e in events if isinstance(e, ErrorEvent)).data.message


async def test_reading_time_does_not_count_against_the_turns_limit() -> None:
    """A turn may take ``timeout x (2 x agents + 1)`` of model time; the learner's reading is not model time."""
    with fake_openai() as server:
        server.answer = routed([pick("teacher"), pick("END")], {"teacher": [text(LONG * 2)]})
        session = session_on(server, pace=60.0, limits={"max_agent_turns": 1})
        session.provider.options = session.provider.options.model_copy(update={"timeout": 1.0})
        events = [event for _, event in await timed_turn(session, "What is a limit?")]
    assert [e for e in events if e.type == "error"] == []  # reading took longer than the turn's 3 s limit
    assert done(events).data.end_reason == "agent_turn_limit"


async def test_the_decision_detail_says_it_was_made_ahead_and_what_the_learner_waited() -> None:
    with fake_openai() as server:
        server.answer = routed([pick("teacher"), pick("END")], {"teacher": [text(LONG)]})
        events = [event for _, event in await timed_turn(session_on(server), "What is a limit?")]
    decisions = SessionDecisions()
    decisions.learner("What is a limit?")
    decisions.finished(done(events).data.director_trace)
    turn = decisions.turns[-1]
    first, second = (dict(sections(turn, record))["Decision"] for record in turn.records)
    assert "made while" not in first and "the learner waited" in first
    assert "made ahead, while the last message was read" in second and "the learner waited" in second
    assert [row(turn, record).endswith("· made ahead") for record in turn.records] == [False, True]
    assert json.loads(done(events).model_dump_json(by_alias=True))["data"]["directorTrace"][1]["madeAhead"] is True


async def test_a_new_message_while_an_agent_speaks_lets_the_learner_in_after_that_agent() -> None:
    """The learner's next message is an interruption too: the decision made ahead is dropped, nobody else is sent,
    and the message is answered as soon as the agent speaking now has finished."""
    with fake_openai() as server:
        server.answer = routed([pick("teacher"), pick("kim"), pick("ta"), pick("USER")],
                               {"teacher": [text(LONG)], "ta": [text("A derivative is a slope.")]})
        session = session_on(server)
        driver = TurnDriver(session.classroom)
        records: list[Record] = []
        driver.on_record = records.append
        driver.attach(session, with_lesson=False)
        driver.submit(driver.read("What is a limit?"))
        playing = asyncio.ensure_future(driver.play())
        while len(director_requests(server)) < 2:  # kim was picked ahead
            await asyncio.sleep(0.01)
        assert driver.running and driver.submit(driver.read("And a derivative?")) is False
        await asyncio.wait_for(playing, 20)
    first, second = (r.data for r in records if isinstance(r, DoneEvent))
    assert [(t.path, t.final) for t in first.director_trace] == [("model", "teacher"), ("limit", "USER")]
    assert first.director_trace[1].reason == "the learner sent another message: it is answered next"
    assert first.end_reason == "cue_user" and [t.final for t in second.director_trace] == ["ta", "USER"]
    assert [r.data.agent_id for r in records if isinstance(r, AgentStartEvent)] == ["teacher", "ta"]


async def test_a_servers_grammar_bounds_what_the_director_writes_besides_its_choice() -> None:
    """A small model's instruction can run for seconds while the class waits: the schema bounds it (and a cue's
    question and options), so a server that keeps to the schema stops it."""
    with fake_openai() as server:
        server.answer = routed([pick("teacher"), pick("END")], {"teacher": [text("Hi.")]})
        session = session_on(server, pace=0.0)
        session.provider.options = session.provider.options.model_copy(update={"structured": "json_schema"})
        await timed_turn(session, "What is a limit?")
    schema = server.requests[director_requests(server)[0]]["response_format"]["json_schema"]["schema"]
    properties = schema["properties"]
    assert properties["instruction"]["maxLength"] == properties["prompt"]["maxLength"] == 120
    assert properties["options"]["items"]["maxLength"] == 120


async def test_a_cancel_that_comes_as_the_answer_grows_is_never_lost() -> None:
    """Ctrl-C cancels the running turn while an answer is being shown: the cancel must reach the turn even when the
    answer grew in the same instant (asyncio.wait_for on Python 3.11 returned the result and dropped the cancel)."""
    from maic_tui.orchestration.answers.answer import Answer
    from maic_tui.orchestration.answers.items import TextDelta

    answer = Answer("teacher")
    waiting = asyncio.ensure_future(answer.grown(10.0))
    await asyncio.sleep(0)  # it waits for the answer to grow
    answer.add([TextDelta("Hello.")])
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    quiet = Answer("teacher")
    started = asyncio.get_running_loop().time()
    await quiet.grown(0.05)  # nothing written: it stops waiting at its bound, without an error
    assert asyncio.get_running_loop().time() - started >= 0.04


async def test_an_answer_cancelled_before_it_ran_never_made_its_call() -> None:
    """An interruption can cancel an answer's task before it ran: the model call is made only inside it, so no call
    is left made and never awaited (Python warned about one at exit, after a simulation's last line)."""
    from maic_tui.orchestration.answers.answer import Answer

    made: list[str] = []

    def writing() -> Any:
        made.append("call")
        return asyncio.sleep(0)

    answer = Answer("teacher").start(writing)
    answer.cancel()
    await asyncio.sleep(0)
    assert made == [] and answer.task is not None and answer.task.cancelled()
    ran = Answer("teacher").start(writing)
    await asyncio.sleep(0.01)
    assert made == ["call"] and ran.done and ran.failure() is None


async def test_the_director_is_told_the_answer_is_written_the_moment_the_model_finishes() -> None:
    """Not once the word being read is due: a word's reading time (0.2-0.3 s at the default pace) sooner, which is
    most of a short message's slack. The model finishes while the second word waits to be shown; the director is
    told then, with that word still to come."""
    from maic_tui.orchestration.answers.answer import Answer
    from maic_tui.orchestration.answers.items import Item, TextDelta
    from maic_tui.orchestration.answers.showing import show

    seen: list[tuple[str, Any]] = []

    class Run:
        def take(self, pieces: list[Item]) -> None:
            seen.extend(("shown", p) for p in pieces)

        def warn(self, warning: str) -> None:
            seen.append(("warned", warning))

    class Client:
        interrupted = False

        def extend_turn(self, seconds: float) -> None:
            pass

    finished = asyncio.get_running_loop().create_future()

    async def writing() -> None:
        answer.add([TextDelta("Hello there ")])
        await finished

    answer = Answer("teacher", by_word=True).start(writing)
    await asyncio.sleep(0)
    showing = asyncio.ensure_future(show(Client(), answer, Run(),  # type: ignore[arg-type]
                                         lambda: 20.0, lambda rest: seen.append(("written", list(rest)))))
    await asyncio.sleep(0.05)  # "Hello " is shown; "there " is due 0.3 s after it
    finished.set_result(None)
    await showing
    first, second = TextDelta("Hello "), TextDelta("there ")
    assert seen == [("shown", first), ("written", [second]), ("shown", second)]
