"""The action catalogue: names, role defaults and typed parameter schemas.

Shared by the classroom files (allowed actions, demo material), the whiteboard reducer and the prompts,
so it sits at the bottom of the layering beside ``events.py``. Parameter names are the upstream camelCase
ones, because that is what models are prompted with and what travels in ``action`` events.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)

from maic_tui.bad_input import field_path
from maic_tui.colors import normalize_color

WHITEBOARD_ACTIONS: tuple[str, ...] = (
    "wb_open",
    "wb_close",
    "wb_draw_text",
    "wb_draw_shape",
    "wb_draw_chart",
    "wb_draw_latex",
    "wb_draw_table",
    "wb_draw_line",
    "wb_draw_code",
    "wb_edit_code",
    "wb_clear",
    "wb_delete",
)
SLIDE_ACTIONS: tuple[str, ...] = ("spotlight", "laser")
ALL_ACTIONS: tuple[str, ...] = SLIDE_ACTIONS + WHITEBOARD_ACTIONS

Role = Literal["teacher", "assistant", "student"]  # the one list of roles (classroom files, prompts, guards)
ROLE_DEFAULT_ACTIONS: dict[Role, tuple[str, ...]] = {
    "teacher": ALL_ACTIONS,
    "assistant": WHITEBOARD_ACTIONS,
    "student": WHITEBOARD_ACTIONS,
}


def effective_actions(allowed: tuple[str, ...] | list[str], scene_type: str | None) -> list[str]:
    """Allowed actions minus the slide pointers when no slide is showing (``scene_type`` None: no scene)."""
    if scene_type == "slide":
        return list(allowed)
    return [name for name in allowed if name not in SLIDE_ACTIONS]


# --- field types -----------------------------------------------------------------------------------


def _no_bool(value: Any) -> Any:
    # pydantic's lax mode reads True as 1.0; a boolean coordinate is a model mistake, not a number.
    if isinstance(value, bool):
        raise ValueError("a number is required, not a boolean")
    return value


def _cell_text(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"{value:g}" if isinstance(value, float) else str(value)
    if value is None:
        return ""
    return value


_ELEMENT_ID = re.compile(r"[\w.:\-]{1,64}")


def _element_id(value: Any) -> Any:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or not _ELEMENT_ID.fullmatch(value):
        raise ValueError("an element id is 1-64 letters, digits, '_', '-', '.' or ':'")
    return value


Number = Annotated[float, BeforeValidator(_no_bool), Field(allow_inf_nan=False)]
Size = Annotated[float, BeforeValidator(_no_bool), Field(gt=0, allow_inf_nan=False)]
Color = Annotated[str, AfterValidator(normalize_color)]
CellText = Annotated[str, BeforeValidator(_cell_text)]
OptionalElementId = Annotated[str | None, BeforeValidator(_element_id)]
RequiredElementId = Annotated[str, BeforeValidator(_element_id)]

_SHAPE_ALIASES = {"rect": "rectangle", "square": "rectangle", "box": "rectangle", "ellipse": "circle",
                  "oval": "circle"}


def _shape_name(value: Any) -> Any:
    if isinstance(value, str):
        key = value.strip().lower()
        return _SHAPE_ALIASES.get(key, key)
    return value


# --- parameter schemas ------------------------------------------------------------------------------


class ActionParams(BaseModel):
    # Models add stray keys ("title", "description"); they are dropped, never an error.
    model_config = ConfigDict(extra="ignore", populate_by_name=True, frozen=True,
                              defer_build=True)  # schemas build on first use, not at start-up

    def wire(self) -> dict[str, Any]:
        """The params in event form: camelCase, defaults filled in, absent optionals left out."""
        return self.model_dump(by_alias=True, exclude_none=True, mode="json")


class NoParams(ActionParams):
    pass


class DrawText(ActionParams):
    content: Annotated[str, Field(min_length=1)]
    x: Number
    y: Number
    width: Size = 400
    height: Size = 100
    font_size: Size = Field(18, alias="fontSize")
    color: Color = "#333333"
    element_id: OptionalElementId = Field(None, alias="elementId")


class DrawShape(ActionParams):
    shape: Annotated[Literal["rectangle", "circle", "triangle"], BeforeValidator(_shape_name)]
    x: Number
    y: Number
    width: Size
    height: Size
    fill_color: Color = Field("#5b9bd5", alias="fillColor")
    element_id: OptionalElementId = Field(None, alias="elementId")


ChartType = Literal["bar", "column", "line", "pie", "ring", "area", "radar", "scatter"]
DEFAULT_THEME_COLORS = ("#5b9bd5", "#ed7d31", "#a5a5a5", "#ffc000", "#4472c4")


class ChartData(ActionParams):
    labels: list[CellText] = Field(min_length=1)
    legends: list[CellText] = Field(default_factory=list)
    series: list[list[Number]] = Field(min_length=1)

    @model_validator(mode="after")
    def _rectangular(self) -> ChartData:
        if self.legends and len(self.legends) != len(self.series):
            raise ValueError("series needs one row per legend")
        if any(len(row) != len(self.labels) for row in self.series):
            raise ValueError("every series row needs one value per label")
        return self


class DrawChart(ActionParams):
    chart_type: ChartType = Field(alias="chartType")
    x: Number
    y: Number
    width: Size
    height: Size
    data: ChartData
    theme_colors: list[Color] = Field(default_factory=lambda: list(DEFAULT_THEME_COLORS), alias="themeColors")
    element_id: OptionalElementId = Field(None, alias="elementId")


_NEWLINE_COMMAND = re.compile(
    r"\n(?=(?:abla|eq|e|u|ot|eg|i|leq|geq|ewline|parallel|subset|subseteq|supset|cong|sim|mid|exists"
    r"|warrow|earrow|rightarrow|leftarrow)\b)"
)
_CONTROL_COMMANDS = {"\t": "\\t", "\r": "\\r", "\x0c": "\\f", "\x08": "\\b", "\x0b": "\\v"}


def repair_latex(value: Any) -> Any:
    r"""Undo JSON escapes that ate a LaTeX backslash: "\theta" written with one backslash is a tab + "heta".

    A formula never wants a tab, carriage return, form feed, backspace or vertical tab, and a newline
    right before "abla" or "eq" was "\nabla" or "\neq".
    """
    if not isinstance(value, str):
        return value
    value = _NEWLINE_COMMAND.sub(lambda _m: "\\n", value)
    for char, command in _CONTROL_COMMANDS.items():
        value = value.replace(char, command)
    return value


class DrawLatex(ActionParams):
    latex: Annotated[str, BeforeValidator(repair_latex), Field(min_length=1)]
    x: Number
    y: Number
    width: Size = 400
    height: Size = 80
    color: Color = "#000000"
    element_id: OptionalElementId = Field(None, alias="elementId")


class TableOutline(ActionParams):
    width: Annotated[float, Field(ge=0, allow_inf_nan=False)] = 2
    style: Literal["solid", "dashed", "dotted"] = "solid"
    color: Color = "#eeece1"


class TableTheme(ActionParams):
    color: Color


class DrawTable(ActionParams):
    x: Number
    y: Number
    width: Size
    height: Size
    data: list[list[CellText]] = Field(min_length=1)
    outline: TableOutline = Field(default_factory=TableOutline)
    theme: TableTheme | None = None
    element_id: OptionalElementId = Field(None, alias="elementId")

    @model_validator(mode="after")
    def _rectangular(self) -> DrawTable:
        width = len(self.data[0])
        if width == 0:
            raise ValueError("the header row is empty")
        if any(len(row) != width for row in self.data):
            raise ValueError("every row needs as many cells as the header row")
        return self


LineEnd = Literal["", "arrow"]


class DrawLine(ActionParams):
    start_x: Number = Field(alias="startX")
    start_y: Number = Field(alias="startY")
    end_x: Number = Field(alias="endX")
    end_y: Number = Field(alias="endY")
    color: Color = "#333333"
    width: Size = 2  # stroke thickness, not length
    style: Literal["solid", "dashed"] = "solid"
    points: tuple[LineEnd, LineEnd] = ("", "")
    element_id: OptionalElementId = Field(None, alias="elementId")


class DrawCode(ActionParams):
    language: Annotated[str, Field(min_length=1, max_length=40)]
    code: str
    x: Number
    y: Number
    width: Size = 500
    height: Size = 300
    file_name: str | None = Field(None, alias="fileName")
    element_id: OptionalElementId = Field(None, alias="elementId")


CodeOperation = Literal["insert_after", "insert_before", "delete_lines", "replace_lines"]


class EditCode(ActionParams):
    element_id: RequiredElementId = Field(alias="elementId")
    operation: CodeOperation
    line_id: str | None = Field(None, alias="lineId")
    line_ids: list[str] | None = Field(None, alias="lineIds")
    content: str | None = None


class DeleteElement(ActionParams):
    element_id: RequiredElementId = Field(alias="elementId")


class Spotlight(ActionParams):
    element_id: RequiredElementId = Field(alias="elementId")
    dim_opacity: Annotated[float, Field(ge=0, le=1)] = Field(0.5, alias="dimOpacity")


class Laser(ActionParams):
    element_id: RequiredElementId = Field(alias="elementId")
    color: Color = "#ff0000"


ACTION_SCHEMAS: dict[str, type[ActionParams]] = {
    "spotlight": Spotlight,
    "laser": Laser,
    "wb_open": NoParams,
    "wb_close": NoParams,
    "wb_draw_text": DrawText,
    "wb_draw_shape": DrawShape,
    "wb_draw_chart": DrawChart,
    "wb_draw_latex": DrawLatex,
    "wb_draw_table": DrawTable,
    "wb_draw_line": DrawLine,
    "wb_draw_code": DrawCode,
    "wb_edit_code": EditCode,
    "wb_clear": NoParams,
    "wb_delete": DeleteElement,
}
assert set(ACTION_SCHEMAS) == set(ALL_ACTIONS)


class InvalidAction(ValueError):
    """An action that cannot be applied; ``reason`` is a short code such as ``invalid_params: x``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def parse_params(name: str, params: Any) -> ActionParams:
    """Validate ``params`` for action ``name`` or raise InvalidAction naming the first bad field."""
    schema = ACTION_SCHEMAS.get(name)
    if schema is None:
        raise InvalidAction(f"unknown_action: {name}")
    if not isinstance(params, dict):
        raise InvalidAction("invalid_params: params")
    try:
        return schema.model_validate(params)
    except ValidationError as exc:
        loc = tuple(exc.errors()[0]["loc"])
        # A whole-table check (DrawTable's rows) has no field of its own: name the data.
        path = field_path(loc) or ("data" if "data" in schema.model_fields else "params")
        raise InvalidAction(f"invalid_params: {path}") from None


_CHIPS = {
    "wb_open": "▣ board opened",
    "wb_close": "▢ board closed",
    "wb_draw_text": "✎ text",
    "wb_draw_shape": "✎ shape",
    "wb_draw_chart": "✎ chart",
    "wb_draw_latex": "✎ formula",
    "wb_draw_table": "✎ table",
    "wb_draw_line": "✎ line",
    "wb_draw_code": "✎ code",
    "wb_edit_code": "✎ code edited",
    "wb_clear": "⌫ board cleared",
    "wb_delete": "⌫ deleted",
    "spotlight": "◎ spotlight",
    "laser": "➚ laser",
}


def action_chip(name: str, params: dict[str, Any]) -> str:
    """A short label for an applied action, as shown inline in a transcript."""
    chip = _CHIPS.get(name, name)
    if name == "wb_draw_line" and "arrow" in params.get("points", ()):
        chip = "✎ arrow"
    element_id = params.get("elementId")
    return f"{chip} [{element_id}]" if element_id and name not in ("wb_clear",) else chip
