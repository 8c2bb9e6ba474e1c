"""The class warmed while it opens (ARCHITECTURE.md, *Warming the class*): on a model server the part every prompt
opens with is sent ahead, one token of output, so the first question finds it cached; a turn that starts at once makes
it needless, a failing server leaves a note only, quitting cancels it, a scene change sends the new part. Against the
fake OpenAI-compatible server: the path real models take."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from maic_tui.classroom import load_classroom
from maic_tui.classroom.models import Classroom
from maic_tui.live.driver import TurnDriver
from maic_tui.live.session import ClassroomSession
from maic_tui.live.warming import WARM_REQUEST
from maic_tui.llm import ModelOptions
from maic_tui.llm.client import PROBE_ANSWER, PROBE_REQUEST, PROBE_TOKENS
from maic_tui.log.records import Record
from maic_tui.orchestration.prompts.director_request import DIRECTS
from maic_tui.orchestration.prompts.shared_part import shared_opening
from tests.engine_helpers import classroom, pick, requested
from tests.fake_openai import FakeServer, Reply, closed_port_url, fake_openai


def answers(warm: Reply | None = None) -> Callable[[dict[str, Any]], Reply]:
    """The warm-up's reply (OK by default), the director's pick of the teacher, the teacher's answer."""

    def answer(body: dict[str, Any]) -> Reply:
        own = requested(body)
        if body["messages"][-1]["content"] == PROBE_REQUEST:  # the mode found before the warm-up
            return Reply(PROBE_ANSWER)
        if own == WARM_REQUEST:
            return warm or Reply("OK")
        if DIRECTS in own:
            return Reply(pick("teacher"))
        said = [{"type": "text", "content": "A limit is where a function heads."}]
        return Reply(json.dumps(said, separators=(",", ":")) if "grammar" in body else json.dumps(said))

    return answer


def on_server(url: str, room: Classroom | None = None) -> tuple[ClassroomSession, TurnDriver, list[Record]]:
    room = room or classroom()
    session = ClassroomSession(room, "openai:fake-model", ModelOptions(base_url=url, retries=0, timeout=5.0, pace=0))
    driver = TurnDriver(room)
    played: list[Record] = []
    driver.on_record = played.append
    driver.attach(session, with_lesson=False)  # inside the running loop, as the app attaches: the warm-up starts
    return session, driver, played


def warm_ups(server: FakeServer, before: int | None = None) -> list[dict[str, Any]]:
    return [body for body in server.requests[:before] if body["messages"][-1]["content"] == WARM_REQUEST]


async def ask(driver: TurnDriver, message: str = "What is a limit?") -> None:
    driver.submit(driver.read(message))
    await driver.play()


async def test_the_warm_up_sends_the_very_bytes_the_first_question_opens_with_for_one_token() -> None:
    with fake_openai() as server:
        server.answer = answers()
        session, driver, _ = on_server(server.url)
        assert session.warming.task is not None
        await session.warming.task
        await ask(driver)
        await asyncio.sleep(0.05)  # the conversation's warm-up after the turn (below)
    probe, warm, first = server.requests[:3]
    # no mode known for this server yet: found first (json_schema, taken), as the part is laid out for it
    assert probe["messages"] == [{"role": "user", "content": PROBE_REQUEST}] and probe["max_tokens"] == PROBE_TOKENS
    assert probe["response_format"]["type"] == "json_schema"
    sent = warm["messages"][0]["content"]
    assert warm_ups(server)[0] == warm
    assert sent == shared_opening(session.classroom, session.context.scene)
    assert first["messages"][0]["content"].startswith(sent)  # the first real call opens with the same bytes
    assert len(sent) > 1000  # the class, its agents, its actions and rules: the long part
    assert warm["max_tokens"] == 1 and warm["max_completion_tokens"] == 1  # one token of output, on any server
    assert "response_format" not in warm  # no grammar for a server to build
    assert session.warming.notes[0].startswith("warm-up: the shared part")


async def test_after_a_turn_the_conversation_so_far_is_warmed_for_the_next_question() -> None:
    with fake_openai() as server:
        server.answer = answers()
        session, driver, _ = on_server(server.url)
        await ask(driver)  # run's messages: the first turn's own calls read the shared part
        assert session.warming.task is not None
        await session.warming.task  # sent once the turn is over, while the learner reads and types
        after = len(server.requests)
        await ask(driver, "And at a jump?")
    # the opening was not sent: the first turn's calls read it themselves
    assert session.warming.notes[0] == ("warm-up not sent: the class is calling the model, which reads the shared "
                                        "part itself")
    warmed = warm_ups(server, after)  # (the second turn's own warm-up may follow)
    assert len(warmed) == 1 and server.requests[after - 1] == warmed[0]
    sent = warmed[0]["messages"][0]["content"]
    assert sent.startswith(shared_opening(session.classroom, session.context.scene))
    assert "What is a limit?" in sent and "A limit is where a function heads." in sent  # the turn's words
    assert server.requests[after]["messages"][0]["content"].startswith(sent)  # the next question opens with it
    assert session.warming.notes[-1].startswith("warm-up: the shared part")


async def test_a_server_that_refuses_or_fails_the_warm_up_costs_a_note_and_nothing_else() -> None:
    for warm in (Reply(status=400, text="no such thing"), Reply(status=500, text="fell over")):
        with fake_openai() as server:
            server.answer = answers(warm)
            session, driver, played = on_server(server.url)
            assert session.warming.task is not None
            await session.warming.task  # it does not raise
            problems: list[str] = []
            driver.on_problem = problems.append
            await ask(driver)
        assert len(warm_ups(server)) == 1  # never retried, a 5xx neither
        assert session.warming.notes[-1].startswith("warm-up failed: ")
        assert problems == [] and not [r for r in played if r.type == "error"]
        assert "A limit" in "".join(r.data.content for r in played if r.type == "text_delta")  # type: ignore[union-attr]


async def test_a_server_that_cannot_be_reached_costs_a_note() -> None:
    session, _, _ = on_server(closed_port_url())
    assert session.warming.task is not None
    await session.warming.task
    assert session.warming.notes[-1].startswith("warm-up failed")


async def test_quitting_cancels_the_warm_up_under_way_and_the_lesson_never_waits_for_it() -> None:
    with fake_openai() as server:
        server.answer = answers(Reply("OK", stall=3.0))
        room = load_classroom("derivatives")
        session = ClassroomSession(room, "openai:fake-model", ModelOptions(base_url=server.url, retries=0, pace=0))
        driver = TurnDriver(room)
        played: list[Record] = []
        driver.on_record = played.append
        driver.attach(session, with_lesson=True)
        task = session.warming.task
        assert task is not None
        assert driver.start_lesson()
        await driver.play()  # the first scene's scripted lines, read at once, until the lesson waits for the learner
        assert [r for r in played if r.type == "text_delta"] and not task.done()  # played while the server reads
        driver.stop()  # quitting
        await asyncio.wait([task], timeout=2.0)
        assert task.cancelled()
        assert session.warming.notes == ["warm-up cancelled"]


async def test_a_scene_change_warms_the_new_slide_and_a_mute_changes_nothing() -> None:
    with fake_openai() as server:
        server.answer = answers()
        room = load_classroom("derivatives")
        session = ClassroomSession(room, "openai:fake-model", ModelOptions(base_url=server.url, retries=0, pace=0))
        assert session.warm()
        assert session.warming.task is not None
        await session.warming.task
        assert not session.warm()  # the same part: not sent twice
        lead = room.lead()
        student = next(agent.id for agent in room.agents if agent is not lead)
        session.control(frozenset({student}), 2)
        assert not session.warm()  # the director's own request names the muted: the shared part stays
        session.change_scene(1)
        assert session.warming.task is not None
        await session.warming.task
    first, second = (body["messages"][0]["content"] for body in warm_ups(server))
    assert first == shared_opening(room, room.scenes[0]) and second == shared_opening(room, room.scenes[1])
    assert first != second


async def test_the_offline_models_are_not_warmed() -> None:
    session = ClassroomSession(classroom(), "demo")
    assert not session.warm() and session.warming.task is None


def test_simulate_warms_the_class_only_when_it_is_the_servers_one_caller(monkeypatch: Any, tmp_path: Any) -> None:
    """A simulated learner played by a model, or sessions played at once, call the server beside the class: a warm-up
    sent during one of their answers would cut it short on a one-slot server."""
    import io

    from maic_tui.commands import simulate

    seen: list[bool] = []
    real_driver = simulate.headless_driver

    def driver(session: ClassroomSession, *args: Any, **kwargs: Any) -> TurnDriver:
        seen.append(session.warming.enabled)
        return real_driver(session, *args, **kwargs)

    monkeypatch.setattr(simulate, "headless_driver", driver)
    with fake_openai() as server:
        server.answer = answers()
        flags = {"model": "openai:fake-model", "base_url": server.url, "retries": 0, "timeout": 5.0}
        for learner, concurrency in ((None, 1), ("openai:fake-model", 1), (None, 2)):
            seen.clear()
            simulate.simulate("derivatives", "curious", 1, 2, False, flags, learner, 0, str(tmp_path), io.StringIO(),
                              concurrency=concurrency)
            assert seen == [learner is None and concurrency == 1] * 2


def modes_server(grammar_kept: bool) -> Callable[[dict[str, Any]], Reply]:
    """A llama.cpp-like server: json_schema refused; the grammar field kept to, or taken and ignored."""

    def answer(body: dict[str, Any]) -> Reply:
        if body.get("response_format", {}).get("type") == "json_schema":
            return Reply(status=400, text="response_format json_schema is not supported")
        if body["messages"][-1]["content"] == PROBE_REQUEST:
            return Reply(PROBE_ANSWER if grammar_kept or "grammar" not in body else "Hello!")
        own = requested(body)
        if own == WARM_REQUEST:
            return Reply("OK")
        if DIRECTS in own:
            return Reply(pick("teacher") if "Spoke this turn: nobody" in own else pick("END"))
        said = [{"type": "text", "content": "A limit is where a function heads."}]
        return Reply(json.dumps(said, separators=(",", ":")) if "grammar" in body else json.dumps(said))

    return answer


async def test_the_mode_is_found_before_the_warm_up_and_a_grammar_taken_but_not_kept_is_found_out() -> None:
    for kept in (True, False):
        with fake_openai() as server:
            server.answer = modes_server(kept)
            session, driver, played = on_server(server.url)
            assert session.warming.task is not None
            await session.warming.task
            await ask(driver)
        probes = [body for body in server.requests if body["messages"][-1]["content"] == PROBE_REQUEST]
        assert [("grammar" in p, p.get("response_format", {}).get("type")) for p in probes] == [
            (False, "json_schema"), (True, None)] + ([] if kept else [(False, "json_object")])
        mode = session.context.client.structured_mode
        assert mode == ("gbnf" if kept else "json_object")
        [warm] = warm_ups(server)
        sent = warm["messages"][0]["content"]
        assert sent == shared_opening(session.classroom, session.context.scene)
        assert server.requests.index(warm) == len(probes)  # the first question finds the mode known
        calls = server.requests[server.requests.index(warm) + 1:]
        assert all(call["messages"][0]["content"].startswith(sent) for call in calls)  # the same bytes
        assert all(("grammar" in call) == kept for call in calls)
        assert "A limit" in "".join(r.data.content for r in played if r.type == "text_delta")  # type: ignore[union-attr]
