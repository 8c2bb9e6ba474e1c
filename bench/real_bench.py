"""Against the real llama.cpp server: the share of a learner turn's wall time spent outside the model.

Model time is the time spent waiting for the model's stream (each chunk awaited); everything else —
graph, prompts, parsing, board, events — is outside it. Target: under 5 %.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

from bench.llama_server import llama_server
from maic_tui.classroom import load_classroom
from maic_tui.events import ErrorEvent
from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from maic_tui.llm.client import ModelClient
from maic_tui.orchestration.routing.mentions import addressed

MESSAGES = ["What is a derivative?", "How do I differentiate x cubed?"]


class _Timed:
    """Wraps a model's ``astream`` and adds up the time spent waiting for it."""

    def __init__(self, model: Any, clock: list[float]) -> None:
        self.model, self.clock = model, clock

    async def astream(self, messages: Any, **kwargs: Any) -> AsyncIterator[Any]:
        stream = self.model.astream(messages, **kwargs).__aiter__()
        while True:
            started = time.perf_counter()
            try:
                chunk = await stream.__anext__()
            except StopAsyncIteration:
                self.clock[0] += time.perf_counter() - started
                return
            self.clock[0] += time.perf_counter() - started
            yield chunk


async def _turns(url: str) -> tuple[float, float, int]:
    clock = [0.0]
    original = ModelClient.model

    def timed(self: ModelClient, caller: str, name: str, schema: dict, cap: int = 1024,
              grammar_schema: dict | None = None) -> Any:
        return _Timed(original(self, caller, name, schema, cap, grammar_schema), clock)

    ModelClient.model = timed  # type: ignore[method-assign]
    try:
        session = ClassroomSession(load_classroom("derivatives"), "openai:smollm2",
                                   ModelOptions(base_url=url, max_tokens=200, retries=0, timeout=120, pace=0.0))
        started = time.perf_counter()
        events = 0
        for message in MESSAGES:
            async for event in session.turn(addressed(session.classroom.agents, message)):
                events += 1
                if isinstance(event, ErrorEvent):  # a turn that failed measures nothing: say so
                    raise RuntimeError(f"the turn failed: {event.data.message}")
        return time.perf_counter() - started, clock[0], events
    finally:
        ModelClient.model = original  # type: ignore[method-assign]


def main() -> None:
    with llama_server() as url:
        wall, model, events = asyncio.run(_turns(url))
    outside = wall - model
    print(f"real server (llama.cpp, SmolLM2-135M), {len(MESSAGES)} learner turns of 'derivatives', {events} events:")
    print(f"  wall {wall:7.2f} s   in the model {model:7.2f} s   outside {outside * 1000:8.1f} ms "
          f"= {outside / wall:6.2%} of the turn   (target < 5 %)")
