"""What a scene kind brings to the lesson (ARCHITECTURE.md, *Scene kinds*): its ``lesson`` part reads the learner's
reply at a step of its scenes that waits (a quiz grades the answer to its question), with what it may use of the
player (``LessonStage``)."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable, Sequence
from typing import TYPE_CHECKING, Protocol, cast

from maic_tui.classroom.lesson import ScriptStep, Step
from maic_tui.classroom.models import Agent
from maic_tui.live.lesson_cursor import LessonCursor
from maic_tui.llm.context import LessonCall
from maic_tui.log.records import Record
from maic_tui.scenes.registry import scene_part

if TYPE_CHECKING:
    from maic_tui.live.session import ClassroomSession

Played = AsyncGenerator[Record, None]


class LessonStage(Protocol):
    """The lesson player as a kind's part uses it."""

    session: ClassroomSession
    cursor: LessonCursor

    def lead(self) -> Agent:
        """Who speaks for the class (the teacher)."""

    def say(self, agent: Agent, steps: Sequence[ScriptStep]) -> Played:
        """``steps`` said by ``agent`` as one scripted message, at the lesson's pace."""

    def turn(self, call: LessonCall) -> Played:
        """A turn the lesson opens (a reaction, a discussion) through the director graph."""

    def moved(self) -> Played:
        """The records of the lesson having moved on (a ``step`` record), after the cursor moved."""


class KindLesson(Protocol):
    """What ``scenes/<kind>/lesson.py`` holds."""

    def takes(self, step: Step) -> bool:
        """Whether this kind reads the learner's reply while ``step`` waits (else the reply is a message to the
        class, as at a pause)."""

    def reply(self, lesson: LessonStage, step: Step, text: str) -> Played:
        """The records of the reply read (already recorded as the learner's message) and the lesson moved on."""


def waiting_line(kind: str) -> Callable[[LessonStage, Step], str | None] | None:
    """What a kind's waiting step says now, in place of its prompt (its lesson part's ``waiting_line(lesson,
    step)``, if it has one: a resumed project says where it stands instead of asking for a role again)."""
    part = scene_part(kind, "lesson")
    return cast(Callable[[LessonStage, Step], str | None], getattr(part, "waiting_line", None))


def arrived(kind: str) -> Callable[[LessonStage, Step], Played] | None:
    """What a kind plays once the lesson waits at a step it takes, before the learner says anything (its lesson
    part's ``arrived(lesson, step)``, if it has one: a project takes the role given beforehand)."""
    part = scene_part(kind, "lesson")
    return cast(Callable[[LessonStage, Step], Played], getattr(part, "arrived", None))


def kind_lesson(kind: str) -> KindLesson | None:
    part = scene_part(kind, "lesson")
    return cast(KindLesson, part) if part is not None else None
