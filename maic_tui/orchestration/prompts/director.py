"""The director's prompt: who is in the class, what happened this turn, and the routing rules in our words
The answer is one JSON object; see ``decision.py``."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from maic_tui.actions import action_summary
from maic_tui.classroom.models import Classroom
from maic_tui.events import AgentTurnSummary, WhiteboardActionRecord
from maic_tui.llm.context import LessonCall
from maic_tui.orchestration.history import HistoryEntry, conversation_summary
from maic_tui.orchestration.prompts.opening import class_opening
from maic_tui.whiteboard import Whiteboard

DIRECTS = "You direct this class"  # what tells a director's prompt from an agent's (fake servers in tests)
CROWDED = 5  # more elements than this and the director should not add more board work

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
    text = f"Board: {state}, {count} element{'s' if count != 1 else ''}."
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
    # with prefix caching (vLLM, llama.cpp) reuse the start of the prompt from one call to the next; the opening is
    # the agents' too, so it is reused after an agent spoke as well.
    # How the class is directed is in the opening every prompt of the class shares (opening.py), last.
    parts = [
        class_opening(classroom),
        f"{DIRECTS}: you are the director; decide by the director's rules above who speaks next.",
        f"Conversation so far:\n{conversation_summary(history, learner.nickname)}",
        f"Spoke in this turn:\n{_spoken(responses, ledger)}",
        _board(board),
        f"Decision {turn_number} of this turn; keep the turn short.",
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
