"""The interactive scene's widget in the room (issue 51): shown with its scene, worked by keys and the mouse, by
typing in the composer; at 80x24 and wide it fits and stays usable."""

from __future__ import annotations

import pytest

from maic_tui.room.view import AgentMessage, SystemNote
from maic_tui.tui.scenes.interactive import InteractivePanel
from maic_tui.tui.widgets.board_pane import BoardPane
from maic_tui.tui.widgets.composer import Composer
from tests.tui.helpers import demo_app, ready, say, wait_for

SECANT = 3


def _h(app: object) -> float:
    view = app.room.view  # type: ignore[attr-defined]
    return float(view.scene_states.of(view.scene).values["h"])


@pytest.mark.parametrize("size", [(80, 24), (150, 44)])
async def test_the_simulation_is_worked_by_keys_and_by_typing(size: tuple[int, int]) -> None:
    app = demo_app()
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        panel = app.query_one(InteractivePanel)
        assert not panel.display  # a slide has no widget
        app.room.go_to_scene(SECANT)
        await wait_for(pilot, lambda: panel.display)
        assert panel.region.width <= size[0] and panel.region.bottom <= size[1]
        panel.focus()
        await pilot.press("left", "left", "left", "left", "left")  # h: 1 -> 0.75 by its step
        await wait_for(pilot, lambda: _h(app) == 0.75)
        notes = [e.text for e in app.room.view.entries if isinstance(e, SystemNote)]
        assert notes[-1] == "✎ Sam set gap h (h) to 0.75"  # five keys, one note
        await pilot.press("down", "right")  # x: 1 -> 1.25
        await wait_for(pilot, lambda: app.room.view.scene_states.of(app.room.view.scene).values["x"] == 1.25)
        await pilot.press("up", "p")  # the first preset: far apart
        await wait_for(pilot, lambda: _h(app) == 1.5)
        pane = app.query_one(BoardPane)
        await wait_for(pilot, lambda: "1.5" in "".join(line.plain for line in pane.shown_lines()))
        app.query_one(Composer).focus()
        await say(pilot, "h = 5")  # out of range: one line, nothing changes, the text stays to be corrected
        await pilot.pause(0.2)
        assert _h(app) == 1.5 and app.query_one(Composer).text == "h = 5"
        assert any("h = 5 is outside its range 0.01 to 2 (step 0.05); nothing changed" in str(n.message)
                   for n in app._notifications)  # type: ignore[attr-defined]
        app.query_one(Composer).clear()
        await say(pilot, "gap h = 0.1")
        await wait_for(pilot, lambda: _h(app) == 0.1 and any(
            isinstance(e, AgentMessage) and "nearly the tangent" in e.text for e in app.room.view.entries))


async def test_a_click_on_the_arrows_steps_the_variable() -> None:
    app = demo_app()
    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        app.room.go_to_scene(SECANT)
        panel = app.query_one(InteractivePanel)
        await wait_for(pilot, lambda: panel.display and panel.region.height > 0)
        panel.focus()
        await pilot.pause()
        left, right = panel._arrows
        await pilot.click(InteractivePanel, offset=(right + panel.gutter.left, 0))
        await wait_for(pilot, lambda: _h(app) == 1.05)
        await pilot.click(InteractivePanel, offset=(left + panel.gutter.left, 0))
        await pilot.click(InteractivePanel, offset=(left + panel.gutter.left, 0))
        await wait_for(pilot, lambda: _h(app) == 0.95)


async def test_the_diagram_is_revealed_with_the_arrow_and_enter_asks_the_class() -> None:
    app = demo_app("water-cycle")
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        stages = next(i for i, s in enumerate(app.room.view.classroom.scenes) if s.id == "stages")
        app.room.go_to_scene(stages)
        panel = app.query_one(InteractivePanel)
        await wait_for(pilot, lambda: panel.display)
        panel.focus()
        await pilot.press("right")
        scene = app.room.view.scene
        await wait_for(pilot, lambda: scene.hidden(app.room.view.scene_states.of(scene)) == [
            "condensation", "precipitation", "collection"])
        await pilot.press("enter")  # the next one revealed, and the teacher says what it is
        await wait_for(pilot, lambda: any(isinstance(e, AgentMessage) and "Condensation: the vapour cooled" in e.text
                                          for e in app.room.view.entries))
