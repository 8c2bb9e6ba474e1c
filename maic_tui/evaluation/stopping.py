"""Ctrl-C and SIGTERM stop ``maic-tui eval`` at once, with what was played (ARCHITECTURE.md, *Where to change what*).

The signal handler never raises: an exception raised by a handler inside an event loop can leave a task its
clean-up then waits for forever (seen: an eval hung on Ctrl-C). It only records the signal and cancels the run
being played, as ``asyncio.run``'s own handler would; the runs check the request between two runs and after each,
so a run that absorbs the cancellation still stops the eval, and its half-played outcome is not tallied.
``asyncio.run``'s handler is not used: a Ctrl-C landing while it installs itself surfaced as a bare
``CancelledError``."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

T = TypeVar("T")


class StopRequest:
    """Set by a stop signal; read by the runs."""

    def __init__(self) -> None:
        self.signum: int | None = None
        self._playing: asyncio.Task[Any] | None = None

    @property
    def exit_code(self) -> int | None:
        return None if self.signum is None else 128 + self.signum

    def request(self, signum: int, frame: object = None) -> None:
        """The signal handler: remember the first signal and cancel the run being played; a later one changes
        nothing (the run may be closing)."""
        if self.signum is not None:
            return
        self.signum = signum
        task = self._playing
        if task is not None and not task.done():
            task.cancel()
            task.get_loop().call_soon_threadsafe(lambda: None)  # wake a loop waiting in select

    def run(self, run: Coroutine[Any, Any, T]) -> T:
        """``asyncio.run(run)``, cut short by a stop signal (at once if one came before it started); raises
        KeyboardInterrupt once a stop was requested, however ``run`` ended (it may absorb its cancellation)."""
        try:
            return asyncio.run(self._playing_now(run))
        finally:
            self.check()

    async def _playing_now(self, run: Coroutine[Any, Any, T]) -> T:
        self._playing = asyncio.current_task()
        try:
            if self.signum is not None:
                run.close()
                raise asyncio.CancelledError
            return await run
        finally:
            self._playing = None

    def check(self) -> None:
        """Between runs and after each: raise KeyboardInterrupt once a stop was requested."""
        if self.signum is not None:
            raise KeyboardInterrupt(self.signum)


@contextmanager
def interruptible() -> Iterator[StopRequest]:
    """A stop request that Ctrl-C and SIGTERM set for as long as this lasts (a Ctrl-C the parent ignores, as a
    background job's, stays ignored); a KeyboardInterrupt that ends the runs is taken as the stop it is."""
    stop = StopRequest()
    previous: dict[int, Any] = {}
    for signum in (signal.SIGINT, signal.SIGTERM):
        if signum == signal.SIGINT and signal.getsignal(signum) is signal.SIG_IGN:
            continue
        try:
            previous[signum] = signal.signal(signum, stop.request)
        except ValueError:  # not the main thread: signals stay as they are
            break
    try:
        yield stop
    except KeyboardInterrupt:  # ours, or a Ctrl-C that came before the handler was in place
        if stop.signum is None:
            stop.signum = signal.SIGINT
    finally:
        for restored, handler in previous.items():
            signal.signal(restored, handler)
