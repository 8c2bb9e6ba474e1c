"""What the stream parser emits, and how a completed JSON object becomes one of them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True, slots=True)
class TextDelta:
    text: str


@dataclass(frozen=True, slots=True)
class ParsedAction:
    name: str
    params: dict[str, Any]
    action_id: str | None = None


Item = TextDelta | ParsedAction


def item_kind(obj: dict[str, Any]) -> Literal["text", "action"] | None:
    """``type`` decides; without one, the keys do when they are unambiguous. Other types are dropped."""
    kind = obj.get("type")
    if kind is None:
        if "name" in obj or "tool_name" in obj:
            return "action"
        if "content" in obj:
            return "text"
    return kind if kind in ("text", "action") else None


def action_from(obj: dict[str, Any]) -> ParsedAction | None:
    """An action item, accepting the legacy ``tool_name``/``parameters`` keys; None without a name."""
    name = obj.get("name") or obj.get("tool_name")
    if not isinstance(name, str) or not name.strip():
        return None
    params = obj.get("params", obj.get("parameters"))
    action_id = obj.get("action_id")
    return ParsedAction(
        name=name.strip(),
        params=params if isinstance(params, dict) else {},
        action_id=action_id if isinstance(action_id, str) and action_id else None,
    )
