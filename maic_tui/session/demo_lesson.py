"""Play a classroom's scripted demo material as a stream of protocol events.

Each demo turn is written out as the JSON array a model would answer with, streamed in small chunks
through the real ``StreamParser`` and applied to a ``Whiteboard``, so the headless demo exercises the
same parsing and board path as a live model. (The director graph and the demo chat model come later.)
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass

from maic_tui.actions import SLIDE_ACTIONS, InvalidAction, parse_params
from maic_tui.classroom.models import Classroom, DemoTurn
from maic_tui.events import (
    ActionData,
    ActionEvent,
    AgentEndData,
    AgentEndEvent,
    AgentStartData,
    AgentStartEvent,
    AgentTurnSummary,
    CueUserData,
    CueUserEvent,
    DirectorState,
    DoneData,
    DoneEvent,
    ErrorData,
    ErrorEvent,
    Event,
    TextDeltaData,
    TextDeltaEvent,
    ThinkingData,
    ThinkingEvent,
)
from maic_tui.orchestration.parser import Item, ParsedAction, StreamParser, TextDelta
from maic_tui.whiteboard import Whiteboard

CHUNK_SIZE = 6


@dataclass(frozen=True, slots=True)
class LearnerTurn:
    message: str | None  # None for the class's opening
    turns: list[DemoTurn]


def demo_script(classroom: Classroom) -> list[LearnerTurn]:
    """The opening, then each prepared answer introduced by its example question."""
    script = [LearnerTurn(None, classroom.demo.opening)] if classroom.demo.opening else []
    script += [LearnerTurn(answer.question, answer.turns) for answer in classroom.demo.answers]
    return script


def model_output(turn: DemoTurn) -> str:
    """The JSON-array answer a model would stream for this turn."""
    items = [
        {"type": "text", "content": step.say}
        if step.say is not None
        else {"type": "action", "name": step.action, "params": step.params}
        for step in turn.steps
    ]
    return json.dumps(items, ensure_ascii=False)


class DemoLesson:
    def __init__(self, classroom: Classroom, pace: float = 0.0) -> None:
        self.classroom = classroom
        self.board = Whiteboard()
        self.pace = pace  # characters per second; 0 = as fast as possible
        self._messages = 0

    def play(self, learner_turn: LearnerTurn) -> Iterator[Event]:
        summaries: list[AgentTurnSummary] = []
        total_actions = 0
        for turn in learner_turn.turns:
            yield ThinkingEvent(data=ThinkingData(stage="agent_loading", agent_id=turn.agent))
            summary = yield from self._agent_turn(turn)
            summaries.append(summary)
            total_actions += summary.action_count
        last = learner_turn.turns[-1].agent if learner_turn.turns else None
        yield CueUserEvent(data=CueUserData(from_agent_id=last))
        yield DoneEvent(
            data=DoneData(
                total_actions=total_actions,
                total_agents=len(summaries),
                agent_had_content=any(s.content_preview or s.action_count for s in summaries),
                cue_user_received=True,
                end_reason="cue_user",
                director_state=DirectorState(turn_count=len(summaries), agent_responses=summaries),
            )
        )

    def _slide_action(self, item: ParsedAction) -> tuple[bool, str | None, dict]:
        """Pointers target an element of the current slide (the first scene until scenes can change)."""
        try:
            params = parse_params(item.name, item.params)
        except InvalidAction as exc:
            return False, exc.reason, {}
        scene = self.classroom.scenes[0] if self.classroom.scenes else None
        target = getattr(params, "element_id", None)
        if scene is None or all(element.id != target for element in scene.elements):
            return False, f"element_not_found: {target}", {}
        return True, None, params.wire()

    def _stream(self, parser: StreamParser, output: str) -> Iterator[list[Item]]:
        """Parse the output chunk by chunk as it "arrives", at the configured pace."""
        for start in range(0, len(output), CHUNK_SIZE):
            if self.pace > 0:
                time.sleep(CHUNK_SIZE / self.pace)
            yield parser.feed(output[start : start + CHUNK_SIZE])
        yield parser.close()

    def _agent_turn(self, turn: DemoTurn) -> Iterator[Event]:
        agent = self.classroom.agent(turn.agent)
        assert agent is not None  # the loader checked every demo turn's agent
        self._messages += 1
        message_id = f"msg-{self._messages}-{agent.id}"
        yield AgentStartEvent(
            data=AgentStartData(
                message_id=message_id,
                agent_id=agent.id,
                agent_name=agent.name,
                agent_avatar=agent.avatar,
                agent_color=agent.color,
            )
        )
        parser = StreamParser()
        spoken: list[str] = []
        applied: list[str] = []
        warnings: list[str] = []
        for items in self._stream(parser, model_output(turn)):
            for item in items:
                if isinstance(item, TextDelta):
                    spoken.append(item.text)
                    yield TextDeltaEvent(data=TextDeltaData(content=item.text, message_id=message_id))
                    continue
                event = self._action(item, agent.id, message_id, len(applied) + len(warnings))
                if isinstance(event, ActionEvent):
                    applied.append(item.name)
                else:
                    warnings.append(event.data.message)
                yield event
        yield AgentEndEvent(data=AgentEndData(message_id=message_id, agent_id=agent.id))
        return AgentTurnSummary(
            agent_id=agent.id,
            agent_name=agent.name,
            content_preview="".join(spoken)[:100],
            action_count=len(applied),
            whiteboard_actions=[name for name in applied if name.startswith("wb_")],
            action_warnings=warnings,
        )

    def _action(self, item: ParsedAction, agent_id: str, message_id: str, index: int) -> Event:
        if item.name in SLIDE_ACTIONS:
            ok, reason, params = self._slide_action(item)
        else:
            result = self.board.apply(item.name, item.params)
            ok, reason, params = result.ok, result.reason, result.params
        if not ok:
            return ErrorEvent(data=ErrorData(message=f"{agent_id}: {item.name} rejected ({reason})"))
        return ActionEvent(
            data=ActionData(
                action_id=item.action_id or f"{message_id}-a{index + 1}",
                action_name=item.name,
                params=params,
                agent_id=agent_id,
                message_id=message_id,
            )
        )
