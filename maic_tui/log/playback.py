"""Plays a recorded log at its own pace: each record waits its original gap (divided by the speed, long
pauses shortened), and the player can be paused and resumed. Headless: the app shows its progress and
passes each record to the view, exactly as live events reach it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from maic_tui.i18n import _, ngettext

if TYPE_CHECKING:
    from maic_tui.log.records import Timed

LONGEST_PAUSE = 2.0  # seconds: the learner thinking for a minute is not worth watching


class LogPlayer:
    def __init__(self, records: list[Timed], speed: float) -> None:
        self.records = records
        self.speed = speed
        self.played = 0
        self._running = asyncio.Event()
        self._running.set()

    @property
    def paused(self) -> bool:
        return not self._running.is_set()

    @property
    def total(self) -> int:
        return len(self.records)

    def toggle_pause(self) -> None:
        if self.paused:
            self._running.set()
        else:
            self._running.clear()

    def progress(self) -> str:
        """Where the replay is, in the interface's language."""
        state = _("paused") if self.paused else _("playing") if self.played < self.total else _("finished")
        return ngettext("{state} · {played}/{total} records", "{state} · {played}/{total} records", self.total).format(
            state=state, played=self.played, total=self.total)  # one msgid: the English as it always was

    async def play(self, apply: Callable[[Timed], None]) -> None:
        """Every record, in order, waiting out each gap; a pause holds the clock (the gap goes on after)."""
        previous = self.records[0].t if self.records else 0.0
        for item in self.records:
            gap = min(LONGEST_PAUSE, max(0.0, item.t - previous) / self.speed)
            previous = item.t
            await self._wait(gap)
            await self._running.wait()
            apply(item)
            self.played += 1

    async def _wait(self, seconds: float) -> None:
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            if self.paused:
                paused_at = time.monotonic()
                await self._running.wait()
                deadline += time.monotonic() - paused_at
                continue
            await asyncio.sleep(min(left, 0.05))
