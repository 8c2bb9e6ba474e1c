"""``script:<path>``: replay scripted responses (format: ARCHITECTURE.md, *Models*), for tests and for reproducing
routing bugs."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

from langchain_core.messages import BaseMessage
from pydantic import BeforeValidator, Field, ValidationError, model_validator

from maic_tui.bad_input import BadInput, Unreadable, describe_path, read_text_file, validation_line
from maic_tui.events import json_error
from maic_tui.i18n import _
from maic_tui.llm.context import DIRECTOR, GRADER, JUDGE, CallContext
from maic_tui.llm.errors import ModelError, ScriptExhausted
from maic_tui.llm.streaming import OfflineChatModel, Piece
from maic_tui.strict import Strict


class ScriptError(BadInput):
    """A script file that cannot be used; the message is one line naming the file."""


class ScriptEntry(Strict):

    text: str | None = None
    chunks: list[str] | None = None
    error: str | None = None
    delay_ms: float = Field(0, ge=0)

    @model_validator(mode="after")
    def _something(self) -> ScriptEntry:
        if self.text is not None and self.chunks is not None:
            raise ValueError("an entry has 'text' or 'chunks', not both")
        if self.text is None and self.chunks is None and self.error is None:
            raise ValueError("an entry needs 'text', 'chunks' or 'error'")
        return self


def _plain_text(value: Any) -> Any:
    return {"text": value} if isinstance(value, str) else value


Entry = Annotated[ScriptEntry, BeforeValidator(_plain_text)]  # a bare string is streamed text


class ScriptFile(Strict):

    chunk_size: int = Field(4, ge=1)
    director: list[Entry] = Field(default_factory=list)
    agents: dict[str, list[Entry]] = Field(default_factory=dict)
    grader: list[Entry] = Field(default_factory=list)  # answers to short quiz answers, ``{"score", "comment"}``
    judge: list[Entry] = Field(default_factory=list)  # a project's verdicts, ``{"issue", "verdict", "missing"}``
    stages: dict[str, list[Entry]] = Field(default_factory=dict)  # maic-tui new: answers per stage ("outline", ...)


def load_script(path: str | Path) -> ScriptFile:
    name = describe_path(path)
    try:
        raw: Any = json.loads(read_text_file(path, "script file"))
    except Unreadable as exc:
        raise ScriptError(_("{name}: cannot read script ({reason})").format(name=name, reason=exc.reason)) from None
    except (ValueError, RecursionError) as exc:
        raise ScriptError(_("{name}: not valid JSON ({reason})").format(name=name, reason=json_error(exc))) from None
    try:
        return ScriptFile.model_validate(raw)
    except ValidationError as exc:
        raise ScriptError(f"{name}: {validation_line(exc)}") from None


class ScriptBook:
    """The script plus each caller's position in its list, shared by all the callers' models."""

    def __init__(self, script: ScriptFile) -> None:
        self.script = script
        self._next: dict[str, int] = {}

    def take(self, caller: str) -> ScriptEntry:
        if caller in (DIRECTOR, GRADER, JUDGE):
            entries = {DIRECTOR: self.script.director, GRADER: self.script.grader, JUDGE: self.script.judge}[caller]
        elif caller in self.script.stages:
            entries = self.script.stages[caller]
        else:
            entries = self.script.agents.get(caller, [])
        index = self._next.get(caller, 0)
        if index >= len(entries):
            label = {DIRECTOR: "the director", GRADER: "the grader", JUDGE: "the judge"}.get(caller,
                                                                                      f"agent '{caller}'")
            raise ScriptExhausted(f"the script has no more responses for {label} ({len(entries)} used)")
        self._next[caller] = index + 1
        return entries[index]


class ScriptChatModel(OfflineChatModel):
    book: ScriptBook
    caller: str

    @property
    def _llm_type(self) -> str:
        return "maic-script"

    def pieces(self, messages: list[BaseMessage], context: CallContext | None) -> Iterator[Piece]:
        entry = self.book.take(self.caller)
        delay = entry.delay_ms / 1000
        if entry.chunks is not None:
            chunks = entry.chunks
        else:
            text, size = entry.text or "", self.book.script.chunk_size
            chunks = [text[i : i + size] for i in range(0, len(text), size)]
        for chunk in chunks:
            yield Piece(chunk, delay)
        if entry.error is not None:
            raise ModelError(entry.error)
