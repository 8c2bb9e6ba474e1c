"""The conversation as the engine sees it, and its one rendering: the transcript every prompt of the class shows
right after the class's opening (ARCHITECTURE.md, *Deciding ahead*), the learner told apart from the agents.

It is the same text for the director and for each agent, and it only grows between calls, so a server that keeps
its last prompt cached reads anew only what was said since (one message and the caller's own part) however long
the class goes on. Its window therefore moves in steps, not one entry at a time: a window that slid by one entry
would change the whole transcript at every call."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.messages import BaseMessage

from maic_tui.events import AgentTurnSummary

TRANSCRIPT_WINDOW = 14  # at most this many recent entries are shown...
TRANSCRIPT_STEP = 8  # ...and the oldest go this many at a time (so at least WINDOW - STEP + 1 are shown)
ENTRY_CHARS = 400  # of one entry's speech (a pasted page from the learner stays a line)
LESSON_LABEL = "Lesson plan"
INTERRUPTED_NOTE = " (interrupted by the learner; do not continue it, start a new array)"
NOTHING_YET = "Nothing has been said yet."


@dataclass(frozen=True, slots=True)
class WrittenBy:
    """A model call as the server read it, its messages and its output: an agent's answer, or the director's decision.
    The turn's next call goes on from it (``continued``, ``prompts/agent_request.py``), so a server that keeps its last
    prompt cached reads only the caller's own request, not the output again."""

    messages: tuple[BaseMessage, ...]
    output: str


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    role: Literal["learner", "agent", "lesson"]  # "lesson": what the lesson asked the class to do
    text: str
    agent_id: str | None = None
    name: str = ""
    actions: tuple[tuple[str, dict[str, Any]], ...] = ()
    interrupted: bool = False
    # not part of what was said: two entries of the same words are the same entry (a decision made ahead holds)
    written_by: WrittenBy | None = field(default=None, compare=False, repr=False)

    @property
    def is_empty(self) -> bool:
        return not self.text.strip(" .…\n\t") and not self.actions


def continued(history: Sequence[HistoryEntry], responses: Sequence[AgentTurnSummary]) -> WrittenBy | None:
    """The call that wrote the answer the turn has just heard, when the history ends with it whole: the next call of
    the turn goes on from it (the director's, or the agent's a rule sent)."""
    last = history[-1] if history else None
    if last is None or last.role != "agent" or not responses or last.agent_id != responses[-1].agent_id:
        return None
    return last.written_by


def learner_label(nickname: str) -> str:
    return f"{nickname} (learner)"


def _clipped(text: str) -> str:
    return text if len(text) <= ENTRY_CHARS else text[:ENTRY_CHARS] + "..."


def one_line_entry(text: str) -> str:
    """A learner's message or a lesson's request as the transcript shows it: one line, its first ENTRY_CHARS."""
    return " ".join(_clipped(text).split())


def compact_json(value: Any) -> str:
    """JSON as answers appear in the prompt (the worked examples, the transcript, the director's examples): no spaces
    after ``,`` and ``:``, so a model that copies them writes fewer tokens before its first word."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _items_json(entry: HistoryEntry) -> str:
    text = _clipped(entry.text)
    items: list[dict[str, Any]] = [{"type": "text", "content": text}] if text else []
    items += [{"type": "action", "name": name, "params": params} for name, params in entry.actions]
    return compact_json(items)


def shown_entries(history: Sequence[HistoryEntry]) -> list[HistoryEntry]:
    """The window of the transcript: entries that carry something, the oldest dropped ``TRANSCRIPT_STEP`` at a time."""
    kept = [e for e in history if not e.is_empty]
    over = len(kept) - TRANSCRIPT_WINDOW
    start = -(-over // TRANSCRIPT_STEP) * TRANSCRIPT_STEP if over > 0 else 0
    return kept[start:]


def transcript(history: Sequence[HistoryEntry], learner_nickname: str) -> str:
    """One line an entry: the learner's words as typed, a lesson's request, an agent's answer in the class's answer
    format (so it also shows every agent how an answer looks)."""
    lines = []
    for entry in shown_entries(history):
        note = INTERRUPTED_NOTE if entry.interrupted else ""
        if entry.role == "learner":
            lines.append(f"[{learner_label(learner_nickname)}]: {one_line_entry(entry.text)}")
        elif entry.role == "lesson":
            lines.append(f"[{LESSON_LABEL}]: {one_line_entry(entry.text)}")
        else:
            lines.append(f"[{entry.name}]: {_items_json(entry)}{note}")
    return "\n".join(lines) or NOTHING_YET
