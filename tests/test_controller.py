"""The headless controller the app drives: the turn queue, the turn-running state and interruptions."""

from __future__ import annotations

import asyncio
from pathlib import Path

from maic_tui.events import DoneEvent, Event
from maic_tui.live.controller import ClassroomController
from maic_tui.room.view import AgentMessage, ClassroomView, LearnerMessage
from tests.engine_helpers import classroom, pick, script_session, text


def _controller(tmp_path: Path, script: dict) -> tuple[ClassroomController, list[Event], list[tuple[str, ...]],
                                                         list[str]]:
    session = script_session(tmp_path, script)
    controller = ClassroomController(ClassroomView(session.classroom))
    events: list[Event] = []
    queues: list[tuple[str, ...]] = []
    problems: list[str] = []
    controller.on_event, controller.on_queue, controller.on_problem = events.append, queues.append, problems.append
    controller.attach(session)
    return controller, events, queues, problems


TWO_TURNS = {"director": [pick("teacher"), pick("USER"), pick("ta"), pick("USER")],
             "agents": {"teacher": [text("First answer.")], "ta": [text("Second answer.")]}}


async def test_messages_sent_before_the_session_is_ready_wait_and_then_play_in_order(tmp_path: Path) -> None:
    session = script_session(tmp_path, TWO_TURNS)
    controller = ClassroomController(ClassroomView(session.classroom))
    assert controller.submit("one?") is False and controller.submit("two?") is False  # no session yet
    assert controller.waiting == ["one?", "two?"]
    controller.attach(session)
    assert controller.ready
    await controller.play_queue()
    learners = [e.text for e in controller.view.entries if isinstance(e, LearnerMessage)]
    agents = [e.text for e in controller.view.entries if isinstance(e, AgentMessage)]
    assert learners == ["one?", "two?"] and agents == ["First answer.", "Second answer."]
    assert not controller.waiting and not controller.running


async def test_a_message_sent_during_a_turn_is_played_after_it(tmp_path: Path) -> None:
    script = {"director": [pick("teacher"), pick("USER"), pick("ta"), pick("USER")],
              "agents": {"teacher": [{"chunks": [text("Slow answer.")], "delay_ms": 200}],
                         "ta": [text("Second answer.")]}}
    controller, events, queues, _ = _controller(tmp_path, script)
    assert controller.submit("first?") is True
    playing = asyncio.create_task(controller.play_queue())
    await asyncio.sleep(0.05)
    assert controller.running and controller.submit("second?") is False  # the class is speaking: it waits
    assert queues[-1] == ("second?",)
    await controller.play_queue()  # a second call while one plays does nothing
    await playing
    assert [e.type for e in events].count("done") == 2 and queues[-1] == ()


async def test_interrupt_stops_the_speaking_class_then_clears_the_queue(tmp_path: Path) -> None:
    script = {"director": [pick("teacher"), pick("USER")],
              "agents": {"teacher": [{"chunks": [text("Very"), text(" slow")], "delay_ms": 2000}]}}
    controller, events, _, _ = _controller(tmp_path, script)
    assert controller.interrupt() is None and not controller.can_interrupt()
    controller.submit("first?")
    playing = asyncio.create_task(controller.play_queue())
    for _ in range(100):
        await asyncio.sleep(0.01)
        if controller.view.turn_active and any(e.type == "agent_start" for e in events):
            break
    controller.submit("second?")
    assert controller.can_interrupt() and controller.interrupt() == "turn"
    controller.waiting.clear()  # (what quitting does) so the queue does not run on
    await asyncio.wait_for(playing, 5)
    done = next(e for e in events if isinstance(e, DoneEvent))
    assert done.data.end_reason == "interrupted"
    controller.submit("later?")
    controller.running = True  # pretend a turn is being set up: nothing speaks, so only the queue goes
    assert controller.interrupt() == "queue" and controller.waiting == []


async def test_an_unknown_name_is_reported_and_the_next_message_still_plays(tmp_path: Path) -> None:
    controller, events, _, problems = _controller(tmp_path, TWO_TURNS)
    controller.submit("@Bob hello")
    controller.submit("fine, one?")
    await controller.play_queue()
    assert len(problems) == 1 and "Bob" in problems[0] and "@Ms. Hale" in problems[0]
    assert [e.type for e in events].count("done") == 1
    assert [e.text for e in controller.view.entries if isinstance(e, LearnerMessage)] == ["fine, one?"]


def test_blank_messages_are_not_queued() -> None:
    controller = ClassroomController(ClassroomView(classroom()))
    assert controller.submit("   ") is False and controller.waiting == []
