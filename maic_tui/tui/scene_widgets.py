"""The widgets scene kinds bring to the room (ARCHITECTURE.md, *Scene kinds*): ``tui/scenes/<kind>.py`` names its
``WIDGET``, which the room mounts above the composer and shows the lesson's status to each time it changes; the
widget shows itself while a step of its kind waits for the learner (the quiz: the waiting question's options) or
while its scene is on (the project: its issue board)."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Protocol

from textual.widget import Widget

from maic_tui.scenes.registry import KINDS, optional_module

if TYPE_CHECKING:
    from maic_tui.room.lesson_state import LessonStatus

CLASS = "scene-widget"  # every kind's widget has it, so the room finds them all


class SceneWidget(Protocol):
    """What a kind's ``WIDGET`` is, beside being a widget with the class ``scene-widget``."""

    async def show(self, status: LessonStatus | None) -> None:
        """The lesson's status now (None: no lesson): shown if it waits on a step of this kind (or, for a kind that
        shows its scene's state, while its scene is on), else hidden."""


@cache
def _widget_types() -> tuple[type[Widget], ...]:
    modules = (optional_module(f"{__package__}.scenes.{kind}") for kind in KINDS)
    return tuple(module.WIDGET for module in modules if module is not None)


def scene_widgets() -> list[Widget]:
    """One of each registered kind's widgets, hidden until a step of its kind waits."""
    return [widget() for widget in _widget_types()]
