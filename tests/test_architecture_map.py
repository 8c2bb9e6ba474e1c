"""ARCHITECTURE.md is the map of the code for people who have only the repository: every module is on it, named in
its layer's row or in a section, and every module it names exists."""

from __future__ import annotations

import re
from pathlib import Path

import maic_tui

PACKAGE = Path(maic_tui.__file__).parent
MAP = (PACKAGE.parent / "ARCHITECTURE.md").read_text(encoding="utf-8")
NAMED = set(re.findall(r"`([A-Za-z0-9_/.]+\.py)`", MAP)) | set(re.findall(r"`([A-Za-z0-9_/.]+\.(?:tcss))`", MAP))


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if p.name != "__init__.py")


def _named(path: Path) -> bool:
    parts = path.relative_to(PACKAGE).parts
    # named by any tail of its path: `driver.py`, `live/driver.py`, `maic_tui/live/driver.py`
    return any("/".join(parts[i:]) in NAMED for i in range(len(parts)))


def test_every_module_is_on_the_map() -> None:
    missing = [p.relative_to(PACKAGE).as_posix() for p in _modules() if not _named(p)]
    assert not missing, f"ARCHITECTURE.md names nowhere: {', '.join(missing)}"


def test_every_module_the_map_names_exists() -> None:
    tails = {"/".join(p.relative_to(PACKAGE).parts[i:]) for p in PACKAGE.rglob("*.py")
             for i in range(len(p.relative_to(PACKAGE).parts))}
    tails |= {p.relative_to(PACKAGE.parent).as_posix() for p in PACKAGE.parent.rglob("*.py")
              if ".venv" not in p.parts}
    tails |= {"/".join(p.relative_to(PACKAGE).parts[i:]) for p in PACKAGE.rglob("*.tcss")
              for i in range(len(p.relative_to(PACKAGE).parts))}
    gone = sorted(name for name in NAMED if name not in tails and not name.startswith(("tests/", "bench/")))
    assert not gone, f"ARCHITECTURE.md names modules that do not exist: {', '.join(gone)}"


def test_no_two_modules_share_a_name_but_the_parts_of_scene_kinds() -> None:
    names: dict[str, list[str]] = {}
    for path in _modules():
        parts = path.relative_to(PACKAGE).parts
        if (parts[0] == "scenes" and len(parts) == 3) or parts[:2] == ("tui", "scenes") or path.name == "__main__.py":
            continue  # a kind's parts and its widget are named by their part and kind, by design; __main__: python -m
        names.setdefault(path.name, []).append("/".join(parts))
    repeated = {name: where for name, where in names.items() if len(where) > 1}
    assert not repeated, repeated
