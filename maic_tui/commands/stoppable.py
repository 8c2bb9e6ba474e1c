"""A model job run to its end or until a stop signal (Ctrl-C, SIGTERM): the call in flight is cancelled and the
caller sees ``asyncio.CancelledError``, so it can keep what was made and write nothing half-done."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from maic_tui.stop_signals import StopSignals

T = TypeVar("T")


def run_until_stopped(stop: StopSignals, job: Callable[[], Awaitable[T]]) -> T:
    async def guarded() -> T:
        task = asyncio.current_task()
        assert task is not None

        def cancel() -> None:
            task.cancel()

        stop.on_stop(asyncio.get_running_loop(), cancel)
        if stop.stopping:  # it came before the handler was in place
            cancel()
        try:
            return await job()
        finally:
            stop.on_stop(None, None)

    return asyncio.run(guarded())
