"""Colour themes from ``themes/*.toml``: one file per theme, checked as strictly as classroom files.

Checked by hand rather than with pydantic on purpose: the chosen theme is needed before the app's first
frame, and building the first pydantic model costs about 170 ms on a 2-core machine (more than everything
else we add to a bare Textual start). The rules are few: known keys only, every key present, colours as
``#rgb``/``#rrggbb``, ``dark`` a boolean, a short lowercase name.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from maic_tui.bad_input import BadInput
from maic_tui.colors import is_hex_color
from maic_tui.i18n import _
from maic_tui.paths import THEMES_DIR

_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


class ThemeError(BadInput):
    """A theme file that cannot be used; one line naming the file and the field."""


@dataclass(frozen=True, slots=True)
class BoardColors:
    """The whiteboard pane: its surface and the ink for elements drawn in the board's default dark ink."""

    background: str
    ink: str
    grid: str


@dataclass(frozen=True, slots=True)
class ThemeSpec:
    name: str
    dark: bool
    primary: str
    secondary: str
    accent: str
    foreground: str
    background: str
    surface: str
    panel: str
    success: str
    warning: str
    error: str
    board: BoardColors


def _color(table: dict[str, Any], key: str, where: str) -> str:
    value = table[key]
    if not isinstance(value, str) or not is_hex_color(value):
        raise ValueError(_("{field}: not a colour: {value} (use #rgb or #rrggbb)").format(field=where + key,
                                                                                         value=repr(value)))
    return value.lower()


def _table(table: dict[str, Any], where: str, check: dict[str, Callable[[dict[str, Any], str, str], Any]]
           ) -> dict[str, Any]:
    """Each key checked in file order of the spec, then unknown keys; the first problem is raised."""
    values = {}
    for key, checker in check.items():
        if key not in table:
            raise ValueError(_("{field}: missing").format(field=where + key))
        values[key] = checker(table, key, where)
    for key in table:
        if key not in check:
            raise ValueError(_("{field}: unknown key").format(field=where + key))
    return values


def _name(table: dict[str, Any], key: str, where: str) -> str:
    value = table[key]
    if not isinstance(value, str) or not _NAME.match(value):
        raise ValueError(_("{field}: {value} is not a theme name (lowercase letters, digits and '-')")
                         .format(field=where + key, value=repr(value)))
    return value


def _dark(table: dict[str, Any], key: str, where: str) -> bool:
    value = table[key]
    if not isinstance(value, bool):
        raise ValueError(_("{field}: {value} is not true or false").format(field=where + key, value=repr(value)))
    return value


def _board(table: dict[str, Any], key: str, where: str) -> BoardColors:
    value = table[key]
    if not isinstance(value, dict):
        raise ValueError(_("{field}: must be a table ([board])").format(field=where + key))
    return BoardColors(**_table(value, f"{where}{key}.", dict.fromkeys(("background", "ink", "grid"), _color)))


_THEME_KEYS: dict[str, Callable[[dict[str, Any], str, str], Any]] = {
    "name": _name,
    "dark": _dark,
    **dict.fromkeys(("primary", "secondary", "accent", "foreground", "background", "surface", "panel", "success",
                     "warning", "error"), _color),
    "board": _board,
}


def parse_theme(data: dict[str, Any]) -> ThemeSpec:
    """A checked theme from a TOML table; ``ValueError("field: what is wrong")`` otherwise."""
    return ThemeSpec(**_table(data, "", _THEME_KEYS))


def load_theme(path: Path) -> ThemeSpec:
    try:
        return parse_theme(tomllib.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError) as exc:
        raise ThemeError(f"{path}: {exc}") from None


def load_themes(folder: Path = THEMES_DIR) -> tuple[list[ThemeSpec], list[str]]:
    """Every theme in ``folder``, sorted by name, and one error line per file that could not be loaded."""
    themes: list[ThemeSpec] = []
    errors: list[str] = []
    for path in sorted(folder.glob("*.toml")):
        try:
            themes.append(load_theme(path))
        except ThemeError as exc:
            errors.append(str(exc))
    return themes, errors
