"""The quiz panel's options: a multiple choice shows which options are ticked without colour (an unticked box is
empty, a ticked one has its X), so a monochrome terminal tells them apart."""

from __future__ import annotations

from textual.app import App, ComposeResult

from maic_tui.classroom.loader import load_classroom
from maic_tui.room.lesson_state import LessonStatus
from maic_tui.tui.scenes.quiz import QuizPanel, SeveralChoices


class _Panel(App[None]):
    def compose(self) -> ComposeResult:
        yield QuizPanel()


async def test_unticked_options_are_drawn_empty_and_ticked_ones_with_their_mark() -> None:
    rates = next(q for scene in load_classroom("derivatives").scenes for q in scene.graded() if q.id == "rates")
    app = _Panel()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.query_one(QuizPanel).show(LessonStatus("Quiz", "Quiz", True, rates))
        await pilot.pause()
        picker = app.query_one(SeveralChoices)
        boxes = [picker.render_line(y).text[:3] for y in range(3)]
        assert boxes == ["▐ ▌", "▐ ▌", "▐ ▌"]  # nothing ticked: no box looks ticked
        picker.select(picker.get_option_at_index(2).value)
        await pilot.pause()
        assert [picker.render_line(y).text[:3] for y in range(3)] == ["▐ ▌", "▐ ▌", "▐X▌"]
