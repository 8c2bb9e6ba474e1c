"""Pilot: the palette's "New classroom…" asks the topic, shows the stages, writes the file and opens the class."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from maic_tui.classroom import load_classroom
from maic_tui.live.assembly import SessionRecipe
from maic_tui.llm import ModelOptions
from maic_tui.tui.app import ClassroomApp
from maic_tui.tui.palette import PaletteCommands
from maic_tui.tui.screens.new_classroom import NewClassroomScreen
from tests.test_generation import ROSTER, script
from tests.tui.helpers import demo_app, ready, wait_for


async def test_a_new_classroom_is_generated_from_the_palette_and_opened(tmp_path: Path) -> None:
    recipe = SessionRecipe(script(tmp_path), ModelOptions(), data_dir=tmp_path / "data", lesson=False)
    app = ClassroomApp(load_classroom("water-cycle"), recipe)
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        commands = [str(hit.text) async for hit in PaletteCommands(app.screen).discover()]
        assert "New classroom…" in commands
        app.room.action_new_classroom()
        await wait_for(pilot, lambda: isinstance(app.screen, NewClassroomScreen))
        await pilot.press(*"slopes", "enter")
        await wait_for(pilot, lambda: app.room.classroom.title == "Slopes", timeout=20)
        written = tmp_path / "data" / "classrooms" / "slopes.toml"
        assert load_classroom(written).title == "Slopes"
        assert not isinstance(app.screen, NewClassroomScreen)


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


async def test_a_generation_that_fails_in_any_way_says_so_and_gives_the_input_back(tmp_path: Path) -> None:
    from textual.widgets import Input

    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "classrooms").write_text("not a folder", encoding="utf-8")  # the file cannot be written
    names = {"agents": ["Ms Hale", "Tom"]}  # a wrongly typed answer first: repaired, not a crash
    recipe = SessionRecipe(script(tmp_path, roster=[names, ROSTER]), ModelOptions(), data_dir=tmp_path / "data",
                           lesson=False)
    app = ClassroomApp(load_classroom("water-cycle"), recipe)
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        app.room.action_new_classroom()
        await wait_for(pilot, lambda: isinstance(app.screen, NewClassroomScreen))
        await pilot.press(*"slopes", "enter")
        screen = app.screen
        await wait_for(pilot, lambda: not screen.query_one(Input).disabled, timeout=20)
        line = str(screen.query_one("#new-progress", Static).render())
        assert line == f"cannot write the classroom to {tmp_path / 'data' / 'classrooms'}: File exists"
        assert screen.query_one("#new-progress", Static).has_class("-failed")
        assert app.room.classroom.title != "Slopes"
