"""DESIGN.md §1: imports point down only, and nothing below tui/ imports Textual."""

from __future__ import annotations

import ast
from pathlib import Path

import maic_tui

PACKAGE = Path(maic_tui.__file__).parent
# Lower number = lower layer. A module may import only from its own layer or below.
LAYERS = {
    "events": 0, "actions": 0, "colors": 0, "text_safety": 0, "bad_input": 0, "redaction": 0, "stop_signals": 0,
    "paths": 0, "lazy": 0,
    "classroom": 1, "whiteboard": 2, "llm": 3, "orchestration": 4, "session": 5, "evaluation": 5, "tui": 6, "cli": 7,
}


def layer_of(module: str) -> int:
    return LAYERS[module.split(".")[1]] if module.count(".") else -1


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_imports_point_down_and_the_core_is_headless() -> None:
    files = [p for p in PACKAGE.rglob("*.py") if p.name != "__init__.py" or p.parent != PACKAGE]
    assert files
    for path in files:
        module = "maic_tui." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
        own = layer_of(module)
        for name in imports(path):
            if not name.startswith("maic_tui.") or name == "maic_tui":
                if own < LAYERS["tui"]:
                    assert not name.startswith("textual"), (module, name)
                continue
            assert layer_of(name) <= own, f"{module} imports {name} from a higher layer"
