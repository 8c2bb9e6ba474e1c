"""The director's prompt: the class's shared part (who is in it, the routing rules in our words, the conversation;
see opening.py), then what is its own: who spoke this turn, the board, what it may answer. The answer is one JSON
object; see ``decision.py``."""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from maic_tui.classroom.models import Classroom, Scene
from maic_tui.events import AgentTurnSummary
from maic_tui.llm.context import LessonCall
from maic_tui.orchestration.graph.conversation import HistoryEntry, continued
from maic_tui.orchestration.prompts.shared_part import shared_part
from maic_tui.whiteboard import Whiteboard

DIRECTS = "You direct this class"  # what tells a director's prompt from an agent's (fake servers in tests)
REJECTED = "That choice was rejected"  # how a re-ask starts
CROWDED = 5  # more elements than this and the director should not add more board work

def _spoken(responses: Sequence[AgentTurnSummary]) -> str:
    # ids alone: the agents' list above names them, and their answers, actions included, are the conversation's
    # last lines (or the call the prompt goes on from), so saying them again here is read anew for nothing
    return ", then ".join(response.agent_id for response in responses) if responses else "nobody yet"


def _board(board: Whiteboard) -> str:
    # only what a choice of speaker depends on: how the board stands and how full it is (the agents' own part says
    # what the board allows); nothing for a closed, empty board, as every class starts
    count = len(board.elements)
    if not count and not board.is_open:
        return ""
    text = f"Board: {'open' if board.is_open else 'closed'}, {count} element{'s' if count != 1 else ''}."
    if count > CROWDED:
        text += " It is crowded: avoid adding more unless someone tidies it."
    return text


def director_messages(
    classroom: Classroom,
    history: Sequence[HistoryEntry],
    responses: Sequence[AgentTurnSummary],
    board: Whiteboard,
    turn_number: int,
    lesson: LessonCall | None = None,
    choices: Sequence[str] = (),
    scene: Scene | None = None,
    muted: Sequence[str] = (),
    widget: str = "",
) -> list[BaseMessage]:
    """The director's prompt; ``choices``: what it may answer this time (every agent, USER and END when empty);
    ``muted``: the agents the learner muted, who may not be picked; ``widget``: the scene's live state in words.

    Only its request is the director's own: the system message is word for word what every agent of the class is
    sent (the whole class, muted agents too), so a server's prompt cache reuses it from an agent's call to the
    director's and on to the next agent's. After an agent's answer the prompt goes on from the call that wrote it
    (``continued``): the server has just read that call and written the answer, so it reads only the request."""
    call = continued(history, responses)
    # Every word here is read anew at every decision, while the class waits: what the conversation above already
    # says (the learner's message is its last line, or the answer's call) is not said again.
    parts = [f"{DIRECTS}: decision {turn_number} of this turn.", f"Spoke this turn: {_spoken(responses)}."]
    parts += [line for line in (_board(board), widget) if line]
    if lesson is not None:
        after = ("The learner may join in: hand over (USER) when the agents have had their say."
                 if lesson.hands_over else "When this part is done, answer END: the lesson goes on by itself.")
        parts.append(f"The lesson now: {lesson.request}\n{after}")
    if muted:
        parts.append(f"Muted by the learner, never to be picked: {', '.join(muted)}.")
    parts.append(f"Who speaks next? Choose next_agent from: {', '.join(choices)}." if choices else "Who speaks next?")
    request = HumanMessage("\n".join(parts))
    if call is not None:
        return [*call.messages, AIMessage(call.output), request]
    return [SystemMessage(shared_part(classroom, history, scene)), request]


def reask_message(reason: str) -> HumanMessage:
    return HumanMessage(f"{REJECTED}: {reason}. Answer again with one JSON object.")
