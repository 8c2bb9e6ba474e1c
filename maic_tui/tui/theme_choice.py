"""Choosing the app's theme: the one requested (flag, then config file), one palette list of themes (ours
first, Textual's built-in ones marked), and the choice saved to the config file. Mixed into ``ClassroomApp``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.screen import Screen
from textual.theme import Theme

from maic_tui.settings import ConfigError, read_setting, save_setting
from maic_tui.tui.theming import DEFAULT_THEME

if TYPE_CHECKING:
    from textual.app import App

    from maic_tui.classroom.themes import ThemeSpec

    _Base = App[None]
else:
    _Base = object


class ThemeChoice(_Base):
    _theme_specs: dict[str, ThemeSpec]
    _requested_theme: str | None
    _config_error: str | None

    if TYPE_CHECKING:
        @property
        def is_open(self) -> bool: ...
        def _repaint_room(self) -> None: ...

    @property
    def theme_specs(self) -> dict[str, ThemeSpec]:
        return self._theme_specs

    def action_change_theme(self) -> None:
        """One theme list: ours first, Textual's built-in ones marked (the palette's only theme command)."""
        from textual.command import CommandPalette

        from maic_tui.tui.palette import ThemeCommands

        self.push_screen(CommandPalette(providers=[ThemeCommands], placeholder="Search for themes…"))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Textual's own, without its theme and quit entries: ours ("Switch theme", "Quit") stand for them; in a
        browser tab, without the screenshot either (it would be a file on the server)."""
        hidden = ("Theme", "Quit", "Screenshot") if self.is_web else ("Theme", "Quit")
        for command in super().get_system_commands(screen):
            if command.title not in hidden:
                yield command

    def _pick_theme(self) -> str:
        wanted = self._requested_theme
        if wanted is None:
            try:
                wanted = read_setting("theme")
            except ConfigError as exc:
                self._config_error = str(exc)
        if isinstance(wanted, str) and wanted in self.available_themes:
            return wanted
        if wanted:
            self._config_error = f"unknown theme '{wanted}', using {DEFAULT_THEME}"
        return DEFAULT_THEME

    def _theme_changed(self, theme: Theme) -> None:
        try:
            if not self.is_web:  # a browser tab's choice is its own, never the server's saved setting
                save_setting("theme", theme.name)
        except ConfigError as exc:
            self.notify(str(exc), severity="warning", markup=False)
        if self.is_open:
            self._repaint_room()
