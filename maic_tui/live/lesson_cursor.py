"""Where a lesson is and what it does next (ARCHITECTURE.md, *The lesson*), as OpenMAIC's playback engine: idle →
playing ⇄ paused; a learner message makes it live (Q&A) and ``go_on`` returns to the step where it stopped; a pause
or a quiz question waits for the learner; scenes can be jumped to. Headless and synchronous: the session plays each
step and tells the cursor when it is done, so every transition is tested without models or a terminal."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from maic_tui.classroom.lesson_steps import Phase, Step, lesson_steps

if TYPE_CHECKING:
    from maic_tui.classroom.models import Classroom
    from maic_tui.classroom.quiz import Grade


@dataclass
class LessonCursor:
    scenes: list[list[Step]]
    scene: int = 0
    index: int = 0
    phase: Phase = Phase.IDLE
    grades: dict[str, Grade] = field(default_factory=dict)  # question id -> its grade
    retrying: list[tuple[int, int]] = field(default_factory=list)  # the missed questions asked again, in order

    @classmethod
    def of(cls, classroom: Classroom) -> LessonCursor:
        return cls(lesson_steps(classroom))

    # --- where it is --------------------------------------------------------------------------------

    @property
    def current(self) -> Step | None:
        if self.phase == Phase.ENDED or self.scene >= len(self.scenes):
            return None
        steps = self.scenes[self.scene]
        return steps[self.index] if self.index < len(steps) else None

    def progress(self) -> str:
        total = len(self.scenes)
        if self.phase == Phase.ENDED:
            return f"lesson over · score {self.score()[0]}/{self.score()[1]}"
        steps = len(self.scenes[self.scene]) if self.scene < total else 0
        return f"scene {self.scene + 1}/{total} · step {self.index + 1}/{steps} · {self.phase.value}"

    def missed(self) -> list[Step]:
        """The questions not answered right (or not answered at all), in lesson order."""
        return [step for steps in self.scenes for step in steps
                if step.question is not None and not self._right(step.question.id)]

    def _right(self, question_id: str) -> bool:
        grade = self.grades.get(question_id)
        return grade is not None and grade.correct

    def retry(self) -> Step | None:
        """After the lesson: ask the missed questions again, one after another, then end again."""
        missed = self.missed()
        if self.phase != Phase.ENDED or not missed:
            return self.current
        self.retrying = [(step.scene, step.index) for step in missed]
        (self.scene, self.index), self.phase = self.retrying[0], Phase.PLAYING
        return self.current

    def score(self) -> tuple[int, int]:
        asked = [step.question for steps in self.scenes for step in steps if step.question is not None]
        earned = sum(grade.earned for grade in self.grades.values())
        return earned, sum(question.worth for question in asked)

    # --- what changes it ----------------------------------------------------------------------------

    def restore(self, at: tuple[int, int] | None, grades: dict[str, Grade], ended: bool) -> None:
        """Where a resumed session's lesson was: the same step and grades; the learner has the floor until they go
        on (a lesson that never started stays idle)."""
        self.grades = dict(grades)
        if ended:
            self.phase = Phase.ENDED
        elif at is not None and 0 <= at[0] < len(self.scenes) and 0 <= at[1] < len(self.scenes[at[0]]):
            (self.scene, self.index), self.phase = at, Phase.LIVE

    def wait_at(self, scene: int, index: int) -> None:
        """The lesson waits at this step, as if it had just been played (a scenario played where a scene waits)."""
        self.scene, self.index, self.phase = scene, index, Phase.WAITING

    def start(self) -> Step | None:
        """Begin (or go on after a resume) at the cursor's step."""
        if self.phase == Phase.IDLE:
            self.phase = Phase.PLAYING
            self._skip_empty_scenes()
        return self.current

    def step_done(self) -> Step | None:
        """The current step has been played: the next one, or a wait for the learner on a pause or question."""
        step = self.current
        if step is None or self.phase not in (Phase.PLAYING, Phase.PAUSED):
            return step
        if step.waits:
            self.phase = Phase.WAITING
            return step
        return self._advance()

    def answered(self, grade: Grade | None = None) -> Step | None:
        """The learner answered the waiting pause or question (with its grade, for a question)."""
        step = self.current
        if self.phase != Phase.WAITING or step is None:
            return step
        if step.question is not None and grade is not None:
            self.grades[step.question.id] = grade
        self.phase = Phase.PLAYING
        return self._advance()

    def pause(self) -> None:
        if self.phase == Phase.PLAYING:
            self.phase = Phase.PAUSED

    def resume(self) -> None:
        if self.phase == Phase.PAUSED:
            self.phase = Phase.PLAYING

    def learner_spoke(self) -> None:
        """A message of the learner's own: Q&A now; the lesson keeps its place (a step cut short replays)."""
        if self.phase in (Phase.PLAYING, Phase.PAUSED):
            self.phase = Phase.LIVE

    def go_on(self) -> Step | None:
        """Back to the lesson after Q&A (or into it, when it has not started)."""
        if self.phase == Phase.IDLE:
            return self.start()
        if self.phase == Phase.LIVE:
            self.phase = Phase.PLAYING
        return self.current

    def hand_over(self) -> None:
        """The step handed over to the learner (a discussion): it waits for their contribution, as a pause does."""
        if self.phase in (Phase.PLAYING, Phase.PAUSED):
            self.phase = Phase.WAITING

    @property
    def position(self) -> tuple[int, int]:
        return self.scene, self.index

    def jump(self, scene: int) -> Step | None:
        """To the first step of another scene (F5/F6); a lesson that was over plays again from there."""
        if not 0 <= scene < len(self.scenes):
            return self.current
        self.retrying.clear()
        self.scene, self.index = scene, 0
        if self.phase in (Phase.ENDED, Phase.WAITING, Phase.LIVE, Phase.IDLE):
            self.phase = Phase.PLAYING
        self._skip_empty_scenes()
        return self.current

    def _advance(self) -> Step | None:
        if self.retrying:
            self.retrying.pop(0)
            if self.retrying:
                self.scene, self.index = self.retrying[0]
            else:
                self.phase = Phase.ENDED
            return self.current
        self.index += 1
        if self.index >= len(self.scenes[self.scene]):
            self.scene, self.index = self.scene + 1, 0
            self._skip_empty_scenes()
        return self.current

    def _skip_empty_scenes(self) -> None:
        while self.scene < len(self.scenes) and not self.scenes[self.scene]:
            self.scene += 1
        if self.scene >= len(self.scenes):
            self.phase = Phase.ENDED
