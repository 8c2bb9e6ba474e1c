"""Themes from ``themes/`` as Textual themes, and colours derived from whichever theme is active."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.theme import Theme

from maic_tui.colors import readable_on
from maic_tui.tui.themes import ThemeSpec, load_themes

if TYPE_CHECKING:
    from maic_tui.whiteboard.render import BoardPalette

DEFAULT_THEME = "chalkboard"


def to_textual(spec: ThemeSpec) -> Theme:
    return Theme(
        name=spec.name, dark=spec.dark, primary=spec.primary, secondary=spec.secondary, accent=spec.accent,
        foreground=spec.foreground, background=spec.background, surface=spec.surface, panel=spec.panel,
        success=spec.success, warning=spec.warning, error=spec.error,
        variables={"board-background": spec.board.background, "board-ink": spec.board.ink},
    )


def register_themes(app: App[Any]) -> tuple[dict[str, ThemeSpec], list[str]]:
    """Register every theme file; returns the specs by name and one error line per broken file."""
    specs, errors = load_themes()
    for spec in specs:
        app.register_theme(to_textual(spec))
    return {spec.name: spec for spec in specs}, errors


def background_of(app: App[object]) -> str:
    theme = app.current_theme
    return theme.background or ("#000000" if theme.dark else "#ffffff")


def agent_color(app: App[object], color: str) -> str:
    """An agent's colour, adjusted just enough to be readable on the active theme's background."""
    try:
        return readable_on(color, background_of(app))
    except ValueError:
        return theme_foreground(app)


def theme_foreground(app: App[object]) -> str:
    theme = app.current_theme
    return theme.foreground or ("#e0e0e0" if theme.dark else "#202020")


def board_palette(app: App[object], specs: dict[str, ThemeSpec]) -> BoardPalette:
    """Our themes say how the board looks; Textual's built-in themes get a board from their own colours."""
    from maic_tui.whiteboard.render import BoardPalette  # the renderer loads with the room, after the first frame

    spec = specs.get(app.theme)
    if spec is not None:
        return BoardPalette(spec.board.background, spec.board.ink, spec.board.grid, spec.dark)
    theme = app.current_theme
    background = theme.surface or background_of(app)
    return BoardPalette(background, theme_foreground(app), theme.panel or background, theme.dark)
