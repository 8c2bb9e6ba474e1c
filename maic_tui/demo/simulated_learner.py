"""A learner played from the classroom's own material, for ``maic-tui simulate`` on the offline demo (README,
*Routing QA*): it asks the prepared questions, follows up ("why?", "I don't get it", another example), answers the
class's questions right or wrong (what they expect or offer, a quiz's options), as its persona leans; the same
messages for the same seed. A persona that is a sentence of one's own plays as a curious learner."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from maic_tui.classroom.lesson import QuizQuestion
from maic_tui.classroom.models import Classroom
from maic_tui.demo.dialogue import asked_of
from maic_tui.demo.replies import QUESTION_MARKS
from maic_tui.llm.context import Said

PERSONAS = ("curious", "confused", "off-topic", "terse", "adversarial")
OFF_TOPIC = ("what's for lunch today?", "did anyone watch the match last night?", "is this on the exam?",
             "can we have a break?", "I like your shirt, professor")
FOLLOW_UPS = {
    "curious": ("why?", "can you give me another example?", "what do you think, {student}?"),
    "confused": ("I don't get it", "wait, what do you mean?", "sorry, can you say that more simply?"),
    "terse": ("why", "ok", "example?"),
    "adversarial": ("I don't think that's right", "that makes no sense to me", "are you sure?"),
    "off-topic": OFF_TOPIC,
}
RIGHT_RATE = {"curious": 0.8, "confused": 0.3, "terse": 0.7, "adversarial": 0.5, "off-topic": 0.4}
WRONG = ("I'm not sure, 42?", "no idea, maybe zero?", "the opposite?")


@dataclass
class DemoLearner:
    classroom: Classroom
    persona: str = "curious"
    seed: int = 0
    _rng: random.Random = field(init=False)
    _asked: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._rng = random.Random(f"{self.seed}:{self.persona}")

    @property
    def kind(self) -> str:
        return self.persona if self.persona in PERSONAS else "curious"

    def _right(self) -> bool:
        return self._rng.random() < RIGHT_RATE[self.kind]

    def answer(self, question: QuizQuestion) -> str:
        """A quiz question's answer, typed as people type it: option letters, or a short answer."""
        if question.type == "short_answer":
            return question.answer[0] if question.answer and self._right() else self._rng.choice(WRONG)
        values = [option.value for option in question.options]
        if self._right():
            return ", ".join(question.answer)
        wrong = [value for value in values if value not in question.answer] or values
        return self._rng.choice(wrong)

    def message(self, said: Sequence[Said], scene: int = 0) -> str:
        """What the learner says next, given the conversation so far."""
        pending = asked_of(self.classroom, said, scene)
        if pending is not None and pending.quiz is not None:
            return self.answer(pending.quiz)
        if pending is not None and self.kind != "off-topic":
            if pending.expects:
                return pending.expects[0] if self._right() else self._rng.choice(WRONG)
            if pending.options:
                return self._rng.choice(pending.options)
            if self.kind == "terse":
                return "go on"
            return self._rng.choice(("yes", "I think so", "not really", "go on"))
        unasked = [a.question for a in self.classroom.demo.answers if a.question not in self._asked]
        if unasked and (not said or self._rng.random() < 0.5):  # a prepared question (the first one first)
            question = unasked[0] if not said else self._rng.choice(unasked)
            self._asked.append(question)
            return question.lower().rstrip("".join(QUESTION_MARKS)) if self.kind == "terse" else question
        students = [a.name.split()[-1] for a in self.classroom.agents if a.role == "student"] or ["everyone"]
        return self._rng.choice(FOLLOW_UPS[self.kind]).format(student=self._rng.choice(students))
