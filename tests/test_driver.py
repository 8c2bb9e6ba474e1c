"""The one turn driver every client plays a session through: the queue, the running state, interruptions, stops,
and messages read once when they are sent."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from maic_tui.events import DoneEvent
from maic_tui.live.driver import TurnDriver
from maic_tui.log.records import InterruptRecord, LearnerRecord, Record
from maic_tui.orchestration.routing.mentions import Addressed, UnknownAgentError
from maic_tui.room.view import AgentMessage, ClassroomView, LearnerMessage
from tests.engine_helpers import classroom, pick, script_session, text


def _driver(tmp_path: Path, script: dict) -> tuple[TurnDriver, ClassroomView, list[Record], list[tuple[str, ...]]]:
    session = script_session(tmp_path, script)
    driver = TurnDriver(session.classroom)
    view = ClassroomView(session.classroom)
    records: list[Record] = []
    queues: list[tuple[str, ...]] = []

    def seen(record: Record) -> None:
        records.append(record)
        view.record(record)

    driver.on_record, driver.on_queue = seen, queues.append
    driver.attach(session)
    return driver, view, records, queues


TWO_TURNS = {"director": [pick("teacher"), pick("USER"), pick("ta"), pick("USER")],
             "agents": {"teacher": [text("First answer.")], "ta": [text("Second answer.")]}}
SLOW = {"director": [pick("teacher"), pick("USER")],
        "agents": {"teacher": [{"chunks": [text("Very"), text(" slow")], "delay_ms": 2000}]}}


async def test_messages_sent_before_the_session_is_ready_wait_and_then_play_in_order(tmp_path: Path) -> None:
    session = script_session(tmp_path, TWO_TURNS)
    driver = TurnDriver(session.classroom)
    view = ClassroomView(session.classroom)
    driver.on_record = view.record
    assert driver.submit(driver.read("one?")) is False and driver.submit(driver.read("two?")) is False  # no session yet
    assert [m.text for m in driver.waiting] == ["one?", "two?"]
    driver.attach(session)
    assert driver.ready
    await driver.play()
    learners = [e.text for e in view.entries if isinstance(e, LearnerMessage)]
    agents = [e.text for e in view.entries if isinstance(e, AgentMessage)]
    assert learners == ["one?", "two?"] and agents == ["First answer.", "Second answer."]
    assert not driver.waiting and not driver.running


async def test_a_message_sent_during_a_turn_is_played_after_it(tmp_path: Path) -> None:
    script = {"director": [pick("teacher"), pick("USER"), pick("ta"), pick("USER")],
              "agents": {"teacher": [{"chunks": [text("Slow answer.")], "delay_ms": 200}],
                         "ta": [text("Second answer.")]}}
    driver, _, records, queues = _driver(tmp_path, script)
    assert driver.submit(driver.read("first?")) is True
    playing = asyncio.create_task(driver.play())
    await asyncio.sleep(0.05)
    assert driver.running and driver.submit(driver.read("second?")) is False  # the class is speaking: it waits
    assert queues[-1] == ("second?",)
    await driver.play()  # a second call while one plays does nothing
    await playing
    assert [r.type for r in records].count("done") == 2 and queues[-1] == ()
    assert [r.data.text for r in records if isinstance(r, LearnerRecord)] == ["first?", "second?"]


async def test_interrupt_stops_the_speaking_class_then_clears_the_queue(tmp_path: Path) -> None:
    driver, view, records, _ = _driver(tmp_path, SLOW)
    assert driver.interrupt() is None and not driver.can_interrupt()
    driver.submit(driver.read("first?"))
    playing = asyncio.create_task(driver.play())
    for _ in range(100):
        await asyncio.sleep(0.01)
        if any(r.type == "agent_start" for r in records):
            break
    driver.submit(driver.read("second?"))
    assert driver.can_interrupt() and driver.interrupt() == "turn"
    assert isinstance(records[-1], InterruptRecord)  # the client is told, so the message shows as interrupted
    driver.waiting.clear()  # (what quitting does) so the queue does not run on
    await asyncio.wait_for(playing, 5)
    done = next(r for r in records if isinstance(r, DoneEvent))
    assert done.data.end_reason == "interrupted"
    assert next(e for e in view.entries if isinstance(e, AgentMessage)).interrupted
    driver.submit(driver.read("later?"))
    driver.running = True  # pretend a turn is being set up: nothing speaks, so only the queue goes
    assert driver.interrupt() == "queue" and driver.waiting == []


async def test_a_stop_ends_the_running_turn_and_drops_the_rest(tmp_path: Path) -> None:
    driver, _, records, _ = _driver(tmp_path, SLOW)
    driver.submit(driver.read("first?"))
    driver.submit(driver.read("second?"))
    playing = asyncio.create_task(driver.play())
    while not any(r.type == "agent_start" for r in records):
        await asyncio.sleep(0.01)
    driver.stop()
    await asyncio.wait_for(playing, 5)
    dones = [r for r in records if isinstance(r, DoneEvent)]
    assert [d.data.end_reason for d in dones] == ["interrupted"]  # the second message was never played
    assert [r.data.text for r in records if isinstance(r, LearnerRecord)] == ["first?"]


async def test_a_stop_before_anything_played_still_closes_the_first_turn(tmp_path: Path) -> None:
    driver, _, records, _ = _driver(tmp_path, SLOW)
    driver.submit(driver.read("first?"))
    driver.submit(driver.read("second?"))
    driver.stop()
    await asyncio.wait_for(driver.play(), 5)
    dones = [r for r in records if isinstance(r, DoneEvent)]
    assert [d.data.end_reason for d in dones] == ["interrupted"] and not driver.waiting


def test_a_message_is_read_once_when_it_is_sent(tmp_path: Path) -> None:
    driver = TurnDriver(classroom())
    with pytest.raises(UnknownAgentError, match=r"@Ms\. Hale"):  # the refusal, before anything is queued
        driver.read("@Bob hello")
    assert driver.waiting == []
    driver.submit(driver.read("@Ms. Hale what is a slope?"))
    assert driver.waiting == [Addressed("@Ms. Hale what is a slope?", "teacher")]


def test_blank_messages_are_not_queued() -> None:
    driver = TurnDriver(classroom())
    assert driver.submit(driver.read("   ")) is False and driver.waiting == []


async def test_f7_goes_on_wherever_the_lesson_has_a_next_step_and_retries_the_missed_questions_at_its_end(
        tmp_path: Path) -> None:
    from maic_tui.classroom.lesson_steps import Phase
    from maic_tui.classroom.quiz import Grade
    from maic_tui.live.session import ClassroomSession
    from maic_tui.llm import ModelOptions
    from tests.test_lesson_cursor import lesson

    driver = TurnDriver(lesson(tmp_path))
    driver.attach(ClassroomSession(driver.classroom, "demo", ModelOptions(pace=0)))
    assert driver.lesson is not None
    cursor = driver.lesson.cursor
    cursor.restore((2, 0), {}, ended=False)  # resumed in Q&A right before the quiz's first question (not asked)
    assert cursor.phase == Phase.LIVE and cursor.current.question is not None  # type: ignore[union-attr]
    assert driver.lesson_key() and cursor.phase == Phase.PLAYING  # F7 asks it
    await driver.play()
    assert cursor.phase == Phase.WAITING and not driver.lesson_key()  # an asked question waits for its answer
    cursor.restore(None, {"q1": Grade(1, 1), "q2": Grade(0, 2)}, ended=True)
    assert driver.lesson_key() and cursor.position == (2, 1)  # F7 after the end: the missed question again


async def test_the_message_shown_is_the_one_recorded_with_the_secrets_replaced(tmp_path: Path) -> None:
    from maic_tui.live.session import ClassroomSession
    from maic_tui.llm import ModelOptions
    from maic_tui.redaction import REDACTED

    key = "sk-" + "k3y" * 10
    script = tmp_path / "script.json"
    script.write_text(json.dumps(TWO_TURNS), encoding="utf-8")
    session = ClassroomSession(classroom(), f"script:{script}", ModelOptions(api_key=key))
    driver = TurnDriver(session.classroom)
    seen: list[Record] = []
    driver.on_record = seen.append
    driver.attach(session)
    driver.submit(driver.read(f"is {key} my key?"))
    await asyncio.wait_for(driver.play(), 10)
    assert [r.data.text for r in seen if isinstance(r, LearnerRecord)] == [f"is {REDACTED} my key?"]
