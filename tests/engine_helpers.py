"""Shared helpers for the engine tests: small classrooms, script files, and turn runners."""

from __future__ import annotations

import json
from collections.abc import AsyncGenerator, Callable
from pathlib import Path
from typing import Any

from maic_tui.classroom.models import Classroom
from maic_tui.events import ActionEvent, AgentEndEvent, AgentStartEvent, DoneEvent, Event, TextDeltaEvent
from maic_tui.live.lesson_player import LessonPlayer, Played
from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from maic_tui.orchestration.graph.state import TurnSettings
from maic_tui.orchestration.prompts.director_request import DIRECTS, REJECTED
from maic_tui.orchestration.routing.mentions import Addressed, addressed
from tests.fake_openai import Reply

AGENTS = [
    {"id": "teacher", "name": "Ms. Hale", "role": "teacher", "persona": "Calm and precise.", "avatar": "T",
     "color": "#3366ff", "priority": 9},
    {"id": "ta", "name": "Tom", "role": "assistant", "persona": "Helpful.", "avatar": "A", "color": "#22aa55",
     "priority": 7},
    {"id": "kim", "name": "Kim", "role": "student", "persona": "Curious.", "avatar": "K", "color": "#ff8800"},
    {"id": "lee", "name": "Lee", "role": "student", "persona": "Sceptical.", "avatar": "L", "color": "#aa00aa",
     "allowed_actions": ["wb_draw_text"]},
]


def classroom(**overrides: Any) -> Classroom:
    data: dict[str, Any] = {
        "title": "Test class",
        "learner": {"nickname": "Sam", "bio": "likes pictures"},
        "agents": AGENTS,
        "scenes": [{"id": "s1", "title": "Intro", "elements": [{"type": "title", "id": "t1", "text": "Hi"}]}],
        # The engine tests script every director decision; the rules that decide without a call have their own
        # tests (tests/test_routing_rules.py), which switch them on.
        "routing": {"rules": []},
    }
    data.update(overrides)
    return Classroom.model_validate(data)


def text(*parts: str) -> str:
    return json.dumps([{"type": "text", "content": p} for p in parts])


def items(*entries: dict[str, Any]) -> str:
    return json.dumps(list(entries))


def say(content: str) -> dict[str, Any]:
    return {"type": "text", "content": content}


def act(name: str, **params: Any) -> dict[str, Any]:
    return {"type": "action", "name": name, "params": params}


def pick(agent: str, **extra: Any) -> str:
    return json.dumps({"next_agent": agent, **extra})


def script_session(tmp_path: Path, script: dict[str, Any], room: Classroom | None = None,
                   settings: TurnSettings | None = None) -> ClassroomSession:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    return ClassroomSession(room or classroom(), f"script:{path}", ModelOptions(), settings)


def read(session: ClassroomSession, text: str) -> Addressed:
    """The message as the turn driver reads it when it is sent (raising for an ``@name`` not in the class)."""
    return addressed(session.classroom.agents, text.strip())


def learner_turn(session: ClassroomSession, text: str) -> AsyncGenerator[Event, None]:
    """A learner turn as the turn driver plays it: the message read, recorded, then answered."""
    message = read(session, text)
    session.record_learner(message.text)
    return session.turn(message)


def lesson_reply(player: LessonPlayer, text: str) -> Played:
    """A learner message to a lesson as the turn driver plays it: read, recorded, then answered by the lesson."""
    message = read(player.session, text)
    player.session.record_learner(message.text)
    return player.learner(message)


async def play(session: ClassroomSession, message: str) -> list[Event]:
    return [event async for event in learner_turn(session, message)]


def kinds(events: list[Event]) -> list[str]:
    """Event types with runs of text_delta folded into one, for order assertions."""
    out: list[str] = []
    for event in events:
        name = event.type if event.type != "thinking" else f"thinking:{event.data.stage}"
        if not (name == "text_delta" and out and out[-1] == "text_delta"):
            out.append(name)
    return out


def done(events: list[Event]) -> DoneEvent:
    last = events[-1]
    assert isinstance(last, DoneEvent)
    return last


def spoken(events: list[Event], agent_id: str | None = None) -> str:
    owners = {e.data.message_id: e.data.agent_id for e in events if isinstance(e, AgentStartEvent)}
    return "".join(e.data.content for e in events
                   if isinstance(e, TextDeltaEvent) and (agent_id is None or owners[e.data.message_id] == agent_id))


def actions(events: list[Event]) -> list[str]:
    return [e.data.action_name for e in events if isinstance(e, ActionEvent)]


def assert_well_formed(events: list[Event]) -> None:
    """Every agent_start closed once, deltas and actions inside their message, exactly one done, last."""
    open_id: str | None = None
    for event in events:
        if isinstance(event, AgentStartEvent):
            assert open_id is None
            open_id = event.data.message_id
        elif isinstance(event, TextDeltaEvent | ActionEvent):
            assert event.data.message_id == open_id
        elif isinstance(event, AgentEndEvent):
            assert event.data.message_id == open_id
            open_id = None
    assert open_id is None
    assert [e.type for e in events].count("done") == 1
    assert isinstance(events[-1], DoneEvent)


def requested(body: dict[str, Any]) -> str:
    """The caller's own request, whatever call the prompt goes on from (an answer's, a decision's): its last message,
    and for a director asked again, its request before the re-ask."""
    asked = [str(m["content"]) for m in body["messages"][1:] if m["role"] == "user"]
    return "\n".join(asked[-2:] if asked and asked[-1].startswith(REJECTED) else asked[-1:])


def routed(director: list[str], agents: dict[str, list[str | Reply]]) -> Callable[[dict[str, Any]], Reply]:
    """The fake server's answers: the director's and each agent's own, in order, whatever order they are asked in."""

    def answer(body: dict[str, Any]) -> Reply:
        own = requested(body)
        if DIRECTS in own:
            return Reply(director.pop(0))
        for agent_id, answers in agents.items():
            if f"({agent_id}), the" in own:
                given = answers.pop(0)
                return given if isinstance(given, Reply) else Reply(given)
        return Reply(status=500, text="nobody to answer")

    return answer
