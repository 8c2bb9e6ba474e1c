"""ARCHITECTURE.md, *Layers*: imports point down only, and nothing below tui/ imports Textual."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Container
from pathlib import Path

import pytest

import maic_tui

PACKAGE = Path(maic_tui.__file__).parent
# Lower number = lower layer. A module may import only from its own layer or below.
LAYERS = {
    "events": 0, "actions": 0, "colors": 0, "text_safety": 0, "bad_input": 0, "redaction": 0, "strict": 0,
    "stop_signals": 0, "paths": 0, "lazy": 0, "files": 0, "formulas": 0, "text_cells": 0, "i18n": 0,
    "locale": 0,
    "data": 0, "classroom": 1, "scenes": 1, "whiteboard": 2, "editing": 2, "llm": 3, "settings": 3, "speech": 3,
    "demo": 4, "orchestration": 4,
    "provider": 5, "generation": 5, "log": 5, "room": 6, "learning": 6, "live": 7, "evaluation": 8, "commands": 8,
    "tui": 9, "serve": 9, "cli": 10, "__main__": 11,
}


# A scene kind's package holds one module per part it brings, each at its part's layer (ARCHITECTURE.md, *Scene
# kinds*); its widget is in tui/scenes/.
PART_LAYERS = {"model": 1, "render": 2, "prompt": 4, "demo": 4, "routing": 4, "generation": 5, "records": 5,
               "view": 6, "learning": 6, "lesson": 7, "judging": 7}


def layer_of(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 4 and parts[1] == "scenes" and parts[3] != "__init__":
        return PART_LAYERS[parts[3]]
    return LAYERS[parts[1]] if module.count(".") else -1


def test_a_scene_kind_brings_only_parts_the_seam_knows() -> None:
    kinds = [p for p in (PACKAGE / "scenes").iterdir() if (p / "__init__.py").exists()]
    assert {p.name for p in kinds} >= {"slide", "quiz"}
    for kind in kinds:
        parts = {p.stem for p in kind.glob("*.py")} - {"__init__"}
        assert "model" in parts and parts <= set(PART_LAYERS), (kind.name, parts - set(PART_LAYERS))


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


def _top_level_imports(path: Path, module: str, modules: Container[str] = ()) -> set[str]:
    """maic_tui modules ``module`` imports at its top level, those for type checking included (a loop there is a
    loop in the design, and mypy then reads the modules in an order nobody chose); not those inside functions."""
    found: set[str] = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [*tree.body, *(inner for node in tree.body if isinstance(node, ast.If)
                           and "TYPE_CHECKING" in ast.unparse(node.test) for inner in node.body)]
    for node in nodes:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            named = {f"{base}.{alias.name}" for alias in node.names}
            found |= named
            # ``from package import module`` depends on the module only (Python loads the package first anyway)
            if not named <= set(modules) or not named:
                found.add(base)
    return {name for name in found if name.startswith("maic_tui")}


def test_no_import_cycles_anywhere_inside_a_layer_included() -> None:
    modules: dict[str, Path] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        name = ".".join(("maic_tui", *parts[:-1])) if parts[-1] == "__init__" else ".".join(("maic_tui", *parts))
        modules[name] = path
    graph = {name: {i for i in _top_level_imports(path, name, modules) if i in modules and i != name}
             for name, path in modules.items()}
    visiting: list[str] = []
    done: set[str] = set()

    def visit(name: str) -> None:
        if name in done:
            return
        assert name not in visiting, "import cycle: " + " -> ".join([*visiting[visiting.index(name):], name])
        visiting.append(name)
        for target in sorted(graph[name]):
            visit(target)
        visiting.pop()
        done.add(name)

    assert len(graph) > 50
    for name in sorted(graph):
        visit(name)


@pytest.mark.parametrize("argv", [
    ["run", "derivatives", "--say", "What is a derivative?"],
    ["validate", "derivatives.toml"],
    ["eval", "rule5-question-to-teacher", "--report", "{tmp}/report.json"],
])
def test_the_headless_path_never_imports_textual(argv: list[str], tmp_path: Path) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if args[0] == "validate":
        args[1] = str(PACKAGE.parent / "sample_classrooms" / args[1])
    code = ("import sys\nfrom maic_tui.cli import main\n"
            f"status = main({args!r})\n"
            "loaded = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
            "print('STATUS', status, 'TEXTUAL', loaded)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False,
                          cwd=tmp_path)
    assert "STATUS 0 TEXTUAL []" in done.stdout, done.stdout[-500:] + done.stderr[-500:]


def test_the_demo_is_a_wing_the_rest_reaches_through_its_face() -> None:
    """ARCHITECTURE.md, *The demo*: ``llm/`` is the model-client layer only; the offline demo model is ``demo/``,
    and the code outside it imports only its face (``maic_tui.demo``), never one of its parts."""
    assert not list((PACKAGE / "llm").glob("demo*.py"))
    assert {"chat_model.py", "planner.py", "understanding.py"} <= {p.name for p in (PACKAGE / "demo").glob("*.py")}
    reached: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        inside = path.relative_to(PACKAGE).parts[0]
        for name in imports(path):
            if name.startswith("maic_tui.demo") and inside != "demo":
                assert name == "maic_tui.demo", f"{path.relative_to(PACKAGE)} imports {name}, a part of the demo"
                assert inside not in ("llm", "orchestration"), f"{path.relative_to(PACKAGE)} imports the demo"
                reached.add(str(path.relative_to(PACKAGE)))
    assert "provider.py" in reached
