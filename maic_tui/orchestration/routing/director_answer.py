"""Reading the director model's answer: one JSON object naming who speaks next, parsed tolerantly."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from maic_tui.classroom.models import Agent
from maic_tui.text_safety import one_line

USER, END = "USER", "END"
MAX_PROMPT_CHARS = 240
MAX_OPTION_CHARS = 60
_FENCE = re.compile(r"```[a-zA-Z]*")
_KEYS = ("next_agent", "nextAgent", "next", "agent")
# An answer that opens by ending the turn is whole once that is read: what follows (an instruction for nobody)
# changes nothing, so reading, and the learner's wait, stops there.
_KEY = "|".join(_KEYS)
_ENDS = re.compile(rf'^\s*\{{\s*"(?:{_KEY})"\s*:\s*"end"\s*[,}}]', re.IGNORECASE)
_PLACEHOLDER = re.compile(r"^<[^<>]*>$")


class DecisionError(ValueError):
    """The answer names nobody; the message says why, for the trace and the re-ask."""


@dataclass(frozen=True, slots=True)
class Decision:
    next_agent: str  # an agent id, USER or END (or an unknown name, for the guards to reject)
    instruction: str = ""
    prompt: str | None = None
    options: tuple[str, ...] = field(default_factory=tuple)

    def as_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {"next_agent": self.next_agent}
        if self.instruction:
            found["instruction"] = self.instruction
        if self.prompt:
            found["prompt"] = self.prompt
        if self.options:
            found["options"] = list(self.options)
        return found


class ObjectScanner:
    """Tells, as chunks of an answer arrive, when a top-level JSON object has just closed (strings and
    escapes tracked, so braces inside strings do not count)."""

    def __init__(self) -> None:
        self._depth = 0
        self._in_string = False
        self._escaped = False

    def feed(self, text: str) -> bool:
        closed = False
        for char in text:
            if self._in_string:
                if self._escaped:
                    self._escaped = False
                elif char == "\\":
                    self._escaped = True
                elif char == '"':
                    self._in_string = False
            elif char == '"' and self._depth:
                self._in_string = True
            elif char == "{":
                self._depth += 1
            elif char == "}" and self._depth:
                self._depth -= 1
                closed = closed or self._depth == 0
        return closed


def resolve_agent(name: str, agents: Sequence[Agent]) -> str | None:
    """An agent id from its id or its name (exact first, then ignoring case and a leading '@')."""
    for agent in agents:
        if name in (agent.id, agent.name):
            return agent.id
    folded = name.strip().lstrip("@").casefold()
    for agent in agents:
        if folded in (agent.id.casefold(), agent.name.casefold()):
            return agent.id
    return None


def _objects(text: str) -> list[dict[str, Any]]:
    decoder, found = json.JSONDecoder(), []
    for match in re.finditer(r"\{", text):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except ValueError:
            continue
        if isinstance(value, dict):
            found.append(value)
    return found


def _target(value: Any, agents: Sequence[Agent]) -> str:
    name = str(value).strip()
    if name.upper() in (USER, END):
        return name.upper()
    return resolve_agent(name, agents) or name


def _options(value: Any) -> tuple[str, ...]:
    if not isinstance(value, list):
        return ()
    kept: list[str] = []
    for option in value:
        text = one_line(str(option))
        if text and len(text) <= MAX_OPTION_CHARS and text not in kept and not _PLACEHOLDER.match(text):
            kept.append(text)
    return tuple(kept[:4]) if len(kept) >= 2 else ()


def ends_the_turn(text: str) -> bool:
    """The answer so far opens with a decision to end the turn (see ``_ENDS``)."""
    return bool(_ENDS.match(_FENCE.sub("", text)))


def parse_decision(raw: str, agents: Sequence[Agent]) -> Decision:
    text = _FENCE.sub("", raw)
    for obj in _objects(text):
        key = next((k for k in _KEYS if k in obj), None)
        if key is None or not isinstance(obj[key], str) or not obj[key].strip():
            continue
        # The prompt and options are shown to the learner: model text, made inert like speech.
        prompt = one_line(str(obj.get("prompt") or ""))[:MAX_PROMPT_CHARS] or None
        if prompt is not None and _PLACEHOLDER.match(prompt):  # copied from a format description: not a question
            prompt = None
        return Decision(
            next_agent=_target(obj[key], agents),
            instruction=one_line(str(obj.get("instruction") or "")),
            prompt=prompt,
            options=_options(obj.get("options")),
        )
    if _ENDS.match(text):
        return Decision(next_agent=END)
    bare = text.strip().strip("\"'`.!").strip()
    if bare and (bare.upper() in (USER, END) or resolve_agent(bare, agents)):
        return Decision(next_agent=_target(bare, agents))
    if not raw.strip():
        raise DecisionError("the director answered nothing")
    raise DecisionError('the answer has no JSON object with "next_agent"')
