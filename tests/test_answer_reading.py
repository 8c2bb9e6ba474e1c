"""Answers read as people type them: letters with or without punctuation, labels and values with spacing and
punctuation ignored, several answers in plain language; multiple choice with partial credit; a short answer's
accepted forms; feedback that names the question, the answer, the right one and why."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from maic_tui.classroom.answer_reading import accepted, no_answer, read_choices, says_expected
from maic_tui.classroom.lesson import QuizQuestion
from maic_tui.classroom.loader import load_classroom
from maic_tui.classroom.quiz import grade_choice, grade_offline, question_text, right_answer


def question(classroom: str, question_id: str) -> QuizQuestion:
    found = next(q for scene in load_classroom(classroom).scenes for q in scene.graded() if q.id == question_id)
    return found


RANGE = question("python-loops", "range-end")  # A) 2, 3, 4  B) 2, 3, 4, 5  C) 3, 4, 5; right: A
POWER = question("derivatives", "power-rule")  # A) 4x^3  B) x^3  C) 4x^4; right: A
RATES = question("derivatives", "rates")  # A) Speed  B) Distance  C) Acceleration; right: A and C
COMPREHENSION = question("python-loops", "comprehension")


@pytest.mark.parametrize(("typed", "value"), [
    ("b", "b"), ("B", "b"), ("B)", "b"), ("(b)", "b"), ("b.", "b"), (" c ", "c"), ("[c]", "c"), ("a:", "a"),
    ("x^3", "b"), ("X^3", "b"), ("4x^3", "a"), ("4 x ^ 3", "a"), ("B) x^3", "b"), ("I think b", "b"),
    ("the answer is C", "c"), ("it's 4x^4.", "c"), ("I think it's b", "b"), ("I guess it is 4x^3!", "a"),
    ("4x^3?", "a"), ("its x^3 i think?", "b"), ("c, right?", "c"),
])
def test_a_single_choice_is_read_from_a_letter_a_label_or_a_picked_line(typed: str, value: str) -> None:
    assert read_choices(POWER, typed) == [value]


@pytest.mark.parametrize(("typed", "value"), [
    ("1", "a"), ("(1)", "a"), ("1)", "a"), ("1.", "a"), ("option 2", "b"), ("Option 2", "b"), ("the second one", "b"),
    ("second", "b"), ("2nd", "b"), ("#3", "c"), ("the third option", "c"), ("I think 3", "c"), ("letter b", "b"),
    ("option B", "b"), ("choice 1", "a"),
])
def test_an_option_is_read_from_its_number_or_ordinal_as_the_numbered_lists_show_it(typed: str, value: str) -> None:
    assert read_choices(POWER, typed) == [value]
    assert grade_offline(POWER, "1").correct and not grade_offline(POWER, "2").correct


@pytest.mark.parametrize("typed", ["1 and 3", "1,3", "1, 3", "1 3", "options 1 and 3", "the first and the third",
                                   "(1) and (3)"])
def test_several_options_are_read_from_their_numbers(typed: str) -> None:
    assert read_choices(RATES, typed) == ["speed", "acceleration"]


def test_an_options_own_label_wins_over_its_number_and_a_number_past_the_list_names_nothing() -> None:
    assert read_choices(RANGE, "2") == ["b"]  # python-loops' "2": the second option, no label is "2"
    assert read_choices(RANGE, "2, 3, 4") == ["a"]  # a label of numbers is the label
    assert read_choices(POWER, "4") == ["4"] and read_choices(POWER, "0") == ["0"]


def test_a_reply_that_only_asks_to_go_on_is_no_answer_unless_it_names_an_option() -> None:
    assert no_answer(POWER, "go on") and no_answer(POWER, "next") and no_answer(COMPREHENSION, "ok")
    assert not no_answer(POWER, "1") and not no_answer(POWER, "b")
    yes_no = POWER.model_copy(update={"options": [o.model_copy(update={"label": label}) for o, label in
                                                   zip(POWER.options, ["Yes", "No", "Maybe"], strict=True)]})
    assert not no_answer(yes_no, "no")  # an option called "No" is an answer


@pytest.mark.parametrize("typed", ["2,3,4", "2 3 4", "2, 3, 4", "A)", "a", "(A)", "2,3, 4"])
def test_right_answers_as_people_type_them_score_on_range(typed: str) -> None:
    assert grade_offline(RANGE, typed).correct


def test_labels_that_share_a_prefix_are_not_confused() -> None:
    assert read_choices(RANGE, "2,3,4,5") == ["b"] and read_choices(RANGE, "3 4 5") == ["c"]
    assert not grade_offline(RANGE, "2,3,4,5").correct


@pytest.mark.parametrize(("typed", "values"), [
    ("speed and acceleration", ["speed", "acceleration"]), ("A and C", ["speed", "acceleration"]),
    ("a, c", ["speed", "acceleration"]), ("a c", ["speed", "acceleration"]), ("C) Acceleration; A) Speed",
                                                                              ["acceleration", "speed"]),
    ("speed & acceleration", ["speed", "acceleration"]), ("Speed, acceleration.", ["speed", "acceleration"]),
    ("both speed and acceleration", ["speed", "acceleration"]), ("a and a", ["speed"]),
    ("velocity", ["velocity"]),  # names no option: kept as typed
])
def test_several_answers_are_read_in_plain_language(typed: str, values: list[str]) -> None:
    assert read_choices(RATES, typed) == values


def test_multiple_choice_earns_its_points_per_right_option_and_a_wrong_pick_costs_as_much() -> None:
    assert RATES.worth == 2  # one point per right option, two right options
    assert grade_choice(RATES, ["speed", "acceleration"]).earned == 2
    half = grade_choice(RATES, ["speed"])
    assert (half.earned, half.points, half.correct) == (1, 2, False)  # half right: half the points, not zero
    assert grade_choice(RATES, ["speed", "distance"]).earned == 0
    assert grade_choice(RATES, ["speed", "acceleration", "distance"]).earned == 1
    assert grade_choice(RATES, ["speed", "velocity"]).earned == 0  # what names no option is a wrong pick
    assert grade_choice(RATES, ["distance"]).earned == 0  # never below zero
    three = RATES.model_copy(update={"points": 3})
    assert grade_choice(three, ["acceleration"]).earned == 3 and three.worth == 6
    assert "Question (2 points)" in question_text(RATES)
    assert "(choose all that apply: 1 point per right option, a wrong pick costs 1)" in question_text(RATES)


def test_a_single_choice_with_several_picks_or_an_unknown_answer_is_wrong_not_an_error() -> None:
    assert grade_choice(POWER, ["a", "b"]).earned == 0
    assert grade_choice(POWER, ["zzz"]).earned == 0


@pytest.mark.parametrize("typed", ["[n*2 for n in [1,2,3]]", "[n * 2 for n in range(1, 4)]", " [x*2 for x in "
                                   "range(1,4)] ", "`[2*n for n in [1, 2, 3]]`", "[N*2 FOR N IN [1,2,3]]."])
def test_a_short_answer_in_an_accepted_form_earns_full_points(typed: str) -> None:
    assert accepted(COMPREHENSION, typed)
    grade = grade_offline(COMPREHENSION, typed)
    assert grade.correct and grade.earned == COMPREHENSION.points


def test_an_accepted_form_keeps_its_operators() -> None:
    assert not accepted(COMPREHENSION, "[n+2 for n in [1,2,3]]") and not accepted(COMPREHENSION, "")
    assert not grade_offline(COMPREHENSION, "__import__('os').system('echo hi')").correct  # compared, never run


@given(st.text(max_size=60))
def test_any_text_is_read_without_an_error(typed: str) -> None:
    for asked in (RANGE, POWER, RATES):
        values = read_choices(asked, typed)
        grade = grade_choice(asked, values)
        assert 0 <= grade.earned <= grade.points == asked.worth
    assert 0 <= grade_offline(COMPREHENSION, typed).earned <= COMPREHENSION.points


def test_the_right_answer_reads_as_the_learner_sees_the_options() -> None:
    assert right_answer(RATES) == "A) Speed; C) Acceleration"
    assert right_answer(RANGE) == "A) 2, 3, 4"
    assert right_answer(COMPREHENSION) == "[n * 2 for n in range(1, 4)]"


def test_accept_belongs_to_a_short_answer() -> None:
    with pytest.raises(ValueError, match="'accept' belongs to a short answer"):
        QuizQuestion(id="q", type="single", question="?", options=RANGE.options, answer=["a"], accept=["x"])


@pytest.mark.parametrize(("expects", "typed", "right"), [
    (["6", "six"], "is it 6?", True), (["6", "six"], "six", True), (["6", "six"], "16", False),
    (["6", "six"], "9?", False), (["5x^4", "5 x^4"], "oh wait 5x^4", True), (["5x^4", "5 x^4"], "5 x ^ 4", True),
    (["5x^4"], "5x^3?", False), (["5x to the 4"], "is it 5x to the 4?", True),
    (["0, 2, 4, 6, 8"], "[0, 2, 4, 6, 8]", True), (["0, 2, 4, 6, 8"], "0 2 4 6 8 10", False),
    (["0, 2, 4, 6, 8"], "0 2 4 6", False),
    (["evaporation, condensation, precipitation"], "evaporation, condensation and precipitaton", True),
    (["evaporation, condensation, precipitation"], "condensation, evaporation", False),
    (["fall", "rain"], "they evaporate", False), (["fall", "rain"], "they fall down", True),
])
def test_a_guess_is_read_against_the_expected_answers_as_typed(expects: list[str], typed: str, right: bool) -> None:
    assert says_expected(expects, typed) is right


@given(st.text(max_size=60), st.lists(st.text(max_size=20), max_size=3))
def test_any_guess_is_read_without_an_error(typed: str, expects: list[str]) -> None:
    assert says_expected(expects, typed) in (True, False)


# In the class's language: full-width forms, Chinese and Japanese written without spaces.
CHANGE = QuizQuestion.model_validate({
    "id": "change", "type": "short_answer", "points": 2, "question": "导数描述的是什么？", "answer": ["函数的变化率"],
    "keywords": ["变化率", "斜率"], "analysis": "导数是函数的变化率，也是切线的斜率。"})
SPEEDS = QuizQuestion.model_validate({
    "id": "speeds", "type": "multiple", "question": "哪些是变化率？", "answer": ["speed", "accel"],
    "options": [{"value": "speed", "label": "速度"}, {"value": "distance", "label": "距离"},
                {"value": "accel", "label": "加速度"}]})


@pytest.mark.parametrize(("typed", "value"), [
    ("Ｂ", "b"), ("ｂ", "b"), ("（ｂ）", "b"), ("２", "b"), ("１", "a"), ("选B", "b"), ("我选Ｂ", "b"), ("选择C", "c"),
    ("我觉得是B", "b"), ("答案是B。", "b"), ("B吧", "b"), ("B选项", "b"), ("选项2", "b"), ("第二个", "b"),
    ("第2个", "b"), ("第三项", "c"), ("第一", "a"), ("Ｘ＾３", "b"), ("4x^3吗？", "a"), ("二番目", "b"),
])
def test_an_option_is_named_in_full_width_forms_and_in_chinese(typed: str, value: str) -> None:
    assert read_choices(POWER, typed) == [value]


@pytest.mark.parametrize("typed", ["A和C", "A、C", "Ａ，Ｃ", "速度和加速度", "速度、加速度", "第一个和第三个",
                                   "１和３", "AとC"])
def test_several_options_are_read_without_spaces_between_them(typed: str) -> None:
    assert read_choices(RATES if typed.isascii() or "速" not in typed else SPEEDS, typed) in (
        ["speed", "acceleration"], ["speed", "accel"])


def test_an_options_chinese_label_is_read_and_going_on_in_chinese_is_no_answer() -> None:
    assert read_choices(SPEEDS, "距离") == ["distance"] and read_choices(SPEEDS, "我觉得是距离吧") == ["distance"]
    assert grade_offline(SPEEDS, "速度和加速度").correct
    for typed in ("继续", "好的", "下一步", "没问题。", "続けて"):
        assert no_answer(POWER, typed), typed
    assert not no_answer(POWER, "第二个")


def test_a_keyword_is_found_inside_chinese_written_without_spaces() -> None:
    full = grade_offline(CHANGE, "导数就是函数的变化率，也就是切线的斜率吧")
    assert full.earned == full.points and full.correct
    half = grade_offline(CHANGE, "我觉得是变化率")
    assert 0 < half.earned < half.points and "斜率" in half.comment
    assert grade_offline(CHANGE, "不知道").earned == 0
    assert says_expected(["变化率"], "嗯，应该是变化率吧") and not says_expected(["变化率"], "是速度")
    # a stem at a word's start still names the word, and still not inside another word
    assert grade_offline(question("derivatives", "rates"), "Ｂ").earned == 0


@pytest.mark.parametrize(("typed", "value"), [("la b", "b"), ("opción 2", "b"), ("creo que es la b", "b"),
                                              ("la respuesta es x^3", "b"), ("je pense que b", "b"), ("Ｃ", "c")])
def test_an_option_is_named_in_spanish_and_french(typed: str, value: str) -> None:
    assert read_choices(POWER, typed) == [value]


def test_an_answer_that_starts_like_an_opening_word_is_read_whole() -> None:
    estimate = QuizQuestion.model_validate({"id": "e", "type": "single", "question": "?", "answer": ["e"],
                                            "options": [{"value": "e", "label": "estimate"},
                                                        {"value": "m", "label": "measure"}]})
    assert read_choices(estimate, "estimate") == ["e"] and read_choices(estimate, "es measure") == ["m"]
    assert read_choices(RATES, "speed y acceleration") == ["speed", "acceleration"]
    assert no_answer(POWER, "sigue") and no_answer(POWER, "weiter") and no_answer(POWER, "дальше")
