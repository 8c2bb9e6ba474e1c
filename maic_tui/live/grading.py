"""Grading a short answer with the session's model (ARCHITECTURE.md, *The lesson*): one small JSON object, ``{score,
comment}``, within the model's timeout. An accepted form of the answer needs no model; the demo model, or a grader
that fails, falls back to the expected keywords."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from maic_tui.classroom.answer_reading import accepted
from maic_tui.classroom.lesson import QuizQuestion
from maic_tui.classroom.quiz import Grade, GradeError, grade_offline, parse_grade
from maic_tui.llm import describe
from maic_tui.llm.client import ModelClient
from maic_tui.llm.context import GRADER, CallContext
from maic_tui.orchestration.routing.director_answer import ObjectScanner

GRADER_TOKENS = 200
GRADER_CHAR_CAP = 2_000


def grade_schema(points: int) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": False, "required": ["score", "comment"],
            "properties": {"score": {"type": "integer", "minimum": 0, "maximum": points},
                           "comment": {"type": "string"}}}


def grader_messages(question: QuizQuestion, answer: str, language: str) -> list[SystemMessage | HumanMessage]:
    expected = "; ".join(question.answer) or ", ".join(question.keywords) or "(none given)"
    guidance = f"\nWhat to look for: {question.comment_prompt}" if question.comment_prompt else ""
    system = (f"You grade one short answer of a learner, fairly and briefly, in the language '{language}'.\n"
              f"Question: {question.question}\nA model answer: {expected}{guidance}\n"
              # No placeholders such as "<comment>": small models copy them into the answer.
              f"Give 0 to {question.points} points. Answer with one JSON object and nothing else, with two keys: "
              f'"score", a whole number from 0 to {question.points}, and "comment", one sentence to the learner '
              "saying what was right or what is missing.")
    return [SystemMessage(system), HumanMessage(f"The learner's answer: {answer}")]


async def grade_short_answer(client: ModelClient, question: QuizQuestion, answer: str,
                             language: str) -> tuple[Grade, str | None]:
    """The grade, and a one-line problem when the model could not grade it (the keywords graded it instead)."""
    if client.provider.spec.kind == "demo" or accepted(question, answer):
        return grade_offline(question, answer, language), None
    try:
        raw = await client.ask(GRADER, "quiz_grade", grade_schema(question.points),
                               grader_messages(question, answer, language), tokens=GRADER_TOKENS,
                               chars=GRADER_CHAR_CAP, until=lambda: ObjectScanner().feed,
                               context=CallContext(caller=GRADER, learner_message=answer))
        grade = parse_grade(raw, question)
        return replace(grade, comment=client.redact(grade.comment)), None  # a server may echo the key
    except GradeError as exc:
        problem = exc.lines[0]
    except Exception as exc:  # a failing server: the answer is still graded, and the learner told why
        problem = describe(exc, who="grader", secrets=client.secrets).message
    return grade_offline(question, answer, language), f"{problem}; graded by the expected keywords instead"
