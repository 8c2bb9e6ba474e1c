"""The command palette's own words (its search field, "No matches found") in the interface's language; Textual
writes them in English, so the app's palette overrides one private method: a Textual that changes it is caught."""

from __future__ import annotations

import hashlib
import inspect

from textual.command import CommandInput, CommandList, CommandPalette

from maic_tui.i18n import set_interface_language
from maic_tui.tui.palette import Palette
from tests.tui.helpers import demo_app, ready, wait_for

# Textual 8.2's CommandPalette._start_no_matches_countdown, which Palette's override copies. When this fails,
# Textual changed the method: compare it with the override, bring the override up to date, then this digest.
TEXTUALS_METHOD = "0bc07d1794718e89"


def test_the_override_copies_textuals_method_as_it_is() -> None:
    source = inspect.getsource(CommandPalette._start_no_matches_countdown)
    assert hashlib.sha256(source.encode()).hexdigest()[:16] == TEXTUALS_METHOD
    assert "_start_no_matches_countdown" in vars(Palette)


async def _no_match_line(pilot: object, query: str) -> str:
    app = pilot.app  # type: ignore[attr-defined]
    await pilot.press(*query)  # type: ignore[attr-defined]
    commands = app.screen.query_one(CommandList)
    await wait_for(pilot, lambda: commands.option_count == 1  # type: ignore[arg-type]
                   and commands.get_option_at_index(0).id == Palette._NO_MATCHES)
    return str(commands.get_option_at_index(0).prompt.renderable)


async def test_the_palette_says_no_matches_in_german() -> None:
    set_interface_language("de")
    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, Palette))
        assert app.screen.query_one(CommandInput).placeholder == "Befehle suchen…"
        assert await _no_match_line(pilot, "qqqzzz") == "Keine Treffer"


async def test_the_theme_palette_says_no_matches_in_chinese() -> None:
    set_interface_language("zh_CN")
    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        app.action_change_theme()
        await wait_for(pilot, lambda: isinstance(app.screen, Palette))
        assert await _no_match_line(pilot, "qqqzzz") == "没有匹配项"


async def test_in_english_the_palette_says_what_textual_says() -> None:
    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, Palette))
        assert app.screen.query_one(CommandInput).placeholder == "Search for commands…"
        assert await _no_match_line(pilot, "qqqzzz") == "No matches found"


async def test_textuals_own_palette_commands_are_in_german_and_every_one_is_marked() -> None:
    from maic_tui.tui.app import TEXTUAL_COMMANDS

    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        english = list(app.get_system_commands(app.screen))
        # every command Textual adds (but those the app stands for) is one the catalogs know: a Textual that
        # words one otherwise, or adds one, fails here
        assert english and all({c.title, c.help} <= TEXTUAL_COMMANDS for c in english
                               if c.title not in ("Switch theme", "Quit")), english
        set_interface_language("de")
        german = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert german["Tasten"] == "Hilfe zum fokussierten Widget und eine Übersicht der verfügbaren Tasten zeigen"
        assert "Bildschirmfoto" in german and "Keys" not in german
