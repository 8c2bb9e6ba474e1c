"""One learner turn as a LangGraph StateGraph: ``START → director → (agent_generate → director)* → END``.

Compiled once per session. Events leave the nodes through LangGraph's custom stream; the turn's final
``done`` is built here from the final state, so every turn ends with exactly one ``done``, last.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable
from typing import Any, cast

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.types import StreamMode, StreamWriter

from maic_tui.events import (
    AgentEndData,
    AgentEndEvent,
    AgentStartEvent,
    DirectorState,
    DoneData,
    DoneEvent,
    ErrorData,
    ErrorEvent,
    Event,
    TraceRecord,
)
from maic_tui.llm import describe
from maic_tui.llm.context import LessonCall
from maic_tui.orchestration.answers.agent_node import agent_node
from maic_tui.orchestration.graph.conversation import HistoryEntry
from maic_tui.orchestration.graph.engine_context import EngineContext
from maic_tui.orchestration.graph.state import TurnState, initial_state, recursion_limit
from maic_tui.orchestration.graph.stream_redaction import EventRedactor, redact_model
from maic_tui.orchestration.routing.ahead import Foresight
from maic_tui.orchestration.routing.director import director_node
from maic_tui.orchestration.routing.mentions import Addressed

STREAM_MODES: list[StreamMode] = ["custom", "values"]  # our events, and the state after each step


class TurnEngine:
    def __init__(self, ctx: EngineContext) -> None:
        self.ctx = ctx
        # Called with each director decision as it is made (the TUI's live trace panel); the full trace,
        # with action warnings filled in, still arrives in ``done``.
        self.on_trace: Callable[[TraceRecord], None] | None = None
        self.foresight = Foresight(ctx)  # decisions made while the last message is read (ARCHITECTURE.md)
        graph = StateGraph(TurnState)

        async def director(state: TurnState, writer: StreamWriter) -> dict[str, Any]:
            taken = await self.foresight.taken(state, writer)
            return taken if taken is not None else await director_node(ctx, state, writer)

        async def agent_generate(state: TurnState, writer: StreamWriter) -> dict[str, Any]:
            return await agent_node(ctx, state, writer, self.foresight)

        graph.add_node("director", director)
        graph.add_node("agent_generate", agent_generate)
        graph.add_edge(START, "director")
        graph.add_conditional_edges("director", lambda s: "agent_generate" if s["next_agent"] else END,
                                    ["agent_generate", END])
        graph.add_conditional_edges("agent_generate", lambda s: END if s["end_reason"] else "director",
                                    ["director", END])
        self.graph = graph.compile()

    def interrupt(self) -> None:
        self.ctx.client.interrupt()
        self.foresight.clear()

    def raise_hand(self) -> None:
        """The learner sent another message: the turn ends once the agent speaking now has finished (nobody else
        is sent, and a decision made ahead is dropped unapplied)."""
        self.ctx.hand_raised = True
        self.foresight.clear()

    def first_agent(self, message: Addressed) -> str | None:
        """Who opens the turn without asking the director: the agent the learner picked, or the discussion's
        trigger."""
        session = self.ctx.classroom.session
        if message.agent is None and session.type == "discussion" and session.trigger_agent:
            return session.trigger_agent
        return message.agent

    async def run(self, opened_by: Addressed | LessonCall) -> AsyncGenerator[Event, None]:
        """Play one turn: a learner's message (read when it was sent: ``TurnDriver.read``) or one the lesson opens.

        An interruption that came before the turn started (Ctrl-C while the session was being built) is
        kept: the turn then ends at once, still with its ``done``. Configured secrets never leave here
        (``EventRedactor``), so no consumer of the stream can see one.
        """
        ctx = self.ctx
        lesson: LessonCall | None = None
        if isinstance(opened_by, Addressed):
            text, first = opened_by.text, self.first_agent(opened_by)
            entry = HistoryEntry(role="learner", text=text)
        else:
            lesson, text, first = opened_by, opened_by.said, opened_by.opener
            # the learner's words a scene's turn answers are theirs in the conversation, as in a learner turn
            entry = HistoryEntry(role="learner", text=text) if text else HistoryEntry(role="lesson",
                                                                                        text=opened_by.request)
        client = ctx.client
        redactor = EventRedactor(client.secrets)
        ctx.turn_start = len(ctx.history)
        ctx.hand_raised = False
        ctx.history.append(entry)
        client.start_turn(ctx.turn_budget_seconds())
        final: TurnState = initial_state(text, first, lesson)
        open_message: AgentStartEvent | None = None
        config: RunnableConfig = {"recursion_limit": recursion_limit(ctx.classroom.limits)}
        try:
            async for mode, chunk in self.graph.astream(final, config, stream_mode=STREAM_MODES):
                if mode == "values":
                    seen = len(final["trace"])
                    final = cast(TurnState, chunk)
                    if self.on_trace is not None:
                        for record in final["trace"][seen:]:
                            self.on_trace(redact_model(record, redactor.secrets))
                    continue
                event = cast(Event, chunk)
                if isinstance(event, AgentStartEvent):
                    open_message = event
                elif isinstance(event, AgentEndEvent):
                    open_message = None
                for safe in redactor(event):
                    yield safe
        except Exception as exc:  # a bug must not leave a client without agent_end and done
            yield ErrorEvent(data=ErrorData(message=describe(exc, who="engine", secrets=client.secrets).message))
            if open_message is not None:
                for safe in redactor(AgentEndEvent(data=AgentEndData(message_id=open_message.data.message_id,
                                                                     agent_id=open_message.data.agent_id))):
                    yield safe
            final = {**final, "end_reason": "error"}
        finally:
            self.foresight.clear()
            interrupted = client.end_turn()
        for safe in redactor(done_event(final, interrupted, client.structured_mode)):
            yield safe


def done_event(state: TurnState, interrupted: bool, structured: str | None = None) -> DoneEvent:
    reason = state["end_reason"] or ("interrupted" if interrupted else "director_end")
    return DoneEvent(data=DoneData(
        total_actions=state["total_actions"],
        total_agents=len(state["responses"]),
        agent_had_content=state["had_content"],
        cue_user_received=state["cue_received"],
        end_reason=reason,
        director_state=DirectorState(turn_count=state["turn_count"], agent_responses=state["responses"],
                                     whiteboard_ledger=state["ledger"]),
        director_trace=state["trace"],
        structured_output=structured,
    ))
