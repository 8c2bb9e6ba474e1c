"""Quiz questions (ARCHITECTURE.md, *The lesson*): asked in words, answers read back into option values, graded (choice
questions in code, several answers as a set; short answers by a model's ``{score, comment}`` or, offline, by the
question's expected keywords)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from maic_tui.bad_input import BadInput
from maic_tui.classroom.answer_reading import accepted, keyword_at, names_keyword, narrow, read_choices
from maic_tui.classroom.lesson import QuizQuestion
from maic_tui.i18n import ENGLISH, translator
from maic_tui.text_safety import one_line

COMMENT_CHARS = 200


class GradeError(BadInput):
    """A grader's answer that is not a score and a comment; one line."""


@dataclass(frozen=True, slots=True)
class Grade:
    earned: int
    points: int
    comment: str = ""
    answer: str = ""  # what the learner answered, as the review shows it

    @property
    def correct(self) -> bool:
        return self.earned == self.points


def grade_choice(question: QuizQuestion, chosen: Sequence[str]) -> Grade:
    """Single: the one right option. Multiple: each right option earns the question's points and each wrong pick
    (an option that is not right, or something that is no option) costs as much, never below 0; the question
    says so when it is asked (``question_text``)."""
    right = set(question.answer)
    picked = set(chosen)
    if question.type == "single":
        return Grade(question.points if picked == right else 0, question.points)
    hits, misses = len(picked & right), len(picked - right)
    return Grade(question.points * max(0, hits - misses), question.worth)


def grade_offline(question: QuizQuestion, reply: str, language: str = ENGLISH) -> Grade:
    """A grade without a model: a choice read from the reply; a short answer that is an accepted form earns full
    points, any other by its expected keywords."""
    if question.type != "short_answer":
        return grade_choice(question, read_choices(question, reply))
    if accepted(question, reply):
        return Grade(question.points, question.points, translator(language).gettext("That's right."))
    return grade_by_keywords(question, reply, language)


def grade_by_keywords(question: QuizQuestion, text: str, language: str = ENGLISH) -> Grade:
    """The demo's grader: the share of expected keywords the answer contains (whole words, any case). A keyword
    may be a stem ("chang"); the comment names it as the question's own words have it ("changing")."""
    t = translator(language)  # the comment is the class's, in its language
    expected = question.keywords or [word for word in re.findall(r"\w{4,}", " ".join(question.answer))]
    if not expected:
        return Grade(question.points, question.points, t.gettext("Answered."))
    found = [k for k in expected if names_keyword(k, text)]
    earned = round(question.points * len(found) / len(expected))
    if earned == question.points:
        comment = t.gettext("That covers it.")
    elif found:
        missing = [k for k in expected if k not in found]
        comment = t.gettext("Think about {word} too.").format(word=said_as(question, missing[0]))
    else:
        comment = t.gettext("The key idea is {word}.").format(word=said_as(question, expected[0]))
    return Grade(earned, question.points, comment)


def said_as(question: QuizQuestion, keyword: str) -> str:
    """A keyword as the question's model answer, explanation or text says it (the stem "chang" is "changing");
    the keyword itself when none of them has it."""
    for source in (*question.answer, question.analysis, question.question, question.comment_prompt):
        found = keyword_at(keyword, source)
        if found is not None:  # the word the stem starts, unless the text runs on without spaces
            whole = re.match(r"[\w'-]*", source[found.end():]) if narrow(keyword)[-1:].isascii() else None
            return source[found.start():found.end() + (whole.end() if whole else 0)]
    return keyword


def parse_grade(raw: str, question: QuizQuestion) -> Grade:
    """A model grader's answer: one JSON object with ``score`` (0..points) and a one-sentence ``comment``."""
    start, end = raw.find("{"), raw.rfind("}")
    try:
        data = json.loads(raw[start:end + 1]) if start != -1 < end else None
    except json.JSONDecodeError:
        data = None
    score = data.get("score") if isinstance(data, dict) else None
    # true is an int to Python and NaN a float: neither is a score
    if isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score):
        raise GradeError(f"the grader's answer has no score: {one_line(raw, 80)!r}")
    assert isinstance(data, dict)
    score = max(0, min(question.points, round(score)))
    comment = data.get("comment")
    text = one_line(comment, COMMENT_CHARS) if isinstance(comment, str) else ""
    if text.startswith("<") and text.endswith(">"):  # a placeholder copied from somewhere, not a comment
        text = ""
    return Grade(score, question.points, text)


def question_text(question: QuizQuestion, language: str = ENGLISH) -> str:
    """The question as the teacher asks it, its header in the class's language."""
    t = translator(language)
    text = t.ngettext("Question ({count} point): {question}", "Question ({count} points): {question}",
                      question.worth).format(count=question.worth, question=question.question)
    if question.options:
        text += " " + "  ".join(f"{chr(ord('A') + i)}) {option.label}" for i, option in enumerate(question.options))
    if question.type == "multiple":
        text += " " + t.ngettext("(choose all that apply: {count} point per right option, a wrong pick costs {count})",
                                 "(choose all that apply: {count} points per right option, a wrong pick costs {count})",
                                 question.points).format(count=question.points)
    return text


def option_lines(question: QuizQuestion, values: Sequence[str]) -> str:
    """Options by their letter and label (``A) 2, 3, 4``), in the question's order; anything else as typed."""
    lettered = {option.value: f"{chr(ord('A') + n)}) {option.label}" for n, option in enumerate(question.options)}
    known = [lettered[option.value] for option in question.options if option.value in values]
    return "; ".join([*known, *(value for value in values if value not in lettered)])


def right_answer(question: QuizQuestion) -> str:
    """The right answer as the learner should read it."""
    if question.options:
        return option_lines(question, question.answer)
    return "; ".join(question.answer[:1] or question.keywords)
