"""Conversational moves of the offline demo model (ARCHITECTURE.md, *Models*): "why?" after a point, and a learner
who disagrees or dismisses it. Each is answered by the agent who made the point, from the class's own words, and
never as off-topic: the learner is talking about what was just said."""

from __future__ import annotations

import re
from collections.abc import Sequence

from maic_tui.classroom.answer_reading import names_keyword
from maic_tui.classroom.models import Agent, Classroom, DemoAnswer, DemoStep, DemoTurn
from maic_tui.demo.dialogue import shown
from maic_tui.demo.replies import QUESTION_MARKS, lead, say, sentence_of, sentences, statement_on, view_on_scene
from maic_tui.demo.understanding import COVERED, MaterialIndex, element_text
from maic_tui.i18n import translator
from maic_tui.llm.context import Said


def _last_point(classroom: Classroom, said: Sequence[Said]) -> tuple[str, str]:
    """The point the class made last: its most substantial statement since the learner spoke (not a line that
    thanks or addresses someone), and the agent who made it."""
    nickname = classroom.learner.nickname.casefold()
    thanking = _thanking(classroom)
    best: tuple[bool, int, str, str] | None = None  # a teacher's or assistant's point before a student's
    for entry in reversed(said):
        if entry.speaker == "learner":
            if best is not None:
                break
            continue
        agent = classroom.agent(entry.speaker)
        if agent is None:
            continue
        for sentence in sentences(entry.text) or [entry.text]:
            if sentence.endswith(QUESTION_MARKS) or nickname in sentence.casefold() or (
                    thanking and sentence.startswith(thanking)):
                continue
            found = (agent.role != "student", len(sentence.split()), entry.speaker, sentence)
            if best is None or found[:2] > best[:2]:
                best = found
    return (best[2], best[3]) if best is not None else (lead(classroom).id, "")


def _thanking(classroom: Classroom) -> str:
    """How the class's moderating line opens ("Thank you, Noor."), in its language: a courtesy, not a point."""
    line = translator(classroom.language).gettext("Thank you, {agent}. {name}, what do you make of that?")
    return line.split("{", 1)[0].rstrip(" ,，、")


def _further(classroom: Classroom, index: MaterialIndex, said: Sequence[Said], point: str) -> str:
    """A statement of the material on the point that the class has not said yet: the reason behind it."""
    return statement_on(classroom, index, point, avoid=" ".join(entry.text for entry in said),
                        least=POINT_COVERED, closest=True) if point else ""


POINT_COVERED = 0.3  # a whole sentence is matched more loosely than a question: it has many more words
_ANSWER_OPENING = re.compile(r"^(?:\w+\W+){0,2}\w+:\s+(?=\w)")  # "There is: …", "Usually yes: …"
_BECAUSE = re.compile(r"\b(?:because|since)\s+(.{12,})$", re.IGNORECASE)
_SO = re.compile(r"^(.{12,}?),\s+so\s+", re.IGNORECASE)
_EXPLAINED = re.compile(r"^[^:]{6,}:\s+(.{12,})$")


def reason_in(point: str) -> str:
    """The reason a sentence gives for itself: after "because", before ", so", or what a colon explains."""
    point = point.strip().rstrip(".!")
    for pattern in (_BECAUSE, _SO, _EXPLAINED):
        found = pattern.search(point)
        if found is not None and len(found.group(1).split()) >= 4:
            return found.group(1)
    return ""


def why(classroom: Classroom, index: MaterialIndex, said: Sequence[Said]) -> list[DemoTurn]:
    speaker, point = _last_point(classroom, said)
    agent = classroom.agent(speaker) or lead(classroom)
    name = classroom.learner.nickname
    t = translator(classroom.language)
    own = reason_in(point)
    if own:  # the point's own "because", "so" or colon says it better than a loosely related line
        return [say(agent, t.gettext("Good question, {name}. It comes down to this: {reason}").format(
            name=name, reason=sentence_of(own)))]
    reason = _further(classroom, index, said, point)  # else something on it the class has not said yet
    if reason:
        return [say(agent, t.gettext("Good question, {name}. Here's why: {reason}").format(
            name=name, reason=sentence_of(reason)))]
    if point:
        return [say(agent, t.gettext("{name}, the point is this: {point} Which part would you like me to unpack?")
                    .format(name=name, point=sentence_of(point)))]
    return [say(agent, t.gettext("Why what, {name}? Tell me which point, and I'll explain the reason behind it.")
                .format(name=name))]


def push_back(classroom: Classroom, index: MaterialIndex, said: Sequence[Said], message: str = "",
              named: Agent | None = None) -> list[DemoTurn]:
    """Disagreement or dismissal, answered by the agent whose point it was (the one the learner names, "I disagree
    with Noor"): its own prepared line on what the learner says (a rebuttal), else the material's reason behind the
    point, else a concession; and a question back. Never the point again in the same words."""
    speaker, point = _point_of(classroom, said, named) if named is not None else _last_point(classroom, said)
    agent = classroom.agent(speaker) or lead(classroom)
    name = classroom.learner.nickname
    t = translator(classroom.language)
    topic = _DISAGREEING.sub("", message.strip())  # what the learner holds against it, if they said
    rebuttal = own_line(classroom, index, agent, topic, said)
    if rebuttal:
        return [say(agent, t.gettext("Fair to push back, {name}, but here's my answer: {rebuttal}").format(
            name=name, rebuttal=f"{rebuttal[:1].lower()}{rebuttal[1:]}"), t.gettext("Does that meet your worry?"))]
    support = _further(classroom, index, said, point)
    if support:
        return [say(agent, t.gettext("Fair to push back, {name}. Still, {reason} What makes you doubt it?").format(
            name=name, reason=f"{support[:1].lower()}{sentence_of(support)[1:]}"))]
    if point and topic:
        return [say(agent, t.gettext("Fair to push back, {name}: “{objection}” is a real point, and I can't answer it "
                                     "with anything I know. I'll grant you that. What would you do instead?").format(
            name=name, objection=_quoted(topic)))]
    if point:
        return [say(agent, t.gettext("Maybe I put it badly, {name}. What I mean is: {point} Which part do you "
                                     "disagree with?").format(name=name, point=sentence_of(point)))]
    return [say(agent, t.gettext("Tell me more, {name}: what would you say instead?").format(name=name))]


_DISAGREEING = re.compile(r"^\W*(i (don'?t|do not) (think|agree|believe)( (that|so|it))?|i disagree( with [^\W\d_]+)?|"
                          r"that'?s (wrong|not right|not true)|no way|"
                          r"我不同意|不对吧|不對吧|不可能|胡说|胡說)\W*", re.IGNORECASE)


def _quoted(message: str) -> str:
    """The learner's point as the class repeats it: at most a few words."""
    words = message.strip().rstrip("?!. ").split()
    return " ".join(words[:10]) + ("…" if len(words) > 10 else "")


def _point_of(classroom: Classroom, said: Sequence[Said], agent: Agent) -> tuple[str, str]:
    """The last statement the named agent made (not a question, not one addressing the learner)."""
    nickname = classroom.learner.nickname.casefold()
    for entry in reversed(said):
        if entry.speaker != agent.id:
            continue
        for sentence in reversed(sentences(entry.text) or [entry.text]):
            if not sentence.endswith(QUESTION_MARKS) and nickname not in sentence.casefold() and "“" not in sentence:
                return agent.id, sentence
    return agent.id, ""


def own_line(classroom: Classroom, index: MaterialIndex, agent: Agent, message: str, said: Sequence[Said]) -> str:
    """What the agent itself says in the prepared answer on the learner's message (the answer a debater has for
    it), when the class has not said it yet."""
    if not message:
        return ""
    spoken = " ".join(entry.text for entry in said).casefold()  # said as it was quoted, its first letter lowered
    for match in index.rank(message, ("answer",))[:2]:
        answer = next((a for a in classroom.demo.answers if a.id == match.passage.key), None)
        if answer is None or (match.covered < COVERED and not any(
                names_keyword(keyword, message) for keyword in answer.keywords)):
            continue  # a long message is about an answer when it names one of its keywords ("shops", "vans")
        for turn in answer.turns:
            line = " ".join(step.say for step in turn.steps if step.say)
            if turn.agent == agent.id and line and line.casefold() not in spoken:
                return line
    return ""


def restate(classroom: Classroom, index: MaterialIndex, said: Sequence[Said], scene: int) -> list[DemoTurn]:
    """"I don't get it": the last point again in other words from the material (its slide's own lines first, then
    what the class's answers and script say about it), never the same sentences, and a check back."""
    speaker, point = _last_point(classroom, said)
    agent = classroom.agent(speaker) or lead(classroom)
    name = classroom.learner.nickname
    t = translator(classroom.language)
    spoken = " ".join(entry.text for entry in said)
    asked = next((entry.text for entry in reversed(said) if entry.speaker == "learner"), "")
    # the slides on what the learner asked about, then on the point itself
    ranked = list(dict.fromkeys(m.passage.scene for text, least in ((asked, COVERED), (point, POINT_COVERED))
                                for m in index.rank(text, ("scene",))[:2] if text and m.covered >= least
                                and m.passage.scene is not None)) if point else [scene]
    lines = [sentence_of(t) for number in ranked for t in _slide_points(classroom, number, ("text",))
             if t not in spoken][:1]  # a slide's sentence on it first: written to be read on its own
    speakers = {a.id for a in classroom.agents if a.role != "student"} | {speaker}
    while len(lines) < 2 and point:
        more = statement_on(classroom, index, point, avoid=" ".join([spoken, *lines]), speakers=speakers,
                            least=POINT_COVERED, closest=True)
        if not more:
            break
        lines.append(sentence_of(_ANSWER_OPENING.sub("", more)))
    if not lines:
        lines = [sentence_of(t) for number in ranked for t in _slide_points(classroom, number, ("bullets",))
                 if t not in spoken][:1]
    if not lines:
        if point:
            core = reason_in(point) or point
            return [say(agent, t.gettext("Let me slow down, {name}. In short: {point}").format(
                name=name, point=sentence_of(core[:1].lower() + core[1:])),
                t.gettext("Which part lost you? I'll start from there."))]
        return [say(agent, t.gettext("Let me try again, {name}: which word lost you? I'll start from there.").format(
            name=name))]
    return [say(agent, t.gettext("Let me put it another way, {name}.").format(name=name), *lines[:2],
                t.gettext("Does that help?"))]


def _slide_points(classroom: Classroom, scene: int, kinds: tuple[str, ...]) -> list[str]:
    """What a slide says in words, in elements of those kinds (a formula is pointed at, not read)."""
    if not 0 <= scene < len(classroom.scenes):
        return []
    return [element_text(e) for e in classroom.scenes[scene].elements if e.type in kinds and element_text(e)]


_REQUEST_WORDS = re.compile(r"\b(give|show|me|another|one|more|an?|examples?|instances?|for instance|case|draw|"
                            r"illustrate|demonstrate|please|can|could|you)\b", re.IGNORECASE)


def another_example(classroom: Classroom, index: MaterialIndex, message: str, said: Sequence[Said]
                    ) -> tuple[list[DemoTurn], DemoAnswer | None]:
    """An example on the message's topic, else on the last point: a prepared answer not played yet (one that draws
    when nothing was said yet); honestly said when it is only related, or when there is none."""
    name = classroom.learner.nickname
    t = translator(classroom.language)
    speaker, point = _last_point(classroom, said)
    asked_for = _REQUEST_WORDS.sub(" ", message)
    topic = asked_for if index.topic_words(asked_for) else point
    if not topic:
        drawing = [a for a in classroom.demo.answers if any(step.action and step.action.startswith("wb_draw")
                                                            for turn in a.turns for step in turn.steps)]
        return (list(drawing[0].turns), drawing[0]) if drawing else ([], None)
    played = shown(classroom, said)
    ranked = [m for m in index.rank(topic, ("answer",)) if m.passage.key not in played]
    if not ranked:
        agent = classroom.agent(speaker) or lead(classroom)
        return [say(agent, t.gettext("I don't have another example of that prepared, {name}.").format(name=name),
                    t.gettext("Ask me about a part of it, and I'll show you what I have."))], None
    answer = next(a for a in classroom.demo.answers if a.id == ranked[0].passage.key)
    if ranked[0].covered >= COVERED:  # "another" only once an example was shown: a first request gets the example
        opening = [t.gettext("Here's another one.")] if played else []
    elif played:
        opening = [t.gettext("That was the example I prepared on that, {name}; here's a related one.").format(
            name=name)]
    else:
        opening = [t.gettext("Here's the closest example I have, {name}.").format(name=name)]
    first, *rest = answer.turns
    return [DemoTurn(agent=first.agent, steps=[*(DemoStep(say=o) for o in opening), *first.steps]), *rest], answer


def view_of(classroom: Classroom, index: MaterialIndex, agent: Agent, said: Sequence[Said], scene: int) -> DemoTurn:
    """"What do you think, Juno?": the agent's own view on the point just made, in its own prepared words when the
    material gives it any on that point; else what it makes of the slide."""
    speaker, point = _last_point(classroom, said)
    spoken = " ".join(entry.text for entry in said)
    own = statement_on(classroom, index, point, avoid=spoken, speakers={agent.id}, least=COVERED, shared_words=0) \
        if point else ""
    t = translator(classroom.language)
    if own:
        return say(agent, t.gettext("I'd put it like this, {name}: {point}").format(
            name=classroom.learner.nickname, point=sentence_of(own)))
    maker = classroom.agent(speaker)
    if point and maker is not None:  # nothing of its own on it: it says where it stands on the point made
        stand = t.gettext("I stand by it: {point}") if maker.id == agent.id else \
            t.gettext("I'm with {agent} on this: {point}")
        return say(agent, stand.format(agent=maker.name, point=f"{point[:1].lower()}{sentence_of(point)[1:]}"))
    return view_on_scene(classroom, agent, scene)


def nothing_new(classroom: Classroom, said: Sequence[Said]) -> DemoTurn:
    """A follow-up the material has nothing more on: said honestly by whoever spoke last, never the last reply
    again word for word."""
    speaker = next((s.speaker for s in reversed(said) if classroom.agent(s.speaker)), lead(classroom).id)
    agent = classroom.agent(speaker) or lead(classroom)
    name = classroom.learner.nickname
    t = translator(classroom.language)
    before = " ".join(s.text for s in said[-3:])
    lines = [(t.gettext("I'd only be repeating myself, {name}, and that won't help.").format(name=name),
              t.gettext("Ask me about one part of it, {name}, or say “another example”, and I'll come at it from "
                        "another side.").format(name=name)),
             (t.gettext("That's honestly all I have on it, {name}.").format(name=name),
              t.gettext("Shall we take another question, {name}?").format(name=name))]
    return say(agent, *next((pair for pair in lines if pair[0] not in before), lines[-1]))
