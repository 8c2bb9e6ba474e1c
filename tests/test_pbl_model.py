"""A project scene in a classroom file: it loads, and what it names that does not exist is one line naming the
field (issue 52)."""

from __future__ import annotations

from pathlib import Path

import pytest

from maic_tui.classroom import load_classroom
from maic_tui.scenes.pbl.model import PblScene
from tests.test_classroom import validate

SAMPLE = Path(__file__).parents[1] / "maic_tui" / "data" / "sample_classrooms" / "rain-garden.toml"


def test_the_rain_garden_sample_is_a_project_of_three_issues() -> None:
    classroom = load_classroom("rain-garden")
    scene = next(scene for scene in classroom.scenes if scene.type == "pbl")
    assert isinstance(scene, PblScene) and scene.id == "garden"
    assert [issue.id for issue in scene.issues] == ["site", "size", "plants"]
    assert scene.role("designer") is not None and scene.role("nobody") is None
    steps = scene.steps(0)
    assert [step.kind for step in steps] == ["say", "pause"] and steps[1].waits
    assert steps[1].script is not None
    assert steps[1].script.prompt == "Which role will you take: Project lead, Designer, Plant scout?"


def test_unknown_agents_roles_and_issues_are_problem_lines_naming_the_field(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    text = text.replace('judge = "lin"', 'judge = "linn"', 1).replace('owner = "Plant scout"', 'owner = "Gardener"')
    text = text.replace('participants = ["sam"]', 'participants = ["ghost"]').replace('id = "size"', 'id = "site"')
    code, problems = validate(tmp_path, text, capsys)
    assert code == 2
    joined = "\n".join(problems)
    assert "scenes[2].issues[0].judge: 'linn' is not an agent of this classroom" in joined
    assert "scenes[2].issues[1].participants[0]: 'ghost' is not an agent" in joined
    assert "scenes[2].issues[2].owner: 'Gardener' is not a role of this project" in joined
    assert "scenes[2].issues[1].id: duplicate issue id 'site'" in joined


def test_a_project_without_issues_or_with_a_script_is_refused(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    scripted = text.replace('type = "pbl"\n', 'type = "pbl"\nscript = [{ agent = "okafor", say = "hi" }]\n')
    code, problems = validate(tmp_path, scripted, capsys)
    assert code == 2 and any("has no script" in p for p in problems)
    code, problems = validate(tmp_path, text.replace('done = [', 'done = [] \nx_done = ['), capsys)
    assert code == 2 and any("issues[0].done" in p for p in problems)


def test_a_routing_rule_a_kind_brings_is_switchable_and_an_unknown_one_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    routing = '[routing]\nrules = ["issue_opens"]\n\n[[agents]]'
    text = SAMPLE.read_text(encoding="utf-8").replace("[[agents]]", routing, 1)
    assert load_classroom(_write(tmp_path, text)).routing.rules == ["issue_opens"]
    code, problems = validate(tmp_path, text.replace('["issue_opens"]', '["issue_open"]'), capsys)
    assert code == 2 and any("unknown rule 'issue_open'" in p for p in problems)


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "class.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)
