"""The New dialog in the interface's language: its progress line (a stage's name, what it does), a plan the
author must fix, and why the generation stopped; the outline's notes a draft file keeps stay English."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from maic_tui.classroom import load_classroom
from maic_tui.generation.outline_file import Plan, PlannedAgent, PlannedScene, plan_problems
from maic_tui.generation.plan_edits import PlanEdits
from maic_tui.i18n import set_interface_language
from maic_tui.live.assembly import SessionRecipe
from maic_tui.llm import ModelOptions
from maic_tui.tui.app import ClassroomApp
from maic_tui.tui.screens.new_classroom import NewClassroomScreen
from tests.test_generation import scene, script
from tests.tui.helpers import ready, wait_for
from tests.tui.test_app_new_classroom import opened, planned


async def test_the_dialogs_plan_problem_and_failure_are_in_german(tmp_path: Path) -> None:
    set_interface_language("de")
    recipe = SessionRecipe(script(tmp_path, scene=["no json"] * 3), ModelOptions(), data_dir=tmp_path / "data",
                           lesson=False)
    app = ClassroomApp(load_classroom("water-cycle"), recipe)
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await planned(pilot, app)
        await pilot.press("tab", "down", "r", "r", "g")  # Tom: assistant -> student -> teacher
        await pilot.pause(0.2)
        problem = str(app.screen.query_one("#plan-problem", Static).render())
        assert problem == "agents[1].role: die Klasse braucht genau eine Lehrkraft (jetzt 2)"
        await pilot.press("r", "g")  # Tom a student again: the plan goes, and the first scene never validates
        line = app.screen.query_one("#new-progress", Static)
        await wait_for(pilot, lambda: "(Schritt Szene)" in str(line.render()), timeout=20)
        assert str(line.render()) == "die Antwort enthält kein JSON-Objekt (Schritt Szene)"
        assert isinstance(app.screen, NewClassroomScreen)


def test_the_plans_own_problems_are_english_in_the_draft_and_translated_in_the_dialog() -> None:
    agents = [PlannedAgent(name="Ann", role="teacher", persona="Calm."),
              PlannedAgent(name="ann", role="student", persona="Curious.")]
    plan = Plan(title="Slopes", description="Steep.", agents=agents, scenes=[PlannedScene(title="A", goals=["a"])])
    set_interface_language("zh_CN")
    assert [f"{where}: {what}" for where, what in plan_problems(plan)] == [
        "agents[1].name: 'ann' is already in the class"]  # what the outline file's notes say
    edits = PlanEdits(plan)
    assert edits.checked()[1] == ["agents[1].name: 'ann' 已经在课堂里了"]
    assert edits.rename_scene(0, "  ") == "场景需要一个标题"


async def test_a_scene_asked_again_in_the_dialog_goes_on_to_the_class(tmp_path: Path) -> None:
    scenes = ["no json", scene("Rise over run"), scene("Steep and flat", True), scene("Slopes in life")]
    recipe = SessionRecipe(script(tmp_path, scene=scenes), ModelOptions(), data_dir=tmp_path / "data", lesson=False)
    app = ClassroomApp(load_classroom("water-cycle"), recipe)
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await planned(pilot, app)
        await pilot.press("g")  # the first scene's repair line is no scene's number: the dialog goes on
        await opened(pilot, app, "Slopes")
