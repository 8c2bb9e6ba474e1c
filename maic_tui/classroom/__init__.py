"""Classroom files: pydantic models and the TOML loader.

Exports load on first use: whoever imports one part must not build the classroom and action schemas with it
(the app validates the classroom file after its first frame).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from maic_tui.lazy import lazy_exports

if TYPE_CHECKING:
    from maic_tui.classroom.loader import (
        ClassroomError,
        Problem,
        check_file,
        load_classroom,
        resolve,
        sample_names,
    )
    from maic_tui.classroom.models import Agent, Classroom, Scene

_HOME = {
    **dict.fromkeys(
        ("ClassroomError", "Problem", "check_file", "load_classroom", "resolve", "sample_names"),
        "loader",
    ),
    **dict.fromkeys(("Agent", "Classroom", "Scene"), "models"),
}

__all__ = [
    "Agent",
    "Classroom",
    "ClassroomError",
    "Problem",
    "Scene",
    "check_file",
    "load_classroom",
    "resolve",
    "sample_names",
]


__getattr__ = lazy_exports(__name__, _HOME)
