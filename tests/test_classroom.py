"""Classroom files: the bundled samples, and `maic-tui validate` on every kind of broken file."""

from __future__ import annotations

from pathlib import Path

import pytest

from maic_tui.actions import ROLE_DEFAULT_ACTIONS, WHITEBOARD_ACTIONS
from maic_tui.classroom import ClassroomError, load_classroom, resolve, sample_names
from maic_tui.cli import main
from maic_tui.whiteboard import Whiteboard

AGENT = """
[[agents]]
id = "t"
name = "Teacher"
role = "teacher"
persona = "Kind."
avatar = "T"
color = "#112233"
"""
MINIMAL = 'title = "Class"\n' + AGENT


def validate(tmp_path: Path, text: str | bytes, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    path = tmp_path / "class.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    code = main(["validate", str(path)])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err + captured.out
    return code, [line for line in captured.err.splitlines() if line]


# --- samples ----------------------------------------------------------------------------------------


def test_at_least_four_samples_and_all_valid(capsys: pytest.CaptureFixture[str]) -> None:
    names = sample_names()
    assert len(names) >= 4
    assert main(["validate", *(str(resolve(n)) for n in names)]) == 0
    assert capsys.readouterr().out.count(": ok") == len(names)


def test_samples_cover_the_required_kinds_of_class() -> None:
    classrooms = [load_classroom(name) for name in sample_names()]
    six = [c for c in classrooms if c.session.type == "qa" and len(c.agents) == 6]
    assert six and sorted(a.role for a in six[0].agents) == ["assistant"] + ["student"] * 4 + ["teacher"]
    assert len({a.persona for a in six[0].agents}) == 6  # distinct personas
    discussion = [c for c in classrooms if c.session.type == "discussion"]
    assert discussion and any(c.agent(c.session.trigger_agent).role == "student"  # type: ignore[union-attr,arg-type]
                              for c in discussion)
    assert any(len(c.agents) == 1 for c in classrooms)
    code_steps = [s for c in classrooms for a in c.demo.answers for t in a.turns for s in t.steps
                  if s.action in ("wb_draw_code", "wb_edit_code")]
    assert {"wb_draw_code", "wb_edit_code"} <= {s.action for s in code_steps}


@pytest.mark.parametrize("name", sample_names())
def test_sample_demo_material_applies_cleanly_to_a_board(name: str) -> None:
    classroom = load_classroom(name)
    board = Whiteboard()
    turns = classroom.demo.opening + [t for a in classroom.demo.answers for t in a.turns]
    assert turns and classroom.demo.answers
    for turn in turns:
        for step in turn.steps:
            if step.action is not None and step.action.startswith("wb_"):
                result = board.apply(step.action, step.params)
                assert result.ok, (name, step.action, result.reason)
    assert board.elements and board.conflicts() == []
    assert set(classroom.demo.fallback) <= {a.id for a in classroom.agents}


def test_allowed_actions_default_by_role() -> None:
    classroom = load_classroom("derivatives")
    teacher = classroom.agent("reyes")
    assert teacher is not None and teacher.actions == ROLE_DEFAULT_ACTIONS["teacher"]
    assert "spotlight" in teacher.actions
    theo = classroom.agent("theo")
    assert theo is not None and theo.actions == WHITEBOARD_ACTIONS
    marcus = classroom.agent("marcus")
    assert marcus is not None and marcus.actions == ("wb_open", "wb_draw_text", "wb_draw_latex")


def test_load_by_name_and_bad_name() -> None:
    assert load_classroom("water-cycle").title.startswith("The water cycle")
    with pytest.raises(ClassroomError, match="no such classroom: not a file here, nor one of the bundled samples"):
        load_classroom("no-such-sample")


# --- invalid files: one line per problem, naming file, field path and what is wrong -------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (b"title = [unclosed", "not valid TOML"),
        ("", "empty file"),
        ("  \n# only a comment\n", "empty file"),
        (b"\xff\xfe title", "not UTF-8"),
        (AGENT, "title: required field is missing"),
        ('title = 5\n' + AGENT, "title: must be a valid string, got 5"),
        (MINIMAL.replace('"teacher"\npersona', '"professor"\npersona'),
         "agents[0].role: must be 'teacher', 'assistant' or 'student', got 'professor'"),
        (MINIMAL + AGENT, "agents[1].id: duplicate agent id 't' (already used by agents[0])"),
        (MINIMAL + '[session]\ntype = "discussion"\ntopic = "x"\ntrigger_agent = "ghost"\n',
         "session.trigger_agent: 'ghost' is not an agent of this classroom"),
        (MINIMAL.replace("#112233", "bluish"), "agents[0].color: not a colour: 'bluish'"),
        (MINIMAL + "[limits]\nmax_agent_turns = 9\n", "limits.max_agent_turns: must be less than or equal to 6"),
        (MINIMAL + "[limits]\nmax_actions_per_agent = 0\n",
         "limits.max_actions_per_agent: must be greater than or equal to 1"),
        (MINIMAL + 'allowed_actions = ["wb_draw_text", "wb_teleport"]\n',
         "agents[0].allowed_actions[1]: must be"),
        ('title = "x"\nagents = []\n', "agents: the roster is empty"),
        (MINIMAL + 'colour = "#ffffff"\n', "agents[0].colour: unknown key"),
        ('title = "x"\ntitel = "y"\n' + AGENT, "titel: unknown key"),
        (MINIMAL + "[learner]\nnick = 'x'\n", "learner.nick: unknown key"),
        (MINIMAL + '[session]\ntype = "discussion"\n', "session.topic: required field is missing"),
        (MINIMAL + '[session]\ntype = "seminar"\n', "session: "),
        (MINIMAL + '[routing]\nguards = ["no_such_guard"]\n', "routing.guards[0]: must be"),
        (MINIMAL + '[[scenes]]\nid = "s"\ntitle = "S"\n[[scenes.elements]]\ntype = "bullets"\nid = "b"\n',
         "scenes[0].elements[0].items: required field is missing"),
        (MINIMAL + '[[scenes]]\nid = "s"\ntitle = "S"\n[[scenes.elements]]\ntype = "video"\nid = "v"\n',
         "scenes[0].elements[0]: "),
        (MINIMAL + '[[demo.opening]]\nagent = "ghost"\nsteps = [{ say = "hi" }]\n',
         "demo.opening[0].agent: 'ghost' is not an agent of this classroom"),
        (MINIMAL + '[[demo.opening]]\nagent = "t"\nsteps = [{ action = "wb_draw_text", params = { x = 1 } }]\n',
         "demo.opening[0].steps[0].params: invalid_params: content"),
        (MINIMAL + '[[demo.opening]]\nagent = "t"\nsteps = [{ say = "a", action = "wb_open" }]\n',
         "demo.opening[0].steps[0]: a step has either 'say' or 'action'"),
    ],
)
def test_invalid_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | bytes, expected: str) -> None:
    code, lines = validate(tmp_path, text, capsys)
    assert code == 2
    assert lines, "an invalid file must print at least one problem"
    assert all(line.startswith(str(tmp_path / "class.toml") + ": ") for line in lines)
    assert any(expected in line for line in lines), lines


def test_demo_action_not_allowed_for_agent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = MINIMAL + 'allowed_actions = ["wb_open"]\n[[demo.opening]]\nagent = "t"\nsteps = [{ action = "wb_clear" }]\n'
    code, lines = validate(tmp_path, text, capsys)
    assert code == 2 and lines[-1].endswith("demo.opening[0].steps[0].action: 't' may not use 'wb_clear'")


def test_every_problem_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = MINIMAL.replace("#112233", "red!") + "priority = 11\nmood = 'x'\n"
    code, lines = validate(tmp_path, text, capsys)
    assert code == 2 and len(lines) == 3
    assert {line.split(": ")[1] for line in lines} == {"agents[0].color", "agents[0].priority", "agents[0].mood"}


def test_valid_and_invalid_files_together(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text(MINIMAL)
    bad.write_text("title = 1")
    assert main(["validate", str(good), str(bad), str(tmp_path / "missing.toml")]) == 2
    out, err = capsys.readouterr()
    assert out == f"{good}: ok\n"
    assert f"{tmp_path / 'missing.toml'}: no such file" in err and f"{bad}: title:" in err


def test_demo_pointer_must_target_a_slide_element(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = MINIMAL + '[[demo.opening]]\nagent = "t"\nsteps = [{ action = "laser", params = { elementId = "nope" } }]\n'
    code, lines = validate(tmp_path, text, capsys)
    assert code == 2 and lines[-1].endswith("steps[0].params.elementId: 'nope' is not an element of any scene")


def test_validate_reports_every_problem_of_a_file_in_one_run(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    broken = MINIMAL + """
[[agents]]
id = "s"
name = "Student"
role = "student"
persona = "Keen."
avatar = "S"
colour = "#00ff00"

[[scenes]]
id = "one"
title = "One"
script = [{ agent = "t", say = "x", action = "spotlight" }]

[[scenes]]
id = "one"
title = "Again"
script = [{ agent = "t", action = "laser", params = { elementId = "missing" } }, { agent = "ghost", say = "Boo" },
          { agent = "s", say = "Hi" }]
"""
    code, lines = validate(tmp_path, broken, capsys)
    problems = [line.split(": ", 1)[1] for line in lines]
    assert code == 2
    # the schema's problems and the checks across the classroom together, not one round after the other
    assert "agents[1].colour: unknown key (check the spelling)" in problems
    assert any(p.startswith("scenes[0].script[0]: a step is one of") for p in problems)
    assert "scenes[1].id: duplicate scene id 'one' (already used by scenes[0])" in problems
    assert "scenes[1].script[0].params.elementId: 'missing' is not an element of this scene" in problems
    assert "scenes[1].script[1].agent: 'ghost' is not an agent of this classroom" in problems
    # its entry is broken and said so already: the step that names it is counted there, not reported again
    assert "agents[1].color: required field is missing (1 place names 's')" in problems
    assert not any("'s' is not an agent" in p for p in problems)


def test_an_unknown_classroom_name_lists_the_bundled_samples(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "nosuchclass"]) == 2
    err = capsys.readouterr().err
    assert "nosuchclass: no such classroom" in err
    assert "derivatives, derivatives-es, derivatives-zh, python-loops, rain-garden, water-cycle" in err
    assert "sample_classrooms" not in err  # no path inside the package
    assert main(["run", "nosuchclass", "--say", "hi"]) == 2
    assert "bundled samples (car-free-city, derivatives" in capsys.readouterr().err
