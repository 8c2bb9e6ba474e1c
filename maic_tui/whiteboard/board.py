"""The in-memory whiteboard and its reducer: one ``apply`` for all twelve ``wb_*`` actions.

Deterministic by construction: ids come from counters held in the board, so replaying the same
actions on a fresh board gives the same board, ids included. A rejected action changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from copy import deepcopy
from dataclasses import dataclass, field
from typing import Any

from maic_tui.actions import (
    WHITEBOARD_ACTIONS,
    ActionParams,
    DeleteElement,
    DrawChart,
    DrawCode,
    DrawLatex,
    DrawLine,
    DrawShape,
    DrawTable,
    DrawText,
    EditCode,
    InvalidAction,
    parse_params,
)
from maic_tui.whiteboard.code_edit import edit_code, initial_lines
from maic_tui.whiteboard.conflicts import conflict_report, find_conflicts
from maic_tui.whiteboard.elements import (
    ChartElement,
    CodeElement,
    Element,
    LatexElement,
    LineElement,
    ShapeElement,
    TableElement,
    TextElement,
)
from maic_tui.whiteboard.history import History, Snapshot
from maic_tui.whiteboard.latex_text import latex_in_text
from maic_tui.whiteboard.summary import board_summary


@dataclass(frozen=True, slots=True)
class ApplyResult:
    ok: bool
    reason: str | None = None
    # The params as applied, in event form: defaults filled in, generated element and line ids added.
    params: dict[str, Any] = field(default_factory=dict)
    element_id: str | None = None


class Whiteboard:
    def __init__(self) -> None:
        self.is_open = False
        self._elements: tuple[Element, ...] = ()
        self._counters: dict[str, int] = {}
        self._applied = 0
        self.history = History()

    # --- reading -----------------------------------------------------------------------------------

    @property
    def elements(self) -> tuple[Element, ...]:
        return self._elements

    def get(self, element_id: str) -> Element | None:
        return next((e for e in self._elements if e.id == element_id), None)

    def conflicts(self) -> list[str]:
        return find_conflicts(self._elements)

    def conflict_report(self) -> str:
        return conflict_report(self._elements)

    def summary(self) -> str:
        return board_summary(self._elements)

    def state(self) -> dict[str, Any]:
        """Everything that defines the board, for comparing two boards (replays)."""
        return {
            "open": self.is_open,
            "elements": [e.model_dump() for e in self._elements],
            "counters": dict(self._counters),
        }

    def copy(self) -> Whiteboard:
        """A board of its own with the same content: changes to it leave this one as it is."""
        twin = Whiteboard()
        twin.is_open, twin._elements, twin._counters = self.is_open, self._elements, dict(self._counters)
        twin._applied, twin.history = self._applied, deepcopy(self.history)
        return twin

    # --- changing ----------------------------------------------------------------------------------

    def apply(self, name: str, params: Any = None) -> ApplyResult:
        if name not in WHITEBOARD_ACTIONS:
            return ApplyResult(False, f"unknown_action: {name}")
        try:
            parsed = parse_params(name, {} if params is None else params)
            result = self._dispatch(name, parsed)
        except InvalidAction as exc:
            return ApplyResult(False, exc.reason)
        self._applied += 1
        return result

    def restore(self, index: int) -> ApplyResult:
        """Bring back a history snapshot; the current content is saved first so nothing is lost."""
        if not -len(self.history) <= index < len(self.history):
            return ApplyResult(False, "snapshot_not_found")
        snapshot: Snapshot = self.history[index]
        if snapshot.elements != self._elements:
            self.history.push(self._applied, self._elements)
            self._elements = snapshot.elements
        self.is_open = True
        return ApplyResult(True)

    def _dispatch(self, name: str, params: ActionParams) -> ApplyResult:
        if name == "wb_open":
            self.is_open = True
            return ApplyResult(True)
        if name == "wb_close":
            self.is_open = False
            return ApplyResult(True)
        if name == "wb_clear":
            if not self._elements:
                raise InvalidAction("board_empty")
            self.history.push(self._applied, self._elements)
            self._elements = ()
            self.is_open = True
            return ApplyResult(True)
        if isinstance(params, DeleteElement):
            if self.get(params.element_id) is None:
                raise InvalidAction(f"element_not_found: {params.element_id}")
            self._elements = tuple(e for e in self._elements if e.id != params.element_id)
            self.is_open = True
            return ApplyResult(True, params=params.wire(), element_id=params.element_id)
        if isinstance(params, EditCode):
            return self._edit_code(params)
        return self._draw(params)

    def _draw(self, params: ActionParams) -> ApplyResult:
        requested = getattr(params, "element_id", None)
        element = _build(params)  # built first: text that is a formula becomes a latex element
        same = self._same_as(element)
        if same is not None and requested in (None, same.id):  # drawn again (the same answer twice): one copy
            self.is_open = True
            return ApplyResult(True, params=_wire(params, same), element_id=same.id)
        if requested is not None and self.get(requested) is not None:
            raise InvalidAction(f"element_id_conflict: {requested}")
        element_id = requested or self._next_id(element.type)
        self._note_id(element.type, element_id)
        element = element.model_copy(update={"id": element_id})
        self._elements = (*self._elements, element)
        self.is_open = True
        return ApplyResult(True, params=_wire(params, element), element_id=element_id)

    def _same_as(self, element: Element) -> Element | None:
        """An element already on the board with this one's kind, place and content."""
        for existing in self._elements:
            if type(existing) is type(element) and existing == element.model_copy(update={"id": existing.id}):
                return existing
        return None

    def _edit_code(self, params: EditCode) -> ApplyResult:
        target = self.get(params.element_id)
        if target is None:
            raise InvalidAction(f"element_not_found: {params.element_id}")
        if not isinstance(target, CodeElement):
            raise InvalidAction(f"not_a_code_element: {params.element_id}")
        edited, written = edit_code(target, params)
        self._elements = tuple(edited if e is target else e for e in self._elements)
        self.is_open = True
        return ApplyResult(True, params=params.wire() | {"newLineIds": written}, element_id=target.id)

    def _note_id(self, element_type: str, element_id: str) -> None:
        # An explicit id in the generated form counts as generated, so a replay of emitted events (which
        # carry the ids) leaves the counters, and so every later generated id, exactly as they were.
        prefix, _, number = element_id.rpartition("_")
        if prefix == element_type and number.isdigit():
            self._counters[element_type] = max(self._counters.get(element_type, 0), int(number))

    def _next_id(self, element_type: str) -> str:
        taken = {e.id for e in self._elements}
        number = self._counters.get(element_type, 0)
        while True:
            number += 1
            candidate = f"{element_type}_{number}"
            if candidate not in taken:
                self._counters[element_type] = number
                return candidate


def _wire(params: ActionParams, element: Element) -> dict[str, Any]:
    """The draw as applied, in event form: with its element id (and a code block's line ids)."""
    wire = params.wire() | {"elementId": element.id}
    if isinstance(element, CodeElement):
        wire["lineIds"] = [line.id for line in element.lines]
    return wire


def _text(params: DrawText) -> Element:
    box = {"id": "", "left": params.x, "top": params.y, "width": params.width, "height": params.height}
    latex = latex_in_text(params.content)  # text that is a formula becomes a formula
    if latex is not None:
        return LatexElement(**box, latex=latex, color=params.color)
    return TextElement(**box, content=params.content, font_size=params.font_size, color=params.color)


def _shape(params: DrawShape) -> Element:
    return ShapeElement(id="", left=params.x, top=params.y, width=params.width, height=params.height,
                        shape=params.shape, fill=params.fill_color)


def _chart(params: DrawChart) -> Element:
    data = params.data
    legends = tuple(data.legends) or tuple(f"Series {i}" for i in range(1, len(data.series) + 1))
    return ChartElement(id="", left=params.x, top=params.y, width=params.width, height=params.height,
                        chart_type=params.chart_type, labels=tuple(data.labels), legends=legends,
                        series=tuple(tuple(row) for row in data.series), theme_colors=tuple(params.theme_colors))


def _latex(params: DrawLatex) -> Element:
    return LatexElement(id="", left=params.x, top=params.y, width=params.width, height=params.height,
                        latex=params.latex, color=params.color)


def _table(params: DrawTable) -> Element:
    return TableElement(id="", left=params.x, top=params.y, width=params.width, height=params.height,
                        cells=tuple(tuple(row) for row in params.data), outline_width=params.outline.width,
                        outline_style=params.outline.style, outline_color=params.outline.color,
                        theme_color=params.theme.color if params.theme else None)


def _line(params: DrawLine) -> Element:
    return LineElement(id="", left=min(params.start_x, params.end_x), top=min(params.start_y, params.end_y),
                       width=abs(params.end_x - params.start_x), height=abs(params.end_y - params.start_y),
                       start_x=params.start_x, start_y=params.start_y, end_x=params.end_x, end_y=params.end_y,
                       color=params.color, stroke_width=params.width, style=params.style,
                       start_marker=params.points[0], end_marker=params.points[1])


def _code(params: DrawCode) -> Element:
    lines = initial_lines(params.code)
    return CodeElement(id="", left=params.x, top=params.y, width=params.width, height=params.height,
                       language=params.language, lines=lines, file_name=params.file_name,
                       next_line_number=len(lines) + 1)


# The element each draw action builds, id still blank (defaults come from the schemas).
BUILDERS: dict[type[ActionParams], Callable[[Any], Element]] = {
    DrawText: _text, DrawShape: _shape, DrawChart: _chart, DrawLatex: _latex, DrawTable: _table,
    DrawLine: _line, DrawCode: _code,
}


def _build(params: ActionParams) -> Element:
    builder = BUILDERS.get(type(params))
    if builder is None:  # pragma: no cover - _dispatch sends only draw actions here
        raise InvalidAction("unknown_action")
    return builder(params)
