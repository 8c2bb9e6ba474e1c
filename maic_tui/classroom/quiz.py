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
from maic_tui.classroom.lesson import QuizQuestion
from maic_tui.text_safety import one_line

COMMENT_CHARS = 200


class GradeError(BadInput):
    """A grader's answer that is not a score and a comment; one line."""


@dataclass(frozen=True, slots=True)
class Grade:
    earned: int
    points: int
    comment: str = ""

    @property
    def correct(self) -> bool:
        return self.earned == self.points


def grade_choice(question: QuizQuestion, chosen: Sequence[str]) -> Grade:
    """Single: the one right value; multiple: exactly the right set (order and repeats do not matter)."""
    right = set(question.answer)
    picked = set(chosen)
    unknown = picked - {option.value for option in question.options}
    if unknown:
        raise ValueError(f"not an option of {question.id!r}: {sorted(unknown)[0]!r}")
    return Grade(question.points if picked == right else 0, question.points)


def grade_by_keywords(question: QuizQuestion, text: str) -> Grade:
    """The demo's grader: the share of expected keywords the answer contains (whole words, any case)."""
    expected = question.keywords or [word for word in re.findall(r"\w{4,}", " ".join(question.answer))]
    if not expected:
        return Grade(question.points, question.points, "Answered.")
    words = text.casefold()
    found = [k for k in expected if re.search(rf"\b{re.escape(k.casefold())}", words)]
    earned = round(question.points * len(found) / len(expected))
    if earned == question.points:
        comment = "That covers it."
    elif found:
        missing = [k for k in expected if k not in found]
        comment = f"Partly there: think about {missing[0]} too."
    else:
        comment = f"Not yet: the key idea is {expected[0]}."
    return Grade(earned, question.points, comment)


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


def chosen_values(question: QuizQuestion, reply: str | Sequence[str]) -> list[str]:
    """Option values from the learner's reply: values, labels, letters (``B``) or picked lines (``B) label``),
    several separated by ``;`` or ``,``; anything else is kept as typed (and graded wrong)."""
    if not isinstance(reply, str):
        return [_option_value(question, item) or item for item in reply]
    whole = _option_value(question, reply)
    if whole is not None:
        return [whole]
    separator = ";" if ";" in reply else ","
    items = [item.strip() for item in reply.split(separator) if item.strip()]
    return [_option_value(question, item) or item for item in items]


def _option_value(question: QuizQuestion, item: str) -> str | None:
    text = item.strip().casefold()
    picked = _PICKED.match(item.strip())
    for number, option in enumerate(question.options):
        letter = chr(ord("a") + number)
        if text in (option.value.casefold(), option.label.casefold(), letter) or (
                picked is not None and (picked.group(1).casefold(), picked.group(2).casefold())
                == (letter, option.label.casefold())):
            return option.value
    return None


_PICKED = re.compile(r"^([A-Za-z])\)\s+(.+)$")  # "B) label", as the app's quiz list sends a pick


def question_text(question: QuizQuestion) -> str:
    points = f"{question.points} point{'s' if question.points != 1 else ''}"
    text = f"Question ({points}): {question.question}"
    if question.options:
        text += " " + "  ".join(f"{chr(ord('A') + i)}) {option.label}" for i, option in enumerate(question.options))
    if question.type == "multiple":
        text += " (choose all that apply)"
    return text
