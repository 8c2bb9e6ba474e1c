"""The classroom app (ARCHITECTURE.md, *The app*): a thin shell around the room's screen. It holds the settings
(themes, and saving the chosen one), the screens, the palette's providers, and how the app ends (Ctrl+Q, SIGTERM,
SIGHUP, a terminal that goes away); the room (``screens/room.py``) holds the layout, the state and the handlers.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from maic_tui.i18n import N_, _
from maic_tui.live.assembly import SessionRecipe
from maic_tui.redaction import redact, usable_secrets
from maic_tui.settings import ConfigError, read_setting, save_setting
from maic_tui.text_safety import one_line
from maic_tui.tui.messages import TerminalClosed
from maic_tui.tui.screens.opening import NARROW_COLUMNS, OpeningScreen
from maic_tui.tui.theming import DEFAULT_THEME, register_themes

if TYPE_CHECKING:
    from textual.command import Provider
    from textual.driver import Driver
    from textual.notifications import SeverityLevel
    from textual.theme import Theme

    from maic_tui.classroom.models import Classroom
    from maic_tui.tui.screens.room import RoomScreen
    from maic_tui.tui.themes import ThemeSpec

Opener = Callable[[], "tuple[Classroom, SessionRecipe]"]  # loads and checks the classroom and settings


# Textual's own palette commands (App.get_system_commands), their titles and help, marked for the catalogs.
TEXTUAL_COMMANDS = frozenset((
    N_("Bell"), N_("Ring the bell"), N_("Keys"), N_("Hide the keys and widget help panel"),
    N_("Show help for the focused widget and a summary of available keys"), N_("Minimize"),
    N_("Minimize the widget and restore to normal size"), N_("Maximize"), N_("Maximize the focused widget"),
    N_("Screenshot"), N_("Save an SVG 'screenshot' of the current screen")))


def palette_commands() -> type[Provider]:
    """The palette's provider, imported when the palette first opens (textual.command loads slowly)."""
    from maic_tui.tui.palette import PaletteCommands

    return PaletteCommands


class ClassroomApp(App[None]):
    TITLE = "maic-tui"
    COMMANDS = App.COMMANDS | {palette_commands}
    # Textual declares this "ClassVar[...] | None", which mypy reads as an instance variable.
    HORIZONTAL_BREAKPOINTS: list[tuple[int, str]] | None = [(0, "-narrow"), (NARROW_COLUMNS, "-wide")]  # noqa: RUF012
    # Quitting works on every screen; the room's Ctrl+C copies, else stops, else quits (checked there, since an
    # app's priority binding would come before the room's).
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit", N_("Quit"), priority=True)]

    def __init__(self, classroom: Classroom | None = None, recipe: SessionRecipe | None = None,
                 theme: str | None = None, *, opener: Opener | None = None, opening: str = "") -> None:
        """Either a checked ``classroom``, or an ``opener`` run in a thread after the first frame.

        If the opener fails, the app exits with code 2 and ``startup_error`` holds the exception.
        """
        super().__init__()
        if (classroom is None) == (opener is None):
            raise TypeError("give either a classroom or an opener")
        self.stop_code: int | None = None  # 128 + the signal that ended the app, if one did
        self._opener = opener
        self._requested_theme = theme
        # Themes are registered and chosen before the first compose: choosing one later restyles everything.
        self._theme_specs, self._theme_errors = register_themes(self)
        self._config_error: str | None = None
        self.theme = self._pick_theme()
        self._opening = opening
        self._room: RoomScreen | None = None
        if classroom is not None:
            self.room.set_classroom(classroom, recipe or SessionRecipe())

    @property
    def room(self) -> RoomScreen:
        """The room's screen, made on first use: with a classroom file to open, after the first frame (the room's
        code is most of what the app loads)."""
        if self._room is None:
            from maic_tui.tui.screens.room import RoomScreen

            self._room = RoomScreen(self._theme_specs, self._opening)
        return self._room

    @property
    def startup_error(self) -> Exception | None:
        return self.room.startup_error

    @property
    def theme_specs(self) -> dict[str, ThemeSpec]:
        return self._theme_specs

    def get_default_screen(self) -> Screen[None]:
        if self._opener is not None:
            return OpeningScreen(self._opening)
        # Textual reads a screen's CSS_PATH when a screen is pushed, not for the default screen: the room is one here.
        self._load_screen_css(self.room)
        return self.room

    def on_mount(self) -> None:
        for error in [*self._theme_errors, self._config_error]:
            if error:
                self.notify(error, severity="warning", markup=False)
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self._catch_stop_signals()
        if self._opener is not None:
            self.call_after_refresh(self._enter_room, self._opener)

    async def _enter_room(self, opener: Opener) -> None:
        """After the first frame: the classroom file is checked in a thread while the room's code loads; the room
        (still saying it opens the classroom) goes over the opening screen, for good (nothing pops it)."""
        checked: Future[tuple[Classroom, SessionRecipe]] = Future()

        def check() -> None:
            try:
                checked.set_result(opener())
            except Exception as exc:  # the room's worker raises it, and the app exits with its lines
                checked.set_exception(exc)

        threading.Thread(target=check, name="open-classroom", daemon=True).start()
        await self.push_screen(self.room)
        self.room.open_with(checked.result)

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Every notification is plain text (messages quote model output, file names and classroom text), and never
        shows a configured secret (a server's error may echo the key)."""
        options = self._room.recipe.options if self._room is not None else None
        secrets = usable_secrets(options.secrets()) if options is not None else ()
        super().notify(one_line(redact(message, secrets), 500), title=one_line(redact(title, secrets), 120),
                       severity=severity, timeout=timeout, markup=False)

    # --- themes ------------------------------------------------------------------------------------

    def action_change_theme(self) -> None:
        """One theme list: ours first, Textual's built-in ones marked (the palette's only theme command)."""
        from maic_tui.tui.palette import Palette, ThemeCommands

        self.push_screen(Palette(providers=[ThemeCommands], placeholder=_("Search for themes…")))

    def action_command_palette(self) -> None:
        """Textual's palette (Ctrl+P), its own words in the interface's language."""
        from maic_tui.tui.palette import Palette

        if self.use_command_palette and not isinstance(self.screen, Palette):
            self.push_screen(Palette(id="--command-palette"))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Textual's own, without its theme and quit entries: ours ("Switch theme", "Quit") stand for them; in a
        browser tab, without the screenshot either (it would be a file on the server)."""
        hidden = ("Theme", "Quit", "Screenshot") if self.is_web else ("Theme", "Quit")
        for command in super().get_system_commands(screen):
            if command.title not in hidden:  # the rest in the interface's language (Textual words them in English)
                yield command._replace(title=_(command.title) if command.title in TEXTUAL_COMMANDS else command.title,
                                       help=_(command.help) if command.help in TEXTUAL_COMMANDS else command.help)

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
            self._config_error = _("unknown theme '{name}', using {default}").format(name=wanted, default=DEFAULT_THEME)
        return DEFAULT_THEME

    def _theme_changed(self, theme: Theme) -> None:
        try:
            if not self.is_web:  # a browser tab's choice is its own, never the server's saved setting
                save_setting("theme", theme.name)
        except ConfigError as exc:
            self.notify(str(exc), severity="warning", markup=False)
        self.room.repaint()

    # --- the interface's language -----------------------------------------------------------------

    def action_language(self, code: str) -> None:
        """The palette's *Language*: the room speaks it from now on; saved like the theme (not a browser tab's)."""
        from maic_tui.i18n import LANGUAGES, set_interface_language

        set_interface_language(code)
        try:
            if not self.is_web:
                save_setting("interface.language", code)
        except ConfigError as exc:
            self.notify(str(exc), severity="warning", markup=False)
        self.room.repaint(relabel=True)
        self.room.refresh_bindings()  # the footer's words
        self.notify(_("Interface language: {language}").format(language=LANGUAGES.get(code, code)), timeout=3)

    # --- leaving -----------------------------------------------------------------------------------

    async def action_quit(self) -> None:
        """Quitting mid-turn first ends the turn as an interruption, so its log closes like any other."""
        await self.room.close_turn()
        self.exit(return_code=self.stop_code or 0)

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        """The palette's *Screenshot*: to the Downloads folder, or, on a machine without one, to the data
        directory's ``screenshots`` folder (Textual says where once it is written)."""
        if path is None and not self.is_web:
            path = str(screenshot_folder(self.room.recipe.data_dir))
        self.deliver_screenshot(filename, path)

    def close_session(self) -> None:
        self.room.close_session()

    def _catch_stop_signals(self) -> None:
        """SIGTERM and SIGHUP quit as Ctrl+Q does: the turn is interrupted and its log closed, the terminal
        restored, and the exit status says which signal it was (143, 129)."""
        if self.is_headless:
            return
        loop = asyncio.get_running_loop()
        for number in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(number, self._stop_signal, number)

    def _stop_signal(self, number: int) -> None:
        self.stop_code = 128 + number
        self.call_next(self.action_quit)

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for this terminal, or ours that notices when the terminal (or browser tab) goes."""
        chosen = super().get_driver_class()
        if sys.platform == "win32":
            return chosen
        from maic_tui.tui.terminal import guarded_driver

        return guarded_driver(chosen)

    async def on_terminal_closed(self, _: TerminalClosed) -> None:
        """Nobody can see or type any more: leave as Ctrl+Q does (the turn closed, its records written), with
        the exit status of a hang-up."""
        self.stop_code = self.stop_code or 128 + signal.SIGHUP
        await self.action_quit()


def screenshot_folder(data_dir: Path | None) -> Path:
    """The user's Downloads folder when there is one, else ``screenshots`` in the data directory (made here)."""
    from platformdirs import user_downloads_dir

    from maic_tui import paths

    downloads = Path(user_downloads_dir())
    if downloads.is_dir():
        return downloads
    folder = (data_dir or paths.data_dir()) / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
