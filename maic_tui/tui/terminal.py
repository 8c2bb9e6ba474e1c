"""Textual's drivers, made to notice when the terminal goes away.

A closed terminal window, a dropped SSH connection or ``tmux kill-session`` hang up the terminal: reads return
nothing, writes fail. Textual's own Linux driver then loses its writer thread (its queue fills and the event loop
blocks on it for ever, so not even SIGTERM is handled) and its input thread spins at full speed on the empty
reads. A browser tab that closes leaves a served app reading an empty pipe the same way. These drivers instead
drop what cannot be written, and tell the app once (``TerminalClosed``), which then quits as Ctrl+Q does.
POSIX only, as Textual's Linux driver is: the app imports this module only where that driver is used.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import sys
import termios
import threading
from typing import IO, Any, cast

from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver

from maic_tui.tui.messages import TerminalClosed

WATCH_SECONDS = 0.25  # how often the local terminal is checked


class _Loss:
    """Tells the app, once, that its terminal is gone; safe to call from any thread."""

    def __init__(self, driver: Driver) -> None:
        self._driver = driver
        self._loop: asyncio.AbstractEventLoop | None = None
        self._told = threading.Event()

    def watch_from(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    @property
    def happened(self) -> bool:
        return self._told.is_set()

    def __call__(self) -> None:
        if self._told.is_set() or self._loop is None:
            return
        self._told.set()
        app = self._driver._app
        with contextlib.suppress(RuntimeError):  # the loop has already closed: the app is gone anyway
            asyncio.run_coroutine_threadsafe(app._post_message(TerminalClosed()), self._loop)


class _Output:
    """The terminal's output file: what fails to be written is dropped, and the loss is reported."""

    def __init__(self, file: IO[str], lost: _Loss) -> None:
        self._file = file
        self._lost = lost

    def write(self, text: str) -> int:
        if not self._lost.happened:
            try:
                self._file.write(text)
            except (OSError, ValueError):
                self._lost()
        return len(text)

    def flush(self) -> None:
        if not self._lost.happened:
            try:
                self._file.flush()
            except (OSError, ValueError):
                self._lost()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)


class LocalTerminal(LinuxDriver):
    """The Linux driver, with an output that never blocks the app and a watch on the terminal itself."""

    def __init__(self, app: Any, **options: Any) -> None:
        super().__init__(app, **options)
        self.lost = _Loss(self)
        output = _Output(cast("IO[str]", self._file), self.lost)
        self._file = output  # type: ignore[assignment]  # the writer thread writes here

    def start_application_mode(self) -> None:
        self.lost.watch_from(asyncio.get_running_loop())
        super().start_application_mode()
        if self.input_tty:
            threading.Thread(target=self._watch, name="terminal-watch", daemon=True).start()

    def _watch(self) -> None:
        """A hung-up terminal fails every request for its settings (EIO); a live one answers at once."""
        while not self.lost.happened:
            try:
                termios.tcgetattr(self.fileno)
            except termios.error:
                self.exit_event.set()  # the input thread stops reading the empty terminal
                self.lost()
                return
            if self.exit_event.wait(WATCH_SECONDS):
                return  # the app is stopping its input: it is leaving anyway


@functools.cache
def served_terminal() -> type[Driver]:
    """Our web driver, made when a browser tab first needs it: Textual's web driver is not imported in a terminal
    (the first frame comes sooner)."""
    from textual.drivers.web_driver import WebDriver

    class ServedTerminal(WebDriver):
        """The web driver, for a browser tab: an output pipe that closed, or an input pipe that ended (the server
        went away without telling), is the tab closing."""

        def __init__(self, app: Any, **options: Any) -> None:
            super().__init__(app, **options)
            self.lost = _Loss(self)
            write = self._write

            def guarded(data: bytes) -> int:
                if self.lost.happened:
                    return len(data)
                try:
                    return write(data)
                except OSError:
                    self.lost()
                    return len(data)

            self._write = guarded  # type: ignore[assignment]

        def start_application_mode(self) -> None:
            self.lost.watch_from(asyncio.get_running_loop())
            super().start_application_mode()

        def run_input_thread(self) -> None:
            super().run_input_thread()
            if not self.exit_event.is_set():  # the input ended without the app stopping it: nobody is there
                self.lost()

    ServedTerminal.__qualname__ = "ServedTerminal"
    return ServedTerminal


def guarded_driver(chosen: type[Driver]) -> type[Driver]:
    """Ours in place of Textual's Linux and web drivers; any other (Windows, headless) as it is."""
    if chosen is LinuxDriver:
        return LocalTerminal
    web = sys.modules.get("textual.drivers.web_driver")  # imported by Textual only when it chose the web driver
    if web is not None and chosen is web.WebDriver:
        return served_terminal()
    return chosen


def __getattr__(name: str) -> Any:
    """``ServedTerminal`` for ``TEXTUAL_DRIVER=maic_tui.tui.terminal:ServedTerminal`` (how ``serve`` starts a tab's
    app), made on first use."""
    if name == "ServedTerminal":
        return served_terminal()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
