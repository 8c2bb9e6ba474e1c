"""The room's screen is made of parts, not a chain of screens (ARCHITECTURE.md, *The app*), and tui/ stays in files
a reader can take in at once."""

from __future__ import annotations

import ast
from pathlib import Path

from textual.screen import Screen

import maic_tui.tui
from maic_tui.tui.screens.room import RoomScreen

TUI = Path(maic_tui.tui.__file__).parent


def test_the_room_screen_is_a_screen_that_owns_its_parts() -> None:
    assert RoomScreen.__bases__ == (Screen,)
    for path in [TUI / "screens" / "room.py", *sorted((TUI / "parts").glob("*.py"))]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        assert not {"NotImplementedError", "hasattr"} & names, path.name


def test_every_file_in_tui_is_at_most_400_lines() -> None:
    long = {path.relative_to(TUI).as_posix(): lines for path in TUI.rglob("*.py")
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > 400}
    assert long == {}
