"""What the graph's nodes share for a whole session: classroom, models, board, history, interruption."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from langchain_core.runnables import Runnable

from maic_tui.classroom.models import Classroom, Scene
from maic_tui.llm import ModelProvider
from maic_tui.llm.calls import bounded_call
from maic_tui.llm.openai_model import request_options
from maic_tui.llm.options import StructuredMode
from maic_tui.llm.structured_modes import ORDER, ModeMemory, next_mode, refuses_format, refuses_legacy_cap
from maic_tui.orchestration.history import HistoryEntry
from maic_tui.orchestration.state import TurnSettings
from maic_tui.redaction import redact, usable_secrets
from maic_tui.whiteboard import Whiteboard

T = TypeVar("T")


class Interrupted(Exception):
    """The learner interrupted the turn while a model call was running."""


@dataclass
class EngineContext:
    classroom: Classroom
    provider: ModelProvider
    board: Whiteboard = field(default_factory=Whiteboard)
    history: list[HistoryEntry] = field(default_factory=list)
    turn_start: int = 0  # where this turn's entries begin in ``history`` (its learner message)
    settings: TurnSettings = field(default_factory=TurnSettings)
    scene_index: int = 0
    interrupted: bool = False
    message_count: int = 0
    turn_deadline: float | None = None  # time.monotonic() by which the running turn must end
    modes: ModeMemory = field(default_factory=lambda: ModeMemory(None))  # structured output that worked
    _mode: StructuredMode | None = None  # the structured output mode in use (auto: found by trying)
    _remembered: bool = False
    _legacy_cap: bool = True  # also send the cap as max_tokens, until a server refuses that
    _call: asyncio.Task[Any] | None = None
    _models: dict[str, Runnable[Any, Any]] = field(default_factory=dict)

    @property
    def scene(self) -> Scene | None:
        scenes = self.classroom.scenes
        return scenes[self.scene_index] if 0 <= self.scene_index < len(scenes) else None

    @property
    def structured_mode(self) -> StructuredMode | None:
        """How a server's output is constrained (None for our offline models)."""
        if not self.provider.is_remote:
            return None
        if self._mode is None:
            setting = self.provider.options.structured
            if setting == "auto":
                remembered = self.modes.get(self.provider.options.base_url, self.provider.spec.target)
                self._mode = remembered or ORDER[0]
            else:
                self._mode = setting
        return self._mode

    def model(self, caller: str, schema_name: str, schema: dict[str, Any], cap: int = 1024) -> Runnable[Any, Any]:
        """The caller's chat model: for a server, constrained to ``schema`` in the structured output mode in
        use, and capped at ``cap`` tokens (never above the configured ``max_tokens``)."""
        mode = self.structured_mode
        key = f"{caller}:{schema_name}:{mode}:{cap}:{self._legacy_cap}"
        if key not in self._models:
            model: Runnable[Any, Any] = self.provider.for_caller(caller)
            if mode is not None:
                limit = min(cap, self.provider.options.max_tokens or cap)
                model = model.bind(**request_options(mode, schema_name, schema, limit, self._legacy_cap))
            self._models[key] = model
        return self._models[key]

    def _fall_back(self, exc: BaseException) -> bool:
        """A refused request that another form would pass: ``max_tokens`` (OpenAI's reasoning models reject it)
        is dropped; with ``auto``, the next response format is tried. True when the call should go again."""
        if self._legacy_cap and refuses_legacy_cap(exc):
            self._legacy_cap = False
            return True
        if self.provider.options.structured != "auto" or not refuses_format(exc) or self._mode is None:
            return False
        lower = next_mode(self._mode)
        if lower is None:
            return False
        self._mode = lower
        self.modes.put(self.provider.options.base_url, self.provider.spec.target, lower)
        return True

    def _found(self) -> None:
        if self.provider.options.structured == "auto" and self._mode is not None and not self._remembered:
            self._remembered = True
            self.modes.put(self.provider.options.base_url, self.provider.spec.target, self._mode)

    @property
    def secrets(self) -> tuple[str, ...]:
        return usable_secrets(self.provider.options.secrets())

    def redact(self, text: str) -> str:
        return redact(text, self.secrets)

    def turn_budget_seconds(self) -> float:
        """The bound on a whole turn: every director decision and agent turn taking its full timeout."""
        return self.provider.options.timeout * (2 * self.classroom.limits.max_agent_turns + 1)

    def turn_expired(self) -> bool:
        return self.turn_deadline is not None and time.monotonic() >= self.turn_deadline

    def said(self, limit: int = 30) -> tuple[tuple[str, str], ...]:
        """The conversation before this turn as our offline models read it: (agent id or "learner", text). The
        same for every call of a turn, so the demo's plan for the turn does not change as its agents speak."""
        before = self.history[:self.turn_start][-limit:]
        return tuple((entry.agent_id or entry.role, entry.text) for entry in before
                     if entry.role != "lesson" and entry.text)

    def next_message_id(self, agent_id: str) -> str:
        self.message_count += 1
        return f"m{self.message_count}-{agent_id}"

    def interrupt(self) -> None:
        """Stop the running model call now; the graph then closes the turn with endReason "interrupted"."""
        self.interrupted = True
        if self._call is not None and not self._call.done():
            self._call.cancel()

    async def call(self, attempt: Callable[[], Awaitable[T]], may_retry: Callable[[], bool] = lambda: True) -> T:
        """Run one model call, retries included, within its timeout and the turn's deadline, so that
        ``interrupt`` can cancel it without cancelling the graph."""
        if self.interrupted:
            raise Interrupted
        timeout = self.provider.options.timeout
        deadline = time.monotonic() + timeout
        expired = f"the model server timed out: no complete answer within {timeout:g} s (--timeout)"
        if self.turn_deadline is not None and self.turn_deadline < deadline:
            deadline = self.turn_deadline
            expired = f"the turn ran past its limit of {self.turn_budget_seconds():g} s"
        async def attempt_in_a_mode_the_server_takes() -> T:
            while True:
                try:
                    result = await attempt()
                except Exception as exc:
                    if self._fall_back(exc):
                        continue
                    raise
                self._found()
                return result

        work = bounded_call(attempt_in_a_mode_the_server_takes, deadline=deadline,
                            retries=self.provider.options.retries, may_retry=may_retry, expired=expired)
        task = asyncio.ensure_future(work)
        self._call = task
        try:
            return await task
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if self.interrupted and not (current is not None and current.cancelling()):
                raise Interrupted from None
            raise
        finally:
            self._call = None
