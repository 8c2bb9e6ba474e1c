"""The director node (ARCHITECTURE.md, *One learner turn*): limits, single agent, trigger, model decision with guards,
one re-ask, the deterministic fallback, and the cue after the loop. Every step leaves a trace record
(ARCHITECTURE.md, *The event protocol*)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage
from langgraph.types import StreamWriter

from maic_tui.classroom.models import Classroom
from maic_tui.events import (
    CueUserData,
    CueUserEvent,
    EndReason,
    ErrorData,
    ErrorEvent,
    GuardVerdict,
    ThinkingData,
    ThinkingEvent,
    TokenUsage,
    TraceRecord,
)
from maic_tui.llm import DIRECTOR, CallContext, describe
from maic_tui.llm.client import Interrupted
from maic_tui.orchestration.context import EngineContext
from maic_tui.orchestration.decision import END, USER, Decision, DecisionError, ObjectScanner, parse_decision
from maic_tui.orchestration.guards import RoutingView, acceptable, check, fallback, teacher_first
from maic_tui.orchestration.prompts.director import director_messages, reask_message
from maic_tui.orchestration.state import DIRECTOR_TOKENS, REACTION_TURNS, TurnState
from maic_tui.orchestration.structured import director_schema
from maic_tui.text_safety import terminal_safe

DIRECTOR_CHAR_CAP = 4_000  # a decision is a few hundred characters; anything past this is a runaway model


class _Step:
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

    def _record(self, path: str, final: str, reason: str) -> list[TraceRecord]:
        raw = self.ctx.redact(terminal_safe("\n---\n".join(self.raw))) or None  # model text, shown in the trace
        record = TraceRecord(
            step=self.number, path=path, candidates=self.candidates, raw=raw,
            parsed=self.parsed, guards=self.guards, final=final, reason=reason, latency_ms=round(self.latency_ms, 2),
            usage=self.usage,
        )
        return [*self.state["trace"], record]

    def dispatch(self, agent_id: str, path: str, reason: str, instruction: str = "") -> dict[str, Any]:
        self.writer(ThinkingEvent(data=ThinkingData(stage="agent_loading", agent_id=agent_id)))
        return {"next_agent": agent_id, "instruction": instruction, "director_calls": self._calls(),
                "trace": self._record(path, agent_id, reason)}

    def end(self, end_reason: EndReason, path: str, final: str, reason: str,
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
        before = self.usage or TokenUsage()
        details = usage.get("input_token_details") or {}
        self.usage = TokenUsage(prompt=before.prompt + int(usage.get("input_tokens") or 0),
                                completion=before.completion + int(usage.get("output_tokens") or 0),
                                cached=before.cached + int(details.get("cache_read") or 0))

    def _calls(self) -> int:
        return self.state["director_calls"] + self.calls


async def director_node(ctx: EngineContext, state: TurnState, writer: StreamWriter) -> dict[str, Any]:
    step = _Step(ctx, state, writer)
    classroom, limits = ctx.classroom, ctx.classroom.limits
    turns, budget = state["turn_count"], ctx.settings.budget(limits)
    if ctx.client.interrupted:
        return step.end("interrupted", "limit", END, "interrupted by the learner")
    if ctx.client.turn_expired():
        message = f"the turn ran past its limit of {ctx.turn_budget_seconds():g} s; stopped"
        writer(ErrorEvent(data=ErrorData(message=message)))
        return step.end("error", "limit", END, message)
    if turns >= ctx.settings.agent_turns(limits):
        return step.end("agent_turn_limit", "limit", END, f"{turns} agent turns reached the limit")
    if state["director_calls"] >= budget:
        return step.end("director_budget", "limit", END, f"{budget} director calls used")
    if state["consecutive_empty"] >= 2:
        return step.end("consecutive_empty_turns", "limit", END, "two agent turns in a row said nothing")
    lesson = state["lesson"]
    if len(classroom.agents) == 1:
        only = classroom.agents[0].id
        if turns == 0:
            return step.dispatch(only, "single_agent", "the only agent", lesson.request if lesson else "")
        return step.end("cue_user", "single_agent", USER, "the only agent has spoken")
    if turns == 0 and state["first_agent"] and state["first_agent"] not in ctx.settings.muted:
        if lesson is not None:
            return step.dispatch(state["first_agent"], "trigger", f"opens the lesson's {lesson.kind}", lesson.request)
        return step.dispatch(state["first_agent"], "trigger", "named by the learner or the discussion trigger")
    if lesson is not None and lesson.kind == "react" and turns >= REACTION_TURNS:
        return step.end("director_end", "limit", END, "the teacher has reacted; the lesson goes on")
    return await _model_step(step, budget)


async def _model_step(step: _Step, budget: int) -> dict[str, Any]:
    ctx, state = step.ctx, step.state
    present = present_classroom(ctx)  # muted agents are neither offered nor accepted
    view = RoutingView(present, state["learner_message"], tuple(state["responses"]))
    rules = set(ctx.classroom.routing.rules)
    lesson = state["lesson"]
    if "teacher_first" in rules and lesson is None and (lead := teacher_first(view)) is not None:
        return step.dispatch(lead, "rule", f"a clear question: the {view.role_of(lead)} answers it first",
                             "Answer the learner's message.")
    choices = acceptable(view) if "guarded_choices" in rules else []
    if choices:
        step.candidates = choices  # what the model is offered: the trace shows it
    step.writer(ThinkingEvent(data=ThinkingData(stage="director")))
    # The conversation before this turn: the same for every decision of the turn, so a server's prompt cache
    # reuses all of it (this turn's learner message and contributions are given apart, after it).
    messages = director_messages(present, ctx.history[:ctx.turn_start], state["learner_message"],
                                 state["responses"], state["ledger"], ctx.board, step.number, lesson, choices)
    rejection = ""
    for attempt in (1, 2):
        if state["director_calls"] + step.calls >= budget:
            break
        if attempt == 2:
            messages = [*messages, AIMessage(step.raw[-1]), reask_message(rejection)]
        try:
            raw = await _ask(step, messages, attempt, choices)
        except Interrupted:
            return step.end("interrupted", "model", END, "interrupted by the learner")
        except Exception as exc:  # a failing server: one clear line, and the turn ends
            error = describe(exc, who="director", secrets=ctx.client.secrets)
            step.writer(ErrorEvent(data=ErrorData(message=error.message)))
            return step.end("error", "model", END, error.message)
        try:
            decision = parse_decision(raw, ctx.classroom.agents)
        except DecisionError as exc:
            rejection = str(exc)
            step.guards.append(GuardVerdict(rule="parse", passed=False, reason=rejection))
            continue
        step.parsed = decision.as_dict()
        verdicts = check(decision, view)
        if decision.next_agent in ctx.settings.muted:
            verdicts.insert(0, GuardVerdict(rule="muted", passed=False, reason=(
                f"{decision.next_agent} is muted by the learner; choose one of "
                f"{', '.join(a.id for a in present.agents)}, USER or END")))
        step.guards += verdicts
        failed = next((v for v in verdicts if not v.passed), None)
        if failed is None:
            return _apply(step, decision)
        rejection = failed.reason or failed.rule
    choice = fallback(view)
    reason = f"fallback after: {rejection}" if rejection else "fallback: no director calls left"
    if choice == USER:
        return step.end("cue_user", "fallback", USER, reason)
    return step.dispatch(choice, "fallback", reason, lesson.request if lesson else "Answer the learner's message.")


async def _ask(step: _Step, messages: list[BaseMessage], attempt: int, choices: list[str]) -> str:
    ctx, state = step.ctx, step.state
    schema = director_schema(choices or [*(a.id for a in ctx.classroom.agents), USER, END])
    call = CallContext(caller=DIRECTOR, learner_message=state["learner_message"],
                       spoken=tuple(r.agent_id for r in state["responses"]),
                       board_ids=tuple(e.id for e in ctx.board.elements), attempt=attempt, lesson=state["lesson"],
                       said=ctx.said(), scene=ctx.scene_index)
    step.calls += 1
    started = time.perf_counter()

    try:
        # A decision is one small JSON object: reading stops once it has closed, or at a cap, so a model
        # that never stops (servers may ignore the token limit) cannot hold the turn or fill memory.
        raw = await ctx.client.ask(DIRECTOR, "director_decision", schema, messages, tokens=DIRECTOR_TOKENS,
                                   chars=DIRECTOR_CHAR_CAP, until=_decision_closed, context=call,
                                   on_usage=step.count)
    finally:
        step.latency_ms += (time.perf_counter() - started) * 1000
    step.raw.append(raw)
    return raw


def _decision_closed() -> Callable[[str], bool]:
    """A test told each piece of an answer: has a whole decision arrived?"""
    scanner, seen = ObjectScanner(), []

    def closed(piece: str) -> bool:
        seen.append(piece)
        return scanner.feed(piece) and _decides("".join(seen))

    return closed


def _decides(text: str) -> bool:
    try:
        parse_decision(text, ())
    except DecisionError:
        return False
    return True


def _apply(step: _Step, decision: Decision) -> dict[str, Any]:
    if decision.next_agent == USER:
        return step.end("cue_user", "model", USER, "the director handed over to the learner",
                        decision.prompt, decision.options)
    if decision.next_agent == END:
        return step.end("director_end", "model", END, "the director ended the turn")
    if step.ctx.classroom.agent(decision.next_agent) is None:  # the unknown-agent guard is switched off
        return step.end("director_end", "model", END, f"unknown agent '{decision.next_agent}'")
    return step.dispatch(decision.next_agent, "model", "the director's choice", decision.instruction)



def present_classroom(ctx: EngineContext) -> Classroom:
    """The classroom as the director sees it: without the agents the learner muted."""
    muted = ctx.settings.muted
    if not muted:
        return ctx.classroom
    return ctx.classroom.model_copy(update={"agents": [a for a in ctx.classroom.agents if a.id not in muted]})
