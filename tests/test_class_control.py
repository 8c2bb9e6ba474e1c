"""The learner in control: muted agents are never picked (their lesson lines skipped), solo keeps only the lead,
the agents per turn can be lowered; every change is recorded, so a resume and a replay have it too."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from maic_tui.bad_input import BadInput
from maic_tui.events import AgentStartEvent, DoneEvent
from maic_tui.live.driver import TurnDriver
from maic_tui.log.records import ClassControlRecord, Record
from maic_tui.room.replay import rebuild
from maic_tui.room.view import ClassroomView
from tests.engine_helpers import classroom, pick, script_session, text


def _driver(tmp_path: Path, script: dict) -> tuple[TurnDriver, list[Record]]:
    session = script_session(tmp_path, script)
    driver = TurnDriver(session.classroom)
    driver.attach(session, with_lesson=False)
    seen: list[Record] = []
    driver.on_record = seen.append
    return driver, seen


def _speakers(records: list[Record]) -> list[str]:
    return [r.data.agent_id for r in records if isinstance(r, AgentStartEvent)]


async def test_a_muted_agent_is_never_picked_and_the_trace_says_why(tmp_path: Path) -> None:
    room = classroom()
    student = next(a for a in room.agents if a.role == "student")
    lead = room.lead()
    assert lead is not None
    # the director insists on the muted student, twice: refused both times, then the fallback (the lead) speaks
    script = {"director": [pick(student.id), pick(student.id), pick("USER")],
              "agents": {lead.id: [text("The lead answers.")], student.id: [text("I should not speak.")]}}
    driver, seen = _driver(tmp_path, script)
    assert driver.control(frozenset({student.id})) is None
    driver.submit(driver.read("Hello?"))
    await asyncio.wait_for(driver.play(), 10)
    assert _speakers(seen) == [lead.id]
    done = next(r for r in seen if isinstance(r, DoneEvent))
    assert done.data.end_reason in ("cue_user", "director_end")
    assert isinstance(seen[0], ClassControlRecord) and seen[0].data.muted == [student.id]
    view = ClassroomView(room)
    for record in seen:
        view.record(record)
    muted_verdicts = [g for t in view.trace for g in t.guards if g.rule == "muted"]
    assert muted_verdicts and not muted_verdicts[0].passed
    assert "is muted by the learner" in str(muted_verdicts[0].reason)


async def test_the_lead_cannot_be_muted_and_a_muted_agent_cannot_be_addressed(tmp_path: Path) -> None:
    room = classroom()
    lead, student = room.lead(), next(a for a in room.agents if a.role == "student")
    assert lead is not None
    driver, seen = _driver(tmp_path, {"director": [], "agents": {}})
    assert driver.control(frozenset({lead.id})) == f"{lead.name} leads the class and cannot be muted"
    assert not seen  # nothing changed, nothing recorded
    driver.control(frozenset({student.id}))
    with pytest.raises(BadInput) as refused:
        driver.read(f"@{student.id} hi")
    assert refused.value.lines[0] == f"{student.name} is muted: unmute them (Ctrl+P) to ask them"


async def test_agents_per_turn_caps_the_turn(tmp_path: Path) -> None:
    room = classroom()
    ids = [a.id for a in room.agents]
    script = {"director": [pick(ids[0]), pick(ids[1]), pick(ids[0])],
              "agents": {ids[0]: [text("One."), text("Three.")], ids[1]: [text("Two.")]}}
    driver, seen = _driver(tmp_path, script)
    driver.control(max_agents=1)
    driver.submit(driver.read("Go"))
    await asyncio.wait_for(driver.play(), 10)
    assert _speakers(seen) == [ids[0]]
    done = next(r for r in seen if isinstance(r, DoneEvent))
    assert done.data.end_reason == "agent_turn_limit"


async def test_the_control_is_recorded_and_comes_back_in_a_replay_and_a_resume(tmp_path: Path) -> None:
    room = classroom()
    student = next(a for a in room.agents if a.role == "student")
    driver, seen = _driver(tmp_path, {"director": [], "agents": {}})
    driver.control(frozenset({student.id}), 2)
    wire = [json.loads(r.model_dump_json(by_alias=True)) for r in seen]
    assert wire == [{"type": "class_control", "data": {"muted": [student.id], "maxAgents": 2}}]
    rebuilt = rebuild(room, seen)
    assert rebuilt.view.muted == {student.id} and rebuilt.view.max_agents == 2
    assert rebuilt.control is not None and rebuilt.control.max_agents == 2
    resumed = script_session(tmp_path, {"director": [], "agents": {}})
    resumed.restore(rebuilt)
    assert resumed.context.settings.muted == {student.id} and resumed.context.settings.max_agents == 2
    view = ClassroomView(room)
    for record in seen:
        view.record(record)
    assert view.entries[-1].text == f"Muted: {student.name} · at most 2 agents a turn."  # type: ignore[union-attr]
