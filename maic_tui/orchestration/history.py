"""The conversation as the engine sees it, and its two renderings: chat messages for an agent (reference
C.10) and the short labelled summary for the director (C.11, with the learner told apart from agents)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

AGENT_HISTORY_LIMIT = 30  # recent messages an agent sees
# The director's summary: shorter than an agent's history, as every director call pays for its whole prompt
# on a server that keeps one prompt cached (the agent spoke in between)
SUMMARY_MESSAGES = 6
SUMMARY_CHARS = 120
LESSON_LABEL = "Lesson plan"
INTERRUPTED_NOTE = " (interrupted by the learner; do not continue it, start a new array)"


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    role: Literal["learner", "agent", "lesson"]  # "lesson": what the lesson asked the class to do
    text: str
    agent_id: str | None = None
    name: str = ""
    actions: tuple[tuple[str, dict[str, Any]], ...] = ()
    interrupted: bool = False

    @property
    def is_empty(self) -> bool:
        return not self.text.strip(" .…\n\t") and not self.actions


def learner_label(nickname: str) -> str:
    return f"{nickname} (learner)"


def _items_json(entry: HistoryEntry) -> str:
    items: list[dict[str, Any]] = [{"type": "text", "content": entry.text}] if entry.text else []
    items += [{"type": "action", "name": name, "params": params} for name, params in entry.actions]
    return json.dumps(items, ensure_ascii=False)


def agent_messages(history: Sequence[HistoryEntry], current_agent_id: str, learner_nickname: str,
                   limit: int = AGENT_HISTORY_LIMIT) -> list[BaseMessage]:
    """The agent's own turns stay assistant messages in its output format; everybody else speaks as the
    user role with a ``[Name]:`` prefix, the learner marked as the human."""
    messages: list[BaseMessage] = []
    for entry in [e for e in history if not e.is_empty][-limit:]:
        note = INTERRUPTED_NOTE if entry.interrupted else ""
        if entry.role == "learner":
            messages.append(HumanMessage(f"[{learner_label(learner_nickname)}]: {entry.text}"))
        elif entry.role == "lesson":
            messages.append(HumanMessage(f"[{LESSON_LABEL}]: {entry.text}"))
        elif entry.agent_id == current_agent_id:
            messages.append(AIMessage(_items_json(entry) + note))
        else:
            messages.append(HumanMessage(f"[{entry.name}]: {_items_json(entry)}{note}"))
    if not any(isinstance(m, HumanMessage) for m in messages):
        messages.append(HumanMessage("Please begin."))
    elif isinstance(messages[-1], AIMessage):
        messages.append(HumanMessage("It's your turn to speak again; add something new."))
    return messages


def conversation_summary(history: Sequence[HistoryEntry], learner_nickname: str,
                         max_messages: int = SUMMARY_MESSAGES, max_chars: int = SUMMARY_CHARS) -> str:
    shown = [e for e in history if not e.is_empty][-max_messages:]
    if not shown:
        return "No conversation yet."
    lines = []
    for entry in shown:
        label = {"learner": f"Learner (human) {learner_nickname}", "lesson": LESSON_LABEL}.get(entry.role,
                                                                                           f"Agent {entry.name}")
        text = entry.text if len(entry.text) <= max_chars else entry.text[:max_chars] + "..."
        if entry.actions and not entry.text:
            text = f"({len(entry.actions)} whiteboard actions)"
        lines.append(f"[{label}] {' '.join(text.split())}" + (" [interrupted]" if entry.interrupted else ""))
    return "\n".join(lines)

