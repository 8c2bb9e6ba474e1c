"""The current slide as terminal text, with the spotlight (others dimmed) or laser pointer on one element."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol, cast

from rich.style import Style
from rich.text import Text

from maic_tui.classroom.models import Scene
from maic_tui.scenes.registry import scene_part
from maic_tui.scenes.slide_elements import (
    SlideBullets,
    SlideElement,
    SlideFormula,
    SlideImage,
    SlideTable,
    SlideText,
    SlideTitle,
)
from maic_tui.text_safety import terminal_safe
from maic_tui.whiteboard.elements import TableElement
from maic_tui.whiteboard.render.board_drawing import BoardPalette
from maic_tui.whiteboard.render.content import table_lines, wrap
from maic_tui.whiteboard.render.latex import to_unicode

INDENT = 2  # room for the laser marker in front of every element
LASER_MARK = "➤ "


@dataclass(frozen=True, slots=True)
class Pointer:
    """A spotlight or laser on one slide element."""

    kind: Literal["spotlight", "laser"]
    element_id: str
    color: str = "#ff0000"


def _element_lines(element: SlideElement, width: int, palette: BoardPalette, dim: bool) -> list[Text]:
    base = palette.style(dim=dim)
    if isinstance(element, SlideTitle):
        title = palette.style(bold=True, dim=dim)
        lines = [Text(line, style=title) for line in wrap(element.text, width)]
        return [*lines, Text("━" * min(width, max(t.cell_len for t in lines)), style=palette.style(palette.grid))]
    if isinstance(element, SlideText):
        return [Text(line, style=base) for line in wrap(element.text, width)]
    if isinstance(element, SlideBullets):
        lines = []
        for item in element.items:
            wrapped = wrap(item, max(width - 2, 1))
            lines += [Text(("• " if i == 0 else "  ") + line, style=base) for i, line in enumerate(wrapped)]
        return lines
    if isinstance(element, SlideFormula):
        style = palette.style(italic=True, dim=dim)
        return [Text("  " + line, style=style) for line in wrap(to_unicode(element.latex), max(width - 2, 1))]
    if isinstance(element, SlideImage):
        return [Text(line, style=palette.style(italic=True, dim=dim))
                for line in wrap(f"🖼  {element.alt}", width)]
    if isinstance(element, SlideTable):
        table = TableElement(id=element.id, left=0, top=0, width=0, height=0,
                             cells=tuple(tuple(row) for row in element.rows))
        border = palette.style(palette.grid)
        return table_lines(table, width, 2 * len(element.rows) + 1, border, palette.style(bold=True, dim=dim), base)
    return []  # pragma: no cover - every slide element type is handled above


class SceneSheet(Protocol):
    """What a kind's ``render`` part (``scenes/<kind>/render.py``) holds: what the pane shows of its scenes below
    their elements (a quiz: its questions)."""

    def lines(self, scene: Any, width: int, palette: BoardPalette, state: Any, rows: int) -> list[Text]:
        """``state``: the scene's live state (``SceneBase.initial``, None for a kind without one); ``rows``: about
        how many lines the pane has left for them."""


def _kind_lines(scene: Scene, width: int, palette: BoardPalette, state: Any, rows: int) -> list[Text]:
    part = scene_part(scene.type, "render")
    return cast(SceneSheet, part).lines(scene, width, palette, state, rows) if part is not None else []


def render_slide(scene: Scene, cols: int, rows: int, palette: BoardPalette, pointer: Pointer | None = None,
                 state: Any = None) -> list[Text]:
    """At most ``rows`` lines, ``cols`` wide; the pointed-at element is kept in view."""
    width = max(cols - INDENT, 1)
    lines: list[Text] = []
    focus_line = 0
    for element in scene.elements:
        target = pointer is not None and pointer.element_id == element.id
        dim = pointer is not None and pointer.kind == "spotlight" and not target
        block = _element_lines(element, width, palette, dim)
        if target:
            focus_line = len(lines)
        for index, line in enumerate(block):
            prefix = Text(" " * INDENT)
            if target and pointer is not None:
                if pointer.kind == "laser" and index == 0:
                    prefix = Text(LASER_MARK, style=Style(color=palette.color(pointer.color), bold=True))
                elif pointer.kind == "spotlight":
                    prefix = Text("▌ ", style=palette.style(palette.ink, bold=True))
                    line.stylize("bold")
            lines.append(prefix + line)
        lines.append(Text(""))
    if not scene.elements:
        lines = [Text(terminal_safe(scene.title), style=palette.style(bold=True)), Text("")]
    lines += _kind_lines(scene, width, palette, state, rows - len(lines))
    start = 0 if focus_line < rows else max(0, focus_line - 1)
    shown = lines[start:start + rows]
    for line in shown:
        line.truncate(cols, overflow="ellipsis")
        line.no_wrap = True
    return shown
