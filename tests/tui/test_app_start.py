"""The staged start: a light shell first, the classroom checked in a thread, then the room."""

from __future__ import annotations

import threading

from textual.widgets import Static

from maic_tui.classroom import ClassroomError, load_classroom
from maic_tui.classroom.models import Classroom
from maic_tui.live.assembly import SessionRecipe
from maic_tui.llm.options import ModelOptions
from maic_tui.tui.app import ClassroomApp
from maic_tui.tui.palette import PaletteCommands
from maic_tui.tui.widgets.composer import Composer
from maic_tui.tui.widgets.roster import Roster
from tests.tui.helpers import finish_turn, ready, say, wait_for


async def test_the_shell_shows_first_then_the_room_opens_and_a_turn_runs() -> None:
    release = threading.Event()

    def opener() -> tuple[Classroom, SessionRecipe]:
        release.wait(10)
        return load_classroom("derivatives"), SessionRecipe("demo", ModelOptions(pace=0))

    app = ClassroomApp(opener=opener, opening="derivatives")
    async with app.run_test(size=(140, 40)) as pilot:
        opening = app.screen.query_one("#opening", Static)
        assert "Opening derivatives" in str(opening.render())
        assert not app.room.is_open and not app.screen.query(Roster)
        await pilot.press("f6", "f2", "f3", "escape")  # room keys do nothing in the shell, and break nothing
        commands = [hit.text async for hit in PaletteCommands(app.screen).discover()]
        assert [str(c) for c in commands] == ["Switch theme", "Quit", "Help"]
        assert not app.room.is_open
        release.set()
        await wait_for(pilot, lambda: isinstance(app.focused, Composer))  # the room is entered
        assert app.room.is_open and app.screen.query(Roster) and not app.screen.query("#opening")
        assert app.title == app.room.classroom.title
        await ready(pilot)
        await say(pilot, "What is a derivative?")
        await finish_turn(pilot)
        assert app.room.view.last_done is not None and app.room.view.last_done.end_reason != "error"


async def test_a_classroom_that_fails_to_open_exits_with_code_2_and_keeps_the_error() -> None:
    def opener() -> tuple[Classroom, SessionRecipe]:
        return load_classroom("no-such-room"), SessionRecipe()

    app = ClassroomApp(opener=opener, opening="no-such-room")
    async with app.run_test() as pilot:
        await wait_for(pilot, lambda: app.return_code is not None)
    assert app.return_code == 2
    assert isinstance(app.startup_error, ClassroomError) and "no-such-room" in str(app.startup_error)


def test_the_app_needs_exactly_one_of_a_classroom_or_an_opener() -> None:
    for arguments in ({}, {"classroom": load_classroom("derivatives"), "opener": lambda: None}):
        try:
            ClassroomApp(**arguments)  # type: ignore[arg-type]
        except TypeError:
            continue
        raise AssertionError(f"accepted {arguments}")
