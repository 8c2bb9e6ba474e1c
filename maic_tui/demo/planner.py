"""What the offline demo model says: a plan of agent turns per learner message, from the classroom's demo material.

The plan is a list of ``DemoTurn``s. The director walks it (who has not spoken yet), each agent plays its
own turn from it, and a message the material does not cover gets honest in-character fallback lines.
Everything is a pure function of the classroom, the message and the seed.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from maic_tui.classroom.answer_reading import says_expected
from maic_tui.classroom.models import Agent, Classroom, DemoAnswer, DemoStep, DemoTurn
from maic_tui.demo import answering, moves, replies
from maic_tui.demo.dialogue import asked_of
from maic_tui.demo.intents import intent_of, is_new_question, plain_yes_no
from maic_tui.demo.understanding import MaterialIndex
from maic_tui.i18n import N_, translator
from maic_tui.llm.context import Said

_ROLE_LINES = {
    "teacher": N_("That is outside what I prepared today, so I won't guess; let's note it and come back to it."),
    "assistant": N_("I don't know that one well enough to explain it properly."),
    "student": N_("Hmm, I'm not sure either."),
}
MAX_OPTIONS = 3
HANDING_OVER = (N_("{agent}, that one's for you."), N_("Over to you, {agent}."),
                N_("{agent}, you made that point: go on."))
SAME_QUESTION = 90  # rapidfuzz ratio at which a message is the prepared question itself
ANSWER_SHARE = 0.5  # a prepared answer is chosen over a better-ranked slide when it scores at least this share


def match_answer(classroom: Classroom, message: str) -> DemoAnswer | None:
    """The prepared answer the message is about (stems, typos and rare words considered), if any."""
    best = material(classroom).best(message, ("answer",))
    return next((a for a in classroom.demo.answers if best is not None and a.id == best.passage.key), None)


def _lead(classroom: Classroom) -> Agent:
    return classroom.lead() or classroom.agents[0]


def fallback_line(classroom: Classroom, agent: Agent, message: str, seed: int) -> str:
    lines = classroom.demo.fallback.get(agent.id) or [translator(classroom.language).gettext(_ROLE_LINES[agent.role])]
    return random.Random(f"{seed}:{agent.id}:{message}").choice(lines)


PlanKind = Literal["answer", "opening", "farewell", "fallback", "material", "about", "greeting", "thanks", "quiz",
                   "check", "summary", "confused", "example", "offtopic", "named", "move"]


@dataclass(frozen=True, slots=True)
class Plan:
    """Who says what for one learner message, and where it came from."""

    turns: list[DemoTurn]
    kind: PlanKind
    answer: DemoAnswer | None = None

    @property
    def prepared(self) -> bool:
        """The class's material covers this message."""
        return self.kind not in ("fallback", "offtopic", "farewell")


_INDEXES: dict[int, tuple[Classroom, MaterialIndex]] = {}


def material(classroom: Classroom) -> MaterialIndex:
    """The classroom's material index, built once per classroom."""
    found = _INDEXES.get(id(classroom))
    if found is None or found[0] is not classroom:
        found = _INDEXES[id(classroom)] = (classroom, MaterialIndex.of(classroom))
    return found[1]


def _named(classroom: Classroom, message: str) -> Agent | None:
    """An agent the learner addresses by name without @ ("I disagree with Noor")."""
    words = set(re.findall(r"[^\W\d_]+", message.casefold()))
    return next((agent for agent in classroom.agents if agent.name_words & words), None)


def _prepared_question(classroom: Classroom, message: str) -> DemoAnswer | None:
    from rapidfuzz import fuzz

    text = message.casefold().strip(" ?!.")
    scored = [(fuzz.ratio(text, answer.question.casefold().strip(" ?!.")), answer) for answer in classroom.demo.answers]
    best = max(scored, default=None, key=lambda pair: pair[0])
    return best[1] if best is not None and best[0] >= SAME_QUESTION else None


def plan_for(classroom: Classroom, message: str, seed: int, said: Sequence[tuple[str, str]] = (),
             scene: int = 0) -> Plan:
    """The plan for a learner message: read against what the class just asked and said (``dialogue``) before
    the material index; never the class's previous reply again word for word (a follow-up gets something new)."""
    history = [Said(speaker, text) for speaker, text in said]
    plan = _plan(classroom, message, seed, history, scene)
    if plan.kind in ("opening", "farewell", "thanks", "greeting") or not _repeats(plan, history):
        return plan
    if plan.kind != "confused" and intent_of(message.strip()) != "why":  # a prepared answer again: put another way
        plan = Plan(moves.restate(classroom, material(classroom), history, scene), "confused")
        if not _repeats(plan, history):
            return plan
    return Plan([moves.nothing_new(classroom, history)], "move")


def _repeats(plan: Plan, history: Sequence[Said]) -> bool:
    """Every line of the plan was said by the class already (in the conversation the demo reads)."""
    before = " ".join(s.text for s in history if s.speaker != "learner")
    lines = [step.say.strip() for turn in plan.turns for step in turn.steps if step.say and step.say.strip()]
    return bool(lines and before) and all(line in before for line in lines)


def _plan(classroom: Classroom, message: str, seed: int, history: list[Said], scene: int) -> Plan:
    index = material(classroom)
    text = message.strip()
    spoke = any(s.speaker != "learner" for s in history)
    intent = intent_of(text)
    if (not text or (intent == "greeting" and not spoke)) and classroom.demo.opening:
        return Plan(list(classroom.demo.opening), "opening")
    if intent == "farewell":
        line = translator(classroom.language).gettext("You're welcome, {name}. Good work today; come back any "
                                                      "time.").format(name=classroom.learner.nickname)
        return Plan([DemoTurn(agent=_lead(classroom).id, steps=[DemoStep(say=line)])], "farewell")
    if intent == "thanks":
        return Plan(replies.thanks(classroom), "thanks")
    if intent == "greeting":
        return Plan(replies.greeting(classroom, scene), "greeting")
    asked = asked_of(classroom, history, scene)
    if intent == "quiz":  # even with a question pending: the learner asked for a quiz question, not to answer
        return Plan(replies.quiz(classroom, history, pending=asked is not None), "quiz")
    if asked is not None and ((plain_yes_no(text) and asked.yes_no(classroom.learner.nickname))
                              or (asked.expects and says_expected(asked.expects, text))):
        return Plan(answering.answered(classroom, index, asked, text, history), "check", asked.answer)
    if intent == "unsure" and asked is not None:
        return Plan(answering.for_them(classroom, index, asked, history), "check", asked.answer)
    if intent == "unsure" and replies.last_turn(history):
        return Plan(replies.answer_for_them(classroom, index, history, scene), "check")
    if intent == "about":
        return Plan(replies.about(classroom), "about")
    if intent == "why" and replies.last_turn(history):  # about the point just made: never off-topic
        return Plan(moves.why(classroom, index, history), "move")
    if intent == "disagree" and replies.last_turn(history):
        return Plan(moves.push_back(classroom, index, history, text, _named(classroom, text)), "move")
    if intent == "opinion":  # "what do you think?": the agent addressed, else the one who spoke last
        asked_agent = _named(classroom, text) or _last_speaker(classroom, history) or _lead(classroom)
        return Plan([moves.view_of(classroom, index, asked_agent, history, scene)], "named")
    if intent == "summary":
        return Plan(replies.summary(classroom, index, history), "summary")
    if intent == "confused":
        return Plan(moves.restate(classroom, index, history, scene), "confused")
    if intent == "example" and asked is not None and (cases := answering.another_instance(classroom, index, asked,
                                                                                         history)):
        return Plan(cases, "example", asked.answer)
    if intent == "example":
        turns, example = moves.another_example(classroom, index, text, history)
        if turns:
            return Plan(turns, "example", example)
    asked_as_written = _prepared_question(classroom, text)  # a suggestion picked, or typed nearly as offered
    if asked is not None and asked_as_written is None and not is_new_question(text):  # "5x^3?" is a guess
        return Plan(answering.answered(classroom, index, asked, text, history), "check", asked.answer)
    if asked_as_written is not None:
        return Plan(list(asked_as_written.turns), "answer", asked_as_written)
    best = index.best(text)
    prepared = index.best(text, ("answer",))
    if best is not None and prepared is not None and prepared.score >= ANSWER_SHARE * best.score:
        best = prepared  # a prepared answer on the topic beats the slide it comes from: it was written for this
    named = _named(classroom, text)
    if best is not None and best.passage.kind == "answer":
        answer = next(a for a in classroom.demo.answers if a.id == best.passage.key)
        turns = list(answer.turns)
        if named is not None and turns[0].agent != named.id:
            turns = [t for t in turns if t.agent == named.id] + [t for t in turns if t.agent != named.id]
        return Plan(turns, "answer", answer)
    if best is not None:
        return Plan(replies.from_slide(classroom, best.passage, scene), "material")
    if named is not None:
        return Plan([replies.view_on_scene(classroom, named, scene)], "named")
    if intent == "example":
        return Plan(replies.from_slide(classroom, replies.current_passage(classroom, scene), scene), "material")
    return Plan(replies.off_topic(classroom, text, seed), "offtopic")


def _last_speaker(classroom: Classroom, history: Sequence[Said]) -> Agent | None:
    return next((found for s in reversed(history) if s.speaker != "learner"
                 and (found := classroom.agent(s.speaker)) is not None), None)


def opened(classroom: Classroom, turns: list[DemoTurn], spoken: tuple[str, ...]) -> list[DemoTurn]:
    """The plan as the turn was opened: where the rules gave a clear question to the lead and the material gives it
    to a colleague (the assistant), the lead hands over first."""
    staff = {a.id for a in classroom.agents if a.role in ("teacher", "assistant")}
    first = spoken[0] if spoken else None
    if not turns or first is None or first == turns[0].agent or not {first, turns[0].agent} <= staff:
        return turns
    owner = classroom.agent(turns[0].agent)
    name = owner.name if owner is not None else turns[0].agent
    line = translator(classroom.language).gettext("{agent}, would you take this one?").format(agent=name)
    return [DemoTurn(agent=first, steps=[DemoStep(say=line)]), *turns]


def remaining(turns: list[DemoTurn], spoken: tuple[str, ...]) -> list[DemoTurn]:
    """Plan turns not played yet: each agent that spoke used up its first unplayed turn."""
    left = list(turns)
    for agent_id in spoken:
        for index, turn in enumerate(left):
            if turn.agent == agent_id:
                del left[index]
                break
    return left


def director_answer(classroom: Classroom, message: str, spoken: tuple[str, ...], seed: int,
                    said: Sequence[tuple[str, str]] = (), scene: int = 0) -> dict[str, Any]:
    plan = plan_for(classroom, message, seed, said, scene)
    last = spoken[-1] if spoken else None
    for turn in remaining(opened(classroom, plan.turns, spoken), spoken):
        if turn.agent != last:
            return {"next_agent": turn.agent, "instruction": "Play your part in this answer."}
    if plan.kind == "farewell":
        return {"next_agent": "END"}
    lead = _lead(classroom)
    staff = {a.id for a in classroom.agents if a.role in ("teacher", "assistant")}
    short = not plan.prepared or plan.kind in ("quiz", "check", "greeting", "thanks", "about", "summary")
    if short and (not spoken or staff & set(spoken) or lead.id not in staff):
        return {"next_agent": "USER"}  # a short exchange: the learner's turn again, no suggestions pushed
    if lead.id in staff and not staff & set(spoken) and last != lead.id:
        # Students carried this turn: the teacher moderates before the learner gets the floor.
        return {"next_agent": lead.id, "instruction": "Pull the threads together and ask the learner."}
    options = [a.question for a in classroom.demo.answers if a is not plan.answer and len(a.question) <= 60]
    prompt = translator(classroom.language).gettext("What would you like to explore next?")
    decision: dict[str, Any] = {"next_agent": "USER", "prompt": prompt}
    if len(options) >= 2:
        decision["options"] = options[:MAX_OPTIONS]
    return decision


def agent_turn(classroom: Classroom, agent: Agent, message: str, spoken: tuple[str, ...], seed: int,
               said: Sequence[tuple[str, str]] = (), scene: int = 0) -> DemoTurn:
    """This agent's next turn in the plan, or an honest fallback line when the plan has none for it."""
    plan = plan_for(classroom, message, seed, said, scene)
    turns = opened(classroom, plan.turns, spoken or (agent.id,))
    played = spoken.count(agent.id)
    own = [turn for turn in turns if turn.agent == agent.id]
    if played < len(own):
        return own[played]
    if plan.prepared and agent.role in ("teacher", "assistant"):  # moderating a turn the material gave to others
        others = [found.name for i in dict.fromkeys(spoken) if i != agent.id and (found := classroom.agent(i))]
        nickname = classroom.learner.nickname
        t = translator(classroom.language)
        if len(others) > 1:
            listed = t.gettext("{names} and {last}").format(names=", ".join(others[:-1]), last=others[-1])
            lines = [t.gettext("Thank you, {agents}. {name}, which point convinces you most?"),
                     t.gettext("Two views, {name}: {agents}. Which one holds up for you?")]
        elif others:
            listed = others[0]
            lines = [t.gettext("Thank you, {agent}. {name}, what do you make of that?"),
                     t.gettext("That's {agent}'s answer to you, {name}. Does it change your mind?")]
        else:
            listed = ""
            lines = [t.gettext("{name}, what do you make of this?"), t.gettext("Where do you stand on this, {name}?")]
        lines = [line.format(agents=listed, agent=listed, name=nickname) for line in lines]
        before = " ".join(text for _, text in said)  # the same moderating line twice running reads as a loop
        line = next((line for line in lines if line not in before), lines[0])
        return DemoTurn(agent=agent.id, steps=[DemoStep(say=line)])
    if plan.prepared and played == 0 and plan.kind not in ("answer", "material") and plan.turns:
        # a student opening a turn that follows up the class's own point: it hands over to whoever made it
        owner = classroom.agent(plan.turns[0].agent)
        if owner is not None and owner.id != agent.id:
            line = translator(classroom.language).gettext(random.Random(f"{seed}:{agent.id}:{message}").choice(
                HANDING_OVER)).format(agent=owner.name)
            return DemoTurn(agent=agent.id, steps=[DemoStep(say=line)])
    if plan.prepared and played == 0:  # a student opening a turn the material gave to the teacher (a trigger)
        coming = " ".join(step.say for turn in plan.turns for step in turn.steps if step.say)
        return replies.reaction_to(classroom, agent, message, material(classroom),
                                   avoid=" ".join([coming, *(text for _, text in said)]))
    return DemoTurn(agent=agent.id, steps=[DemoStep(say=fallback_line(classroom, agent, message, seed))])


def fit_to_board(steps: list[DemoStep], board_ids: tuple[str, ...]) -> list[DemoStep]:
    """Keep prepared board work valid on the board as it is now (questions come in any order):
    redraw an id that is already taken by deleting it first, and skip edits of elements that are not there."""
    present = set(board_ids)
    fitted: list[DemoStep] = []
    for step in steps:
        name, element_id = step.action, step.params.get("elementId")
        if name is None:
            fitted.append(step)
        elif name == "wb_clear":
            if present:
                fitted.append(step)
            present.clear()
        elif name.startswith("wb_draw_"):
            if element_id in present:
                fitted.append(DemoStep(action="wb_delete", params={"elementId": element_id}))
            fitted.append(step)
            if element_id:
                present.add(element_id)
        elif name in ("wb_edit_code", "wb_delete"):
            if element_id in present:
                fitted.append(step)
                if name == "wb_delete":
                    present.discard(element_id)
        else:
            fitted.append(step)
    return fitted


def model_output(steps: list[DemoStep]) -> str:
    """The JSON-array answer a model would stream for these steps."""
    items = [
        {"type": "text", "content": step.say}
        if step.say is not None
        else {"type": "action", "name": step.action, "params": step.params}
        for step in steps
    ]
    return json.dumps(items, ensure_ascii=False)
