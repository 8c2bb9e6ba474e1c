"""Quiz grading: choice answers exact, several answers as a set, short answers by keywords (the demo) or by a
model's score and comment (clamped, one line, a malformed answer is a one-line error)."""

from __future__ import annotations

import re

import pytest

from maic_tui.classroom.lesson import QuizQuestion
from maic_tui.classroom.quiz import GradeError, grade_by_keywords, grade_choice, parse_grade

OPTIONS = [{"label": "one", "value": "a"}, {"label": "two", "value": "b"}, {"label": "three", "value": "c"}]
SINGLE = QuizQuestion(id="q1", type="single", question="?", options=OPTIONS, answer=["b"])  # type: ignore[arg-type]
MULTIPLE = QuizQuestion(id="q2", type="multiple", question="?", options=OPTIONS, answer=["a", "c"],  # type: ignore[arg-type]
                        points=2)
SHORT = QuizQuestion(id="q3", type="short_answer", question="What does a derivative measure?",
                     keywords=["slope", "rate"], points=2)


def test_a_single_choice_is_right_only_with_the_one_answer() -> None:
    assert grade_choice(SINGLE, ["b"]).correct and grade_choice(SINGLE, ["b"]).earned == 1
    assert not grade_choice(SINGLE, ["a"]).correct and grade_choice(SINGLE, ["a"]).earned == 0
    assert grade_choice(SINGLE, ["z"]).earned == 0  # no option: wrong


def test_several_answers_are_graded_as_a_set_with_the_points_per_right_option() -> None:
    assert grade_choice(MULTIPLE, ["c", "a"]).earned == 4  # 2 points per right option
    assert grade_choice(MULTIPLE, ["a", "c", "a"]).correct
    assert grade_choice(MULTIPLE, ["a"]).earned == 2 and grade_choice(MULTIPLE, ["a", "b", "c"]).earned == 2
    assert grade_choice(MULTIPLE, ["b"]).earned == 0 and not grade_choice(MULTIPLE, ["a"]).correct


def test_the_demo_grades_short_answers_by_their_keywords() -> None:
    full = grade_by_keywords(SHORT, "It is the Slope, the rate of change.")
    half = grade_by_keywords(SHORT, "the slope of the curve")
    none = grade_by_keywords(SHORT, "no idea")
    assert (full.earned, half.earned, none.earned) == (2, 1, 0)
    assert full.correct and not half.correct and "rate" in half.comment and "slope" in none.comment


@pytest.mark.parametrize(("raw", "earned", "comment"), [
    ('{"score": 2, "comment": "Exactly right."}', 2, "Exactly right."),
    ('Sure! {"score": 1, "comment": "Half of it.\\nMore"} done', 1, "Half of it. More"),
    ('{"score": 7, "comment": "x"}', 2, "x"),  # clamped to the question's points
    ('{"score": -3}', 0, ""),
    ('{"score": 0, "comment": "<one sentence to the learner>"}', 0, ""),  # a copied placeholder is no comment
])
def test_a_model_grade_is_clamped_to_the_points_and_one_line(raw: str, earned: int, comment: str) -> None:
    grade = parse_grade(raw, SHORT)
    assert (grade.earned, grade.comment, grade.points) == (earned, comment, 2)


@pytest.mark.parametrize("raw", ["", "great answer", '{"comment": "no score"}', '{"score": "high"}', "{oops",
                                 '{"score": true, "comment": "yes"}', '{"score": NaN}', '{"score": Infinity}'])
def test_a_grader_answer_without_a_score_is_one_line(raw: str) -> None:
    with pytest.raises(GradeError) as caught:
        parse_grade(raw, SHORT)
    assert "\n" not in str(caught.value) and "no score" in str(caught.value)


def test_feedback_names_a_keyword_stem_in_the_questions_own_words_and_the_reaction_does_not_stutter() -> None:
    from maic_tui.classroom.loader import load_classroom
    from maic_tui.demo.lesson_turns import reaction
    from maic_tui.live.lesson_talk import reaction_call

    room = load_classroom("derivatives")
    scene = next(n for n, s in enumerate(room.scenes) if s.question("meaning") is not None)
    meaning = room.scenes[scene].question("meaning")
    assert meaning is not None and "chang" in meaning.keywords  # a matching stem, not a word to show
    half = grade_by_keywords(meaning, "the slope of the tangent")
    assert half.comment == "Think about changing too."  # "changing", as the model answer says it
    assert grade_by_keywords(meaning, "no idea").comment == "The key idea is slope."
    said = reaction(room, room.agents[0], reaction_call(meaning, "the slope of the tangent", half, scene, "reyes"))
    line = said.steps[0].say or ""
    assert line.startswith("Partly right, Sam. Think about changing too.")
    assert "Partly there" not in line and re.search(r"\bchang\b", line) is None
