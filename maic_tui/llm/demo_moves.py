"""Conversational moves of the offline demo model (ARCHITECTURE.md, *Models*): "why?" after a point, and a learner
who disagrees or dismisses it. Each is answered by the agent who made the point, from the class's own words, and
never as off-topic: the learner is talking about what was just said."""

from __future__ import annotations

from collections.abc import Sequence

from maic_tui.classroom.models import Classroom, DemoTurn
from maic_tui.llm.demo_replies import Said, lead, say, sentence_of, sentences, statement_on
from maic_tui.llm.demo_understanding import MaterialIndex


def _last_point(classroom: Classroom, said: Sequence[Said]) -> tuple[str, str]:
    """The point the class made last: its most substantial statement since the learner spoke (not a line that
    thanks or addresses someone), and the agent who made it."""
    nickname = classroom.learner.nickname.casefold()
    best: tuple[int, str, str] | None = None
    for entry in reversed(said):
        if entry.speaker == "learner":
            if best is not None:
                break
            continue
        if classroom.agent(entry.speaker) is None:
            continue
        for sentence in sentences(entry.text) or [entry.text]:
            if sentence.endswith("?") or nickname in sentence.casefold() or sentence.startswith("Thank you"):
                continue
            if best is None or len(sentence.split()) > best[0]:
                best = (len(sentence.split()), entry.speaker, sentence)
    return (best[1], best[2]) if best is not None else (lead(classroom).id, "")


def _further(classroom: Classroom, index: MaterialIndex, said: Sequence[Said], point: str) -> str:
    """A statement of the material on the point that the class has not said yet: the reason behind it."""
    return statement_on(classroom, index, point, avoid=" ".join(entry.text for entry in said)) if point else ""


def why(classroom: Classroom, index: MaterialIndex, said: Sequence[Said]) -> list[DemoTurn]:
    speaker, point = _last_point(classroom, said)
    agent = classroom.agent(speaker) or lead(classroom)
    reason = _further(classroom, index, said, point)
    name = classroom.learner.nickname
    if reason:
        return [say(agent, f"Good question, {name}. Here's why: {sentence_of(reason)}")]
    if point:
        return [say(agent, f"{name}, the point is this: {sentence_of(point)} Which part would you like me to unpack?")]
    return [say(agent, f"Why what, {name}? Tell me which point, and I'll explain the reason behind it.")]


def push_back(classroom: Classroom, index: MaterialIndex, said: Sequence[Said]) -> list[DemoTurn]:
    """Disagreement or dismissal: a short rebuttal from the material (or a concession), and a question back."""
    speaker, point = _last_point(classroom, said)
    agent = classroom.agent(speaker) or lead(classroom)
    name = classroom.learner.nickname
    support = _further(classroom, index, said, point)
    if support:
        return [say(agent, f"Fair to push back, {name}. Still, {support[:1].lower()}{sentence_of(support)[1:]} "
                           "What makes you doubt it?")]
    if point:
        return [say(agent, f"Maybe I put it badly, {name}. What I mean is: {sentence_of(point)} "
                           "Which part do you disagree with?")]
    return [say(agent, f"Tell me more, {name}: what would you say instead?")]


def asked_back(classroom: Classroom, said: Sequence[Said]) -> tuple[str, str] | None:
    """The question the class's last message put to the learner, and the agent who asked it."""
    for entry in reversed(said):
        if entry.speaker == "learner":
            return None
        asked = [s for s in sentences(entry.text) if s.endswith("?")]
        if classroom.agent(entry.speaker) is not None and asked and entry.text.rstrip().endswith("?"):
            return entry.speaker, asked[-1]
    return None


def taken_up(classroom: Classroom, index: MaterialIndex, said: Sequence[Said], reply: str) -> list[DemoTurn]:
    """A reply to the question the class just asked: taken up in its frame by the agent who asked, never as
    off-topic."""
    found = asked_back(classroom, said)
    speaker, question = found if found is not None else (lead(classroom).id, "")
    agent = classroom.agent(speaker) or lead(classroom)
    name = classroom.learner.nickname
    words = " ".join(reply.split()[:12]).rstrip(".!")
    if not index.topic_words(reply):  # nothing of the lesson in it: asked again, kindly, not sent away
        return [say(agent, f"Hmm, how does “{words}” connect to it, {name}?", question)]
    support = _further(classroom, index, said, f"{question} {reply}")
    line = f"“{words}”: yes, {name}, that's one."
    return [say(agent, line, sentence_of(support) if support else "Tell me more: what did you notice?")]
