"""An agent's answer as the model writes it: its pieces of speech and actions in order, filled by a task of its own
while the agent node shows them, so the model can finish long before the learner has read it (ARCHITECTURE.md,
*Deciding ahead*)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from maic_tui.orchestration.answers.items import Item, TextDelta
from maic_tui.orchestration.graph.conversation import WrittenBy

_WORD = re.compile(r"\s*\S+\s*")


def words(text: str) -> list[str]:
    """``text`` cut after each word (with the spaces around it), so it can be shown a word at a time."""
    return _WORD.findall(text) or [text]


@dataclass
class Answer:
    agent_id: str
    by_word: bool = False  # speech is kept a word a piece (it is shown at a pace)
    pieces: list[Item] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # about the answer as a whole (cut at a cap)
    received: int = 0  # characters of model output so far
    written_by: WrittenBy | None = None  # the call that wrote it whole (none for an answer cut short or failed)
    task: asyncio.Future[None] | None = None
    _grown: asyncio.Event = field(default_factory=asyncio.Event)

    def start(self, writing: Callable[[], Awaitable[None]]) -> Answer:
        """Write the answer in a task of its own; ``writing`` makes the model call only once that task runs (a task
        cancelled before it ran, by an interruption, leaves no call behind that was made and never awaited)."""
        self.task = asyncio.ensure_future(self._written(writing))
        self.task.add_done_callback(_seen)  # a failure is raised where the answer is shown, or nowhere (cancelled)
        return self

    async def _written(self, writing: Callable[[], Awaitable[None]]) -> None:
        try:
            await writing()
        finally:
            self._grown.set()

    def add(self, items: list[Item]) -> None:
        for item in items:
            if self.by_word and isinstance(item, TextDelta):
                self.pieces += [TextDelta(word) for word in words(item.text)]
            else:
                self.pieces.append(item)
        if items:
            self._grown.set()

    @property
    def done(self) -> bool:
        return self.task is not None and self.task.done()

    def failure(self) -> BaseException | None:
        """Why the model did not finish the answer, once it stopped (None: it did, or it is still writing)."""
        if not self.done or self.task is None or self.task.cancelled():
            return None
        return self.task.exception()

    async def grown(self, at_most: float) -> None:
        """Until more has been written or the answer is done, for at most ``at_most`` seconds."""
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for drops a cancel that comes as the wait ends (a
        # Ctrl-C would be lost), and this wait ends at every word
        try:
            async with asyncio.timeout(at_most):
                await self._grown.wait()
        except TimeoutError:
            return
        self._grown.clear()

    def cancel(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()


def _seen(task: asyncio.Future[None]) -> None:
    """An answer written ahead and never shown (the learner interrupted) must not log a failure nobody awaited."""
    if not task.cancelled():
        task.exception()
