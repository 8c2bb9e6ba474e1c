"""What a scene kind adds to the learning records (ARCHITECTURE.md, *Learning records*): its ``learning`` part
turns its own records into xAPI statements (``told``) and gives the gradebook a column per thing it tracks
(``columns`` and ``cells``: a project's issues)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from maic_tui.log.records import SceneEventData
from maic_tui.scenes.registry import scene_part


@dataclass(frozen=True, slots=True)
class Told:
    """One statement a kind makes of one of its records: the verb (an ADL verb's last word), the activity under
    the scene (a path, as ``issues/site``) with its name and type, and the result."""

    verb: str
    activity: str
    name: str
    kind: str  # the activity's type, an ADL activity type's last word
    result: dict[str, Any] | None = None


class KindLearning(Protocol):
    """What ``scenes/<kind>/learning.py`` holds."""

    def told(self, scene: Any, event: SceneEventData) -> list[Told]:
        """The statements ``event`` makes (none for most)."""

    def columns(self, scene: Any) -> list[str]:
        """The gradebook's columns for a scene of this kind, in order."""

    def cells(self, scene: Any, events: Sequence[SceneEventData]) -> dict[str, str]:
        """Each column's value after the scene's own records ``events`` (a missing column is empty)."""


def kind_learning(kind: str) -> KindLearning | None:
    part = scene_part(kind, "learning")
    return cast(KindLearning, part) if part is not None else None
