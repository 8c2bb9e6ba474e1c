"""A lesson script's steps by one agent become one ordinary agent message: checked actions applied to the board,
pointers only at the scene's elements, the speech in the history."""

from __future__ import annotations

from pathlib import Path

from maic_tui.classroom.lesson import ScriptStep
from maic_tui.events import ActionEvent, AgentEndEvent, AgentStartEvent, TextDeltaEvent
from maic_tui.orchestration.answers.scripted import scripted_message
from tests.engine_helpers import classroom, script_session


def test_speech_and_actions_become_one_message_with_the_board_applied(tmp_path: Path) -> None:
    session = script_session(tmp_path, {"director": [], "agents": {}})
    ctx = session.context
    teacher = ctx.classroom.agents[0]
    steps = [ScriptStep(agent=teacher.id, say="A slope is rise over run."),
             ScriptStep(agent=teacher.id, action="wb_draw_text",
                        params={"content": "m = rise / run", "x": 10, "y": 10}),
             ScriptStep(agent=teacher.id, say="Write that down.")]
    events, warnings = scripted_message(ctx, teacher, steps)
    kinds = [type(e) for e in events]
    runs = [kind for i, kind in enumerate(kinds) if i == 0 or kinds[i - 1] is not kind]  # speech comes in pieces
    assert runs == [AgentStartEvent, TextDeltaEvent, ActionEvent, TextDeltaEvent, AgentEndEvent]
    assert kinds.count(TextDeltaEvent) > 2
    assert warnings == []
    speech = "".join(e.data.content for e in events if isinstance(e, TextDeltaEvent))
    assert speech == "A slope is rise over run. Write that down."
    action = next(e for e in events if isinstance(e, ActionEvent))
    assert action.data.params["elementId"] == ctx.board.elements[0].id  # applied, with its id assigned
    assert ctx.history[-1].text == speech and ctx.history[-1].agent_id == teacher.id
    again, _ = scripted_message(ctx, teacher, steps[:1])
    assert again[0].data.message_id != events[0].data.message_id  # type: ignore[union-attr]


def test_an_action_the_scene_cannot_take_is_a_warning_and_never_emitted(tmp_path: Path) -> None:
    room = classroom()
    session = script_session(tmp_path, {"director": [], "agents": {}}, room)
    ctx = session.context
    teacher = room.agents[0]
    steps = [ScriptStep(agent=teacher.id, say="Look."),
             ScriptStep(agent=teacher.id, action="spotlight", params={"elementId": "nowhere"})]
    events, warnings = scripted_message(ctx, teacher, steps)
    assert not any(isinstance(e, ActionEvent) for e in events)
    assert len(warnings) == 1 and "spotlight" in warnings[0]
