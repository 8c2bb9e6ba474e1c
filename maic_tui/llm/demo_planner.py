"""What the offline demo model says: a plan of agent turns per learner message, from the classroom's demo material.

The plan is a list of ``DemoTurn``s. The director walks it (who has not spoken yet), each agent plays its
own turn from it, and a message the material does not cover gets honest in-character fallback lines.
Everything is a pure function of the classroom, the message and the seed.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from typing import Any, Literal

from maic_tui.classroom.models import Agent, Classroom, DemoAnswer, DemoStep, DemoTurn

_GREETING = re.compile(r"^\s*(hi|hello|hey|good (morning|afternoon|evening)|start|begin|let'?s (go|start|begin)|"
                       r"ready)\b", re.IGNORECASE)
_ROLE_LINES = {
    "teacher": "That is outside what I prepared today, so I won't guess; let's note it and come back to it.",
    "assistant": "I don't know that one well enough to explain it properly.",
    "student": "Hmm, I'm not sure either.",
}
_FAREWELL = re.compile(r"\b(bye|goodbye|see you|thanks|thank you|that's all|that is all|done for today)\b",
                       re.IGNORECASE)
MAX_OPTIONS = 3


def _keyword_score(answer: DemoAnswer, text: str) -> int:
    # Longer keywords are more specific, so they weigh more ("what is a derivative" beats "why").
    return sum(len(k) for k in answer.keywords if re.search(rf"\b{re.escape(k.lower())}\b", text))


def match_answer(classroom: Classroom, message: str) -> DemoAnswer | None:
    text = message.lower()
    scored = [(_keyword_score(answer, text), index, answer) for index, answer in enumerate(classroom.demo.answers)]
    best = max(scored, default=None, key=lambda item: (item[0], -item[1]))
    return best[2] if best is not None and best[0] > 0 else None


def _lead(classroom: Classroom) -> Agent:
    return classroom.lead() or classroom.agents[0]


def fallback_line(classroom: Classroom, agent: Agent, message: str, seed: int) -> str:
    lines = classroom.demo.fallback.get(agent.id) or [_ROLE_LINES[agent.role]]
    return random.Random(f"{seed}:{agent.id}:{message}").choice(lines)


def fallback_turns(classroom: Classroom, message: str, seed: int) -> list[DemoTurn]:
    lead = _lead(classroom)
    turns = [DemoTurn(agent=lead.id, steps=[DemoStep(say=fallback_line(classroom, lead, message, seed))])]
    others = [a for a in classroom.agents if a.id != lead.id and a.id in classroom.demo.fallback]
    if others:
        other = random.Random(f"{seed}:{message}").choice(others)
        turns.append(DemoTurn(agent=other.id, steps=[DemoStep(say=fallback_line(classroom, other, message, seed))]))
    return turns


def is_farewell(message: str) -> bool:
    return bool(_FAREWELL.search(message)) and len(message) < 60


@dataclass(frozen=True, slots=True)
class Plan:
    """Who says what for one learner message, and where it came from."""

    turns: list[DemoTurn]
    kind: Literal["answer", "opening", "farewell", "fallback"]
    answer: DemoAnswer | None = None

    @property
    def prepared(self) -> bool:
        """The class's material covers this message."""
        return self.kind in ("answer", "opening")


def plan_for(classroom: Classroom, message: str, seed: int) -> Plan:
    answer = match_answer(classroom, message)
    if answer is not None:
        return Plan(list(answer.turns), "answer", answer)
    if is_farewell(message):
        line = f"You're welcome, {classroom.learner.nickname}. Good work today; come back any time."
        return Plan([DemoTurn(agent=_lead(classroom).id, steps=[DemoStep(say=line)])], "farewell")
    if (not message.strip() or _GREETING.match(message)) and classroom.demo.opening:
        return Plan(list(classroom.demo.opening), "opening")
    return Plan(fallback_turns(classroom, message, seed), "fallback")


def remaining(turns: list[DemoTurn], spoken: tuple[str, ...]) -> list[DemoTurn]:
    """Plan turns not played yet: each agent that spoke used up its first unplayed turn."""
    left = list(turns)
    for agent_id in spoken:
        for index, turn in enumerate(left):
            if turn.agent == agent_id:
                del left[index]
                break
    return left


def director_answer(classroom: Classroom, message: str, spoken: tuple[str, ...], seed: int) -> dict[str, Any]:
    plan = plan_for(classroom, message, seed)
    last = spoken[-1] if spoken else None
    for turn in remaining(plan.turns, spoken):
        if turn.agent != last:
            return {"next_agent": turn.agent, "instruction": "Play your part in this answer."}
    if plan.kind == "farewell":
        return {"next_agent": "END"}
    lead = _lead(classroom)
    staff = {a.id for a in classroom.agents if a.role in ("teacher", "assistant")}
    if lead.id in staff and not staff & set(spoken) and last != lead.id:
        # Students carried this turn: the teacher moderates before the learner gets the floor.
        return {"next_agent": lead.id, "instruction": "Pull the threads together and ask the learner."}
    options = [a.question for a in classroom.demo.answers if a is not plan.answer and len(a.question) <= 60]
    decision: dict[str, Any] = {"next_agent": "USER", "prompt": "What would you like to explore next?"}
    if len(options) >= 2:
        decision["options"] = options[:MAX_OPTIONS]
    return decision


def agent_turn(classroom: Classroom, agent: Agent, message: str, spoken: tuple[str, ...], seed: int) -> DemoTurn:
    """This agent's next turn in the plan, or an honest fallback line when the plan has none for it."""
    plan = plan_for(classroom, message, seed)
    played = spoken.count(agent.id)
    own = [turn for turn in plan.turns if turn.agent == agent.id]
    if played < len(own):
        return own[played]
    if plan.prepared and agent.role in ("teacher", "assistant"):  # moderating a turn the material gave to others
        line = f"Good points, all of you. {classroom.learner.nickname}, which of them convinces you most, and why?"
        return DemoTurn(agent=agent.id, steps=[DemoStep(say=line)])
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
