"""Readable terminal transcript of an event stream (the headless demo's default output)."""

from __future__ import annotations

from typing import TextIO

from maic_tui.actions import action_chip
from maic_tui.events import (
    ActionEvent,
    AgentEndEvent,
    AgentStartEvent,
    CueUserEvent,
    DoneEvent,
    ErrorEvent,
    Event,
    TextDeltaEvent,
)
from maic_tui.i18n import _
from maic_tui.text_safety import terminal_safe


class TranscriptPrinter:
    def __init__(self, out: TextIO) -> None:
        self.out = out
        self._mid_line = False

    def learner(self, nickname: str, message: str) -> None:
        self._end_line()
        self.out.write(f"\n🙋 {terminal_safe(nickname)}: {terminal_safe(message)}\n")

    def event(self, event: Event) -> None:
        if isinstance(event, AgentStartEvent):
            self._end_line()
            data = event.data
            self._write(f"\n{terminal_safe(data.agent_avatar)} {terminal_safe(data.agent_name)}: ")
        elif isinstance(event, TextDeltaEvent):
            text = terminal_safe(event.data.content)
            if not self._mid_line:  # speech resuming after an action chip
                text = "    " + text.lstrip()
            self._write(text)
        elif isinstance(event, ActionEvent):
            self._end_line()
            self._write(f"    {action_chip(event.data.action_name, event.data.params)}\n")
            self._mid_line = False
        elif isinstance(event, ErrorEvent):
            self._end_line()
            self.out.write(f"    ! {terminal_safe(event.data.message)}\n")
        elif isinstance(event, CueUserEvent):
            self._end_line()
            if event.data.prompt:
                options = "  ·  ".join(event.data.options or [])
                suffix = f"  [{terminal_safe(options)}]" if options else ""
                self.out.write(f"\n  ➜ {terminal_safe(event.data.prompt)}{suffix}\n")
        elif isinstance(event, AgentEndEvent):
            self._end_line()
        elif isinstance(event, DoneEvent) and event.data.end_reason == "interrupted":
            self._end_line()
            self.out.write("    ⏹ " + _("interrupted") + "\n")  # as the app and the Markdown export mark it
        self.out.flush()

    def board(self, summary: str, conflicts: list[str]) -> None:
        self._end_line()
        self.out.write("\n── " + _("Whiteboard") + " ──\n" + terminal_safe(summary) + "\n")
        for line in conflicts:
            self.out.write(f"  ⚠ {terminal_safe(line)}\n")

    def _write(self, text: str) -> None:
        if text:
            self.out.write(text)
            self._mid_line = not text.endswith("\n")

    def _end_line(self) -> None:
        if self._mid_line:
            self.out.write("\n")
            self._mid_line = False
