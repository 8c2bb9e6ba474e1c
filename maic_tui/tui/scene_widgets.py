"""The widgets scene kinds bring to the room (ARCHITECTURE.md, *Scene kinds*): ``tui/scenes/<kind>.py`` names its
``WIDGET``, which the room mounts above the composer and shows the lesson's status to each time it changes; the
widget shows itself while a step of its kind waits for the learner (the quiz: the waiting question's options) or
while its scene is on (the project: its issue board)."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Protocol

from textual import events
from textual.widget import Widget

from maic_tui.scenes.registry import KINDS, optional_module

if TYPE_CHECKING:
    from maic_tui.room.lesson_state import LessonStatus
    from maic_tui.room.view import ClassroomView
    from maic_tui.scenes.live_state import SceneChange

CLASS = "scene-widget"  # every kind's widget has it, so the room finds them all


class WorkedClass(Protocol):
    """What a kind's widget needs of the class it follows (``tui/parts/the_class.py``'s ``TheClass``): its view
    model, and where the learner's changes go. Named here so the widgets never import the room's parts."""

    @property
    def view(self) -> ClassroomView: ...

    def work(self, scene: int, change: SceneChange) -> None: ...


class SceneWidget(Protocol):
    """What a kind's ``WIDGET`` is, beside being a widget with the class ``scene-widget``."""

    async def show(self, status: LessonStatus | None) -> None:
        """The lesson's status now (None: no lesson): shown if it waits on a step of this kind (or, for a kind that
        shows its scene's state, while its scene is on), else hidden."""

    def follow(self, the_class: WorkedClass) -> None:
        """Once a frame: the class (its view model, the scene shown, its live state) to follow, and to send the
        learner's changes to (``WorkedClass.work``). Cheap when nothing changed."""


@cache
def _widget_types() -> tuple[type[Widget], ...]:
    modules = (optional_module(f"{__package__}.scenes.{kind}") for kind in KINDS)
    return tuple(module.WIDGET for module in modules if module is not None)


def scene_widgets() -> list[Widget]:
    """One of each registered kind's widgets, hidden until a step of its kind waits."""
    return [widget() for widget in _widget_types()]


def typed_on(picker: Widget, event: events.Key, own_keys: frozenset[str]) -> bool:
    """Typing goes to the composer: a printable key moves the focus there and is written there, and so is every
    key that reaches the widget after that (a burst such as ``b⏎`` arrives before the focus has moved, and its
    Enter must send "b", not act on the widget). True when the key was passed on."""
    screen = picker.screen
    if screen.focused is picker and (not event.is_printable or event.key in own_keys):
        return False
    composer = screen.query_one("#composer")
    event.stop()
    event.prevent_default()
    screen.set_focus(composer)
    composer.post_message(events.Key(event.key, event.character))
    return True
