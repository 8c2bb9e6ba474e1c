"""Routing guards (ARCHITECTURE.md, *One learner turn*): code, not prompt, checks the director's choice."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, cast

from maic_tui.classroom.answer_reading import asks
from maic_tui.classroom.models import GUARD_NAMES, Classroom, GuardName
from maic_tui.events import AgentTurnSummary, GuardVerdict
from maic_tui.llm.context import LessonCall
from maic_tui.orchestration.routing.director_answer import END, USER, Decision
from maic_tui.orchestration.routing.mentions import addressed_agent
from maic_tui.scenes.registry import scene_part

_QUESTION_START = re.compile(
    r"^\s*(what|why|how|when|where|who|which|can|could|is|are|does|do|did|should|would|will|explain|"
    r"tell me|show me)\b",
    re.IGNORECASE,
)


def is_clear_question(message: str) -> bool:
    return asks(message) or bool(_QUESTION_START.match(message))


def substantive(summary: AgentTurnSummary) -> bool:
    return bool(summary.content_preview.strip()) or summary.action_count > 0


_STAFF = ("teacher", "assistant")


@dataclass(frozen=True, slots=True)
class RoutingView:
    """What the guards look at for one decision."""

    classroom: Classroom
    learner_message: str
    responses: tuple[AgentTurnSummary, ...]  # this learner turn's agent turns, in order
    last_said: str = ""  # the whole speech of the last of them (a summary keeps only its opening)
    team: bool = False  # a turn a scene's kind opened (a project's team talk): whoever answers, answers the learner

    def role_of(self, agent_id: str) -> str | None:
        agent = self.classroom.agent(agent_id)
        return agent.role if agent else None

    def taught(self) -> bool:
        """A teacher or assistant (in a team's turn, anyone) gave a substantive turn this learner turn."""
        if self.team:
            return any(substantive(r) for r in self.responses)
        return any(substantive(r) and self.role_of(r.agent_id) in _STAFF for r in self.responses)


def _unknown_agent(decision: Decision, view: RoutingView) -> str | None:
    if decision.next_agent in (USER, END) or view.classroom.agent(decision.next_agent):
        return None
    ids = ", ".join(a.id for a in view.classroom.agents)
    return f"'{decision.next_agent}' is not in this class; choose one of {ids}, USER or END"


def _same_agent_twice(decision: Decision, view: RoutingView) -> str | None:
    if view.responses and view.responses[-1].agent_id == decision.next_agent:
        return f"{decision.next_agent} just spoke; choose someone else, USER or END"
    return None


def _cue_before_answer(decision: Decision, view: RoutingView) -> str | None:
    if view.taught() or view.classroom.lead() is None:
        return None
    if decision.next_agent == USER:
        return "nobody has answered the learner yet; a teacher or assistant should speak before handing back"
    # END stays allowed for a goodbye or a thank-you, which need no answer; a question does
    if decision.next_agent == END and is_clear_question(view.learner_message):
        return "nobody has answered the learner's question yet; a teacher or assistant should answer it first"
    return None


def _student_first(decision: Decision, view: RoutingView) -> str | None:
    if view.team or view.classroom.session.type != "qa" or view.role_of(decision.next_agent) != "student":
        return None
    if not is_clear_question(view.learner_message):
        return None
    lead = view.classroom.lead()
    if lead is None or any(r.agent_id == lead.id and substantive(r) for r in view.responses):
        return None
    return f"the learner asked a question; {lead.id} ({lead.role}) should answer it before a student reacts"


def _floor_after_question(decision: Decision, view: RoutingView) -> str | None:
    # END hands the floor back too (without a cue); only another voice talks over the question
    if decision.next_agent in (USER, END) or not asked_the_learner(view):
        return None
    asker = view.responses[-1].agent_id
    return f"{asker} asked the learner a question; the learner has the floor now: choose USER"


GUARDS: dict[GuardName, Callable[[Decision, RoutingView], str | None]] = {
    "unknown_agent": _unknown_agent,
    "same_agent_twice": _same_agent_twice,
    "cue_before_answer": _cue_before_answer,
    "student_first": _student_first,
    "floor_after_question": _floor_after_question,
}
assert tuple(GUARDS) == GUARD_NAMES, "every guard name a classroom may switch has exactly one guard"


def check(decision: Decision, view: RoutingView) -> list[GuardVerdict]:
    """A verdict for every guard the classroom switches on, in a fixed order."""
    verdicts = []
    enabled = set(view.classroom.routing.guards)
    for rule, guard in GUARDS.items():
        if rule not in enabled:
            continue
        reason = guard(decision, view)
        verdicts.append(GuardVerdict(rule=rule, passed=reason is None, reason=reason))
    return verdicts


def acceptable(view: RoutingView) -> list[str]:
    """Every choice the guards the classroom switches on would accept now (the agents present, then USER and END):
    what the director model may choose from."""
    return [choice for choice in (*(a.id for a in view.classroom.agents), USER, END)
            if all(verdict.passed for verdict in check(Decision(choice), view))]


def teacher_first(view: RoutingView) -> str | None:
    """A clear question opens a Q&A turn: the lead (the teacher, else the assistant) answers it first."""
    lead = view.classroom.lead()
    if view.responses or lead is None or view.classroom.session.type != "qa":
        return None
    return lead.id if is_clear_question(view.learner_message) else None


def discussion_round(view: RoutingView) -> str | None:
    """A learner's turn in a discussion is a round: whoever opens it and at most one more student, then the lead
    sums up, and once a teacher or assistant has answered the students the learner has the floor (USER). None where
    the round leaves the choice open."""
    lead = view.classroom.lead()
    if lead is None or view.classroom.session.type != "discussion":
        return None
    spoke = [r for r in view.responses if substantive(r)]
    students = [i for i, r in enumerate(spoke) if view.role_of(r.agent_id) == "student"]
    if not students:
        return None
    if any(view.role_of(r.agent_id) in _STAFF for r in spoke[students[0] + 1:]):
        return USER
    if len(students) >= 2 and view.responses[-1].agent_id != lead.id:
        return lead.id
    return None


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")  # Chinese needs no space after a sentence


def asked_the_learner(view: RoutingView) -> bool:
    """A teacher or assistant just ended on a question to the learner (not one put to another agent by name, as
    "What do you think, Juno?"): the learner has the floor (rule 8 of the director's prompt, held in code)."""
    if not view.responses or view.role_of(view.responses[-1].agent_id) not in _STAFF:
        return False
    sentence = _SENTENCE_END.split(view.last_said.strip())[-1].rstrip("\"'”’)*_ ")
    if not asks(sentence):
        return False
    others = [a for a in view.classroom.agents if a.id != view.responses[-1].agent_id]
    return "@" not in sentence and addressed_agent(others, sentence) is None


def fallback(view: RoutingView) -> str:
    """The deterministic choice when the director cannot be trusted: the lead teaches first, then the
    learner gets the floor."""
    lead = view.classroom.lead()
    if lead is not None and not view.taught():
        return lead.id
    return USER


@dataclass(frozen=True, slots=True)
class Rule:
    """What a scene kind's routing rule decides: an agent id, USER or END; why (the trace's reason); the agent's
    instruction."""

    choice: str
    reason: str
    instruction: str = ""


KindRule = Callable[[Any, RoutingView, LessonCall], Rule | None]
KindBar = Callable[[Any, RoutingView, LessonCall], Mapping[str, str]]


class KindRouting(Protocol):
    """What ``scenes/<kind>/routing.py`` holds: its rules by name (each a name of its model's ``rules``), and the
    agents a rule bars from a turn (agent id to why), which the director model is then refused."""

    RULES: Mapping[str, KindRule]
    BARS: Mapping[str, KindBar]


def kind_rule(scene: Any, view: RoutingView, call: LessonCall) -> tuple[str, Rule] | None:
    """The first rule of the scene's kind that the classroom switches on and that decides this turn: its name and
    decision."""
    part = cast(KindRouting | None, scene_part(scene.type, "routing")) if scene is not None else None
    if part is None:
        return None
    for name, rule in part.RULES.items():
        if name in view.classroom.routing.rules and (decided := rule(scene, view, call)) is not None:
            return name, decided
    return None


def kind_bars(scene: Any, view: RoutingView, call: LessonCall) -> dict[str, tuple[str, str]]:
    """The agents the scene's kind's rules (switched on) bar from this turn: agent id to (rule, why)."""
    part = cast(KindRouting | None, scene_part(scene.type, "routing")) if scene is not None else None
    barred: dict[str, tuple[str, str]] = {}
    for name, bar in (part.BARS.items() if part is not None else ()):
        if name in view.classroom.routing.rules:
            for agent, reason in bar(scene, view, call).items():
                barred.setdefault(agent, (name, reason))
    return barred
