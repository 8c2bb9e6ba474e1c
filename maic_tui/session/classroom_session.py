"""A live classroom session: the classroom, its models, board and history, one engine for all its turns."""

from __future__ import annotations

from collections.abc import AsyncIterator

from maic_tui.classroom.models import Classroom
from maic_tui.events import Event
from maic_tui.llm import ModelOptions, make_provider
from maic_tui.orchestration.context import EngineContext
from maic_tui.orchestration.engine import TurnEngine
from maic_tui.orchestration.history import HistoryEntry
from maic_tui.orchestration.state import TurnSettings
from maic_tui.whiteboard import Whiteboard


class ClassroomSession:
    def __init__(self, classroom: Classroom, model: str = "demo", options: ModelOptions | None = None,
                 settings: TurnSettings | None = None) -> None:
        self.classroom = classroom
        provider = make_provider(model, classroom, options)
        self.context = EngineContext(classroom, provider, settings=settings or TurnSettings())
        self.engine = TurnEngine(self.context)

    @property
    def board(self) -> Whiteboard:
        return self.context.board

    @property
    def history(self) -> list[HistoryEntry]:
        return self.context.history

    def check_message(self, message: str) -> None:
        """Raise UnknownAgentError for a message naming an agent that is not here."""
        self.engine.first_agent(message)

    def turn(self, message: str) -> AsyncIterator[Event]:
        return self.engine.run(message)

    def interrupt(self) -> None:
        self.engine.interrupt()

    def change_scene(self, index: int) -> None:
        """Agents see this scene (and its slide elements) from their next turn on."""
        if 0 <= index < len(self.classroom.scenes):
            self.context.scene_index = index
