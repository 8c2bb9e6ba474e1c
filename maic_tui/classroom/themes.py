"""Colour themes from ``themes/*.toml``: one file per theme, checked like classroom files."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from maic_tui.actions import field_path
from maic_tui.classroom.models import HexColor

THEMES_DIR = Path(__file__).resolve().parents[2] / "themes"


class ThemeError(ValueError):
    """A theme file that cannot be used; one line naming the file and the field."""


class BoardColors(BaseModel):
    """The whiteboard pane: its surface and the ink for elements drawn in the board's default dark ink."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    background: HexColor
    ink: HexColor
    grid: HexColor


class ThemeSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]{0,39}$")]
    dark: bool
    primary: HexColor
    secondary: HexColor
    accent: HexColor
    foreground: HexColor
    background: HexColor
    surface: HexColor
    panel: HexColor
    success: HexColor
    warning: HexColor
    error: HexColor
    board: BoardColors


def load_theme(path: Path) -> ThemeSpec:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return ThemeSpec.model_validate(data)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ThemeError(f"{path}: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        raise ThemeError(f"{path}: {field_path(first['loc'])}: {first['msg']}") from None


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
