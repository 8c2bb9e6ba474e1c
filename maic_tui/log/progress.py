"""How far a recorded session's lesson got, for the session lists (``maic-tui sessions``, the palette's *Resume*):
the scene it was at and the score, read from the lesson's own records and the classroom the session kept."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from functools import lru_cache

from maic_tui.bad_input import BadInput
from maic_tui.classroom.loader import load_classroom_text
from maic_tui.classroom.models import Classroom
from maic_tui.i18n import _
from maic_tui.log.records import LessonEndRecord, LogError, QuizResultRecord, StepRecord, parse_record


@dataclass(frozen=True, slots=True)
class LessonProgress:
    scene: int  # 1-based
    scenes: int
    earned: int
    possible: int
    ended: bool

    def words(self) -> str:
        """In the interface's language: the session lists and the resume notice show it to a person."""
        where = _("lesson over") if self.ended else _("scene {number}/{count}").format(number=self.scene,
                                                                                      count=self.scenes)
        return where + " · " + _("score {score}/{top}").format(score=self.earned, top=self.possible) \
            if self.possible else where


def lesson_progress(db: sqlite3.Connection, session_id: str, classroom_toml: str) -> LessonProgress | None:
    """None when the session's lesson never started (Q&A only) or its records cannot be read."""
    rows = db.execute("SELECT body FROM records WHERE session_id = ? AND type IN ('step', 'quiz_result', "
                      "'lesson_end') ORDER BY seq", (session_id,)).fetchall()
    if not rows:
        return None
    scene, ended, earned = 0, False, dict[str, int]()
    for (body,) in rows:
        try:
            record = parse_record(body)
        except LogError:
            continue
        if isinstance(record, StepRecord):
            scene, ended = record.data.scene, False
        elif isinstance(record, QuizResultRecord):
            earned[record.data.question_id] = record.data.earned  # a retried question counts its last answer
        elif isinstance(record, LessonEndRecord):
            ended = True
    shape = _lesson_shape(classroom_toml)
    if shape is None:
        return None
    scenes, possible = shape
    return LessonProgress(min(scene + 1, scenes), scenes, sum(earned.values()), possible, ended)


@lru_cache(maxsize=32)
def _lesson_shape(classroom_toml: str) -> tuple[int, int] | None:
    """A kept classroom's scene count and possible points: parsed once however many sessions share it."""
    try:
        classroom = load_classroom_text(classroom_toml, "the session's classroom")
    except BadInput:
        return None
    return len(classroom.scenes), possible_points(classroom)


def possible_points(classroom: Classroom) -> int:
    return sum(question.worth for found in classroom.scenes for question in found.graded())


def progress_of(classroom: Classroom, scene: int, earned: dict[str, int], ended: bool) -> LessonProgress:
    """``scene``: 0-based; ``earned``: each answered question's points (its last answer)."""
    return LessonProgress(min(scene + 1, len(classroom.scenes)), len(classroom.scenes), sum(earned.values()),
                          possible_points(classroom), ended)
