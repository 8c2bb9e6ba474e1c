"""Pilot tests: the lesson starts by itself, waits at a pause, stops for a question typed mid-lecture and goes on
with F7, F6 jumps to the quiz, options are picked from a list, the score is kept; a resumed session waits."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.widgets import OptionList, SelectionList

from maic_tui.classroom import load_classroom
from maic_tui.classroom.lesson_steps import Phase
from maic_tui.live.assembly import build_session
from maic_tui.llm.pace import Pace
from maic_tui.room.view import AgentMessage, LearnerMessage, SystemNote
from maic_tui.tui.scenes.interactive import InteractivePanel
from maic_tui.tui.scenes.quiz import QuizPanel
from maic_tui.tui.widgets.lesson_panel import LessonLine
from tests.tui.helpers import demo_app, ready, recorded_app, say, wait_for


def _phase(app: object) -> Phase | None:
    lesson = app.room.turns.lesson  # type: ignore[attr-defined]
    return lesson.phase if lesson is not None else None


def _waiting(app: object) -> bool:
    return _phase(app) == Phase.WAITING and not app.room.turns.running  # type: ignore[attr-defined]


async def test_the_class_starts_by_itself_and_waits_at_its_first_pause() -> None:
    app = demo_app(lesson=True)
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: _waiting(app))
        first = next(e for e in app.room.view.entries if isinstance(e, AgentMessage))
        assert first.agent_id == "reyes" and first.text.startswith("Welcome, Sam.")
        assert not [e for e in app.room.view.entries if isinstance(e, LearnerMessage)]  # nobody typed anything
        line = app.query_one(LessonLine)
        assert line.display and "1/5 Slopes everywhere" in str(line.render()) and "your turn" in str(line.render())
        cue = app.room.view.cue
        assert cue is not None and cue.prompt == "Anything unclear before we define the derivative?"
        said = [e for e in app.room.view.entries if isinstance(e, AgentMessage)][-1]
        assert said.text == cue.prompt and said.agent_id == "reyes"  # the pause's question is said, in the transcript
        await pilot.press("f7")  # go on: at this pace the lesson runs on to the discussion, which hands over
        await wait_for(pilot, lambda: _waiting(app) and app.room.view.scene_index == 2)
        assert "3/5 Shortcuts: the power rule" in str(line.render()) and "your turn" in str(line.render())
        await pilot.press("f7")  # nothing to add to the discussion: on to the secant, whose widget waits to be worked
        await wait_for(pilot, lambda: _waiting(app) and app.room.view.scene_index == 3)
        assert app.query_one(InteractivePanel).display and not app.query_one(QuizPanel).display
        await pilot.press("f7")  # on to the quiz, which asks its first question
        await wait_for(pilot, lambda: _waiting(app) and app.query_one(QuizPanel).display)
        assert not app.query_one(InteractivePanel).display
        assert "What is the derivative of x^4?" in app.room.view.entries[-1].text  # type: ignore[union-attr]


async def test_slides_paged_while_the_class_gets_ready_are_where_the_lesson_starts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from maic_tui.tui.parts import the_class

    building = threading.Event()
    monkeypatch.setattr(the_class, "build_session", lambda *a: building.wait(10) and build_session(*a))
    app = demo_app(lesson=True)
    async with app.run_test(size=(140, 45)) as pilot:
        await wait_for(pilot, lambda: app.room.is_open)
        await pilot.press("f6", "f6")  # a learner skipping ahead before the class is ready
        assert app.room.session is None and app.room.view.scene_index == 2
        building.set()
        await ready(pilot)
        await wait_for(pilot, lambda: _waiting(app))
        assert app.room.view.scene_index == 2
        first = next(e for e in app.room.view.entries if isinstance(e, AgentMessage))
        assert not first.text.startswith("Welcome, Sam.")  # scene 1's opening was not played
        lesson = app.room.turns.lesson
        assert lesson is not None and lesson.cursor.scene == 2


async def test_a_letter_typed_at_the_option_list_is_the_answer_sent_not_the_highlighted_option() -> None:
    app = demo_app(lesson=True)
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: _waiting(app))
        app.room.go_to_scene(4)  # the quiz
        await wait_for(pilot, lambda: _waiting(app) and app.query_one(QuizPanel).display)
        assert app.query_one(QuizPanel).query_one(OptionList).has_focus
        await pilot.press("b", "enter")  # as typed: the option list has the focus, A is highlighted
        await wait_for(pilot, lambda: any(isinstance(e, SystemNote) and "x^4" in e.text
                                          for e in app.room.view.entries))
        note = next(e.text for e in app.room.view.entries if isinstance(e, SystemNote) and "x^4" in e.text)
        assert note.startswith("✘ What is the derivative of x^4? You answered “B) x^3”: 0/1.")
        assert "The answer: A) 4x^3." in note and "Bring the 4 down" in note
        learner = [e.text for e in app.room.view.entries if isinstance(e, LearnerMessage)]
        assert learner[-1] == "b"


async def test_a_question_typed_mid_lecture_waits_for_the_step_then_f7_goes_back_to_the_lesson() -> None:
    # Slow enough that the question surely arrives while the first message (five steps by the teacher) is read,
    # however busy the machine: at 400 characters a second it could reach the pause first.
    app = demo_app(lesson=True, pace=60)
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: any(isinstance(e, AgentMessage) for e in app.room.view.entries))
        await say(pilot, "What is a derivative?")
        app.room.turns.set_pace(Pace(0))  # sent: the rest needs no listening at 60 characters a second
        await wait_for(pilot, lambda: _phase(app) == Phase.LIVE and not app.room.turns.running, timeout=40)
        learner = next(i for i, e in enumerate(app.room.view.entries) if isinstance(e, LearnerMessage))
        before = [e for e in app.room.view.entries[:learner] if isinstance(e, AgentMessage)]
        assert before and not any(m.interrupted for m in before)  # the step being read was finished
        answers = [e for e in app.room.view.entries[learner:] if isinstance(e, AgentMessage)]
        assert answers and answers[0].agent_id == "reyes"  # Q&A: the teacher answers
        assert "Q&A · F7 continues the lesson: 1/5" in str(app.query_one(LessonLine).render())
        stopped_at = app.room.turns.lesson.cursor.position  # type: ignore[union-attr]
        await pilot.press("f7")
        # Back to the lesson from where it stopped: how many steps are left before the pause depends on when the
        # question arrived, so the test waits for the lesson to move on, not for a message.
        await wait_for(pilot, lambda: _waiting(app) or app.room.turns.lesson.cursor.position > stopped_at,  # type: ignore[union-attr]
                       timeout=20)
        assert _phase(app) in (Phase.PLAYING, Phase.PAUSED, Phase.WAITING)


async def test_esc_stops_the_lecture_at_once_and_f7_pauses_and_resumes() -> None:
    app = demo_app(lesson=True, pace=60)
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: any(isinstance(e, AgentMessage) and e.text for e in app.room.view.entries))
        await pilot.press("f7")
        assert _phase(app) == Phase.PAUSED
        assert "paused · F7 resume" in str(app.query_one(LessonLine).render())
        await pilot.press("f7")
        assert _phase(app) == Phase.PLAYING
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.room.turns.running)
        message = next(e for e in app.room.view.entries if isinstance(e, AgentMessage))
        assert message.interrupted and not message.text.endswith("shortcuts.")
        assert _phase(app) == Phase.LIVE and app.room.turns.lesson.cursor.position == (0, 0)  # type: ignore[union-attr]


async def test_the_quiz_is_picked_from_a_list_and_the_score_is_kept() -> None:
    app = demo_app(lesson=True)
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: _waiting(app))
        app.room.go_to_scene(4)  # as F6 four times would
        await wait_for(pilot, lambda: _waiting(app) and app.query_one(QuizPanel).display)
        picker = app.query_one(QuizPanel).query_one(OptionList)
        assert picker.has_focus and picker.option_count == 3
        await pilot.press("enter")  # A) 4x^3, the right answer
        await wait_for(pilot, lambda: app.query(SelectionList) and _waiting(app))
        several = app.query_one(SelectionList)
        assert several.has_focus
        await pilot.press("space", "down", "down", "space", "enter")  # Speed and Acceleration
        await wait_for(pilot, lambda: _waiting(app) and not app.query_one(QuizPanel).display)
        notes = [e.text for e in app.room.view.entries if isinstance(e, SystemNote)]
        assert "✔ What is the derivative of x^4? You answered “A) 4x^3”: 1/1." in notes[-2]
        assert notes[-1].startswith("✔ Which of these are rates of change? You answered “A) Speed; C) Acceleration”")
        assert app.query_one("Composer").has_focus  # a short answer is typed
        await say(pilot, "the slope: how fast it changes")
        await wait_for(pilot, lambda: _phase(app) == Phase.ENDED and not app.room.turns.running)
        line = str(app.query_one(LessonLine).render())
        assert "Lesson over · score 5/5" in line  # the two rates of change are a point each


async def test_a_resumed_session_waits_where_the_lesson_stopped(tmp_path: Path, private_data_dir: Path) -> None:
    from maic_tui.live.assembly import SessionRecipe
    from maic_tui.llm import ModelOptions
    from maic_tui.log.store import LogStore
    from maic_tui.room.replay import open_recorded
    from maic_tui.tui.app import ClassroomApp

    room = load_classroom("water-cycle")
    recipe = SessionRecipe("demo", ModelOptions(pace=0), data_dir=private_data_dir, classroom_name="water-cycle")
    app = ClassroomApp(room, recipe)
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: _waiting(app))  # the pause of scene 2
        position = app.room.turns.lesson.cursor.position  # type: ignore[union-attr]
        app.close_session()
    recorded = open_recorded(private_data_dir, LogStore(private_data_dir).sessions()[0].id)
    again = ClassroomApp(recorded.classroom, SessionRecipe("demo", ModelOptions(pace=0),
                                                           data_dir=private_data_dir, resume=recorded))
    async with again.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await pilot.pause(0.3)
        assert _phase(again) == Phase.LIVE and not again.room.turns.running
        assert again.room.turns.lesson.cursor.position == position  # type: ignore[union-attr]
        assert "F7 continues the lesson" in str(again.query_one(LessonLine).render())
        first = next(e.text for e in again.room.view.entries if isinstance(e, SystemNote) and "Resumed" in e.text)
        assert first.endswith("(0 turns so far · scene 2/5 · score 0/2).")  # where the lesson is, not just turns
        await pilot.press("f7")
        await wait_for(pilot, lambda: again.room.turns.running or _phase(again) != Phase.LIVE)


async def test_the_first_line_says_the_demo_answers_from_prepared_material(tmp_path: Path) -> None:
    from maic_tui.tui.parts.the_class import DEMO_NOTE
    from tests.engine_helpers import classroom
    from tests.tui.helpers import script_app

    app = demo_app()
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        first = app.room.view.entries[0]
        assert isinstance(first, SystemNote) and first.text == DEMO_NOTE
        assert "prepared material" in DEMO_NOTE and "--model openai:" in DEMO_NOTE
    real = script_app(tmp_path, {"director": [], "agents": {}}, classroom())
    async with real.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        assert not any(isinstance(e, SystemNote) and e.text == DEMO_NOTE for e in real.room.view.entries)


async def test_a_replayed_lesson_shows_where_the_lesson_was_and_its_score(private_data_dir: Path) -> None:
    import math

    from maic_tui.live.assembly import Replay, SessionRecipe
    from maic_tui.log.store import LogStore
    from maic_tui.room.replay import open_recorded
    from maic_tui.tui.app import ClassroomApp

    live = recorded_app(private_data_dir, "water-cycle", lesson=True)
    async with live.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: _waiting(live))  # the first pause
        shown_live = str(live.query_one(LessonLine).render())
        live.close_session()
    recorded = open_recorded(private_data_dir, LogStore(private_data_dir).sessions()[0].id)
    replaying = ClassroomApp(recorded.classroom, SessionRecipe(replay=Replay(recorded.records, math.inf, "x.jsonl")))
    async with replaying.run_test(size=(140, 45)) as pilot:
        await wait_for(pilot, lambda: any("End of the replay" in getattr(e, "text", "")
                                          for e in replaying.room.view.entries))
        await pilot.pause(0.2)
        line = replaying.query_one(LessonLine)
        assert line.display
        where = shown_live.split(" · your turn")[0]  # "📖 1/5 Title · step n/m": where, without the keys
        assert str(line.render()) == where and "F7" not in str(line.render())


async def test_f8_and_f9_change_the_pace_down_to_step_by_step_which_waits_for_f7_after_each_step() -> None:
    app = demo_app(lesson=True)
    async with app.run_test(size=(140, 45)) as pilot:
        await ready(pilot)
        await wait_for(pilot, lambda: _waiting(app))  # at the first pause (played at once: pace 0)
        lesson = app.room.turns.lesson
        assert lesson is not None
        await pilot.press("f8")
        assert lesson.pacing.pace.words() == "1500 wpm"
        await pilot.press(*["f8"] * 9)
        assert lesson.pacing.step_by_step
        await pilot.press("f9", "f8")  # faster, then back to step by step
        assert lesson.pacing.step_by_step
        await pilot.press("f7")  # past the pause: one step, then the lesson waits for F7
        await wait_for(pilot, lambda: _phase(app) == Phase.PAUSED)
        position = lesson.cursor.position
        await wait_for(pilot, lambda: "F7 next step · F8/F9 pace: step by step" in str(
            app.query_one(LessonLine).render()))  # drawn from the view model at the next frame
        await pilot.press("f7")
        await wait_for(pilot, lambda: lesson.cursor.position != position and _phase(app) == Phase.PAUSED)
        await pilot.press("f9")  # out of step by step: the lesson plays on by itself
        await wait_for(pilot, lambda: _phase(app) in (Phase.WAITING, Phase.LIVE, Phase.PLAYING)
                       and lesson.cursor.scene >= 1)
