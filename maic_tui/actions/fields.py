"""Field types shared by the action parameter schemas: numbers that refuse booleans, sizes, colours, cell
text, element ids, shape names, and the repair of LaTeX whose backslashes JSON ate."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, Field

from maic_tui.colors import normalize_color


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


def shape_name(value: Any) -> Any:
    if isinstance(value, str):
        key = value.strip().lower()
        return _SHAPE_ALIASES.get(key, key)
    return value


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
