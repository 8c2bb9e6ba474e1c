"""The conversation: one widget per agent turn (streaming Markdown and action chips), learner messages and
system lines. Only the newest ``MAX_MOUNTED`` entries are mounted, so a long session stays fast; the
full transcript is one palette command away."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Markdown, Static

from maic_tui.session.classroom_view import AgentMessage, ClassroomView, Entry, LearnerMessage, Part, SystemNote
from maic_tui.tui.theming import agent_color

MAX_MOUNTED = 60
CATCH_UP_SECONDS = 1 / 30


class Speech(Markdown):
    """A run of an agent's speech, streamed in by appending only what is new, one append at a time
    (what arrives meanwhile goes into the next one)."""

    def __init__(self, part: Part) -> None:
        super().__init__()
        self.part = part
        self.shown = 0
        self._appending = False

    def on_mount(self) -> None:
        self.sync()

    @property
    def current(self) -> bool:
        """Everything of the part that is final is on screen."""
        return not self._appending and self.shown == len(self.part.text)

    def sync(self) -> None:
        if not self.is_attached or self._appending:
            return
        text = self.part.text
        if len(text) > self.shown:
            new, self.shown = text[self.shown:], len(text)
            self._appending = True
            self.run_worker(self._append(new), group="speech")

    async def _append(self, new: str) -> None:
        try:
            await self.append(new)
        finally:
            self._appending = False
        if not self.current:  # more arrived meanwhile: show it with the next frame
            self.set_timer(CATCH_UP_SECONDS, self.sync)


class Chip(Static):
    def __init__(self, part: Part) -> None:
        super().__init__(Text(part.text, no_wrap=True, overflow="ellipsis"))


class MessageView(Vertical):
    def __init__(self, entry: AgentMessage) -> None:
        super().__init__(classes="message")
        self.entry = entry
        self._parts = 0

    def compose(self) -> ComposeResult:
        yield Static(self._header(), classes="message-header")

    def on_mount(self) -> None:
        self.sync()

    def sync(self) -> None:
        entry = self.entry
        for part in entry.parts[self._parts:]:
            self.mount(Speech(part) if part.kind == "text" else Chip(part))
        self._parts = len(entry.parts)
        for speech in self.query(Speech):
            speech.sync()
        self.query_one(".message-header", Static).update(self._header())
        self.set_class(entry.interrupted, "-interrupted")
        self.set_class(entry.streaming, "-streaming")

    def repaint(self) -> None:
        self.query_one(".message-header", Static).update(self._header())

    def _header(self) -> Text:
        entry = self.entry
        color = agent_color(self.app, entry.color) if self.is_attached else entry.color
        header = Text(no_wrap=True, overflow="ellipsis")
        header.append(f"{entry.avatar} ")
        header.append(entry.name, style=f"bold {color}")
        if entry.streaming:
            header.append("  …", style="dim")
        if entry.interrupted:
            header.append("  ⏹ interrupted", style="bold italic")
        return header


class LearnerView(Static):
    def __init__(self, entry: LearnerMessage) -> None:
        line = Text()
        line.append(f"🙋 {entry.nickname}\n", style="bold")
        line.append(entry.text)
        super().__init__(line, classes="learner")


class NoteView(Static):
    def __init__(self, entry: SystemNote) -> None:
        mark = "⚠ " if entry.level == "error" else "ℹ "
        super().__init__(Text(mark + entry.text), classes=f"note -{entry.level}")


def _widget_for(entry: Entry) -> Widget:
    if isinstance(entry, AgentMessage):
        return MessageView(entry)
    if isinstance(entry, LearnerMessage):
        return LearnerView(entry)
    return NoteView(entry)


class Transcript(VerticalScroll):
    def __init__(self) -> None:
        super().__init__(id="transcript")
        self._widgets: dict[int, Widget] = {}
        self._next = 0  # the next entry index to mount
        self._earlier = Static("", id="earlier")

    def compose(self) -> ComposeResult:
        yield self._earlier

    def on_mount(self) -> None:
        self.anchor()
        self._earlier.display = False

    @property
    def mounted(self) -> int:
        return len(self._widgets)

    def sync(self, view: ClassroomView, dirty: set[int]) -> None:
        """Mount new entries, bring changed ones up to date, and unmount the oldest beyond the bound."""
        new = [_widget_for(entry) for entry in view.entries[self._next:]]
        for index in sorted(dirty):
            widget = self._widgets.get(index)
            if isinstance(widget, MessageView):
                widget.sync()
        for offset, widget in enumerate(new):
            self._widgets[self._next + offset] = widget
        self._next = len(view.entries)
        if new:
            self.mount_all(new)
        self._prune()

    def repaint(self) -> None:
        for widget in self._widgets.values():
            if isinstance(widget, MessageView):
                widget.repaint()

    def reset(self) -> None:
        for widget in self._widgets.values():
            widget.remove()
        self._widgets.clear()
        self._next = 0
        self._earlier.display = False

    def _prune(self) -> None:
        excess = len(self._widgets) - MAX_MOUNTED
        if excess <= 0:
            return
        for index in sorted(self._widgets)[:excess]:
            self._widgets.pop(index).remove()
        hidden = min(self._widgets)
        self._earlier.update(Text(f"↑ {hidden} earlier entries — ctrl+p “Full transcript” shows everything",
                                  style="dim italic"))
        self._earlier.display = True
