"""The class warmed while it opens (ARCHITECTURE.md, *Warming the class*): on a model server, the part every prompt of
the class opens with (``prompts/opening.py``'s ``shared_opening``: the class, its agents, every action, the rules, the
slide shown now) is sent ahead, in a request of one token of output, while the opening screen draws and the lesson's
scripted lines play, so the learner's first question finds it in the server's prompt cache instead of waiting for a
small server to read some two thousand tokens. After each turn the part is sent again with the conversation so far
(``shared_so_far``): the last call of a turn is the director's, which goes on from the last answer rather than
after it in the transcript, so the next question would otherwise read that answer again while the learner waits.

On a server whose structured-output mode is not known yet, the mode is found first (``ModelClient.settle_mode``), so
the first question does not have to find it out. It never waits for anything nor holds anything up: a turn or
another model call under way when it would be sent already makes the server read that part, so it is then not sent
at all. A server that refuses it or fails costs a note (``notes``), nothing the learner sees; quitting cancels it. A
scene change sends it again when the part changed.
"""

from __future__ import annotations

import asyncio
import time

from langchain_core.messages import HumanMessage, SystemMessage

from maic_tui.llm import DIRECTOR, describe
from maic_tui.orchestration.graph.engine_context import EngineContext
from maic_tui.orchestration.prompts.shared_part import shared_so_far

WARM_REQUEST = "Say OK."  # what the warm-up asks after the shared part: its answer (one token) is thrown away
FAILED = "warm-up failed"  # how its note opens when the server refused it or failed


class Warmer:
    """At most one warm-up under way; the shared part it last sent, so the same part is not sent twice."""

    def __init__(self, ctx: EngineContext) -> None:
        self.ctx = ctx
        self.notes: list[str] = []  # what became of each warm-up, one line each (a trace, never shown as an error)
        self.task: asyncio.Task[None] | None = None
        # off where the server has other callers this session cannot see (a simulated learner's model, sessions
        # played at once): on a one-slot server a warm-up sent during their answer would cut it short
        self.enabled = True
        self._sent: str | None = None

    def warm(self) -> bool:
        """Send the shared part ahead if it is not the one sent last; True when a warm-up was started. Only on a model
        server, and only from a running event loop (a caller outside one warms once it runs)."""
        ctx = self.ctx
        if not (self.enabled and ctx.client.provider.is_remote):
            return False
        opening = shared_so_far(ctx.classroom, ctx.history, ctx.scene)
        if opening == self._sent:
            return False
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return False
        self.cancel()  # a warm-up of the part before a scene change is of no use any more
        self._sent = opening
        self.task = asyncio.ensure_future(self._send(opening))
        return True

    async def _send(self, opening: str) -> None:
        client = self.ctx.client
        await asyncio.sleep(0)  # what starts in the same moment (the first turn) goes first
        if client.busy:
            self.notes.append("warm-up not sent: the class is calling the model, which reads the shared part itself")
            return
        started = time.perf_counter()
        try:
            await client.settle_mode(DIRECTOR)
            if client.busy:
                self.notes.append("warm-up not sent: the class began calling the model while its mode was found")
                return
            await client.warm(DIRECTOR, [SystemMessage(opening), HumanMessage(WARM_REQUEST)])
        except Exception as exc:  # a server that refuses or fails it: the first question reads it, as without
            self.notes.append(describe(exc, who=FAILED, secrets=client.secrets).message)
            return
        self.notes.append(f"warm-up: the shared part ({len(opening)} characters) read by the server in "
                          f"{time.perf_counter() - started:.2f} s")

    def cancel(self) -> None:
        """Quitting (or a newer part to send): the warm-up under way stops."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
            self.notes.append("warm-up cancelled")
        self.task = None
