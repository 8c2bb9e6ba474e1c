"""The lesson's state machine: play, pause, a learner message (live Q&A) and going on from the same step,
pauses and questions that wait, scores, scene jumps, the end."""

from __future__ import annotations

from pathlib import Path

from maic_tui.classroom import load_classroom
from maic_tui.classroom.lesson_steps import Phase
from maic_tui.classroom.models import Classroom
from maic_tui.classroom.quiz import grade_by_keywords, grade_choice
from maic_tui.live.lesson_cursor import LessonCursor
from tests.test_classroom import MINIMAL
from tests.test_lesson_files import QUIZ, STUDENT, slide

SCRIPT = ('script = [{ agent = "t", say = "Look here." }, { agent = "t", action = "spotlight", '
          'params = { elementId = "lead" } }, { pause = true, prompt = "Ready?" }, '
          '{ agent = "s", say = "Ready!" }]')
PLAIN_SLIDE = '\n[[scenes]]\nid = "more"\ntitle = "More"\n[[scenes.elements]]\ntype = "text"\nid = "m"\ntext = "x"\n'


def lesson(tmp_path: Path) -> Classroom:
    path = tmp_path / "lesson.toml"
    path.write_text(MINIMAL + STUDENT + slide(SCRIPT) + PLAIN_SLIDE + QUIZ, encoding="utf-8")
    return load_classroom(path)


def test_steps_come_from_scripts_and_a_scene_without_one_is_presented(tmp_path: Path) -> None:
    cursor = LessonCursor.of(lesson(tmp_path))
    assert [[s.kind for s in steps] for steps in cursor.scenes] == [["say", "action", "pause", "say"], ["present"],
                                                                  ["ask", "ask"]]
    assert cursor.phase == Phase.IDLE and cursor.score() == (0, 3)


def test_playing_through_waits_at_a_pause_and_at_each_question_then_ends_with_the_score(tmp_path: Path) -> None:
    room = lesson(tmp_path)
    cursor = LessonCursor.of(room)
    step = cursor.start()
    assert step is not None and step.kind == "say" and cursor.phase == Phase.PLAYING
    assert cursor.step_done().kind == "action"  # type: ignore[union-attr]
    pause = cursor.step_done()
    assert pause is not None and pause.kind == "pause"
    assert cursor.step_done() is pause and cursor.phase == Phase.WAITING  # it waits for the learner
    assert cursor.step_done() is pause  # and does not move on by itself
    assert cursor.answered().kind == "say" and cursor.phase == Phase.PLAYING  # type: ignore[union-attr]
    assert cursor.step_done().kind == "present"  # type: ignore[union-attr]
    first = cursor.step_done()
    assert first is not None and first.question is not None and first.question.id == "q1"
    cursor.step_done()
    second = cursor.answered(grade_choice(first.question, ["b"]))
    assert second is not None and second.question is not None
    cursor.step_done()
    assert cursor.answered(grade_by_keywords(second.question, "the slope")) is None
    assert cursor.phase == Phase.ENDED and cursor.score() == (2, 3)
    assert cursor.progress() == "lesson over · score 2/3"


def test_a_learner_message_goes_live_and_the_lesson_goes_on_from_the_same_step(tmp_path: Path) -> None:
    cursor = LessonCursor.of(lesson(tmp_path))
    cursor.start()
    cursor.step_done()
    at = cursor.current
    cursor.learner_spoke()
    assert cursor.phase == Phase.LIVE and cursor.step_done() is at  # nothing plays while live
    assert cursor.go_on() is at and cursor.phase == Phase.PLAYING
    assert cursor.progress() == "scene 1/3 · step 2/4 · playing"


def test_pause_holds_the_lesson_and_resume_goes_on(tmp_path: Path) -> None:
    cursor = LessonCursor.of(lesson(tmp_path))
    cursor.start()
    cursor.pause()
    assert cursor.phase == Phase.PAUSED
    cursor.learner_spoke()  # a question while paused is live too
    assert cursor.phase == Phase.LIVE
    cursor.go_on()
    cursor.pause()
    cursor.resume()
    assert cursor.phase == Phase.PLAYING and cursor.current is not None and cursor.current.index == 0


def test_jumping_to_a_scene_starts_it_and_replays_a_finished_lesson(tmp_path: Path) -> None:
    cursor = LessonCursor.of(lesson(tmp_path))
    cursor.start()
    assert cursor.jump(2).kind == "ask"  # type: ignore[union-attr]
    cursor.step_done()
    assert cursor.phase == Phase.WAITING
    assert cursor.jump(0).index == 0 and cursor.phase == Phase.PLAYING  # type: ignore[union-attr]
    assert cursor.jump(9) is cursor.current  # no such scene: nothing changes
    cursor.jump(2)
    for _ in range(2):
        cursor.step_done()
        cursor.answered()
    assert cursor.phase == Phase.ENDED and cursor.current is None
    assert cursor.jump(1).kind == "present" and cursor.phase == Phase.PLAYING  # type: ignore[union-attr]


def test_a_classroom_without_scenes_is_over_at_once() -> None:
    cursor = LessonCursor.of(load_classroom("derivatives").model_copy(update={"scenes": []}))
    assert cursor.start() is None and cursor.phase == Phase.ENDED
