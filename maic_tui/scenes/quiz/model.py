"""A quiz in a classroom file: its questions, asked by ``ask`` steps, or in order when it has no script."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import Field, model_validator

from maic_tui.classroom.lesson import QuizQuestion, Step
from maic_tui.i18n import ENGLISH, N_
from maic_tui.i18n.said import said
from maic_tui.scenes.base import SceneBase


class QuizScene(SceneBase):
    type: Literal["quiz"]
    questions: list[QuizQuestion] = Field(default_factory=list)

    @model_validator(mode="after")
    def _has_questions(self) -> QuizScene:
        if not self.questions:
            raise ValueError(said(N_("a quiz scene needs at least one question")))
        return self

    def graded(self) -> Sequence[QuizQuestion]:
        return self.questions

    def unscripted(self, number: int, language: str = ENGLISH) -> list[Step]:
        """Without a script a quiz asks its questions in order."""
        return [Step(number, i, "ask", None, question) for i, question in enumerate(self.questions)]
