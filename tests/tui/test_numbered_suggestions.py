"""The cue's suggestions are numbered ("1· Go on", "2· What is a for loop?"): a number typed alone sends that
suggestion, as picking it does, instead of "2" as a message the class cannot read."""

from __future__ import annotations

from maic_tui.classroom.lesson_steps import Phase
from maic_tui.room.view import LearnerMessage
from tests.tui.helpers import demo_app, ready, say, wait_for


async def test_a_number_typed_at_numbered_suggestions_sends_that_suggestion() -> None:
    app = demo_app("python-loops", lesson=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        lesson = app.room.turns.lesson
        await wait_for(pilot, lambda: lesson is not None and lesson.phase == Phase.WAITING
                       and bool(app.query(".cue-option")), timeout=30)
        labels = [str(button.label) for button in app.query(".cue-option")]
        assert labels[1].startswith("2· ")
        await say(pilot, "2")
        await wait_for(pilot, lambda: any(isinstance(e, LearnerMessage) for e in app.room.view.entries))
        sent = [e.text for e in app.room.view.entries if isinstance(e, LearnerMessage)]
        assert sent == [labels[1].removeprefix("2· ")]
