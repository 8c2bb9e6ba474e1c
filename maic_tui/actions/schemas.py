"""The parameter schema of every action: the one place its parameters are described.

Each schema says what the action is for (``PURPOSE``), its transcript chip (``CHIP``) and its ledger line
(``ledger``); its fields, with their types, defaults and descriptions, are what the agent prompt documents
(``actions.docs``). Parameter names are the upstream camelCase ones, because that is what models are
prompted with and what travels in ``action`` events. A draw without a size gets its kind's default size.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from maic_tui.actions.fields import (
    CellText,
    Color,
    Number,
    OptionalElementId,
    RequiredElementId,
    Size,
    repair_latex,
    shape_name,
)
from maic_tui.i18n import N_, _
from maic_tui.text_safety import one_line


def clip(text: object, limit: int) -> str:
    return one_line(str(text), limit + 1)


class ActionParams(BaseModel):
    # Models add stray keys ("title", "description"); they are dropped, never an error.
    model_config = ConfigDict(extra="ignore", populate_by_name=True, frozen=True,
                              defer_build=True)  # schemas build on first use, not at start-up

    PURPOSE: ClassVar[str] = ""
    # In English where it is defined (an agent's prompt names its abilities by it), in the interface's language
    # where the transcript shows it (``chip``).
    CHIP: ClassVar[str] = ""

    def wire(self) -> dict[str, Any]:
        """The params in event form: camelCase, defaults filled in, absent optionals left out."""
        return self.model_dump(by_alias=True, exclude_none=True, mode="json")

    def chip(self) -> str:
        return _(self.CHIP)

    def ledger(self) -> str | None:
        """What the action did, for the director's "who already spoke" list (None: not worth a line)."""
        return None


class NoParams(ActionParams):
    pass


class OpenBoard(NoParams):
    PURPOSE = "open the whiteboard (drawing opens it too)"
    CHIP = N_("▣ board opened")


class CloseBoard(NoParams):
    PURPOSE = "close the whiteboard and show the slide again; do not close it just because you finished"
    CHIP = N_("▢ board closed")


class ClearBoard(NoParams):
    PURPOSE = "remove everything from the board (only when it is full or the topic changes)"
    CHIP = N_("⌫ board cleared")

    def ledger(self) -> str:
        return "CLEARED the whiteboard"


class DrawText(ActionParams):
    PURPOSE = "short plain text (no LaTeX)"
    CHIP = N_("✎ text")
    content: Annotated[str, Field(min_length=1)]
    x: Number
    y: Number
    width: Size = 400
    height: Size = 100
    font_size: Size = Field(18, alias="fontSize")
    color: Color = Field("#333333", description="str")
    element_id: OptionalElementId = Field(None, alias="elementId")

    def ledger(self) -> str:
        return f'drew text "{clip(self.content, 30)}"'


class DrawShape(ActionParams):
    PURPOSE = "a shape"
    CHIP = N_("✎ shape")
    shape: Annotated[Literal["rectangle", "circle", "triangle"], BeforeValidator(shape_name)]
    x: Number
    y: Number
    width: Size = 100
    height: Size = 100
    fill_color: Color = Field("#5b9bd5", alias="fillColor", description="str")
    element_id: OptionalElementId = Field(None, alias="elementId")

    def ledger(self) -> str:
        return f"drew shape({self.shape})"


ChartType = Literal["bar", "column", "line", "pie", "ring", "area", "radar", "scatter"]
DEFAULT_THEME_COLORS = ("#5b9bd5", "#ed7d31", "#a5a5a5", "#ffc000", "#4472c4")


class ChartData(ActionParams):
    labels: list[CellText] = Field(min_length=1)
    legends: list[CellText] = Field(default_factory=list)
    series: list[Annotated[list[Number], Field(min_length=1)]] = Field(min_length=1)

    @model_validator(mode="after")
    def _rectangular(self) -> ChartData:
        if self.legends and len(self.legends) != len(self.series):
            raise ValueError("series needs one row per legend")
        if any(len(row) != len(self.labels) for row in self.series):
            raise ValueError("every series row needs one value per label")
        return self


class DrawChart(ActionParams):
    PURPOSE = "a chart"
    CHIP = N_("✎ chart")
    chart_type: ChartType = Field(alias="chartType")
    x: Number
    y: Number
    width: Size = 350
    height: Size = 250
    data: ChartData
    theme_colors: list[Color] = Field(default_factory=lambda: list(DEFAULT_THEME_COLORS), alias="themeColors")
    element_id: OptionalElementId = Field(None, alias="elementId")

    def ledger(self) -> str:
        return f"drew chart({self.chart_type}, labels: [{', '.join(self.data.labels[:4])}])"


class DrawLatex(ActionParams):
    PURPOSE = "a formula"
    CHIP = N_("✎ formula")
    latex: Annotated[str, BeforeValidator(repair_latex), Field(
        min_length=1, description='str (double every backslash in JSON: "\\\\frac")')]
    x: Number
    y: Number
    width: Size = 400
    height: Size = 80
    color: Color = Field("#000000", description="str")
    element_id: OptionalElementId = Field(None, alias="elementId")

    def ledger(self) -> str:
        return f'drew formula "{clip(self.latex, 30)}"'


class TableOutline(ActionParams):
    width: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 2
    style: Literal["solid", "dashed", "dotted"] = "solid"
    color: Color = "#eeece1"


class TableTheme(ActionParams):
    color: Color


TABLE_ROW_HEIGHT, TABLE_PADDING = 40, 20


class DrawTable(ActionParams):
    PURPOSE = "a table of plain-text cells"
    CHIP = N_("✎ table")
    data: list[Annotated[list[CellText], Field(min_length=1)]] = Field(min_length=1,
                                                               description="[[str]] (first row = header)")
    x: Number
    y: Number
    width: Size = 400
    height: Size = Field(TABLE_PADDING + TABLE_ROW_HEIGHT, description=f"rows*{TABLE_ROW_HEIGHT}+{TABLE_PADDING}")
    outline: TableOutline = Field(default_factory=TableOutline, description="{width, style, color}")
    theme: TableTheme | None = Field(None, description="{color}")
    element_id: OptionalElementId = Field(None, alias="elementId")

    @model_validator(mode="before")
    @classmethod
    def _height_from_rows(cls, value: Any) -> Any:
        if isinstance(value, dict) and value.get("height") is None and isinstance(value.get("data"), list):
            return {**value, "height": TABLE_PADDING + TABLE_ROW_HEIGHT * max(1, len(value["data"]))}
        return value

    @model_validator(mode="after")
    def _rectangular(self) -> DrawTable:
        width = len(self.data[0])
        if width == 0:
            raise ValueError("the header row is empty")
        if any(len(row) != width for row in self.data):
            raise ValueError("every row needs as many cells as the header row")
        return self

    def ledger(self) -> str:
        return f"drew table({len(self.data)}x{len(self.data[0])})"


LineEnd = Literal["", "arrow"]


class DrawLine(ActionParams):
    PURPOSE = 'a line or arrow; "width" is the stroke thickness'
    CHIP = N_("✎ line")
    start_x: Number = Field(alias="startX")
    start_y: Number = Field(alias="startY")
    end_x: Number = Field(alias="endX")
    end_y: Number = Field(alias="endY")
    color: Color = Field("#333333", description="str")
    width: Size = 2  # stroke thickness, not length
    style: Literal["solid", "dashed"] = "solid"
    points: tuple[LineEnd, LineEnd] = Field(("", ""), description='["", "arrow"] (the ends: "" or "arrow")')
    element_id: OptionalElementId = Field(None, alias="elementId")

    @property
    def is_arrow(self) -> bool:
        return "arrow" in self.points

    def chip(self) -> str:
        return _("✎ arrow") if self.is_arrow else _(self.CHIP)

    def ledger(self) -> str:
        return "drew arrow" if self.is_arrow else "drew line"


class DrawCode(ActionParams):
    PURPOSE = "a code block; its lines get ids L1, L2, ..."
    CHIP = N_("✎ code")
    language: Annotated[str, Field(min_length=1, max_length=40)]
    code: str
    x: Number
    y: Number
    width: Size = 500
    height: Size = 300
    file_name: str | None = Field(None, alias="fileName")
    element_id: OptionalElementId = Field(None, alias="elementId")

    def ledger(self) -> str:
        return f'drew code block "{self.file_name or "untitled"}" ({self.language})'


CodeOperation = Literal["insert_after", "insert_before", "delete_lines", "replace_lines"]


class EditCode(ActionParams):
    PURPOSE = "change a code block by line id (see the board state)"
    CHIP = N_("✎ code edited")
    element_id: RequiredElementId = Field(alias="elementId")
    operation: CodeOperation
    line_id: str | None = Field(None, alias="lineId")
    line_ids: list[str] | None = Field(None, alias="lineIds")
    content: str | None = None

    def ledger(self) -> str:
        return f"edited code ({self.operation})"


class DeleteElement(ActionParams):
    PURPOSE = "remove one element by id (prefer this to clearing)"
    CHIP = N_("⌫ deleted")
    element_id: RequiredElementId = Field(alias="elementId")

    def ledger(self) -> str:
        return f'deleted element "{self.element_id}"'


class Spotlight(ActionParams):
    PURPOSE = "focus the class on one slide element, dimming the rest (1-2 per answer at most)"
    CHIP = N_("◎ spotlight")
    element_id: RequiredElementId = Field(alias="elementId")
    dim_opacity: Annotated[float, Field(ge=0, le=1, description="0..1")] = Field(0.5, alias="dimOpacity")


class Laser(ActionParams):
    PURPOSE = "point at one slide element"
    CHIP = N_("➚ laser")
    element_id: RequiredElementId = Field(alias="elementId")
    color: Color = Field("#ff0000", description="str")


# --- an interactive scene's widget (OpenMAIC's four widget actions, its names and parameters) ---------------

WidgetTarget = Annotated[str, BeforeValidator(lambda v: clip(v, 40) if isinstance(v, str) else v),
                         Field(min_length=1, max_length=41, description="a variable, preset or node name")]
Speech = Annotated[str | None, BeforeValidator(lambda v: clip(v, 200) if isinstance(v, str) else v)]


class WidgetHighlight(ActionParams):
    PURPOSE = "highlight one part of the interactive widget (a variable, value or node) for the class"
    CHIP = N_("✦ highlight")
    target: WidgetTarget
    content: Speech = None

    def chip(self) -> str:
        return _(self.CHIP) + " " + self.target


class WidgetSetState(ActionParams):
    PURPOSE = "set the simulation's variables, e.g. {\"state\": {\"h\": 0.5}}: each within its range"
    CHIP = N_("⇄ set")
    state: dict[Annotated[str, Field(max_length=40)], Number] = Field(min_length=1, max_length=8)
    content: Speech = None

    def chip(self) -> str:
        return _(self.CHIP) + " " + ", ".join(f"{name} = {value:g}" for name, value in list(self.state.items())[:3])


class WidgetAnnotation(ActionParams):
    PURPOSE = "put a short note beside one part of the widget"
    CHIP = N_("✎ note")
    target: WidgetTarget
    content: Annotated[str, BeforeValidator(lambda v: clip(v, 120) if isinstance(v, str) else v),
                       Field(min_length=1)]

    def chip(self) -> str:
        return _(self.CHIP) + " " + self.target


class WidgetReveal(ActionParams):
    PURPOSE = "reveal a hidden node of the diagram (its next one in order when the target is empty)"
    CHIP = N_("◐ reveal")
    target: Annotated[str, BeforeValidator(lambda v: clip(v, 40) if isinstance(v, str) else v)] = ""
    content: Speech = None

    def chip(self) -> str:
        return (_(self.CHIP) + " " + self.target).rstrip()
