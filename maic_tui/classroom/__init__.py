"""Classroom files: pydantic models and the TOML loader."""

from maic_tui.classroom.loader import (
    DEFAULT_CLASSROOM,
    ClassroomError,
    Problem,
    check_file,
    load_classroom,
    resolve,
    sample_names,
)
from maic_tui.classroom.models import Agent, Classroom, Scene

__all__ = [
    "DEFAULT_CLASSROOM",
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
