"""A widget's content as rows of text, each drawn once and kept until it changes: the transcript's messages and
the board pane draw this way, so an update costs the rows it changed and Textual asks only for the rows on screen
(ARCHITECTURE.md, *The app*)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text
from textual.strip import Strip

if TYPE_CHECKING:
    from textual.widget import Widget


class DrawnRows:
    """The rows a widget shows and the ones drawn so far, by row."""

    def __init__(self, selectable: bool = False) -> None:
        self.selectable = selectable  # rows carry where each character is, for a mouse selection
        self.rows: Sequence[Text] = []
        self._drawn: dict[int, Strip] = {}

    def __len__(self) -> int:
        return len(self.rows)

    def show(self, rows: Sequence[Text]) -> list[int]:
        """Rows to show from now on; a row equal to the one it replaces stays drawn. Returns the rows that changed."""
        old = self.rows
        if rows is old:
            return []
        changed = [y for y in range(len(rows)) if y >= len(old) or not _same(rows[y], old[y])]
        changed += range(len(rows), len(old))  # rows no longer there
        for y in changed:
            self._drawn.pop(y, None)
        self.rows = rows
        return changed

    def drawn(self, y: int) -> Strip | None:
        """Row ``y`` as drawn, if it has been since it last changed."""
        return self._drawn.get(y)

    def forget(self) -> None:
        """Draw every row again (new colours)."""
        self._drawn.clear()

    def strip(self, widget: Widget, y: int) -> Strip:
        """Row ``y``, ``widget.size`` wide, in the widget's CSS colours under the row's own.

        Rich draws the row (Textual's own text path took about eight times as long a row): a keypress redraws
        a pane of them."""
        width = widget.size.width
        base = widget.visual_style.rich_style
        if y >= len(self.rows) or not width:
            return Strip.blank(width, base)
        strip = self._drawn.get(y)
        if strip is None:
            row, console = self.rows[y], widget.app.console
            own = row.style if isinstance(row.style, RichStyle) else console.get_style(row.style, default=_PLAIN)
            segments = Segment.apply_style(row.render(console, end=""), base + own)  # render leaves ``own`` out
            strip = Strip(_at_row(segments, y) if self.selectable else segments).crop(0, width)
            self._drawn[y] = strip
        return strip


def _same(new: Text, old: Text) -> bool:
    """Rich's ``==`` on Text leaves out the style the whole text has."""
    return new is old or (new.plain == old.plain and new.style == old.style and new.spans == old.spans)


def _at_row(segments: Iterable[Segment], y: int) -> list[Segment]:
    """Each segment told where its text starts in the message (column, row), as Textual marks text it draws."""
    marked = []
    x = 0
    for text, style, control in segments:
        marked.append(Segment(text, (style or _PLAIN) + RichStyle.from_meta({"offset": (x, y)}), control))
        x += len(text)
    return marked


_PLAIN = RichStyle()
