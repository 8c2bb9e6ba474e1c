"""What the offline demo model says in a turn the lesson opens (ARCHITECTURE.md, *The lesson*): a scene presented (as
its kind's demo part says: a slide from its own elements), a discussion from the classroom's material, the teacher's
reaction to a graded answer.

Pure functions of the classroom and the call, like ``planner``; the director walks the same plan.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, cast

from maic_tui.classroom.models import Agent, Classroom, DemoStep, DemoTurn, Scene
from maic_tui.demo import planner
from maic_tui.demo.replies import QUESTION_MARKS
from maic_tui.i18n import translator
from maic_tui.llm.context import LessonCall
from maic_tui.scenes.registry import scene_part


def _scene(classroom: Classroom, call: LessonCall) -> Scene | None:
    scenes = classroom.scenes
    return scenes[call.scene] if 0 <= call.scene < len(scenes) else None


class KindDemo(Protocol):
    """What ``scenes/<kind>/demo.py`` holds (ARCHITECTURE.md, *Scene kinds*)."""

    def presentation(self, scene: Any, agent: Agent, language: str) -> DemoTurn:
        """The teacher presents a scene of this kind that has no script, in the class's language."""


class KindTurns(Protocol):
    """What ``scenes/<kind>/demo.py`` holds for the turns its kind opens (``LessonCall.kind == "scene"``) and for
    its own structured call (a project's judge)."""

    def turns(self, scene: Any, call: LessonCall, said: Sequence[tuple[str, str]], language: str) -> list[DemoTurn]:
        """Who says what in the turn (the demo's own words in the class's ``language``)."""

    def verdict(self, scene: Any, call: LessonCall, work: str, language: str) -> str:
        """The answer to the kind's structured call about ``work``."""


def _kind_turns(classroom: Classroom, call: LessonCall) -> tuple[Any, KindTurns | None]:
    scene = _scene(classroom, call)
    part = scene_part(scene.type, "demo") if scene is not None else None
    return scene, cast(KindTurns, part) if part is not None and hasattr(part, "turns") else None


def verdict(classroom: Classroom, call: LessonCall, work: str) -> str:
    """The scene kind's structured answer (a project's judge), as its demo part reads ``work``."""
    scene, part = _kind_turns(classroom, call)
    return part.verdict(scene, call, work, classroom.language) if part is not None else "{}"


def presentation(classroom: Classroom, agent: Agent, call: LessonCall) -> DemoTurn:
    """The teacher presents the scene as its kind's demo part says, else names it and asks for questions."""
    scene = _scene(classroom, call)
    part = cast(KindDemo | None, scene_part(scene.type, "demo")) if scene is not None else None
    if scene is not None and part is not None:
        return part.presentation(scene, agent, classroom.language)
    title = scene.title if scene else classroom.title
    now = translator(classroom.language).gettext("Now: {title}. Ask me anything about it.").format(title=title)
    return DemoTurn(agent=agent.id, steps=[DemoStep(say=now)])


def reaction(classroom: Classroom, agent: Agent, call: LessonCall) -> DemoTurn:
    nickname = classroom.learner.nickname
    t = translator(classroom.language)
    question = None
    scene = _scene(classroom, call)
    if scene is not None and call.question_id:
        question = scene.question(call.question_id)
    analysis = question.analysis if question is not None else ""
    if call.earned >= call.points > 0:
        opening = t.gettext("Exactly right, {name}!").format(name=nickname)
    elif call.earned > 0:
        opening = " ".join([t.gettext("Partly right, {name}.").format(name=nickname), call.comment]).strip()
    else:
        opening = " ".join([t.gettext("Not quite, {name}.").format(name=nickname), call.comment]).strip()
    line = " ".join(part for part in (opening, analysis) if part)
    return DemoTurn(agent=agent.id, steps=[DemoStep(say=line)])


def discussion_plan(classroom: Classroom, call: LessonCall) -> list[DemoTurn]:
    """The prepared answer the topic matches (the class's opening for its own discussion topic); the opener
    always speaks first."""
    session = classroom.session
    own_topic = session.type == "discussion" and session.topic.casefold() == call.topic.casefold()
    answer = None if own_topic else planner.match_answer(classroom, f"{call.topic} {call.request}")
    turns = list(answer.turns) if answer is not None else list(classroom.demo.opening) if own_topic else []
    if call.opener and (not turns or turns[0].agent != call.opener):
        turns.insert(0, DemoTurn(agent=call.opener, steps=[DemoStep(say=call.topic or call.request)]))
    return turns


def plan(classroom: Classroom, call: LessonCall, said: Sequence[tuple[str, str]] = ()) -> list[DemoTurn]:
    if call.kind == "scene":
        scene, part = _kind_turns(classroom, call)
        return part.turns(scene, call, said, classroom.language) if part is not None else []
    lead = classroom.agent(call.opener or "") or classroom.lead() or classroom.agents[0]
    if call.kind == "present":
        return [presentation(classroom, lead, call)]
    if call.kind == "react":
        return [reaction(classroom, lead, call)]
    if call.kind == "worked":  # the learner changed a widget: the material's line for the state it is in now
        line = call.comment or translator(classroom.language).gettext("{name}, {topic}: what do you notice?").format(
            name=classroom.learner.nickname, topic=call.topic)
        return [DemoTurn(agent=lead.id, steps=[DemoStep(say=line)])]
    return discussion_plan(classroom, call)


def director_answer(classroom: Classroom, call: LessonCall, spoken: tuple[str, ...],
                    said: Sequence[tuple[str, str]] = ()) -> dict[str, Any]:
    last = spoken[-1] if spoken else None
    for turn in planner.remaining(plan(classroom, call, said), spoken):
        if turn.agent != last:
            return {"next_agent": turn.agent, "instruction": "Play your part in the lesson."}
    if call.hands_over:
        prompt = translator(classroom.language).gettext("What do you think, {name}?")
        return {"next_agent": "USER", "prompt": prompt.format(name=classroom.learner.nickname)}
    return {"next_agent": "END"}


def agent_turn(classroom: Classroom, agent: Agent, call: LessonCall, spoken: tuple[str, ...], seed: int,
               said: Sequence[tuple[str, str]] = ()) -> DemoTurn:
    own = [turn for turn in plan(classroom, call, said) if turn.agent == agent.id]
    played = spoken.count(agent.id)
    if played < len(own):
        return own[played]
    if agent.role in ("teacher", "assistant"):
        return DemoTurn(agent=agent.id, steps=[DemoStep(say=hand_over_line(classroom, agent, call, spoken))])
    return DemoTurn(agent=agent.id, steps=[DemoStep(say=planner.fallback_line(classroom, agent,
                                                                                    call.request, seed))])


def hand_over_line(classroom: Classroom, agent: Agent, call: LessonCall, spoken: tuple[str, ...]) -> str:
    """The teacher hands a discussion over to the learner, naming only what was said: a question asked, or who
    made a point (never "good points" when nobody made any)."""
    nickname = classroom.learner.nickname
    t = translator(classroom.language)
    others = [found.name for found in (classroom.agent(i) for i in dict.fromkeys(spoken) if i != agent.id) if found]
    opener_asked = [turn for turn in plan(classroom, call) if turn.agent in spoken and turn.agent != agent.id]
    asked = bool(opener_asked) and all((step.say or "").rstrip().endswith(QUESTION_MARKS) for turn in opener_asked
                                       for step in turn.steps if step.say)
    if not others:
        if call.topic:
            return t.gettext("{name}, what do you think: {topic}?").format(name=nickname, topic=call.topic.rstrip("?"))
        return t.gettext("{name}, what do you think?").format(name=nickname)
    if asked and len(others) == 1:
        return t.gettext("That's a good question, {other}. {name}, what's your answer?").format(other=others[0],
                                                                                               name=nickname)
    names = others[0] if len(others) == 1 else t.gettext("{names} and {last}").format(names=", ".join(others[:-1]),
                                                                                       last=others[-1])
    return t.gettext("Thank you, {names}. {name}, where do you stand?").format(names=names, name=nickname)
