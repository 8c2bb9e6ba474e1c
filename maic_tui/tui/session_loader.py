"""How the app gets its session: built in a worker thread, so the first frame never waits for LangGraph."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maic_tui.classroom.models import Classroom
    from maic_tui.llm import ModelOptions
    from maic_tui.orchestration.state import TurnSettings
    from maic_tui.session.classroom_session import ClassroomSession


@dataclass(frozen=True)
class SessionRecipe:
    """Everything needed to build a session except the classroom (which the app may switch)."""

    model: str = "demo"
    options: ModelOptions | None = None
    settings: TurnSettings | None = None  # limits for routing QA


def build_session(classroom: Classroom, recipe: SessionRecipe) -> ClassroomSession:
    from maic_tui.session.classroom_session import ClassroomSession

    return ClassroomSession(classroom, recipe.model, recipe.options, recipe.settings)
