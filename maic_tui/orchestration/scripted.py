"""A run of a lesson script's steps by one agent (its speech and actions) as one agent message: the same events
a model's answer produces (``agent_start``, ``text_delta``, ``action``, ``agent_end``), every action checked
and applied as the agent node does (``AgentRun``), and the message in the history, so the director and the
agents hear what the lecture said."""

from __future__ import annotations

from collections.abc import Sequence

from maic_tui.actions import effective_actions
from maic_tui.classroom.lesson import ScriptStep
from maic_tui.classroom.models import Agent
from maic_tui.events import AgentEndData, AgentEndEvent, AgentStartData, AgentStartEvent, Event
from maic_tui.orchestration.agent_run import AgentRun
from maic_tui.orchestration.context import EngineContext
from maic_tui.orchestration.items import Item, ParsedAction, TextDelta


def scripted_message(ctx: EngineContext, agent: Agent, steps: Sequence[ScriptStep]) -> tuple[list[Event], list[str]]:
    """The events of the message, and a warning for each action the board or scene refused (not emitted)."""
    events: list[Event] = []
    message_id = ctx.next_message_id(agent.id)
    events.append(AgentStartEvent(data=AgentStartData(message_id=message_id, agent_id=agent.id, agent_name=agent.name,
                                                      agent_avatar=agent.avatar, agent_color=agent.color)))
    allowed = effective_actions(agent.actions, ctx.scene.type if ctx.scene else None)
    run = AgentRun(agent, message_id, ctx.board, ctx.scene, allowed, max_actions=max(len(steps), 1),
                   emit=events.append, redact=ctx.redact)
    items: list[Item] = []
    spoken = False
    for step in steps:
        if step.say is not None:
            items.append(TextDelta((" " if spoken else "") + step.say))
            spoken = True
        elif step.action is not None:
            items.append(ParsedAction(step.action, dict(step.params)))
    run.take(items)
    events.append(AgentEndEvent(data=AgentEndData(message_id=message_id, agent_id=agent.id)))
    ctx.history.append(run.entry(interrupted=False))
    return events, list(run.warnings)
