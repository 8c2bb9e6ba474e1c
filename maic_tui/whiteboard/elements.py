"""Whiteboard element models. Immutable: an edit builds a new element, so snapshots can share them."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

CANVAS_WIDTH = 1000.0
CANVAS_HEIGHT = 563.0


class Box(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    left: float
    top: float
    width: float
    height: float


class TextElement(Box):
    type: Literal["text"] = "text"
    content: str
    font_size: float = 18
    color: str = "#333333"


class ShapeElement(Box):
    type: Literal["shape"] = "shape"
    shape: Literal["rectangle", "circle", "triangle"]
    fill: str = "#5b9bd5"


class ChartElement(Box):
    type: Literal["chart"] = "chart"
    chart_type: str
    labels: tuple[str, ...]
    legends: tuple[str, ...]
    series: tuple[tuple[float, ...], ...]
    theme_colors: tuple[str, ...]


class LatexElement(Box):
    type: Literal["latex"] = "latex"
    latex: str
    color: str = "#000000"


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


class CodeLine(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

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


Element = Annotated[
    TextElement | ShapeElement | ChartElement | LatexElement | TableElement | LineElement | CodeElement,
    Field(discriminator="type"),
]
ELEMENT_TYPES: tuple[str, ...] = ("text", "shape", "chart", "latex", "table", "line", "code")
