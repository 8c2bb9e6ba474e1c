"""The conversation: one widget per agent turn (speech as Markdown, action chips), learner messages and
system lines. Only the newest ``MAX_MOUNTED`` entries are mounted, so a long session stays fast; the
full transcript is one palette command away."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from maic_tui.i18n import _
from maic_tui.text_cells import cell_len, wrap
from maic_tui.tui.theming import agent_color

if TYPE_CHECKING:
    from maic_tui.room.view import AgentMessage, ClassroomView, Entry, LearnerMessage, SystemNote

MAX_MOUNTED = 50
PRUNE_TO = 40  # unmount in batches: one removal (and re-layout) per ten messages, not per message
_CONSOLE = Console(width=200, color_system="truecolor", force_terminal=True, legacy_windows=False)


def markdown_blocks(markdown: str) -> list[str]:
    """The text split at blank lines outside code fences: blocks render on their own, so a streaming
    message re-renders only its last block."""
    blocks: list[str] = []
    current: list[str] = []
    fenced = False
    for line in markdown.split("\n"):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        if not line.strip() and not fenced:
            if current:
                blocks.append("\n".join(current))
                current = []
            continue
        current.append(line)
    if current:
        blocks.append("\n".join(current))
    return blocks


# A block that Markdown would show as it is: no emphasis, code, link, HTML, heading, quote, table or list.
_MARKDOWN = re.compile(r"[*_`\[\]<>|#&\\~]|^\s*(?:[-+=]|\d+[.)]|\s{4})", re.MULTILINE)


@lru_cache(maxsize=256)
def _block_text(block: str, width: int, dark: bool) -> Text:
    if not _MARKDOWN.search(block) and any(cell_len(char) == 2 for char in block):
        # Chinese or Japanese prose: wrapped by its own rules (between characters, never before "。"), which
        # Rich's wrapping (at spaces, else anywhere) does not know.
        return Text("\n".join(wrap(" ".join(block.split("\n")), width)), no_wrap=True, overflow="crop", end="")
    from rich.markdown import Markdown as RichMarkdown  # markdown-it loads with the first message

    document = RichMarkdown(block, hyperlinks=False, code_theme="monokai" if dark else "default")
    options = _CONSOLE.options.update(width=width, highlight=False)
    text = Text(no_wrap=True, overflow="crop", end="")
    for number, line in enumerate(_CONSOLE.render_lines(document, options, pad=False)):
        if number:
            text.append("\n")
        for segment in line:
            if not segment.control:
                text.append(segment.text, segment.style)
    text.rstrip()
    return text


def speech_text(markdown: str, width: int, dark: bool) -> Text:
    """Speech rendered as Markdown, laid out at ``width`` and flattened into one selectable ``Text``.

    Rich's Markdown parser never interprets Rich markup or escape sequences (the text is already
    clean), and links are shown with their address rather than made clickable.
    """
    if width < 4:
        return Text(markdown)
    text = Text(no_wrap=True, overflow="crop", end="")
    for number, block in enumerate(markdown_blocks(markdown)):
        if number:
            text.append("\n\n")
        text.append_text(_block_text(block, width, dark))
    return text


class MessageView(Static):
    """One agent turn as a single widget: header, speech (Markdown) and action chips in their order.

    One widget per message keeps long sessions cheap: a streaming update re-renders this widget only.
    """

    def __init__(self, entry: AgentMessage) -> None:
        super().__init__(classes="message")
        self.entry = entry
        self.rendered = ""  # the speech text on screen, for tests and benchmarks
        self._width = 0

    def on_mount(self) -> None:
        self.sync()

    def on_resize(self) -> None:
        if self.content_size.width != self._width:
            # After this layout pass: a height change made inside it is not laid out until the next resize.
            self.call_after_refresh(self.sync)

    def sync(self) -> None:
        entry = self.entry
        self._width = self.content_size.width or 60
        dark = self.app.current_theme.dark
        chip_color = self.app.current_theme.secondary or "cyan"
        body = Text(no_wrap=True, overflow="crop", end="")
        body.append_text(self._header())
        for part in entry.parts:
            body.append("\n")
            if part.kind == "text":
                body.append_text(speech_text(part.text.strip(), self._width, dark))
            else:
                body.append(f"  {part.text}", style=f"italic {chip_color}")
        self.rendered = "".join(p.text for p in entry.parts if p.kind == "text")
        self.update(body)
        self.set_class(entry.interrupted, "-interrupted")
        self.set_class(entry.streaming, "-streaming")

    @property
    def current(self) -> bool:
        """Everything of the message that is final is on screen."""
        return self.rendered == "".join(p.text for p in self.entry.parts if p.kind == "text")

    def repaint(self) -> None:
        self.sync()

    def _header(self) -> Text:
        entry = self.entry
        color = agent_color(self.app, entry.color) if self.is_attached else entry.color
        header = Text(no_wrap=True, overflow="ellipsis")
        header.append(f"{entry.avatar} ")
        header.append(entry.name, style=f"bold {color}")
        if entry.streaming:
            header.append("  …", style="dim")
        if entry.interrupted:
            header.append("  ⏹ " + _("interrupted"), style="bold italic")
        return header


class LearnerView(Static):
    def __init__(self, entry: LearnerMessage) -> None:
        line = Text()
        line.append(f"🙋 {entry.nickname}\n", style="bold")
        line.append(entry.text)
        super().__init__(line, classes="learner")


class NoteView(Static):
    def __init__(self, entry: SystemNote) -> None:
        self.entry = entry
        super().__init__(self._text(), classes=f"note -{entry.level}")

    def _text(self) -> Text:
        return Text(("⚠ " if self.entry.level == "error" else "ℹ ") + self.entry.text)

    def sync(self) -> None:
        """A note the view rewrote (a learner's run of changes to a widget is one note)."""
        self.update(self._text())


def _widget_for(entry: Entry) -> Widget:
    from maic_tui.room.view import AgentMessage, LearnerMessage
    if isinstance(entry, AgentMessage):
        return MessageView(entry)
    if isinstance(entry, LearnerMessage):
        return LearnerView(entry)
    return NoteView(entry)


class Transcript(VerticalScroll, can_focus=False):
    """Scrolled with the mouse wheel, or PageUp/PageDown from the composer (keys stay with the composer)."""

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

    def scroll_page_down(self, **scrolling: Any) -> None:
        """A page down that reaches the end follows new messages again. Textual releases the anchor on any
        scroll and takes it back only when the position changes onto the end, so a PageDown at the end (or one
        whose animation ends before new text lands) left the transcript still until the next PageDown."""
        if self.scroll_target_y + self.scrollable_content_region.height >= self.max_scroll_y:
            self.scroll_end(animate=False, immediate=True)  # anchored again: scroll_end takes the anchor back
            return
        super().scroll_page_down(**scrolling)

    @property
    def mounted(self) -> int:
        return len(self._widgets)

    def sync(self, view: ClassroomView, dirty: set[int]) -> None:
        """Mount new entries, bring changed ones up to date, and unmount the oldest beyond the bound."""
        new = [_widget_for(entry) for entry in view.entries[self._next:]]
        for index in sorted(dirty):
            widget = self._widgets.get(index)
            if isinstance(widget, MessageView | NoteView):
                widget.sync()
        for offset, widget in enumerate(new):
            self._widgets[self._next + offset] = widget
        self._next = len(view.entries)
        if new:
            self.mount_all(new)
        self._prune()

    def show_message(self, message_id: str) -> bool:
        """Scroll to a message still mounted and mark it for a moment; False when it is no longer mounted."""
        widget = next((w for w in self._widgets.values()
                       if isinstance(w, MessageView) and w.entry.message_id == message_id), None)
        if widget is None:
            return False
        self.release_anchor()
        self.scroll_to_widget(widget, animate=False, top=True)
        widget.add_class("-shown")
        widget.set_timer(2.0, lambda: widget.remove_class("-shown"))
        return True

    def repaint(self) -> None:
        for widget in self._widgets.values():
            if isinstance(widget, MessageView):
                widget.repaint()

    def _prune(self) -> None:
        if len(self._widgets) <= MAX_MOUNTED:
            return
        excess = len(self._widgets) - PRUNE_TO
        old = [self._widgets.pop(index) for index in sorted(self._widgets)[:excess]]
        self.remove_children(old)
        hidden = min(self._widgets)
        earlier = _("{count} earlier entries — ctrl+p “Full transcript” shows everything").format(count=hidden)
        self._earlier.update(Text(f"↑ {earlier}",
                                  style="dim italic"))
        self._earlier.display = True
