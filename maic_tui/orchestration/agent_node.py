"""The agent node (ARCHITECTURE.md, *One learner turn*): prompt, stream the model, parse as chunks arrive, check and
emit each action, ``agent_end`` always. The model stream is dropped as soon as the answer's array has closed."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import SystemMessage
from langgraph.types import StreamWriter

from maic_tui.actions import effective_actions
from maic_tui.events import AgentEndData, AgentEndEvent, AgentStartData, AgentStartEvent, ErrorData, ErrorEvent
from maic_tui.llm import CallContext, ModelError, describe
from maic_tui.llm.client import Interrupted
from maic_tui.llm.context import calling
from maic_tui.llm.streaming import chunk_text, ended_at_cap, is_empty_answer
from maic_tui.orchestration.agent_run import AgentRun
from maic_tui.orchestration.context import EngineContext
from maic_tui.orchestration.history import agent_messages
from maic_tui.orchestration.parser import StreamParser
from maic_tui.orchestration.prompts.agent import agent_system_prompt
from maic_tui.orchestration.prompts.example import example_speech
from maic_tui.orchestration.state import AGENT_TOKENS, TurnState
from maic_tui.orchestration.structured import agent_schema


async def agent_node(ctx: EngineContext, state: TurnState, writer: StreamWriter) -> dict[str, Any]:
    agent = ctx.classroom.agent(state["next_agent"] or "")
    assert agent is not None  # the director dispatches known agents only
    message_id = ctx.next_message_id(agent.id)
    writer(AgentStartEvent(data=AgentStartData(message_id=message_id, agent_id=agent.id, agent_name=agent.name,
                                               agent_avatar=agent.avatar, agent_color=agent.color)))
    allowed = effective_actions(agent.actions, ctx.scene.type if ctx.scene else None)
    run = AgentRun(agent, message_id, ctx.board, ctx.scene, allowed, ctx.classroom.limits.max_actions_per_agent,
                   writer, redact=ctx.redact, example=example_speech(agent, ctx.classroom, ctx.scene, allowed))
    error: ModelError | None = None
    interrupted = False
    try:
        # Retried only while nothing has streamed: the learner has already seen any speech.
        await ctx.client.call(lambda: _generate(ctx, state, run), may_retry=lambda: run.received == 0)
    except Interrupted:
        interrupted = True
    except Exception as exc:  # the model failed: say so inside the agent's message
        error = describe(exc, who=agent.name, secrets=ctx.client.secrets)
        if run.received and error.dropped:  # it answered, then the connection died: a broken stream, not a dead server
            error = ModelError(f"{agent.name}: the model stream broke off after {run.received} characters")
        writer(ErrorEvent(data=ErrorData(message=error.message)))
    finally:
        writer(AgentEndEvent(data=AgentEndData(message_id=message_id, agent_id=agent.id)))
        ctx.history.append(run.entry(interrupted))
    if run.speech and not run.real_speech:
        run.warn("speech was only a placeholder or the prompt's example: counted as empty")
    summary = run.summary()
    trace = list(state["trace"])
    if trace and summary.action_warnings:
        trace[-1] = trace[-1].model_copy(update={"action_warnings": summary.action_warnings})
    update: dict[str, Any] = {
        "turn_count": state["turn_count"] + 1,
        "responses": [*state["responses"], summary],
        "ledger": [*state["ledger"], *run.ledger],
        "trace": trace,
        "total_actions": state["total_actions"] + len(run.actions),
        "had_content": state["had_content"] or run.had_content,
        "consecutive_empty": 0 if run.had_content else state["consecutive_empty"] + 1,
        "next_agent": None,
        "instruction": "",
    }
    if interrupted:
        update["end_reason"] = "interrupted"
    elif error is not None and (error.fatal or not run.had_content):
        # Every agent shares the model server: one that failed before saying anything would fail again for
        # the next agent (or be sent again by the fallback). A stream that broke off after speech keeps the
        # turn going, so others can build on what was said.
        update["end_reason"] = "error"
        update["fatal"] = True
    return update


async def _generate(ctx: EngineContext, state: TurnState, run: AgentRun) -> None:
    agent, actions = run.agent, run.allowed
    system = agent_system_prompt(agent, ctx.classroom, ctx.board, ctx.scene, actions, state["responses"],
                                 state["instruction"])
    messages = [SystemMessage(system), *agent_messages(ctx.history, agent.id, ctx.classroom.learner.nickname)]
    call = CallContext(caller=agent.id, learner_message=state["learner_message"],
                       spoken=tuple(r.agent_id for r in state["responses"]),
                       board_ids=tuple(e.id for e in ctx.board.elements), lesson=state["lesson"],
                       said=ctx.said(), scene=ctx.scene_index)
    model = ctx.client.model(agent.id, "agent_turn", agent_schema(actions), AGENT_TOKENS[agent.role])
    with calling(call):
        await _consume(ctx, model.astream(messages), run)


async def _consume(ctx: EngineContext, stream: Any, run: AgentRun) -> None:
    parser = StreamParser()
    cap = ctx.settings.output_char_cap
    try:
        async for chunk in stream:
            text = chunk_text(chunk)
            over = len(text) > cap - run.received  # however large the chunk: a server may send megabytes in one
            text = text[:cap - run.received]
            run.received += len(text)
            run.take(parser.feed(text))
            if parser.finished:
                break
            if over:
                run.warn(f"output cut at {cap} characters")
                break
    except Exception as exc:  # a failed stream has already closed itself
        if ended_at_cap(exc):
            run.warn("the answer reached its token cap")
        elif not is_empty_answer(exc):  # no chunk at all: an empty turn, not a failure
            raise
    else:
        await stream.aclose()  # hang up on a model that goes on after its answer
    run.take(parser.close())
