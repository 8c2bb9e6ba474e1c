"""The lesson as the room shows it: where it is (from the lesson's own records, so a replayed log shows it too),
its phase (told by the live lesson; unknown in a replay) and its score, and the line above the composer that says
where it is and what F7 does now."""

from __future__ import annotations

from dataclasses import dataclass, field

from maic_tui.classroom.lesson import QuizQuestion
from maic_tui.classroom.lesson_steps import Phase, Step, lesson_steps
from maic_tui.classroom.models import Classroom, Scene
from maic_tui.i18n import _
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
        short = self._words(titled=False)[0]
        step = self.current
        question = step.question if waiting and step is not None else None
        events = tuple(event for event in self.events if event.scene == self.scene)
        scenes = self.classroom.scenes
        return LessonStatus(text, short, waiting, question, scenes[self.scene] if self.scene < len(scenes) else None,
                            events)

    def _words(self, titled: bool) -> tuple[str, bool]:
        """In the interface's language (the room's words, not the class's)."""
        if self.phase == Phase.ENDED or self.score is not None:
            score, top = self.score or (0, 0)
            words = ["📖 " + _("Lesson over")]
            if top:
                words.append(_("score {score}/{top}").format(score=score, top=top))
            if self.missed and self.phase is not None:
                words.append(_("F7 retries the {count} missed").format(count=self.missed))
            if self.phase is not None:
                words.append(_("Ctrl+R records"))
            return " · ".join([*words, _("ask anything")]), False
        scenes = self.classroom.scenes
        scene = scenes[self.scene] if self.scene < len(scenes) else None
        where = f"📖 {self.scene + 1}/{len(scenes)}"
        if scene is not None:
            step_of = _("step {number}/{count}").format(number=self.index + 1, count=len(self.steps[self.scene]))
            where += f"{f' {scene.title}' if titled else ''} · {step_of}"
        step = self.current
        match self.phase:
            case None:  # a replay: where it is, no keys
                return where, False
            case Phase.PLAYING:
                hint = " · ".join([_("F7 pause"), self._pace_keys(), _("type to ask"), _("Esc stop")])
            case Phase.PAUSED if self.pace is not None and self.pace.step_by_step:
                hint = _("F7 next step") + " · " + self._pace_keys()
            case Phase.PAUSED:
                hint = _("paused · F7 resume")
            case Phase.WAITING if step is not None and step.question is not None:
                hint = _("pick or type your answer") if step.question.options else _("type your answer")
                return f"{where} · {hint}", True
            case Phase.WAITING:
                return where + " · " + _("your turn · F7 go on"), True
            case Phase.LIVE:
                if self.running:
                    return "📖 " + _("Q&A"), False
                go_on = _("Q&A · F7 continues the lesson: {where}").format(where=where.removeprefix("📖 "))
                return "📖 " + go_on, False
            case _:
                hint = _("F7 starts the lesson")
        return f"{where} · {hint}", False

    def _pace_keys(self) -> str:
        pace = _("F8/F9 pace")
        return f"{pace}: {self.pace.words()}" if self.pace is not None else pace
