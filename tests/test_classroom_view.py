"""The headless client state rebuilt from events: what the TUI draws (and a replay will rebuild)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from maic_tui.events import (
    AgentEndData,
    AgentEndEvent,
    AgentStartData,
    AgentStartEvent,
    TextDeltaData,
    TextDeltaEvent,
    ThinkingData,
    ThinkingEvent,
)
from maic_tui.room.view import AgentMessage, ClassroomView, LearnerMessage, SystemNote
from maic_tui.text_safety import EscapeFilter, terminal_safe
from tests.engine_helpers import act, classroom, items, pick, play, say, script_session


async def test_replaying_a_turn_rebuilds_the_transcript_and_the_board(tmp_path: Path) -> None:
    turn = items(act("wb_open"), act("wb_draw_text", content="slope", x=10, y=10), say("Hello **class**."),
                 act("laser", elementId="t1"), say("Look here."))
    session = script_session(tmp_path, {"director": [pick("teacher"), pick("USER", prompt="Any questions?",
                                                                            options=["Yes", "No"])],
                                        "agents": {"teacher": [turn]}})
    view = ClassroomView(session.classroom)
    view.learner("Hi")
    for event in await play(session, "Hi"):
        view.apply(event)
    learner, message = view.entries
    assert isinstance(learner, LearnerMessage) and learner.nickname == "Sam"
    assert isinstance(message, AgentMessage) and not message.streaming and not message.interrupted
    assert message.text == "Hello **class**. Look here."
    assert [p.text for p in message.parts if p.kind == "chip"] == ["▣ board opened", "✎ text [text_1]", "➚ laser [t1]"]
    assert view.board.state() == session.board.state()  # the client's board equals the engine's
    assert view.pointer is not None and view.pointer.kind == "laser" and view.pointer.element_id == "t1"
    assert view.cue is not None and view.cue.options == ["Yes", "No"]
    assert not view.turn_active and all(s == "idle" for s in view.status.values())
    assert [r.final for r in view.trace] == ["teacher", "USER"]


def test_statuses_follow_thinking_start_and_end() -> None:
    view = ClassroomView(classroom())
    view.apply(ThinkingEvent(data=ThinkingData(stage="director")))
    assert view.director_deciding
    view.apply(ThinkingEvent(data=ThinkingData(stage="agent_loading", agent_id="kim")))
    assert view.status["kim"] == "thinking" and not view.director_deciding
    view.apply(AgentStartEvent(data=AgentStartData(message_id="m1", agent_id="kim", agent_name="Kim", agent_avatar="K",
                                                   agent_color="#ff8800")))
    assert view.status["kim"] == "speaking"
    view.apply(AgentEndEvent(data=AgentEndData(message_id="m1", agent_id="kim")))
    assert view.status["kim"] == "idle"


def _stream(view: ClassroomView, pieces: list[str]) -> AgentMessage:
    view.apply(AgentStartEvent(data=AgentStartData(message_id="m1", agent_id="kim", agent_name="Kim", agent_avatar="K",
                                                   agent_color="#ff8800")))
    message = view.entries[-1]
    assert isinstance(message, AgentMessage)
    shown = ""
    for piece in pieces:
        view.apply(TextDeltaEvent(data=TextDeltaData(content=piece, message_id="m1")))
        now = message.parts[0].text if message.parts else ""
        assert now.startswith(shown)  # what is on screen only ever grows
        shown = now
    view.apply(AgentEndEvent(data=AgentEndData(message_id="m1", agent_id="kim")))
    return message


def test_an_escape_sequence_split_across_deltas_leaves_no_remnant() -> None:
    message = _stream(ClassroomView(classroom()), ["red \x1b", "[3", "1mtext \x1b]0;ti", "tle\x07 done"])
    assert message.text == "red text  done"


def test_an_interrupt_marks_the_open_message_and_a_note_when_none_was_open() -> None:
    view = ClassroomView(classroom())
    view.learner("go")
    view.request_interrupt()
    message = _stream(view, ["partial"])
    assert message.interrupted
    other = ClassroomView(classroom())
    other.learner("go")
    other.request_interrupt()
    from maic_tui.events import DirectorState, DoneData, DoneEvent

    other.apply(DoneEvent(data=DoneData(total_actions=0, total_agents=0, agent_had_content=False,
                                        cue_user_received=False, end_reason="interrupted",
                                        director_state=DirectorState(), director_trace=[])))
    assert isinstance(other.entries[-1], SystemNote) and "interrupted" in other.entries[-1].text


def test_scene_changes_are_bounded_and_clear_the_pointer() -> None:
    room = classroom(scenes=[{"id": "a", "title": "A"}, {"id": "b", "title": "B"}])
    view = ClassroomView(room)
    assert view.change_scene(1) and view.scene is not None and view.scene.id == "b"
    assert not view.change_scene(2) and not view.change_scene(-1) and not view.change_scene(1)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", " ", "\x1b", "[", "]", "2", "J", "0", ";", "\x07", "\\", "m", "\x9b", "\n",
                                 "\x00", "é"]), max_size=40), st.data())
def test_the_escape_filter_gives_the_same_text_for_every_chunking(chars: list[str], data: st.DataObject) -> None:
    text = "".join(chars)
    whole = EscapeFilter().feed(text)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=6)))
    pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)], strict=True)]
    streamed = EscapeFilter()
    assert "".join(streamed.feed(p) for p in pieces) == whole
    assert "\x1b" not in whole and "\x9b" not in whole and "\x07" not in whole and "\x00" not in whole
    assert terminal_safe(whole) == whole


def test_a_record_the_handler_has_no_case_for_is_not_silently_ignored() -> None:
    # mypy names the handler's match when a type joins the Record union; one that slips past it still fails loudly
    from types import SimpleNamespace
    from typing import cast

    from maic_tui.log.records import Record

    view = ClassroomView(classroom())
    with pytest.raises(AssertionError):
        view.record(cast(Record, SimpleNamespace(type="simulation", data={})))
    assert view.entries == [] and not view.turn_active
