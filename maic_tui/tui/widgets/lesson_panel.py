"""The lesson above the composer: one line saying where it is and which key does what (what a step of a scene kind
shows while it waits is that kind's widget: ``tui/scene_widgets.py``)."""

from __future__ import annotations

from rich.text import Text
from textual.content import Content
from textual.widgets import Static

from maic_tui.tui.plain import plain


class LessonLine(Static):
    DEFAULT_CSS = """
    LessonLine { height: auto; max-height: 2; color: $text-muted; display: none; }
    LessonLine.-waiting { color: $accent; text-style: bold; }
    """

    def __init__(self) -> None:
        super().__init__(Text(""), id="lesson-line")
        self._texts = ("", "")

    def show(self, text: str, short: str, waiting: bool) -> None:
        """``text``, or ``short`` where it would take more than two lines (the keys matter more than a title)."""
        self._texts = (text, short)
        self.set_class(waiting, "-waiting")
        self.display = bool(text)
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        text, short = self._texts
        width = self.size.width  # 0 until laid out: on_resize fits it again then
        # Wrapped as Textual draws the line, by terminal cells (a CJK character takes two, the book glyph too).
        fits = width == 0 or len(Content(text).wrap(width)) <= 2
        self.update(plain(text if fits else short))
