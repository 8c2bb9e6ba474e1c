"""The director node (ARCHITECTURE.md, *One learner turn*): limits, single agent, trigger, model decision with guards,
one re-ask, the deterministic fallback, and the cue after the loop. Every step leaves a trace record
(ARCHITECTURE.md, *The event protocol*)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

from langchain_core.messages import AIMessage, BaseMessage
from langgraph.types import StreamWriter

from maic_tui.classroom.models import Classroom
from maic_tui.events import (
    DecisionAttempt,
    ErrorData,
    ErrorEvent,
    GuardVerdict,
    PromptMessage,
    ThinkingData,
    ThinkingEvent,
)
from maic_tui.llm import DIRECTOR, CallContext, describe
from maic_tui.llm.client import Interrupted
from maic_tui.llm.errors import TURN_STOPPED
from maic_tui.orchestration.graph.conversation import WrittenBy
from maic_tui.orchestration.graph.engine_context import EngineContext
from maic_tui.orchestration.graph.state import DIRECTOR_TOKENS, REACTION_TURNS, TurnState
from maic_tui.orchestration.prompts.director_request import director_messages, reask_message
from maic_tui.orchestration.prompts.shared_part import scene_live
from maic_tui.orchestration.routing.director_answer import (
    END,
    USER,
    Decision,
    DecisionError,
    ObjectScanner,
    ends_the_turn,
    parse_decision,
)
from maic_tui.orchestration.routing.director_schema import director_schema
from maic_tui.orchestration.routing.director_step import Choice, DirectorStep
from maic_tui.orchestration.routing.guards import (
    RoutingView,
    acceptable,
    check,
    discussion_round,
    fallback,
    kind_bars,
    kind_rule,
    teacher_first,
)
from maic_tui.orchestration.routing.manual import manual_choice

_ROLES: dict[str, Literal["system", "user", "assistant"]] = {"system": "system", "human": "user", "ai": "assistant"}
ANSWER = "Answer the learner's message."
SUM_UP = "Sum up the students' points fairly and ask the learner where they stand."
DIRECTOR_CHAR_CAP = 4_000  # a decision is a few hundred characters; anything past this is a runaway model


async def director_node(ctx: EngineContext, state: TurnState, writer: StreamWriter) -> dict[str, Any]:
    step = DirectorStep(ctx, state, writer)
    classroom, limits = ctx.classroom, ctx.classroom.limits
    turns, budget = state["turn_count"], ctx.settings.budget(limits)
    if ctx.client.interrupted:
        return step.end("interrupted", "limit", END, "interrupted by the learner")
    if ctx.client.turn_expired():
        message = TURN_STOPPED.format(seconds=f"{ctx.turn_budget_seconds():g}")  # English: shown translated
        writer(ErrorEvent(data=ErrorData(message=message)))
        return step.end("error", "limit", END, message)
    if ctx.hand_raised and turns > 0:
        return step.end("cue_user", "limit", USER, "the learner sent another message: it is answered next")
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
    if lesson is not None and lesson.kind in ("react", "worked") and turns >= REACTION_TURNS:
        return step.end("director_end", "limit", END, "the teacher has reacted; the lesson goes on")
    if ctx.picker is None:
        return step.take(await _decide(step, budget))
    view = routing_view(ctx, state)
    instruction = lesson.request if lesson else ANSWER
    choice = await manual_choice(step, view, ctx.picker, lambda: _decide(step, budget), instruction)
    if ctx.client.interrupted:  # Esc while the class waited for the pick
        return step.end("interrupted", "manual", END, "interrupted by the learner")
    return step.take(choice)


async def _decide(step: DirectorStep, budget: int) -> Choice:
    """The decision the rules, the model (checked by the guards, asked again once) or the fallback take."""
    ctx, state = step.ctx, step.state
    view = routing_view(ctx, state)
    present = view.classroom
    rules = set(ctx.classroom.routing.rules)
    lesson = state["lesson"]
    scene_turn = lesson is not None and lesson.kind == "scene"
    if lesson is not None and scene_turn and (decided := kind_rule(ctx.scene, view, lesson)) is not None:
        name, rule = decided
        return Choice("rule", rule.choice, f"{name}: {rule.reason}", rule.instruction)
    barred = kind_bars(ctx.scene, view, lesson) if lesson is not None and scene_turn else {}
    if "teacher_first" in rules and lesson is None and (lead := teacher_first(view)) is not None:
        return Choice("rule", lead, f"a clear question: the {view.role_of(lead)} answers it first", ANSWER)
    if "discussion_rounds" in rules and lesson is None and (turn := discussion_round(view)) is not None:
        if turn == USER:
            return Choice("rule", USER, "a discussion round: the students were answered; the learner has the floor")
        return Choice("rule", turn, f"a discussion round: two students spoke; the {view.role_of(turn)} sums up",
                      SUM_UP)
    choices = acceptable(view) if "guarded_choices" in rules else []
    if barred:  # the director model is offered only the agents the kind's rules leave it
        choices = [c for c in (choices or [*(a.id for a in present.agents), USER, END]) if c not in barred]
    if choices:
        step.candidates = choices  # what the model is offered: the trace shows it
    step.writer(ThinkingEvent(data=ThinkingData(stage="director")))
    messages = director_messages(ctx.classroom, ctx.history, state["responses"], ctx.board, step.number, lesson,
                                 choices, ctx.scene, sorted({*ctx.settings.muted, *barred}),
                                 scene_live(ctx.scene, ctx.scene_states.of(ctx.scene)))
    step.prompt = [PromptMessage(role=_ROLES[m.type], content=str(m.content)) for m in messages]
    rejection = ""
    for attempt in (1, 2):
        if state["director_calls"] + step.calls >= budget:
            break
        if attempt == 2:
            messages = [*messages, AIMessage(step.raw[-1]), reask_message(rejection)]
        try:
            raw = await _ask(step, messages, attempt, choices)
        except Interrupted:
            return Choice("model", END, "interrupted by the learner", end_reason="interrupted")
        except Exception as exc:  # a failing server: one clear line, and the turn ends
            error = describe(exc, who="director", secrets=ctx.client.secrets)
            step.writer(ErrorEvent(data=ErrorData(message=error.message)))
            return Choice("model", END, error.message, end_reason="error")
        try:
            decision = parse_decision(raw, ctx.classroom.agents)
        except DecisionError as exc:
            rejection = str(exc)
            verdict = GuardVerdict(rule="parse", passed=False, reason=rejection)
            step.guards.append(verdict)
            step.attempt(guards=[verdict])
            continue
        step.parsed = decision.as_dict()
        verdicts = check(decision, view)
        if decision.next_agent in ctx.settings.muted:
            verdicts.insert(0, GuardVerdict(rule="muted", passed=False, reason=(
                f"{decision.next_agent} is muted by the learner; choose one of "
                f"{', '.join(a.id for a in present.agents)}, USER or END")))
        if decision.next_agent in barred:
            rule_name, why = barred[decision.next_agent]
            verdicts.insert(0, GuardVerdict(rule=rule_name, passed=False, reason=why))
        step.guards += verdicts
        step.attempt(parsed=step.parsed, guards=verdicts)
        failed = next((v for v in verdicts if not v.passed), None)
        if failed is None:
            # a server's prompt cache holds this call and the decision: the agent's call goes on from it
            written = WrittenBy(tuple(messages), step.raw[-1]) if ctx.client.provider.is_remote else None
            return _chosen(step, decision, rejection, written)
        rejection = failed.reason or failed.rule
    reason = f"fallback after: {rejection}" if rejection else "fallback: no director calls left"
    fallen = fallback(view)
    return Choice("fallback", USER if fallen in barred else fallen, reason, lesson.request if lesson else ANSWER)


async def _ask(step: DirectorStep, messages: list[BaseMessage], attempt: int, choices: list[str]) -> str:
    ctx, state = step.ctx, step.state
    schema = director_schema(choices or [*(a.id for a in ctx.classroom.agents), USER, END])
    call = CallContext(caller=DIRECTOR, learner_message=state["learner_message"],
                       spoken=tuple(r.agent_id for r in state["responses"]),
                       board_ids=tuple(e.id for e in ctx.board.elements), attempt=attempt, lesson=state["lesson"],
                       said=ctx.said(), scene=ctx.scene_index)
    step.calls += 1
    step.attempts.append(DecisionAttempt())
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
    step.attempt(raw=raw)
    return raw


def _decision_closed() -> Callable[[str], bool]:
    """A test told each piece of an answer: has a whole decision arrived?"""
    scanner, seen = ObjectScanner(), []

    def closed(piece: str) -> bool:
        seen.append(piece)
        whole = scanner.feed(piece)  # the scanner reads every piece, whatever the answer
        text = "".join(seen)
        return (whole and _decides(text)) or ends_the_turn(text)

    return closed


def _decides(text: str) -> bool:
    try:
        parse_decision(text, ())
    except DecisionError:
        return False
    return True


def _chosen(step: DirectorStep, decision: Decision, rejected: str = "", written_by: WrittenBy | None = None) -> Choice:
    """The model's decision, once the guards passed it; ``rejected``: why its first answer was not taken;
    ``written_by``: the call that wrote it."""
    after = f" (asked again after: {rejected})" if rejected else ""
    if decision.next_agent == USER:
        return Choice("model", USER, f"the director handed over to the learner{after}", prompt=decision.prompt,
                      options=decision.options)
    if decision.next_agent == END:
        return Choice("model", END, f"the director ended the turn{after}")
    if step.ctx.classroom.agent(decision.next_agent) is None:  # the unknown-agent guard is switched off
        return Choice("model", END, f"unknown agent '{decision.next_agent}'")
    return Choice("model", decision.next_agent, f"the director's choice{after}", decision.instruction,
                  written_by=written_by)



def routing_view(ctx: EngineContext, state: TurnState) -> RoutingView:
    """What the guards and rules look at now; muted agents are neither offered nor accepted."""
    responses = tuple(state["responses"])
    this_turn = ctx.history[ctx.turn_start:]
    last = this_turn[-1] if this_turn else None
    said = last.text if last is not None and responses and last.agent_id == responses[-1].agent_id else ""
    lesson = state["lesson"]
    return RoutingView(present_classroom(ctx), state["learner_message"], responses, said,
                       team=lesson is not None and lesson.kind == "scene")


def present_classroom(ctx: EngineContext) -> Classroom:
    """The classroom as the director sees it: without the agents the learner muted."""
    muted = ctx.settings.muted
    if not muted:
        return ctx.classroom
    return ctx.classroom.model_copy(update={"agents": [a for a in ctx.classroom.agents if a.id not in muted]})
