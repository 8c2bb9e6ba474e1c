"""One agent turn in the transcript, drawn row by row: its speech laid out as Markdown block by block (each block
cached), its rows drawn once and kept, so a message that streams costs a frame its last block, whatever its
length (ARCHITECTURE.md, *The app*)."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from rich.console import Console
from rich.text import Text
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.widget import Widget

from maic_tui.i18n import _
from maic_tui.text_cells import cell_len, wrap
from maic_tui.tui.theming import agent_color
from maic_tui.tui.widgets.drawn_rows import DrawnRows

if TYPE_CHECKING:
    from textual.strip import Strip

    from maic_tui.room.view import AgentMessage

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


@lru_cache(maxsize=1024)
def _block_rows(block: str, width: int, dark: bool) -> tuple[Text, ...]:
    return tuple(_block_text(block, width, dark).split("\n", allow_blank=True))


def speech_text(markdown: str, width: int, dark: bool) -> Text:
    """Speech rendered as Markdown, laid out at ``width`` and flattened into one selectable ``Text``.

    Rich's Markdown parser never interprets Rich markup or escape sequences (the text is already
    clean), and links are shown with their address rather than made clickable.
    """
    return Text("\n", no_wrap=True, overflow="crop", end="").join(speech_rows(markdown, width, dark))


def speech_rows(markdown: str, width: int, dark: bool) -> list[Text]:
    """``speech_text``'s rows: each block's rows come from a cache, so only a block that changed is laid out."""
    if width < 4:
        return [Text(markdown)]
    rows: list[Text] = []
    for number, block in enumerate(markdown_blocks(markdown)):
        if number:
            rows.append(_BLANK)
        rows.extend(_block_rows(block, width, dark))
    return rows or [_BLANK]


_BLANK = Text(no_wrap=True, overflow="crop", end="")


class MessageView(Widget):
    """One agent turn as a single widget: header, speech (Markdown) and action chips in their order.

    It draws row by row: the rows are kept once drawn and dropped from the first one that changed, so a streaming
    update draws the message's last rows only, and Textual asks for the rows on screen only. While the learner
    selects text, the whole message is drawn as one text, as a ``Static`` would (the selection's rows and
    columns are the message's).
    """

    # Textual lays a widget out again when its virtual size changes, which for a widget that does not scroll is
    # the size it was just laid out at: a message that grew cost two layouts of the screen, the second one a frame
    # later, where a learner's key then waited for it.
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def __init__(self, entry: AgentMessage) -> None:
        super().__init__(classes="message")
        self.entry = entry
        self.rendered = ""  # the speech text on screen, for tests and benchmarks
        self._width = 0
        self.rows = DrawnRows(selectable=True)  # the message laid out at ``_width``

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
        rows = [self._header()]
        for part in entry.parts:
            if part.kind == "text":
                rows.extend(speech_rows(part.text.strip(), self._width, dark))
            else:
                rows.append(Text(f"  {part.text}", style=f"italic {chip_color}", no_wrap=True, overflow="crop",
                                 end=""))
        grown = len(rows) != len(self.rows)
        changed = self.rows.show(rows)
        self.rendered = "".join(p.text for p in entry.parts if p.kind == "text")
        self.set_class(entry.interrupted, "-interrupted")
        self.set_class(entry.streaming, "-streaming")
        if grown or not self.size.width:
            self.refresh(layout=True)
        elif changed:  # the streaming row: the rows above it stay as Textual has them
            self.refresh(*(Region(0, y, self.size.width, 1) for y in changed))

    @property
    def current(self) -> bool:
        """Everything of the message that is final is on screen."""
        return self.rendered == "".join(p.text for p in self.entry.parts if p.kind == "text")

    def repaint(self) -> None:
        self.rows.forget()
        self.sync()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.rows.forget()  # drawn in the old colours (a theme, the "shown" background)

    def render(self) -> Text:
        """The whole message as one text: what a selection reads and draws."""
        return Text("\n", no_wrap=True, overflow="crop", end="").join(self.rows.rows)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.rows)

    def render_line(self, y: int) -> Strip:
        if self.text_selection is not None:
            return super().render_line(y)
        return self.rows.strip(self, y)

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
        row = Text(no_wrap=True, overflow="crop", end="")
        row.append_text(header)
        return row
