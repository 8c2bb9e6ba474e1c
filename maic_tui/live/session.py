"""A live classroom session: the classroom, its models, board and history, one engine for all its turns.

With a ``LogWriter`` every learner message, interruption, scene change and event is appended to the
session log as it happens; ``restore`` continues a session rebuilt from such a log."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import aclosing
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from maic_tui.classroom.models import Classroom
from maic_tui.classroom.quiz import Grade
from maic_tui.events import Event
from maic_tui.live.lesson_cursor import LessonCursor
from maic_tui.live.warming import Warmer
from maic_tui.llm import ModelOptions
from maic_tui.llm.client import ModelClient
from maic_tui.llm.context import LessonCall
from maic_tui.llm.structured_modes import ModeMemory
from maic_tui.log.records import (
    ClassControlData,
    ClassControlRecord,
    InterruptRecord,
    LearnerData,
    LearnerRecord,
    Record,
    SceneData,
    SceneRecord,
)
from maic_tui.orchestration.context import EngineContext
from maic_tui.orchestration.engine import TurnEngine
from maic_tui.orchestration.history import HistoryEntry
from maic_tui.orchestration.mentions import Addressed
from maic_tui.orchestration.state import TurnSettings
from maic_tui.provider import make_provider
from maic_tui.whiteboard import Whiteboard

if TYPE_CHECKING:
    from maic_tui.log.writer import LogWriter
    from maic_tui.room.replay import Rebuilt

R = TypeVar("R", bound=Record)


class ClassroomSession:
    def __init__(self, classroom: Classroom, model: str = "demo", options: ModelOptions | None = None,
                 settings: TurnSettings | None = None, log: LogWriter | None = None,
                 data_dir: Path | None = None) -> None:
        self.classroom = classroom
        self.log = log
        self._recording_problem: str | None = None
        self._reported: set[str] = set()
        self._turn_recorded = False  # the running turn's learner record is in the log
        self._interrupt_pending = False  # an interruption to record once the learner record is
        self.provider = make_provider(model, classroom, options)
        self.context = EngineContext(classroom, ModelClient(self.provider, ModeMemory(data_dir)),
                                     settings=settings or TurnSettings())
        self.engine = TurnEngine(self.context)
        self.warming = Warmer(self.context)  # the shared part of the prompt sent ahead (live/warming.py)
        self.cursor = LessonCursor.of(classroom)  # where the lesson is: rebuilt from the log on a resume

    @property
    def board(self) -> Whiteboard:
        return self.context.board

    @property
    def history(self) -> list[HistoryEntry]:
        return self.context.history

    def warm(self) -> bool:
        """Send the class's shared part ahead for the server to cache, if it changed since it was last sent (the
        session opened, the scene changed); True when a warm-up started. Never waits."""
        return self.warming.warm()

    def not_recorded(self, reason: str) -> None:
        """The database could not be opened: the session runs anyway, and says so once."""
        self._recording_problem = f"this session is not recorded: {reason}"

    def restore(self, rebuilt: Rebuilt) -> None:
        """Go on from a rebuilt log: same history, board, scene and message numbering; the records that
        closed a turn the log left open are appended to the log."""
        ctx = self.context
        ctx.history, ctx.board, ctx.scene_index = list(rebuilt.history), rebuilt.board, rebuilt.scene_index
        ctx.message_count = rebuilt.message_count
        grades = {r.question_id: Grade(r.earned, r.points, r.comment or "", r.answer) for r in rebuilt.quiz_results}
        self.cursor.restore(rebuilt.lesson_at, grades, rebuilt.lesson_ended)
        if rebuilt.control is not None:
            ctx.settings = replace(ctx.settings, muted=frozenset(rebuilt.control.muted),
                                   max_agents=rebuilt.control.max_agents)
        if self.log is not None:
            for record in rebuilt.repairs:
                self.log.record(record)

    async def turn(self, message: Addressed | str) -> AsyncGenerator[Event, None]:
        """One learner turn, recorded as it happens (the learner's message with its first event: a bad @name in
        a message not read yet raises before anything is recorded)."""
        log = self.log
        text = message.text if isinstance(message, Addressed) else message
        self._turn_recorded = False
        try:
            async with aclosing(self.engine.run(message)) as events:  # closing this closes the graph's run
                async for event in events:
                    if log is not None:
                        if not self._turn_recorded:
                            log.record(LearnerRecord(data=LearnerData(text=self.context.redact(text))))
                            self._turn_recorded = True
                            if self._interrupt_pending:
                                log.record(InterruptRecord())
                        log.record(event)
                    yield event
        finally:
            self._turn_recorded = self._interrupt_pending = False

    async def lesson_turn(self, call: LessonCall) -> AsyncGenerator[Event, None]:
        """A turn the lesson opens (a discussion, a slide presented, a reaction): recorded as it happens."""
        async with aclosing(self.engine.run("", lesson=call)) as events:
            async for event in events:
                yield self.record(event)

    def record(self, record: R) -> R:
        """Append one record to the session log (when recorded) and hand it back."""
        if self.log is not None:
            self.log.record(record)
        return record

    def control(self, muted: frozenset[str], max_agents: int | None) -> ClassControlRecord:
        """Who may speak from the next turn on (the learner's mute, solo, agents per turn), recorded."""
        ctx = self.context
        ctx.settings = replace(ctx.settings, muted=muted, max_agents=max_agents)
        return self.record(ClassControlRecord(data=ClassControlData(muted=sorted(muted), max_agents=max_agents)))

    def start_scene(self, index: int) -> SceneRecord:
        """The lesson starts a scene: agents see it from now on, and the log says so (even for the scene shown)."""
        self.context.scene_index = index
        self.warm()  # the slide shown is part of every prompt: the server reads the new one while the lesson plays
        scene = self.classroom.scenes[index]
        return self.record(SceneRecord(data=SceneData(index=index, id=scene.id, title=scene.title)))

    def interrupt(self) -> None:
        if self.log is not None:
            if self._turn_recorded:
                self.log.record(InterruptRecord())
            else:  # the log must read learner, then interrupt: it is written once the turn's first event is
                self._interrupt_pending = True
        self.engine.interrupt()

    def raise_hand(self) -> None:
        """The learner sent another message while the class speaks: the turn ends after the agent speaking now."""
        self.engine.raise_hand()

    def change_scene(self, index: int) -> None:
        """Agents see this scene (and its slide elements) from their next turn on."""
        if 0 <= index < len(self.classroom.scenes) and index != self.context.scene_index:
            self.context.scene_index = index
            self.warm()
            if self.log is not None:
                scene = self.classroom.scenes[index]
                self.log.record(SceneRecord(data=SceneData(index=index, id=scene.id, title=scene.title)))

    def close(self) -> None:
        """Stop a warm-up under way, write what is still buffered and stop the log writer."""
        self.warming.cancel()
        if self.log is not None:
            self.log.flush()
            self.log.close()

    def recording_problem(self) -> str | None:
        """Why this session is not (or no longer) recorded, once; None while all is well."""
        problem = self._recording_problem or (self.log.error if self.log is not None else None)
        if problem is None or problem in self._reported:
            return None
        self._reported.add(problem)
        return problem
