"""The whiteboard drawn to scale in a box of terminal cells (canvas 1000 x 563 model units)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from maic_tui.colors import readable_on
from maic_tui.whiteboard.elements import (
    CANVAS_HEIGHT,
    CANVAS_WIDTH,
    ChartElement,
    CodeElement,
    Element,
    LatexElement,
    LineElement,
    ShapeElement,
    TableElement,
    TextElement,
)
from maic_tui.whiteboard.render.canvas import Canvas
from maic_tui.whiteboard.render.charts import chart_lines, listed_height, plots
from maic_tui.whiteboard.render.content import code_lines, fit, table_lines, wrap
from maic_tui.whiteboard.render.latex import to_unicode
from maic_tui.whiteboard.render.shapes import arrow_head, ellipse, rectangle, segment, triangle

CELL_ASPECT = 2.0  # a terminal cell is about twice as tall as it is wide
INK_CONTRAST = 3.0  # board drawings are large strokes: WCAG's large-text level suffices
BOLD_FONT_SIZE = 28


@dataclass(frozen=True, slots=True)
class BoardPalette:
    background: str
    ink: str
    grid: str
    dark: bool

    def color(self, value: str | None) -> str:
        """An element's colour made readable on this board (dark ink turns light on a dark board)."""
        if not value:
            return self.ink
        try:
            return readable_on(value, self.background, INK_CONTRAST)
        except ValueError:  # not a colour we know: the board's ink
            return self.ink

    def style(self, value: str | None = None, *, bold: bool | None = None, dim: bool | None = None,
              italic: bool | None = None) -> Style:
        return Style(color=self.color(value), bold=bold, dim=dim, italic=italic)


def fitted_size(cols: int, rows: int) -> tuple[int, int]:
    """The largest board of the canvas's proportions that fits ``cols`` x ``rows`` cells."""
    ratio = CANVAS_HEIGHT / CANVAS_WIDTH / CELL_ASPECT * 1.0
    width = min(cols, math.floor(rows / ratio)) if rows > 0 else 0
    height = min(rows, round(width * ratio))
    return max(width, 0), max(height, 0)


@dataclass(frozen=True, slots=True)
class _Cells:
    x: int
    y: int
    width: int
    height: int

    def right(self, canvas: Canvas) -> int:
        return min(self.x + self.width, canvas.cols)

    def bottom(self, canvas: Canvas) -> int:
        return min(self.y + self.height, canvas.rows)


def _cells(element: Element, canvas: Canvas) -> _Cells:
    sx, sy = canvas.cols / CANVAS_WIDTH, canvas.rows / CANVAS_HEIGHT
    x, y = math.floor(element.left * sx), math.floor(element.top * sy)
    width = max(1, round((element.left + element.width) * sx) - x)
    height = max(1, round((element.top + element.height) * sy) - y)
    return _Cells(x, y, width, height)


@dataclass(frozen=True, slots=True)
class DrawnBoard:
    lines: list[Text]
    visible: int  # elements with at least one cell on screen
    cut: int  # elements cut short by another's cells (each cut ends in "…")


def render_board(elements: Sequence[Element], cols: int, rows: int, palette: BoardPalette) -> list[Text]:
    """``rows`` lines of ``cols`` cells: the elements in drawing order."""
    return draw_board(elements, cols, rows, palette).lines


def draw_board(elements: Sequence[Element], cols: int, rows: int, palette: BoardPalette) -> DrawnBoard:
    """The board, with how many elements can be seen. No element is drawn over another's text: text,
    formulas, code, tables and charts keep their cells (lines and shapes pass under them), and code, a
    formula or text that needs more room than its box takes free cells to its right and below."""
    canvas = Canvas(cols, rows, Style(color=palette.ink, bgcolor=palette.background))
    for index, (element, box) in enumerate(zip(elements, layout(elements, canvas), strict=True)):
        canvas.begin(index, claims=element.type in CLAIMS)
        DRAWERS[element.type](canvas, element, box, palette)
    return DrawnBoard(canvas.lines(), len(canvas.drawn), len(canvas.cut))


CLAIMS = frozenset({"text", "latex", "code", "table", "chart"})


def layout(elements: Sequence[Element], canvas: Canvas) -> list[_Cells]:
    """Each element's cell box: its place scaled to the canvas, grown into free cells when its content
    needs more (never into another element's box, lines aside)."""
    boxes = [_cells(element, canvas) for element in elements]
    solid = [i for i, element in enumerate(elements) if not isinstance(element, LineElement)]
    for index, element in enumerate(elements):
        need = _needed(element, boxes[index])
        if need is None:
            continue
        box = boxes[index]
        others = [boxes[i] for i in solid if i != index]
        right = min(canvas.cols, box.x + max(box.width, need[0]))
        for other in others:  # boxes beside it on its rows
            if other.y < box.y + box.height and box.y < other.y + other.height and other.x >= box.x + box.width:
                right = min(right, other.x)
        box = _Cells(box.x, box.y, max(box.width, right - box.x), box.height)
        bottom = min(canvas.rows, box.y + max(box.height, need[1]))
        for other in others:  # boxes below it in its columns
            if other.x < box.x + box.width and box.x < other.x + other.width and other.y >= box.y + box.height:
                bottom = min(bottom, other.y)
        boxes[index] = _Cells(box.x, box.y, box.width, max(box.height, bottom - box.y))
    return boxes


def _needed(element: Element, box: _Cells) -> tuple[int, int] | None:
    """The cells the content needs to be shown whole (width, height), for the kinds that can grow."""
    if isinstance(element, CodeElement):
        id_width = max((len(line.id) for line in element.lines), default=2)
        widest = max((cell_len(line.content.replace("\t", "    ")) for line in element.lines), default=0)
        return id_width + 1 + widest, 1 + len(element.lines)
    if isinstance(element, LatexElement):
        lines = to_unicode(element.latex).split("\n")
        return max(cell_len(line) for line in lines), len(lines)
    if isinstance(element, TextElement):
        return box.width, len(wrap(element.content, box.width))
    if isinstance(element, ChartElement) and not plots(element, box.width, box.height):
        return box.width, listed_height(element, box.width)  # a box too small to plot lists the values
    return None


def _text(canvas: Canvas, element: TextElement, box: _Cells, palette: BoardPalette) -> None:
    style = palette.style(element.color, bold=element.font_size >= BOLD_FONT_SIZE)
    for offset, line in enumerate(fit(wrap(element.content, box.width), box.width, box.height)):
        canvas.write(box.x, box.y + offset, line, style, box.right(canvas))


def _latex(canvas: Canvas, element: LatexElement, box: _Cells, palette: BoardPalette) -> None:
    style = palette.style(element.color, italic=True)
    for offset, line in enumerate(fit(wrap(to_unicode(element.latex), box.width), box.width, box.height)):
        canvas.write(box.x, box.y + offset, line, style, box.right(canvas))


def _shape(canvas: Canvas, element: ShapeElement, box: _Cells, palette: BoardPalette) -> None:
    draw = {"rectangle": rectangle, "circle": ellipse, "triangle": triangle}[element.shape]
    draw(canvas, box.x, box.y, box.width, box.height, palette.style(element.fill))


def _shortened(lines: list[Text], texts: list[str]) -> bool:
    """Drawn with an ellipsis, or as a placeholder, that the element's own text does not have."""
    drawn = "".join(line.plain for line in lines)
    return ("…" in drawn and not any("…" in text for text in texts)) or drawn.startswith("▦")


def _table(canvas: Canvas, element: TableElement, box: _Cells, palette: BoardPalette) -> None:
    border = palette.style(element.outline_color if element.outline_width > 0 else palette.grid)
    header = palette.style(element.theme_color, bold=True)
    lines = table_lines(element, box.width, box.height, border, header, palette.style())
    if _shortened(lines, [cell for row in element.cells for cell in row]):
        canvas.shortened()  # the pane's title says "some cut: F4 enlarges"
    canvas.blit(box.x, box.y, lines, box.right(canvas), box.bottom(canvas))


def _code(canvas: Canvas, element: CodeElement, box: _Cells, palette: BoardPalette) -> None:
    width = box.right(canvas) - box.x  # the part of the box on the board: a line is cut where the board ends
    lines = code_lines(element, width, box.height, palette.dark, palette.style(palette.grid),
                       palette.style(bold=True))
    if _shortened(lines, [line.content for line in element.lines]):
        canvas.shortened()
    canvas.blit(box.x, box.y, lines, box.right(canvas), box.bottom(canvas))


def _chart(canvas: Canvas, element: ChartElement, box: _Cells, palette: BoardPalette) -> None:
    colors = tuple(palette.color(c) for c in element.theme_colors)
    canvas.blit(box.x, box.y, chart_lines(element, box.width, box.height, colors), box.right(canvas),
                box.bottom(canvas))


def _arrow_or_line(canvas: Canvas, element: LineElement, box: _Cells, palette: BoardPalette) -> None:
    _line(canvas, element, palette)


# How each kind of element is drawn, by its ``type``.
DRAWERS: dict[str, Callable[[Canvas, Any, _Cells, BoardPalette], None]] = {
    "text": _text, "latex": _latex, "shape": _shape, "line": _arrow_or_line, "table": _table, "code": _code,
    "chart": _chart,
}


def _line(canvas: Canvas, line: LineElement, palette: BoardPalette) -> None:
    # Braille dots: 2 per cell across, 4 down.
    sx, sy = canvas.cols * 2 / CANVAS_WIDTH, canvas.rows * 4 / CANVAS_HEIGHT
    x0, y0 = line.start_x * sx, line.start_y * sy
    x1, y1 = line.end_x * sx, line.end_y * sy
    style = palette.style(line.color)
    segment(canvas, x0, y0, x1, y1, style, dashed=line.style == "dashed")
    if line.end_marker == "arrow":
        arrow_head(canvas, x0, y0, x1, y1, style)
    if line.start_marker == "arrow":
        arrow_head(canvas, x1, y1, x0, y0, style)
