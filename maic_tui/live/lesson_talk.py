"""What the lesson says and reads around its steps (ARCHITECTURE.md, *The lesson*): a reply that only asks to
retry, the pace the lecture is read at, the requests of the turns it opens, whether the class asked the
learner something back, and the review at its end."""

from __future__ import annotations

import re
from dataclasses import dataclass

from maic_tui.classroom.answer_reading import asks
from maic_tui.classroom.lesson import QuizQuestion
from maic_tui.classroom.quiz import Grade, right_answer
from maic_tui.i18n import ENGLISH, N_, translator
from maic_tui.live.lesson_cursor import LessonCursor
from maic_tui.llm.context import LessonCall
from maic_tui.llm.pace import Pace
from maic_tui.log.records import QuizResultData

# After the lesson: ask the missed questions again.
RETRY = re.compile(r"^\s*(retry|try again|again|retry (them|the questions|the quiz)|let'?s (retry|try again))"
                   r"\s*[.!]*\s*$", re.IGNORECASE)
# The word the lesson's end tells the learner to type, as its own catalog says it (the English ones work too).
RETRY_WORD = N_("retry")


def wants_retry(text: str, language: str) -> bool:
    word = translator(language).gettext(RETRY_WORD).casefold()
    return bool(RETRY.match(text)) or text.strip().rstrip(".!。！").strip().casefold() == word


BEAT_SECONDS = 0.8  # the quiet between two steps of a lecture read at a pace


@dataclass(frozen=True, slots=True)
class Pacing:
    chars_per_second: float = 0.0  # how fast lecture speech appears; 0: at once (headless, tests)
    beat: float = 0.0  # seconds of quiet after each step, as a speaker pauses
    step_by_step: bool = False  # the lesson pauses after each step until the learner goes on (F7)

    @classmethod
    def of(cls, pace: Pace) -> Pacing:
        """A reader's pace as the lecture plays it (with a beat between steps unless it plays at once)."""
        return cls(pace.chars_per_second, BEAT_SECONDS if pace.chars_per_second else 0.0, pace.step_by_step)

    @property
    def pace(self) -> Pace:
        return Pace(self.chars_per_second, self.step_by_step)


def answer_please(question: QuizQuestion, nickname: str, language: str = ENGLISH) -> str:
    """What the teacher says to a reply that is no answer ("go on") at a question asked: the question waits (in
    the class's language)."""
    t = translator(language)
    if not question.options:
        return t.gettext("First your answer, {name}: say it in your own words, a guess is fine.").format(name=nickname)
    letters = [chr(ord("A") + n) for n in range(len(question.options))]
    if question.type == "multiple":
        line = t.gettext("First your answer, {name}: type its number (one or more), 1 to {count}, its letter, "
                         "{letters}, or the option itself.")
    else:
        line = t.gettext("First your answer, {name}: type its number, 1 to {count}, its letter, {letters}, or the "
                         "option itself.")
    return line.format(name=nickname, count=len(letters), letters=", ".join(letters))


def present_request(title: str) -> str:
    return (f"Present the slide “{title}” to the class: explain its points in order, in your own words, pointing at "
            "each element with spotlight or laser as you talk about it.")


def asks_learner(said: str) -> bool:
    """A message of the class ends with a question: the learner may want to answer it before the lesson goes
    on (the class's own questions to each other count too: waiting is the safe side)."""
    return asks(said.rstrip().rstrip("\"'”’)*_"))


def reaction_call(question: QuizQuestion, answer: str, grade: Grade, scene: int, teacher: str) -> LessonCall:
    verdict = "correct" if grade.correct else ("partly right" if grade.earned else "not right")
    detail = f" Explanation: {question.analysis}" if question.analysis else ""
    request = (f"The learner answered the quiz question “{question.question}” with “{answer}”: {verdict} "
               f"({grade.earned}/{grade.points}).{detail} React in character in one or two sentences: praise or "
               "correct them kindly, and say why.")
    return LessonCall("react", request, scene, opener=teacher, topic=question.question, question_id=question.id,
                      earned=grade.earned, points=grade.points, comment=grade.comment)


def review(cursor: LessonCursor) -> list[QuizResultData]:
    """Each question of the lesson with the learner's last answer, the right one and why (``lesson_end``)."""
    review = []
    for steps in cursor.scenes:
        for step in steps:
            if (question := step.question) is None:
                continue
            grade = cursor.grades.get(question.id) or Grade(0, question.worth)
            review.append(QuizResultData(
                question_id=question.id, answer=grade.answer, correct=grade.correct, points=grade.points,
                earned=grade.earned, question=question.question, right_answer=right_answer(question),
                analysis=question.analysis or None))
    return review
