"""``demo``: the offline classroom model. It routes and speaks from the classroom's demo material."""

from __future__ import annotations

import json
from collections.abc import Iterator

from langchain_core.messages import BaseMessage

from maic_tui.classroom.models import Classroom
from maic_tui.demo import lesson_turns as lesson_turns
from maic_tui.demo import planner
from maic_tui.llm.context import DIRECTOR, GRADER, JUDGE, CallContext
from maic_tui.llm.streaming import OfflineChatModel, Piece

CHUNK_SIZE = 6


class DemoChatModel(OfflineChatModel):
    classroom: Classroom
    caller: str
    seed: int = 0
    pace: float = 0.0  # characters per second; 0 = as fast as possible

    @property
    def _llm_type(self) -> str:
        return "maic-demo"

    def respond(self, context: CallContext | None) -> str:
        message = context.learner_message if context else ""
        spoken = context.spoken if context else ()
        lesson = context.lesson if context else None
        if self.caller == GRADER:
            return "{}"  # the demo grades short answers by their keywords, without a model (session.quiz)
        said = context.said if context else ()
        if self.caller == JUDGE:
            return lesson_turns.verdict(self.classroom, lesson, message) if lesson is not None else "{}"
        if self.caller == DIRECTOR:
            if lesson is not None:
                return json.dumps(lesson_turns.director_answer(self.classroom, lesson, spoken, said))
            return json.dumps(planner.director_answer(self.classroom, message, spoken, self.seed,
                                                           context.said if context else (),
                                                           context.scene if context else 0))
        agent = self.classroom.agent(self.caller)
        if agent is None:
            return "[]"
        if lesson is not None:
            turn = lesson_turns.agent_turn(self.classroom, agent, lesson, spoken, self.seed, said)
        else:
            turn = planner.agent_turn(self.classroom, agent, message, spoken, self.seed,
                                           context.said if context else (), context.scene if context else 0)
        steps = planner.fit_to_board(list(turn.steps), context.board_ids if context else ())
        return planner.model_output(steps)

    def pieces(self, messages: list[BaseMessage], context: CallContext | None) -> Iterator[Piece]:
        text = self.respond(context)
        # The director "thinks" without streaming visible text, so only speech is paced.
        delay = CHUNK_SIZE / self.pace if self.pace > 0 and self.caller != DIRECTOR else 0.0
        for start in range(0, len(text), CHUNK_SIZE):
            yield Piece(text[start : start + CHUNK_SIZE], delay)
