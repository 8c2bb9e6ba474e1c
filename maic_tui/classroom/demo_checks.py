"""What a classroom's demo material leaves the offline demo unable to judge (ARCHITECTURE.md, *Models*): a question
the class puts to the learner must say what it expects, or which answers it offers, so that a reply can be judged or
taken up; and a teacher's question to the learner is where the class's part ends (the routing rule
``floor_after_question``), so prepared turns after it are never said. ``validate`` prints these as warnings (in the
interface's language): the file is valid, but the demo reads those replies less well."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from maic_tui.classroom.answer_reading import asks
from maic_tui.classroom.models import Classroom, DemoAnswer, DemoTurn
from maic_tui.i18n import _


def question_to_learner(classroom: Classroom, answer: DemoAnswer) -> str:
    """The question a prepared answer puts to the learner: the last sentence a teacher's or assistant's turn ends
    with, when it is a question ("" when it asks nothing)."""
    staff = {a.id for a in classroom.agents if a.role in ("teacher", "assistant")}
    for turn in reversed(answer.turns):
        said = [step.say for step in turn.steps if step.say]
        if turn.agent in staff and said and asks(said[-1]):
            last = said[-1].strip()
            # Where the question starts: after the sentence before it (Chinese ends one with "。" and no space).
            start = max(max(last.rfind(mark, 0, len(last) - 1) + 2 for mark in (". ", "! ", "? ")),
                        max(last.rfind(mark, 0, len(last) - 1) + 1 for mark in ("。", "！", "？")))
            return last[start:] if start > 1 else last
    return ""


def unanswerable(classroom: Classroom) -> Iterator[str]:
    """Each question to the learner with neither ``expects`` nor ``options``: where it is, and what it asks."""
    for answer in classroom.demo.answers:
        question = question_to_learner(classroom, answer)
        if question and not (answer.expects or answer.options):
            yield _("demo answer '{id}' asks the learner “{question}” but has no 'expects' or 'options': the demo "
                    "cannot judge the reply").format(id=answer.id, question=question)
    for name, turns in ((_("the demo's opening"), classroom.demo.opening),
                        *((_("demo answer '{id}'").format(id=a.id), a.turns) for a in classroom.demo.answers)):
        cut = _after_the_question(classroom, turns)
        if cut:
            yield _("{where}: {agent} asks the learner a question and the learner has the floor after it, so the "
                    "turns after it are never said (end on the question, or move it to the last turn)"
                    ).format(where=name, agent=cut)
    for scene in classroom.scenes:
        for number, step in enumerate(scene.script, 1):
            if step.pause and asks(step.prompt) and not (step.options or step.expects):
                yield _("scene '{id}' step {number}: the pause asks “{question}” but has no 'options' or 'expects': "
                        "the demo cannot judge the reply").format(id=scene.id, number=number,
                                                                  question=step.prompt.strip())


def _after_the_question(classroom: Classroom, turns: Sequence[DemoTurn]) -> str:
    """The teacher or assistant whose question to the learner ends a turn before the last one ("" if none)."""
    for turn in turns[:-1]:
        agent = classroom.agent(turn.agent)
        said = [step.say for step in turn.steps if step.say]
        if agent is None or agent.role not in ("teacher", "assistant") or not said:
            continue
        if not asks(said[-1]):
            continue
        words = set(re.findall(r"[^\W\d_]+", said[-1].casefold()))
        if not any(words & set(other.name_words) for other in classroom.agents if other.id != agent.id):
            return agent.id  # a question to another agent by name is theirs to answer
    return ""
