"""A project in the app (issue 52): the role picked from the project's list, the issue board following the work,
a weak submission sent back, the fixed one submitted from the list."""

from __future__ import annotations

from textual.widgets import OptionList, Static

from maic_tui.classroom.lesson_steps import Phase
from maic_tui.room.view import SystemNote
from maic_tui.tui.scenes.pbl import ProjectPanel
from tests.tui.helpers import demo_app, ready, say, wait_for


def _waiting(app: object) -> bool:
    lesson = app.room.turns.lesson  # type: ignore[attr-defined]
    return lesson is not None and lesson.phase == Phase.WAITING and not app.room.turns.running  # type: ignore[attr-defined]


def _board(app: object) -> str:
    return str(app.query_one(ProjectPanel).query_one("#project-board", Static).render())  # type: ignore[attr-defined]


def _notes(app: object) -> list[str]:
    return [e.text for e in app.room.view.entries if isinstance(e, SystemNote)]  # type: ignore[attr-defined]


async def test_a_role_is_picked_from_the_list_and_the_board_follows_the_project() -> None:
    app = demo_app("rain-garden", lesson=True)
    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: _waiting(app) and app.query_one(ProjectPanel).query(OptionList))
        picks = app.query_one(ProjectPanel).query_one(OptionList)
        assert picks.has_focus and picks.option_count == 3 and "pick your role" in _board(app)
        await pilot.press("down", "enter")  # the Designer
        await wait_for(pilot, lambda: _waiting(app) and "▶ Choose the site" in _board(app))
        assert "you: Designer" in _board(app) and "· Size the garden" in _board(app)
        assert app.query_one("Composer").has_focus  # the work is typed
        await say(pilot, "here is my plan: near the gym")
        await wait_for(pilot, lambda: _waiting(app) and any("Needs revision" in n for n in _notes(app)))
        assert "▶ Choose the site" in _board(app)
        await say(pilot, "The downpipe by the gym floods the path; we dig it 3 m away from the wall")
        await wait_for(pilot, lambda: _waiting(app))
        await pilot.press("tab")  # to the project's list: Submit my work
        assert app.query_one(ProjectPanel).query_one(OptionList).has_focus
        await pilot.press("enter")
        await wait_for(pilot, lambda: _waiting(app) and "▶ Size the garden" in _board(app), timeout=20)
        assert "✓ Choose the site" in _board(app)
        assert any(n.startswith("✓ Choose the site: complete") for n in _notes(app))
