"""Whiteboard element models. Immutable: an edit builds a new element, so snapshots can share them.

Each element says in one place how it is named: ``label`` (a short tag for conflict lines) and ``describe``
(its line in the board summary agents read). Drawing lives in ``render`` (one table keyed by ``type``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from maic_tui.strict import Strict

CANVAS_WIDTH = 1000.0
CANVAS_HEIGHT = 563.0


def clip(text: str, limit: int) -> str:
    """Whitespace folded to single spaces, cut at ``limit`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit] + "…"


def _n(value: float) -> str:
    return str(round(value))


class Box(Strict):

    id: str
    left: float
    top: float
    width: float
    height: float

    def label(self) -> str:
        """What it is, with a hint of its content, for conflict lines."""
        raise NotImplementedError

    def describe(self) -> str:
        """What it is, for the board summary (position and size are added by the summary)."""
        return self.label()

    def placed(self) -> str:
        return f" at ({_n(self.left)},{_n(self.top)}) size {_n(self.width)}x{_n(self.height)}"


class TextElement(Box):
    type: Literal["text"] = "text"
    content: str
    font_size: float = 18
    color: str = "#333333"

    def label(self) -> str:
        return f'text "{clip(self.content, 24)}"'

    def describe(self) -> str:
        return f'text: "{clip(self.content, 60)}"'


class ShapeElement(Box):
    type: Literal["shape"] = "shape"
    shape: Literal["rectangle", "circle", "triangle"]
    fill: str = "#5b9bd5"

    def label(self) -> str:
        return f"shape({self.shape})"


class ChartElement(Box):
    type: Literal["chart"] = "chart"
    chart_type: str
    labels: tuple[str, ...]
    legends: tuple[str, ...]
    series: tuple[tuple[float, ...], ...]
    theme_colors: tuple[str, ...]

    def label(self) -> str:
        return f"chart[{self.chart_type}]"

    def describe(self) -> str:
        return f"chart[{self.chart_type}]: labels=[{', '.join(self.labels[:4])}]"


class LatexElement(Box):
    type: Literal["latex"] = "latex"
    latex: str
    color: str = "#000000"

    def label(self) -> str:
        return f'latex "{clip(self.latex, 24)}"'

    def describe(self) -> str:
        return f'latex: "{clip(self.latex, 40)}"'


class TableElement(Box):
    type: Literal["table"] = "table"
    cells: tuple[tuple[str, ...], ...]  # row 0 is the header
    outline_width: float = 2
    outline_style: str = "solid"
    outline_color: str = "#eeece1"
    theme_color: str | None = None

    @property
    def rows(self) -> int:
        return len(self.cells)

    @property
    def cols(self) -> int:
        return len(self.cells[0]) if self.cells else 0

    def label(self) -> str:
        return f"table {self.rows}x{self.cols}"

    def describe(self) -> str:
        return f"table: {self.rows}x{self.cols}"


class LineElement(Box):
    """A segment; its box is the bounding box of the two end points (width/height may be 0)."""

    type: Literal["line"] = "line"
    start_x: float
    start_y: float
    end_x: float
    end_y: float
    color: str = "#333333"
    stroke_width: float = 2
    style: Literal["solid", "dashed"] = "solid"
    start_marker: Literal["", "arrow"] = ""
    end_marker: Literal["", "arrow"] = ""

    @property
    def is_arrow(self) -> bool:
        return "arrow" in (self.start_marker, self.end_marker)

    def label(self) -> str:
        return "arrow" if self.is_arrow else "line"

    def describe(self) -> str:
        return f"{self.label()} ({_n(self.start_x)},{_n(self.start_y)}) → ({_n(self.end_x)},{_n(self.end_y)})"

    def placed(self) -> str:
        return ""  # the end points say where it is


class CodeLine(Strict):

    id: str
    content: str


class CodeElement(Box):
    type: Literal["code"] = "code"
    language: str
    lines: tuple[CodeLine, ...]
    file_name: str | None = None
    next_line_number: int  # new line ids continue from here: L<n>, never reused

    @property
    def code(self) -> str:
        return "\n".join(line.content for line in self.lines)

    def label(self) -> str:
        return f"code({self.language})"

    def describe(self) -> str:
        name = f' "{self.file_name}"' if self.file_name else ""
        count = len(self.lines)
        return f"code{name} ({self.language}, {count} line{'' if count == 1 else 's'})"


Element = Annotated[
    TextElement | ShapeElement | ChartElement | LatexElement | TableElement | LineElement | CodeElement,
    Field(discriminator="type"),
]
ELEMENT_TYPES: tuple[str, ...] = ("text", "shape", "chart", "latex", "table", "line", "code")
