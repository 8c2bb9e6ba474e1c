"""The turn's event stream with configured secrets replaced, pieces of speech included (see ``redaction``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from pydantic import BaseModel

from maic_tui.events import AgentEndEvent, Event, TextDeltaData, TextDeltaEvent
from maic_tui.redaction import PieceRedactor, redact_tree

M = TypeVar("M", bound=BaseModel)


def redact_model(model: M, secrets: tuple[str, ...]) -> M:
    """The same model with every string redacted; the model itself when nothing needed it."""
    if not secrets:
        return model
    data = model.model_dump()
    cleaned = redact_tree(data, secrets)
    return model if cleaned == data else type(model).model_validate(cleaned)


class EventRedactor:
    def __init__(self, secrets: Iterable[str]) -> None:
        self._pieces = PieceRedactor(secrets)
        self.secrets = self._pieces.secrets

    def __call__(self, event: Event) -> list[Event]:
        if not self.secrets:
            return [event]
        if isinstance(event, TextDeltaEvent):
            text = self._pieces.feed(event.data.message_id, event.data.content)
            return [_delta(event.data.message_id, text)] if text else []
        if isinstance(event, AgentEndEvent):
            rest = self._pieces.end(event.data.message_id)
            return [*([_delta(event.data.message_id, rest)] if rest else []), event]
        return [redact_model(event, self.secrets)]


def _delta(message_id: str, content: str) -> TextDeltaEvent:
    return TextDeltaEvent(data=TextDeltaData(content=content, message_id=message_id))
