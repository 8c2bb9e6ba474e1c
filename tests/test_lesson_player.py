"""The lesson played: scripted steps as ordinary agent messages, pauses and questions that wait,
a slide presented through the model, Q&A in the middle and going on from the same step, Esc mid-speech,
pausing, scene jumps, grading, the teacher's reaction, the end with its score."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from maic_tui.classroom.answer_reading import read_choices
from maic_tui.classroom.lesson_steps import Phase
from maic_tui.classroom.models import Classroom
from maic_tui.events import (
    ActionEvent,
    AgentEndEvent,
    AgentStartEvent,
    CueUserEvent,
    DoneEvent,
    ErrorEvent,
    TextDeltaEvent,
)
from maic_tui.live.lesson_player import LessonPlayer
from maic_tui.live.lesson_talk import Pacing
from maic_tui.live.session import ClassroomSession
from maic_tui.llm import ModelOptions
from maic_tui.log.records import (
    InterruptRecord,
    LessonEndRecord,
    QuizResultRecord,
    Record,
    SceneRecord,
    StepRecord,
)
from tests.engine_helpers import lesson_reply, pick, text
from tests.test_lesson_cursor import lesson


def script_session(tmp_path: Path, room: Classroom, script: dict[str, Any]) -> ClassroomSession:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(script), encoding="utf-8")
    return ClassroomSession(room, f"script:{path}", ModelOptions())


async def collect(records: Any) -> list[Record]:
    return [record async for record in records]


def speech(records: list[Record]) -> str:
    return "".join(r.data.content for r in records if isinstance(r, TextDeltaEvent))


# The lesson of tests.test_lesson_cursor: intro (teacher says, spotlights, pause, student says), a slide without
# a script (presented by the teacher through the model), a quiz (single choice q1, short answer q2 of 2 points).
PRESENTED = "A slope is how steep a line is."
SCRIPT: dict[str, Any] = {
    "director": [pick("END")],  # after the teacher presented the slide
    "agents": {"t": [text(PRESENTED), text("Yes, two: well done."), text("Half of it: rate of change too.")]},
    "grader": [json.dumps({"score": 1, "comment": "Slope yes, rate missing."})],
}


async def test_the_lesson_plays_its_script_as_messages_and_waits_at_the_pause(tmp_path: Path) -> None:
    session = script_session(tmp_path, lesson(tmp_path), SCRIPT)
    player = LessonPlayer(session)
    records = await collect(player.play())
    assert isinstance(records[0], SceneRecord) and records[0].data.id == "intro"
    starts = [r for r in records if isinstance(r, AgentStartEvent)]
    # say + spotlight by one agent: one message; then the pause's prompt, said by the teacher
    assert [s.data.agent_id for s in starts] == ["t", "t"]
    assert speech(records) == "Look here.Ready?"
    action = next(r for r in records if isinstance(r, ActionEvent))
    assert action.data.action_name == "spotlight" and action.data.params["elementId"] == "lead"
    cue = next(r for r in records if isinstance(r, CueUserEvent))
    assert cue.data.prompt == "Ready?"
    assert player.phase == Phase.WAITING and player.cursor.position == (0, 2)
    steps = [(r.data.scene, r.data.index) for r in records if isinstance(r, StepRecord)]
    assert steps == [(0, 0), (0, 2)]  # where the lesson is, each time it moved: a resume goes on there
    # the director and agents hear what the lecture said, the pause's question included
    assert [entry.text for entry in session.history[-2:]] == ["Look here.", "Ready?"]


async def test_going_on_the_slide_without_a_script_is_presented_through_the_model(tmp_path: Path) -> None:
    session = script_session(tmp_path, lesson(tmp_path), SCRIPT)
    player = LessonPlayer(session)
    await collect(player.play())
    records = await collect(lesson_reply(player, "go on"))  # "go on" at a pause: no turn
    assert not any(isinstance(r, DoneEvent) for r in records) and player.phase == Phase.PLAYING
    records = await collect(player.play())
    assert "Ready!" in speech(records)  # the student's scripted line after the pause
    scenes = [r.data.id for r in records if isinstance(r, SceneRecord)]
    assert scenes == ["more", "check"]
    done = next(r for r in records if isinstance(r, DoneEvent))  # the presentation is a turn the lesson opened
    assert done.data.end_reason == "director_end" and not done.data.cue_user_received
    assert PRESENTED in speech(records)
    lesson_entry = next(e for e in session.history if e.role == "lesson")
    assert "Present the slide “More”" in lesson_entry.text
    assert player.phase == Phase.WAITING and player.cursor.current.question.id == "q1"  # type: ignore[union-attr]
    assert "Question (1 point): Slope of y = 2x? A) 1  B) 2" in speech(records)


QUIZ_SCRIPT: dict[str, Any] = {**SCRIPT, "agents": {"t": [text("Yes, two: well done."), text("Half of it.")]}}


async def test_quiz_answers_are_graded_the_teacher_reacts_and_the_lesson_ends_with_the_score(tmp_path: Path) -> None:
    session = script_session(tmp_path, lesson(tmp_path), QUIZ_SCRIPT)
    player = LessonPlayer(session)
    player.jump(2)
    await collect(player.play())
    first = await collect(lesson_reply(player, "B) 2"))
    result = next(r for r in first if isinstance(r, QuizResultRecord)).data
    assert (result.question_id, result.answer, result.correct, result.earned) == ("q1", "B) 2", True, 1)
    assert (result.question, result.right_answer) == ("Slope of y = 2x?", "B) 2")  # the feedback names them
    reaction = next(r for r in first if isinstance(r, DoneEvent))
    assert reaction.data.total_agents == 1 and "well done" in speech(first)
    await collect(player.play())
    second = await collect(lesson_reply(player, "the slope of the curve"))
    graded = next(r for r in second if isinstance(r, QuizResultRecord)).data
    assert (graded.earned, graded.points, graded.correct, graded.comment) == (1, 2, False, "Slope yes, rate missing.")
    assert "That's the quiz: 2 of 3 points." in speech(second)
    assert "you scored 2 of 3 points" in speech(second)
    end = next(r for r in second if isinstance(r, LessonEndRecord)).data
    assert (end.score, end.max_score, end.scenes) == (2, 3, 3)
    assert [(r.question_id, r.answer, r.earned, r.correct) for r in end.review] == [
        ("q1", "B) 2", 1, True), ("q2", "the slope of the curve", 1, False)]
    assert "Type “retry” or press F7 to try the question you missed again." in speech(second)
    assert player.phase == Phase.ENDED


async def test_go_on_at_a_question_asks_for_an_answer_and_a_number_answers_it(tmp_path: Path) -> None:
    session = script_session(tmp_path, lesson(tmp_path), QUIZ_SCRIPT)
    player = LessonPlayer(session)
    player.jump(2)
    await collect(player.play())
    asked = await collect(lesson_reply(player, "go on"))
    assert not any(isinstance(r, QuizResultRecord) for r in asked)  # not graded
    assert "type its number, 1 to 2, its letter, A, B, or the option itself" in speech(asked)
    assert player.phase == Phase.WAITING and player.cursor.current.question.id == "q1"  # type: ignore[union-attr]
    first = await collect(lesson_reply(player, "2"))
    result = next(r for r in first if isinstance(r, QuizResultRecord)).data
    assert (result.question_id, result.answer, result.correct) == ("q1", "B) 2", True)


async def test_after_the_lesson_retry_asks_the_missed_questions_again_and_ends_with_the_new_score(
        tmp_path: Path) -> None:
    script = {**QUIZ_SCRIPT, "agents": {"t": [text("Well done."), text("Half of it."), text("Now all of it.")]},
              "grader": [json.dumps({"score": 1, "comment": "Half."}), json.dumps({"score": 2, "comment": "All."})]}
    session = script_session(tmp_path, lesson(tmp_path), script)
    player = LessonPlayer(session)
    player.jump(2)
    await collect(player.play())
    await collect(lesson_reply(player, "b"))
    await collect(player.play())
    await collect(lesson_reply(player, "the slope"))
    assert player.phase == Phase.ENDED and player.cursor.missed()[0].question.id == "q2"  # type: ignore[union-attr]
    again = await collect(lesson_reply(player, "retry"))
    assert not any(isinstance(r, DoneEvent) for r in again) and player.phase == Phase.PLAYING
    asked = await collect(player.play())
    assert "Question (2 points)" in speech(asked) and "Slope of y = 2x" not in speech(asked)  # only the missed one
    assert player.phase == Phase.WAITING
    last = await collect(lesson_reply(player, "the slope: how fast it changes"))
    end = next(r for r in last if isinstance(r, LessonEndRecord)).data
    assert (end.score, end.max_score) == (3, 3) and all(r.correct for r in end.review)
    assert player.phase == Phase.ENDED and not player.retry()  # nothing missed any more


async def test_a_grader_that_answers_nonsense_is_one_error_line_and_the_keywords_grade(tmp_path: Path) -> None:
    session = script_session(tmp_path, lesson(tmp_path), {**QUIZ_SCRIPT, "grader": ["no idea"]})
    player = LessonPlayer(session)
    player.jump(2)
    await collect(player.play())
    await collect(lesson_reply(player, "A"))
    await collect(player.play())
    records = await collect(lesson_reply(player, "it is the slope, the rate of change"))
    error = next(r for r in records if isinstance(r, ErrorEvent)).data.message
    assert "grader" in error and "keywords" in error and "\n" not in error
    graded = next(r for r in records if isinstance(r, QuizResultRecord)).data
    assert graded.earned == 2  # both expected keywords


async def test_the_demo_grades_a_short_answer_by_its_keywords(tmp_path: Path) -> None:
    session = ClassroomSession(lesson(tmp_path), "demo", ModelOptions(pace=0))
    player = LessonPlayer(session)
    player.jump(2)
    await collect(player.play())
    await collect(lesson_reply(player, "a"))  # wrong
    await collect(player.play())
    records = await collect(lesson_reply(player, "it measures a slope"))
    graded = next(r for r in records if isinstance(r, QuizResultRecord)).data
    assert (graded.earned, graded.points) == (1, 2)
    assert player.cursor.score() == (1, 3)


def test_choices_are_read_from_values_labels_letters_and_picked_lines() -> None:
    from maic_tui.classroom import load_classroom

    rates = load_classroom("derivatives").scenes[-1].question("rates")
    assert rates is not None
    assert read_choices(rates, "C) Acceleration; A) Speed") == ["acceleration", "speed"]
    assert read_choices(rates, "speed, acceleration") == ["speed", "acceleration"]
    assert read_choices(rates, "b") == ["distance"]
    assert read_choices(rates, "velocity") == ["velocity"]  # kept as typed, graded wrong


async def test_esc_mid_speech_cuts_the_message_and_the_step_plays_again_from_its_start(tmp_path: Path) -> None:
    session = script_session(tmp_path, lesson(tmp_path), SCRIPT)
    player = LessonPlayer(session, Pacing(chars_per_second=200))
    records: list[Record] = []

    async def play() -> None:
        async for record in player.play():
            records.append(record)
            if isinstance(record, TextDeltaEvent):
                player.cut()

    await asyncio.wait_for(play(), 5)
    assert isinstance(records[-2], InterruptRecord) and isinstance(records[-1], AgentEndEvent)
    assert speech(records) == "Look here."[:len(speech(records))] and speech(records) != ""
    assert session.history[-1].interrupted
    assert player.cursor.position == (0, 0)  # the cut step replays
    again = await collect(player.play())
    assert speech(again) == "Look here.Ready?" and player.phase == Phase.WAITING


async def test_a_learner_message_stops_the_lecture_after_its_step_runs_as_q_and_a_and_the_lesson_goes_on(
        tmp_path: Path) -> None:
    session = ClassroomSession(lesson(tmp_path), "demo", ModelOptions(pace=0))
    player = LessonPlayer(session, Pacing(chars_per_second=500))
    records: list[Record] = []
    async for record in player.play():
        records.append(record)
        if isinstance(record, TextDeltaEvent):
            player.hold()  # the learner typed while the teacher spoke
    assert speech(records) == "Look here."  # the step was finished (with its spotlight), then it stopped
    assert player.cursor.position == (0, 2) and player.phase == Phase.PLAYING
    player.jump(0)
    qa = await collect(lesson_reply(player, "What is a slope?"))
    assert isinstance(qa[-1], DoneEvent) and player.phase == Phase.LIVE
    assert player.cursor.position == (0, 0)  # the lesson kept its place
    player.go_on()
    resumed = await collect(player.play())
    assert speech(resumed).startswith("Look here.") and player.phase == Phase.WAITING


async def test_pausing_freezes_the_lecture_mid_sentence_and_resuming_finishes_it(tmp_path: Path) -> None:
    session = script_session(tmp_path, lesson(tmp_path), SCRIPT)
    player = LessonPlayer(session, Pacing(chars_per_second=2000))
    seen: list[Record] = []

    async def play() -> None:
        async for record in player.play():
            seen.append(record)
            if isinstance(record, AgentStartEvent) and len(seen) < 5:  # the first message, not the pause's
                player.pause()

    task = asyncio.create_task(play())
    await asyncio.sleep(0.2)
    assert player.phase == Phase.PAUSED and speech(seen) == "" and not task.done()
    player.resume()
    await asyncio.wait_for(task, 5)
    assert speech(seen) == "Look here.Ready?" and player.phase == Phase.WAITING


async def test_a_discussion_step_is_a_director_turn_opened_by_its_agent(tmp_path: Path) -> None:
    from tests.test_classroom import MINIMAL
    from tests.test_lesson_files import STUDENT, slide

    path = tmp_path / "talk.toml"
    path.write_text(MINIMAL + STUDENT + slide('script = [{ discussion = "Are slopes fun?", agent = "s" }, '
                                                     '{ agent = "t", say = "Back to slopes." }]'),
                    encoding="utf-8")
    from maic_tui.classroom import load_classroom

    script = {"director": [pick("t"), pick("USER", prompt="Your view?"), pick("t"), pick("USER"), pick("t"),
                           pick("USER")],
              "agents": {"s": [text("Slopes are fun!")],
                         "t": [text("Why do you think so?"), text("Can you say why?"), text("Fair: steep is fun.")]}}
    session = script_session(tmp_path, load_classroom(path), script)
    player = LessonPlayer(session)
    records = await collect(player.play())
    starts = [r.data.agent_id for r in records if isinstance(r, AgentStartEvent)]
    assert starts[:2] == ["s", "t"]  # the opener first, then the director's choice
    assert any(isinstance(r, CueUserEvent) and r.data.prompt == "Your view?" for r in records)
    assert player.phase == Phase.WAITING  # the discussion waits for the learner's contribution
    asked_back = await collect(lesson_reply(player, "They are steep"))
    assert speech(asked_back) == "Can you say why?" and player.phase == Phase.LIVE  # asked back: the class waits
    assert player.cursor.position == (0, 1)  # past the discussion: F7 (or "go on") plays the next step
    await collect(lesson_reply(player, "Because hills"))
    assert player.phase == Phase.LIVE  # Q&A until the learner goes on
    player.go_on()
    end = await collect(player.play())
    assert "Back to slopes." in speech(end) and any(isinstance(r, LessonEndRecord) for r in end)


async def test_a_contribution_answered_without_a_question_lets_the_lesson_go_on(tmp_path: Path) -> None:
    from tests.test_classroom import MINIMAL
    from tests.test_lesson_files import STUDENT, slide

    path = tmp_path / "talk.toml"
    path.write_text(MINIMAL + STUDENT + slide('script = [{ discussion = "Are slopes fun?", agent = "s" }, '
                                                     '{ agent = "t", say = "Back to slopes." }]'),
                    encoding="utf-8")
    from maic_tui.classroom import load_classroom

    script = {"director": [pick("t"), pick("USER"), pick("t"), pick("USER")],
              "agents": {"s": [text("Slopes are fun!")], "t": [text("What do you say?"), text("Fair: steep is fun.")]}}
    session = script_session(tmp_path, load_classroom(path), script)
    player = LessonPlayer(session)
    await collect(player.play())
    assert player.phase == Phase.WAITING
    await collect(lesson_reply(player, "They are steep"))
    assert player.phase == Phase.PLAYING  # the class said its piece: the lesson goes on
    assert "Back to slopes." in speech(await collect(player.play()))


async def test_f7_at_a_discussion_goes_on_without_a_contribution(tmp_path: Path) -> None:
    from tests.test_classroom import MINIMAL
    from tests.test_lesson_files import STUDENT, slide

    path = tmp_path / "talk.toml"
    path.write_text(MINIMAL + STUDENT + slide('script = [{ discussion = "Are slopes fun?", agent = "s" }, '
                                                     '{ agent = "t", say = "Back to slopes." }]'),
                    encoding="utf-8")
    from maic_tui.classroom import load_classroom

    script = {"director": [pick("t"), pick("USER")],
              "agents": {"s": [text("Slopes are fun!")], "t": [text("What do you say?")]}}
    player = LessonPlayer(script_session(tmp_path, load_classroom(path), script))
    await collect(player.play())
    assert player.phase == Phase.WAITING
    player.go_on()
    assert "Back to slopes." in speech(await collect(player.play()))


async def test_at_a_pause_a_question_back_anywhere_in_the_answer_keeps_the_lesson_waiting(tmp_path: Path) -> None:
    script = {"director": [pick("t"), pick("s"), pick("USER")],
              "agents": {"t": [text("A slope is steepness. Can you guess the slope of y = 3x?")],
                         "s": [text("I think I know it.")]}}
    player = LessonPlayer(script_session(tmp_path, lesson(tmp_path), script))
    await collect(player.play())
    assert player.phase == Phase.WAITING  # at the pause
    await collect(lesson_reply(player, "What is a slope?"))
    assert player.phase == Phase.LIVE and player.cursor.position == (0, 3)  # waits; F7 plays the next step
