"""``maic-tui new TOPIC --project`` (issue 52): a project scene planned after the slides, before the quiz, checked
and repaired like the other stages; the classroom validates and its project plays offline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from maic_tui.scenes.pbl.model import PblScene
from tests.test_generation import script

PROJECT: dict[str, Any] = {
    "title": "A ramp for the school entrance", "description": "Plan a wheelchair ramp. Check its slope.",
    "skills": ["measuring slopes"],
    "roles": [{"name": "Surveyor", "division": "development", "does": "measures the steps"},
              {"name": "Planner", "division": "management", "does": "keeps the plan together"}],
    "issues": [{"title": "Measure the rise", "description": "How high are the steps?", "owner": "surveyor",
                "done": ["gives the rise in centimetres"], "look_for": ["cm", "centimetres"]},
               {"title": "Choose the slope", "description": "How long must the ramp be?", "owner": "Nobody",
                "done": ["gives a slope of 1 in 12 or gentler"], "look_for": ["1 in 12", "1:12"]}]}


def test_a_project_is_planned_checked_and_played(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    no_roles = {**PROJECT, "roles": [{"name": "", "does": ""}]}
    out = tmp_path / "slopes.toml"
    spec = script(tmp_path, project=[no_roles, PROJECT])
    assert main(["new", "slopes", "--project", "--model", spec, "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "project: repair 1: the project needs at least two roles, each with a name" in err
    room = load_classroom(out)
    assert [s.type for s in room.scenes] == ["slide", "slide", "slide", "pbl", "quiz"]
    project = room.scenes[3]
    assert isinstance(project, PblScene)
    assert [i.id for i in project.issues] == ["measure-the-rise", "choose-the-slope"]
    assert [i.owner for i in project.issues] == ["Surveyor", "Planner"]  # an unknown owner gets a role
    assert {(i.question_agent, i.judge) for i in project.issues} == {("hale", "tom")}
    assert project.issues[0].participants == ["kim", "lee"]
    assert main(["validate", str(out)]) == 0
    capsys.readouterr()
    says = ["planner", "done: the steps rise 45 cm", "here is my plan: a slope of 1 in 12, so 5.4 m long"]
    assert main(["run", str(out), "--lesson", "--pace", "0", "--say", "go on", *[a for s in says
                                                                                  for a in ("--say", s)]]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    done = [r["data"]["data"]["issue"] for r in records if r["type"] == "scene_event"
            and r["data"]["name"] == "issue_done"]
    assert done == ["measure-the-rise", "choose-the-slope"]


def test_without_project_no_project_stage_is_asked(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "slopes.toml"
    assert main(["new", "slopes", "--model", script(tmp_path), "-o", str(out)]) == 0
    assert "project" not in capsys.readouterr().err
    assert [s.type for s in load_classroom(out).scenes] == ["slide", "slide", "slide", "quiz"]


def test_regen_makes_a_project_again_in_its_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "slopes.toml"
    assert main(["new", "slopes", "--project", "--model", script(tmp_path, project=[PROJECT]), "-o", str(out)]) == 0
    other = {**PROJECT, "title": "A ramp for the library"}
    assert main(["regen", str(out), "project", "--model", script(tmp_path, project=[other])]) == 0
    capsys.readouterr()
    project = load_classroom(out).scenes[3]
    assert isinstance(project, PblScene) and project.id == "project"
    assert project.project.title == "A ramp for the library"
