"""Every bundled classroom opens in the room with its lesson and plays until it first waits for the learner, at
80x24 and wide: a kind's widget that misses part of what the room asks of it (``SceneWidget``) fails here, not
in a learner's terminal."""

from __future__ import annotations

import inspect

import pytest

from maic_tui.classroom.lesson_steps import Phase
from maic_tui.classroom.loader import sample_names
from maic_tui.tui.scene_widgets import SceneWidget, scene_widgets
from tests.tui.helpers import demo_app, ready, wait_for


def test_every_kinds_widget_has_all_the_room_asks_of_it() -> None:
    asked = {name for name, _ in inspect.getmembers(SceneWidget, inspect.isfunction) if not name.startswith("_")}
    assert asked >= {"show", "follow"}
    for widget in scene_widgets():
        missing = {name for name in asked if not callable(getattr(widget, name, None))}
        assert not missing, f"{type(widget).__name__} lacks {sorted(missing)}"


# each sample at one of the two sizes, in turn: both sizes are covered, at half the suite's time
@pytest.mark.parametrize(("sample", "size"), [(name, [(80, 24), (150, 44)][k % 2])
                                              for k, name in enumerate(sample_names())])
async def test_a_sample_opens_and_plays_its_lesson_until_it_waits(sample: str, size: tuple[int, int]) -> None:
    app = demo_app(sample, lesson=True)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: (lesson := app.room.turns.lesson) is not None and lesson.phase == Phase.WAITING
                       and not app.room.turns.running, timeout=30)
        await pilot.pause()
        assert app.is_running and app.return_code is None
