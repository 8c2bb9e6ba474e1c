"""Where the conversation stands, as the offline demo model plans from it (ARCHITECTURE.md, *Models*): what the class
last asked the learner (the question, who asked it, what it expects or offers, the prompt it belongs to, how often
the learner already missed it) and which prepared answers were already played. Read from the classroom and the
conversation so far, so the demo stays a pure function of them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from maic_tui.classroom.answer_reading import GO_ON
from maic_tui.classroom.demo_checks import question_to_learner
from maic_tui.classroom.lesson import QuizQuestion
from maic_tui.classroom.models import Classroom, DemoAnswer
from maic_tui.demo.replies import QUESTION_MARKS, asked_question, last_turn, sentences
from maic_tui.llm.context import Said

AskedKind = Literal["quiz", "expects", "options", "discussion", "open"]


@dataclass(frozen=True, slots=True)
class Asked:
    """The question the class last put to the learner, still unanswered."""

    kind: AskedKind
    agent: str  # who asked it
    question: str  # the sentence asked
    expects: tuple[str, ...] = ()  # the right answers (judged)
    options: tuple[str, ...] = ()  # the answers offered (each taken up, none wrong)
    frame: str = ""  # what a reply is about: the pause's or discussion's prompt
    misses: int = 0  # wrong answers the learner gave to it already
    hint: str = ""  # the material's hint for a wrong answer
    quiz: QuizQuestion | None = None
    answer: DemoAnswer | None = None  # the prepared answer that asked it

    def yes_no(self, nickname: str) -> bool:
        """Answered with yes or no ("Alex, is it strong enough?", "you take the bus: is it?", "Ready?")."""
        clause = self.question.rsplit(":", 1)[-1].strip()
        clause = re.sub(rf"^{re.escape(nickname)}\W+", "", clause, flags=re.IGNORECASE)
        return bool(YES_NO_START.match(clause))


YES_NO_START = re.compile(r"(is|are|do|does|did|can|could|would|will|should|have|has|was|were|ready|anything|"
                          r"any)\b", re.IGNORECASE)


def asked_sentences(text: str) -> list[str]:
    return [s for s in sentences(text) if s.endswith(QUESTION_MARKS)]


def asked_of(classroom: Classroom, said: Sequence[Said], scene: int = 0) -> Asked | None:
    """The question the class's last turn put to the learner, if it asked one."""
    turn = _last_block(said)
    if not turn:
        return None
    text = " ".join(s.text for s in turn)
    quiz = asked_question(classroom, said)
    if quiz is not None:
        return Asked("quiz", _lead_id(classroom), quiz.question, quiz=quiz)
    for answer in classroom.demo.answers:
        question = question_to_learner(classroom, answer)
        if question and question in text and (answer.expects or answer.options):
            speaker = next((s.speaker for s in turn if question in s.text), _lead_id(classroom))
            return Asked("expects" if answer.expects else "options", speaker, question, tuple(answer.expects),
                         tuple(answer.options), misses=_misses(said, question), hint=answer.hint, answer=answer)
    last = turn[-1]
    for scene_script in classroom.scenes:
        for step in scene_script.script:
            if step.pause and step.prompt and step.prompt.strip() == last.text.strip():
                return Asked("options", last.speaker, step.prompt, options=tuple(o for o in step.options
                                                                                if not GO_ON.match(o)),
                             expects=tuple(step.expects), frame=step.prompt, misses=_misses(said, step.prompt))
    discussion = _discussion(classroom, text, scene)
    asked = [(s.speaker, q) for s in turn for q in asked_sentences(s.text) if classroom.agent(s.speaker)]
    if discussion is not None and last.text.rstrip().endswith(QUESTION_MARKS):
        return Asked("discussion", last.speaker, asked[-1][1] if asked else discussion, frame=discussion)
    if asked and last.text.rstrip().endswith(QUESTION_MARKS):
        return Asked("open", asked[-1][0], asked[-1][1])
    return None


def _last_block(said: Sequence[Said]) -> list[Said]:
    return list(said[len(said) - len(last_turn(said)):])


def _lead_id(classroom: Classroom) -> str:
    return (classroom.lead() or classroom.agents[0]).id


def _misses(said: Sequence[Said], question: str) -> int:
    """How many replies the learner already gave to this question: the class asks it again after a miss."""
    blocks: list[list[Said]] = [[]]
    for entry in said:
        if entry.speaker == "learner":
            blocks.append([])
        else:
            blocks[-1].append(entry)
    misses = 0
    for block in reversed(blocks[:-1]):
        if not any(question in entry.text for entry in block):
            break
        misses += 1
    return misses


def _discussion(classroom: Classroom, text: str, scene: int) -> str | None:
    """The discussion the class is holding when its last turn hands it to the learner: its topic and prompt."""
    folded = text.casefold()
    topics: list[tuple[str, str]] = []
    if classroom.session.type == "discussion":
        topics.append((classroom.session.topic, classroom.session.prompt))
    for number, shown in enumerate(classroom.scenes):
        for step in shown.script:
            if step.discussion:
                topics.append((step.discussion, step.prompt if number == scene else ""))
                if number == scene and classroom.learner.nickname.casefold() in folded:
                    return " ".join(filter(None, (step.discussion, step.prompt)))
    for topic, prompt in topics:
        if topic.casefold().rstrip("".join(QUESTION_MARKS)) in folded:
            return " ".join(filter(None, (topic, prompt)))
    return None


def shown(classroom: Classroom, said: Sequence[Said]) -> set[str]:
    """The prepared answers already played in this conversation (their first line was said)."""
    spoken = " ".join(s.text for s in said if s.speaker != "learner")
    found = set()
    for answer in classroom.demo.answers:
        first = next((step.say for turn in answer.turns for step in turn.steps if step.say), "")
        if first and first in spoken:
            found.add(answer.id)
    return found
