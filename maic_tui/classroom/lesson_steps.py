"""A lesson's steps, as the player plays them and the room shows them: each scene's script, a quiz's questions, or
a slide presented by its teacher; the phases a lesson goes through (ARCHITECTURE.md, *The lesson*)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, assert_never

from maic_tui.classroom.lesson import QuizQuestion, ScriptKind, ScriptStep
from maic_tui.classroom.models import Classroom


class Phase(StrEnum):
    IDLE = "idle"  # not started
    PLAYING = "playing"
    PAUSED = "paused"  # the learner paused it
    WAITING = "waiting"  # a pause step or a quiz question waits for the learner
    LIVE = "live"  # the learner spoke: Q&A until they go on
    ENDED = "ended"


StepKind = ScriptKind | Literal["present"]  # "present": a slide without a script, presented by its teacher


def waits(kind: StepKind) -> bool:
    """A step of this kind waits for the learner."""
    match kind:
        case "pause" | "ask":
            return True
        case "say" | "action" | "discussion" | "present":
            return False
        case _:
            assert_never(kind)


def read_out(kind: StepKind) -> bool:
    """Steps of this kind by one agent in a row are read as one message (as a model's answer would be)."""
    match kind:
        case "say" | "action":
            return True
        case "discussion" | "pause" | "ask" | "present":
            return False
        case _:
            assert_never(kind)


@dataclass(frozen=True, slots=True)
class Step:
    scene: int
    index: int
    kind: StepKind
    script: ScriptStep | None = None  # None for "present": a scene without a script, presented by the model
    question: QuizQuestion | None = None

    @property
    def waits(self) -> bool:
        return waits(self.kind)


def lesson_steps(classroom: Classroom) -> list[list[Step]]:
    """Each scene's steps: its script; a quiz without one asks its questions in order; a slide without one is
    presented by the teacher through the model."""
    scenes: list[list[Step]] = []
    for number, scene in enumerate(classroom.scenes):
        if scene.script:
            steps = [Step(number, i, step.kind, step, scene.question(step.ask) if step.ask else None)
                     for i, step in enumerate(scene.script)]
        elif scene.type == "quiz":
            steps = [Step(number, i, "ask", None, question) for i, question in enumerate(scene.questions)]
        else:
            steps = [Step(number, 0, "present")]
        scenes.append(steps)
    return scenes
