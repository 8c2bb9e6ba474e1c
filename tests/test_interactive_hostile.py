"""Hostile widget input from a model or a file (issue 51): huge numbers, NaN, names of Python builtins, escape
sequences, floods. Each is one clear line (a reason in the trace, a problem naming the field), never code run, never
a hang, never a control sequence on the terminal."""

from __future__ import annotations

from typing import Any

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.events import ActionEvent
from maic_tui.orchestration.answers.agent_run import AgentRun
from maic_tui.orchestration.answers.items import ParsedAction
from maic_tui.room.view import ClassroomView
from maic_tui.scenes.live_state import SceneChange, SceneStates
from maic_tui.whiteboard import Whiteboard
from maic_tui.whiteboard.render import render_slide
from tests.test_interactive_scenes import PALETTE

ROOM = load_classroom("derivatives")
SECANT = next(s for s in ROOM.scenes if s.id == "secant")

HOSTILE_ACTIONS: list[tuple[str, dict[str, Any], str]] = [
    ("widget_setState", {"state": {"h": float("nan")}}, "invalid_params: state.h"),
    ("widget_setState", {"state": {"h": 1e308}}, "h = 1e+308 is outside its range"),
    ("widget_setState", {"state": {"h": "0.1; import os"}}, "invalid_params: state.h"),
    ("widget_setState", {"state": {"__import__": 1}}, "'__import__' is not a variable (h, x)"),
    ("widget_setState", {"state": {f"v{k}": 1 for k in range(500)}}, "invalid_params: state"),
    ("widget_setState", {"state": {}}, "invalid_params: state"),
    ("widget_setState", {"state": [1, 2]}, "invalid_params: state"),
    ("widget_highlight", {"target": "\x1b[2J\x1b]0;pwned\x07nowhere"}, "is not part of this widget"),
    ("widget_highlight", {"target": "x" * 100_000}, "is not part of this widget"),
    ("widget_reveal", {"target": "__class__"}, "a simulation has nothing to reveal"),
    ("widget_annotation", {"target": "h"}, "invalid_params: content"),
]


@pytest.mark.parametrize(("name", "params", "reason"), HOSTILE_ACTIONS)
def test_a_hostile_widget_action_is_refused_with_one_reason(name: str, params: dict[str, Any], reason: str) -> None:
    teacher = ROOM.agent("reyes")
    assert teacher is not None
    emitted: list[Any] = []
    run = AgentRun(teacher, "m1", Whiteboard(), SECANT, list(teacher.actions), 6, emitted.append)
    run.take([ParsedAction(name, params)])
    assert emitted == [] and len(run.warnings) == 1, run.warnings
    warning = run.warnings[0]
    assert reason in warning and "\x1b" not in warning and "\x07" not in warning and len(warning) < 400
    assert run.states.of(SECANT).values == {"h": 1.0, "x": 1.0}  # nothing changed


def test_an_escape_sequence_in_an_annotation_never_reaches_the_pane_or_the_transcript() -> None:
    view = ClassroomView(ROOM)
    view.class_scene = view.scene_index = ROOM.scenes.index(SECANT)
    view.record(ActionEvent.model_validate({"type": "action", "data": {
        "actionId": "a1", "actionName": "widget_annotation", "agentId": "reyes", "messageId": "m1",
        "params": {"target": "slope", "content": "\x1b[31mred\x1b[0m \x1b]8;;http://x\x07link\u202e"}}}))
    state = view.scene_states.of(SECANT)
    assert state.notes["slope"]
    text = "\n".join(line.plain for line in render_slide(SECANT, 60, 40, PALETTE, None, state))
    assert "red" in text and not any(ch in text for ch in "\x1b\x07\u202e")


def test_a_replayed_log_with_a_change_the_widget_cannot_take_is_one_note() -> None:
    from maic_tui.log.records import parse_record

    view = ClassroomView(ROOM)
    for raw in ({"type": "interaction", "data": {"scene": 3, "verb": "set", "target": "h", "value": 1e300}},
                {"type": "interaction", "data": {"scene": 99, "verb": "reveal", "target": ""}},
                {"type": "interaction", "data": {"scene": 0, "verb": "set", "target": "h", "value": 1}}):
        view.record(parse_record(raw))
    notes = [e.text for e in view.entries]
    assert len(notes) == 3 and all(n.startswith("a change the widget could not take:") for n in notes), notes
    assert view.scene_states.of(SECANT) is None or view.scene_states.of(SECANT).values["h"] == 1.0


def test_huge_and_undefined_values_show_as_words_never_crash_the_plot() -> None:
    states = SceneStates()
    state = states.change(SECANT, [SceneChange("set", "h", 0.01), SceneChange("set", "x", -2)])
    lines = render_slide(SECANT, 40, 30, PALETTE, None, state)
    assert lines and all(line.cell_len <= 40 for line in lines)
    with pytest.raises(Exception, match="outside its range"):
        states.change(SECANT, [SceneChange("set", "h", "inf")])


@pytest.mark.parametrize(("typed", "said"), [
    ("h = 1e999", "h = '1e999' is outside its range 0.01 to 2 (step 0.05)"),
    ("h = -0", "h = 0 is outside its range"),
    ("exec = 2", "'exec' is not a variable (h, x)"),
])
def test_a_hostile_typed_change_is_one_line_with_the_range(typed: str, said: str) -> None:
    change = SECANT.typed(typed)
    assert change is not None
    with pytest.raises(Exception, match=said.replace("(", r"\(").replace(")", r"\)")):
        SceneStates().change(SECANT, [SceneChange(*change)])


def test_a_long_or_odd_message_is_for_the_class_not_the_widget() -> None:
    for text in ("h = " + "9" * 10_000, "h = 0.1\x1b[2J", "h = 0.1 and x = 2", "h == 0.1", "(h) = 1",
                 "__import__ = 1"):  # a message to the class, as text
        assert SECANT.typed(text) is None, text
