"""The lesson in the app: it starts when a classroom opens (a resumed session waits where it stopped), F7
pauses, resumes or goes on after Q&A, F5/F6 move between scenes, and a quiz question shows its options.
Mixed into ``ClassroomApp``; the playing itself is ``live.lesson_player``, driven by the turn driver."""

from __future__ import annotations

from typing import TYPE_CHECKING

from maic_tui.tui.widgets.composer import DEFAULT_PLACEHOLDER, Composer
from maic_tui.tui.widgets.lesson_panel import LessonLine, QuizPanel

if TYPE_CHECKING:
    from textual.app import App
    from textual.widget import Widget

    from maic_tui.classroom.models import Classroom
    from maic_tui.live.assembly import SessionRecipe
    from maic_tui.live.driver import TurnDriver
    from maic_tui.live.lesson_player import LessonPlayer, Pacing

    _Base = App[None]
else:
    _Base = object

LECTURE_BEAT_SECONDS = 0.8  # the pause between two steps of a lecture read at the demo's pace
SHORT_ANSWER_PLACEHOLDER = "Type your answer, then Enter"


def lesson_status(lesson: LessonPlayer, running: bool, titled: bool = True) -> tuple[str, bool]:
    """The lesson line: where the lesson is (with the scene's title, if ``titled``) and what the keys do now;
    True while it waits for the learner."""
    from maic_tui.live.lesson_cursor import Phase

    cursor = lesson.cursor
    if cursor.phase == Phase.ENDED:
        score, top = cursor.score()
        return f"📖 Lesson over{f' · score {score}/{top}' if top else ''} · ask anything", False
    scenes = lesson.session.classroom.scenes
    scene = scenes[cursor.scene] if cursor.scene < len(scenes) else None
    where = f"📖 {cursor.scene + 1}/{len(scenes)}"
    if scene is not None:
        where += f"{f' {scene.title}' if titled else ''} · step {cursor.index + 1}/{len(cursor.scenes[cursor.scene])}"
    step = cursor.current
    match cursor.phase:
        case Phase.PLAYING:
            hint = "F7 pause · type to ask · Esc stop"
        case Phase.PAUSED:
            hint = "paused · F7 resume"
        case Phase.WAITING if step is not None and step.question is not None:
            hint = "pick or type your answer" if step.question.options else "type your answer"
            return f"{where} · {hint}", True
        case Phase.WAITING:
            return f"{where} · your turn · F7 go on", True
        case Phase.LIVE:
            if running:
                return "📖 Q&A", False
            return f"📖 Q&A · F7 continues the lesson: {where.removeprefix('📖 ')}", False
        case _:
            hint = "F7 starts the lesson"
    return f"{where} · {hint}", False


class LessonControls(_Base):
    classroom: Classroom
    turns: TurnDriver
    recipe: SessionRecipe

    if TYPE_CHECKING:
        def part(self, kind: type[Widget]) -> Widget: ...
        def _play_queue(self) -> None: ...

    def _lesson_pacing(self) -> Pacing:
        from maic_tui.live.lesson_player import Pacing

        pace = self.recipe.options.pace if self.recipe.options is not None else 0.0
        return Pacing(chars_per_second=pace, beat=LECTURE_BEAT_SECONDS if pace else 0.0)

    def _begin_lesson(self) -> None:
        """A new session plays its lesson at once; a resumed one waits for the learner to go on (F7)."""
        if self.recipe.lesson and self.recipe.resume is None and self.turns.start_lesson():
            self._play_queue()
        self.call_later(self.show_lesson)

    def _on_lesson(self) -> None:
        self.call_later(self.show_lesson)

    async def show_lesson(self) -> None:
        from maic_tui.live.lesson_cursor import Phase

        lesson = self.turns.lesson
        if lesson is None:
            return
        try:
            line, quiz, composer = self.part(LessonLine), self.part(QuizPanel), self.part(Composer)
        except Exception:  # the room is being rebuilt
            return
        text, waiting = lesson_status(lesson, self.turns.running)
        short, _ = lesson_status(lesson, self.turns.running, titled=False)
        line.show(text, short, waiting)  # type: ignore[attr-defined]
        step = lesson.cursor.current
        question = step.question if lesson.phase == Phase.WAITING and step is not None else None
        await quiz.show(question)  # type: ignore[attr-defined]
        if question is not None and not question.options:
            composer.placeholder = SHORT_ANSWER_PLACEHOLDER  # type: ignore[attr-defined]
        elif composer.placeholder == SHORT_ANSWER_PLACEHOLDER:  # type: ignore[attr-defined]
            composer.placeholder = DEFAULT_PLACEHOLDER  # type: ignore[attr-defined]
        if question is None and quiz.has_focus_within:
            composer.focus()
        self.refresh_bindings()

    def action_lesson(self) -> None:
        if self.turns.lesson_key():
            self._play_queue()
        self.call_later(self.show_lesson)

    def jump_to_scene(self, index: int) -> bool:
        """F5/F6 with a lesson: it plays that scene from its first step. False when there is no lesson."""
        if not self.turns.lesson_started() or not 0 <= index < len(self.classroom.scenes):
            return False
        if self.turns.jump(index):
            self._play_queue()
        self.call_later(self.show_lesson)
        return True
