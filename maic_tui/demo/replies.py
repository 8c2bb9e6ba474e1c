"""The offline demo's replies beyond prepared answers, each made from the classroom's own material: what the
lesson is about, a quiz question and its grading, a
summary of what this session covered, a greeting, thanks, an answer explained from a slide, a short redirect for
an off-topic message. Pure functions of the classroom, the conversation so far and the message."""

from __future__ import annotations

import re
from collections.abc import Sequence

from maic_tui.classroom.answer_reading import QUESTION_MARKS
from maic_tui.classroom.lesson import QuizQuestion
from maic_tui.classroom.models import Agent, Classroom, DemoStep, DemoTurn
from maic_tui.classroom.quiz import grade_offline, question_text
from maic_tui.demo.understanding import MaterialIndex, Passage, element_text
from maic_tui.i18n import N_, translator
from maic_tui.llm.context import Said
from maic_tui.text_cells import cell_len

_SENTENCE = re.compile(r"[^.!?。！？؟]+[.!?。！？؟]?")  # Chinese and Arabic end their sentences with their own marks
SHORT = 12  # cells: a sentence shorter than this is a remark ("Right."), not a point to quote


def lead(classroom: Classroom) -> Agent:
    return classroom.lead() or classroom.agents[0]


def say(agent: Agent, *lines: str) -> DemoTurn:
    return DemoTurn(agent=agent.id, steps=[DemoStep(say=" ".join(line for line in lines if line))])


def _topics(classroom: Classroom) -> list[str]:
    return [scene.title for scene in classroom.scenes if not scene.graded()]  # what is taught, not what is asked


def about(classroom: Classroom) -> list[DemoTurn]:
    topics = _topics(classroom)
    t = translator(classroom.language)
    listed = t.gettext(" We go through {topics}.").format(topics=t.gettext("{names} and {last}").format(
        names=", ".join(topics[:-1]), last=topics[-1])) if len(topics) > 1 else ""
    description = classroom.description.rstrip(".")
    opening = t.gettext("Today's lesson is “{title}”: {description}.") if description else \
        t.gettext("Today's lesson is “{title}”.")
    return [say(lead(classroom), opening.format(title=classroom.title, description=description), listed,
                t.gettext("Ask about any part of it, or say “quiz me”."))]


def greeting(classroom: Classroom, scene: int) -> list[DemoTurn]:
    name = classroom.learner.nickname
    where = classroom.scenes[scene].title if 0 <= scene < len(classroom.scenes) else classroom.title
    line = translator(classroom.language).gettext("Hi {name}! We're on “{where}”. Ask me anything about it, or say "
                                                  "“quiz me”.")
    return [say(lead(classroom), line.format(name=name, where=where))]


def thanks(classroom: Classroom) -> list[DemoTurn]:
    line = translator(classroom.language).gettext("You're welcome, {name}. What would you like to look at next?")
    return [say(lead(classroom), line.format(name=classroom.learner.nickname))]


OFF_TOPIC = (N_("That's outside today's lesson, so I'll leave it for another time."),
             N_("Good question, but not one for today's lesson, so I won't guess."),
             N_("That's beyond what we're covering today; let's keep it for another day."))


def off_topic(classroom: Classroom, message: str, seed: int) -> list[DemoTurn]:
    """A short, friendly redirect (its wording varies with the seed), pointing at what the lesson does cover."""
    import random

    topics = _topics(classroom)[:2] or [classroom.title]
    t = translator(classroom.language)
    opening = t.gettext(random.Random(f"{seed}:{message}").choice(OFF_TOPIC))
    named = t.gettext(" or ").join(f"“{topic}”" for topic in topics)
    return [say(lead(classroom), opening, t.gettext("Ask me about {topics} instead.").format(topics=named))]


def questions(classroom: Classroom) -> list[QuizQuestion]:
    return [q for scene in classroom.scenes for q in scene.graded()]


def quiz(classroom: Classroom, said: Sequence[Said], pending: bool = False) -> list[DemoTurn]:
    """One of the lesson's quiz questions not asked yet (else the first again); a question from a slide if none.
    A question the class had just asked (``pending``) is dropped, and the teacher says so."""
    asked = " ".join(s.text for s in said if s.speaker != "learner")
    pool = questions(classroom)
    fresh = [q for q in pool if q.question not in asked] or pool
    t = translator(classroom.language)
    opening = t.gettext("Let's leave that one. Here's a quiz question instead.") if pending else \
        t.gettext("Here's one for you.")
    if fresh:
        return [say(lead(classroom), opening, question_text(fresh[0], classroom.language))]
    topic = _topics(classroom)[0] if _topics(classroom) else classroom.title
    line = t.gettext("Here's one for you: explain “{topic}” in your own words, in one sentence.")
    return [say(lead(classroom), line.format(topic=topic))]


def asked_question(classroom: Classroom, said: Sequence[Said]) -> QuizQuestion | None:
    """The quiz question the class's last message asked, if it asked one."""
    last = " ".join(last_turn(said))
    return next((q for q in questions(classroom) if q.question in last), None)


def grade_reply(classroom: Classroom, question: QuizQuestion, reply: str) -> list[DemoTurn]:
    grade = grade_offline(question, reply, classroom.language)
    t = translator(classroom.language)
    verdict = (t.gettext("Right, {name}!") if grade.correct else t.gettext("Partly, {name}.") if grade.earned
               else t.gettext("Not quite, {name}.")).format(name=classroom.learner.nickname)
    return [say(lead(classroom), verdict, grade.comment if not grade.correct else "", question.analysis)]


def last_turn(said: Sequence[Said]) -> list[str]:
    """What the class said since the learner's last message."""
    spoken: list[str] = []
    for entry in reversed(said):
        if entry.speaker == "learner":
            break
        spoken.insert(0, entry.text)
    return spoken


def summary(classroom: Classroom, index: MaterialIndex, said: Sequence[Said]) -> list[DemoTurn]:
    covered: list[str] = []
    for entry in said:
        if entry.speaker == "learner":
            continue
        found = index.best(entry.text, ("scene", "script"))
        if found is not None:
            title = title_of(classroom, found.passage)
            if title not in covered:
                covered.append(title)
    t = translator(classroom.language)
    if not covered:
        return [say(lead(classroom), t.gettext("We haven't covered anything yet.")), *about(classroom)]
    listed = covered[0] if len(covered) == 1 else t.gettext("{names} and {last}").format(
        names=", ".join(covered[:-1]), last=covered[-1])
    return [say(lead(classroom), t.gettext("So far we covered {topics}.").format(topics=listed),
                t.gettext("Which part would you like to go over again?"))]


def title_of(classroom: Classroom, passage: Passage) -> str:
    if passage.scene is not None and 0 <= passage.scene < len(classroom.scenes):
        return f"“{classroom.scenes[passage.scene].title}”"
    return f"“{passage.key}”"


def sentence_of(text: str) -> str:
    text = text.strip()
    if text[-1:] in ".!?。！？؟":
        return text
    return f"{text}。" if cell_len(text[-1:]) == 2 else f"{text}."


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(text) if cell_len(s.strip()) > SHORT]


def from_slide(classroom: Classroom, passage: Passage, scene_now: int, avoid: str = "") -> list[DemoTurn]:
    """An answer explained from the slide (and the lesson's own words on it), with a pointer when it is shown."""
    teacher = lead(classroom)
    if passage.scene is None or not 0 <= passage.scene < len(classroom.scenes):
        return [say(teacher, *sentences(passage.text)[:2])]
    scene = classroom.scenes[passage.scene]
    # A formula is pointed at, not read out: LaTeX said aloud is noise.
    lines = [sentence_of(element_text(e)) for e in scene.elements if element_text(e) and e.type != "formula"]
    lines += [s for step in scene.script if step.say for s in sentences(step.say)]
    fresh = [line for line in lines if line not in avoid] or lines
    steps: list[DemoStep] = []
    target = next((e.id for e in scene.elements), None)
    if passage.scene == scene_now and target is not None and "spotlight" in scene.enables:
        steps.append(DemoStep(action="spotlight", params={"elementId": target}))
    part = translator(classroom.language).gettext("That's part of “{title}”.").format(title=scene.title)
    steps.append(DemoStep(say=f"{part} " + " ".join(fresh[:2])))
    return [DemoTurn(agent=teacher.id, steps=steps)]


def current_passage(classroom: Classroom, scene: int) -> Passage:
    shown = classroom.scenes[scene] if 0 <= scene < len(classroom.scenes) else classroom.scenes[0]
    return Passage("scene", shown.id, shown.title, classroom.scenes.index(shown))


def view_on_scene(classroom: Classroom, agent: Agent, scene: int) -> DemoTurn:
    """An agent addressed by name, with nothing more to go on: what it makes of the scene on screen."""
    shown = classroom.scenes[scene] if 0 <= scene < len(classroom.scenes) else None
    # A point the slide makes (its bullets or text), not its title or a question it asks.
    elements = [e for e in shown.elements if element_text(e) and e.type != "formula"] if shown else []
    points = [sentence_of(element_text(e)) for e in elements if e.type != "title"]
    line = next((p for p in points if not p.endswith(QUESTION_MARKS)),
                points[0] if points else sentence_of(element_text(elements[0])) if elements else "")
    t = translator(classroom.language)
    if not line:
        return say(agent, t.gettext("I'm still thinking about “{title}”. What would you like to know?").format(
            title=classroom.title))
    return say(agent, t.gettext("For me the key point of “{title}” is this: {point}").format(
        title=shown.title, point=line) if shown else line)


def reaction_to(classroom: Classroom, agent: Agent, message: str, index: MaterialIndex, avoid: str = "") -> DemoTurn:
    """A student who speaks first on a topic the material gives to the teacher: it picks up the learner's point
    (never with a line the class said already or is about to say: ``avoid``)."""
    name = classroom.learner.nickname
    # The classroom's own words on the learner's point, as a sentence (never "a fair point about <a word>").
    found = statement_on(classroom, index, message, avoid=avoid)
    t = translator(classroom.language)
    if found:
        return say(agent, t.gettext("Fair point, {name}. {point}").format(name=name, point=sentence_of(found)))
    return say(agent, t.gettext("Interesting, {name}. Go on?").format(name=name))


def statement_on(classroom: Classroom, index: MaterialIndex, message: str, avoid: str = "",
                 speakers: set[str] | None = None, least: float = 0.0, closest: bool = False,
                 shared_words: int = 1) -> str:
    """The statement (not a question, not in ``avoid``: what was said already) the class's prepared answers or lesson
    script make on the message's topic, in their own words: by ``speakers`` only, when given; from passages that cover
    at least ``least`` of the message; within the best passage its first such statement, or with ``closest`` the one
    sharing most words with the message (a scene's script makes many points); a statement shares at least
    ``shared_words`` of the message's words."""
    speakers = speakers if speakers is not None else {a.id for a in classroom.agents}
    said = sentences(avoid)
    wanted = set(index.terms(message))
    best: tuple[int, int, str] | None = None  # (shared words, -rank, sentence)
    for rank, match in enumerate(index.rank(message, ("answer", "script"))[:CLOSEST_PASSAGES]):
        passage = match.passage
        if match.covered < least:
            continue
        if passage.kind == "answer":
            answer = next((a for a in classroom.demo.answers if a.id == passage.key), None)
            texts = [step.say for turn in answer.turns if turn.agent in speakers for step in turn.steps
                     if step.say] if answer else []
        elif passage.scene is not None and 0 <= passage.scene < len(classroom.scenes):
            texts = [step.say for step in classroom.scenes[passage.scene].script if step.say
                     and step.agent in speakers]
        else:
            texts = []
        # a point made on the message (a word of it at least), not a question, not a line to someone by name
        for sentence in (sentence for text in texts for sentence in sentences(text)):
            if sentence.endswith(QUESTION_MARKS) or len(sentence.split()) <= 4 or _to_someone(classroom, sentence):
                continue
            shared = len(wanted & set(index.terms(sentence)))
            if shared >= shared_words and not _said_already(sentence, avoid, said):
                if not closest:
                    return sentence
                if best is None or (shared, -rank) > best[:2]:
                    best = (shared, -rank, sentence)
    return best[2] if best is not None else ""


CLOSEST_PASSAGES = 6  # how far down the ranking a statement is looked for
SAME_POINT = 80  # rapidfuzz token-set ratio at which a sentence says what one already said does ("in other words")


def _to_someone(classroom: Classroom, sentence: str) -> bool:
    """A line said to someone by name (the learner, or "Careful, Zoe: …"): not a point to repeat to the learner."""
    names = {classroom.learner.nickname.casefold()} | {w for agent in classroom.agents for w in agent.name_words}
    return bool(names & set(re.findall(r"[^\W\d_]+", sentence.casefold())))


def _said_already(sentence: str, avoid: str, said: list[str]) -> bool:
    from rapidfuzz import fuzz

    return sentence in avoid or any(fuzz.token_set_ratio(sentence, other) >= SAME_POINT for other in said)


def answer_for_them(classroom: Classroom, index: MaterialIndex, said: Sequence[Said], scene: int) -> list[DemoTurn]:
    """The learner does not know the answer to a question the class asked without saying what it expects: the
    material's own words on it (a question with an answer is read in ``answering.for_them``)."""
    name = classroom.learner.nickname
    t = translator(classroom.language)
    question = next((s for text in reversed(last_turn(said)) for s in reversed(sentences(text))
                     if s.endswith(QUESTION_MARKS)), "")
    found = index.best(question, ("answer", "scene", "script")) if question else None
    if found is None:
        return [say(lead(classroom), t.gettext("That's fine, {name}. Let's work it out together: what do you already "
                                               "know?").format(name=name))]
    if found.passage.kind == "answer":
        prepared = next(a for a in classroom.demo.answers if a.id == found.passage.key)
        told = [s for turn in prepared.turns for step in turn.steps if step.say for s in sentences(step.say)
                if not s.endswith(QUESTION_MARKS)]
        turns = [say(lead(classroom), *told[:2])]
    else:
        turns = from_slide(classroom, found.passage, scene)
    first = turns[0]
    fine = t.gettext("That's fine, {name}.").format(name=name)
    return [DemoTurn(agent=first.agent, steps=[DemoStep(say=fine), *first.steps])]
