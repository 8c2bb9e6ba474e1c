"""The quiz's stage of ``maic-tui new`` and ``regen`` (ARCHITECTURE.md, *Scene kinds*): after the slides, a short
quiz on what they teach; the model writes the questions, code writes their ids and option values."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from maic_tui.generation.answers import Numbers, QuestionKind, StageAnswer, Text, Texts, answer_schema, items
from maic_tui.generation.kind_stages import Drafting
from maic_tui.generation.stages import Brief
from maic_tui.i18n import N_

Data = dict[str, Any]
STAGE = "quiz"  # the stage's name, as a script file's ``stages`` answers it, and the kind's
LABEL = N_("quiz")  # the stage as the progress lines name it


class Question(StageAnswer):
    type: QuestionKind = "short_answer"
    question: Text = ""
    options: Texts = Field(default_factory=list, **items(0, 4))
    correct: Numbers = Field(default_factory=list)
    model_answer: Text = ""
    keywords: Texts = Field(default_factory=list, **items(0, 4))
    analysis: Text = ""


class Quiz(StageAnswer):
    questions: list[Question] = Field(default_factory=list, **items(2, 4))



def wanted(brief: Brief) -> bool:
    """Every generated lesson ends with a quiz."""
    return True


def prompt(title: str, points: str) -> str:
    return (f"Write a short quiz on the lesson \"{title}\" ({points}): two to four questions, at least one of type "
            "single (options, and correct: the number of the right option, from 0) and one of type short_answer "
            "(model_answer and two or three keywords a good answer contains). Each question has an analysis: one "
            "sentence explaining the answer.\nAnswer with one JSON object only.")


def build(draft: Data, answer: Data) -> list[str]:
    """The quiz scene made from the answer, appended to the draft; what is wrong with it."""
    problems, questions = [], []
    for k, item in enumerate(answer.get("questions", [])):
        kind, text = item.get("type"), " ".join(str(item.get("question", "")).split())
        question: Data = {"id": f"q{k + 1}", "type": kind, "question": text,
                          "analysis": " ".join(str(item.get("analysis", "")).split())}
        if kind in ("single", "multiple"):
            labels = [str(o).strip() for o in item.get("options", []) if str(o).strip()]
            question["options"] = [{"label": label, "value": chr(ord("a") + i)} for i, label in enumerate(labels)]
            right = [i for i in item.get("correct", []) if isinstance(i, int) and 0 <= i < len(labels)]
            question["answer"] = [chr(ord("a") + i) for i in right][:1 if kind == "single" else None]
            if len(labels) < 2 or not question["answer"] or not text:
                continue  # a choice question without two options and a right one is left out
        else:
            question["answer"] = [" ".join(str(item.get("model_answer", "")).split())] if item.get("model_answer") \
                else []
            question["keywords"] = [str(w).strip() for w in item.get("keywords", []) if str(w).strip()]
        questions.append(question)
    kinds = {q["type"] for q in questions}
    if not kinds & {"single", "multiple"} and len(draft.get("_outline", [])) >= 2:  # one the outline can supply
        questions.insert(0, _which_scene(draft["_outline"]))
        kinds.add("single")
    if "short_answer" not in kinds and draft.get("_outline"):  # one the outline can supply
        planned = draft["_outline"][0]
        point = planned["points"][0]
        questions.append({"id": f"q{len(questions) + 1}", "type": "short_answer",
                          "question": f"In your own words: {point.rstrip('.')}?", "answer": [point],
                          "keywords": [w.strip(".,;:").casefold() for w in point.split() if len(w) > 4][:3],
                          "analysis": point})
        kinds.add("short_answer")
    if not kinds & {"single", "multiple"} or "short_answer" not in kinds:
        problems.append("the quiz needs at least one single or multiple choice question and one short_answer")
    for number, question in enumerate(questions, 1):
        question["id"] = f"q{number}"
    draft.setdefault("scenes", []).append({"id": "quiz", "title": "Check yourself", "type": STAGE,
                                           "questions": questions})
    return problems


def _which_scene(planned: list[Data]) -> Data:
    """A choice question made from the outline: which point belongs to the first scene."""
    options = [planned[0]["points"][0], *(scene["points"][0] for scene in planned[1:3])]
    return {"id": "q0", "type": "single", "question": f"Which of these did we see in “{planned[0]['title']}”?",
            "options": [{"label": label, "value": chr(ord("a") + i)} for i, label in enumerate(options)],
            "answer": ["a"], "analysis": f"“{planned[0]['title']}” was about: {'; '.join(planned[0]['points'])}."}


async def write(generator: Drafting) -> None:
    """The quiz on every point of the outline, appended to the generator's draft."""
    draft = generator.draft
    points = "; ".join(p for s in draft["_outline"] for p in s["points"])
    await generator.ask(STAGE, Quiz, answer_schema(Quiz), prompt(draft["title"], points),
                        lambda answer: build(generator.draft, answer))


async def again(generator: Drafting, index: int, context: str) -> None:
    """Quiz scene ``index`` of the draft made again on the slides' points; ``context`` follows the prompt."""
    draft = generator.draft
    old = draft["scenes"][index]
    slides = [p for p, s in zip(draft["_outline"], draft["scenes"], strict=True) if s.get("type") != STAGE]
    points = "; ".join(p for s in slides for p in s["points"])

    def apply(answer: Data) -> list[str]:
        scratch: Data = {"_outline": slides, "scenes": []}
        problems = build(scratch, answer)
        generator.draft["scenes"][index] = old | {"questions": scratch["scenes"][0]["questions"]}
        return problems

    await generator.ask(STAGE, Quiz, answer_schema(Quiz), prompt(draft["title"], points) + context, apply)
