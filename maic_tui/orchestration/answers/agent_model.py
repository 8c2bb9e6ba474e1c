"""An agent's model call (ARCHITECTURE.md, *One learner turn*): its prompt, then the stream parsed as chunks arrive
into an ``Answer``. Nothing here touches the board or emits an event: the agent node shows the answer, so an answer
written ahead for a speaker the director picked early is only a buffer until it is shown."""

from __future__ import annotations

from typing import Any

from maic_tui.classroom.models import Agent
from maic_tui.llm import CallContext
from maic_tui.llm.context import calling
from maic_tui.llm.streaming import chunk_text, ended_at_cap, is_empty_answer
from maic_tui.orchestration.answers.answer import Answer
from maic_tui.orchestration.answers.parser import StreamParser
from maic_tui.orchestration.graph.conversation import WrittenBy, continued
from maic_tui.orchestration.graph.engine_context import EngineContext
from maic_tui.orchestration.graph.state import AGENT_TOKENS, TurnState
from maic_tui.orchestration.prompts.agent_request import agent_messages
from maic_tui.orchestration.prompts.shared_part import scene_live
from maic_tui.orchestration.routing.director_schema import SPEECH_FIRST, agent_schema, speech_first_schema
from maic_tui.scenes.registry import actions_in


def allowed_actions(ctx: EngineContext, agent: Agent) -> list[str]:
    return actions_in(agent.actions, ctx.scene.type if ctx.scene else None)


def reading_pace(ctx: EngineContext) -> float:
    """Characters a second a server's answer is shown at (the session's pace; F8/F9 change it as it plays). The
    offline models keep their own: the demo writes at the pace itself, a script as its file says."""
    provider = ctx.client.provider
    return provider.options.pace if provider.is_remote else 0.0


def start_answer(ctx: EngineContext, state: TurnState, agent: Agent) -> Answer:
    """The agent's model call, under way in a task of its own (retried only while nothing has streamed: the
    learner has already seen any speech)."""
    answer = Answer(agent.id, by_word=reading_pace(ctx) > 0)
    return answer.start(lambda: ctx.client.call(lambda: _generate(ctx, state, agent, answer),
                                                may_retry=lambda: answer.received == 0))


async def _generate(ctx: EngineContext, state: TurnState, agent: Agent, answer: Answer) -> None:
    actions = allowed_actions(ctx, agent)
    messages = agent_messages(agent, ctx.classroom, ctx.history, ctx.board, ctx.scene, actions, state["responses"],
                              state["instruction"], scene_live(ctx.scene, ctx.scene_states.of(ctx.scene)),
                              state["decided_by"] or continued(ctx.history, state["responses"]))
    call = CallContext(caller=agent.id, learner_message=state["learner_message"],
                       spoken=tuple(r.agent_id for r in state["responses"]),
                       board_ids=tuple(e.id for e in ctx.board.elements), lesson=state["lesson"],
                       said=ctx.said(), scene=ctx.scene_index)
    model = ctx.client.model(agent.id, "agent_turn", agent_schema(actions), AGENT_TOKENS[agent.role],
                             speech_first_schema(actions))
    with calling(call):
        output = await _consume(ctx, model.astream(messages), answer)
    if output is not None and ctx.client.structured_mode == "gbnf" and not output.startswith(SPEECH_FIRST):
        ctx.client.ignores_grammar()
    if output is not None and ctx.client.provider.is_remote:  # a server's prompt cache is what it is for
        answer.written_by = WrittenBy(tuple(messages), output)


async def _consume(ctx: EngineContext, stream: Any, answer: Answer) -> str | None:
    """Read the answer into ``answer``; what the model wrote, when it wrote a whole answer (None: cut at a cap)."""
    parser = StreamParser()
    cap = ctx.settings.output_char_cap
    written: list[str] = []
    whole = True
    try:
        async for chunk in stream:
            text = chunk_text(chunk)
            over = len(text) > cap - answer.received  # however large the chunk: a server may send megabytes in one
            text = text[:cap - answer.received]
            answer.received += len(text)
            written.append(text)
            answer.add(parser.feed(text))
            if parser.finished:
                break
            if over:
                answer.warnings.append(f"output cut at {cap} characters")
                whole = False
                break
    except Exception as exc:  # a failed stream has already closed itself
        if ended_at_cap(exc):
            answer.warnings.append("the answer reached its token cap")
            whole = False
        elif not is_empty_answer(exc):  # no chunk at all: an empty turn, not a failure
            raise
    else:
        await stream.aclose()  # hang up on a model that goes on after its answer
    answer.add(parser.close())
    return "".join(written) if whole and written else None
