"""One director step (ARCHITECTURE.md, *One learner turn*): what it decided (a ``Choice``), taking it (an agent
dispatched, or the turn ended with the learner cued), and its trace record."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from langgraph.types import StreamWriter

from maic_tui.events import (
    CueUserData,
    CueUserEvent,
    DecisionAttempt,
    EndReason,
    GuardVerdict,
    PromptMessage,
    ThinkingData,
    ThinkingEvent,
    TokenUsage,
    TracePath,
    TraceRecord,
)
from maic_tui.orchestration.graph.conversation import WrittenBy
from maic_tui.orchestration.graph.engine_context import EngineContext
from maic_tui.orchestration.graph.state import TurnState
from maic_tui.orchestration.routing.director_answer import END, USER
from maic_tui.text_safety import terminal_safe


@dataclass(frozen=True, slots=True)
class Choice:
    """What a step decided, before it is taken: an agent id, USER or END; by which path; why."""

    path: TracePath
    final: str
    reason: str
    instruction: str = ""
    prompt: str | None = None  # with USER: the question the learner is cued with, and its options
    options: tuple[str, ...] = ()
    end_reason: EndReason | None = None  # how the turn ends, when not the plain cue_user / director_end
    written_by: WrittenBy | None = None  # the model call that wrote the decision: the agent's call goes on from it


class DirectorStep:
    """Builds the state update and the trace record of one director step."""

    def __init__(self, ctx: EngineContext, state: TurnState, writer: StreamWriter) -> None:
        self.ctx, self.state, self.writer = ctx, state, writer
        self.number = len(state["trace"]) + 1
        self.candidates = [a.id for a in ctx.classroom.agents]
        self.calls = 0
        self.raw: list[str] = []
        self.parsed: dict[str, Any] | None = None
        self.guards: list[GuardVerdict] = []
        self.latency_ms = 0.0
        self.usage: TokenUsage | None = None
        self.prompt: list[PromptMessage] = []
        self.attempts: list[DecisionAttempt] = []
        self.proposal: str | None = None  # in step mode: what the director proposed, when the tester asked
        self.started = time.perf_counter()  # the learner waits from here (a decision made ahead says otherwise)

    def take(self, choice: Choice) -> dict[str, Any]:
        if choice.final == USER:
            return self.end(choice.end_reason or "cue_user", choice.path, USER, choice.reason, choice.prompt,
                            choice.options)
        if choice.final == END:
            return self.end(choice.end_reason or "director_end", choice.path, END, choice.reason)
        return self.dispatch(choice.final, choice.path, choice.reason, choice.instruction, choice.written_by)

    def _record(self, path: TracePath, final: str, reason: str) -> list[TraceRecord]:
        raw = self.ctx.redact(terminal_safe("\n---\n".join(self.raw))) or None  # model text, shown in the trace
        record = TraceRecord(
            step=self.number, path=path, candidates=self.candidates, raw=raw,
            parsed=self.parsed, guards=self.guards, final=final, reason=reason, latency_ms=round(self.latency_ms, 2),
            waited_ms=round((time.perf_counter() - self.started) * 1000, 2),
            usage=self.usage, prompt=[self._redacted(m) for m in self.prompt],
            attempts=[a.model_copy(update={"raw": self._redacted_text(a.raw)}) for a in self.attempts],
            proposal=self.proposal,
        )
        return [*self.state["trace"], record]

    def _redacted_text(self, text: str) -> str:
        return self.ctx.redact(terminal_safe(text))

    def _redacted(self, message: PromptMessage) -> PromptMessage:
        return message.model_copy(update={"content": self._redacted_text(message.content)})

    def attempt(self, **changes: Any) -> None:
        """Fill in the current attempt (the last ask) as it is read and checked."""
        self.attempts[-1] = self.attempts[-1].model_copy(update=changes)

    def dispatch(self, agent_id: str, path: TracePath, reason: str, instruction: str = "",
                 decided_by: WrittenBy | None = None) -> dict[str, Any]:
        self.writer(ThinkingEvent(data=ThinkingData(stage="agent_loading", agent_id=agent_id)))
        return {"next_agent": agent_id, "instruction": instruction, "decided_by": decided_by,
                "director_calls": self._calls(), "trace": self._record(path, agent_id, reason)}

    def end(self, end_reason: EndReason, path: TracePath, final: str, reason: str,
            prompt: str | None = None, options: tuple[str, ...] = ()) -> dict[str, Any]:
        lesson = self.state["lesson"]
        if final == USER and lesson is not None and not lesson.hands_over:
            # A slide presented or an answer reacted to: the lesson goes on by itself, nobody waits for the learner.
            end_reason, final, reason = "director_end", END, f"{reason}; the lesson goes on"
        update: dict[str, Any] = {"next_agent": None, "end_reason": end_reason, "director_calls": self._calls(),
                                  "trace": self._record(path, final, reason)}
        hand_over = final == USER or (
            # After the loop: agents spoke and nobody handed back, so the learner gets the floor.
            self.state["had_content"] and end_reason not in ("interrupted", "error")
            and (lesson is None or lesson.hands_over)
        )
        if hand_over and not self.state["cue_received"]:
            last = self.state["responses"][-1].agent_id if self.state["responses"] else None
            cue = CueUserData(from_agent_id=last, prompt=prompt, options=list(options) or None)
            self.writer(CueUserEvent(data=cue))
            update["cue_received"] = True
        return update

    def count(self, usage: Any) -> None:
        """Add a call's token usage, as langchain reports it (``usage_metadata``)."""
        details = usage.get("input_token_details") or {}
        call = TokenUsage(prompt=int(usage.get("input_tokens") or 0), completion=int(usage.get("output_tokens") or 0),
                          cached=int(details.get("cache_read") or 0))
        before = self.usage or TokenUsage()
        self.usage = TokenUsage(prompt=before.prompt + call.prompt, completion=before.completion + call.completion,
                                cached=before.cached + call.cached)
        if self.attempts:
            self.attempt(usage=call)

    def _calls(self) -> int:
        return self.state["director_calls"] + self.calls


