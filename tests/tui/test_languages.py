"""The room in every language: at 80x24 and 150x44 nothing is cut that the English room shows whole (the footer's
keys, the class list's and the board's titles, the lesson line, the composer's placeholder); the palette switches
the language while the room is open and saves it like the theme."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.widget import Widget
from textual.widgets import Footer

from maic_tui.i18n import LANGUAGES, set_interface_language
from maic_tui.tui.app import ClassroomApp
from maic_tui.tui.widgets.board_pane import BoardPane
from maic_tui.tui.widgets.composer import Composer
from maic_tui.tui.widgets.lesson_panel import LessonLine
from maic_tui.tui.widgets.roster import Roster
from tests.tui.helpers import demo_app, ready, wait_for

SPACE = re.compile(r"\s+")


def shown_in(app: ClassroomApp, widget: Widget, inside: bool = False) -> str:
    """What the screen shows in the widget's region (its border included, or only inside it), row by row, cut by
    terminal cells."""
    strips = app.screen._compositor.render_strips()
    region = widget.content_region if inside else widget.region
    return "\n".join(strips[y].crop(region.x, region.right).text for y in range(region.y, region.bottom))


def labels(app: ClassroomApp) -> dict[str, tuple[Widget, str, bool]]:
    """Each label the room shows now, by a name that is the same in every language, with where it shows."""
    found: dict[str, tuple[Widget, str, bool]] = {}
    footer = app.room.query_one(Footer)
    for key, active in app.room.active_bindings.items():
        binding = active.binding
        if binding.show and binding.description:
            described = binding.group.description if binding.group else binding.description
            found[f"footer:{binding.action}:{key}"] = (footer, described, False)
    roster, board = app.room.query_one(Roster), app.room.query_one(BoardPane)
    if roster.border_title:
        found["roster"] = (roster, str(roster.border_title), False)
    found["board"] = (board, str(board.border_title), False)
    line = app.room.query_one(LessonLine)
    if line.display:
        found["lesson line"] = (line, str(line.render()), True)
    composer = app.room.query_one(Composer)
    found["placeholder"] = (composer, str(composer.placeholder), True)
    return found


def whole(app: ClassroomApp, widget: Widget, text: str, inside: bool) -> bool:
    """Shown without a cut: every character, in order (wrapped lines joined; spacing as laid out ignored)."""
    return SPACE.sub("", text) in SPACE.sub("", shown_in(app, widget, inside))


async def room_in(language: str, size: tuple[int, int]) -> dict[str, bool]:
    set_interface_language(language)
    app = demo_app(lesson=True, pace=25.0)
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: app.room.query_one(LessonLine).display)
        await pilot.pause(0.3)
        return {name: whole(app, *label) for name, label in labels(app).items()}


@pytest.mark.parametrize("size", [(80, 24), (150, 44)])
async def test_nothing_is_cut_in_any_language_that_english_shows_whole(size: tuple[int, int]) -> None:
    english = await room_in("en", size)
    expected = {name for name, ok in english.items() if ok}
    assert {"placeholder", "lesson line", "footer:help:f1"} <= expected, english
    for language in sorted(set(LANGUAGES) - {"en"}):
        shown = await room_in(language, size)
        assert set(shown) == set(english), (language, set(shown) ^ set(english))
        cut = sorted(name for name in expected if not shown[name])
        assert not cut, (language, size, cut)


async def palette(pilot: Any, query: str) -> None:
    await pilot.press("ctrl+p")
    await pilot.pause(0.3)
    await pilot.press(*query)
    await pilot.pause(0.6)
    await pilot.press("enter")


async def test_the_palette_switches_the_language_in_place_and_saves_it(private_config: Path) -> None:
    app = demo_app()
    async with app.run_test(size=(150, 44)) as pilot:
        await ready(pilot)
        footer = app.room.query_one(Footer)
        assert "Help" in shown_in(app, footer)
        await palette(pilot, "Deutsch")
        await wait_for(pilot, lambda: "Hilfe" in shown_in(app, footer))
        assert app.room.query_one(Roster).border_title == "Klasse"
        scenes = len(app.room.view.classroom.scenes)
        assert str(app.room.query_one(BoardPane).border_title).startswith(f"Folie 1/{scenes} ")
        assert '[interface]\nlanguage = "de"' in private_config.read_text(encoding="utf-8")
        await palette(pilot, "English")
        await wait_for(pilot, lambda: "Help" in shown_in(app, footer))
        assert 'language = "en"' in private_config.read_text(encoding="utf-8")
