"""The conversation: one widget per agent turn (``message_view.py``), learner messages and system lines. Only the
newest ``MAX_MOUNTED`` entries are mounted, so a long session stays fast; the full transcript is one palette command
away."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.geometry import Size
from textual.reactive import Reactive
from textual.visual import visualize
from textual.widget import Widget
from textual.widgets import Static

from maic_tui.i18n import _
from maic_tui.tui.widgets.message_view import MessageView

if TYPE_CHECKING:
    from textual.css.styles import RulesMap

    from maic_tui.room.view import ClassroomView, Entry, LearnerMessage, SystemNote

MAX_MOUNTED = 50
PRUNE_TO = 40  # unmount in batches: one removal (and re-layout) per ten messages, not per message


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
        """A note the view rewrote (a learner's run of changes to a widget is one note): laid out again only when
        its height changes, not each time the learner's value does."""
        text = self._text()
        width = self.content_size.width
        rules = cast("RulesMap", self.styles)  # as Textual measures a Static: its styles read as rules
        same_height = bool(width) and visualize(self, text).get_height(rules, width) == self.content_size.height
        self.update(text, layout=not same_height)


def _widget_for(entry: Entry) -> Widget:
    from maic_tui.room.view import AgentMessage, LearnerMessage
    if isinstance(entry, AgentMessage):
        return MessageView(entry)
    if isinstance(entry, LearnerMessage):
        return LearnerView(entry)
    return NoteView(entry)


class Transcript(VerticalScroll, can_focus=False):
    """Scrolled with the mouse wheel, or PageUp/PageDown from the composer (keys stay with the composer)."""

    # As a message's (``MessageView.virtual_size``): the layout that found the new size has placed the messages,
    # scrolled to the end when anchored and sized the scrollbar; a second layout a frame later changed nothing.
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

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
