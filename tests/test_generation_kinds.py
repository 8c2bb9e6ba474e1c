"""``maic-tui new --interactive`` and ``--project`` with the script model: the kinds' own stages write a widget and a
project that validate and play offline; what code can settle (names, ranges, steps, ids, who asks and who judges,
an owner that is no role) is settled, a formula that is not one is a repair round naming its field and never run;
``regen`` makes one of them again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.cli import main
from maic_tui.paths import SAMPLES_DIR
from maic_tui.scenes.interactive.model import Diagram, InteractiveScene, Simulation
from maic_tui.scenes.pbl.model import PblScene
from tests.fake_openai import Reply, fake_openai
from tests.test_generation import script

SIMULATION = {
    "kind": "simulation", "title": "Tilt the line", "intro": "Change the rise and the run and watch the slope.",
    "question": "What happens to the slope when the run grows?",
    "variables": [{"name": "rise", "label": "rise", "min": 5, "max": -5, "default": 99, "step": -1, "unit": "m"},
                  {"name": "run", "label": "run", "min": 1, "max": 10, "default": 2, "step": 1, "unit": "m"}],
    "computed": [{"name": "slope", "label": "slope", "formula": "rise / run", "unit": ""}],
    "plot_from": -5, "plot_to": 5, "curves": [{"label": "line", "formula": "slope * t"}],
    "presets": [{"label": "flat road", "values": {"rise": 0, "run": 10, "speed": 3}}],
    "layout": "flowchart", "nodes": [], "edges": [],
    "reactions": [{"when": "slope > 1", "say": "Steeper than one: the rise beats the run."}]}
DIAGRAM = {
    "kind": "Diagram", "title": "How a slope is found", "intro": "Reveal each step.", "question": "What comes last?",
    "variables": [], "computed": [], "plot_from": 0, "plot_to": 1, "curves": [], "presets": [], "layout": "hierarchy",
    "nodes": ["Pick two points", "Rise: the change in y", "Run: the change in x", "Divide rise by run"],
    "edges": [{"from": 0, "to": 1, "label": "up"}, {"from": 0, "to": 2, "label": ""}, {"from": 1, "to": 3},
              {"from": 2, "to": 9}, {"from": 3, "to": 3}],
    "reactions": [{"when": "revealed >= 4", "say": "That's the whole recipe."}]}
PROJECT = {
    "title": "A ramp for the library", "description": "The library door has two steps. Plan a ramp.",
    "skills": ["measuring", "slopes"],
    "roles": [{"name": "Lead", "division": "Management", "does": "keeps the plan"},
              {"name": "Builder", "division": "development", "does": "works out the ramp"},
              {"name": "lead", "division": "development", "does": "a second lead, the same name"}],
    "issues": [{"title": "Measure the rise", "description": "How high are the steps?", "owner": "Builder",
                "done": [{"text": "gives the height in centimetres", "look_for": ["cm", "centimetres"]}],
                "questions": ["How would you measure the steps?"], "hints": ["Use a tape from the ground."]},
               {"title": "Choose the slope", "description": "How long must the ramp be?", "owner": "Architect",
                "done": [{"text": "uses a gentle gradient for wheelchairs", "look_for": []}],
                "questions": ["What slope can a wheelchair climb?"], "hints": ["Think one in twelve."]},
               {"title": "No way to tell", "description": "Nothing is done here.", "owner": "Lead", "done": [],
                "questions": [], "hints": []}]}


def scene_of(path: Path, kind: type[Any]) -> Any:
    return next(s for s in load_classroom(path).scenes if isinstance(s, kind))


def test_an_interactive_simulation_is_written_before_the_quiz_settled_by_code_and_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "slopes.toml"
    assert main(["new", "slopes", "--interactive", "--model", script(tmp_path, interactive=[SIMULATION]),
                 "-o", str(out)]) == 0
    room = load_classroom(out)
    assert [s.type for s in room.scenes] == ["slide", "slide", "slide", "interactive", "quiz"]
    scene = scene_of(out, InteractiveScene)
    widget = scene.widget
    assert isinstance(widget, Simulation) and scene.title == "Tilt the line"
    rise, run = widget.variables
    # a range given upside down is turned round, a default outside it is its middle, a step below 0 one of 20
    assert (rise.min, rise.max, rise.default, rise.step, rise.unit) == (-5, 5, 0, 0.5, "m")
    assert (run.default, run.step) == (2, 1)
    assert widget.presets[0].values == {"rise": 0, "run": 10}  # a name the widget does not have is dropped
    assert widget.plot is not None and widget.plot.curves[0].formula == "slope * t"
    assert [step.kind for step in scene.script] == ["say", "pause"] and scene.script[0].agent == "hale"
    capsys.readouterr()
    waits = sum(step.kind in ("pause", "discussion") for s in room.scenes[:3] for step in s.script)
    says = ["go on"] * waits + ["rise = 4", "go on", "b", "rise over run"]
    assert main(["run", str(out), "--lesson", *[arg for said in says for arg in ("--say", said)]]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert not [r for r in records if r["type"] == "error"]
    assert any(r["type"] == "interaction" and r["data"]["target"] == "rise" and r["data"]["value"] == 4
               for r in records)


def test_a_formula_that_is_not_one_is_a_repair_round_naming_its_field_and_never_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hostile = SIMULATION | {"computed": [{"name": "slope", "label": "slope", "unit": "",
                                          "formula": "__import__('os').system('touch " + str(tmp_path / "ran") + "')"}]}
    out = tmp_path / "slopes.toml"
    assert main(["new", "slopes", "--interactive", "--model", script(tmp_path, interactive=[hostile, SIMULATION]),
                 "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "interactive: repair 1:" in err and "widget.computed[0].formula" in err
    assert not (tmp_path / "ran").exists()
    assert scene_of(out, InteractiveScene).widget.computed[0].formula == "rise / run"


def test_an_interactive_diagram_keeps_real_edges_and_reveals_its_nodes_in_order(tmp_path: Path) -> None:
    out = tmp_path / "slopes.toml"
    assert main(["new", "slopes", "--interactive", "--model", script(tmp_path, interactive=[DIAGRAM]),
                 "-o", str(out)]) == 0
    widget = scene_of(out, InteractiveScene).widget
    assert isinstance(widget, Diagram) and widget.layout == "hierarchy"
    ids = [n.id for n in widget.nodes]
    assert ids == ["pick-two-points", "rise-the-change-in-y", "run-the-change-in-x", "divide-rise-by-run"]
    assert widget.reveal == ids
    # an edge to a node there is not, or from a node to itself, is left out
    assert [(e.source, e.to) for e in widget.edges] == [(ids[0], ids[1]), (ids[0], ids[2]), (ids[1], ids[3])]


def test_a_project_gets_its_askers_and_judge_from_the_class_and_plays_offline(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "slopes.toml"
    assert main(["new", "slopes", "--project", "--model", script(tmp_path, project=[PROJECT]), "-o", str(out)]) == 0
    room = load_classroom(out)
    assert [s.type for s in room.scenes] == ["slide", "slide", "slide", "pbl", "quiz"]
    project = scene_of(out, PblScene)
    assert [r.name for r in project.roles] == ["Lead", "Builder"]  # a second role of the same name is left out
    assert project.roles[0].division == "management"
    # the issue with nothing to tell it done is left out; an owner that is no role is the first role
    assert [(i.id, i.owner) for i in project.issues] == [("measure-the-rise", "Builder"), ("choose-the-slope", "Lead")]
    first, second = project.issues
    assert (first.question_agent, first.judge, first.participants) == ("tom", "hale", ["kim", "lee"])
    assert first.demo.questions == ["How would you measure the steps?"]
    assert second.done[0].look_for == ["gentle", "gradient", "wheelchairs"]  # its own longer words
    capsys.readouterr()
    waits = sum(step.kind in ("pause", "discussion") for s in room.scenes[:3] for step in s.script)
    says = ["go on"] * waits + ["Builder", "the steps are 30 cm high", "done", "it needs a gentle gradient for "
                                                                          "wheelchairs, one in twelve", "done"]
    assert main(["run", str(out), "--lesson", *[arg for said in says for arg in ("--say", said)]]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert not [r for r in records if r["type"] == "error"]
    assert [r["data"]["name"] for r in records if r["type"] == "scene_event"].count("issue_done") == 2


def test_a_project_without_a_usable_issue_is_asked_again(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = PROJECT | {"issues": [PROJECT["issues"][2]]}
    out = tmp_path / "slopes.toml"
    assert main(["new", "slopes", "--project", "--model", script(tmp_path, project=[empty, PROJECT]),
                 "-o", str(out)]) == 0
    assert "project: repair 1: a project needs at least one issue" in capsys.readouterr().err
    assert len(scene_of(out, PblScene).issues) == 2


def test_without_the_flags_no_widget_or_project_is_asked_for(tmp_path: Path) -> None:
    out = tmp_path / "slopes.toml"
    assert main(["new", "slopes", "--model", script(tmp_path), "-o", str(out)]) == 0
    assert [s.type for s in load_classroom(out).scenes] == ["slide", "slide", "slide", "quiz"]


@pytest.mark.parametrize(("sample", "scene", "answer", "kind"),
                         [("derivatives", "secant", SIMULATION, InteractiveScene),
                          ("rain-garden", None, PROJECT, PblScene)])
def test_regen_makes_an_interactive_or_project_scene_again_keeping_its_id_and_title(
        tmp_path: Path, sample: str, scene: str | None, answer: dict[str, Any], kind: type[Any]) -> None:
    path = tmp_path / "class.toml"
    path.write_text((SAMPLES_DIR / f"{sample}.toml").read_text(encoding="utf-8"), encoding="utf-8")
    old = scene_of(path, kind)
    with fake_openai(Reply(json.dumps(answer))) as server:
        assert main(["regen", str(path), old.id, "--note", "make it about ramps", "--model", "openai:fake-model",
                     "--base-url", server.url, "--structured-output", "off"]) == 0
    assert "The author's instruction for this scene: make it about ramps" in \
        "\n".join(str(m.get("content", "")) for m in server.requests[0]["messages"])
    new = scene_of(path, kind)
    assert (new.id, new.title) == (old.id, old.title) and new != old
