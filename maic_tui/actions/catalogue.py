"""The action catalogue: names, roles and their default actions, the schema of each action, parsing."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ValidationError

from maic_tui.actions.schemas import (
    ActionParams,
    ClearBoard,
    CloseBoard,
    DeleteElement,
    DrawChart,
    DrawCode,
    DrawLatex,
    DrawLine,
    DrawShape,
    DrawTable,
    DrawText,
    EditCode,
    Laser,
    OpenBoard,
    Spotlight,
    WidgetAnnotation,
    WidgetHighlight,
    WidgetReveal,
    WidgetSetState,
)
from maic_tui.bad_input import field_path
from maic_tui.i18n import _

Role = Literal["teacher", "assistant", "student"]  # the one list of roles (classroom files, prompts, guards)

ACTION_SCHEMAS: dict[str, type[ActionParams]] = {
    "spotlight": Spotlight,
    "laser": Laser,
    "wb_open": OpenBoard,
    "wb_close": CloseBoard,
    "wb_draw_text": DrawText,
    "wb_draw_shape": DrawShape,
    "wb_draw_chart": DrawChart,
    "wb_draw_latex": DrawLatex,
    "wb_draw_table": DrawTable,
    "wb_draw_line": DrawLine,
    "wb_draw_code": DrawCode,
    "wb_edit_code": EditCode,
    "wb_clear": ClearBoard,
    "wb_delete": DeleteElement,
    "widget_highlight": WidgetHighlight,
    "widget_setState": WidgetSetState,
    "widget_annotation": WidgetAnnotation,
    "widget_reveal": WidgetReveal,
}
SLIDE_ACTIONS: tuple[str, ...] = ("spotlight", "laser")
WIDGET_ACTIONS: tuple[str, ...] = ("widget_highlight", "widget_setState", "widget_annotation", "widget_reveal")
WHITEBOARD_ACTIONS: tuple[str, ...] = tuple(name for name in ACTION_SCHEMAS if name.startswith("wb_"))
ALL_ACTIONS: tuple[str, ...] = tuple(ACTION_SCHEMAS)
ROLE_DEFAULT_ACTIONS: dict[Role, tuple[str, ...]] = {
    "teacher": ALL_ACTIONS,
    "assistant": WHITEBOARD_ACTIONS,
    "student": WHITEBOARD_ACTIONS,
}


class InvalidAction(ValueError):
    """An action that cannot be applied; ``reason`` is a short code such as ``invalid_params: x``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def abilities(actions: list[str]) -> str:
    """What an agent may do, in the words of the transcript's chips: ``✎ text · ✎ formula · ◎ spotlight``."""
    drawing = [name for name in actions if name.startswith(("wb_draw_", "wb_edit_")) or name in SLIDE_ACTIONS]
    return " · ".join(ACTION_SCHEMAS[name].CHIP for name in drawing)


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


def action_chip(name: str, params: dict[str, Any]) -> str:
    """A short label for an applied action (params in event form), as shown inline in a transcript."""
    schema = ACTION_SCHEMAS.get(name)
    if schema is None:
        return name
    try:
        chip = parse_params(name, params).chip()
    except InvalidAction:  # a replayed log may hold anything; the label still reads
        chip = _(schema.CHIP)
    element_id = params.get("elementId")
    return f"{chip} [{element_id}]" if element_id and name != "wb_clear" else chip


def action_summary(name: str, params: dict[str, Any]) -> str | None:
    """The ledger line of an applied action, or None when it is not worth one.

    Ledgers a client sends back may be partial: a record that does not validate is read as it is."""
    schema = ACTION_SCHEMAS.get(name)
    if schema is None:
        return None
    try:
        return parse_params(name, params).ledger()
    except InvalidAction:
        names = {field.alias or key: key for key, field in schema.model_fields.items()}
        loose = schema.model_construct(**{names[k]: v for k, v in params.items() if k in names})
        try:
            return loose.ledger()
        except (AttributeError, TypeError, ValueError):
            return None
