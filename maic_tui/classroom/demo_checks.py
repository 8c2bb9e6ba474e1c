"""What a classroom's demo material leaves the offline demo unable to judge (ARCHITECTURE.md, *Models*): a question
the class puts to the learner must say what it expects, or which answers it offers, so that a reply can be judged or
taken up. ``validate`` prints these as warnings: the file is valid, but the demo reads those replies less well."""

from __future__ import annotations

from collections.abc import Iterator

from maic_tui.classroom.models import Classroom, DemoAnswer


def question_to_learner(classroom: Classroom, answer: DemoAnswer) -> str:
    """The question a prepared answer puts to the learner: the last sentence a teacher's or assistant's turn ends
    with, when it is a question ("" when it asks nothing)."""
    staff = {a.id for a in classroom.agents if a.role in ("teacher", "assistant")}
    for turn in reversed(answer.turns):
        said = [step.say for step in turn.steps if step.say]
        if turn.agent in staff and said and said[-1].rstrip().endswith("?"):
            last = said[-1].strip()
            start = max(last.rfind(mark, 0, len(last) - 1) for mark in (". ", "! ", "? "))
            return last[start + 2:] if start >= 0 else last
    return ""


def unanswerable(classroom: Classroom) -> Iterator[str]:
    """Each question to the learner with neither ``expects`` nor ``options``: where it is, and what it asks."""
    for answer in classroom.demo.answers:
        question = question_to_learner(classroom, answer)
        if question and not (answer.expects or answer.options):
            yield (f"demo answer '{answer.id}' asks the learner “{question}” but has no 'expects' or 'options': "
                   "the demo cannot judge the reply")
    for scene in classroom.scenes:
        for number, step in enumerate(scene.script, 1):
            if step.pause and step.prompt.rstrip().endswith("?") and not (step.options or step.expects):
                yield (f"scene '{scene.id}' step {number}: the pause asks “{step.prompt.strip()}” but has no "
                       "'options' or 'expects': the demo cannot judge the reply")
