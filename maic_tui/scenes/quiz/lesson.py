"""What a quiz does in the lesson (ARCHITECTURE.md, *Scene kinds*): the learner's reply to its question read and
graded (a choice by its options, a short answer by the model or its keywords), the teacher's reaction, and the
quiz's score once its last question is answered. A reply that is no answer ("go on") is asked for an answer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from maic_tui.classroom.answer_reading import no_answer, read_choices
from maic_tui.classroom.lesson import QuizQuestion, ScriptStep, Step
from maic_tui.classroom.lesson_steps import Phase
from maic_tui.classroom.quiz import grade_choice, option_lines, right_answer
from maic_tui.events import ErrorData, ErrorEvent
from maic_tui.i18n import translator
from maic_tui.live.grading import grade_short_answer
from maic_tui.live.lesson_parts import LessonStage, Played
from maic_tui.live.lesson_talk import answer_please, reaction_call
from maic_tui.log.records import QuizResultData, QuizResultRecord
from maic_tui.text_safety import one_line


def takes(step: Step) -> bool:
    """A quiz reads the reply to its questions."""
    return step.question is not None


async def reply(lesson: LessonStage, step: Step, text: str) -> Played:
    assert step.question is not None
    if no_answer(step.question, text):  # "go on" at a question: asked again for an answer, not graded
        lead = lesson.lead()
        classroom = lesson.session.classroom
        line = answer_please(step.question, classroom.learner.nickname, classroom.language)
        async for record in lesson.say(lead, [ScriptStep(agent=lead.id, say=line)]):
            yield record
        return
    async for record in answer(lesson, step.question, text):
        yield record


async def answer(lesson: LessonStage, question: QuizQuestion, reply: str | Sequence[str]) -> Played:
    """Grade the learner's answer to the waiting question (option values, or a short answer's text), let the
    teacher react, and go on; the summary of a quiz scene when its last question is answered."""
    chosen: list[str] | None = None  # the options picked, for the learning records
    if question.type == "short_answer":
        text = reply if isinstance(reply, str) else " ".join(reply)
        grade, problem = await grade_short_answer(lesson.session.context.client, question, text,
                                                  lesson.session.classroom.language)
        answer = text
    else:
        chosen = read_choices(question, reply)
        grade, problem, answer = grade_choice(question, chosen), None, option_lines(question, chosen)
    grade = replace(grade, answer=answer)
    scene = lesson.cursor.scene
    redact = lesson.session.context.redact
    if problem is not None:
        yield lesson.session.record(ErrorEvent(data=ErrorData(message=one_line(problem, 300))))
    yield lesson.session.record(QuizResultRecord(data=QuizResultData(
        question_id=question.id, answer=redact(answer), correct=grade.correct, points=grade.points,
        earned=grade.earned, comment=grade.comment or None, question=question.question,
        right_answer=right_answer(question), analysis=question.analysis or None, chosen=chosen)))
    async for record in lesson.turn(reaction_call(question, answer, grade, scene, lesson.lead().id)):
        yield record
    lesson.cursor.answered(grade)
    if lesson.cursor.scene != scene or lesson.cursor.phase == Phase.ENDED:
        async for record in _summary(lesson, scene):
            yield record
    async for record in lesson.moved():
        yield record

async def _summary(lesson: LessonStage, scene: int) -> Played:
    asked = [step.question for step in lesson.cursor.scenes[scene] if step.question is not None]
    if not asked:
        return
    earned = sum(lesson.cursor.grades[q.id].earned for q in asked if q.id in lesson.cursor.grades)
    top = sum(q.worth for q in asked)
    line = translator(lesson.session.classroom.language).ngettext(
        "That's the quiz: {earned} of {top} point.", "That's the quiz: {earned} of {top} points.", top).format(
        earned=earned, top=top)
    async for record in lesson.say(lesson.lead(), [ScriptStep(agent=lesson.lead().id, say=line)]):
        yield record
