"""The director's prompt: who is in the class, what happened this turn, and the routing rules in our words
The answer is one JSON object; see ``decision.py``."""

from __future__ import annotations

import json
from collections.abc import Sequence

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from maic_tui.actions import action_summary
from maic_tui.classroom.models import Classroom
from maic_tui.events import AgentTurnSummary, WhiteboardActionRecord
from maic_tui.llm.context import LessonCall
from maic_tui.orchestration.history import HistoryEntry, conversation_summary
from maic_tui.whiteboard import Whiteboard

CROWDED = 5  # more elements than this and the director should not add more board work

RULES = """\
Routing rules:
1. The teacher usually speaks first. In a discussion, the agent who raised the topic may open, then the
   teacher guides, then others bring distinct views.
2. Do not call an agent who already spoke in this turn unless it is truly needed.
3. Do not call two agents of the same role in a row while another role has something useful to add.
4. Never ask anyone to explain again. Ask for a question, a challenge, an example or a short summary instead.
5. A clear question from the learner goes to the teacher first; never open with a student for an explanation.
6. Concepts, mechanisms and processes are explained first by the teacher (by the assistant when there is no
   teacher or the teacher has already answered); students only react afterwards: a real question, a common
   misconception, one example.
7. Each agent speaks for itself: never ask one agent to speak for another or to stage an exchange.
8. Once the message has been dealt with, stop calling agents and answer END (nothing more is needed) or USER
   (a question was put to the learner, or their input is needed next). One or two agents are usually enough.
9. Keep the instruction short: one sentence saying what this agent should contribute.
Also: each contribution must move things forward (explanation, check question, deeper point, other view,
summary), and while the board is crowded, pick someone who adds to it only if they tidy it first."""

def answer_format(classroom: Classroom) -> str:
    """How to answer, with concrete examples from this class: no placeholder a small model could copy."""
    lead = classroom.lead() or classroom.agents[0]
    pick = json.dumps({"next_agent": lead.id, "instruction": "Explain it with one everyday example."})
    cue = json.dumps({"next_agent": "USER", "prompt": "Which part should we look at next?",
                      "options": ["An example", "The formula"]})
    return ('Answer with exactly one JSON object and nothing else. "next_agent" is an agent id from the list, '
            '"USER" or "END"; "instruction" (optional) is one sentence for that agent; with USER, "prompt" '
            '(optional) is a short question for the learner and "options" 2-4 short answers. For example:\n'
            f"{pick}\nor\n{cue}\nor\n" + '{"next_agent": "END"}')


def _roster(classroom: Classroom) -> str:
    return "\n".join(
        f'- id: "{a.id}", name: "{a.name}", role: {a.role}, priority: {a.priority}' for a in classroom.agents
    )


def _spoken(responses: Sequence[AgentTurnSummary], ledger: Sequence[WhiteboardActionRecord]) -> str:
    if not responses:
        return "Nobody yet."
    lines = []
    for index, response in enumerate(responses):
        mine = [r for r in ledger if r.agent_id == response.agent_id]
        board = [s for s in (action_summary(r.action_name, r.params) for r in mine) if s]
        extra = f" [{response.action_count} actions" + (f"; whiteboard: {', '.join(board)}" if board else "") + "]"
        preview = response.content_preview or "(no speech)"
        lines.append(f'{index + 1}. {response.agent_name} ({response.agent_id}): "{preview}"{extra}')
    return "\n".join(lines)


def _board(board: Whiteboard) -> str:
    count = len(board.elements)
    state = "OPEN (the slide is hidden; pointers do not work)" if board.is_open else "closed (the slide is shown)"
    text = f"Whiteboard: {state}, {count} element{'s' if count != 1 else ''}."
    if count > CROWDED:
        text += " It is crowded: avoid adding more unless someone tidies it."
    return text


def director_messages(
    classroom: Classroom,
    history: Sequence[HistoryEntry],
    learner_message: str,
    responses: Sequence[AgentTurnSummary],
    ledger: Sequence[WhiteboardActionRecord],
    board: Whiteboard,
    turn_number: int,
    lesson: LessonCall | None = None,
    choices: Sequence[str] = (),
) -> list[BaseMessage]:
    """The director's prompt; ``choices``: what it may answer this time (every agent, USER and END when empty)."""
    learner = classroom.learner
    # What stays the same for every decision of a session comes first, what changes last, so that servers
    # with prefix caching (vLLM, llama.cpp) reuse the start of the prompt from one call to the next.
    parts = [
        f'You direct a classroom called "{classroom.title}". After each contribution you decide who speaks '
        "next: one of the agents below, the human learner (USER), or nobody (END). You never speak yourself.",
        f"Agents:\n{_roster(classroom)}",
        f"The human learner is {learner.nickname}" + (f": {learner.bio.rstrip('. ')}" if learner.bio else "") + ". "
        'Lines labelled "Learner (human)" are theirs; lines labelled "Agent" are AI classmates and staff.',
    ]
    if classroom.session.type == "discussion":
        session = classroom.session
        trigger = f" It was raised by {session.trigger_agent}." if session.trigger_agent else ""
        parts.append(f"This is a discussion, not Q&A. Topic: {session.topic}. {session.prompt}{trigger}".strip())
    parts += [
        RULES,
        answer_format(classroom),
        f"Conversation so far (latest last):\n{conversation_summary(history, learner.nickname)}",
        f"Already spoke in this turn:\n{_spoken(responses, ledger)}",
        _board(board),
        f"This is decision {turn_number} of this turn; keep the turn short.",
    ]
    # Last of all, as it changes with every decision: what the guards would accept now.
    choose = f"\n\nChoose next_agent from: {', '.join(choices)}." if choices else ""
    if lesson is None:
        user = f"The learner's latest message: {learner_message}\n\nDecide who speaks next.{choose}"
    else:
        after = ("The learner may join in: hand over (USER) when the agents have had their say."
                 if lesson.hands_over else "When this part is done, answer END: the lesson goes on by itself.")
        user = f"The lesson now: {lesson.request}\n{after}\n\nDecide who speaks next.{choose}"
    return [SystemMessage("\n\n".join(parts)), HumanMessage(user)]


def reask_message(reason: str) -> HumanMessage:
    return HumanMessage(f"That choice was rejected: {reason}. Answer again with one JSON object.")
