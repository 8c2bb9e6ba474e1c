"""SIGINT, SIGTERM and SIGHUP stop a headless run the way Ctrl-C should: the running turn is interrupted and
closed (``done`` with endReason "interrupted", its records written), then the process exits 128 + signal.

Installed before anything slow is imported, so a signal that comes while the session is still being built
is not lost either: the first turn then ends at once, still with its ``done``. A second signal while the
turn closes changes nothing; nothing ever raises KeyboardInterrupt in the middle of closing.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from types import FrameType, TracebackType
from typing import Any

SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))


class StopSignals:
    def __init__(self) -> None:
        self.signum: int | None = None
        self._on_stop: Callable[[], None] | None = None
        self._previous: dict[int, Any] = {}

    @property
    def stopping(self) -> bool:
        return self.signum is not None

    @property
    def exit_code(self) -> int | None:
        return None if self.signum is None else 128 + self.signum

    def __enter__(self) -> StopSignals:
        for number in SIGNALS:
            try:
                self._previous[number] = signal.signal(number, self._handle)
            except ValueError:  # not the main thread: signals stay as they are
                break
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._on_stop = None
        if self.signum is not None:
            # We exit because of a signal: another one now must not kill us half-way out. Ignored, not
            # handled: the interpreter resets Python handlers to the default while it shuts down.
            for number in self._previous:
                signal.signal(number, signal.SIG_IGN)
            return
        for number, previous in self._previous.items():
            signal.signal(number, previous)
        self._previous.clear()

    def on_stop(self, loop: asyncio.AbstractEventLoop | None, callback: Callable[[], None] | None) -> None:
        """Call ``callback`` on ``loop`` at every stop signal from now on (None: only remember the signal)."""
        if loop is None or callback is None:
            self._on_stop = None
            return

        def stop() -> None:
            loop.call_soon_threadsafe(callback)

        self._on_stop = stop

    def _handle(self, number: int, frame: FrameType | None) -> None:
        if self.signum is None:
            self.signum = number
        if self._on_stop is not None:
            self._on_stop()
