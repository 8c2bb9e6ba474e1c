"""A slide in a classroom file: the scene every file had first, and the one a scene is when it names no type."""

from __future__ import annotations

from typing import ClassVar, Literal

from maic_tui.actions import SLIDE_ACTIONS
from maic_tui.scenes.base import SceneBase


class SlideScene(SceneBase):
    """A slide, presented by its steps (or by its teacher through the model when it has none)."""

    type: Literal["slide"] = "slide"
    enables: ClassVar[frozenset[str]] = frozenset(SLIDE_ACTIONS)
