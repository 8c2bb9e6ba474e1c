"""A run of a lesson script's steps by one agent (its speech and actions) as one agent message: the same events
a model's answer produces (``agent_start``, ``text_delta``, ``action``, ``agent_end``), every action checked
and applied as the agent node does (``AgentRun``), and the message in the history, so the director and the
agents hear what the lecture said.

A lecture is read at a pace and may be cut short, so the message is played piece by piece: a few words of
speech or one action at a time, and ``finish`` closes it wherever it stopped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from maic_tui.classroom.lesson import ScriptStep
from maic_tui.classroom.models import Agent
from maic_tui.events import AgentEndData, AgentEndEvent, AgentStartData, AgentStartEvent, Event
from maic_tui.orchestration.answers.agent_run import AgentRun
from maic_tui.orchestration.answers.items import Item, ParsedAction, TextDelta
from maic_tui.orchestration.graph.engine_context import EngineContext
from maic_tui.scenes.registry import actions_in
from maic_tui.text_cells import joined_closely

WORDS_PER_PIECE = 3
_WORDS = re.compile(r"\S+\s*")


def _speech_pieces(text: str) -> list[str]:
    words = _WORDS.findall(text)
    return ["".join(words[i:i + WORDS_PER_PIECE]) for i in range(0, len(words), WORDS_PER_PIECE)]


class ScriptedMessage:
    def __init__(self, ctx: EngineContext, agent: Agent, steps: Sequence[ScriptStep]) -> None:
        self.ctx, self.agent = ctx, agent
        self.events: list[Event] = []  # what the last call emitted
        self.message_id = ctx.next_message_id(agent.id)
        allowed = actions_in(agent.actions, ctx.scene.type if ctx.scene else None)
        self.run = AgentRun(agent, self.message_id, ctx.board, ctx.scene, allowed, max_actions=max(len(steps), 1),
                            emit=self.events.append, redact=ctx.redact, states=ctx.scene_states)
        self.pieces: list[Item] = []
        for step in steps:
            if step.say is not None:
                speech = _speech_pieces(step.say)
                said = [piece.text for piece in self.pieces if isinstance(piece, TextDelta)]
                if speech and said and not joined_closely(said[-1], speech[0]):
                    speech[0] = " " + speech[0]
                self.pieces += [TextDelta(text) for text in speech]
            elif step.action is not None:
                self.pieces.append(ParsedAction(step.action, dict(step.params)))

    def _taken(self) -> list[Event]:
        taken = list(self.events)
        self.events.clear()
        return taken

    def begin(self) -> list[Event]:
        agent = self.agent
        return [AgentStartEvent(data=AgentStartData(message_id=self.message_id, agent_id=agent.id,
                                                    agent_name=agent.name, agent_avatar=agent.avatar,
                                                    agent_color=agent.color))]

    def play(self, piece: Item) -> list[Event]:
        """One piece's events: its text, or its action if the board and the scene accept it (else a warning)."""
        self.run.take([piece])
        return self._taken()

    def finish(self, interrupted: bool = False) -> list[Event]:
        """Close the message (cut short or not); what was said so far goes into the history."""
        self.ctx.history.append(self.run.entry(interrupted=interrupted))
        return [AgentEndEvent(data=AgentEndData(message_id=self.message_id, agent_id=self.agent.id))]

    @property
    def warnings(self) -> list[str]:
        return list(self.run.warnings)


def scripted_message(ctx: EngineContext, agent: Agent, steps: Sequence[ScriptStep]) -> tuple[list[Event], list[str]]:
    """The whole message at once: its events, and a warning for each action refused (not emitted)."""
    message = ScriptedMessage(ctx, agent, steps)
    events = message.begin()
    for piece in message.pieces:
        events += message.play(piece)
    return events + message.finish(), message.warnings
