"""An agent's prompt: the class's shared part (the opening and the conversation, see opening.py), then the agent's
own (ARCHITECTURE.md, *One learner turn*); later in a turn, the call before it (a decision's, an answer's) instead of
the shared part."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from maic_tui.classroom.models import Agent, Classroom, Scene
from maic_tui.events import AgentTurnSummary
from maic_tui.i18n import named_in_english
from maic_tui.orchestration.graph.conversation import HistoryEntry, WrittenBy
from maic_tui.orchestration.prompts.shared_part import shared_part
from maic_tui.whiteboard import Whiteboard


def _peers(agent: Agent, responses: Sequence[AgentTurnSummary]) -> str:
    others = list(dict.fromkeys(r.agent_name for r in responses if r.agent_id != agent.id))
    if not others:
        return ""
    return f"Already spoke this turn: {', '.join(others)}. Add a new angle; do not greet again or repeat them."


def agent_messages(
    agent: Agent,
    classroom: Classroom,
    history: Sequence[HistoryEntry],
    board: Whiteboard,
    scene: Scene | None,
    actions: Sequence[str],
    responses: Sequence[AgentTurnSummary],
    instruction: str,
    widget: str = "",
    goes_on_from: WrittenBy | None = None,
) -> list[BaseMessage]:
    """The class's shared part as the system message (word for word the director's and every agent's), the agent's
    own part as the request; ``widget``: the scene's live state in words (``shared_part.scene_live``).

    ``goes_on_from``: the turn's last model call, when the server wrote its output whole: the director's that sent
    this agent, or the last answer's when no model decided. The prompt then goes on from it (its messages, its output
    as written, the agent's request), as the director's goes on from an answer's call: a server that keeps its last
    prompt cached has just read that call and written its output, so it reads only the agent's request, not the last
    answer again in the conversation. That call holds all the shared part would (the class, the conversation, the
    answers of this turn where they were written)."""
    own = HumanMessage(agent_part(agent, classroom, board, actions, responses, instruction, widget))
    if goes_on_from is not None:
        return [*goes_on_from.messages, AIMessage(goes_on_from.output), own]
    return [SystemMessage(shared_part(classroom, history, scene)), own]


def agent_part(
    agent: Agent,
    classroom: Classroom,
    board: Whiteboard,
    actions: Sequence[str],
    responses: Sequence[AgentTurnSummary],
    instruction: str,
    widget: str = "",
) -> str:
    """Only what makes this call the agent's own: who it is, what it may not do here, the board as it is now, who
    spoke before it and what the director asks. The rest is in the shared part (roles.py, opening.py)."""
    parts = [f"You are {agent.name} ({agent.id}), the {agent.role}."]
    barred = [name for name in agent.actions if name not in actions]
    if barred:
        parts.append(f"Not here: {', '.join(barred)}." if actions else "No actions here: text items only.")
    if classroom.language != "en":
        parts.append(f"Important: speak {named_in_english(classroom.language)}.")
    if actions:
        board_text = f"Whiteboard ({'open' if board.is_open else 'closed, the slide is shown'}): {board.summary()}"
        conflicts = board.conflict_report()
        parts.append(f"{board_text}\n{conflicts}" if conflicts else board_text)
    if widget:
        parts.append(widget)
    peers = _peers(agent, responses)
    if peers:
        parts.append(peers)
    if classroom.session.type == "discussion":
        parts.append("Join the discussion; do not re-introduce it." if responses else
                     "Open the discussion: introduce it and invite thoughts.")
    if instruction:
        parts.append(f"The director asks you to: {instruction}")
    parts.append(f"Now answer as {agent.name}: one JSON array.")
    return "\n".join(parts)
