"""The lesson as the room shows it: where it is (from the lesson's own records, so a replayed log shows it too),
its phase (told by the live lesson; unknown in a replay) and its score, and the line above the composer that says
where it is and what F7 does now."""

from __future__ import annotations

from dataclasses import dataclass, field

from maic_tui.classroom.lesson import QuizQuestion
from maic_tui.classroom.lesson_steps import Phase, Step, lesson_steps
from maic_tui.classroom.models import Classroom, Scene
from maic_tui.llm.pace import Pace
from maic_tui.log.records import SceneEventData


@dataclass(frozen=True, slots=True)
class LessonStatus:
    text: str  # with the scene's title
    short: str  # without it, for a narrow room
    waiting: bool  # the lesson waits for the learner
    question: QuizQuestion | None = None  # the question it waits for an answer to
    scene: Scene | None = None  # the scene it is on
    events: tuple[SceneEventData, ...] = ()  # that scene's own records (its kind's widget reads them)


@dataclass
class LessonState:
    classroom: Classroom
    steps: list[list[Step]] = field(default_factory=list)
    scene: int = 0
    index: int = 0
    phase: Phase | None = Phase.IDLE  # None: not known (a replayed log)
    score: tuple[int, int] | None = None  # earned and possible, once the lesson ended
    missed: int = 0  # questions not answered right, once the lesson ended
    running: bool = False  # the class is playing a turn or the lecture
    pace: Pace | None = None  # how fast the lecture speaks (told by the live lesson; unknown in a replay)
    events: list[SceneEventData] = field(default_factory=list)  # the scene kinds' own records, in order

    @classmethod
    def of(cls, classroom: Classroom) -> LessonState | None:
        return cls(classroom, lesson_steps(classroom)) if classroom.scenes else None

    @property
    def current(self) -> Step | None:
        steps = self.steps[self.scene] if 0 <= self.scene < len(self.steps) else []
        return steps[self.index] if 0 <= self.index < len(steps) else None

    def line(self) -> LessonStatus:
        text, waiting = self._words(titled=True)
        short, _ = self._words(titled=False)
        step = self.current
        question = step.question if waiting and step is not None else None
        events = tuple(event for event in self.events if event.scene == self.scene)
        scenes = self.classroom.scenes
        return LessonStatus(text, short, waiting, question, scenes[self.scene] if self.scene < len(scenes) else None,
                            events)

    def _words(self, titled: bool) -> tuple[str, bool]:
        if self.phase == Phase.ENDED or self.score is not None:
            score, top = self.score or (0, 0)
            retry = f" · F7 retries the {self.missed} missed" if self.missed and self.phase is not None else ""
            records = " · Ctrl+R records" if self.phase is not None else ""
            return f"📖 Lesson over{f' · score {score}/{top}' if top else ''}{retry}{records} · ask anything", False
        scenes = self.classroom.scenes
        scene = scenes[self.scene] if self.scene < len(scenes) else None
        where = f"📖 {self.scene + 1}/{len(scenes)}"
        if scene is not None:
            where += f"{f' {scene.title}' if titled else ''} · step {self.index + 1}/{len(self.steps[self.scene])}"
        step = self.current
        match self.phase:
            case None:  # a replay: where it is, no keys
                return where, False
            case Phase.PLAYING:
                hint = f"F7 pause · {self._pace_keys()} · type to ask · Esc stop"
            case Phase.PAUSED if self.pace is not None and self.pace.step_by_step:
                hint = f"F7 next step · {self._pace_keys()}"
            case Phase.PAUSED:
                hint = "paused · F7 resume"
            case Phase.WAITING if step is not None and step.question is not None:
                hint = "pick or type your answer" if step.question.options else "type your answer"
                return f"{where} · {hint}", True
            case Phase.WAITING:
                return f"{where} · your turn · F7 go on", True
            case Phase.LIVE:
                if self.running:
                    return "📖 Q&A", False
                return f"📖 Q&A · F7 continues the lesson: {where.removeprefix('📖 ')}", False
            case _:
                hint = "F7 starts the lesson"
        return f"{where} · {hint}", False

    def _pace_keys(self) -> str:
        return f"F8/F9 pace: {self.pace.words()}" if self.pace is not None else "F8/F9 pace"
