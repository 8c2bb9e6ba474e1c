"""The event protocol shared by every layer (ARCHITECTURE.md, *The event protocol*).

Wire form: one JSON object per line, ``{"type": ..., "data": {...}}`` with camelCase field names, the same
shape as OpenMAIC's ``StatelessEvent`` so the stream stays compatible with its clients. Python code uses
snake_case attributes.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic.alias_generators import to_camel

from maic_tui.bad_input import BadInput, validation_line
from maic_tui.i18n import _
from maic_tui.text_safety import clean_tree, json_safe


class WireModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True,
                              defer_build=True)  # schemas build on first use, not at start-up


# --- payloads --------------------------------------------------------------------------------------


class ThinkingData(WireModel):
    stage: Literal["director", "agent_loading"]
    agent_id: str | None = None


class AgentStartData(WireModel):
    message_id: str
    agent_id: str
    agent_name: str
    agent_avatar: str
    agent_color: str


class TextDeltaData(WireModel):
    content: str
    message_id: str


class ActionData(WireModel):
    action_id: str
    action_name: str
    params: dict[str, Any]
    agent_id: str
    message_id: str


class ErrorData(WireModel):
    message: str


class AgentEndData(WireModel):
    message_id: str
    agent_id: str


class CueUserData(WireModel):
    from_agent_id: str | None = None
    prompt: str | None = None
    options: list[str] | None = Field(None, min_length=2, max_length=4)


class WhiteboardActionRecord(WireModel):
    action_name: str
    agent_id: str
    agent_name: str
    params: dict[str, Any]


class AgentTurnSummary(WireModel):
    agent_id: str
    agent_name: str
    content_preview: str
    action_count: int
    whiteboard_actions: list[WhiteboardActionRecord] = Field(default_factory=list)
    action_warnings: list[str] = Field(default_factory=list)


class DirectorState(WireModel):
    turn_count: int = 0
    agent_responses: list[AgentTurnSummary] = Field(default_factory=list)
    whiteboard_ledger: list[WhiteboardActionRecord] = Field(default_factory=list)


class GuardVerdict(WireModel):
    rule: str
    passed: bool
    reason: str | None = None


class TokenUsage(WireModel):
    """What the server reported a call cost, in tokens (summed over a step's calls)."""

    prompt: int = 0
    completion: int = 0
    cached: int = 0  # prompt tokens the server read from its cache


class PromptMessage(WireModel):
    """One message the director model was sent."""

    role: Literal["system", "user", "assistant"]
    content: str


class DecisionAttempt(WireModel):
    """One ask of the director model within a step: its raw answer, what it was read as, and the guards' verdicts."""

    raw: str = ""
    parsed: dict[str, Any] | None = None
    guards: list[GuardVerdict] = Field(default_factory=list)
    usage: TokenUsage | None = None


TracePath = Literal["limit", "single_agent", "trigger", "rule", "model", "fallback", "manual"]


class TraceRecord(WireModel):
    """One director step (its trace record: ARCHITECTURE.md, *The event protocol*)."""

    step: int
    path: TracePath
    candidates: list[str] = Field(default_factory=list)
    raw: str | None = None
    parsed: dict[str, Any] | None = None
    guards: list[GuardVerdict] = Field(default_factory=list)
    final: str
    reason: str | None = None
    latency_ms: float = 0.0
    # Made while the last speaker's message was still being shown (ARCHITECTURE.md, *Deciding ahead*), and how
    # long the class then stood silent waiting for this step: the learner's wait, not the model's latency.
    made_ahead: bool = False
    waited_ms: float | None = None
    usage: TokenUsage | None = None  # when the server reports it (a call cut short at its answer may not)
    prompt: list[PromptMessage] = Field(default_factory=list)  # what the model was sent (before any re-ask)
    attempts: list[DecisionAttempt] = Field(default_factory=list)  # each ask, in order (raw/guards: all of them)
    proposal: str | None = None  # a manual step's: what the director proposed when the tester asked it
    # Actions of the dispatched agent that were rejected (not emitted), with the reason.
    action_warnings: list[str] = Field(default_factory=list)


EndReason = Literal[
    "cue_user",
    "director_end",
    "agent_turn_limit",
    "director_budget",
    "consecutive_empty_turns",
    "interrupted",
    "error",
]


class DoneData(WireModel):
    total_actions: int
    total_agents: int
    agent_had_content: bool
    cue_user_received: bool
    end_reason: EndReason
    director_state: DirectorState = Field(default_factory=DirectorState)
    director_trace: list[TraceRecord] = Field(default_factory=list)
    structured_output: str | None = None  # how a server's output was constrained (json_schema, gbnf, json_object, off)


# --- events ----------------------------------------------------------------------------------------


class ThinkingEvent(WireModel):
    type: Literal["thinking"] = "thinking"
    data: ThinkingData


class AgentStartEvent(WireModel):
    type: Literal["agent_start"] = "agent_start"
    data: AgentStartData


class TextDeltaEvent(WireModel):
    type: Literal["text_delta"] = "text_delta"
    data: TextDeltaData


class ActionEvent(WireModel):
    type: Literal["action"] = "action"
    data: ActionData


class ErrorEvent(WireModel):
    type: Literal["error"] = "error"
    data: ErrorData


class AgentEndEvent(WireModel):
    type: Literal["agent_end"] = "agent_end"
    data: AgentEndData


class CueUserEvent(WireModel):
    type: Literal["cue_user"] = "cue_user"
    data: CueUserData


class DoneEvent(WireModel):
    type: Literal["done"] = "done"
    data: DoneData


Event = Annotated[
    ThinkingEvent
    | AgentStartEvent
    | TextDeltaEvent
    | ActionEvent
    | ErrorEvent
    | AgentEndEvent
    | CueUserEvent
    | DoneEvent,
    Field(discriminator="type"),
]
EVENT_TYPES: tuple[str, ...] = (
    "thinking",
    "agent_start",
    "text_delta",
    "action",
    "error",
    "agent_end",
    "cue_user",
    "done",
)



@cache
def _event_adapter() -> TypeAdapter[Event]:
    """Built on first use: building every event schema at import would slow every start-up."""
    return TypeAdapter(Event)


class EventDecodeError(BadInput):
    """A line that is not a valid event; the message says what is wrong in one line."""


def to_json(event: Event) -> str:
    """One line of wire JSON (no trailing newline), safe to print on a terminal as it is."""
    return json_safe(event.model_dump_json(by_alias=True, exclude_none=True))


def json_error(exc: ValueError | RecursionError) -> str:
    """Why a text is not JSON, in words (the decoder's own message, without its class name)."""
    if isinstance(exc, RecursionError):
        return _("nested too deeply")
    if isinstance(exc, json.JSONDecodeError):  # the decoder's words stay English
        return _("{error} at line {line} column {column}").format(error=exc.msg, line=exc.lineno, column=exc.colno)
    return _("not text") if isinstance(exc, UnicodeDecodeError) else str(exc)


def from_json(line: str | bytes) -> Event:
    """Parse one wire line back into an event, or raise EventDecodeError."""
    try:
        raw = json.loads(line)
    except (ValueError, TypeError, RecursionError) as exc:
        raise EventDecodeError(_("not JSON: {error}").format(
            error=json_error(exc) if not isinstance(exc, TypeError) else exc)) from None
    return from_dict(raw)


def from_dict(raw: object) -> Event:
    """An event from already-decoded wire JSON (untrusted: its text is made inert), or raise EventDecodeError."""
    if not isinstance(raw, dict):
        raise EventDecodeError(_("an event must be a JSON object with 'type' and 'data'"))
    kind = raw.get("type")
    if kind not in EVENT_TYPES:
        raise EventDecodeError(_("unknown event type {kind} (expected one of {kinds})").format(
            kind=repr(kind), kinds=", ".join(EVENT_TYPES)))
    try:
        return _event_adapter().validate_python(clean_tree(raw))
    except ValidationError as exc:
        raise EventDecodeError(_("bad {kind} event: {problem}").format(kind=kind, problem=validation_line(exc, skip=1))
                               ) from None
