"""The agent node (ARCHITECTURE.md, *One learner turn*): the agent's answer (written ahead when the director picked it
early, else asked for now), shown as it is written at the reading pace, each action checked and emitted, ``agent_end``
always. Once the answer is written, the next decision is made ahead while the learner reads (*Deciding ahead*)."""

from __future__ import annotations

from typing import Any

from langgraph.types import StreamWriter

from maic_tui.events import AgentEndData, AgentEndEvent, AgentStartData, AgentStartEvent, ErrorData, ErrorEvent
from maic_tui.llm import ModelError, describe
from maic_tui.llm.client import Interrupted
from maic_tui.llm.errors import BROKE_OFF
from maic_tui.orchestration.answers.agent_model import allowed_actions, reading_pace, start_answer
from maic_tui.orchestration.answers.agent_outcome import agent_update
from maic_tui.orchestration.answers.agent_run import AgentRun
from maic_tui.orchestration.answers.items import Item
from maic_tui.orchestration.answers.showing import show
from maic_tui.orchestration.graph.engine_context import EngineContext
from maic_tui.orchestration.graph.state import TurnState
from maic_tui.orchestration.prompts.example import example_speech
from maic_tui.orchestration.routing.ahead import Foresight


async def agent_node(ctx: EngineContext, state: TurnState, writer: StreamWriter,
                     foresight: Foresight | None = None) -> dict[str, Any]:
    agent = ctx.classroom.agent(state["next_agent"] or "")
    assert agent is not None  # the director dispatches known agents only
    message_id = ctx.next_message_id(agent.id)
    writer(AgentStartEvent(data=AgentStartData(message_id=message_id, agent_id=agent.id, agent_name=agent.name,
                                               agent_avatar=agent.avatar, agent_color=agent.color)))
    allowed = allowed_actions(ctx, agent)
    run = AgentRun(agent, message_id, ctx.board, ctx.scene, allowed, ctx.classroom.limits.max_actions_per_agent,
                   writer, redact=ctx.redact, example=example_speech(agent, ctx.classroom, allowed),
                   states=ctx.scene_states)
    answer = (foresight.answer_for(agent.id) if foresight is not None else None) or start_answer(ctx, state, agent)

    def written(rest: list[Item]) -> None:
        if foresight is not None:
            foresight.start(state, run, rest, answer.warnings, answer.written_by)

    error: ModelError | None = None
    interrupted = False
    try:
        await show(ctx.client, answer, run, lambda: reading_pace(ctx), written)
    except Interrupted:
        interrupted = True
    except Exception as exc:  # the model failed: say so inside the agent's message
        error = describe(exc, who=agent.name, secrets=ctx.client.secrets)
        if answer.received and error.dropped:  # it answered, then the connection died: a broken stream
            error = ModelError(f"{agent.name}: {BROKE_OFF.format(count=answer.received)}")  # English: recorded
        writer(ErrorEvent(data=ErrorData(message=error.message)))
    finally:
        answer.cancel()  # cut short while the model was still writing it
        writer(AgentEndEvent(data=AgentEndData(message_id=message_id, agent_id=agent.id)))
        ctx.history.append(run.entry(interrupted, answer.written_by))
    return agent_update(state, run, interrupted, error)
