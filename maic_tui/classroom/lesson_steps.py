"""A lesson's steps, as the player plays them and the room shows them: each scene's script, a quiz's questions, or
a slide presented by its teacher; the phases a lesson goes through (ARCHITECTURE.md, *The lesson*)."""

from __future__ import annotations

from enum import StrEnum

from maic_tui.classroom.lesson import Step, StepKind, read_out, waits
from maic_tui.classroom.models import Classroom

__all__ = ["Phase", "Step", "StepKind", "lesson_steps", "read_out", "waits"]


class Phase(StrEnum):
    IDLE = "idle"  # not started
    PLAYING = "playing"
    PAUSED = "paused"  # the learner paused it
    WAITING = "waiting"  # a pause step or a quiz question waits for the learner
    LIVE = "live"  # the learner spoke: Q&A until they go on
    ENDED = "ended"


def lesson_steps(classroom: Classroom) -> list[list[Step]]:
    """Each scene's steps: its script, else what its kind plays without one (ARCHITECTURE.md, *Scene kinds*)."""
    return [scene.steps(number, classroom.language) for number, scene in enumerate(classroom.scenes)]
