"""What a model call is for, handed to our offline models through a context variable.

Real models never see it; the offline demo model reads it to play its part. (LangChain no longer passes
run metadata to ``_astream``, and call keyword arguments would end up in a real server's request.)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Literal

DIRECTOR = "director"
GRADER = "grader"  # the model that grades short quiz answers
JUDGE = "judge"  # the model that gives a scene kind's structured verdict on the learner's work (a project's issue)

LessonKind = Literal["discussion", "present", "react", "scene", "worked"]


@dataclass(frozen=True, slots=True)
class LessonCall:
    """A turn the lesson opens (ARCHITECTURE.md, *The lesson*) rather than a learner message: a discussion step, a slide
    presented by its teacher, the teacher's reaction to a quiz answer or to the learner's change of a widget
    (``worked``: ``topic`` says the change, ``comment`` the demo material's line for it), or a turn a scene's kind
    opens (``scene``: a project's issue opened, a hint asked for, the team's talk), which its kind's routing rules
    decide."""

    kind: LessonKind
    request: str  # what the class is asked to do, in words a model follows
    scene: int = 0
    opener: str | None = None  # the agent who speaks first
    topic: str = ""  # a discussion's topic, the question reacted to
    question_id: str | None = None  # react: the question answered
    earned: int = 0  # react: the grade
    points: int = 0
    comment: str = ""
    moment: str = ""  # scene: what the turn is, in the kind's words (a project's "open", "hint", "talk")
    subject: str = ""  # scene: what it is about, by id (a project's issue)
    said: str = ""  # scene: the learner's message it answers, which the conversation then holds as theirs

    @property
    def hands_over(self) -> bool:
        """The learner gets the floor at the end (a discussion they may join); otherwise the lesson goes on."""
        return self.kind in ("discussion", "scene")


@dataclass(frozen=True, slots=True)
class Said:
    """One line of the conversation, as the offline models and a simulated learner read it."""

    speaker: str  # an agent id, or "learner"
    text: str


@dataclass(frozen=True, slots=True)
class CallContext:
    caller: str  # DIRECTOR or an agent id
    learner_message: str = ""
    spoken: tuple[str, ...] = ()  # agent ids that spoke this learner turn, in order
    board_ids: tuple[str, ...] = ()  # element ids on the whiteboard when the call starts
    attempt: int = 1  # 2 when the director is re-asked after a rejected answer
    lesson: LessonCall | None = None  # a turn the lesson opened
    said: tuple[tuple[str, str], ...] = ()  # the conversation so far: (agent id or "learner", text), latest last
    scene: int = 0  # the scene the class is on


_CURRENT: ContextVar[CallContext | None] = ContextVar("maic_call", default=None)


@contextmanager
def calling(context: CallContext) -> Iterator[None]:
    token = _CURRENT.set(context)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def current_call() -> CallContext | None:
    return _CURRENT.get()
