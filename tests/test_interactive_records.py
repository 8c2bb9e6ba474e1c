"""Interactive scenes in the log (issue 51): a learner's change is an ``interaction`` record that a replay, a resume,
a fork, ``eval --from-session`` and the xAPI export reproduce; the class is told the widget's state; the teacher
reacts to a typed change; an out-of-range change is one line and changes nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from maic_tui.log.store import LogStore
from maic_tui.room.replay import open_recorded
from tests.records_helpers import exported, problems

# The derivatives lesson: past the first pause and the discussion, then at the secant's pause.
TO_THE_SECANT = ["go on", "go on"]


def lesson(capsys: pytest.CaptureFixture[str], *says: str) -> tuple[list[dict[str, Any]], str]:
    assert main(["run", "derivatives", "--lesson", *[arg for said in says for arg in ("--say", said)]]) == 0
    out, err = capsys.readouterr()
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")], err


def test_a_typed_change_is_recorded_and_the_teacher_reacts(private_data_dir: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    records, err = lesson(capsys, *TO_THE_SECANT, "h = 9", "gap h = 0.1")
    assert err.splitlines()[0] == "maic-tui: h = 9 is outside its range 0.01 to 2 (step 0.05); nothing changed"
    worked = [r["data"] for r in records if r["type"] == "interaction"]
    assert worked == [{"scene": 3, "verb": "set", "target": "h", "value": 0.1}]  # the refused one left nothing
    after = records[records.index(next(r for r in records if r["type"] == "interaction")):]
    said = "".join(r["data"]["content"] for r in after if r["type"] == "text_delta")
    assert "nearly the tangent" in said  # the demo material's line for h <= 0.3


def test_agents_and_director_are_told_the_widget_and_the_last_change(private_data_dir: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from maic_tui.orchestration.prompts.agent_request import agent_messages
    from maic_tui.orchestration.prompts.director_request import director_messages
    from maic_tui.orchestration.prompts.shared_part import scene_live
    from maic_tui.whiteboard import Whiteboard

    lesson(capsys, *TO_THE_SECANT, "h = 0.1")
    recorded = open_recorded(private_data_dir, LogStore(private_data_dir).sessions()[0].id)
    room = recorded.classroom
    secant = next(s for s in room.scenes if s.id == "secant")
    told = scene_live(secant, recorded.rebuilt.view.scene_states.of(secant))
    assert "h (gap h) = 0.1 [0.01 to 2 (step 0.05)]" in told and "secant slope = 2.1" in told
    assert told.endswith("Last change: the learner set gap h (h) to 0.1.") and "Highlighted: slope." in told
    assert scene_live(room.scenes[0], None) == ""  # a slide has no live state
    teacher = room.agent("reyes")
    assert teacher is not None
    asked = agent_messages(teacher, room, [], Whiteboard(), secant, list(teacher.actions), [], "", told)
    directed = director_messages(room, [], [], Whiteboard(), 1, scene=secant, widget=told)
    assert told in str(asked[1].content) and told in str(directed[1].content)
    assert told not in str(asked[0].content)  # the shared part stays the same from one change to the next


def test_a_question_after_a_change_is_decided_knowing_the_widget(private_data_dir: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    records, _ = lesson(capsys, *TO_THE_SECANT, "h = 0.1", "why does the slope get close to 2?")
    prompts = [m["content"] for r in records if r["type"] == "done" for step in r["data"]["directorTrace"]
               for m in step.get("prompt", []) if m["role"] == "user"]
    assert any("Last change: the learner set gap h (h) to 0.1." in p and "secant slope = 2.1" in p for p in prompts)


def test_replay_resume_fork_and_the_records_reproduce_the_widget(private_data_dir: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    lesson(capsys, *TO_THE_SECANT, "h = 0.1", "preset far")
    session = LogStore(private_data_dir).sessions()[0].id
    recorded = open_recorded(private_data_dir, session)
    secant = next(s for s in recorded.classroom.scenes if s.id == "secant")
    state = recorded.rebuilt.view.scene_states.of(secant)
    assert state.values["h"] == 1.5 and state.highlight == "slope"  # the learner's and the teacher's changes
    statements = exported(session, capsys)
    interacted = [s for s in statements if s["verb"]["id"].endswith("/interacted")]
    assert [s["result"]["response"] for s in interacted] == ["h = 0.1", "preset far"]
    assert interacted[0]["object"]["id"].endswith("/scenes/secant/widget/h")
    assert all(not problems(s) for s in interacted)
    # the session resumed goes on with the widget as it was
    from maic_tui.live.session import ClassroomSession

    resumed = ClassroomSession(recorded.classroom)
    resumed.restore(recorded.rebuilt)
    assert resumed.context.scene_states.of(secant).values["h"] == 1.5


def test_a_scenario_from_a_session_starts_with_the_widget_as_it_was(private_data_dir: Path, tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    lesson(capsys, *TO_THE_SECANT, "h = 0.1", "why does the slope get close to 2?")
    session = LogStore(private_data_dir).sessions()[0].id
    turns = [n for n in range(1, 8)
             if main(["eval", "--from-session", session, "--turn", str(n), "-o", str(tmp_path / f"t{n}.toml")]) == 0]
    capsys.readouterr()
    last = (tmp_path / f"t{turns[-1]}.toml").read_text(encoding="utf-8")
    assert "[[worked]]" in last and 'target = "h"' in last and "value = 0.1" in last
    assert main(["eval", str(tmp_path / f"t{turns[-1]}.toml")]) in (0, 1)  # it plays: the widget is set first
    assert "Traceback" not in capsys.readouterr().err


def test_an_agents_widget_action_is_checked_against_the_widget() -> None:
    from maic_tui.classroom.models import Agent
    from maic_tui.orchestration.answers.agent_run import AgentRun
    from maic_tui.orchestration.answers.items import ParsedAction

    classroom = load_classroom("derivatives")
    secant = next(s for s in classroom.scenes if s.id == "secant")
    teacher = classroom.agent("reyes")
    assert isinstance(teacher, Agent)
    emitted: list[Any] = []
    run = AgentRun(teacher, "m1", __import__("maic_tui.whiteboard", fromlist=["Whiteboard"]).Whiteboard(), secant,
                   list(teacher.actions), 6, emitted.append)
    run.take([ParsedAction("widget_setState", {"state": {"h": 7}}),
              ParsedAction("widget_highlight", {"target": "nowhere"}),
              ParsedAction("widget_reveal", {"target": ""}),
              ParsedAction("widget_setState", {"state": {"h": 0.5}}),
              ParsedAction("widget_annotation", {"target": "slope", "content": "the secant's slope"})])
    assert run.warnings == [
        "widget_setState: widget: h = 7 is outside its range 0.01 to 2 (step 0.05)",
        "widget_highlight: widget: 'nowhere' is not part of this widget (h, x, far, close, slope, tangent, gap)",
        "widget_reveal: widget: a simulation has nothing to reveal: change a variable or pick a preset",
    ]
    assert [e.data.action_name for e in emitted] == ["widget_setState", "widget_annotation"]
    state = run.states.of(secant)
    assert state.values["h"] == 0.5 and state.notes == {"slope": "the secant's slope"}


def test_the_water_cycle_is_revealed_in_order_by_typing(private_data_dir: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    room = load_classroom("water-cycle")
    waits = sum(step.kind in ("pause", "discussion") for scene in room.scenes[:3] for step in scene.script)
    assert main(["run", "water-cycle", "--lesson", *[a for s in ["go on"] * waits + ["reveal", "reveal"]
                                                     for a in ("--say", s)]]) == 0
    out = capsys.readouterr().out
    records = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    assert [r["data"]["verb"] for r in records if r["type"] == "interaction"] == ["reveal", "reveal"]
    session = LogStore(private_data_dir).sessions()[0].id
    recorded = open_recorded(private_data_dir, session)
    stages = next(s for s in recorded.classroom.scenes if s.id == "stages")
    assert stages.hidden(recorded.rebuilt.view.scene_states.of(stages)) == ["collection"]
    said = "".join(r["data"]["content"] for r in records if r["type"] == "text_delta")
    assert "Precipitation: the droplets got heavy enough to fall" in said


def test_the_demo_teacher_works_an_unscripted_widget_in_front_of_the_class(private_data_dir: Path, tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    text = (Path(__file__).parent.parent / "sample_classrooms" / "derivatives.toml").read_text(encoding="utf-8")
    start = text.index('[[scenes]]\nid = "secant"')
    text = text[:start] + '[[scenes]]\nid = "secant"\ntitle = "Shrink the gap"\ntype = "interactive"\n\n' + \
        text[text.index("[scenes.widget]", start):]
    path = tmp_path / "unscripted.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["run", str(path), "--lesson", "--say", "go on", "--say", "go on"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    acted = [(r["data"]["actionName"], r["data"]["params"]) for r in records
             if r["type"] == "action" and r["data"]["actionName"].startswith("widget_")]
    assert acted == [("widget_highlight", {"target": "h"}), ("widget_setState", {"state": {"h": 1.5}}),
                     ("widget_setState", {"state": {"h": 0.01}})]
    recorded = open_recorded(private_data_dir, LogStore(private_data_dir).sessions()[0].id)
    secant = next(s for s in recorded.classroom.scenes if s.id == "secant")
    assert recorded.rebuilt.view.scene_states.of(secant).values["h"] == 0.01


def test_a_fork_keeps_the_changes_made_before_its_turn(private_data_dir: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    lesson(capsys, *TO_THE_SECANT, "h = 0.1", "why does the slope get close to 2?", "h = 0.5")
    original = LogStore(private_data_dir).sessions()[0].id
    assert main(["fork", original, "--turn", "3"]) == 0  # cut before the question: h = 0.1, not yet 0.5
    forked = capsys.readouterr().out.strip()
    recorded = open_recorded(private_data_dir, forked)
    secant = next(s for s in recorded.classroom.scenes if s.id == "secant")
    assert forked != original and recorded.rebuilt.view.scene_states.of(secant).values["h"] == 0.1
