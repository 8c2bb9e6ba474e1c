"""The offline demo model on a learner's reply to what the class just asked (ARCHITECTURE.md, *Models*): an answer
with a right one is judged (right: confirmed, one step further; wrong: a hint that does not give it away, then the
answer on the second miss); a reply to an open question, a pause or a discussion is taken up in that frame by the
agent who asked, and a discussion goes on from it; "I don't know" gets the answer or the prompt's own ideas. Never
sent away as off-topic."""

from __future__ import annotations

import re
from collections.abc import Sequence

from maic_tui.classroom.answer_reading import says_expected, squashed
from maic_tui.classroom.models import Agent, Classroom, DemoTurn
from maic_tui.classroom.quiz import right_answer
from maic_tui.demo.dialogue import Asked
from maic_tui.demo.intents import NO, YES
from maic_tui.demo.moves import own_line
from maic_tui.demo.replies import QUESTION_MARKS, grade_reply, lead, say, sentence_of, sentences, statement_on
from maic_tui.demo.understanding import COVERED, MaterialIndex
from maic_tui.i18n import translator
from maic_tui.llm.context import Said

# Hedges around a reply, dropped when it is quoted back ("the speedometer in my car i guess").
_HEDGE_BEFORE = re.compile(r"^\s*(um+|uh+|hmm+|well|maybe|probably|i think( that)?|i guess|i'?d say|like|so)\b[\s,]*",
                           re.IGNORECASE)
_HEDGE_AFTER = re.compile(r"[\s,]*\b(i guess|i think|maybe|probably|lol|haha|i suppose|right)\W*$", re.IGNORECASE)
QUOTED_WORDS = 10
FURTHER_COVERED = 0.15  # how much of what it adds to a passage must be about: a step further, not a new topic


def quoted(reply: str) -> str:
    """The learner's words as the class repeats them: hedges dropped, at most a few words."""
    text = reply.strip().rstrip("?!. ")
    for _ in range(2):
        text = _HEDGE_AFTER.sub("", _HEDGE_BEFORE.sub("", text)).strip()
    words = (text or reply.strip()).split()
    return " ".join(words[:QUOTED_WORDS]) + ("…" if len(words) > QUOTED_WORDS else "")


def _asker(classroom: Classroom, asked: Asked) -> Agent:
    return classroom.agent(asked.agent) or lead(classroom)


def _voices(classroom: Classroom, agent: Agent) -> set[str]:
    """Whose prepared lines an agent may say as its own: a teacher or assistant the staff's, a student only its own."""
    if agent.role == "student":
        return {agent.id}
    return {a.id for a in classroom.agents if a.role != "student"}


def _taker(classroom: Classroom, asked: Asked) -> Agent:
    """Who takes up a reply: the agent who asked, but in a discussion class its trigger, who opens every turn."""
    session = classroom.session
    trigger = classroom.agent(session.trigger_agent or "") if session.type == "discussion" else None
    return trigger or _asker(classroom, asked)


def _said_text(said: Sequence[Said]) -> str:
    return " ".join(entry.text for entry in said)


def judge(classroom: Classroom, index: MaterialIndex, asked: Asked, reply: str,
          said: Sequence[Said]) -> list[DemoTurn]:
    """A reply to a question with right answers."""
    agent = _asker(classroom, asked)
    name = classroom.learner.nickname
    t = translator(classroom.language)  # the demo's own words, in the class's language
    right = asked.expects[0]
    if says_expected(asked.expects, reply):
        further = statement_on(classroom, index, f"{asked.question} {right}", avoid=_said_text(said),
                               speakers=_voices(classroom, agent), least=COVERED)
        return [say(agent, t.gettext("Exactly, {name}: {answer}").format(name=name, answer=sentence_of(right)),
                    sentence_of(further) if further else t.gettext("Well reasoned."))]
    if asked.misses == 0:
        hint = sentence_of(hint_for(classroom, asked))
        return [say(agent, t.gettext("Not quite, {name}. Here's a hint: {hint}").format(name=name, hint=hint),
                    t.gettext("Try again: {question}").format(question=asked.question))]
    reason = _statement(asked)  # the answer given: the reason behind it, not a hint any more
    return [say(agent, t.gettext("Not quite, {name}. The answer: {answer}").format(name=name,
                                                                                   answer=sentence_of(right)),
                sentence_of(reason) if reason else "")]


def hint_for(classroom: Classroom, asked: Asked) -> str:
    """The material's hint for the question, or the prepared answer's own statement that does not give the answer
    away."""
    return asked.hint or _statement(asked) or translator(classroom.language).gettext(
        "look at the pattern on the board once more")


def _statement(asked: Asked) -> str:
    """The prepared answer's first statement that does not say the expected answer: the reason behind it."""
    told = [s for turn in (asked.answer.turns if asked.answer else []) for step in turn.steps if step.say
            for s in sentences(step.say) if not s.endswith(QUESTION_MARKS)]
    safe = [s for s in told if not any(squashed(expected) in squashed(s) for expected in asked.expects)]
    return safe[0] if safe else ""


def take_up(classroom: Classroom, index: MaterialIndex, asked: Asked, reply: str,
            said: Sequence[Said]) -> list[DemoTurn]:
    """A reply to an open question, a pause's prompt or a discussion: taken up in its frame by the agent who asked,
    with the material's own point on it; a discussion goes on with a classmate's view."""
    agent = _taker(classroom, asked)
    name = classroom.learner.nickname
    t = translator(classroom.language)
    said_text = _said_text(said)
    options = [o for o in asked.options if squashed(o) and squashed(o) in squashed(reply)]
    frame = f"{asked.question} {asked.frame}"
    yes = YES.match(reply) is not None
    debating = classroom.session.type == "discussion" and agent.role == "student"  # the trigger holds a side

    def further(topic: str) -> str:
        """The material's point on the reply itself, else on the question it answers."""
        for text, least in ((topic, COVERED), (frame, FURTHER_COVERED)):
            found = statement_on(classroom, index, text, avoid=said_text, speakers=_voices(classroom, agent),
                                 least=least)
            if found:
                return sentence_of(found)
        return ""

    if asked.yes_no(name) and (yes or NO.match(reply)):
        if yes and asked.kind == "options" and asked.frame and not asked.expects:  # "Ready?" at a pause: yes
            return [say(agent, t.gettext("Good, {name}. Let's go on.").format(name=name))]
        verdict = t.gettext("So for you it's a yes, {name}.") if yes else t.gettext("So for you it's a no, {name}.")
        turns = [say(agent, verdict.format(name=name),
                     further(f"{frame} {reply}") or t.gettext("What tips it for you?"))]
    elif options:
        picked = options[0] if len(options) == 1 else t.gettext("{names} and {last}").format(
            names=", ".join(options[:-1]), last=options[-1].lower())
        turns = [say(agent, t.gettext("“{picked}”: yes, {name}, exactly.").format(picked=picked, name=name),
                     further(f"{picked} {frame}"))]
    elif debating and (rebuttal := own_line(classroom, index, agent, reply, said)):
        # a debater answers the learner's point with its own prepared answer to it: a rebuttal
        turns = [say(agent, t.gettext("“{reply}”: I hear you, {name}, but here's my answer: {rebuttal}").format(
            reply=quoted(reply), name=name, rebuttal=f"{rebuttal[:1].lower()}{rebuttal[1:]}"))]
    elif index.topic_words(reply) or set(index.terms(reply)) & set(index.terms(frame)):  # "speedometer", "prices"
        opening = (t.gettext("“{reply}”: yes, {name}, that's one.") if _asks_for_instances(frame)
                   else t.gettext("“{reply}”: fair point, {name}, I'll grant you that.") if debating
                   else t.gettext("“{reply}”: good point, {name}."))
        turns = [say(agent, opening.format(reply=quoted(reply), name=name), further(f"{reply} {frame}"))]
    else:  # nothing of the lesson in it: asked again, kindly, not sent away
        more = t.gettext("Tell me a bit more, {name}: how does “{reply}” fit?").format(name=name, reply=quoted(reply))
        return [say(agent, f"{more} {asked.question}")]
    if asked.kind == "discussion":
        turns += _classmate(classroom, index, agent, f"{reply} {frame}", said_text + " ".join(
            step.say or "" for turn in turns for step in turn.steps))
    if len(turns) == 1 and len(turns[0].steps[0].say or "") < 60 + len(reply) and agent.role != "student":
        # nothing added to it yet: the teacher asks for more (a student's take-up is moderated by the teacher)
        turns = [say(agent, turns[0].steps[0].say or "", t.gettext("Tell me more: what made you think of it?"))]
    return turns


_INSTANCES = re.compile(r"\b(where have you|where do you|think of|name (one|a|an|some)|examples?|have you (seen|met)|"
                        r"when have you)\b", re.IGNORECASE)


def _asks_for_instances(frame: str) -> bool:
    """The question asks for cases ("Where have you seen…?"), so a reply is one of them."""
    return bool(_INSTANCES.search(frame))


def _classmate(classroom: Classroom, index: MaterialIndex, taker: Agent, topic: str, said_text: str
               ) -> list[DemoTurn]:
    """A student other than the one who took the reply up adds a view of their own from the material, so the
    discussion goes on."""
    for student in sorted((a for a in classroom.agents if a.role == "student" and a.id != taker.id),
                          key=lambda a: -a.priority):
        view = statement_on(classroom, index, topic, avoid=said_text, speakers={student.id}, least=FURTHER_COVERED)
        if view:
            return [say(student, sentence_of(view))]
    return []


def for_them(classroom: Classroom, index: MaterialIndex, asked: Asked, said: Sequence[Said]) -> list[DemoTurn]:
    """The learner does not know: the answer to a question with one, else the ideas the prompt offers, and the
    question back in easier terms."""
    agent = _asker(classroom, asked)
    name = classroom.learner.nickname
    t = translator(classroom.language)
    if asked.kind == "quiz" and asked.quiz is not None:
        answer = asked.quiz.analysis or right_answer(asked.quiz)
        return [say(agent, t.gettext("No problem, {name}: {answer}").format(name=name, answer=answer))]
    if asked.expects:
        answer = sentence_of(asked.expects[0])
        return [say(agent, t.gettext("No problem, {name}. The answer: {answer}").format(name=name, answer=answer))]
    ideas = list(asked.options) or _prompt_ideas(asked.frame)
    further = statement_on(classroom, index, f"{asked.question} {asked.frame}", avoid=_said_text(said))
    if ideas:
        listed = ideas[0] if len(ideas) == 1 else t.gettext("{names} or {last}").format(names=", ".join(ideas[:-1]),
                                                                                         last=ideas[-1])
        ideas_line = t.gettext("That's fine, {name}. Think of {ideas}, for instance.").format(
            name=name, ideas=f"{listed[:1].lower()}{listed[1:]}")
        return [say(agent, ideas_line, sentence_of(further) if further else "",
                    t.gettext("Does one of those ring a bell?"))]
    if further:
        return [say(agent, t.gettext("That's fine, {name}. Here's a way in: {point}").format(
            name=name, point=sentence_of(further)))]
    return [say(agent, t.gettext("That's fine, {name}. Let's work it out together: what do you already know?").format(
        name=name))]


def _prompt_ideas(frame: str) -> list[str]:
    """The ideas a prompt offers ("Think of speedometers, prices, temperatures.")."""
    found = re.search(r"\b(?:think of|for example|such as|like)\s+([^.?!]+)", frame, re.IGNORECASE)
    if found is None:
        return []
    return [part.strip() for part in re.split(r",|\bor\b|\band\b", found.group(1)) if part.strip()]


def answered(classroom: Classroom, index: MaterialIndex, asked: Asked, reply: str,
             said: Sequence[Said]) -> list[DemoTurn]:
    """The learner's reply to what the class asked, read against what it asked."""
    if asked.kind == "quiz" and asked.quiz is not None:
        return grade_reply(classroom, asked.quiz, reply)
    if asked.expects:
        return judge(classroom, index, asked, reply, said)
    return take_up(classroom, index, asked, reply, said)


def another_instance(classroom: Classroom, index: MaterialIndex, asked: Asked, said: Sequence[Said]
                     ) -> list[DemoTurn]:
    """"Another example" while the class's question offers cases of what it asks about ("A puddle drying", "Steam
    from a kettle"): one of them, with the material's point on it; nothing when the question offers none."""
    if not asked.options or not _asks_for_instances(f"{asked.question} {asked.frame}"):
        return []
    said_text = _said_text(said)
    case = next((o for o in asked.options if o.casefold() not in said_text.casefold()), asked.options[0])
    agent = _asker(classroom, asked)
    point = statement_on(classroom, index, f"{case} {asked.question}", avoid=said_text,
                         speakers=_voices(classroom, agent))
    t = translator(classroom.language)
    return [say(agent, t.gettext("Here's another one, {name}: {case}.").format(name=classroom.learner.nickname,
                                                                              case=f"{case[:1].lower()}{case[1:]}"),
                sentence_of(point) if point else "", t.gettext("Now you: {question}").format(question=asked.question))]
