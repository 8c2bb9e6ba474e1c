"""Pilot: the palette's "New classroom…" asks the topic, shows the plan to edit (scenes renamed, moved, deleted,
added; an agent edited), writes the scenes with a mark each, writes the file and opens the class."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.widgets import OptionList, Static

from maic_tui.classroom import load_classroom
from maic_tui.live.assembly import SessionRecipe
from maic_tui.llm import ModelOptions
from maic_tui.tui.app import ClassroomApp
from maic_tui.tui.palette import PaletteCommands
from maic_tui.tui.screens.new_classroom import NewClassroomScreen
from maic_tui.tui.widgets.plan_editor import PlanEditor
from tests.test_generation import ROSTER, scene, script
from tests.tui.helpers import demo_app, ready, wait_for


async def test_a_new_classroom_is_generated_from_the_palette_and_opened(tmp_path: Path) -> None:
    recipe = SessionRecipe(script(tmp_path), ModelOptions(), data_dir=tmp_path / "data", lesson=False)
    app = ClassroomApp(load_classroom("water-cycle"), recipe)
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        commands = [str(hit.text) async for hit in PaletteCommands(app.screen).discover()]
        assert "New classroom…" in commands
        await planned(pilot, app)
        await pilot.press("g")
        await opened(pilot, app, "Slopes")
        written = tmp_path / "data" / "classrooms" / "slopes.toml"
        assert load_classroom(written).title == "Slopes"
        assert not isinstance(app.screen, NewClassroomScreen)


async def planned(pilot: Any, app: ClassroomApp) -> None:
    """The New dialog asked for "slopes", and the plan the model made is shown to edit."""
    app.room.action_new_classroom()
    await wait_for(pilot, lambda: isinstance(app.screen, NewClassroomScreen))
    await pilot.press(*"slopes", "enter")
    await wait_for(pilot, lambda: app.screen.query(PlanEditor), timeout=20)


async def opened(pilot: Any, app: ClassroomApp, title: str) -> None:
    """The new class is open: its title shown and its room rebuilt (the composer has the keys again)."""
    from maic_tui.tui.widgets.composer import Composer

    await wait_for(pilot, lambda: app.room.classroom.title == title, timeout=20)
    await wait_for(pilot, lambda: isinstance(app.focused, Composer), timeout=20)


def options(app: ClassroomApp, which: str) -> list[str]:
    found = app.screen.query_one(f"#plan-{which}", OptionList)
    return [str(found.get_option_at_index(n).prompt) for n in range(found.option_count)]


async def test_the_plan_is_edited_before_the_scenes_are_written_and_each_scene_is_ticked_off(tmp_path: Path) -> None:
    spec = script(tmp_path)
    book = json.loads((tmp_path / "script.json").read_text(encoding="utf-8"))
    book["stages"]["scene"] = [{"chunks": [json.dumps(scene(t, d))], "delay_ms": 300} for t, d in  # slow: seen
                               (("Steep and flat", False), ("Slopes of lines", True), ("Road gradients", False))]
    (tmp_path / "script.json").write_text(json.dumps(book), encoding="utf-8")
    recipe = SessionRecipe(spec, ModelOptions(), data_dir=tmp_path / "data", lesson=False)
    app = ClassroomApp(load_classroom("water-cycle"), recipe)
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await planned(pilot, app)
        assert [line.split(" — ")[0] for line in options(app, "scenes")] == [
            "1. Rise over run", "2. Steep and flat", "3. Slopes in life"]
        assert options(app, "agents")[0] == "Ms. Hale · teacher · voice onyx / en+m3 · Calm and precise."
        await pilot.press("enter", "ctrl+u", *"Slopes of lines", "enter")  # rename the first scene
        await pilot.press("shift+down")  # and move it down one
        await pilot.press("down", "d")  # delete the last
        await pilot.press("a", *"Road gradients", "enter")  # add one at the end
        await pilot.press("tab", "p", "ctrl+u", *"Very calm.", "enter")  # the teacher's persona
        await pilot.press("down", "r")  # Tom: assistant -> student
        await pilot.press("g")
        await wait_for(pilot, lambda: any(line.startswith("… ") for line in options(app, "scenes")), timeout=20)
        await wait_for(pilot, lambda: options(app, "scenes")[0].startswith("✓ 1. Steep and flat"), timeout=20)
        await opened(pilot, app, "Slopes")
        room = load_classroom(tmp_path / "data" / "classrooms" / "slopes.toml")
        assert [s.title for s in room.scenes] == ["Steep and flat", "Slopes of lines", "Road gradients",
                                                  "Check yourself"]
        assert room.agents[0].persona == "Very calm." and [a.role for a in room.agents] == [
            "teacher", "student", "student", "student"]


async def test_a_plan_with_two_teachers_is_not_sent(tmp_path: Path) -> None:
    recipe = SessionRecipe(script(tmp_path), ModelOptions(), data_dir=tmp_path / "data", lesson=False)
    app = ClassroomApp(load_classroom("water-cycle"), recipe)
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await planned(pilot, app)
        await pilot.press("tab", "down", "r", "r", "g")  # Tom: assistant -> student -> teacher
        await pilot.pause(0.2)
        problem = str(app.screen.query_one("#plan-problem", Static).render())
        assert problem == "agents[1].role: the class needs exactly one teacher (2 now)"
        assert not app.screen.query_one(PlanEditor).writing
        assert not (tmp_path / "data" / "classrooms").exists()


async def test_the_demo_model_says_in_the_dialog_that_generation_needs_a_real_model() -> None:
    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        app.room.action_new_classroom()
        await wait_for(pilot, lambda: isinstance(app.screen, NewClassroomScreen))
        await pilot.press(*"volcanoes", "enter")
        await pilot.pause(0.2)
        line = str(app.screen.query_one("#new-progress", Static).render())
        assert line.startswith("generating a classroom needs a real model")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, NewClassroomScreen))
        assert app.room.classroom.title.startswith("Derivatives")


async def test_a_generation_that_fails_says_so_and_keeps_the_plan_to_send_again(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "classrooms").write_text("not a folder", encoding="utf-8")  # the file cannot be written
    names = {"agents": ["Ms Hale", "Tom"]}  # a wrongly typed answer first: repaired, not a crash
    recipe = SessionRecipe(script(tmp_path, roster=[names, ROSTER]), ModelOptions(), data_dir=tmp_path / "data",
                           lesson=False)
    app = ClassroomApp(load_classroom("water-cycle"), recipe)
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await planned(pilot, app)
        screen = app.screen
        await pilot.press("g")
        await wait_for(pilot, lambda: screen.query_one("#new-progress", Static).has_class("-failed"), timeout=20)
        line = str(screen.query_one("#new-progress", Static).render())
        assert line == f"cannot write the classroom to {tmp_path / 'data' / 'classrooms'}: File exists"
        editor = screen.query_one(PlanEditor)
        assert not editor.writing and editor.scenes.has_focus  # the plan is kept: fix the cause, press g again
        assert app.room.classroom.title != "Slopes"
