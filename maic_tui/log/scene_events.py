"""A scene kind's own records (ARCHITECTURE.md, *Scene kinds*): ``scenes/<kind>/records.py`` reads the
``scene_event`` records of its scenes into its state, and says the line the transcript shows for one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, cast

from maic_tui.log.records import SceneEventData
from maic_tui.scenes.registry import scene_part


class KindRecords(Protocol):
    """What ``scenes/<kind>/records.py`` holds."""

    def state(self, scene: Any, events: Sequence[SceneEventData]) -> Any:
        """The scene's state after ``events`` (its own, in log order)."""

    def line(self, scene: Any, event: SceneEventData, language: str) -> str | None:
        """What the transcript says of ``event`` (None: nothing), in the class's ``language``."""


def kind_records(kind: str) -> KindRecords | None:
    part = scene_part(kind, "records")
    return cast(KindRecords, part) if part is not None else None


def of_scene(events: Sequence[SceneEventData], scene: int) -> list[SceneEventData]:
    """The records of scene ``scene``, in order."""
    return [event for event in events if event.scene == scene]
